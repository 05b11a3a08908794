// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>

#include "bench.h"

START_TEST(test_parse)
{
	struct bench_set set;
	double *v;
	size_t n;

	bench_parse("socketpair:none\t0\t0\t1\t65536\t300000000\n"
		    "socketpair:none\t0\t1\t0\t65536\t131072000\n"
		    "socketpair:none\t0\t2\t0\t65536\t131072064\n"
		    "twoproc:both\t0\t1\t0\t65536\t200000000\n"
		    "garbage line\n"
		    "socketpair:none\t0\t3\t2\t65536\t1\n"
		    "socketpair:none\t0\t4\t0\t65536\t1",
		    &set);
	ck_assert_uint_eq(set.n, 4);
	/* "garbage", warm-up flag 2, and the cut last line. */
	ck_assert_uint_eq(set.malformed, 3);
	ck_assert(set.v[0].warmup);
	v = bench_values(&set, "socketpair:none", &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_double_eq_tol(v[0], 2000.0, 1e-9);
	ck_assert_double_eq_tol(v[1], 2000.0 + 64.0 / 65536, 1e-9);
	free(v);
	bench_free(&set);
}
END_TEST

START_TEST(test_first_round)
{
	struct bench_set set;

	bench_parse("p:none\t0\t3\t0\t1\t130\n"
		    "p:none\t0\t4\t0\t1\t100\n"
		    "p:none\t0\t5\t0\t1\t101\n"
		    "p:none\t0\t6\t0\t1\t99\n"
		    "p:none\t1\t3\t0\t1\t100\n"
		    "p:none\t1\t4\t0\t1\t100\n"
		    "p:none\t1\t5\t0\t1\t101\n",
		    &set);
	ck_assert(bench_first_round_outlier(&set, "p:none"));
	bench_free(&set);
	bench_parse("p:none\t0\t3\t0\t1\t100\n"
		    "p:none\t0\t4\t0\t1\t100\n"
		    "p:none\t0\t5\t0\t1\t101\n",
		    &set);
	ck_assert(!bench_first_round_outlier(&set, "p:none"));
	bench_free(&set);
}
END_TEST

int main(void)
{
	return CHECK_RUN("bench", test_parse, test_first_round);
}
