// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/analysis/uncovered.c: the functions of a file
 * that a coverage run never called, each with the hook table's verdict
 * on the hook it implements.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "check_run.h"

/* Four functions: one called, three never (a listed hook, a gap, a helper). */
static const char info[] = "SF:/t/security/selinux/hooks.c\n"
			   "FN:10,selinux_quotactl\n"
			   "FN:20,selinux_uring_allowed\n"
			   "FN:30,selinux_file_open\n"
			   "FN:40,sctp_helper\n"
			   "FNDA:0,selinux_quotactl\n"
			   "FNDA:0,selinux_uring_allowed\n"
			   "FNDA:7,selinux_file_open\n"
			   "FNDA:0,sctp_helper\n"
			   "FNF:4\n"
			   "FNH:1\n"
			   "DA:10,0\n"
			   "LF:1\n"
			   "LH:0\n"
			   "end_of_record\n";

static const struct hook_verdict verdicts[] = {
	{ "quotactl", "selinux_quotactl", "cannot drive", "no quotas", false },
	{ "uring_allowed", "selinux_uring_allowed",
	  "gap: called, no decision recorded", "-", true },
	{ "file_open", "selinux_file_open", "both", "-", false },
};

START_TEST(test_rows)
{
	struct uncovered_sum sum = { 0 };
	struct sbuf out = { 0 };
	struct lcov l;
	char err[128];

	ck_assert_int_eq(lcov_parse(info, strlen(info), &l, err, sizeof(err)),
			 0);
	uncovered_rows(&l.files[0], "security/selinux/hooks.c", verdicts,
		       ARRAY_SIZE(verdicts), &out, &sum);
	ck_assert_str_eq(
		out.buf,
		"security/selinux/hooks.c\tselinux_quotactl\t10\tquotactl\tcannot drive\tno quotas\n"
		"security/selinux/hooks.c\tselinux_uring_allowed\t20\turing_allowed\tgap: called, no decision recorded\t-\n"
		"security/selinux/hooks.c\tsctp_helper\t40\t-\tno hook\t-\n");
	ck_assert_uint_eq(sum.never, 3);
	ck_assert_uint_eq(sum.reasoned, 1);
	ck_assert_uint_eq(sum.gap, 1);
	ck_assert_uint_eq(sum.helper, 1);
	sbuf_free(&out);
	lcov_free(&l);
}
END_TEST

/* A file whose every function ran adds nothing. */
START_TEST(test_all_called)
{
	static const char all[] = "SF:/t/security/apparmor/ipc.c\n"
				  "FN:5,aa_may_signal\n"
				  "FNDA:3,aa_may_signal\n"
				  "FNF:1\n"
				  "FNH:1\n"
				  "end_of_record\n";
	struct uncovered_sum sum = { 0 };
	struct sbuf out = { 0 };
	struct lcov l;
	char err[128];

	ck_assert_int_eq(lcov_parse(all, strlen(all), &l, err, sizeof(err)), 0);
	uncovered_rows(&l.files[0], "security/apparmor/ipc.c", NULL, 0, &out,
		       &sum);
	ck_assert_uint_eq(out.len, 0);
	ck_assert_uint_eq(sum.never, 0);
	sbuf_free(&out);
	lcov_free(&l);
}
END_TEST

int main(void)
{
	return CHECK_RUN("uncovered", test_rows, test_all_called);
}
