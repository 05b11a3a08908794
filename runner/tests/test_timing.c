// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/lib.h"
#include "results/timing.h"

/* A kernel of two boots: the host's steps, then what the guest sent. */
static void two_boots(struct sbuf *sb)
{
	sbuf_printf(sb, "%s", TIMING_HEADER);
	timing_row(sb, "sid-apparmor", 0, T_FETCH, NULL, 0.25, 1);
	timing_row(sb, "sid-apparmor", 1, T_IMAGE, NULL, 0.1, 1);
	timing_row(sb, "sid-apparmor", 1, T_QEMU, NULL, 20, 1);
	timing_row(sb, "sid-apparmor", 1, T_QEMU_START, NULL, 0.5, 1);
	timing_row(sb, "sid-apparmor", 2, T_IMAGE, NULL, 0.1, 1);
	timing_row(sb, "sid-apparmor", 2, T_QEMU, NULL, 10, 1);
	timing_row(sb, "sid-apparmor", 2, T_QEMU_START, NULL, 0.5, 1);
	timing_row(sb, "sid-apparmor", 0, T_KERNEL_BOOT, NULL, 3, 1);
	timing_row(sb, "sid-apparmor", 0, T_PROGRAM, "a_test", 2, 1);
	timing_row(sb, "sid-apparmor", 0, T_PROGRAM_START, "a_test", 0.5, 1);
	timing_row(sb, "sid-apparmor", 0, T_PROGRAM_CASES, "a_test", 1.25, 1);
	timing_row(sb, "sid-apparmor", 0, T_PROGRAM_END, "a_test", 0.25, 1);
	timing_row(sb, "sid-apparmor", 0, T_POLICY, "a_test", 0.75, 3);
	timing_row(sb, "sid-apparmor", 0, T_TRANSFER, NULL, 0.5, 4);
	timing_row(sb, "sid-apparmor", 0, T_COLLECT, NULL, 0.2, 1);
	timing_row(sb, NULL, 0, T_COMPARE, NULL, 0.05, 1);
}

START_TEST(test_row)
{
	struct sbuf sb = { 0 };

	timing_row(&sb, "k", 2, T_POLICY, "a_test", 1.5, 3);
	timing_row(&sb, NULL, 0, T_COMPARE, NULL, -1, 1);
	ck_assert_str_eq(sb.buf, "k\t2\tpolicy\ta_test\t1.500\t3\n"
				 "-\t-\tcompare\t-\t0.000\t1\n");
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_sum)
{
	struct sbuf sb = { 0 };
	struct timing_sum sum = { 0 };
	char why[128];

	two_boots(&sb);
	ck_assert_uint_eq(timing_parse(sb.buf, sb.len, &sum, why, sizeof(why)),
			  0);
	ck_assert_int_eq(sum.rows[T_QEMU], 2);
	ck_assert_double_eq_tol(sum.seconds[T_QEMU], 30, 1e-9);
	ck_assert_double_eq_tol(sum.seconds[T_IMAGE], 0.2, 1e-9);
	ck_assert_int_eq(sum.count[T_POLICY], 3);
	ck_assert_int_eq(sum.count[T_TRANSFER], 4);
	ck_assert_int_eq(sum.rows[T_BUILD], 0);
	sbuf_free(&sb);
}
END_TEST

START_TEST(test_summary)
{
	struct sbuf sb = { 0 };
	struct timing_sum sum = { 0 };
	char why[128], line[1024];

	two_boots(&sb);
	timing_parse(sb.buf, sb.len, &sum, why, sizeof(why));
	timing_summary(&sum, line, sizeof(line));
	ck_assert_str_eq(
		line,
		"fetch 0.2 s, image 0.2 s, QEMU 30.0 s in 2 boots (to first "
		"output 1.0 s; guest: kernel boot 3.0 s, 1 program 2.0 s = "
		"start-up 0.5 + cases 1.2 + end 0.2, policy 0.8 s in 3 "
		"compiles, transfer 0.5 s in 4 frames), collect 0.2 s, "
		"compare 0.05 s");
	/* Only what was measured is said. */
	memset(&sum, 0, sizeof(sum));
	sum.rows[T_COMPARE] = 1;
	sum.seconds[T_COMPARE] = 0.01;
	timing_summary(&sum, line, sizeof(line));
	ck_assert_str_eq(line, "compare 0.01 s");
	/* A boot the guest reported nothing of. */
	memset(&sum, 0, sizeof(sum));
	sum.rows[T_QEMU] = 1;
	sum.seconds[T_QEMU] = 4;
	timing_summary(&sum, line, sizeof(line));
	ck_assert_str_eq(line,
			 "QEMU 4.0 s in 1 boot (guest: nothing reported)");
	/* Cut, never overflowed. */
	timing_summary(&sum, line, 16);
	ck_assert_uint_eq(strlen(line), 15);
	ck_assert_str_eq(line + 12, "...");
	sbuf_free(&sb);
}
END_TEST

/* @text's first bad line and why, as "N: why" (or "0"). */
static const char *bad(const char *text)
{
	static char out[200];
	struct timing_sum sum = { 0 };
	char why[128];
	size_t n = timing_parse(text, strlen(text), &sum, why, sizeof(why));

	if (!n)
		return "0";
	snprintf(out, sizeof(out), "%zu: %s", n, why);
	return out;
}

START_TEST(test_refused)
{
	ck_assert_str_eq(bad(TIMING_HEADER), "0");
	ck_assert_str_eq(bad(""), "1: not a timing.tsv header");
	ck_assert_str_eq(bad("kernel\tboot\tstage\n"),
			 "1: not a timing.tsv header");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tqemu\t-\t1.0\n"),
			 "2: fewer than 6 columns");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tqemu\t-\t1.0\t1\tx\n"),
			 "2: more than 6 columns");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tqemu\t-\t\t1\n"),
			 "2: an empty column");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tqemu\t-\t1\t1\n"
					   "k\t1\tnap\t-\t1.0\t1\n"),
			 "3: an unknown stage");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tqemu\t-\t-1\t1\n"),
			 "2: seconds not a number of 0 or more");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tqemu\t-\tnan\t1\n"),
			 "2: seconds not a number of 0 or more");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tqemu\t-\t1s\t1\n"),
			 "2: seconds not a number of 0 or more");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tpolicy\t-\t1\t2.5\n"),
			 "2: count not a whole number of 0 or more");
	ck_assert_str_eq(bad(TIMING_HEADER "k\t1\tqemu\t-\t1\t1"),
			 "2: no newline at its end");
}
END_TEST

START_TEST(test_nul)
{
	static const char text[] = TIMING_HEADER "k\t1\tqemu\t-\t1\t1\0\n";
	struct timing_sum sum = { 0 };
	char why[128];

	ck_assert_uint_eq(
		timing_parse(text, sizeof(text) - 1, &sum, why, sizeof(why)),
		2);
	ck_assert_str_eq(why, "a NUL byte");
}
END_TEST

CHECK_TMPDIR("/tmp/lsmconf-timing-XXXXXX")

START_TEST(test_read)
{
	struct sbuf sb = { 0 }, rows = { 0 };
	struct err e;
	char *path = xasprintf("%s/timing.tsv", root);

	/* A run saved before timing.tsv: nothing, no error. */
	ck_assert_int_eq(timing_read(root, &rows, &e), 0);
	two_boots(&sb);
	ck_assert_int_eq(write_file(path, sb.buf, sb.len), 0);
	ck_assert_int_eq(timing_read(root, &rows, &e), 1);
	ck_assert_str_eq(rows.buf, sb.buf + strlen(TIMING_HEADER));
	ck_assert_int_eq(write_file(path, "kernel\tseconds\n", 15), 0);
	ck_assert_int_eq(timing_read(root, &rows, &e), -1);
	ck_assert_str_eq(e.msg + strlen(path),
			 " line 1: not a timing.tsv header");
	unlink(path);
	free(path);
	sbuf_free(&sb);
	sbuf_free(&rows);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("timing");

	CHECK_TCASE(s, "rows", NULL, NULL, test_row, test_sum, test_summary,
		    test_refused, test_nul);
	CHECK_TCASE(s, "files", setup, teardown, test_read);
	return check_run_suite(s);
}
