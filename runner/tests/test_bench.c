// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>

#include "analysis/bench.h"
#include "lib/lib.h"

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

/*
 * samples.tsv of bench and of series' cost culprit, byte for byte: the
 * boots in the order given, a boot without samples writes no line.
 */
START_TEST(test_samples_tsv)
{
	static const char *const names[] = { "A", "B", "A2" };
	struct bench_set a, b, a2 = { 0 };
	const struct bench_set *sets[] = { &a, &b, &a2 };
	struct sbuf out = { 0 };

	bench_parse("socketpair:none\t0\t0\t1\t65536\t300000000\n"
		    "tcp64:inet\t1\t2\t0\t3\t1000\n",
		    &a);
	bench_parse("stream:both\t0\t3\t0\t7\t100\n", &b);
	bench_samples_tsv(sets, names, 3, &out);
	ck_assert_str_eq(
		out.buf,
		"boot\tworkload\tconfinement\tinvocation\tround\twarmup\tmessages\tns\tns_per_msg\n"
		"A\tsocketpair\tnone\t0\t0\t1\t65536\t300000000\t4577.6367\n"
		"A\ttcp64\tinet\t1\t2\t0\t3\t1000\t333.3333\n"
		"B\tstream\tboth\t0\t3\t0\t7\t100\t14.2857\n");
	sbuf_free(&out);
	bench_free(&a);
	bench_free(&b);
}
END_TEST

/* @points must be refused with a reason that contains @want. */
static void refused(const char *points, const char *want)
{
	char err[512] = "";

	ck_assert_int_ne(bench_points_check(points, err, sizeof(err)), 0);
	ck_assert_msg(strstr(err, want), "\"%s\": \"%s\" lacks \"%s\"", points,
		      err, want);
	ck_assert_ptr_null(strchr(err, '\n'));
}

START_TEST(test_points_valid)
{
	char err[512] = "";

	/* The default points of lsmconf bench, and every name once. */
	ck_assert_int_eq(
		bench_points_check(
			"socketpair:none twoproc:none twoproc:sender "
			"twoproc:receiver twoproc:both twoproc:stacked "
			"uring:none",
			err, sizeof(err)),
		0);
	ck_assert_int_eq(
		bench_points_check("  uring:stacked   socketpair:both ", err,
				   sizeof(err)),
		0);
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_points_connection_valid)
{
	char err[512] = "";

	/*
	 * stream and streamcred take every confinement but inet; tcpSIZE and
	 * udpSIZE every one, with SIZE from 64 to 16384 (both ends, and one
	 * that is no power of two).
	 */
	ck_assert_int_eq(
		bench_points_check(
			"stream:none streamcred:both stream:stacked "
			"tcp64:none tcp16384:inet udp64:inet udp16384:none "
			"tcp1024:sender udp3000:receiver",
			err, sizeof(err)),
		0);
	ck_assert_str_eq(err, "");
}
END_TEST

START_TEST(test_points_connection_invalid)
{
	/* A size out of 64..16384, or not written one way only. */
	refused("tcp63:none",
		"bench point tcp63:none: message size 63 is not 64 to 16384");
	refused("udp16385:none", "message size 16385 is not 64 to 16384");
	refused("udp0:none", "message size 0 is not 64 to 16384");
	refused("tcp064:none", "message size 064 is not 64 to 16384");
	refused("tcp99999999999999999999:none",
		"message size 99999999999999999999 is not");
	/* No size, or not a number: an unknown workload, naming the rule. */
	refused("tcp:none", "unknown workload tcp (known: ");
	refused("tcp:none",
		"stream, streamcred, tcpSIZE, udpSIZE (SIZE 64 to 16384)");
	refused("tcpSIZE:none", "unknown workload tcpSIZE");
	refused("tcp64k:none", "unknown workload tcp64k");
	refused("streams:none", "unknown workload streams");
	refused("sctp64:none", "unknown workload sctp64");
	/* inet is a label with inet rules only. */
	refused("stream:inet",
		"bench point stream:inet: confinement inet is for tcpSIZE and udpSIZE workloads only");
	refused("socketpair:inet", "confinement inet is for tcpSIZE");
	refused("tcp64:inets", "unknown confinement inets");
	refused("tcp64:nobody", "none, sender, receiver, both, stacked, inet");
}
END_TEST

START_TEST(test_points_invalid)
{
	/* The bad point, and the valid names. */
	refused("bogus:none", "bench point bogus:none: unknown workload bogus");
	refused("bogus:none", "socketpair, twoproc, uring");
	refused("twoproc:none socketpair:bogus",
		"socketpair:bogus: unknown confinement bogus");
	refused("socketpair:bogus", "none, sender, receiver, both, stacked");
	refused("twoproc", "twoproc is not WORKLOAD:CONFINEMENT");
	refused("twoproc:none:none", "unknown confinement none:none");
	refused("twoproc:", "unknown confinement  (");
	refused(":none", "unknown workload  (");
	refused("TwoProc:none", "unknown workload TwoProc");
	refused("twoproc:non", "unknown confinement non ");
	refused("twoproc:nonex", "unknown confinement nonex ");
	refused("twoproc:none\turing:none", "unknown confinement");
	refused("", "no bench points given");
	refused("   ", "no bench points given");
}
END_TEST

/* Six rounds of @point at @base + i * @step ns per message (1 message). */
static void rounds(struct bench_set *set, const char *point, long long base,
		   long long step)
{
	struct sbuf sb = { 0 };
	int i;

	for (i = 0; i < 6; i++)
		sbuf_printf(&sb, "%s\t0\t%d\t0\t1\t%lld\n", point, i,
			    base + i * step);
	bench_parse(sb.buf, set);
	sbuf_free(&sb);
}

START_TEST(test_cost_changes)
{
	struct bench_set a, b, a2, none = { 0 };
	struct sbuf out = { 0 };
	size_t missing;

	/*
	 * Six rounds a step of 1 apart (CV 0.19%): A mean 1000.5, A2 1001.5
	 * (drift 0.1%), B 1010.5 is (1010.5 - 1001) / 1001 = +0.95%, beyond
	 * the drift and the interval; B at 1002.5 is within the drift.
	 */
	rounds(&a, "socketpair:none", 998, 1);
	rounds(&a2, "socketpair:none", 999, 1);
	rounds(&b, "socketpair:none", 1008, 1);
	ck_assert_uint_eq(bench_cost_changes("socketpair:none", &a, &b, &a2, 0,
					     &out, &missing),
			  1);
	ck_assert_uint_eq(missing, 0);
	ck_assert_msg(!strncmp(out.buf, "socketpair:none +0.95% (B/A", 27),
		      "%s", out.buf);
	bench_free(&b);
	sbuf_free(&out);
	/* +9.5 a message, under a floor of 10: no verdict. */
	rounds(&b, "socketpair:none", 1008, 1);
	ck_assert_uint_eq(bench_cost_changes("socketpair:none", &a, &b, &a2, 10,
					     &out, &missing),
			  0);
	ck_assert_uint_eq(out.len, 0);
	bench_free(&b);

	rounds(&b, "socketpair:none", 1000, 1);
	ck_assert_uint_eq(bench_cost_changes("socketpair:none", &a, &b, &a2, 0,
					     &out, &missing),
			  0);
	ck_assert_uint_eq(out.len, 0);

	/* A point without samples on one side is not a change: it is missing. */
	ck_assert_uint_eq(bench_cost_changes("socketpair:none twoproc:both", &a,
					     &b, &a2, 0, &out, &missing),
			  0);
	ck_assert_uint_eq(missing, 1);
	ck_assert_str_eq(out.buf, "twoproc:both: no samples (A 0, B 0, A2 0)");
	sbuf_free(&out);
	ck_assert_uint_eq(bench_cost_changes("socketpair:none", &a, &none, &a2,
					     0, &out, &missing),
			  0);
	ck_assert_uint_eq(missing, 1);
	sbuf_free(&out);
	bench_free(&a);
	bench_free(&b);
	bench_free(&a2);
}
END_TEST

START_TEST(test_cost_again)
{
	struct bench_set a, a2, c, tip;
	struct sbuf out = { 0 };

	/*
	 * The original at 1000.5 and 1001.5 (drift 0.1%); the culprit's
	 * kernel 1% cheaper, the tip 1% dearer than the original: the tip's
	 * +2.02% from the culprit is a later patch's, beyond drift and
	 * interval.
	 */
	rounds(&a, "socketpair:none", 998, 1);
	rounds(&a2, "socketpair:none", 999, 1);
	rounds(&c, "socketpair:none", 988, 1);
	rounds(&tip, "socketpair:none", 1008, 1);
	ck_assert_uint_eq(bench_cost_again("socketpair:none twoproc:both", &a,
					   &a2, &c, &tip, 0, &out),
			  1);
	ck_assert_msg(!strncmp(out.buf, "socketpair:none +2.02% [", 24), "%s",
		      out.buf);
	sbuf_free(&out);
	bench_free(&tip);
	/* The tip as the culprit's kernel, but for the original's drift. */
	rounds(&tip, "socketpair:none", 989, 1);
	ck_assert_uint_eq(
		bench_cost_again("socketpair:none", &a, &a2, &c, &tip, 0, &out),
		0);
	ck_assert_uint_eq(out.len, 0);
	bench_free(&a);
	bench_free(&a2);
	bench_free(&c);
	bench_free(&tip);
}
END_TEST

int main(void)
{
	return CHECK_RUN("bench", test_parse, test_first_round,
			 test_points_valid, test_points_invalid,
			 test_cost_changes, test_cost_again,
			 test_points_connection_valid,
			 test_points_connection_invalid, test_samples_tsv);
}
