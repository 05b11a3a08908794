// SPDX-License-Identifier: GPL-2.0
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void stats_of(const double *x, size_t n, struct sample_stats *s)
{
	double sum = 0, ss = 0;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->n = n;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		sum += x[i];
	s->mean = sum / n;
	for (i = 0; i < n; i++)
		ss += (x[i] - s->mean) * (x[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (n - 1)) : 0;
	s->cv = s->mean ? s->sd / s->mean : 0;
}

double t95(double df)
{
	/* Exact for small df (table), Cornish-Fisher expansion beyond. */
	static const double table[] = { 0,     12.706, 4.303, 3.182,
					2.776, 2.571,  2.447, 2.365,
					2.306, 2.262,  2.228 };
	const double z = 1.959963984540054;
	double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z;

	if (df < 1)
		return NAN;
	if (df <= 10) {
		/* Between table rows: linear in 1/df, the usual practice. */
		int lo = (int)floor(df), hi = lo < 10 ? lo + 1 : 10;
		double w;

		if (lo == hi || df == lo)
			return table[lo];
		w = (1 / (double)lo - 1 / df) /
		    (1 / (double)lo - 1 / (double)hi);
		return table[lo] + w * (table[hi] - table[lo]);
	}
	return z + (z3 + z) / (4 * df) +
	       (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df) +
	       (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * df * df * df);
}

void ab_compare(const double *a, size_t na, const double *b, size_t nb,
		const double *a2, size_t na2, double min_diff,
		struct ab_verdict *v)
{
	struct sample_stats sa, sb, sa2, sall;
	double *all = malloc((na + na2 + 1) * sizeof(double));
	double va, vb, se, df, h;

	memset(v, 0, sizeof(*v));
	if (!all)
		return;
	memcpy(all, a, na * sizeof(double));
	memcpy(all + na, a2, na2 * sizeof(double));
	stats_of(a, na, &sa);
	stats_of(b, nb, &sb);
	stats_of(a2, na2, &sa2);
	stats_of(all, na + na2, &sall);
	free(all);

	v->mid = (sa.mean + sa2.mean) / 2;
	v->drift = v->mid ? fabs(sa2.mean - sa.mean) / v->mid : 0;
	v->change = v->mid ? (sb.mean - v->mid) / v->mid : 0;
	v->max_cv = fmax(sa.cv, fmax(sb.cv, sa2.cv));
	v->ratio = sall.mean ? sb.mean / sall.mean : 0;

	/* Delta method: var(B/A) ~ r^2 (var_B/B^2 + var_A/A^2). */
	va = sall.n ? sall.sd * sall.sd / sall.n : 0;
	vb = sb.n ? sb.sd * sb.sd / sb.n : 0;
	se = v->ratio *
	     sqrt(vb / (sb.mean * sb.mean) + va / (sall.mean * sall.mean));
	/* Welch-Satterthwaite degrees of freedom. */
	if (va + vb > 0 && sall.n > 1 && sb.n > 1)
		df = (va + vb) * (va + vb) /
		     (va * va / (sall.n - 1) + vb * vb / (sb.n - 1));
	else
		df = INFINITY;
	h = se * (isinf(df) ? 1.959963984540054 : t95(df));
	v->lo = v->ratio - h;
	v->hi = v->ratio + h;
	v->under_floor = fabs(sb.mean - v->mid) < min_diff;
	v->significant = !v->under_floor && fabs(v->change) > v->drift &&
			 (v->lo > 1 || v->hi < 1) &&
			 fabs(v->change) > h / (v->ratio ? v->ratio : 1);
}

bool first_round_outlier(const double *x, size_t n)
{
	struct sample_stats rest;

	if (n < 3)
		return false;
	stats_of(x + 1, n - 1, &rest);
	return fabs(x[0] - rest.mean) > 3 * rest.sd &&
	       fabs(x[0] - rest.mean) > 0.005 * rest.mean;
}
