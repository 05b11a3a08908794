/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel's identity as the kernel itself reports it, not as a spec
 * names it: its upstream version, and which of two kernels' identities
 * lets an advertised feature explain a changed decision. Pure of I/O.
 */
#ifndef LSMCONF_IDENTITY_H
#define LSMCONF_IDENTITY_H

#include <stddef.h>

/*
 * The upstream version (VERSION.PATCHLEVEL.SUBLEVEL) in a kernel's
 * /proc/version text @proc: a Debian kernel's own "Debian X.Y.Z-N" after
 * its build number "#N" (the compiler's, before it, is "Debian
 * 12.2.0-..." on any kernel Debian's gcc built), since a stable
 * Debian release string keeps an ABI name ("6.1.0-50-amd64" is 6.1.176);
 * else the release after "Linux version " ("7.2.13-lsmconf-..." is
 * 7.2.13, "6.8" is 6.8.0). 0 with it in @out, -1 when @proc names none.
 */
int identity_upstream(const char *proc, char *out, size_t size);

/*
 * The upstream version a Debian package version stands for ("7.2.13-1",
 * "6.12.117-1~bpo12+1": its upstream part, X.Y or X.Y.Z), or -1.
 */
int identity_upstream_of_version(const char *version, char *out, size_t size);

/* Whether an advertised feature may explain a change between two kernels. */
enum cmp_identity {
	/* Two upstream versions and two sources: a feature explains. */
	CMP_UPSTREAM_DIFFERENT,
	/*
	 * One upstream version (or one source, a patched build against its
	 * base): a feature that differs is the change itself, a finding.
	 */
	CMP_UPSTREAM_SAME,
	/* A side records no upstream version: features explain nothing. */
	CMP_UPSTREAM_UNKNOWN,
};

/*
 * The rule for two kernels of upstream versions @ua, @ub and sources @sa,
 * @sb (kernel.txt's upstream and source lines; NULL, "" or "-" when not
 * recorded): one source, or one upstream version, is the same kernel
 * release under two names.
 */
enum cmp_identity identity_rule(const char *ua, const char *ub, const char *sa,
				const char *sb);
/* "different upstream versions", "one upstream version", "no identity". */
const char *identity_rule_name(enum cmp_identity id);

#endif
