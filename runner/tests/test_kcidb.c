// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <regex.h>
#include <stdlib.h>
#include <string.h>

#include "results/kcidb.h"
#include "results/known.h"
#include "results/records.h"

/*
 * A boot's ktap.txt as the runner writes it: a_test was resumed after a
 * crash (its own KTAP, a crash line, one case started and never
 * reported), b_test ran under kselftest's runner, c_test said nothing,
 * d_test lost cases without a RUN line, e_test passed every case but the
 * runner found a problem.
 */
#define KTAP                                                       \
	"TAP version 13\n1..5\n"                                   \
	"# selftests: apparmor: a_test\n"                          \
	"# TAP version 13\n# 1..5\n"                               \
	"# ok 1 g.pass_case\n"                                     \
	"# not ok 2 g.fail_case\n"                                 \
	"# ok 3 g.skip_case # SKIP no such feature\n"              \
	"# #  RUN           g.dies ...\n"                          \
	"# not ok 0 g.crash # brought the kernel down in boot 2\n" \
	"not ok 1 selftests: apparmor: a_test # 1 case lost\n"     \
	"# selftests: apparmor: b_test\n"                          \
	"# TAP version 13\n# 1..1\n# # timeout set to 45\n"        \
	"# # selftests: apparmor: b_test\n"                        \
	"# # TAP version 13\n# # 1..1\n# # ok 1 h.one\n"           \
	"# ok 1 selftests: apparmor: b_test\n"                     \
	"ok 2 selftests: apparmor: b_test\n"                       \
	"# selftests: apparmor: c_test\n"                          \
	"not ok 3 selftests: apparmor: c_test # never finished\n"  \
	"# selftests: apparmor: d_test\n"                          \
	"# TAP version 13\n# 1..3\n# ok 1 i.first\n"               \
	"not ok 4 selftests: apparmor: d_test\n"                   \
	"# selftests: apparmor: e_test\n"                          \
	"# TAP version 13\n# 1..1\n# ok 1 j.only\n"                \
	"not ok 5 selftests: apparmor: e_test # exit status 1, every case passed\n"

#define KTXT                                                            \
	"spec\tdebian:sid\npackage\tlinux-binary-7.2\nversion\t7.2-1\n" \
	"release\t7.2-amd64\nsource\tpackage linux-binary-7.2 7.2-1\n"  \
	"image_sha256\tabc\nconfig_sha256\t-\nsuite\tapparmor\n"        \
	"verdict\tFAIL\n"

#define RECS                                                                     \
	"id\tabi\tsubject\tobject\tclass\tdetail\top\tdepends\texpected\t"       \
	"observed\n"                                                             \
	"a_test/g.fail_case/send\t5.0\tt\tu\tdgram\t-\tsend\t-\tEACCES\tallow\n" \
	"a_test/g.pass_case/send\t5.0\tt\tu\tdgram\t-\tsend\t-\tEACCES\tEACCES\n"

#define KNOWN                                                         \
	"bug: listed-bug\nkernels: 7.2-amd64\n"                       \
	"cases: a_test/g.crash\ndecisions: -\nobserved: oops\n"       \
	"fatal: BUG: kernel NULL pointer dereference\ntrace: f_one\n" \
	"function: f_one()\nevidence: it oopses\nreproduce: run it\n" \
	"report: https://lore.kernel.org/r/listed@example\n"

static const struct kcidb_case *find_case(const struct kcidb_prog *p,
					  const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->cases[i].name, name))
			return &p->cases[i];
	return NULL;
}

START_TEST(test_progs)
{
	struct kcidb_prog *p;
	struct err e;
	size_t n;

	ck_assert_int_eq(kcidb_progs(KTAP, strlen(KTAP), &p, &n, &e), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(p[0].name, "a_test");
	ck_assert_int_eq(p[0].status, KCIDB_FAIL);
	ck_assert_str_eq(p[0].problem, "1 case lost");
	ck_assert_uint_eq(p[0].n, 5);
	ck_assert_int_eq(find_case(&p[0], "g.pass_case")->status, KCIDB_PASS);
	ck_assert_int_eq(find_case(&p[0], "g.fail_case")->status, KCIDB_FAIL);
	ck_assert_int_eq(find_case(&p[0], "g.skip_case")->status, KCIDB_SKIP);
	ck_assert_str_eq(find_case(&p[0], "g.skip_case")->reason,
			 "no such feature");
	/* The case that brought the kernel down fails, with its boot. */
	ck_assert_int_eq(find_case(&p[0], "g.crash")->status, KCIDB_FAIL);
	ck_assert_int_eq(find_case(&p[0], "g.crash")->crash_boot, 2);
	/* Lost: planned, never reported, named from the harness's RUN line. */
	ck_assert_int_eq(find_case(&p[0], "g.dies")->status, KCIDB_MISS);
	/* Under kselftest's runner: the program's own KTAP inside. */
	ck_assert_int_eq(p[1].status, KCIDB_PASS);
	ck_assert_uint_eq(p[1].n, 1);
	ck_assert_str_eq(p[1].cases[0].name, "h.one");
	/* A program that said nothing lost its one case. */
	ck_assert_int_eq(p[2].status, KCIDB_MISS);
	ck_assert_uint_eq(p[2].n, 0);
	/* Lost cases without a RUN line are named by their KTAP number. */
	ck_assert_int_eq(p[3].status, KCIDB_MISS);
	ck_assert_uint_eq(p[3].n, 3);
	ck_assert_str_eq(p[3].cases[1].name, "lost_2");
	ck_assert_str_eq(p[3].cases[2].name, "lost_3");
	ck_assert_int_eq(p[3].cases[2].status, KCIDB_MISS);
	/* Every case passed, the runner saw a problem: the program errs. */
	ck_assert_int_eq(p[4].status, KCIDB_ERROR);
	ck_assert_int_eq(p[4].cases[0].status, KCIDB_PASS);
	kcidb_progs_free(p, n);
}
END_TEST

START_TEST(test_cut)
{
	struct kcidb_prog *p;
	struct err e;
	size_t n;
	const char *cut = "TAP version 13\n1..2\n# selftests: apparmor: a\n"
			  "ok 1 selftests: apparmor: a\n";
	const char *mid = "TAP version 13\n1..1\n# selftests: apparmor: a\n"
			  "# TAP version 13\n# 1..3\n# ok 1 x\n";

	ck_assert_int_eq(kcidb_progs(cut, strlen(cut), &p, &n, &e), -1);
	ck_assert_str_eq(e.msg,
			 "ktap.txt is cut short: 1 of its 2 programs reported");
	ck_assert_int_eq(kcidb_progs(mid, strlen(mid), &p, &n, &e), -1);
	ck_assert_str_eq(e.msg, "ktap.txt: a has no result line (cut short)");
	ck_assert_int_eq(kcidb_progs("junk\n", 5, &p, &n, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "no plan line"));
}
END_TEST

/* What make fuzz found (runner/fuzz/corpus/kcidb/big_plan, cut_result). */
START_TEST(test_fuzz_found)
{
	const char *big = "TAP version 13\n1..1\n# selftests: a: x_test\n"
			  "# TAP version 13\n# 1..22222\n# ok 1 a.b\n"
			  "not ok 1 selftests: a: x_test\n";
	const char *huge = "TAP version 13\n1..1\n# selftests: a: x_test\n"
			   "# TAP version 13\n# 1..2222222\n"
			   "not ok 1 selftests: a: x_test\n";
	/* Read only up to its length: "not ok" cut to "no". */
	const char *cut =
		"TAP version 13\n1..1\n# selftests: a: x_test\nnot ok";
	struct kcidb_prog *p;
	struct err e;
	size_t n;

	/* A plan of many lost cases: each one MISS, in linear time. */
	ck_assert_int_eq(kcidb_progs(big, strlen(big), &p, &n, &e), 0);
	ck_assert_uint_eq(p[0].n, 22222);
	ck_assert_str_eq(p[0].cases[22221].name, "lost_22222");
	kcidb_progs_free(p, n);
	/* More than any test plans: corrupt, not two million lost cases. */
	ck_assert_int_eq(kcidb_progs(huge, strlen(huge), &p, &n, &e), -1);
	ck_assert_str_eq(
		e.msg,
		"ktap.txt: x_test plans 2222222 cases, more than any test has (corrupt)");
	ck_assert_int_eq(kcidb_progs(cut, strlen(cut) - 4, &p, &n, &e), -1);
	ck_assert_str_eq(e.msg,
			 "ktap.txt: x_test has no result line (cut short)");
}
END_TEST

START_TEST(test_path)
{
	static const char *const names[] = {
		"unix_peer.abi_5_0__dgram.decisions", "a/b:c d..e.", ".x",
		"ops.kill_ipc/kill/ptrace",	      "ünïcode",     "",
	};
	regex_t re;
	size_t i;
	char *p;

	ck_assert_int_eq(regcomp(&re, "^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$",
				 REG_EXTENDED | REG_NOSUB),
			 0);
	p = kcidb_path("kselftest.apparmor", names[0]);
	ck_assert_str_eq(
		p, "kselftest.apparmor.unix_peer.abi_5_0__dgram.decisions");
	free(p);
	p = kcidb_path("lsm", names[1]);
	ck_assert_str_eq(p, "lsm.a.b.c_d.e");
	free(p);
	p = kcidb_path("", names[2]);
	ck_assert_str_eq(p, "x");
	free(p);
	/* Whatever the name, the schema's path pattern holds. */
	for (i = 0; i < sizeof(names) / sizeof(*names); i++) {
		p = kcidb_path("kselftest.selinux", names[i]);
		ck_assert_msg(!regexec(&re, p, 0, NULL, 0), "%s -> %s",
			      names[i], p);
		free(p);
	}
	regfree(&re);
}
END_TEST

START_TEST(test_origin)
{
	struct kcidb k;
	struct err e;

	ck_assert(kcidb_origin_ok("lsmconf"));
	ck_assert(kcidb_origin_ok("ci_2"));
	ck_assert(!kcidb_origin_ok(""));
	ck_assert(!kcidb_origin_ok("LSM"));
	ck_assert(!kcidb_origin_ok("a-b"));
	ck_assert(!kcidb_origin_ok("a:b"));
	ck_assert_int_eq(kcidb_init(&k, "Bad", NULL, &e), -1);
	ck_assert_str_eq(e.msg,
			 "origin 'Bad' is not a KCIDB origin ([a-z0-9_]+)");
}
END_TEST

START_TEST(test_patchset_hash)
{
	char *sums[] = { "aa", "bb" }, hex[65], want[65];

	kcidb_patchset_hash(sums, 2, hex);
	sha256_buf("aa\nbb\n", 6, want);
	ck_assert_str_eq(hex, want);
}
END_TEST

/* One document of the fixture boot, named @dir, as text. */
static char *doc_of(const char *origin, const char *run, const char *dir,
		    struct kcidb *out)
{
	/* The console gives any byte; KCIDB wants UTF-8. */
	char *crashes[] = { "boot 1 ended in test a_test, case g.other\nx\n",
			    "boot 2 ended in test a_test, case g.crash\n"
			    "\xff BUG: oops\n" };
	struct record_set recs;
	struct known_list l;
	struct kcidb k;
	struct err e;
	json_t *doc;
	char *text;
	struct kcidb_boot b = {
		.dir_name = dir,
		.kernel_txt = KTXT,
		.ktap = KTAP,
		.ktap_len = strlen(KTAP),
		.recs = &recs,
		.known_crashes = "a_test/g.crash\tlisted-bug\tboot 2\n",
		.patchset_hash = "",
		.crashes = crashes,
		.n_crashes = 2,
	};

	ck_assert_int_eq(records_parse(RECS, strlen(RECS), &recs), 0);
	records_sort(&recs);
	ck_assert_uint_eq(
		records_mark_known(&recs,
				   "a_test/g.fail_case/send\tunlisted-bug\n"),
		0);
	ck_assert_int_eq(known_parse(KNOWN, strlen(KNOWN), &l, &e), 0);
	ck_assert_int_eq(kcidb_init(&k, origin, run, &e), 0);
	ck_assert_int_eq(kcidb_add_boot(&k, &b, &e), 0);
	kcidb_add_issues(&k, &l);
	doc = kcidb_doc(&k);
	text = json_dumps(doc, JSON_SORT_KEYS);
	json_decref(doc);
	records_free(&recs);
	known_free(&l);
	if (out)
		*out = k;
	else
		kcidb_free(&k);
	return text;
}

static json_t *test_at(const struct kcidb *k, const char *path)
{
	size_t i;
	json_t *t;

	json_array_foreach(
		k->tests, i,
		t) if (!strcmp(json_string_value(json_object_get(t, "path")),
			       path)) return t;
	return NULL;
}

#define SVAL(o, key) json_string_value(json_object_get((o), (key)))

START_TEST(test_ids_stable)
{
	char *a = doc_of("lsmconf", NULL, "debian-sid-apparmor", NULL);
	char *b = doc_of("lsmconf", NULL, "debian-sid-apparmor", NULL);
	struct kcidb k1, k2;
	char *c = doc_of("lsmconf", NULL, "debian-sid-apparmor", &k1);
	char *d = doc_of("other_ci", NULL, "kernel-2-apparmor", &k2);
	char *e = doc_of("lsmconf", "pipeline-7", "debian-sid-apparmor", NULL);
	json_t *t1 = test_at(&k1, "kselftest.apparmor.a_test.g.pass_case");
	json_t *t2 = test_at(&k2, "kselftest.apparmor.a_test.g.pass_case");

	/* Another run of the same kernel, boot and case: another test. */
	ck_assert_str_ne(a, e);
	/* The same results give the same document, ids and all. */
	ck_assert_str_eq(a, b);
	ck_assert_str_eq(a, c);
	ck_assert_ptr_nonnull(t1);
	ck_assert_ptr_nonnull(t2);
	ck_assert_ptr_eq(strstr(SVAL(t1, "id"), "lsmconf:test-"),
			 SVAL(t1, "id"));
	ck_assert_ptr_eq(strstr(SVAL(t2, "id"), "other_ci:test-"),
			 SVAL(t2, "id"));
	/* Another boot of the kernel: another test, the same kernel. */
	ck_assert_str_ne(SVAL(t1, "id") + 8, SVAL(t2, "id") + 9);
	ck_assert_str_eq(SVAL(t1, "build_id") + 8, SVAL(t2, "build_id") + 9);
	ck_assert_uint_eq(json_array_size(k1.checkouts), 1);
	ck_assert_str_eq(SVAL(json_array_get(k1.checkouts, 0), "patchset_hash"),
			 "");
	ck_assert_uint_eq(json_array_size(k1.builds), 1);
	ck_assert_str_eq(SVAL(test_at(&k1, "lsm.apparmor.boot"), "status"),
			 "FAIL");
	/* Its one decision not as expected is a known bug's. */
	ck_assert_str_eq(SVAL(test_at(&k1, "lsm.apparmor.decisions"), "status"),
			 "PASS");
	free(a);
	free(b);
	free(c);
	free(d);
	free(e);
	kcidb_free(&k1);
	kcidb_free(&k2);
}
END_TEST

START_TEST(test_statuses_and_misc)
{
	struct kcidb k;
	char *s = doc_of("lsmconf", NULL, "boot", &k);
	json_t *t, *dec;

	ck_assert_str_eq(
		SVAL(test_at(&k, "kselftest.apparmor.a_test.g.dies"), "status"),
		"MISS");
	ck_assert_str_eq(
		SVAL(test_at(&k, "kselftest.apparmor.d_test.lost_2"), "status"),
		"MISS");
	ck_assert_str_eq(
		SVAL(test_at(&k, "kselftest.apparmor.e_test"), "status"),
		"ERROR");
	ck_assert_str_eq(
		SVAL(test_at(&k, "kselftest.apparmor.a_test.g.skip_case"),
		     "status"),
		"SKIP");
	/* The decision and its errno in misc. */
	t = test_at(&k, "kselftest.apparmor.a_test.g.pass_case");
	dec = json_array_get(
		json_object_get(json_object_get(t, "misc"), "decisions"), 0);
	ck_assert_str_eq(SVAL(dec, "decision"), "deny");
	ck_assert_str_eq(SVAL(dec, "errno"), "EACCES");
	ck_assert_str_eq(SVAL(dec, "op"), "send");
	t = test_at(&k, "kselftest.apparmor.a_test.g.fail_case");
	dec = json_array_get(
		json_object_get(json_object_get(t, "misc"), "decisions"), 0);
	ck_assert_str_eq(SVAL(dec, "decision"), "allow");
	ck_assert_ptr_null(json_object_get(dec, "errno"));
	free(s);
	kcidb_free(&k);
}
END_TEST

/* The incident of @test (its path) for issue @issue, or NULL. */
static json_t *incident(const struct kcidb *k, const char *path,
			const char *issue)
{
	json_t *t = test_at(k, path), *o;
	size_t i;

	json_array_foreach(k->incidents, i,
			   o) if (!strcmp(SVAL(o, "test_id"), SVAL(t, "id")) &&
				  !strcmp(SVAL(o, "issue_id"), issue)) return o;
	return NULL;
}

START_TEST(test_known_bugs)
{
	struct kcidb k;
	char *s = doc_of("lsmconf", NULL, "boot", &k);
	json_t *o;
	size_t i;
	bool listed = false, unlisted = false;

	/* A crash with the bug's signature, a wrong decision: incidents. */
	ck_assert_ptr_nonnull(incident(&k, "kselftest.apparmor.a_test.g.crash",
				       "lsmconf:listed-bug"));
	/* Its report is the crashed case's log excerpt, made ASCII. */
	ck_assert_str_eq(
		SVAL(test_at(&k, "kselftest.apparmor.a_test.g.crash"),
		     "log_excerpt"),
		"boot 2 ended in test a_test, case g.crash\n? BUG: oops\n");
	o = incident(&k, "kselftest.apparmor.a_test.g.fail_case",
		     "lsmconf:unlisted-bug");
	ck_assert_ptr_nonnull(o);
	ck_assert_int_eq(
		json_integer_value(json_object_get(o, "issue_version")), 1);
	ck_assert_uint_eq(json_array_size(k.incidents), 2);
	/* Both are issues: the listed one with its evidence. */
	json_array_foreach(k.issues, i, o)
	{
		if (!strcmp(SVAL(o, "id"), "lsmconf:listed-bug")) {
			listed = true;
			ck_assert_str_eq(SVAL(o, "comment"), "it oopses");
			/* Where it was reported, from its report: field. */
			ck_assert_str_eq(
				SVAL(o, "report_url"),
				"https://lore.kernel.org/r/listed@example");
		}
		if (!strcmp(SVAL(o, "id"), "lsmconf:unlisted-bug")) {
			unlisted = true;
			ck_assert_ptr_null(json_object_get(o, "report_url"));
		}
	}
	ck_assert(listed && unlisted);
	free(s);
	kcidb_free(&k);
}
END_TEST

START_TEST(test_bench_mutants_compare)
{
	struct kcidb k;
	char *s = doc_of("lsmconf", NULL, "1-A-debian-sid-apparmor", &k);
	char *roles[] = { "A" }, *dirs[] = { "1-A-debian-sid-apparmor" };
	char *names[] = { "01-x" };
	const char *sum = "point\tA\tB\tA2\tmax_cv\tdrift\tchange\tratio\t"
			  "ci_lo\tci_hi\tsignificant\n"
			  "stream:none\t2180.5\t2077\t2179\t0.1\t0.01\t-0.04\t"
			  "0.95\t0.94\t0.96\tyes\n";
	const char *mut = "mutant\tverdict\tdescription\n01-x\tsurvived\td\n";
	const char *cmp = "id\tclass\tdebian:sid\tdebian:sid\treason\tchange\t"
			  "rule\nx/y/z\tunexplained\tallow\tEACCES\t-\t-\t-\n";
	char *specs[] = { "debian:sid" };
	/* Patch 2 was never built (no spec): no test. */
	const char *ser = "patch\tsubject\tapplies\tdecisions_changed\t"
			  "cost_significant\tspec\n"
			  "2\ts\tyes\t0\t-\t-\n"
			  "3\ts\tyes\t118\tyes\tdebian:sid\n";
	struct err e;
	json_t *t, *num;

	ck_assert_int_eq(kcidb_add_bench(&k, sum, roles, dirs, 1, &e), 0);
	t = test_at(&k, "lsm.bench.stream.none");
	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(SVAL(t, "status"), "DONE");
	num = json_object_get(t, "number");
	ck_assert_double_eq_tol(json_real_value(json_object_get(num, "value")),
				2180.5e-9, 1e-15);
	ck_assert_str_eq(SVAL(num, "unit"), "s/msg");
	ck_assert_str_eq(SVAL(num, "prefix"), "metric");
	ck_assert_int_eq(kcidb_add_compare(&k, cmp, specs, dirs, 1, &e), 0);
	t = test_at(&k, "lsm.compare");
	ck_assert_str_eq(SVAL(t, "status"), "FAIL");
	ck_assert_int_eq(json_integer_value(json_object_get(
				 json_object_get(t, "misc"), "unexplained")),
			 1);
	ck_assert_int_eq(kcidb_add_compare(&k, cmp, names, dirs, 1, &e), -1);
	ck_assert_str_eq(e.msg,
			 "compare.tsv: no boot of debian:sid in the run");
	ck_assert_int_eq(kcidb_add_series(&k, ser, specs, dirs, 1, &e), 0);
	t = test_at(&k, "lsm.series");
	ck_assert_str_eq(SVAL(t, "status"), "FAIL");
	ck_assert_str_eq(SVAL(json_object_get(t, "misc"), "patch"), "3");
	ck_assert_int_eq(kcidb_add_mutants(&k, mut, names, dirs, 1, &e), 0);
	ck_assert_str_eq(SVAL(test_at(&k, "lsm.mutate.01-x"), "status"),
			 "FAIL");
	free(s);
	kcidb_free(&k);
	/* An equivalent one (its claim checked) is out of the score: SKIP. */
	s = doc_of("lsmconf", NULL, "1-A-debian-sid-apparmor", &k);
	ck_assert_int_eq(kcidb_add_mutants(&k,
					   "mutant\tverdict\tdescription\n"
					   "01-x\tequivalent\td\n",
					   names, dirs, 1, &e),
			 0);
	ck_assert_str_eq(SVAL(test_at(&k, "lsm.mutate.01-x"), "status"),
			 "SKIP");
	/* A cut file is an error, not fewer points. */
	ck_assert_int_eq(
		kcidb_add_bench(&k, "point\tA\nx\t1", roles, dirs, 1, &e), -1);
	ck_assert_int_eq(kcidb_add_mutants(&k, "mutant\tverdict\n01-x\n", names,
					   dirs, 1, &e),
			 -1);
	free(s);
	kcidb_free(&k);
}
END_TEST

/* A start_time that is not RFC 3339 is refused, not submitted. */
START_TEST(test_start_time_refused)
{
	static const char *const bad[] = { "yesterday", "2026-13-04T10:11:12Z",
					   "2026-12-04 10:11:12",
					   "2026-12-04T10:11:12" };
	struct kcidb k;
	struct err e;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char *txt = xasprintf("spec\tdebian:sid\nsuite\tapparmor\n"
				      "started\t%s\n",
				      bad[i]);
		struct kcidb_boot b = {
			.dir_name = "boot",
			.kernel_txt = txt,
			.ktap = KTAP,
			.ktap_len = strlen(KTAP),
		};

		ck_assert_int_eq(kcidb_init(&k, "lsmconf", NULL, &e), 0);
		ck_assert_int_eq(kcidb_add_boot(&k, &b, &e), -1);
		ck_assert_ptr_nonnull(
			strstr(e.msg, "not an RFC 3339 date-time"));
		ck_assert_ptr_nonnull(strstr(e.msg, bad[i]));
		kcidb_free(&k);
		free(txt);
	}
}
END_TEST

int main(void)
{
	return CHECK_RUN("kcidb", test_progs, test_cut, test_fuzz_found,
			 test_path, test_origin, test_patchset_hash,
			 test_ids_stable, test_statuses_and_misc,
			 test_known_bugs, test_bench_mutants_compare,
			 test_start_time_refused);
}
