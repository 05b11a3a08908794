// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/results/ktap.c
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/ktap.h"
#include "results/ksft.h"
#include "results/records.h"
#include "lib/lib.h"

static const char sample[] =
	"TAP version 13\n"
	"1..4\n"
	"# Starting 4 tests from 2 test cases.\n"
	"#  RUN           global.apparmor_active ...\n"
	"#            OK  global.apparmor_active\n"
	"ok 1 global.apparmor_active\n"
	"#  RUN           feature.network.advertised ...\n"
	"# features_test.c:80:advertised:feature network: yes\n"
	"#            OK  feature.network.advertised\n"
	"ok 2 feature.network.advertised\n"
	"#  RUN           profile.load_list_remove ...\n"
	"#      SKIP      refusing to load policy\n"
	"#            OK  profile.load_list_remove\n"
	"ok 3 profile.load_list_remove # SKIP refusing to load policy\n"
	"#  RUN           profile.malformed ...\n"
	"# features_test.c:170:malformed:Expected -71 (-71) == "
	"aa_policy_load(&bad) (-93)\n"
	"# malformed: Test failed\n"
	"#          FAIL  profile.malformed\n"
	"not ok 4 profile.malformed\n"
	"# FAILED: 2 / 4 tests passed.\n"
	"# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:1 error:0\n";

static struct ktap_doc doc;

static void parse(const char *text)
{
	ck_assert_int_eq(ktap_parse(text, strlen(text), &doc), 0);
}

static void teardown(void)
{
	ktap_free(&doc);
}

START_TEST(test_sample)
{
	parse(sample);
	ck_assert(doc.has_version);
	ck_assert_int_eq(doc.plan, 4);
	ck_assert(!doc.skip_all);
	ck_assert(!doc.bailed_out);
	ck_assert(!doc.truncated_line);
	ck_assert_uint_eq(doc.n_results, 4);
	ck_assert_uint_eq(doc.pass, 2);
	ck_assert_uint_eq(doc.fail, 1);
	ck_assert_uint_eq(doc.skip, 1);
	ck_assert_uint_eq(doc.xfail, 0);
	ck_assert_uint_eq(doc.malformed, 0);
	ck_assert(!doc.duplicate_numbers);
	ck_assert(!doc.out_of_order);

	ck_assert_uint_eq(doc.results[0].number, 1);
	ck_assert_str_eq(doc.results[0].name, "global.apparmor_active");
	ck_assert_int_eq(doc.results[0].status, KTAP_PASS);
	ck_assert_ptr_null(doc.results[0].reason);
	ck_assert_str_eq(doc.results[2].name, "profile.load_list_remove");
	ck_assert_int_eq(doc.results[2].status, KTAP_SKIP);
	ck_assert_str_eq(doc.results[2].reason, "refusing to load policy");
	ck_assert_uint_eq(doc.results[3].number, 4);
	ck_assert_str_eq(doc.results[3].name, "profile.malformed");
	ck_assert_int_eq(doc.results[3].status, KTAP_FAIL);
	ck_assert_ptr_null(doc.results[3].reason);

	ck_assert_uint_eq(doc.n_diag, 15);
	ck_assert_str_eq(doc.diag[0], "Starting 4 tests from 2 test cases.");
	ck_assert_str_eq(doc.diag[1],
			 " RUN           global.apparmor_active ...");

	ck_assert(doc.has_totals);
	ck_assert_int_eq(doc.totals_pass, 2);
	ck_assert_int_eq(doc.totals_fail, 1);
	ck_assert_int_eq(doc.totals_xfail, 0);
	ck_assert_int_eq(doc.totals_xpass, 0);
	ck_assert_int_eq(doc.totals_skip, 1);
	ck_assert_int_eq(doc.totals_error, 0);
}
END_TEST

START_TEST(test_diag_value)
{
	char buf[32];

	parse(sample);
	ck_assert(ktap_diag_value(&doc, "feature network", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "yes");
	ck_assert(!ktap_diag_value(&doc, "feature network_v9/af_unix", buf,
				   sizeof(buf)));
	ck_assert(!ktap_diag_value(&doc, "", buf, sizeof(buf)));
	/* Only "key: " counts, not "key:" followed by something else. */
	ck_assert(!ktap_diag_value(&doc, "features_test.c", buf, sizeof(buf)));
	ck_assert(ktap_diag_value(&doc, "malformed", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "Test failed");
}
END_TEST

START_TEST(test_diag_value_last_and_trim)
{
	char buf[8];

	parse("# x.c:1:a:feature network_v9/af_unix: no\n"
	      "# x.c:2:a:feature network_v9/af_unix:   yes  \n"
	      "# x.c:3:a:feature network: long value here\n"
	      "# something else\n");
	ck_assert(ktap_diag_value(&doc, "feature network_v9/af_unix", buf,
				  sizeof(buf)));
	ck_assert_str_eq(buf, "yes");
	/* Truncated to the buffer. */
	ck_assert(ktap_diag_value(&doc, "feature network", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "long va");
	/* A zero-sized buffer still reports the match. */
	ck_assert(ktap_diag_value(&doc, "feature network", NULL, 0));
}
END_TEST

START_TEST(test_all_pass)
{
	parse("KTAP version 1\n"
	      "1..3\n"
	      "ok 1 a\n"
	      "ok 2 b\n"
	      "ok 3 c\n");
	ck_assert(doc.has_version);
	ck_assert_int_eq(doc.plan, 3);
	ck_assert_uint_eq(doc.n_results, 3);
	ck_assert_uint_eq(doc.pass, 3);
	ck_assert_uint_eq(doc.fail + doc.skip + doc.xfail, 0);
	ck_assert_uint_eq(doc.malformed, 0);
	ck_assert_uint_eq(doc.n_diag, 0);
	ck_assert(!doc.has_totals);
	ck_assert(!doc.out_of_order);
}
END_TEST

START_TEST(test_skip_all)
{
	parse("TAP version 13\n"
	      "1..0 # SKIP AppArmor is not enabled\n");
	ck_assert_int_eq(doc.plan, 0);
	ck_assert(doc.skip_all);
	ck_assert_str_eq(doc.skip_all_reason, "AppArmor is not enabled");
	ck_assert_uint_eq(doc.n_results, 0);
	ck_assert_uint_eq(doc.malformed, 0);
}
END_TEST

START_TEST(test_empty_plan_not_skip)
{
	parse("1..0\n");
	ck_assert_int_eq(doc.plan, 0);
	ck_assert(!doc.skip_all);
	ck_assert_ptr_null(doc.skip_all_reason);
}
END_TEST

START_TEST(test_missing_plan)
{
	parse("TAP version 13\nok 1 a\nnot ok 2 b\n");
	ck_assert_int_eq(doc.plan, -1);
	ck_assert_uint_eq(doc.n_results, 2);
	ck_assert_uint_eq(doc.pass, 1);
	ck_assert_uint_eq(doc.fail, 1);
}
END_TEST

START_TEST(test_plan_at_end)
{
	parse("TAP version 13\nok 1 a\nok 2 b\n1..2\n");
	ck_assert_int_eq(doc.plan, 2);
	ck_assert_uint_eq(doc.n_results, 2);
	ck_assert_uint_eq(doc.malformed, 0);
}
END_TEST

START_TEST(test_second_plan)
{
	parse("1..2\nok 1 a\nok 2 b\n1..3\n");
	ck_assert_int_eq(doc.plan, 2);
	ck_assert_uint_eq(doc.malformed, 1);
}
END_TEST

START_TEST(test_truncated_line)
{
	parse("TAP version 13\n1..2\nok 1 a\nok 2 b");
	ck_assert(doc.truncated_line);
	ck_assert_uint_eq(doc.n_results, 1);
	ck_assert_uint_eq(doc.malformed, 0);
}
END_TEST

START_TEST(test_not_truncated)
{
	parse("ok 1 a\n");
	ck_assert(!doc.truncated_line);
	ck_assert_uint_eq(doc.n_results, 1);
}
END_TEST

START_TEST(test_malformed)
{
	static const char text[] = "TAP version 13\n"
				   "1..2\n"
				   "garbage\n"
				   "okay 1 x\n"
				   "ok x\n"
				   "ok\n"
				   "ok 1x\n"
				   "1..x\n"
				   "TAP version\n"
				   "ok 99999999999 big\n"
				   " ok 3 one space\n"
				   "ok 1 a\n"
				   "ok 2 b\0c\n"
				   "not ok 2 b\n";

	ck_assert_int_eq(ktap_parse(text, sizeof(text) - 1, &doc), 0);
	ck_assert_uint_eq(doc.malformed, 10);
	ck_assert_uint_eq(doc.n_results, 2);
	ck_assert_uint_eq(doc.pass, 1);
	ck_assert_uint_eq(doc.fail, 1);
	ck_assert(!doc.out_of_order);
}
END_TEST

START_TEST(test_subtests)
{
	parse("KTAP version 1\n"
	      "1..2\n"
	      "    KTAP version 1\n"
	      "    # Subtest: inner\n"
	      "    1..2\n"
	      "    ok 1 x\n"
	      "    not ok 2 y\n"
	      "not ok 1 inner\n"
	      "\tok 1 tabbed\n"
	      "  ok 1 two spaces\n"
	      "ok 2 other\n");
	ck_assert_uint_eq(doc.malformed, 0);
	ck_assert_uint_eq(doc.n_results, 2);
	ck_assert_uint_eq(doc.pass, 1);
	ck_assert_uint_eq(doc.fail, 1);
	ck_assert_uint_eq(doc.n_diag, 0);
	ck_assert_int_eq(doc.plan, 2);
}
END_TEST

START_TEST(test_duplicate_numbers)
{
	parse("1..3\nok 1 a\nok 2 b\nok 2 c\n");
	ck_assert(doc.duplicate_numbers);
	ck_assert(doc.out_of_order);
}
END_TEST

START_TEST(test_out_of_order)
{
	parse("1..3\nok 2 b\nok 1 a\nok 3 c\n");
	ck_assert(!doc.duplicate_numbers);
	ck_assert(doc.out_of_order);

	ktap_free(&doc);
	parse("ok 1 a\nok 3 c\n");
	ck_assert(!doc.duplicate_numbers);
	ck_assert(doc.out_of_order);
}
END_TEST

START_TEST(test_bail_out)
{
	parse("TAP version 13\n1..3\nok 1 a\nBail out! no memory\n");
	ck_assert(doc.bailed_out);
	ck_assert_str_eq(doc.bail_reason, "no memory");
	ck_assert_uint_eq(doc.n_results, 1);
	ck_assert_uint_eq(doc.malformed, 0);
}
END_TEST

START_TEST(test_crlf)
{
	char buf[16];

	parse("TAP version 13\r\n"
	      "1..2\r\n"
	      "# x.c:1:t:feature network: yes\r\n"
	      "ok 1 a\r\n"
	      "ok 2 b # SKIP why\r\n"
	      "\r\n");
	ck_assert(doc.has_version);
	ck_assert_int_eq(doc.plan, 2);
	ck_assert_uint_eq(doc.malformed, 0);
	ck_assert_str_eq(doc.results[0].name, "a");
	ck_assert_str_eq(doc.results[1].name, "b");
	ck_assert_str_eq(doc.results[1].reason, "why");
	ck_assert_str_eq(doc.diag[0], "x.c:1:t:feature network: yes");
	ck_assert(ktap_diag_value(&doc, "feature network", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "yes");
}
END_TEST

START_TEST(test_dash_name)
{
	parse("ok 1 - first\n"
	      "ok 2 -\n"
	      "ok 3\n"
	      "ok 4 - # SKIP nothing\n"
	      "ok 5 -not-a-dash\n"
	      "ok 6 with \\# hash # TODO later\n");
	ck_assert_uint_eq(doc.n_results, 6);
	ck_assert_str_eq(doc.results[0].name, "first");
	ck_assert_str_eq(doc.results[1].name, "");
	ck_assert_str_eq(doc.results[2].name, "");
	ck_assert_int_eq(doc.results[2].status, KTAP_PASS);
	ck_assert_str_eq(doc.results[3].name, "");
	ck_assert_int_eq(doc.results[3].status, KTAP_SKIP);
	ck_assert_str_eq(doc.results[3].reason, "nothing");
	ck_assert_str_eq(doc.results[4].name, "-not-a-dash");
	ck_assert_str_eq(doc.results[5].name, "with # hash");
	ck_assert_int_eq(doc.results[5].status, KTAP_XFAIL);
	ck_assert_uint_eq(doc.malformed, 0);
}
END_TEST

START_TEST(test_xfail_todo)
{
	parse("1..5\n"
	      "not ok 1 a # XFAIL known bug\n"
	      "not ok 2 b # TODO not done\n"
	      "ok 3 c # todo\n"
	      "ok 4 d # skip lower case\n"
	      "not ok 5 e # just a comment\n");
	ck_assert_uint_eq(doc.xfail, 3);
	ck_assert_uint_eq(doc.skip, 1);
	ck_assert_uint_eq(doc.fail, 1);
	ck_assert_uint_eq(doc.pass, 0);
	ck_assert_str_eq(doc.results[0].reason, "known bug");
	ck_assert_str_eq(doc.results[1].reason, "not done");
	ck_assert_str_eq(doc.results[2].reason, "");
	ck_assert_str_eq(doc.results[3].reason, "lower case");
	ck_assert_ptr_null(doc.results[4].reason);
	ck_assert_str_eq(doc.results[4].name, "e");
}
END_TEST

START_TEST(test_empty)
{
	char buf[4] = "x";

	ck_assert_int_eq(ktap_parse("", 0, &doc), 0);
	ck_assert(!doc.has_version);
	ck_assert_int_eq(doc.plan, -1);
	ck_assert_uint_eq(doc.n_results, 0);
	ck_assert_uint_eq(doc.malformed, 0);
	ck_assert(!doc.truncated_line);
	ck_assert(!ktap_diag_value(&doc, "feature network", buf, sizeof(buf)));
	ck_assert_str_eq(buf, "x");
}
END_TEST

START_TEST(test_not_nul_terminated)
{
	/* Only the first 7 bytes belong to the input. */
	static const char text[] = "ok 1 a\nok 2 b\n";

	ck_assert_int_eq(ktap_parse(text, 7, &doc), 0);
	ck_assert_uint_eq(doc.n_results, 1);
	ck_assert(!doc.truncated_line);
}
END_TEST

START_TEST(test_totals_malformed)
{
	parse("# Totals: pass:2 fail:1\n");
	ck_assert(!doc.has_totals);
	ck_assert_uint_eq(doc.n_diag, 1);
	ck_assert_uint_eq(doc.malformed, 0);
}
END_TEST

START_TEST(test_diag_no_space)
{
	parse("#\n#x\n# y\n");
	ck_assert_uint_eq(doc.n_diag, 3);
	ck_assert_str_eq(doc.diag[0], "");
	ck_assert_str_eq(doc.diag[1], "x");
	ck_assert_str_eq(doc.diag[2], "y");
}
END_TEST

START_TEST(test_many_results)
{
	char *text = malloc(1000 * 32);
	size_t len = 0;
	unsigned int i;

	ck_assert_ptr_nonnull(text);
	for (i = 1; i <= 1000; i++)
		len += sprintf(text + len, "ok %u t%u\n", i, i);
	ck_assert_int_eq(ktap_parse(text, len, &doc), 0);
	free(text);
	ck_assert_uint_eq(doc.n_results, 1000);
	ck_assert_uint_eq(doc.pass, 1000);
	ck_assert_str_eq(doc.results[999].name, "t1000");
	ck_assert(!doc.out_of_order);
}
END_TEST

START_TEST(test_status_name)
{
	ck_assert_str_eq(ktap_status_name(KTAP_PASS), "pass");
	ck_assert_str_eq(ktap_status_name(KTAP_FAIL), "fail");
	ck_assert_str_eq(ktap_status_name(KTAP_SKIP), "skip");
	ck_assert_str_eq(ktap_status_name(KTAP_XFAIL), "xfail");
}
END_TEST

START_TEST(test_free_twice)
{
	parse(sample);
	ktap_free(&doc);
	ck_assert_uint_eq(doc.n_results, 0);
	ck_assert_int_eq(doc.plan, -1);
	ktap_free(&doc);
}
END_TEST

/*
 * What run_kselftest.sh printed (kselftest 7.2's runner.sh, output through
 * a pipe as the guest's init reads it) for three harness programs.
 */
static const char ksft_pass[] =
	"TAP version 13\n"
	"1..1\n"
	"# timeout set to 2\n"
	"# selftests: demo: pass_test\n"
	"# TAP version 13\n"
	"# 1..2\n"
	"# # Starting 2 tests from 1 test cases.\n"
	"# #  RUN           global.one ...\n"
	"# # demo/pass_test.c:2:one:a diagnostic\n"
	"# #            OK  global.one\n"
	"# ok 1 global.one\n"
	"# #  RUN           global.two ...\n"
	"# #      SKIP      not here\n"
	"# #            OK  global.two\n"
	"# ok 2 global.two # SKIP not here\n"
	"# # PASSED: 2 / 2 tests passed.\n"
	"# # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0\n"
	"ok 1 selftests: demo: pass_test\n"
	"# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0\n";

static const char ksft_fail[] =
	"TAP version 13\n"
	"1..1\n"
	"# timeout set to 45\n"
	"# selftests: demo: fail_test\n"
	"# TAP version 13\n"
	"# 1..1\n"
	"# # Starting 1 tests from 1 test cases.\n"
	"# #  RUN           global.bad ...\n"
	"# # demo/fail_test.c:2:bad:Expected 1 (1) == 2 (2)\n"
	"# # bad: Test terminated by assertion\n"
	"# #          FAIL  global.bad\n"
	"# not ok 1 global.bad\n"
	"# # FAILED: 0 / 1 tests passed.\n"
	"# # Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n"
	"not ok 1 selftests: demo: fail_test # exit=1\n"
	"# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n";

static const char ksft_timeout[] =
	"TAP version 13\n"
	"1..1\n"
	"# timeout set to 2\n"
	"# selftests: demo: hang_test\n"
	"# TAP version 13\n"
	"# 1..2\n"
	"# ok 1 first\n"
	"not ok 1 selftests: demo: hang_test # TIMEOUT 2 seconds\n"
	"# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n";

/*
 * The guest's init with lsmconf run --timeout 3, shorter than the
 * settings: run_kselftest.sh -o 3 (e2e's hang_test and partial_test
 * fixtures, as the guest printed them; "Terminated" and "Segmentation
 * fault" are the shell's words for the program's end).
 */
static const char ksft_override[] =
	"TAP version 13\n"
	"1..1\n"
	"# overriding timeout to 3\n"
	"# selftests: tests: hang_test\n"
	"# TAP version 13\n"
	"# 1..2\n"
	"# ok 1 first\n"
	"# Terminated\n"
	"not ok 1 selftests: tests: hang_test # TIMEOUT 3 seconds\n"
	"# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n";

static const char ksft_signal[] =
	"TAP version 13\n"
	"1..1\n"
	"# overriding timeout to 3\n"
	"# selftests: tests: partial_test\n"
	"# TAP version 13\n"
	"# 1..3\n"
	"# ok 1 first\n"
	"# Segmentation fault\n"
	"not ok 1 selftests: tests: partial_test # exit=139\n"
	"# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n";

/* Unwraps @text and parses the program's own KTAP into doc. */
static void unwrap(const char *text, struct ksft_run *run)
{
	char *inner;
	size_t n;

	ck_assert_int_eq(ksft_unwrap(text, strlen(text), &inner, &n, run), 1);
	ck_assert_uint_eq(strlen(inner), n);
	ck_assert_int_eq(ktap_parse(inner, n, &doc), 0);
	free(inner);
}

START_TEST(test_ksft_pass)
{
	struct ksft_run run;

	unwrap(ksft_pass, &run);
	ck_assert(run.finished);
	ck_assert_int_eq(run.rc, 0);
	ck_assert(!run.timed_out);
	ck_assert_int_eq(run.timeout_s, 2);
	/* The program's KTAP, not the runner's one-test plan. */
	ck_assert_int_eq(doc.plan, 2);
	ck_assert_uint_eq(doc.n_results, 2);
	ck_assert_str_eq(doc.results[0].name, "global.one");
	ck_assert_uint_eq(doc.pass, 1);
	ck_assert_uint_eq(doc.skip, 1);
	ck_assert(doc.has_totals);
	ck_assert_int_eq(doc.totals_skip, 1);
	ck_assert_uint_eq(doc.malformed, 0);
	ck_assert(!doc.truncated_line);
	ktap_free(&doc);
}
END_TEST

START_TEST(test_ksft_fail)
{
	struct ksft_run run;

	unwrap(ksft_fail, &run);
	ck_assert(run.finished);
	ck_assert_int_eq(run.rc, 1);
	ck_assert_int_eq(run.timeout_s, 45);
	ck_assert_uint_eq(doc.fail, 1);
	ck_assert_str_eq(doc.results[0].name, "global.bad");
	ck_assert_uint_eq(doc.malformed, 0);
	ktap_free(&doc);
}
END_TEST

/* The runner's TIMEOUT: killed (128 + 9), the unreported case lost. */
START_TEST(test_ksft_timeout)
{
	struct ksft_run run;

	unwrap(ksft_timeout, &run);
	ck_assert(run.finished);
	ck_assert(run.timed_out);
	ck_assert_int_eq(run.timeout_s, 2);
	ck_assert_int_eq(run.rc, 128 + 9);
	ck_assert_int_eq(doc.plan, 2);
	ck_assert_uint_eq(doc.n_results, 1);
	ktap_free(&doc);
}
END_TEST

/* -o 3: the override is the timeout; the shell's "Terminated" is no case. */
START_TEST(test_ksft_override_timeout)
{
	struct ksft_run run;

	unwrap(ksft_override, &run);
	ck_assert(run.finished);
	ck_assert(run.timed_out);
	ck_assert_int_eq(run.timeout_s, 3);
	ck_assert_int_eq(run.rc, 128 + 9);
	ck_assert_int_eq(doc.plan, 2);
	ck_assert_uint_eq(doc.n_results, 1);
	ck_assert_uint_eq(doc.pass, 1);
	ktap_free(&doc);
}
END_TEST

/* "# exit=139": killed by signal 11, two of three cases unreported. */
START_TEST(test_ksft_signal)
{
	struct ksft_run run;

	unwrap(ksft_signal, &run);
	ck_assert(run.finished);
	ck_assert(!run.timed_out);
	ck_assert_int_eq(run.rc, 139);
	ck_assert_int_eq(doc.plan, 3);
	ck_assert_uint_eq(doc.n_results, 1);
	ktap_free(&doc);
}
END_TEST

/* The boot died in the program: no result line, the cases so far. */
START_TEST(test_ksft_unfinished)
{
	struct ksft_run run;
	size_t cut =
		strstr(ksft_pass, "# #  RUN           global.two") - ksft_pass;
	char *text = strndup(ksft_pass, cut + 20), *inner;
	size_t n;

	ck_assert_int_eq(ksft_unwrap(text, strlen(text), &inner, &n, &run), 1);
	ck_assert(!run.finished);
	ck_assert_int_eq(run.rc, -1);
	ck_assert_int_eq(ktap_parse(inner, n, &doc), 0);
	ck_assert_uint_eq(doc.n_results, 1);
	ck_assert(doc.truncated_line);
	ktap_free(&doc);
	free(inner);
	free(text);
}
END_TEST

/* A program's own output (a rerun after a crash) is left as it is. */
START_TEST(test_ksft_not_wrapped)
{
	static const char own[] = "TAP version 13\n1..1\nok 1 global.one\n";
	struct ksft_run run;
	char *inner = (char *)1;
	size_t n = 7;

	ck_assert_int_eq(ksft_unwrap(own, strlen(own), &inner, &n, &run), 0);
	ck_assert_ptr_null(inner);
	ck_assert_uint_eq(n, 0);
	ck_assert(!run.finished);
	ck_assert_int_eq(run.timeout_s, -1);
}
END_TEST

/* "ok ... # SKIP" is the program's exit status 4. */
START_TEST(test_ksft_skip)
{
	static const char skip[] =
		"TAP version 13\n1..1\n"
		"# selftests: apparmor: x_test\n"
		"# TAP version 13\n# 1..0 # SKIP no AppArmor\n"
		"ok 1 selftests: apparmor: x_test # SKIP\n";
	struct ksft_run run;

	unwrap(skip, &run);
	ck_assert_int_eq(run.rc, 4);
	ck_assert(doc.skip_all);
	ktap_free(&doc);
}
END_TEST

/*
 * run_kselftest.sh -c apparmor as the guest printed it (lsmconf run
 * --collection --test features_test --test abi_test on debian:sid, with
 * LSMCONF_RESULTS unset: the records are "# # record: " lines).
 */
#define COLLECTION \
	LSMCONF_ROOT "/runner/tests/fixtures/ksft/sid-apparmor-collection.ktap"

static char *collection(size_t *len)
{
	char *buf;

	ck_assert_int_eq(read_file(COLLECTION, &buf, len), 0);
	return buf;
}

/* One part of @text at *@pos, unwrapped and parsed into doc. */
static int next_part(const char *text, size_t len, size_t *pos, char *name,
		     struct ksft_run *run, size_t *records)
{
	const char *part;
	size_t plen, n;
	char *inner, *recs;
	int ret = ksft_next(text, len, pos, &part, &plen, name, 128);

	if (ret != 1)
		return ret;
	ck_assert_int_eq(ksft_unwrap(part, plen, &inner, &n, run), 1);
	ck_assert_int_eq(ktap_parse(inner, n, &doc), 0);
	recs = records_from_diag(inner, n, records);
	free(recs);
	free(inner);
	return 1;
}

/* Each program's part: its name, exit status, timeout, cases, records. */
START_TEST(test_ksft_collection)
{
	struct ksft_run run;
	size_t len, pos = 0, records;
	char *text = collection(&len), name[128];

	ck_assert_int_eq(next_part(text, len, &pos, name, &run, &records), 1);
	ck_assert_str_eq(name, "features_test");
	ck_assert(run.finished);
	ck_assert_int_eq(run.rc, 0);
	/* The part starts at the runner's "# timeout set to 300". */
	ck_assert_int_eq(run.timeout_s, 300);
	ck_assert_int_eq(doc.plan, 22);
	ck_assert_uint_eq(doc.pass, 22);
	ck_assert_uint_eq(records, 5);
	ktap_free(&doc);

	ck_assert_int_eq(next_part(text, len, &pos, name, &run, &records), 1);
	ck_assert_str_eq(name, "abi_test");
	ck_assert(run.finished);
	ck_assert_int_eq(run.rc, 0);
	ck_assert_int_eq(doc.plan, 18);
	ck_assert_uint_eq(doc.pass, 18);
	ck_assert_uint_eq(doc.fail, 0);
	ck_assert_uint_eq(records, 126);
	ktap_free(&doc);

	/* The runner's "# Totals" after the last result: no part. */
	ck_assert_int_eq(next_part(text, len, &pos, name, &run, &records), 0);
	ck_assert_uint_eq(pos, len);
	free(text);
}
END_TEST

/*
 * The boot died in abi_test: its part runs to the end, unfinished, with
 * the cases so far (the host then goes on one test at a time).
 */
START_TEST(test_ksft_collection_cut)
{
	struct ksft_run run;
	size_t len, pos = 0, records;
	char *text = collection(&len), name[128];
	char *cut = strstr(text, "# ok 5 abi.");

	ck_assert_ptr_nonnull(cut);
	len = cut - text;
	ck_assert_int_eq(next_part(text, len, &pos, name, &run, &records), 1);
	ck_assert(run.finished);
	ktap_free(&doc);
	ck_assert_int_eq(next_part(text, len, &pos, name, &run, &records), 1);
	ck_assert_str_eq(name, "abi_test");
	ck_assert(!run.finished);
	ck_assert_int_eq(run.rc, -1);
	ck_assert_uint_eq(doc.n_results, 4);
	ck_assert_uint_eq(pos, len);
	ktap_free(&doc);
	ck_assert_int_eq(next_part(text, len, &pos, name, &run, &records), 0);
	free(text);
}
END_TEST

/* Not a runner's output, and a header with a long name cut to size. */
START_TEST(test_ksft_collection_edges)
{
	static const char plain[] = "TAP version 13\n1..1\nok 1 global.one\n";
	static const char longname[] =
		"# selftests: apparmor: a_rather_long_test\n"
		"ok 1 selftests: apparmor: a_rather_long_test\n";
	const char *part;
	size_t pos = 0, plen;
	char name[8];

	ck_assert_int_eq(ksft_next(plain, strlen(plain), &pos, &part, &plen,
				   name, sizeof(name)),
			 0);
	ck_assert_uint_eq(pos, strlen(plain));
	pos = 0;
	ck_assert_int_eq(ksft_next(longname, strlen(longname), &pos, &part,
				   &plen, name, sizeof(name)),
			 1);
	ck_assert_str_eq(name, "a_rathe");
	ck_assert_ptr_eq(part, longname);
	ck_assert_uint_eq(plen, strlen(longname));
}
END_TEST

static Suite *ktap_suite(void)
{
	Suite *s = suite_create("ktap");
	TCase *tc = tcase_create("parse");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_sample);
	tcase_add_test(tc, test_ksft_collection);
	tcase_add_test(tc, test_ksft_collection_cut);
	tcase_add_test(tc, test_ksft_collection_edges);
	tcase_add_test(tc, test_diag_value);
	tcase_add_test(tc, test_diag_value_last_and_trim);
	tcase_add_test(tc, test_all_pass);
	tcase_add_test(tc, test_skip_all);
	tcase_add_test(tc, test_empty_plan_not_skip);
	tcase_add_test(tc, test_missing_plan);
	tcase_add_test(tc, test_plan_at_end);
	tcase_add_test(tc, test_second_plan);
	tcase_add_test(tc, test_truncated_line);
	tcase_add_test(tc, test_not_truncated);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_subtests);
	tcase_add_test(tc, test_duplicate_numbers);
	tcase_add_test(tc, test_out_of_order);
	tcase_add_test(tc, test_bail_out);
	tcase_add_test(tc, test_crlf);
	tcase_add_test(tc, test_dash_name);
	tcase_add_test(tc, test_xfail_todo);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_not_nul_terminated);
	tcase_add_test(tc, test_totals_malformed);
	tcase_add_test(tc, test_diag_no_space);
	tcase_add_test(tc, test_many_results);
	tcase_add_test(tc, test_status_name);
	tcase_add_test(tc, test_free_twice);
	tcase_add_test(tc, test_ksft_pass);
	tcase_add_test(tc, test_ksft_fail);
	tcase_add_test(tc, test_ksft_timeout);
	tcase_add_test(tc, test_ksft_override_timeout);
	tcase_add_test(tc, test_ksft_signal);
	tcase_add_test(tc, test_ksft_unfinished);
	tcase_add_test(tc, test_ksft_not_wrapped);
	tcase_add_test(tc, test_ksft_skip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ktap_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
