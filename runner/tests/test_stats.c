// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <math.h>
#include <stdlib.h>

#include "analysis/stats.h"

START_TEST(test_stats_of)
{
	/* mean 5, deviations -3 -1 1 3: ss 20, sample var 20/3. */
	static const double x[] = { 2, 4, 6, 8 };
	struct sample_stats s;

	stats_of(x, 4, &s);
	ck_assert_uint_eq(s.n, 4);
	ck_assert_double_eq_tol(s.mean, 5.0, 1e-12);
	ck_assert_double_eq_tol(s.sd, sqrt(20.0 / 3), 1e-12);
	ck_assert_double_eq_tol(s.cv, sqrt(20.0 / 3) / 5, 1e-12);
	stats_of(x, 1, &s);
	ck_assert_double_eq(s.sd, 0);
}
END_TEST

START_TEST(test_t95)
{
	ck_assert_double_eq_tol(t95(1), 12.706, 1e-3);
	ck_assert_double_eq_tol(t95(10), 2.228, 1e-3);
	/* Published values: 2.131 (15), 2.042 (30), 2.000 (60). */
	ck_assert_double_eq_tol(t95(15), 2.131, 2e-3);
	ck_assert_double_eq_tol(t95(30), 2.042, 1e-3);
	ck_assert_double_eq_tol(t95(60), 2.000, 1e-3);
	ck_assert_double_eq_tol(t95(1e9), 1.960, 1e-3);
}
END_TEST

START_TEST(test_ab_no_change)
{
	static const double a[] = { 100, 101, 99, 100 };
	static const double b[] = { 100, 99, 101, 100 };
	struct ab_verdict v;

	ab_compare(a, 4, b, 4, a, 4, 0, &v);
	ck_assert_double_eq_tol(v.mid, 100, 1e-12);
	ck_assert_double_eq_tol(v.drift, 0, 1e-12);
	ck_assert_double_eq_tol(v.change, 0, 1e-12);
	ck_assert_double_eq_tol(v.ratio, 1, 1e-12);
	ck_assert(v.lo < 1 && v.hi > 1);
	ck_assert(!v.significant);
}
END_TEST

START_TEST(test_ab_hand_computed)
{
	/*
	 * A = {99, 101}, A2 = {101, 103}: means 100 and 102, mid 101,
	 * drift 2/101. B = {110, 112}: mean 111, change 10/101.
	 * All A rounds {99, 101, 101, 103}: mean 101, sample var 8/3;
	 * var of mean 2/3. B: var 2, var of mean 1. ratio 111/101.
	 * se = r * sqrt(1/111^2 + (2/3)/101^2).
	 * df = (2/3 + 1)^2 / ((2/3)^2/3 + 1/1) = 75/31; the interval
	 * excludes 1 and the change is significant.
	 */
	static const double a[] = { 99, 101 }, a2[] = { 101, 103 };
	static const double b[] = { 110, 112 };
	struct ab_verdict v;
	double r = 111.0 / 101, se;

	ab_compare(a, 2, b, 2, a2, 2, 0, &v);
	ck_assert_double_eq_tol(v.mid, 101, 1e-12);
	ck_assert_double_eq_tol(v.drift, 2.0 / 101, 1e-12);
	ck_assert_double_eq_tol(v.change, 10.0 / 101, 1e-12);
	ck_assert_double_eq_tol(v.ratio, r, 1e-12);
	se = r * sqrt(1.0 / (111.0 * 111) + (2.0 / 3) / (101.0 * 101));
	ck_assert_double_eq_tol(v.hi - v.lo, 2 * se * t95(75.0 / 31), 1e-9);
	/* t95 between table rows 2 (4.303) and 3 (3.182), linear in 1/df. */
	ck_assert_double_eq_tol(t95(75.0 / 31),
				4.303 + (0.5 - 31.0 / 75) / (0.5 - 1.0 / 3) *
						(3.182 - 4.303),
				1e-9);
	ck_assert(v.lo > 1);
	ck_assert(v.significant);
}
END_TEST

START_TEST(test_ab_drift_masks_change)
{
	/* B moves 1% but A drifted 2%: not significant. */
	static const double a[] = { 100, 100.01, 99.99 };
	static const double a2[] = { 102, 102.01, 101.99 };
	static const double b[] = { 102, 102.01, 101.99 };
	struct ab_verdict v;

	ab_compare(a, 3, b, 3, a2, 3, 0, &v);
	ck_assert_double_eq_tol(v.change, 1.0 / 101, 1e-4);
	ck_assert(v.drift > fabs(v.change));
	ck_assert(!v.significant);
}
END_TEST

START_TEST(test_ab_count_floor)
{
	/*
	 * Instruction counts as a series' kernel 3 gave them: A 2401.25,
	 * A2 2401.59 (drift 0.014%), B 2400.94, -0.48 a message (-0.02%),
	 * beyond drift and interval with rounds this tight. Without a floor
	 * it is a change; under one instruction a message it is not, and
	 * +22 a message (a mutant's +0.92%) still is.
	 */
	static const double a[] = { 2401.24, 2401.25, 2401.26 };
	static const double a2[] = { 2401.58, 2401.59, 2401.60 };
	static const double b[] = { 2400.93, 2400.94, 2400.95 };
	static const double dear[] = { 2423.41, 2423.42, 2423.43 };
	struct ab_verdict v;

	ab_compare(a, 3, b, 3, a2, 3, 0, &v);
	ck_assert(fabs(v.change) > v.drift && v.hi < 1);
	ck_assert(v.significant && !v.under_floor);
	ab_compare(a, 3, b, 3, a2, 3, AB_COUNT_FLOOR, &v);
	ck_assert(v.under_floor);
	ck_assert(!v.significant);
	ab_compare(a, 3, dear, 3, a2, 3, AB_COUNT_FLOOR, &v);
	ck_assert(!v.under_floor && v.significant);
	ck_assert_double_eq_tol(v.change, 22.0 / 2401.42, 1e-4);
}
END_TEST

START_TEST(test_first_round_outlier)
{
	static const double warm[] = { 130, 100, 100.1, 99.9, 100 };
	static const double fine[] = { 100.05, 100, 100.1, 99.9, 100 };

	ck_assert(first_round_outlier(warm, 5));
	ck_assert(!first_round_outlier(fine, 5));
	ck_assert(!first_round_outlier(warm, 2));
}
END_TEST

int main(void)
{
	return CHECK_RUN("stats", test_stats_of, test_t95, test_ab_no_change,
			 test_ab_hand_computed, test_ab_drift_masks_change,
			 test_ab_count_floor, test_first_round_outlier);
}
