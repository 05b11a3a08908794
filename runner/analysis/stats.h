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
	bool significant; /* |change| beyond both drift and the interval */
};

/*
 * Compares the rounds of B with those of A and A2 (warm-up excluded). The
 * interval is Welch's, on the ratio by the delta method.
 */
void ab_compare(const double *a, size_t na, const double *b, size_t nb,
		const double *a2, size_t na2, struct ab_verdict *v);

/*
 * True when the first measured round stands out from the others by more
 * than 3 of their standard deviations (and 0.5% of their mean): the
 * warm-up was too short.
 */
bool first_round_outlier(const double *x, size_t n);

#endif
