// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "bench.h"
#include "stats.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void bench_parse(const char *text, struct bench_set *set)
{
	const char *p = text;

	memset(set, 0, sizeof(*set));
	while (p && *p) {
		const char *nl = strchr(p, '\n');
		struct bench_sample s = { 0 };
		int warm, used = 0;
		char *line;

		if (!nl) {
			/* A last line without a newline was cut short. */
			set->malformed++;
			break;
		}
		line = xstrndup(p, nl - p);
		if (sscanf(line, "%39[^\t]\t%d\t%d\t%d\t%lld\t%lld%n", s.point,
			   &s.invocation, &s.round, &warm, &s.messages, &s.ns,
			   &used) == 6 &&
		    !line[used] && s.messages > 0 && s.ns >= 0 &&
		    (warm == 0 || warm == 1)) {
			s.warmup = warm;
			s.per_msg = (double)s.ns / s.messages;
			set->v = xrealloc(set->v, (set->n + 1) * sizeof(s));
			set->v[set->n++] = s;
		} else {
			set->malformed++;
		}
		free(line);
		p = nl + 1;
	}
}

void bench_free(struct bench_set *set)
{
	free(set->v);
	memset(set, 0, sizeof(*set));
}

double *bench_values(const struct bench_set *set, const char *point, size_t *n)
{
	double *v = xcalloc(set->n + 1, sizeof(double));
	size_t i;

	*n = 0;
	for (i = 0; i < set->n; i++)
		if (!set->v[i].warmup && !strcmp(set->v[i].point, point))
			v[(*n)++] = set->v[i].per_msg;
	return v;
}

bool bench_first_round_outlier(const struct bench_set *set, const char *point)
{
	int inv;

	for (inv = 0;; inv++) {
		double *v = xcalloc(set->n + 1, sizeof(double));
		size_t n = 0, i;
		bool out;

		for (i = 0; i < set->n; i++)
			if (!set->v[i].warmup && set->v[i].invocation == inv &&
			    !strcmp(set->v[i].point, point))
				v[n++] = set->v[i].per_msg;
		out = first_round_outlier(v, n);
		free(v);
		if (out)
			return true;
		if (!n)
			return false;
	}
}
