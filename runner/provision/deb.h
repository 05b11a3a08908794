/* SPDX-License-Identifier: GPL-2.0 */
/* Pulls selected files out of Debian packages (dpkg-deb + libarchive). */
#ifndef LSMCONF_DEB_H
#define LSMCONF_DEB_H

#include <stddef.h>

/*
 * Decides what happens to one member (@path without the leading "./"):
 * return a malloc'd destination path to extract it there, or NULL to skip.
 */
typedef char *(*deb_select_fn)(const char *path, void *ctx);

/*
 * Extracts the members @select picks from the data of package @deb.
 * When @nested is not NULL, the member of that name (a compressed tarball
 * inside the package, as in linux-source-*) is opened instead and
 * @select applies to its members. Returns the number of files extracted,
 * or -1 with a one-line reason in @err (corrupt or truncated package...).
 * A member with a ".." component, or one whose destination is under a
 * symlink extracted before it, makes the package "unsafe": nothing more is
 * extracted (what came before it stays).
 */
int deb_extract(const char *deb, const char *nested, deb_select_fn select,
		void *ctx, char *err, size_t size);

/* dpkg-deb --field: the value of @field of package @deb, malloc'd or NULL. */
char *deb_field(const char *deb, const char *field);

#endif
