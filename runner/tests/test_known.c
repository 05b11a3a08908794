// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "results/compare.h"
#include "results/known.h"
#include "results/records.h"
#include "results/results.h"

#define ENTRY(name, kernels, cases, records)                        \
	"bug: " name "\nkernels: " kernels "\ncases: " cases        \
	"\nrecords: " records "\nobserved: EACCES\nfunction: f()\n" \
	"evidence: the model says allow\nreproduce: lsmconf run x\n"
#define REC(id, exp, obs) \
	id "\t5.0\ts\tr\tdgram\tabstract\tsender.sendto\t-\t" exp "\t" obs "\n"

static void parse(const char *text, struct known_list *l)
{
	struct err e;

	ck_assert_int_eq(known_parse(text, strlen(text), l, &e), 0);
}

static const char *parse_error(const char *text)
{
	static struct err e;
	struct known_list l;

	ck_assert_int_eq(known_parse(text, strlen(text), &l, &e), -1);
	ck_assert_uint_eq(l.n, 0);
	return e.msg;
}

START_TEST(test_parse)
{
	static const char text[] = "# comment\n\n" ENTRY(
		"a", "6.12.* 6.1.*", "t_test/f.v.case",
		"-") "\n\n" ENTRY("b", "7.2.*", "-", "x/y z/*");
	struct known_list l;

	parse(text, &l);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_str_eq(l.v[0].name, "a");
	ck_assert_str_eq(l.v[1].records, "x/y z/*");
	ck_assert(known_applies(&l.v[0], "6.1.0-41-amd64"));
	ck_assert(known_applies(&l.v[0], "6.12.117+deb13-amd64"));
	ck_assert(!known_applies(&l.v[0], "7.2.13+deb14-amd64"));
	ck_assert(!known_applies(&l.v[0], NULL));
	known_free(&l);
	parse("", &l);
	ck_assert_uint_eq(l.n, 0);
	known_free(&l);
}
END_TEST

/* @n bytes of @text placed just before an unmapped page: no NUL after them. */
static const char *guarded(const char *text, size_t n)
{
	size_t pg = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(map, MAP_FAILED);
	ck_assert_int_eq(mprotect(map + pg, pg, PROT_NONE), 0);
	memcpy(map + pg - n, text, n);
	return map + pg - n;
}

/*
 * Found by fuzz_known: a last line of blanks without '\n' was measured
 * with strspn(), past the @len bytes given. Each of these would fault.
 */
START_TEST(test_parse_unterminated)
{
	static const char entry[] = ENTRY("a", "7.*", "t/c", "-") " \t";
	struct known_list l;
	struct err e;

	ck_assert_int_eq(known_parse(guarded("\t", 1), 1, &l, &e), 0);
	ck_assert_uint_eq(l.n, 0);
	ck_assert_int_eq(known_parse(guarded(entry, strlen(entry)),
				     strlen(entry), &l, &e),
			 0);
	ck_assert_uint_eq(l.n, 1);
	ck_assert_str_eq(l.v[0].reproduce, "lsmconf run x");
	known_free(&l);
}
END_TEST

/*
 * Found by fuzz_known (a leak): a stanza of documentation keys only was
 * skipped, and its keys were left over for the next stanza.
 */
START_TEST(test_parse_docs_only)
{
	ck_assert_str_eq(parse_error("# c\nreproduce: r\n\n" ENTRY("a", "7.*",
								   "t/c", "-")),
			 "known bugs: the entry at line 2 has no bug:");
	ck_assert_str_eq(
		parse_error("evidence: e\n" ENTRY("a", "7.*", "t/c", "-")),
		"known bugs: line 8: evidence given twice");
}
END_TEST

START_TEST(test_parse_errors)
{
	ck_assert_ptr_nonnull(strstr(parse_error("bug: x\nkernels: 7.*\n"),
				     "line 1 has no cases:"));
	ck_assert_ptr_nonnull(
		strstr(parse_error("bug: x\nnonsense here\n"), "line 2: not"));
	ck_assert_ptr_nonnull(
		strstr(parse_error("bug: x\nbug: y\n"), "bug given twice"));
	ck_assert_ptr_nonnull(
		strstr(parse_error(ENTRY("n", "7.*", "-", "-")),
		       "n (line 1) lists neither cases nor records"));
}
END_TEST

START_TEST(test_records_and_cases)
{
	static const char recs[] = REC("x/y", "allow", "EACCES")
		REC("x/z", "allow", "EACCES") REC("z/1", "allow", "EPERM");
	struct known_list l;
	struct record_set set;

	parse(ENTRY("b", "7.2.*", "t_test/f.*", "x/y z/1"), &l);
	ck_assert_int_eq(records_parse(recs, strlen(recs), &set), 0);
	/* Listed, with the listed outcome: the bug. */
	ck_assert_ptr_eq(known_record(&l, "7.2.13", &set.v[0]), &l.v[0]);
	/* Not listed: an ordinary failure. */
	ck_assert_ptr_null(known_record(&l, "7.2.13", &set.v[1]));
	/* Another kernel: not the bug. */
	ck_assert_ptr_null(known_record(&l, "6.12.1", &set.v[0]));
	ck_assert_uint_eq(l.v[0].wrong_records, 1);
	ck_assert_ptr_null(known_unreproduced(&l, "7.2.13"));
	/* Listed but wrong in another way: the behaviour changed. */
	ck_assert_ptr_null(known_record(&l, "7.2.13", &set.v[2]));
	ck_assert_ptr_eq(known_unreproduced(&l, "7.2.13"), &l.v[0]);
	known_reset(&l);
	ck_assert_ptr_null(known_unreproduced(&l, "7.2.13"));
	ck_assert_ptr_eq(known_case(&l, "7.2.13", "t_test/f.v.c", true),
			 &l.v[0]);
	ck_assert_ptr_null(known_case(&l, "7.2.13", "u_test/f.v.c", true));
	ck_assert_ptr_null(known_unreproduced(&l, "7.2.13"));
	/* A listed case that passes: fixed, so the list must change. */
	ck_assert_ptr_null(known_case(&l, "7.2.13", "t_test/f.v.d", false));
	ck_assert_ptr_eq(known_unreproduced(&l, "7.2.13"), &l.v[0]);
	ck_assert_ptr_null(known_unreproduced(&l, "6.12.1"));
	records_free(&set);
	known_free(&l);
}
END_TEST

START_TEST(test_compare_explains_known)
{
	static const char a[] =
		REC("x/y", "allow", "allow") REC("x/z", "allow", "allow");
	static const char b[] =
		REC("x/y", "allow", "EACCES") REC("x/z", "allow", "EACCES");
	struct record_set ra, rb;
	struct cmp_result r;

	ck_assert_int_eq(records_parse(a, strlen(a), &ra), 0);
	ck_assert_int_eq(records_parse(b, strlen(b), &rb), 0);
	ck_assert_uint_eq(records_mark_known(&rb, "x/y\tbug-b\nnone\tc\n"), 1);
	compare_records(&ra, &rb, &r);
	ck_assert_uint_eq(r.count[CMP_EXPLAINED], 1);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 1);
	ck_assert_str_eq(r.v[0].id, "x/y");
	ck_assert_str_eq(r.v[0].reason,
			 "known kernel bug bug-b on the second kernel");
	compare_free(&r);
	records_free(&ra);
	records_free(&rb);
}
END_TEST

START_TEST(test_compare_explains_crashes)
{
	static const char a[] = REC("c/1", "allow", "allow")
		REC("c/2", "allow", "allow") REC("d/1", "allow", "allow");
	static const char b[] = REC("d/1", "allow", "allow");
	static const char list[] = "bug: down\nkernels: 7.*\ncases: t/x\n"
				   "records: c/*\nobserved: oops\nfunction: f\n"
				   "evidence: e\nreproduce: r\n";
	struct record_set ra, rb;
	struct known_list l;
	struct cmp_result r;

	parse(list, &l);
	ck_assert_int_eq(records_parse(a, strlen(a), &ra), 0);
	ck_assert_int_eq(records_parse(b, strlen(b), &rb), 0);
	compare_records(&ra, &rb, &r);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 2);
	/* The first kernel has the bug: nothing to explain that way round. */
	compare_explain_crashes(&r, &l, "7.2.13", "6.12.1");
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 2);
	/* The second does: its missing decisions are the crash's. */
	compare_explain_crashes(&r, &l, "6.12.1", "7.2.13");
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 0);
	ck_assert_uint_eq(r.count[CMP_EXPLAINED], 2);
	ck_assert_str_eq(
		r.v[0].reason,
		"known kernel bug down brought the second kernel down in this case");
	compare_free(&r);
	records_free(&ra);
	records_free(&rb);
	known_free(&l);
}
END_TEST

START_TEST(test_account_known_failures)
{
	static const char ktap[] = "TAP version 13\n1..2\nok 1 a\nnot ok 2 b\n"
				   "# Totals: pass:1 fail:1 xfail:0 xpass:0 "
				   "skip:0 error:0\n";
	struct test_account t = { .name = "t_test", .rc = 1 };

	ck_assert_int_eq(ktap_parse(ktap, strlen(ktap), &t.doc), 0);
	t.have_ktap = true;
	t.known = 1;
	account_test(&t);
	/* The failed case is the known bug's; the exit status agrees. */
	ck_assert_uint_eq(t.fail, 0);
	ck_assert_uint_eq(t.pass, 1);
	ck_assert_str_eq(t.problem, "");
	ck_assert(account_ok(&t));
	t.known = 0;
	account_test(&t);
	ck_assert(!account_ok(&t));
	ktap_free(&t.doc);
}
END_TEST

int main(void)
{
	return CHECK_RUN("known", test_parse, test_parse_unterminated,
			 test_parse_docs_only, test_parse_errors,
			 test_records_and_cases, test_compare_explains_known,
			 test_compare_explains_crashes,
			 test_account_known_failures);
}
