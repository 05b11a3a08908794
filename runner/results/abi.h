/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pinned AppArmor feature sets (abi/): the name a captured set is kept
 * under, a plausibility check of what the guest wrote, and abi/SOURCES,
 * which says where each set came from. Pure of I/O.
 */
#ifndef LSMCONF_ABI_H
#define LSMCONF_ABI_H

#include <stdbool.h>
#include <stddef.h>

/* The file of abi/ that records where each set came from. */
#define ABI_SOURCES "SOURCES"
#define ABI_SOURCES_HEADER                                           \
	"# Pinned AppArmor feature sets: one line per file of this " \
	"directory,\n# written by `lsmconf abi` (see README.md).\n"  \
	"# name\trelease\tpackage\tversion\tcaptured\tcommand\n"

/*
 * The name a kernel's set is kept under: MAJOR.MINOR of @release
 * ("6.12.117+deb13-amd64" -> "6.12"). 0, or -1 when @release does not
 * start with two numbers joined by a dot or @out is too small.
 */
int abi_set_name(const char *release, char *out, size_t size);

/*
 * Whether @name may name a pinned set (--abi NAME): letters, digits, '.',
 * '_', '-', not starting with '.' and not SOURCES.
 */
bool abi_name_ok(const char *name);

/*
 * Whether @text (@len bytes) looks like a feature set as libapparmor
 * writes it: no NUL, braces balanced and closed, a "policy {" section
 * (every AppArmor kernel advertises one). 0, or -1 with the reason in
 * @why.
 */
int abi_features_check(const char *text, size_t len, char *why, size_t size);

/*
 * @sources (the text of abi/SOURCES, NULL or "" when there is none yet)
 * with the line of set @name replaced by @line (one line, no newline), or
 * @line appended when there was none; a new file starts with the header.
 * malloc'd.
 */
char *abi_sources_update(const char *sources, const char *name,
			 const char *line);

#endif
