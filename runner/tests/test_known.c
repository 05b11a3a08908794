// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "results/compare.h"
#include "results/known.h"
#include "results/records.h"
#include "results/results.h"

/* A wrong decision: its cases and the exact decisions that show it. */
#define ENTRY_D(name, kernels, cases, decisions)                             \
	"bug: " name "\nkernels: " kernels "\ncases: " cases                 \
	"\ndecisions: " decisions "\nobserved: EACCES\nfatal: -\ntrace: -\n" \
	"function: f()\n"                                                    \
	"evidence: the model says allow\nreproduce: lsmconf run x\nreport: -\n"
#define ENTRY(name, kernels, cases) ENTRY_D(name, kernels, cases, cases "/op")
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

#define OOPS_F(kernels, cases, fatal, trace)                              \
	"bug: down\nkernels: " kernels "\ncases: " cases                  \
	"\ndecisions: -\nobserved: oops\nfatal: " fatal "\ntrace: " trace \
	"\nfunction: f\nevidence: e\nreproduce: r\nreport: -\n"
#define OOPS(kernels, cases, trace) \
	OOPS_F(kernels, cases, "BUG: kernel NULL pointer dereference", trace)

START_TEST(test_parse)
{
	static const char text[] = "# comment\n\n" ENTRY(
		"a", "6.12.117+deb13-amd64 6.1.0-41-amd64",
		"t_test/f.v.case") "\n\n" ENTRY_D("b",
						  "build:linux-source-7.2_7.2.13-1",
						  "x_test/y z_test/w",
						  "z_test/w/op x_test/y/a/b");
	struct known_list l;

	parse(text, &l);
	ck_assert_uint_eq(l.n, 2);
	ck_assert_str_eq(l.v[0].name, "a");
	ck_assert_str_eq(l.v[1].cases, "x_test/y z_test/w");
	ck_assert_str_eq(l.v[1].decisions, "z_test/w/op x_test/y/a/b");
	ck_assert(known_applies(&l.v[0], "6.1.0-41-amd64"));
	ck_assert(known_applies(&l.v[0], "6.12.117+deb13-amd64"));
	/* Exact names only: another build of 6.12 is another kernel. */
	ck_assert(!known_applies(&l.v[0], "6.12.117+deb13-cloud-amd64"));
	ck_assert(!known_applies(&l.v[0], "7.2.13+deb14-amd64"));
	ck_assert(!known_applies(&l.v[0], NULL));
	/* A build: kernel is known by its release and its source. */
	ck_assert(known_applies(
		&l.v[1],
		"7.2.13-lsmconf-0123abcd build:linux-source-7.2_7.2.13-1"));
	/* A patched build (a mutant) has a name of its own. */
	ck_assert(!known_applies(
		&l.v[1],
		"7.2.13-lsmconf-4567abcd build:linux-source-7.2_7.2.13-1+0123456789ab"));
	ck_assert(!known_applies(&l.v[1], "7.2.13-lsmconf-0123abcd"));
	known_free(&l);
	parse("", &l);
	ck_assert_uint_eq(l.n, 0);
	known_free(&l);
	parse(OOPS("7.2.13", "t/x", "a_fn b_fn"), &l);
	ck_assert_str_eq(l.v[0].trace, "a_fn b_fn");
	ck_assert_str_eq(l.v[0].fatal, "BUG: kernel NULL pointer dereference");
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
	static const char entry[] = ENTRY("a", "7.2.13", "t/c") " \t";
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
	ck_assert_str_eq(parse_error("# c\nreproduce: r\nreport: -\n\n" ENTRY(
				 "a", "7.2.13", "t/c")),
			 "known bugs: the entry at line 2 has no bug:");
	/* report: a URL, or - until it is reported. */
	ck_assert_str_eq(
		parse_error("bug: r\nkernels: 7.2.13\ncases: t/c\n"
			    "decisions: -\nobserved: oops\nfatal: BUG\n"
			    "trace: f\nfunction: f\nevidence: e\nreproduce: r\n"
			    "report: sent to the list\n"),
		"known bugs: r (line 1): report: is the URL where the bug was reported (https://...), or - until it is");
	{
		static const char sent[] =
			OOPS_F("7.2.13", "t/c", "BUG", "f") "\n";
		struct known_list l;
		struct err e;
		char *text = xstrdup(sent);

		memcpy(strstr(text, "report: -"), "report: X", 9);
		ck_assert_int_eq(known_parse(text, strlen(text), &l, &e), -1);
		free(text);
		text = xasprintf("%.*sreport: https://lore.kernel.org/r/1@x\n",
				 (int)(strstr(sent, "report: -") - sent), sent);
		ck_assert_int_eq(known_parse(text, strlen(text), &l, &e), 0);
		ck_assert_str_eq(l.v[0].report,
				 "https://lore.kernel.org/r/1@x");
		known_free(&l);
		free(text);
	}
	ck_assert_str_eq(
		parse_error("evidence: e\n" ENTRY("a", "7.2.13", "t/c")),
		"known bugs: line 10: evidence given twice");
}
END_TEST

START_TEST(test_parse_errors)
{
	ck_assert_ptr_nonnull(strstr(parse_error("bug: x\nkernels: 7.2\n"),
				     "line 1 has no cases:"));
	ck_assert_ptr_nonnull(
		strstr(parse_error("bug: x\nnonsense here\n"), "line 2: not"));
	ck_assert_ptr_nonnull(
		strstr(parse_error("bug: x\nbug: y\n"), "bug given twice"));
	ck_assert_ptr_nonnull(strstr(parse_error(ENTRY("n", "7.2", "-")),
				     "n (line 1) lists no cases"));
	/* Globs on kernels covered build: kernels and mutants. */
	ck_assert_ptr_nonnull(strstr(parse_error(ENTRY("n", "7.2.*", "t/x")),
				     "kernel \"7.2.*\" is a glob"));
	ck_assert_ptr_nonnull(strstr(parse_error(ENTRY("n", "-", "t/x")),
				     "n (line 1) names no kernel"));
	/* Every wildcard is refused, a whole binary too: exact names. */
	ck_assert_ptr_nonnull(
		strstr(parse_error(ENTRY_D("n", "7.2", "*", "t/x/o")),
		       "case \"*\" is not an exact"));
	ck_assert_ptr_nonnull(
		strstr(parse_error(ENTRY_D("n", "7.2", "t/x */z", "t/x/o")),
		       "case \"*/z\" is not an exact"));
	ck_assert_ptr_nonnull(
		strstr(parse_error(ENTRY_D("n", "7.2", "exec_test/*", "t/x/o")),
		       "case \"exec_test/*\" is not an exact"));
	ck_assert_ptr_nonnull(
		strstr(parse_error(ENTRY_D("n", "7.2", "exec_test", "t/x/o")),
		       "case \"exec_test\" is not an exact"));
	ck_assert_ptr_nonnull(
		strstr(parse_error(ENTRY_D("n", "7.2", "t/x", "t/x/a t/x/*")),
		       "decision \"t/x/*\" is not an exact"));
	/* A decision names its case's record, and only a listed case's. */
	ck_assert_ptr_nonnull(
		strstr(parse_error(ENTRY_D("n", "7.2", "t/x", "t/x")),
		       "decision \"t/x\" is not an exact"));
	ck_assert_ptr_nonnull(strstr(
		parse_error(ENTRY_D("n", "7.2", "t/x", "t/xy/op")),
		"decision \"t/xy/op\" is under none of the listed cases"));
	ck_assert_ptr_nonnull(
		strstr(parse_error(ENTRY_D("n", "7.2", "t/x", "-")),
		       "needs the exact record ids"));
	/* Every patched build of a source is no name any more. */
	ck_assert_ptr_nonnull(strstr(
		parse_error(ENTRY(
			"n", "build:linux-source-7.2_7.2.13-1+patched", "t/x")),
		"names every patched build"));
	/* An oops names its signature; a wrong decision an exact outcome. */
	ck_assert_ptr_nonnull(strstr(parse_error(OOPS("7.2", "t/x", "-")),
				     "an oops needs its signature"));
	ck_assert_ptr_nonnull(
		strstr(parse_error(OOPS_F("7.2", "t/x", "-", "f")),
		       "an oops needs its signature"));
	ck_assert_ptr_nonnull(strstr(parse_error(OOPS("7.2", "-", "f")),
				     "down (line 1) lists no cases"));
	/*
	 * The first format listed record ids apart: refused in one line,
	 * naming the key, not taken as an unknown key.
	 */
	ck_assert_str_eq(
		parse_error(
			"bug: n\nkernels: 7.2\ncases: t/x\nrecords: x/y/*\n"),
		"known bugs: line 4: records: is no longer read: list the cases (cases:) and the exact record ids that show a wrong decision (decisions:)");
	ck_assert_ptr_nonnull(
		strstr(parse_error(OOPS("7.2", "t/x", "f+0x1")),
		       "trace: \"f+0x1\" is not a function name"));
	ck_assert_ptr_nonnull(strstr(
		parse_error(
			"bug: n\nkernels: 7.2\ncases: t/x\n"
			"decisions: t/x/o\nobserved: E*\nfatal: -\n"
			"trace: -\nfunction: f\nevidence: e\nreproduce: r\nreport: -\n"),
		"observed must be oops, allow or an errno name"));
	ck_assert_ptr_nonnull(strstr(
		parse_error(
			"bug: n\nkernels: 7.2\ncases: t/x\n"
			"decisions: t/x/o\nobserved: EPERM\nfatal: -\n"
			"trace: f\nfunction: f\nevidence: e\nreproduce: r\nreport: -\n"),
		"fatal: and trace: are for observed: oops only"));
	ck_assert_ptr_nonnull(
		strstr(parse_error("bug: n\nkernels: 7.2\ncases: t/x\n"
				   "decisions: t/x/o\nobserved: oops\n"
				   "fatal: BUG\ntrace: f\nfunction: f\n"
				   "evidence: e\nreproduce: r\nreport: -\n"),
		       "decisions: is for a wrong decision only"));
}
END_TEST

START_TEST(test_records_and_cases)
{
	/* Sorted by id: v[0] f.v.c/a, v[1] f.v.c/b, v[2] f.v.d, v[3] f.w.c. */
	static const char recs[] =
		REC("t_test/f.v.c/new.c.send", "allow", "EACCES")
			REC("t_test/f.w.c/new.c.send", "allow", "EACCES")
				REC("t_test/f.v.d/new.c.send", "allow", "EPERM")
					REC("t_test/f.v.c/old.c.send", "allow",
					    "allow");
	/* The same case with a second wrong decision the bug does not list. */
	static const char more[] =
		REC("t_test/f.v.c/new.c.send", "allow", "EACCES")
			REC("t_test/f.v.c/old.c.send", "allow", "EACCES");
	struct known_list l;
	struct record_set set, two, none = { 0 };
	char why[300];

	/* Exactly the decisions it lists, under the cases it lists. */
	parse(ENTRY_D("b", "7.2.13", "t_test/f.v.c t_test/f.v.d",
		      "t_test/f.v.c/new.c.send t_test/f.v.d/new.c.send"),
	      &l);
	ck_assert_int_eq(records_parse(recs, strlen(recs), &set), 0);
	ck_assert_str_eq(set.v[2].col[REC_ID], "t_test/f.v.d/new.c.send");
	/* Listed, with the listed outcome: the bug. */
	ck_assert_ptr_eq(known_record(&l, "7.2.13", &set.v[0]), &l.v[0]);
	/* Under a listed case, but not a listed decision: not the bug. */
	ck_assert_ptr_null(known_record(&l, "7.2.13", &set.v[1]));
	/* Not listed at all: an ordinary failure. */
	ck_assert_ptr_null(known_record(&l, "7.2.13", &set.v[3]));
	/* Another kernel: not the bug. */
	ck_assert_ptr_null(known_record(&l, "6.12.1", &set.v[0]));
	ck_assert_uint_eq(l.v[0].wrong_records, 1);
	ck_assert_ptr_null(known_unreproduced(&l, "7.2.13"));
	/* Listed but wrong in another way: the behaviour changed. */
	ck_assert_ptr_null(known_record(&l, "7.2.13", &set.v[2]));
	ck_assert_ptr_eq(known_unreproduced(&l, "7.2.13"), &l.v[0]);
	known_reset(&l);
	ck_assert_ptr_null(known_unreproduced(&l, "7.2.13"));
	/* A listed case that failed while its test recorded the bug. */
	ck_assert_ptr_eq(known_case(&l, "7.2.13", "t_test/f.v.c", true, &set,
				    why, sizeof(why)),
			 &l.v[0]);
	ck_assert_str_eq(why, "");
	ck_assert_ptr_null(known_case(&l, "7.2.13", "u_test/f.v.c", true, &set,
				      why, sizeof(why)));
	ck_assert_str_eq(why, "");
	/* Failed, but no listed decision shows it: a failure, named. */
	ck_assert_ptr_null(known_case(&l, "7.2.13", "t_test/f.v.c", true, &none,
				      why, sizeof(why)));
	ck_assert_str_eq(
		why,
		"case t_test/f.v.c is listed for known kernel bug b but failed without it (no listed decision shows EACCES)");
	ck_assert_uint_eq(l.v[0].other_cases, 1);
	/* A wrong decision the bug does not list makes the case a failure. */
	ck_assert_int_eq(records_parse(more, strlen(more), &two), 0);
	ck_assert_ptr_null(known_case(&l, "7.2.13", "t_test/f.v.c", true, &two,
				      why, sizeof(why)));
	ck_assert_str_eq(
		why,
		"case t_test/f.v.c is listed for known kernel bug b but decision t_test/f.v.c/old.c.send, which the bug does not list, is not as expected");
	records_free(&two);
	/*
	 * Another listed case of the same test showing the bug does not
	 * explain this one: only the case's own decisions count.
	 */
	ck_assert_ptr_null(known_case(&l, "7.2.13", "t_test/f.v.d", true, &set,
				      why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "t_test/f.v.d/new.c.send"));
	ck_assert_uint_eq(l.v[0].other_cases, 3);
	ck_assert_ptr_null(known_unreproduced(&l, "7.2.13"));
	/* A listed case that passes: fixed, so the list must change. */
	ck_assert_ptr_null(known_case(&l, "7.2.13", "t_test/f.v.d", false, &set,
				      why, sizeof(why)));
	ck_assert_ptr_eq(known_unreproduced(&l, "7.2.13"), &l.v[0]);
	ck_assert_ptr_null(known_unreproduced(&l, "6.12.1"));
	records_free(&set);
	known_free(&l);
}
END_TEST

/* The report of the real oops (crash-1.txt of a sid run), shortened. */
static const char oops_trace[] =
	"[   11.223230] BUG: kernel NULL pointer dereference, address: 000000000000004c\n"
	"[   11.225748] Oops: Oops: 0000 [#1] SMP NOPTI\n"
	"[   11.227902] RIP: 0010:aa_label_merge+0x71/0x770\n"
	"[   11.233591] Call Trace:\n"
	"[   11.233952]  ? __aa_label_next_not_in_set+0x7c/0x110\n"
	"[   11.234320]  aa_unix_file_perm+0x786/0xa60\n"
	"[   11.234473]  aa_file_perm+0x4f0/0x600\n"
	"[   11.234732]  ? unix_dgram_connect+0x492/0x4f0\n"
	"[   11.250235] ---[ end trace 0000000000000000 ]---\n"
	"[   11.250527] RIP: 0010:vfs_write+0x71/0x770\n"
	"[   11.253266] Kernel panic - not syncing: Fatal exception\n";

START_TEST(test_crash_signature)
{
	static const char sysrq[] =
		"[    9.1] Kernel panic - not syncing: sysrq triggered crash\n"
		"[    9.1] Call Trace:\n"
		"[    9.1]  sysrq_handle_crash+0x16/0x20\n";
	struct known_list l;
	char why[600];

	parse(OOPS("7.2.13", "t_test/f.c", "aa_label_merge aa_unix_file_perm"),
	      &l);
	/* The real report names both. */
	ck_assert(known_trace_matches(&l.v[0], oops_trace));
	ck_assert_ptr_eq(known_crash(&l, "7.2.13", "t_test/f.c", oops_trace,
				     "kernel panic", why, sizeof(why)),
			 &l.v[0]);
	ck_assert_str_eq(why, "");
	ck_assert_uint_eq(l.v[0].failed_cases, 1);
	/* Another kernel, another case: not listed at all. */
	ck_assert_ptr_null(known_crash(&l, "7.2.14", "t_test/f.c", oops_trace,
				       "p", why, sizeof(why)));
	ck_assert_str_eq(why, "");
	ck_assert_ptr_null(known_crash(&l, "7.2.13", "t_test/g", oops_trace,
				       "p", why, sizeof(why)));
	/* A hang or a timeout leaves no report: a failure, named. */
	ck_assert_ptr_null(known_crash(&l, "7.2.13", "t_test/f.c", NULL,
				       "the boot did not finish within 60 s",
				       why, sizeof(why)));
	ck_assert_str_eq(
		why,
		"case t_test/f.c is listed for known kernel bug down but the boot ended without a kernel report (a hang or a timeout, not the oops): the boot did not finish within 60 s");
	/* Another trace. */
	ck_assert_ptr_null(known_crash(&l, "7.2.13", "t_test/f.c", sysrq,
				       "kernel panic", why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(
		why,
		"the kernel's report is another (not \"BUG: kernel NULL pointer dereference\" naming aa_label_merge aa_unix_file_perm)"));
	ck_assert_uint_eq(l.v[0].other_cases, 2);
	known_free(&l);
	/* The same functions under another fatal line: another bug. */
	parse(OOPS_F("7.2.13", "t_test/f.c", "general protection fault",
		     "aa_label_merge aa_unix_file_perm"),
	      &l);
	ck_assert(!known_trace_matches(&l.v[0], oops_trace));
	known_free(&l);
	/* A patched build's crash: its base's stanza, by signature. */
	parse(OOPS("build:s_1", "t_test/f.c", "aa_label_merge"), &l);
	ck_assert_ptr_eq(
		known_crash(&l, "7.2.13-x build:s_1+0123456789ab build:s_1",
			    "t_test/f.c", oops_trace, "p", why, sizeof(why)),
		&l.v[0]);
	known_free(&l);

	/* A "? " frame is a guess, and only the first report counts. */
	parse(OOPS("7.2.13", "t_test/f.c", "unix_dgram_connect"), &l);
	ck_assert(!known_trace_matches(&l.v[0], oops_trace));
	known_free(&l);
	parse(OOPS("7.2.13", "t_test/f.c", "vfs_write"), &l);
	ck_assert(!known_trace_matches(&l.v[0], oops_trace));
	known_free(&l);
	/*
	 * A kernel with the guess unwinder (a tinyconfig build) marks every
	 * frame "? ": then the guesses are the trace. One reliable frame
	 * among them and the guesses count for nothing again.
	 */
	parse(OOPS("7.2.13", "t_test/f.c", "aa_label_merge aa_unix_file_perm"),
	      &l);
	ck_assert(known_trace_matches(
		&l.v[0], "BUG: kernel NULL pointer dereference, address: 4c\n"
			 "RIP: 0010:aa_label_merge+0x58/0x1d9\n"
			 "Call Trace:\n"
			 " <TASK>\n"
			 " ? aa_unix_file_perm+0x2ff/0x4b6\n"
			 " ? aa_file_perm+0x350/0x3aa\n"
			 " </TASK>\n"
			 "---[ end trace 0000000000000000 ]---\n"));
	ck_assert(!known_trace_matches(
		&l.v[0], "RIP: 0010:aa_label_merge+0x58/0x1d9\n"
			 "Call Trace:\n"
			 " ? aa_unix_file_perm+0x2ff/0x4b6\n"
			 " aa_file_perm+0x350/0x3aa\n"
			 "---[ end trace 0000000000000000 ]---\n"));
	known_free(&l);
	/* A name is matched whole: aa_file_perm is not aa_unix_file_perm. */
	parse(OOPS("7.2.13", "t_test/f.c", "file_perm"), &l);
	ck_assert(!known_trace_matches(&l.v[0], oops_trace));
	known_free(&l);
	/* A wrong-decision bug never explains a crash. */
	parse(ENTRY("w", "7.2.13", "t_test/f.c"), &l);
	ck_assert_ptr_null(known_crash(&l, "7.2.13", "t_test/f.c", oops_trace,
				       "kernel panic", why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(
		why, "(a wrong decision, EACCES) but brought the kernel down"));
	known_free(&l);
}
END_TEST

/* What the runner boots apart: listed oopses of this kernel, nothing else. */
START_TEST(test_oops_listed)
{
	struct known_list l;

	parse(OOPS("7.2.13 build:linux-source-7.2_7.2.13-1",
		   "t_test/f.c t_test/g",
		   "aa_label_merge") "\n" ENTRY("wrong", "7.2.13", "t_test/w"),
	      &l);
	ck_assert(known_oops_listed(&l, "7.2.13", "t_test/f.c"));
	ck_assert(known_oops_listed(&l, "7.2.13", "t_test/g"));
	/* By a build's source name, or its patched build's base. */
	ck_assert(known_oops_listed(&l, "x build:linux-source-7.2_7.2.13-1",
				    "t_test/g"));
	ck_assert(!known_oops_listed(&l, "7.2.14", "t_test/f.c"));
	ck_assert(!known_oops_listed(&l, "7.2.13", "t_test/f"));
	ck_assert(!known_oops_listed(&l, "7.2.13", "u_test/f.c"));
	/* A wrong decision does not bring the kernel down. */
	ck_assert(!known_oops_listed(&l, "7.2.13", "t_test/w"));
	known_free(&l);
}
END_TEST

START_TEST(test_oops_case_reported)
{
	struct known_list l;
	char why[600];

	/* A listed oops case that reported not ok did not oops. */
	parse(OOPS("7.2.13", "t_test/f.c", "aa_label_merge"), &l);
	ck_assert_ptr_null(known_case(&l, "7.2.13", "t_test/f.c", true, NULL,
				      why, sizeof(why)));
	ck_assert_str_eq(
		why,
		"case t_test/f.c is listed for known kernel bug down (an oops) but reported a failure instead");
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
	compare_kernels(&ra, &rb, NULL, NULL, CMP_UPSTREAM_DIFFERENT, &r);
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
	/* The crashed case's decisions are the ids under "t/x/". */
	static const char a[] = REC("t/x/1", "allow", "allow")
		REC("t/x/2", "allow", "allow") REC("t/y/1", "allow", "allow");
	static const char b[] = REC("t/y/1", "allow", "allow");
	static const char list[] = OOPS("7.2.13", "t/x", "f");
	/* A decision-type stanza of the same case never explains a gap. */
	static const char crashed[] = "t/x\tdown\tboot 1\n";
	struct record_set ra, rb;
	struct known_list l;
	struct cmp_result r;

	parse(list, &l);
	ck_assert_int_eq(records_parse(a, strlen(a), &ra), 0);
	ck_assert_int_eq(records_parse(b, strlen(b), &rb), 0);
	compare_kernels(&ra, &rb, NULL, NULL, CMP_UPSTREAM_DIFFERENT, &r);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 2);
	/* The first kernel crashed: nothing to explain that way round. */
	compare_explain_crashes(&r, &l, crashed, NULL);
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 2);
	/* The second kernel's runs saw no such crash: still unexplained. */
	compare_explain_crashes(&r, &l, NULL, "t/x\tother-bug\tboot 1\n");
	ck_assert_uint_eq(r.count[CMP_UNEXPLAINED], 2);
	ck_assert(!known_crashed("t/x\tdown-and-out\tboot 1\n", "down"));
	/* It did: its missing decisions are the crash's. */
	compare_explain_crashes(&r, &l, NULL, crashed);
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

/*
 * The shipped list parses (so it names no "+patched" kernel, no glob, no
 * whole binary), and each wrong decision lists the decisions that show
 * it, each under a case it lists: what known_parse() refuses.
 */
START_TEST(test_shipped_list)
{
	struct known_list l;
	struct err e;
	size_t len, i;
	char *text;

	ck_assert_int_eq(read_file(LSMCONF_ROOT "/fixtures/known-kernel-bugs",
				   &text, &len),
			 0);
	if (known_parse(text, len, &l, &e))
		ck_abort_msg("%s", e.msg);
	ck_assert_uint_gt(l.n, 0);
	for (i = 0; i < l.n; i++) {
		ck_assert_ptr_nonnull(strchr(l.v[i].cases, '/'));
		ck_assert_ptr_null(strstr(l.v[i].kernels, "+patched"));
		ck_assert_ptr_null(strpbrk(l.v[i].cases, "*?["));
		if (strcmp(l.v[i].observed, "oops"))
			ck_assert_str_ne(l.v[i].decisions, "-");
		else
			ck_assert_str_ne(l.v[i].fatal, "-");
	}
	known_free(&l);
	free(text);
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
	return CHECK_RUN(
		"known", test_parse, test_parse_unterminated,
		test_parse_docs_only, test_parse_errors, test_records_and_cases,
		test_crash_signature, test_oops_case_reported, test_oops_listed,
		test_compare_explains_known, test_compare_explains_crashes,
		test_account_known_failures, test_shipped_list);
}
