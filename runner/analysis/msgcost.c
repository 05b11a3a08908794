// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "msgcost.h"
#include "points.h"
#include "stats.h"
#include "lib/lib.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const msgcost_levels[MSGCOST_N_LEVELS] = { "none", "high", "low" };

/* POLICY_CATEGORIES of selftests/selinux/Makefile: one policy each. */
static const int policy_cats[] = { 4, 256, 1024 };

int msgcost_points_check(const char *points, char *err, size_t n)
{
	const char *p = points;
	char cats[64], levels[64];
	size_t count = 0, i, len = 0;
	struct point pt;
	int more;

	for (i = 0; i < ARRAY_SIZE(policy_cats); i++)
		len += snprintf(cats + len, sizeof(cats) - len, "%s%d",
				i ? ", " : "", policy_cats[i]);
	names_join(msgcost_levels, MSGCOST_N_LEVELS, levels, sizeof(levels));
	for (; (more = point_next(&p, &pt)); count++) {
		long c = 0;

		if (more < 0) {
			snprintf(
				err, n,
				"msgcost point %.*s is not CATS:LEVEL (CATS: %s; LEVEL: %s)",
				pt.len, pt.text, cats, levels);
			return -EINVAL;
		}
		/* Digits only, then one of the compiled policies. */
		if (pt.alen && pt.alen < 8 &&
		    strspn(pt.text, "0123456789") == (size_t)pt.alen)
			c = strtol(pt.text, NULL, 10);
		for (i = 0; i < ARRAY_SIZE(policy_cats); i++)
			if (c == policy_cats[i])
				break;
		if (i == ARRAY_SIZE(policy_cats)) {
			snprintf(
				err, n,
				"msgcost point %.*s: no policy with %.*s categories (CATS: %s)",
				pt.len, pt.text, pt.alen, pt.text, cats);
			return -EINVAL;
		}
		for (i = 0; i < MSGCOST_N_LEVELS; i++)
			if (strlen(msgcost_levels[i]) == (size_t)pt.blen &&
			    !strncmp(pt.b, msgcost_levels[i], pt.blen))
				break;
		if (i == MSGCOST_N_LEVELS) {
			snprintf(
				err, n,
				"msgcost point %.*s: unknown level %.*s (LEVEL: %s)",
				pt.len, pt.text, pt.blen, pt.b, levels);
			return -EINVAL;
		}
	}
	if (!count) {
		snprintf(
			err, n,
			"no msgcost points given (want CATS:LEVEL ..., CATS: %s; LEVEL: %s)",
			cats, levels);
		return -EINVAL;
	}
	return 0;
}

void msgcost_parse(const char *text, struct msgcost_set *set)
{
	const char *p = text;
	char *line;
	bool cut;

	memset(set, 0, sizeof(*set));
	while ((line = next_line(&p, &cut))) {
		struct msgcost_sample s = { 0 };
		int warm, used = 0;
		double per;

		if (sscanf(line, "%d\t%15[a-z]\t%d\t%d\t%lld\t%lld\t%lf%n",
			   &s.cats, s.level, &s.round, &warm, &s.iterations,
			   &s.ns, &per, &used) == 7 &&
		    !line[used] && s.cats > 0 && s.iterations > 0 &&
		    s.ns >= 0 && (warm == 0 || warm == 1)) {
			s.warmup = warm;
			/* Recomputed: the guest's rounding is not trusted. */
			s.per_op = (double)s.ns / s.iterations;
			set->v = xrealloc(set->v, (set->n + 1) * sizeof(s));
			set->v[set->n++] = s;
		} else {
			set->malformed++;
		}
		free(line);
	}
	set->malformed += cut;
}

void msgcost_free(struct msgcost_set *set)
{
	free(set->v);
	memset(set, 0, sizeof(*set));
}

static double *values(const struct msgcost_set *set, int cats,
		      const char *level, size_t *n)
{
	double *v = xcalloc(set->n + 1, sizeof(double));
	size_t i;

	*n = 0;
	for (i = 0; i < set->n; i++)
		if (!set->v[i].warmup && set->v[i].cats == cats &&
		    !strcmp(set->v[i].level, level))
			v[(*n)++] = set->v[i].per_op;
	return v;
}

double msgcost_mean(const struct msgcost_set *set, int cats, const char *level,
		    size_t *n)
{
	struct sample_stats st;
	double *v = values(set, cats, level, n);

	stats_of(v, *n, &st);
	free(v);
	return *n ? st.mean : 0;
}

/*
 * The rule. A message takes its sender's low level. When that level has no
 * categories (sender levels "none" and "high") nothing on the message path
 * needs to look at the policy's categories, so the cost must not grow with
 * their number: a walk over the category bitmap on every message (the
 * 7.2-rc regression in mls_level_isvalid()) visits each category, at least
 * one instruction per category and in practice several, where the fixed
 * path measures 0.00 per category. The limit, half an instruction per
 * category, sits between the two with a wide margin.
 *
 * When the message carries the categories ("low"), copying, hashing and
 * comparing its category set costs per ebitmap node (384 categories):
 * about 1,400 instructions per node on Debian's 7.2, 3.5 per category. A
 * per-category walk costs more than that again, so such messages get a
 * limit of 8 per category.
 *
 * Either way the growth must also exceed its 95% interval, so noise alone
 * is never flagged.
 */
double msgcost_limit(const char *level, double limit, double limit_carried)
{
	return strcmp(level, "low") ? limit : limit_carried;
}

int msgcost_judge(const struct msgcost_set *set, const char *level,
		  double limit, struct msgcost_verdict *v)
{
	struct sample_stats lo, hi;
	double *vlo, *vhi;
	size_t i, nlo, nhi;
	double df, se;

	memset(v, 0, sizeof(*v));
	v->cats_lo = v->cats_hi = 0;
	for (i = 0; i < set->n; i++) {
		const struct msgcost_sample *s = &set->v[i];

		if (s->warmup || strcmp(s->level, level))
			continue;
		if (!v->cats_lo || s->cats < v->cats_lo)
			v->cats_lo = s->cats;
		if (s->cats > v->cats_hi)
			v->cats_hi = s->cats;
	}
	if (!v->cats_lo || v->cats_lo == v->cats_hi)
		return -1;
	vlo = values(set, v->cats_lo, level, &nlo);
	vhi = values(set, v->cats_hi, level, &nhi);
	stats_of(vlo, nlo, &lo);
	stats_of(vhi, nhi, &hi);
	free(vlo);
	free(vhi);
	if (nlo < 2 || nhi < 2)
		return -1;
	v->lo = lo.mean;
	v->hi = hi.mean;
	v->max_cv = lo.cv > hi.cv ? lo.cv : hi.cv;
	v->growth = hi.mean - lo.mean;
	se = sqrt(lo.sd * lo.sd / nlo + hi.sd * hi.sd / nhi);
	/* Welch-Satterthwaite degrees of freedom (all-equal rounds: n - 1). */
	df = se > 0 ? pow(se, 4) / (pow(lo.sd * lo.sd / nlo, 2) / (nlo - 1) +
				    pow(hi.sd * hi.sd / nhi, 2) / (nhi - 1)) :
		      (double)(nlo + nhi - 2);
	v->margin = t95(df) * se;
	v->per_category = v->growth / (v->cats_hi - v->cats_lo);
	v->grows = v->per_category > limit && v->growth > v->margin;
	return 0;
}
