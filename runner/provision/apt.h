/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Debian packages through a private apt state: the system's apt
 * configuration is read, never written, and the archive URIs come from the
 * system's own sources.
 */
#ifndef LSMCONF_APT_H
#define LSMCONF_APT_H

#include <stdbool.h>
#include <stddef.h>

struct apt_source {
	char *uri;
	char *suite;
	char *signed_by; /* may be NULL */
};

/* Parses deb822 (*.sources) or one-line (*.list) text; appends "deb" entries. */
void apt_parse_sources(const char *text, bool deb822, struct apt_source **v,
		       size_t *n);
void apt_sources_free(struct apt_source *v, size_t n);

/*
 * The private sources.list: every archive whose system entry names a plain
 * suite (e.g. "bookworm") serves @suites; "-security" suites are kept as
 * they are. Entries signed by a key other than Debian's archive keyring are
 * third-party repositories and are skipped. Returns malloc'd text, or NULL
 * when no usable archive was found.
 */
char *apt_private_sources(const struct apt_source *v, size_t n,
			  const char *const *suites);

/* From `apt-cache madison` output: the first (highest) version of @pkg in
 * @suite (NULL: any suite). Returns malloc'd version or NULL. */
char *apt_madison_pick(const char *madison, const char *pkg, const char *suite);

/* The value of @field in a deb822 stanza (first stanza only), malloc'd or NULL. */
char *apt_stanza_field(const char *stanza, const char *field);

/* The first package in a Depends value named PREFIX*SUFFIX, malloc'd or NULL. */
char *apt_depends_find(const char *depends, const char *prefix,
		       const char *suffix);

/* The suites lsmconf knows (LSMCONF_DEBIAN_SUITES overrides). */
const char *const *apt_suites(void);
bool apt_is_suite(const char *name);

struct err;

/*
 * Makes sure the private package lists exist (downloads them once).
 * Returns 0, or -1 with the reason in @e.
 */
int apt_ready(bool refresh, struct err *e);
/* Runs apt-cache with the private state; returns its stdout, or NULL and @e. */
char *apt_cache(const char *cmd, const char *arg, struct err *e);
/*
 * The user apt downloads as: "_apt" (apt's own sandbox) when lsmconf runs
 * as root and _apt can reach the private state, else "root" (as non-root
 * apt runs as the caller anyway).
 */
const char *apt_sandbox_user(void);

/*
 * Downloads PKG=VERSION into @dir, verifies its SHA256 and returns its
 * path, or NULL with the reason in @e.
 */
char *apt_download(const char *pkg, const char *version, const char *dir,
		   struct err *e);

#endif
