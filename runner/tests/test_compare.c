// SPDX-License-Identifier: GPL-2.0
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare.h"

#define REC(id, abi, dep, obs)                                             \
	id "\t" abi                                                        \
	   "\tsend_deny\tunconfined\tdgram\tabstract\tsender.sendto\t" dep \
	   "\tEACCES\t" obs "\n"
#define V9Y "network_v9/af_unix=yes"
#define V9N "network_v9/af_unix=no"

static struct record_set a, b;
static struct cmp_result r;

static void run(const char *ta, const char *tb)
{
	ck_assert_int_eq(records_parse(ta, strlen(ta), &a), 0);
	ck_assert_int_eq(records_parse(tb, strlen(tb), &b), 0);
	compare_records(&a, &b, &r);
}

static void teardown(void)
{
	compare_free(&r);
	records_free(&a);
	records_free(&b);
}

START_TEST(test_same)
{
	run(REC("x", "5.0", V9Y, "EACCES") REC("y", "3.0", "-", "allow"),
	    REC("y", "3.0", "-", "allow") REC("x", "5.0", V9Y, "EACCES"));
	ck_assert_uint_eq(r.count[CMP_SAME], 2);
	ck_assert_uint_eq(r.n, 0);
}
END_TEST

START_TEST(test_explained_by_feature)
{
	run(REC("x", "5.0", V9N, "allow"), REC("x", "5.0", V9Y, "EACCES"));
	ck_assert_uint_eq(r.count[CMP_EXPLAINED], 1);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_str_eq(r.v[0].a, "allow");
	ck_assert_str_eq(r.v[0].b, "EACCES");
	ck_assert_str_eq(
		r.v[0].reason,
		"the kernels differ in network_v9/af_unix (no vs yes)");
}
END_TEST

START_TEST(test_unexplained_same_features)
{
	run(REC("x", "5.0", V9Y, "EACCES"), REC("x", "5.0", V9Y, "allow"));
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 1);
	ck_assert_ptr_nonnull(strstr(r.v[0].reason, "although"));
}
END_TEST

START_TEST(test_old_abi_must_be_same)
{
	/* An ABI both kernels support pins the decision. */
	run(REC("x", "3.0", "-", "allow"), REC("x", "3.0", "-", "EACCES"));
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 1);
	ck_assert_ptr_nonnull(strstr(r.v[0].reason, "policy ABI 3.0"));
}
END_TEST

START_TEST(test_one_sided)
{
	run(REC("a", "5.0", V9Y, "allow") REC("b", "5.0", V9Y, "allow"),
	    REC("b", "5.0", V9Y, "allow") REC("c", "5.0", V9Y, "allow"));
	ck_assert_uint_eq(r.count[CMP_SAME], 1);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 2);
	ck_assert_str_eq(r.v[0].id, "a");
	ck_assert_str_eq(r.v[0].b, "-");
	ck_assert_str_eq(r.v[1].id, "c");
	ck_assert_str_eq(r.v[1].a, "-");
}
END_TEST

START_TEST(test_different_feature_names)
{
	/* Depending on different features explains nothing. */
	run(REC("x", "5.0", "network_v8=yes", "allow"),
	    REC("x", "5.0", V9Y, "EACCES"));
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 1);
}
END_TEST

START_TEST(test_malformed_records_are_not_compared)
{
	/* A malformed line is no record: its case shows as one-sided. */
	run(REC("x", "5.0", V9Y, "allow") "y\tbroken\n",
	    REC("x", "5.0", V9Y, "allow") REC("y", "5.0", V9Y, "allow"));
	ck_assert_uint_eq(a.malformed, 1);
	ck_assert_uint_eq(r.count[CMP_SAME], 1);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 1);
	ck_assert_str_eq(r.v[0].id, "y");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_same);
	tcase_add_test(tc, test_explained_by_feature);
	tcase_add_test(tc, test_unexplained_same_features);
	tcase_add_test(tc, test_old_abi_must_be_same);
	tcase_add_test(tc, test_one_sided);
	tcase_add_test(tc, test_different_feature_names);
	tcase_add_test(tc, test_malformed_records_are_not_compared);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
