/* SPDX-License-Identifier: GPL-2.0 */
/* Benchmark samples as unix_send_bench writes them, grouped per point. */
#ifndef LSMCONF_BENCH_H
#define LSMCONF_BENCH_H

#include <stdbool.h>
#include <stddef.h>

struct bench_sample {
	char point[40]; /* workload:confinement */
	int invocation, round;
	bool warmup;
	long long messages, ns;
	double per_msg; /* ns (guest time) per message */
};

struct bench_set {
	struct bench_sample *v;
	size_t n;
	size_t malformed;
};

/* The message sizes of tcpSIZE and udpSIZE points. */
#define BENCH_MIN_SIZE 64
#define BENCH_MAX_SIZE 16384

/*
 * Checks @points, space-separated WORKLOAD:CONFINEMENT with the names
 * unix_send_bench knows (WORKLOAD: socketpair, twoproc, uring, stream,
 * streamcred, tcpSIZE, udpSIZE with SIZE 64 to 16384 written without a
 * leading zero; CONFINEMENT: none, sender, receiver, both, stacked, and
 * inet for tcp and udp only). Returns 0, or -EINVAL with a one-line
 * reason in @err naming the bad point and the valid names.
 */
int bench_points_check(const char *points, char *err, size_t n);

/* Parses samples.tsv text; bad lines are counted, not fatal. */
void bench_parse(const char *text, struct bench_set *set);
void bench_free(struct bench_set *set);

/*
 * The measured (not warm-up) per-message values of @point, in file order;
 * malloc'd, count in *@n.
 */
double *bench_values(const struct bench_set *set, const char *point, size_t *n);
/* True when the first measured round of some invocation is an outlier. */
bool bench_first_round_outlier(const struct bench_set *set, const char *point);

struct sbuf;
/*
 * samples.tsv of @n named boots (gnuplot reads it too), appended to @out:
 * a header, then every sample of boot @names[b] (@sets[b]) in order, one
 * line each, its point split into workload and confinement.
 */
void bench_samples_tsv(const struct bench_set *const *sets,
		       const char *const *names, size_t n, struct sbuf *out);
/*
 * The cost verdict of `mutate --cost`: for each point of @points
 * (space-separated), whether the per-message cost of @b differs from the
 * original's boots @a and @a2 significantly (ab_compare(): beyond the
 * A -> A2 drift, the 95% interval of B/A and @min_diff, the samples'
 * floor: AB_COUNT_FLOOR for instruction counts, 0 for time). Appends one "POINT
 * +x.xx% (...)" part per changed point to @out ("; "-separated), and one
 * "POINT: no samples" part per point a side lacks, counted in *@missing.
 * Returns how many points changed.
 */
size_t bench_cost_changes(const char *points, const struct bench_set *a,
			  const struct bench_set *b, const struct bench_set *a2,
			  double min_diff, struct sbuf *out, size_t *missing);

/*
 * Whether the tip's cost @tip differs from kernel @c's, the culprit a
 * bisection named (which assumes a change, once in, stays): for each
 * point, with @c's rounds as both A and A2, a change beyond the interval
 * and beyond the original's own drift (@a to @a2) and @min_diff. Appends one line
 * "POINT +x.xx% [lo%, hi%] to the tip" per such point to @out; returns
 * how many. A point a side lacks is not counted.
 */
size_t bench_cost_again(const char *points, const struct bench_set *a,
			const struct bench_set *a2, const struct bench_set *c,
			const struct bench_set *tip, double min_diff,
			struct sbuf *out);

#endif
