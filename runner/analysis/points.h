/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The points of the measuring subcommands: a space-separated list of
 * "A:B" (bench's WORKLOAD:CONFINEMENT, msgcost's CATS:LEVEL), read one
 * point at a time; each command checks its own names.
 */
#ifndef LSMCONF_ANALYSIS_POINTS_H
#define LSMCONF_ANALYSIS_POINTS_H

#include <stddef.h>

struct point {
	const char *text; /* the point in the list, not NUL-terminated */
	int len;
	int alen; /* A: text[0 .. alen) */
	const char *b; /* B: after the ':' */
	int blen;
};

/*
 * The next point of the list at *@p into @pt, *@p moved past it: 1, 0
 * when no point is left, -EINVAL when it has no ':' (@pt then holds its
 * text and length, A the whole of it).
 */
int point_next(const char **p, struct point *pt);

/* @names, @n of them, joined with ", " into @buf of @size. */
const char *names_join(const char *const *names, size_t n, char *buf,
		       size_t size);

#endif
