/* SPDX-License-Identifier: GPL-2.0 */
/* Statistics for A -> B -> A2 benchmarks. */
#ifndef LSMCONF_STATS_H
#define LSMCONF_STATS_H

#include <stdbool.h>
#include <stddef.h>

struct sample_stats {
	size_t n;
	double mean, sd, cv; /* sd: sample (n - 1); cv = sd / mean */
};

void stats_of(const double *x, size_t n, struct sample_stats *s);

/* Two-sided 95% quantile of Student's t with @df degrees of freedom. */
double t95(double df);

struct ab_verdict {
	double mid; /* (mean A + mean A2) / 2 */
	double drift; /* |A2 - A| / mid */
	double change; /* (B - mid) / mid */
	double ratio; /* B / mean of all A and A2 rounds */
	double lo, hi; /* 95% confidence interval of ratio */
	double max_cv; /* largest CV of A, B, A2 */
	bool under_floor; /* |B - mid| under the floor: no verdict either way */
	bool significant; /* |change| beyond drift, interval and floor */
};

/*
 * Under QEMU icount a sample counts instructions, and a cost verdict is
 * in whole instructions per message: code on the path that every message
 * runs moves the count by one or more, while the boot's state (a slab
 * page fetched for one batch in many, a timer tick) moves it by
 * fractions that differ between any two kernels, the original's A and A2
 * included. Timed samples (KVM) have no floor but their noise.
 */
#define AB_COUNT_FLOOR 1.0

/*
 * Compares the rounds of B with those of A and A2 (warm-up excluded). The
 * interval is Welch's, on the ratio by the delta method. A difference of
 * B from A and A2's midpoint under @min_diff (in the samples' unit; 0 for
 * none) is never significant.
 */
void ab_compare(const double *a, size_t na, const double *b, size_t nb,
		const double *a2, size_t na2, double min_diff,
		struct ab_verdict *v);

/*
 * True when the first measured round stands out from the others by more
 * than 3 of their standard deviations (and 0.5% of their mean): the
 * warm-up was too short.
 */
bool first_round_outlier(const double *x, size_t n);

#endif
