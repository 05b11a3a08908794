// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/results/results.c
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "results/ktap.h"
#include "results/results.h"

static struct test_account t;

static void setup(void)
{
	memset(&t, 0, sizeof(t));
	t.doc.plan = -1;
}

static void teardown(void)
{
	ktap_free(&t.doc);
}

/* Accounts a test that exited with @rc after printing @ktap (NULL: none). */
static void account(const char *name, int rc, const char *ktap)
{
	ktap_free(&t.doc);
	memset(&t, 0, sizeof(t));
	t.doc.plan = -1;
	t.name = name;
	t.timeout_s = 30;
	t.rc = rc;
	if (ktap) {
		ck_assert_int_eq(ktap_parse(ktap, strlen(ktap), &t.doc), 0);
		t.have_ktap = true;
	}
	/* Derived fields start out as garbage: account_test() sets them all. */
	t.pass = t.fail = t.skip = t.lost = 99;
	strcpy(t.problem, "stale");
	account_test(&t);
}

static void counts(size_t pass, size_t fail, size_t skip, size_t lost)
{
	ck_assert_msg(t.pass == pass && t.fail == fail && t.skip == skip &&
			      t.lost == lost,
		      "%s: pass %zu fail %zu skip %zu lost %zu, want %zu %zu "
		      "%zu %zu (problem \"%s\")",
		      t.name, t.pass, t.fail, t.skip, t.lost, pass, fail, skip,
		      lost, t.problem);
}

static void no_problem(void)
{
	ck_assert_msg(!t.problem[0], "%s: unexpected problem \"%s\"", t.name,
		      t.problem);
}

static void problem(const char *phrase)
{
	ck_assert_msg(strstr(t.problem, phrase),
		      "%s: problem \"%s\" lacks \"%s\"", t.name, t.problem,
		      phrase);
	ck_assert_ptr_null(strchr(t.problem, '\n'));
}

START_TEST(test_all_pass)
{
	account("all_pass", 0,
		"TAP version 13\n"
		"1..3\n"
		"# Starting 3 tests from 1 test cases.\n"
		"ok 1 a\n"
		"ok 2 b\n"
		"ok 3 c\n"
		"# PASSED: 3 / 3 tests passed.\n"
		"# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0\n");
	counts(3, 0, 0, 0);
	no_problem();
	ck_assert(account_ok(&t));
}
END_TEST

START_TEST(test_one_fail)
{
	account("one_fail", 1,
		"TAP version 13\n"
		"1..2\n"
		"ok 1 a\n"
		"not ok 2 b\n"
		"# FAILED: 1 / 2 tests passed.\n"
		"# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0\n");
	counts(1, 1, 0, 0);
	no_problem();
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_fail_exit_0)
{
	account("fail_exit_0", 0, "1..2\nok 1 a\nnot ok 2 b\n");
	counts(1, 1, 0, 0);
	problem("exited 0");
	problem("1 cases failed");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_exit_1_no_fail)
{
	account("exit_1_no_fail", 1, "1..2\nok 1 a\nok 2 b\n");
	counts(2, 0, 0, 0);
	problem("exited with status");
	problem("status 1 ");
	ck_assert(!account_ok(&t));

	account("exit_2_no_fail", 2, "1..1\nok 1 a\n");
	problem("exited with status 2");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_lost)
{
	account("lost", 0, "TAP version 13\n1..5\nok 1 a\nok 2 b\nok 3 c\n");
	counts(3, 0, 0, 2);
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_never_finished)
{
	account("never", RC_NEVER,
		"TAP version 13\n1..4\nok 1 a\nnot ok 2 b\n");
	counts(1, 1, 0, 2);
	problem("never finished");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_never_finished_no_ktap)
{
	account("never_silent", RC_NEVER, NULL);
	counts(0, 0, 0, 1);
	/* The first problem found is the one reported. */
	problem("never finished");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_timeout)
{
	account("slow", 137, "1..3\nok 1 a\n");
	counts(1, 0, 0, 2);
	problem("timeout");
	problem("30 s");
	ck_assert(!account_ok(&t));

	/* Even when every case was reported. */
	account("slow_exit", 137, "1..1\nok 1 a\n");
	counts(1, 0, 0, 0);
	problem("timeout");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_signal)
{
	account("segv", 139, "1..2\nok 1 a\n");
	counts(1, 0, 0, 1);
	problem("signal 11");
	ck_assert(!account_ok(&t));

	account("abort", 134, "1..1\nok 1 a\n");
	counts(1, 0, 0, 0);
	problem("signal 6");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_no_ktap)
{
	account("silent", 0, NULL);
	counts(0, 0, 0, 1);
	problem("no KTAP");
	ck_assert(!account_ok(&t));

	/* An empty output file is no better. */
	account("empty", 0, "");
	counts(0, 0, 0, 1);
	problem("no KTAP");
	ck_assert(!account_ok(&t));

	/* Nor is output without a plan or a result. */
	account("chatty", 1, "TAP version 13\n# hello\n");
	counts(0, 0, 0, 1);
	problem("no KTAP");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_skip_all)
{
	account("no_apparmor", 4, "TAP version 13\n1..0 # SKIP no apparmor\n");
	counts(0, 0, 1, 0);
	no_problem();
	ck_assert(account_ok(&t));
}
END_TEST

START_TEST(test_all_skipped)
{
	account("all_skipped", 4,
		"TAP version 13\n"
		"1..2\n"
		"ok 1 a # SKIP no policy\n"
		"ok 2 b # SKIP no policy\n"
		"# Totals: pass:0 fail:0 xfail:0 xpass:0 skip:2 error:0\n");
	counts(0, 0, 2, 0);
	no_problem();
	ck_assert(account_ok(&t));
}
END_TEST

START_TEST(test_some_skipped)
{
	account("some_skipped", 0,
		"1..3\n"
		"ok 1 a\n"
		"ok 2 b # SKIP not here\n"
		"ok 3 c\n"
		"# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0\n");
	counts(2, 0, 1, 0);
	no_problem();
	ck_assert(account_ok(&t));
}
END_TEST

/* As account(), for a test whose results arrived with @records lines. */
static void account_as(const char *name, int rc, const char *ktap,
		       size_t records, bool skip_expected)
{
	ktap_free(&t.doc);
	memset(&t, 0, sizeof(t));
	t.doc.plan = -1;
	t.name = name;
	t.timeout_s = 30;
	t.rc = rc;
	t.counted = true;
	t.records = records;
	t.skip_expected = skip_expected;
	ck_assert_int_eq(ktap_parse(ktap, strlen(ktap), &t.doc), 0);
	t.have_ktap = true;
	account_test(&t);
}

static void account_records(const char *name, int rc, const char *ktap,
			    size_t records)
{
	account_as(name, rc, ktap, records, false);
}

/* A test that planned cases and recorded nothing decided nothing. */
START_TEST(test_planned_no_records)
{
	account_records("passed_silently", 0, "1..2\nok 1 a\nok 2 b\n", 0);
	counts(2, 0, 0, 0);
	problem("planned 2 cases and recorded no decision");
	ck_assert(!account_ok(&t));

	/* Skipping every case keeps no run green any more. */
	account_records("all_skipped", 4,
			"1..2\nok 1 a # SKIP no parser\n"
			"ok 2 b # SKIP no parser\n",
			0);
	counts(0, 0, 2, 0);
	problem("planned 2 cases and recorded no decision");
	ck_assert(!account_ok(&t));

	/* One record is a decision; a whole-binary skip planned nothing. */
	account_records("one_record", 0, "1..2\nok 1 a\nok 2 b\n", 1);
	no_problem();
	ck_assert(account_ok(&t));
	account_records("no_apparmor", 4, "1..0 # SKIP no apparmor\n", 0);
	no_problem();
	ck_assert(account_ok(&t));

	/* Results that never arrived are not counted: "never finished". */
	account("lost_results", RC_NEVER, "1..2\nok 1 a\n");
	ck_assert_ptr_null(strstr(t.problem, "recorded"));
}
END_TEST

/*
 * On a boot where the tests skip as upstream expects (no LSM, no parser,
 * no privilege), a test whose cases skipped may record nothing; one that
 * only passed still decided nothing, and a failure is a failure.
 */
/* The boots where tests skip as upstream expects, and no others. */
START_TEST(test_skip_reason)
{
	const char *q = "qemu-system-x86_64 -append 'console=ttyS0 panic=-1";

	ck_assert_str_eq(skip_expected("lockdown,capability,yama,selinux",
				       "apparmor", NULL),
			 "its LSM is not active in the guest");
	/* A longer name containing it is not it. */
	ck_assert_str_eq(skip_expected("apparmor2,selinuxx", "selinux", NULL),
			 "its LSM is not active in the guest");
	ck_assert_ptr_null(
		skip_expected("capability,apparmor,bpf", "apparmor", q));
	ck_assert_ptr_null(skip_expected("apparmor", "apparmor", q));
	ck_assert_ptr_null(skip_expected(NULL, "apparmor", NULL));
	ck_assert_str_eq(
		skip_expected("apparmor", "apparmor",
			      "qemu -append 'console=ttyS0 lsmconf.user=1000'"),
		"the tests ran as a user (lsmconf.user=)");
	ck_assert_str_eq(
		skip_expected("apparmor", "apparmor",
			      "-append 'lsmconf.hide=apparmor_parser'"),
		"a program was hidden (lsmconf.hide=)");
	/* Only a word of its own: xlsmconf.user= is another key. */
	ck_assert_ptr_null(
		skip_expected("apparmor", "apparmor",
			      "-append 'xlsmconf.user=1 a=lsmconf.hide=x'"));
}
END_TEST

START_TEST(test_skip_expected)
{
	const char *skipped = "1..2\nok 1 a # SKIP AppArmor is not active\n"
			      "ok 2 b # SKIP AppArmor is not active\n";

	account_as("all_skipped", 4, skipped, 0, true);
	counts(0, 0, 2, 0);
	no_problem();
	ck_assert(account_ok(&t));

	/* Some cases need no privilege: they pass beside the skipped. */
	account_as("some_passed", 0,
		   "1..2\nok 1 a\nok 2 b # SKIP no CAP_MAC_ADMIN\n", 0, true);
	counts(1, 0, 1, 0);
	no_problem();
	ck_assert(account_ok(&t));

	account_as("only_passed", 0, "1..2\nok 1 a\nok 2 b\n", 0, true);
	problem("planned 2 cases and recorded no decision");
	ck_assert(!account_ok(&t));

	account_as("one_failed", 1,
		   "1..2\nnot ok 1 a\nok 2 b # SKIP no parser\n", 0, true);
	counts(0, 1, 1, 0);
	ck_assert(!account_ok(&t));

	/* Exit 0 with every case skipped is still accepted (older harness). */
	account_as("exit_0", 0, skipped, 0, true);
	no_problem();
}
END_TEST

START_TEST(test_totals_disagree)
{
	account("totals", 1,
		"1..2\n"
		"ok 1 a\n"
		"not ok 2 b\n"
		"# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0\n");
	counts(1, 1, 0, 0);
	problem("Totals");
	ck_assert(!account_ok(&t));

	account("totals_skip", 0,
		"1..2\n"
		"ok 1 a\n"
		"ok 2 b\n"
		"# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0\n");
	counts(2, 0, 0, 0);
	problem("Totals");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_truncated)
{
	account("truncated", 0,
		"1..2\n"
		"ok 1 a\n"
		"ok 2 b\n"
		"# Totals: pass:2 fail:0 xfa");
	counts(2, 0, 0, 0);
	problem("truncated");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_xfail)
{
	account("xfail", 0,
		"1..2\n"
		"ok 1 a\n"
		"ok 2 b # XFAIL known bug\n"
		"# Totals: pass:1 fail:0 xfail:1 xpass:0 skip:0 error:0\n");
	counts(2, 0, 0, 0);
	no_problem();
	ck_assert(account_ok(&t));
}
END_TEST

START_TEST(test_xpass_totals)
{
	/*
	 * kselftest.h's ksft_test_result_xpass() prints "ok N # XPASS" and
	 * counts it in "xpass:" of the Totals line, not in "pass:".
	 */
	account("xpass", 0,
		"1..2\n"
		"ok 1 a\n"
		"ok 2 # XPASS b\n"
		"# Totals: pass:1 fail:0 xfail:0 xpass:1 skip:0 error:0\n");
	counts(2, 0, 0, 0);
	no_problem();
	ck_assert(account_ok(&t));
}
END_TEST

START_TEST(test_error_totals)
{
	/*
	 * kselftest.h's ksft_test_result_error() prints "not ok N # error"
	 * and counts it in "error:" of the Totals line, not in "fail:".
	 */
	account("error", 1,
		"1..2\n"
		"ok 1 a\n"
		"not ok 2 # error b\n"
		"# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:1\n");
	counts(1, 1, 0, 0);
	no_problem();
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_ktap_problems)
{
	account("no_plan", 0, "ok 1 a\nok 2 b\n");
	counts(2, 0, 0, 0);
	problem("no plan");
	ck_assert(!account_ok(&t));

	account("over_plan", 0, "1..1\nok 1 a\nok 2 b\n");
	counts(2, 0, 0, 0);
	problem("more than its plan");
	ck_assert(!account_ok(&t));

	account("malformed", 0, "1..1\nok 1 a\nokay 2 b\n");
	counts(1, 0, 0, 0);
	problem("malformed");
	ck_assert(!account_ok(&t));

	account("repeat", 0, "1..2\nok 1 a\nok 1 b\n");
	counts(2, 0, 0, 0);
	problem("repeat or are out of order");
	ck_assert(!account_ok(&t));

	account("bail", 1, "1..3\nok 1 a\nBail out! no policy\n");
	counts(1, 0, 0, 2);
	problem("bailed out");
	ck_assert(!account_ok(&t));
}
END_TEST

START_TEST(test_reaccount)
{
	/* account_test() may run twice on the same account. */
	account("again", 1, "1..2\nok 1 a\nnot ok 2 b\n");
	account_test(&t);
	counts(1, 1, 0, 0);
	no_problem();
}
END_TEST

START_TEST(test_totals_add)
{
	struct run_totals sum = { 0 };

	account("all_pass", 0, "1..3\nok 1 a\nok 2 b\nok 3 c\n");
	totals_add(&sum, &t);
	account("one_fail", 1, "1..2\nok 1 a\nnot ok 2 b\n");
	totals_add(&sum, &t);
	account("no_apparmor", 4, "1..0 # SKIP no apparmor\n");
	totals_add(&sum, &t);
	account("never", RC_NEVER, "1..4\nok 1 a # SKIP x\n");
	totals_add(&sum, &t);
	account("silent", 0, NULL);
	totals_add(&sum, &t);

	ck_assert_uint_eq(sum.pass, 4);
	ck_assert_uint_eq(sum.fail, 1);
	ck_assert_uint_eq(sum.skip, 2);
	ck_assert_uint_eq(sum.lost, 4);
	ck_assert_uint_eq(sum.problems, 2);
}
END_TEST

START_TEST(test_crash)
{
	char *crashed[] = { "f.a", "f.b" };

	/* Results never arrived: the live output left 3 cases unreported. */
	account("crashed", RC_NEVER, "1..4\nok 1 x\n");
	ck_assert_uint_eq(t.lost, 3);
	account_crash(&t, false, crashed, 2, 2, "kernel panic");
	ck_assert_uint_eq(t.fail, 2);
	ck_assert_uint_eq(t.lost, 1);
	ck_assert_str_eq(
		t.problem,
		"case f.b brought the kernel down (boot 2: kernel panic)");
	ck_assert(!account_ok(&t));

	/* No crashed case, but the boot ended in the test. */
	account("hung", RC_NEVER, "1..2\nok 1 x\n");
	account_crash(&t, false, NULL, 0, 1, "timed out");
	ck_assert_uint_eq(t.fail, 0);
	ck_assert_str_eq(t.problem, "the boot ended in it (boot 1: timed out)");

	/* Results arrived and nothing crashed: nothing to add. */
	account("fine", 0, "1..1\nok 1 x\n");
	account_crash(&t, true, NULL, 0, 0, "");
	ck_assert(account_ok(&t));
}
END_TEST

static Suite *results_suite(void)
{
	Suite *s = suite_create("results");
	TCase *tc = tcase_create("account");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_all_pass);
	tcase_add_test(tc, test_one_fail);
	tcase_add_test(tc, test_fail_exit_0);
	tcase_add_test(tc, test_exit_1_no_fail);
	tcase_add_test(tc, test_lost);
	tcase_add_test(tc, test_never_finished);
	tcase_add_test(tc, test_never_finished_no_ktap);
	tcase_add_test(tc, test_timeout);
	tcase_add_test(tc, test_signal);
	tcase_add_test(tc, test_no_ktap);
	tcase_add_test(tc, test_skip_all);
	tcase_add_test(tc, test_all_skipped);
	tcase_add_test(tc, test_some_skipped);
	tcase_add_test(tc, test_totals_disagree);
	tcase_add_test(tc, test_truncated);
	tcase_add_test(tc, test_xfail);
	tcase_add_test(tc, test_xpass_totals);
	tcase_add_test(tc, test_error_totals);
	tcase_add_test(tc, test_ktap_problems);
	tcase_add_test(tc, test_reaccount);
	tcase_add_test(tc, test_totals_add);
	tcase_add_test(tc, test_crash);
	tcase_add_test(tc, test_planned_no_records);
	tcase_add_test(tc, test_skip_expected);
	tcase_add_test(tc, test_skip_reason);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(results_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
