// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/msgcost.h"
#include "lib/util.h"

START_TEST(test_parse)
{
	struct msgcost_set set;
	size_t n;

	msgcost_parse("4\tnone\t0\t1\t2000\t20000000\t10000.00\n"
		      "4\tnone\t1\t0\t2000\t10000000\t5000.00\n"
		      "4\tnone\t2\t0\t2000\t10000002\t1.00\n"
		      "4\tnone\tx\t0\t2000\t1\t1\n"
		      "4\tnone\t3\t2\t2000\t1\t1\n"
		      "0\tnone\t3\t0\t2000\t1\t1\n"
		      "4\tnone\t4\t0\t2000\t1\t1",
		      &set);
	ck_assert_uint_eq(set.n, 3);
	/* "x", warm-up flag 2, 0 categories, and the cut last line. */
	ck_assert_uint_eq(set.malformed, 4);
	ck_assert(set.v[0].warmup);
	/* The guest's per-op column is recomputed from ns / iterations. */
	ck_assert_double_eq_tol(set.v[2].per_op, 5000.001, 1e-9);
	ck_assert_double_eq_tol(msgcost_mean(&set, 4, "none", &n), 5000.0005,
				1e-9);
	ck_assert_uint_eq(n, 2);
	msgcost_free(&set);
}
END_TEST

/* Rounds of @per_op (+ a small alternating jitter) at @cats/@level. */
static void add_rounds(struct sbuf *sb, int cats, const char *level,
		       double per_op, int rounds)
{
	int r;

	for (r = 0; r < rounds; r++)
		sbuf_printf(sb, "%d\t%s\t%d\t0\t1000\t%lld\t0\n", cats, level,
			    r, (long long)(per_op * 1000) + (r % 2) * 20);
}

static void judge(const char *text, const char *level, double limit,
		  struct msgcost_verdict *v, int want_ret)
{
	struct msgcost_set set;

	msgcost_parse(text, &set);
	ck_assert_int_eq(msgcost_judge(&set, level, limit, v), want_ret);
	msgcost_free(&set);
}

START_TEST(test_flat_passes)
{
	struct msgcost_verdict v;
	struct sbuf sb = { 0 };

	/* Debian 7.2 as measured: 5,137 instructions whatever the policy. */
	add_rounds(&sb, 4, "none", 5137.7, 10);
	add_rounds(&sb, 256, "none", 5138.1, 10);
	add_rounds(&sb, 1024, "none", 5137.3, 10);
	judge(sb.buf, "none", MSGCOST_MAX_PER_CATEGORY, &v, 0);
	ck_assert_int_eq(v.cats_lo, 4);
	ck_assert_int_eq(v.cats_hi, 1024);
	ck_assert(!v.grows);
	ck_assert_double_lt(v.per_category, 0.01);
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_walk_is_flagged)
{
	struct msgcost_verdict v;
	struct sbuf sb = { 0 };

	/* Two walks of ~10 instructions per category per round trip. */
	add_rounds(&sb, 4, "high", 5200, 10);
	add_rounds(&sb, 1024, "high", 5200 + 20 * 1020, 10);
	judge(sb.buf, "high", MSGCOST_MAX_PER_CATEGORY, &v, 0);
	ck_assert(v.grows);
	ck_assert_double_eq_tol(v.per_category, 20, 1e-6);
	ck_assert_double_gt(v.growth, v.margin);
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_per_node_cost_passes_when_carried)
{
	struct msgcost_verdict v;
	struct sbuf sb = { 0 };

	/* The message's own category set: ~1,400 instructions per node. */
	add_rounds(&sb, 4, "low", 6352.4, 10);
	add_rounds(&sb, 1024, "low", 9144.3, 10);
	judge(sb.buf, "low",
	      msgcost_limit("low", MSGCOST_MAX_PER_CATEGORY,
			    MSGCOST_MAX_PER_CARRIED_CATEGORY),
	      &v, 0);
	ck_assert(!v.grows);
	/* The strict limit would have flagged it: "low" needs its own. */
	ck_assert_double_gt(v.per_category, MSGCOST_MAX_PER_CATEGORY);
	ck_assert_double_eq(msgcost_limit("none", 0.5, 8), 0.5);
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_noise_is_not_flagged)
{
	struct msgcost_verdict v;
	struct sbuf sb = { 0 };
	int r;

	/* A mean shift well inside the rounds' spread is no growth. */
	for (r = 0; r < 4; r++) {
		sbuf_printf(&sb, "4\tnone\t%d\t0\t1\t%d\t0\n", r,
			    r % 2 ? 4000 : 6000);
		sbuf_printf(&sb, "8\tnone\t%d\t0\t1\t%d\t0\n", r,
			    r % 2 ? 4010 : 6010);
	}
	judge(sb.buf, "none", 0.5, &v, 0);
	ck_assert_double_gt(v.per_category, 0.5);
	ck_assert(!v.grows);
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_missing)
{
	struct msgcost_verdict v;
	struct sbuf sb = { 0 };

	/* One category count only, or one round: nothing to judge. */
	add_rounds(&sb, 4, "none", 5000, 10);
	judge(sb.buf, "none", 0.5, &v, -1);
	add_rounds(&sb, 1024, "none", 5000, 1);
	judge(sb.buf, "none", 0.5, &v, -1);
	judge(sb.buf, "low", 0.5, &v, -1);
	sbuf_free(&sb);
}
END_TEST

/* @points must be refused with a reason that contains @want. */
static void refused(const char *points, const char *want)
{
	char err[512] = "";

	ck_assert_int_ne(msgcost_points_check(points, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, want), "\"%s\": \"%s\" lacks \"%s\"", points,
		      err, want);
	ck_assert_ptr_null(strchr(err, '\n'));
}

START_TEST(test_points_valid)
{
	char err[512] = "";

	/* The default points of lsmconf msgcost. */
	ck_assert_int_eq(
		msgcost_points_check(
			"4:none 4:high 4:low 256:none 256:high 256:low "
			"1024:none 1024:high 1024:low",
			err, sizeof(err)),
		0);
	ck_assert_int_eq(
		msgcost_points_check(" 1024:low  4:none ", err, sizeof(err)),
		0);
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_points_invalid)
{
	/* The bad point, and the valid values. */
	refused("5:none", "msgcost point 5:none: no policy with 5 categories");
	refused("5:none", "4, 256, 1024");
	refused("4:none 256:mid", "256:mid: unknown level mid");
	refused("256:mid", "none, high, low");
	refused("4", "msgcost point 4 is not CATS:LEVEL");
	refused("none", "is not CATS:LEVEL");
	refused("x4:none", "no policy with x4 categories");
	refused("-4:none", "no policy with -4 categories");
	refused("+4:none", "no policy with +4 categories");
	refused("0:none", "no policy with 0 categories");
	refused(":none", "no policy with  categories");
	refused("99999999999999999999:none", "no policy with");
	refused("4:", "unknown level  (");
	refused("4:lo", "unknown level lo ");
	refused("4:lowest", "unknown level lowest ");
	refused("4:low:low", "unknown level low:low");
	refused("", "no msgcost points given");
	refused("  ", "no msgcost points given");
}
END_TEST

int main(void)
{
	return CHECK_RUN("msgcost", test_parse, test_flat_passes,
			 test_walk_is_flagged,
			 test_per_node_cost_passes_when_carried,
			 test_noise_is_not_flagged, test_missing,
			 test_points_valid, test_points_invalid);
}
