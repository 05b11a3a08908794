/* SPDX-License-Identifier: GPL-2.0 */
/* Debian's kernel source trees, downloaded and extracted once. */
#ifndef LSMCONF_SOURCE_H
#define LSMCONF_SOURCE_H

/*
 * The extracted tree of linux-source-@series (e.g. "7.2"); with @series
 * NULL, the series the linux-source package of @suite points to.
 * Returns a malloc'd path, or NULL with a one-line error naming @what in
 * @e.
 */
struct err;
char *debian_source_tree(const char *what, const char *series,
			 const char *suite, struct err *e);

#endif
