// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "bench.h"
#include "points.h"
#include "stats.h"
#include "lib/lib.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* And tcpSIZE, udpSIZE: sized_workload(). */
static const char *const workloads[] = { "socketpair", "twoproc", "uring",
					 "stream", "streamcred" };
static const char *const confinements[] = { "none", "sender",  "receiver",
					    "both", "stacked", "inet" };

/*
 * tcpSIZE and udpSIZE: the message size is part of the point's name
 * (samples.tsv and summary.tsv key on it), so one size has one spelling:
 * decimal, no leading zero, BENCH_MIN_SIZE to BENCH_MAX_SIZE.
 * Returns the size, 0 when @s is no such workload, -1 for a size out of
 * range or misspelt.
 */
static long sized_workload(const char *s, size_t len)
{
	long size = 0;
	size_t i;

	if (len < 4 || (strncmp(s, "tcp", 3) && strncmp(s, "udp", 3)))
		return 0;
	for (i = 3; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return 0;
		if (size <= BENCH_MAX_SIZE)
			size = size * 10 + (s[i] - '0');
	}
	if (s[3] == '0' || size < BENCH_MIN_SIZE || size > BENCH_MAX_SIZE)
		return -1;
	return size;
}

/* True when the @len bytes at @s are one of @names. */
static bool known(const char *s, size_t len, const char *const *names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(s, names[i], len))
			return true;
	return false;
}

int bench_points_check(const char *points, char *err, size_t n)
{
	char w[128], c[128];
	const char *p = points;
	struct point pt;
	size_t count = 0;
	int more;

	names_join(workloads, ARRAY_SIZE(workloads), w, sizeof(w));
	snprintf(w + strlen(w), sizeof(w) - strlen(w),
		 ", tcpSIZE, udpSIZE (SIZE %d to %d)", BENCH_MIN_SIZE,
		 BENCH_MAX_SIZE);
	names_join(confinements, ARRAY_SIZE(confinements), c, sizeof(c));
	for (; (more = point_next(&p, &pt)); count++) {
		long size;

		if (more < 0) {
			snprintf(
				err, n,
				"bench point %.*s is not WORKLOAD:CONFINEMENT (WORKLOAD: %s; CONFINEMENT: %s)",
				pt.len, pt.text, w, c);
			return -EINVAL;
		}
		size = sized_workload(pt.text, pt.alen);
		if (size < 0) {
			snprintf(
				err, n,
				"bench point %.*s: message size %.*s is not %d to %d (tcpSIZE, udpSIZE; no leading zero)",
				pt.len, pt.text, pt.alen - 3, pt.text + 3,
				BENCH_MIN_SIZE, BENCH_MAX_SIZE);
			return -EINVAL;
		}
		if (!size && !known(pt.text, pt.alen, workloads,
				    ARRAY_SIZE(workloads))) {
			snprintf(
				err, n,
				"bench point %.*s: unknown workload %.*s (known: %s)",
				pt.len, pt.text, pt.alen, pt.text, w);
			return -EINVAL;
		}
		if (!known(pt.b, pt.blen, confinements,
			   ARRAY_SIZE(confinements))) {
			snprintf(
				err, n,
				"bench point %.*s: unknown confinement %.*s (known: %s)",
				pt.len, pt.text, pt.blen, pt.b, c);
			return -EINVAL;
		}
		/* The inet label has only inet rules: tcp and udp points. */
		if (!size && pt.blen == 4 && !strncmp(pt.b, "inet", 4)) {
			snprintf(
				err, n,
				"bench point %.*s: confinement inet is for tcpSIZE and udpSIZE workloads only",
				pt.len, pt.text);
			return -EINVAL;
		}
	}
	if (!count) {
		snprintf(
			err, n,
			"no bench points given (want WORKLOAD:CONFINEMENT ..., WORKLOAD: %s; CONFINEMENT: %s)",
			w, c);
		return -EINVAL;
	}
	return 0;
}

void bench_parse(const char *text, struct bench_set *set)
{
	const char *p = text;
	char *line;
	bool cut;

	memset(set, 0, sizeof(*set));
	while ((line = next_line(&p, &cut))) {
		struct bench_sample s = { 0 };
		int warm, used = 0;

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
	}
	set->malformed += cut;
}

void bench_free(struct bench_set *set)
{
	free(set->v);
	memset(set, 0, sizeof(*set));
}

void bench_samples_tsv(const struct bench_set *const *sets,
		       const char *const *names, size_t n, struct sbuf *out)
{
	size_t b, i;

	sbuf_printf(
		out,
		"boot\tworkload\tconfinement\tinvocation\tround\twarmup\tmessages\tns\tns_per_msg\n");
	for (b = 0; b < n; b++)
		for (i = 0; i < sets[b]->n; i++) {
			const struct bench_sample *s = &sets[b]->v[i];
			char *pt = xstrdup(s->point), *c = strchr(pt, ':');

			if (c)
				*c = '\t';
			sbuf_printf(out,
				    "%s\t%s\t%d\t%d\t%d\t%lld\t%lld\t%.4f\n",
				    names[b], pt, s->invocation, s->round,
				    s->warmup, s->messages, s->ns, s->per_msg);
			free(pt);
		}
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

size_t bench_cost_changes(const char *points, const struct bench_set *a,
			  const struct bench_set *b, const struct bench_set *a2,
			  double min_diff, struct sbuf *out, size_t *missing)
{
	char *copy = xstrdup(points), *tok, *save = NULL;
	size_t changed = 0;

	*missing = 0;
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		size_t na, nb, na2;
		double *va = bench_values(a, tok, &na);
		double *vb = bench_values(b, tok, &nb);
		double *va2 = bench_values(a2, tok, &na2);
		struct ab_verdict v;

		if (!na || !nb || !na2) {
			sbuf_printf(out,
				    "%s%s: no samples (A %zu, B %zu, A2 %zu)",
				    out->len ? "; " : "", tok, na, nb, na2);
			(*missing)++;
		} else {
			ab_compare(va, na, vb, nb, va2, na2, min_diff, &v);
			/* Significant as in `bench`: beyond drift, interval, floor. */
			if (v.significant) {
				sbuf_printf(
					out,
					"%s%s %+.2f%% (B/A %.4f, 95%% CI [%.4f, %.4f], drift %.3f%%)",
					out->len ? "; " : "", tok,
					100 * v.change, v.ratio, v.lo, v.hi,
					100 * v.drift);
				changed++;
			}
		}
		free(va);
		free(vb);
		free(va2);
	}
	free(copy);
	return changed;
}

size_t bench_cost_again(const char *points, const struct bench_set *a,
			const struct bench_set *a2, const struct bench_set *c,
			const struct bench_set *tip, double min_diff,
			struct sbuf *out)
{
	char *copy = xstrdup(points), *tok, *save = NULL;
	size_t again = 0;

	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		size_t na, na2, nc, nt;
		double *va = bench_values(a, tok, &na);
		double *va2 = bench_values(a2, tok, &na2);
		double *vc = bench_values(c, tok, &nc);
		double *vt = bench_values(tip, tok, &nt);
		struct ab_verdict base, v;

		if (na && na2 && nc && nt) {
			/* The original's drift: B is a stand-in, unused. */
			ab_compare(va, na, va, na, va2, na2, 0, &base);
			ab_compare(vc, nc, vt, nt, vc, nc, min_diff, &v);
			if (v.significant && fabs(v.change) > base.drift) {
				sbuf_printf(
					out,
					"%s %+.2f%% [%+.2f%%, %+.2f%%] to the tip\n",
					tok, 100 * v.change, 100 * (v.lo - 1),
					100 * (v.hi - 1));
				again++;
			}
		}
		free(va);
		free(va2);
		free(vc);
		free(vt);
	}
	free(copy);
	return again;
}
