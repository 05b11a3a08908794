// SPDX-License-Identifier: GPL-2.0
/*
 * Path evidence: probe.tsv of the A, B and A2 boots, and the functions of
 * the LSM path whose calls (or instructions) per message changed.
 */
#include "path.h"
#include "lib/lib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool parse_ll(const char *s, long long *v)
{
	char *end;

	if (!*s)
		return false;
	*v = strtoll(s, &end, 10);
	return !*end;
}

/* "# POINT tracer: INSTRUCTIONS" */
static bool parse_tracer(const char *line, struct path_set *set)
{
	struct path_tracer t = { 0 };
	const char *sep = strstr(line, " tracer: ");
	size_t len;

	if (strncmp(line, "# ", 2) || !sep || sep - line - 2 <= 0 ||
	    (size_t)(sep - line - 2) >= sizeof(t.point) ||
	    !parse_ll(sep + 9, &t.cost) || t.cost < 0)
		return false;
	len = sep - line - 2;
	memcpy(t.point, line + 2, len);
	set->tracer = xrealloc(set->tracer, (set->n_tracer + 1) * sizeof(t));
	set->tracer[set->n_tracer++] = t;
	return true;
}

/* "# POINT skipped: REASON" */
static bool parse_skip(const char *line, struct path_set *set)
{
	struct path_skip s = { 0 };
	const char *sep = strstr(line, " skipped: ");
	size_t len;

	if (strncmp(line, "# ", 2) || !sep || sep - line - 2 <= 0 ||
	    (size_t)(sep - line - 2) >= sizeof(s.point))
		return false;
	len = sep - line - 2;
	memcpy(s.point, line + 2, len);
	snprintf(s.reason, sizeof(s.reason), "%s", sep + 10);
	set->skip = xrealloc(set->skip, (set->n_skip + 1) * sizeof(s));
	set->skip[set->n_skip++] = s;
	return true;
}

static bool parse_row(char *line, struct path_row *r)
{
	char *f[6], *save = NULL;
	int n = 0;
	char *t;

	for (t = strtok_r(line, "\t", &save); t && n < 6;
	     t = strtok_r(NULL, "\t", &save))
		f[n++] = t;
	if (n != 5 || strlen(f[0]) >= sizeof(r->point) ||
	    strlen(f[1]) >= sizeof(r->function) || !strchr(f[0], ':'))
		return false;
	memset(r, 0, sizeof(*r));
	strcpy(r->point, f[0]);
	strcpy(r->function, f[1]);
	if (!strcmp(f[2], "absent"))
		r->status = PATH_ABSENT;
	else if (!strcmp(f[2], "unprobeable"))
		r->status = PATH_UNPROBEABLE;
	else if (!parse_ll(f[2], &r->calls) || r->calls < 0)
		return false;
	if (!parse_ll(f[3], &r->messages) || r->messages <= 0)
		return false;
	r->instructions = -1;
	if (strcmp(f[4], "-")) {
		long long v;

		if (!parse_ll(f[4], &v) || v < 0)
			return false;
		r->instructions = (double)v;
	}
	return true;
}

void path_parse(const char *text, struct path_set *set)
{
	char *copy = xstrdup(text ? text : ""), *line, *save = NULL;
	struct path_row r;

	memset(set, 0, sizeof(*set));
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			set->malformed += !parse_skip(line, set) &&
					  !parse_tracer(line, set);
			continue;
		}
		if (!parse_row(line, &r)) {
			set->malformed++;
			continue;
		}
		set->v = xrealloc(set->v, (set->n + 1) * sizeof(r));
		set->v[set->n++] = r;
	}
	free(copy);
}

void path_free(struct path_set *set)
{
	free(set->v);
	free(set->skip);
	free(set->tracer);
	memset(set, 0, sizeof(*set));
}

const char *path_skipped(const struct path_set *set, const char *point)
{
	size_t i;

	for (i = 0; i < set->n_skip; i++)
		if (!strcmp(set->skip[i].point, point))
			return set->skip[i].reason;
	return NULL;
}

long long path_tracer_cost(const struct path_set *set, const char *point)
{
	size_t i;

	for (i = 0; i < set->n_tracer; i++)
		if (!strcmp(set->tracer[i].point, point))
			return set->tracer[i].cost;
	return -1;
}

double path_floor(enum path_kind kind, double a)
{
	if (kind == PATH_CALLS)
		return 0.01;
	return fabs(a) * 0.005 > 1.0 ? fabs(a) * 0.005 : 1.0;
}

const char *path_kind_name(enum path_kind kind)
{
	return kind == PATH_CALLS ? "calls" : "instructions";
}

static const struct path_row *find(const struct path_set *set,
				   const char *point, const char *function)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].point, point) &&
		    !strcmp(set->v[i].function, function))
			return &set->v[i];
	return NULL;
}

/* @r's number of @kind per message; false when it has none. */
static bool per_msg(const struct path_row *r, enum path_kind kind, double *v)
{
	if (!r || r->status != PATH_COUNTED)
		return false;
	/* A row of the instruction profile counts no calls. */
	if (kind == PATH_CALLS && r->calls < 0)
		return false;
	if (kind == PATH_INSTRUCTIONS && r->instructions < 0)
		return false;
	*v = (kind == PATH_CALLS ? (double)r->calls : r->instructions) /
	     (double)r->messages;
	return true;
}

static bool listed(const struct path_change *c, size_t n, const char *fn,
		   enum path_kind kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (c[i].kind == kind && !strcmp(c[i].function, fn))
			return true;
	return false;
}

struct path_change *path_compare(const struct path_set set[3],
				 const char *point, size_t *n)
{
	struct path_change *out = NULL;
	int b, k, j;
	size_t i;

	*n = 0;
	for (b = 0; b < 3; b++)
		for (i = 0; i < set[b].n; i++)
			for (k = PATH_CALLS; k <= PATH_INSTRUCTIONS; k++) {
				const char *fn = set[b].v[i].function;
				struct path_change c = { .kind = k };
				bool any = false;
				double floor;

				if (strcmp(set[b].v[i].point, point) ||
				    listed(out, *n, fn, k))
					continue;
				snprintf(c.function, sizeof(c.function), "%s",
					 fn);
				for (j = 0; j < 3; j++) {
					c.absent[j] = !per_msg(
						find(&set[j], point, fn), k,
						&c.v[j]);
					if (c.absent[j])
						c.v[j] = 0;
					any |= !c.absent[j];
				}
				if (!any)
					continue;
				/* + rounding of the per-message division */
				floor = path_floor(k, c.v[0]) + 1e-9;
				c.control_ok = fabs(c.v[2] - c.v[0]) <= floor;
				c.changed = fabs(c.v[1] - c.v[0]) > floor &&
					    fabs(c.v[1] - c.v[0]) >
						    fabs(c.v[2] - c.v[0]);
				out = xrealloc(out, (*n + 1) * sizeof(c));
				out[(*n)++] = c;
			}
	return out;
}
