// SPDX-License-Identifier: GPL-2.0
/* A kernel's identity as it reports it: see identity.h. */
#define _GNU_SOURCE
#include "identity.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* The decimal number at *@s, advanced past it; -1 when none is there. */
static long number(const char **s)
{
	long v = 0;
	int digits = 0;

	while (**s >= '0' && **s <= '9' && digits < 9) {
		v = v * 10 + (**s - '0');
		(*s)++;
		digits++;
	}
	return digits ? v : -1;
}

/*
 * "X.Y" or "X.Y.Z" at @s as "X.Y.Z" in @out (a missing SUBLEVEL is 0, as
 * the kernel's Makefile has it): -1 when @s is not one.
 */
static int triple(const char *s, char *out, size_t size)
{
	long x = number(&s), y = -1, z = 0;

	if (x >= 0 && *s == '.') {
		s++;
		y = number(&s);
	}
	if (y < 0)
		return -1;
	if (*s == '.' && s[1] >= '0' && s[1] <= '9') {
		s++;
		z = number(&s);
	}
	snprintf(out, size, "%ld.%ld.%ld", x, y, z);
	return 0;
}

int identity_upstream(const char *proc, char *out, size_t size)
{
	const char *p, *build, *last = NULL;

	if (!proc)
		return -1;
	/*
	 * After the build number ("#1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1
	 * (date)"): before it, the compiler's "(Debian 12.2.0-14...)".
	 */
	build = strstr(proc, " #");
	for (p = build; p && (p = strstr(p, "Debian ")); p += 7)
		if (p[7] >= '0' && p[7] <= '9')
			last = p + 7;
	if (last && !triple(last, out, size))
		return 0;
	p = strstr(proc, "Linux version ");
	return p ? triple(p + 14, out, size) : -1;
}

int identity_upstream_of_version(const char *version, char *out, size_t size)
{
	const char *colon;

	if (!version)
		return -1;
	/* An epoch ("1:6.1.0-1") precedes the upstream part. */
	colon = strchr(version, ':');
	return triple(colon ? colon + 1 : version, out, size);
}

static bool known(const char *s)
{
	return s && *s && strcmp(s, "-");
}

enum cmp_identity identity_rule(const char *ua, const char *ub, const char *sa,
				const char *sb)
{
	if (known(sa) && known(sb) && !strcmp(sa, sb))
		return CMP_UPSTREAM_SAME;
	if (!known(ua) || !known(ub))
		return CMP_UPSTREAM_UNKNOWN;
	return strcmp(ua, ub) ? CMP_UPSTREAM_DIFFERENT : CMP_UPSTREAM_SAME;
}

const char *identity_rule_name(enum cmp_identity id)
{
	static const char *const names[] = {
		[CMP_UPSTREAM_DIFFERENT] = "different upstream versions",
		[CMP_UPSTREAM_SAME] = "one upstream version",
		[CMP_UPSTREAM_UNKNOWN] = "no identity",
	};

	return (unsigned int)id <= CMP_UPSTREAM_UNKNOWN ? names[id] : "?";
}
