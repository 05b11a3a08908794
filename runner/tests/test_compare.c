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
	compare_kernels(&a, &b, NULL, NULL, CMP_UPSTREAM_DIFFERENT, &r);
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

static void run_kernels(const char *ta, const char *tb, const char *fa,
			const char *fb, enum cmp_identity id)
{
	ck_assert_int_eq(records_parse(ta, strlen(ta), &a), 0);
	ck_assert_int_eq(records_parse(tb, strlen(tb), &b), 0);
	compare_kernels(&a, &b, fa, fb, id, &r);
}

#define TFO_Y "network_v8/tcp-fast-open=yes"
#define TFO_N "network_v8/tcp-fast-open=no"
/* features.tsv as the guest writes it: a file's lines joined by spaces. */
#define FEAT_A                             \
	"network_v8/af_mask\tunix inet \n" \
	"network_v8/tcp-fast-open\tyes \n" \
	"network_v9/af_unix\tyes \n"
#define FEAT_B                             \
	"network_v8/af_mask\tunix inet \n" \
	"network_v9/af_unix\tyes \n"

START_TEST(test_same_upstream_feature_explains_nothing)
{
	/* The patch dropped the feature and changed the decision. */
	run_kernels(REC("x", "5.0", TFO_Y, "EACCES"),
		    REC("x", "5.0", TFO_N, "allow"), FEAT_A, FEAT_B,
		    CMP_UPSTREAM_SAME);
	ck_assert_uint_eq(r.count[CMP_EXPLAINED], 0);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 1);
	ck_assert_int_eq(r.v[0].rule, CMP_RULE_NONE);
	ck_assert_int_eq(r.v[0].change, CMP_LOOSENED);
	ck_assert_ptr_nonnull(strstr(r.v[0].reason, "one upstream version"));
	ck_assert_ptr_nonnull(
		strstr(r.v[0].reason, "network_v8/tcp-fast-open"));
	/* The feature itself is a finding: one feature, one record. */
	ck_assert_uint_eq(r.n_feat, 1);
	ck_assert_str_eq(r.feat[0].path, "network_v8/tcp-fast-open");
	ck_assert_str_eq(r.feat[0].a, "yes");
	ck_assert_str_eq(r.feat[0].b, "-");
	ck_assert_uint_eq(cmp_unexplained(&r), 2);
}
END_TEST

START_TEST(test_same_upstream_feature_alone_is_unexplained)
{
	/* No decision changed, yet the advertised features did. */
	run_kernels(REC("x", "5.0", V9Y, "EACCES"),
		    REC("x", "5.0", V9Y, "EACCES"), FEAT_A, FEAT_B,
		    CMP_UPSTREAM_SAME);
	ck_assert_uint_eq(r.count[CMP_SAME], 1);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 0);
	ck_assert_uint_eq(cmp_unexplained(&r), 1);
}
END_TEST

START_TEST(test_same_upstream_same_features)
{
	run_kernels(REC("x", "5.0", V9Y, "EACCES"),
		    REC("x", "5.0", V9Y, "EACCES"), FEAT_A, FEAT_A,
		    CMP_UPSTREAM_SAME);
	ck_assert_uint_eq(r.n_feat, 0);
	ck_assert_uint_eq(cmp_unexplained(&r), 0);
}
END_TEST

START_TEST(test_unknown_identity_feature_explains_nothing)
{
	/* A saved run without an upstream version: no feature explains. */
	run_kernels(REC("x", "5.0", TFO_Y, "EACCES"),
		    REC("x", "5.0", TFO_N, "allow"), FEAT_A, FEAT_B,
		    CMP_UPSTREAM_UNKNOWN);
	ck_assert_uint_eq(r.count[CMP_EXPLAINED], 0);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 1);
	ck_assert_ptr_nonnull(strstr(r.v[0].reason, "not recorded"));
	/* Listed, but not a finding of its own. */
	ck_assert_uint_eq(r.n_feat, 1);
	ck_assert_uint_eq(cmp_unexplained(&r), 1);
}
END_TEST

START_TEST(test_identity_rule)
{
	/* Debian's binary and a source build of 7.2.13: one release. */
	ck_assert_int_eq(
		identity_rule(
			"7.2.13", "7.2.13",
			"package linux-binary-7.2.13+deb14-amd64 7.2.13-1",
			"source linux-source-7.2 7.2.13-1"),
		CMP_UPSTREAM_SAME);
	ck_assert_int_eq(identity_rule("6.12.117", "7.2.13", "package a 1",
				       "package b 2"),
			 CMP_UPSTREAM_DIFFERENT);
	/* One source (a patch bumping SUBLEVEL is still its base). */
	ck_assert_int_eq(
		identity_rule("7.2.13", "7.2.14", "tree /k", "tree /k"),
		CMP_UPSTREAM_SAME);
	ck_assert_int_eq(identity_rule(NULL, "7.2.13", "a", "b"),
			 CMP_UPSTREAM_UNKNOWN);
	ck_assert_int_eq(identity_rule("-", "7.2.13", "a", "b"),
			 CMP_UPSTREAM_UNKNOWN);
	/* Unknown sources are never one source. */
	ck_assert_int_eq(identity_rule(NULL, NULL, "-", "-"),
			 CMP_UPSTREAM_UNKNOWN);
}
END_TEST

START_TEST(test_identity_upstream)
{
	char v[32];

	/* Debian 6.1's ABI name hides its upstream version. */
	ck_assert_int_eq(
		identity_upstream(
			"Linux version 6.1.0-50-amd64 (debian-kernel@lists.debian.org) (gcc-12 (Debian 12.2.0-14+deb12u1) 12.2.0, GNU ld (GNU Binutils for Debian) 2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.176-1 (2026-11-10)\n",
			v, sizeof(v)),
		0);
	ck_assert_str_eq(v, "6.1.176");
	ck_assert_int_eq(
		identity_upstream(
			"Linux version 7.2.13+deb14-amd64 (x) #1 SMP Debian 7.2.13-1 (2026-11-20)",
			v, sizeof(v)),
		0);
	ck_assert_str_eq(v, "7.2.13");
	/* A source build: its release. */
	ck_assert_int_eq(
		identity_upstream(
			"Linux version 7.2.13-lsmconf-0123abcd (root@h) #1", v,
			sizeof(v)),
		0);
	ck_assert_str_eq(v, "7.2.13");
	ck_assert_int_eq(
		identity_upstream("Linux version 6.8 (x)", v, sizeof(v)), 0);
	ck_assert_str_eq(v, "6.8.0");
	ck_assert_int_eq(identity_upstream("garbage", v, sizeof(v)), -1);
	ck_assert_int_eq(identity_upstream(NULL, v, sizeof(v)), -1);
	ck_assert_int_eq(identity_upstream("Linux version x.y", v, sizeof(v)),
			 -1);
	ck_assert_int_eq(identity_upstream_of_version("6.12.117-1~bpo12+1", v,
						      sizeof(v)),
			 0);
	ck_assert_str_eq(v, "6.12.117");
}
END_TEST

START_TEST(test_different_upstream_feature_is_evidence)
{
	/* Different releases: the feature still explains, and is listed. */
	run_kernels(REC("x", "5.0", TFO_Y, "EACCES"),
		    REC("x", "5.0", TFO_N, "allow"), FEAT_A, FEAT_B,
		    CMP_UPSTREAM_DIFFERENT);
	ck_assert_uint_eq(r.count[CMP_EXPLAINED], 1);
	ck_assert_int_eq(r.v[0].rule, CMP_RULE_FEATURE);
	ck_assert_int_eq(r.v[0].change, CMP_LOOSENED);
	ck_assert_uint_eq(r.changes[CMP_EXPLAINED][CMP_LOOSENED], 1);
	ck_assert_uint_eq(r.n_feat, 1);
	ck_assert_uint_eq(cmp_unexplained(&r), 0);
}
END_TEST

START_TEST(test_feature_diff)
{
	/* Unsorted input, values that change, features on one side only,
	 * trailing spaces and a line without a value. */
	run_kernels("", "", "z\tyes \nb/c\tunix inet \na\tyes\nonly_a\n",
		    "a\tyes\nb/c\tunix \nz\tyes\nonly_b\tno \n",
		    CMP_UPSTREAM_DIFFERENT);
	ck_assert_uint_eq(r.n_feat, 3);
	ck_assert_str_eq(r.feat[0].path, "b/c");
	ck_assert_str_eq(r.feat[0].a, "unix inet");
	ck_assert_str_eq(r.feat[0].b, "unix");
	ck_assert_str_eq(r.feat[1].path, "only_a");
	ck_assert_str_eq(r.feat[1].a, "");
	ck_assert_str_eq(r.feat[1].b, "-");
	ck_assert_str_eq(r.feat[2].path, "only_b");
	ck_assert_str_eq(r.feat[2].a, "-");
	ck_assert_str_eq(r.feat[2].b, "no");
}
END_TEST

START_TEST(test_feature_prefix_paths)
{
	/* "a" and "a/b" are different features, whatever order they come in. */
	run_kernels("", "", "a/b\tyes\na\tyes\n", "a\tyes\na/b\tyes\n",
		    CMP_UPSTREAM_SAME);
	ck_assert_uint_eq(r.n_feat, 0);
}
END_TEST

START_TEST(test_features_missing_on_one_side)
{
	/* A kernel that left no features.tsv has none of the other's. */
	run_kernels("", "", NULL, "a\tyes\n", CMP_UPSTREAM_SAME);
	ck_assert_uint_eq(r.n_feat, 1);
	ck_assert_str_eq(r.feat[0].a, "-");
	ck_assert_uint_eq(cmp_unexplained(&r), 1);
	compare_free(&r);
	run_kernels("", "", NULL, NULL, CMP_UPSTREAM_SAME);
	ck_assert_uint_eq(r.n_feat, 0);
}
END_TEST

START_TEST(test_changes)
{
	/* Each direction apart, counted per class. */
	run(REC("l", "3.0", "-", "EACCES") REC("t", "3.0", "-", "allow")
		    REC("e", "3.0", "-", "EACCES") REC("n", "3.0", "-", "allow")
			    REC("o", "3.0", "-", "allow"),
	    REC("l", "3.0", "-", "allow") REC("t", "3.0", "-", "EPERM")
		    REC("e", "3.0", "-", "EPERM")
			    REC("n", "3.0", "-", "not-run")
				    REC("p", "3.0", "-", "allow"));
	ck_assert_uint_eq(r.n, 6);
	ck_assert_int_eq(r.v[0].change, CMP_ERRNO_CHANGED); /* e */
	ck_assert_int_eq(r.v[1].change, CMP_LOOSENED); /* l */
	ck_assert_int_eq(r.v[2].change, CMP_OTHER); /* n: not run */
	ck_assert_int_eq(r.v[3].change, CMP_OTHER); /* o: first only */
	ck_assert_int_eq(r.v[4].change, CMP_OTHER); /* p: second only */
	ck_assert_int_eq(r.v[5].change, CMP_TIGHTENED); /* t */
	ck_assert_uint_eq(r.changes[CMP_UNEXPLAINED][CMP_LOOSENED], 1);
	ck_assert_uint_eq(r.changes[CMP_UNEXPLAINED][CMP_TIGHTENED], 1);
	ck_assert_uint_eq(r.changes[CMP_UNEXPLAINED][CMP_ERRNO_CHANGED], 1);
	ck_assert_uint_eq(r.changes[CMP_UNEXPLAINED][CMP_OTHER], 3);
	ck_assert_str_eq(cmp_change_name(CMP_LOOSENED), "loosened");
	ck_assert_str_eq(cmp_rule_name(CMP_RULE_FEATURE), "feature");
}
END_TEST

START_TEST(test_known_bug_rule)
{
	/* A known bug explains on the same source too: it names its rule. */
	ck_assert_int_eq(records_parse(REC("x", "3.0", "-", "EACCES"),
				       strlen(REC("x", "3.0", "-", "EACCES")),
				       &a),
			 0);
	ck_assert_int_eq(records_parse(REC("x", "3.0", "-", "allow"),
				       strlen(REC("x", "3.0", "-", "allow")),
				       &b),
			 0);
	ck_assert_uint_eq(records_mark_known(&b, "x\tsome-bug\n"), 0);
	compare_kernels(&a, &b, NULL, NULL, CMP_UPSTREAM_SAME, &r);
	ck_assert_uint_eq(r.count[CMP_EXPLAINED], 1);
	ck_assert_int_eq(r.v[0].rule, CMP_RULE_KNOWN_BUG);
	ck_assert_uint_eq(r.changes[CMP_EXPLAINED][CMP_LOOSENED], 1);
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
	tcase_add_test(tc, test_same_upstream_feature_explains_nothing);
	tcase_add_test(tc, test_same_upstream_feature_alone_is_unexplained);
	tcase_add_test(tc, test_same_upstream_same_features);
	tcase_add_test(tc, test_unknown_identity_feature_explains_nothing);
	tcase_add_test(tc, test_identity_rule);
	tcase_add_test(tc, test_identity_upstream);
	tcase_add_test(tc, test_different_upstream_feature_is_evidence);
	tcase_add_test(tc, test_feature_diff);
	tcase_add_test(tc, test_feature_prefix_paths);
	tcase_add_test(tc, test_features_missing_on_one_side);
	tcase_add_test(tc, test_changes);
	tcase_add_test(tc, test_known_bug_rule);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
