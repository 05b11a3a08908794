// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lib.h"
#include "lsmconf_record.h"
#include "results/saved.h"

#define KTXT                                                            \
	"spec\tdebian:sid\npackage\tlinux-binary-7.2\nsource\tpackage " \
	"linux-binary-7.2 7.2-1\nsuite\tapparmor\n"

START_TEST(test_value)
{
	char *v = saved_value(KTXT, "source");

	ck_assert_str_eq(v, "package linux-binary-7.2 7.2-1");
	free(v);
	v = saved_value(KTXT, "suite");
	ck_assert_str_eq(v, "apparmor");
	free(v);
	/* A key is a whole field: "spec" is not "spe". */
	ck_assert_ptr_null(saved_value(KTXT, "spe"));
	ck_assert_ptr_null(saved_value(KTXT, "verdict"));
	ck_assert_ptr_null(saved_value(NULL, "spec"));
	/* The last line need not end in a newline. */
	v = saved_value("a\t1\nb\t2", "b");
	ck_assert_str_eq(v, "2");
	free(v);
}
END_TEST

START_TEST(test_group)
{
	/* A run's directories sorted by name: sid before trixie. */
	const char *specs[] = { "debian:sid", "debian:sid", "debian:trixie",
				"debian:trixie" };
	const char *one[] = { "build:x", "build:y", "build:x" };
	size_t g[4];

	ck_assert_uint_eq(saved_group(specs, 4, g), 2);
	ck_assert_uint_eq(g[0], 0);
	ck_assert_uint_eq(g[1], 0);
	ck_assert_uint_eq(g[2], 1);
	ck_assert_uint_eq(g[3], 1);
	/* Interleaved boots of two kernels: grouped, in first-seen order. */
	ck_assert_uint_eq(saved_group(one, 3, g), 2);
	ck_assert_uint_eq(g[0], 0);
	ck_assert_uint_eq(g[1], 1);
	ck_assert_uint_eq(g[2], 0);
	ck_assert_uint_eq(saved_group(specs, 0, g), 0);
}
END_TEST

START_TEST(test_verdict)
{
	const char *pass = "TAP version 13\n1..1\n# not ok 3 inner.case\n"
			   "ok 1 selftests: apparmor: x_test\n";
	const char *fail = "TAP version 13\n1..2\n"
			   "ok 1 selftests: apparmor: x_test\n"
			   "not ok 2 selftests: apparmor: y_test # lost\n";
	int old;

	/* The recorded verdict wins over the test lines. */
	ck_assert_int_eq(saved_verdict(KTXT "verdict\tFAIL\n", pass, &old), 0);
	ck_assert_int_eq(old, 0);
	ck_assert_int_eq(saved_verdict(KTXT "verdict\tPASS\n", fail, &old), 1);
	ck_assert_int_eq(old, 0);
	/* An older run: a test line "not ok" fails it, an indented one not. */
	ck_assert_int_eq(saved_verdict(KTXT, pass, &old), 1);
	ck_assert_int_eq(old, 1);
	ck_assert_int_eq(saved_verdict(KTXT, fail, &old), 0);
	ck_assert_int_eq(old, 1);
	/* No verdict and no test line: nothing says the boot ran. */
	ck_assert_int_eq(saved_verdict(KTXT, "", &old), -1);
	ck_assert_int_eq(saved_verdict(KTXT, "TAP version 13\n1..0\n", &old),
			 -1);
	ck_assert_int_eq(saved_verdict(KTXT "verdict\tPASS\n", "", &old), 1);
}
END_TEST

/* saved_kernel_txt_check() of @text: its message, or "" when it passes. */
static const char *txt_check(const char *text, size_t len)
{
	static struct err e;

	if (!saved_kernel_txt_check(text, len, "k.txt", &e))
		return "";
	ck_assert_ptr_null(strchr(e.msg, '\n'));
	return e.msg;
}

#define TXT(s) txt_check(s, sizeof(s) - 1)

START_TEST(test_kernel_txt)
{
	ck_assert_str_eq(
		TXT(KTXT "verdict\tPASS\nstarted\t2026-12-04T10:11:12Z\n"), "");
	/* "-" and empty values of keys nothing compares are kept. */
	ck_assert_str_eq(TXT(KTXT "known_name\t-\nskips_expected\t\n"), "");
	ck_assert_str_eq(TXT(""), "k.txt: empty (want KEY<TAB>VALUE lines)");
	ck_assert_str_eq(TXT("spec\tdebian:sid\nsuite\tapp"),
			 "k.txt: line 2: cut short (no newline at its end)");
	ck_assert_str_eq(TXT(KTXT "garbage\n"),
			 "k.txt: line 5: not KEY<TAB>VALUE");
	ck_assert_str_eq(TXT(KTXT "spec\tdebian:trixie\n"),
			 "k.txt: line 5: spec again (first on line 1)");
	ck_assert_str_eq(
		TXT("spec\tdebian:sid\r\nsuite\tapparmor\r\n"),
		"k.txt: line 1: ends in CR (a CRLF file, not as lsmconf writes it)");
	ck_assert_str_eq(TXT("spec\tx\nsuite\t\n"),
			 "k.txt: line 2: suite has no value");
	ck_assert_str_eq(TXT("spec\tx\n"), "k.txt: no suite line");
	ck_assert_str_eq(TXT("suite\tx\n"), "k.txt: no spec line");
	ck_assert_str_eq(TXT(KTXT "verdict\tMAYBE\n"),
			 "k.txt: verdict MAYBE (want PASS or FAIL)");
	ck_assert_str_eq(
		TXT(KTXT "started\tyesterday\n"),
		"k.txt: started yesterday is not an RFC 3339 date-time (e.g. 2026-12-04T10:11:12Z)");
	ck_assert_str_eq(TXT(KTXT "a\tb\0c\n"), "k.txt: line 5: a NUL byte");
	ck_assert_str_eq(TXT(KTXT "a\tb\033c\n"),
			 "k.txt: line 5: a control byte");
}
END_TEST

CHECK_TMPDIR("/tmp/lsmconf-test-saved.XXXXXX")

static void put(const char *rel, const char *text)
{
	char *path = xasprintf("%s/%s", root, rel), *slash = strrchr(path, '/');

	*slash = '\0';
	ck_assert_int_eq(mkdir_p(path), 0);
	*slash = '/';
	ck_assert_int_eq(write_file(path, text, strlen(text)), 0);
	free(path);
}

#define REC(id, obs) id "\t5.0\tsubj\tobj\tdgram\t-\twrite\t-\tallow\t" obs "\n"

/* A run of two kernels, A's boot passed, B's failed. */
static void good_run(void)
{
	put("run/a-apparmor/kernel.txt",
	    "spec\tdebian:sid\nsource\tpackage x 1\nsuite\tapparmor\nverdict\tPASS\n");
	put("run/a-apparmor/ktap.txt", "TAP version 13\n1..1\nok 1 x_test\n");
	put("run/a-apparmor/records.tsv",
	    RECORD_HEADER REC("x_test/a.b/c", "allow")
		    REC("x_test/a.b/d", "allow"));
	put("run/b-apparmor/kernel.txt",
	    "spec\tdebian:trixie\nsuite\tapparmor\nverdict\tFAIL\n");
	put("run/b-apparmor/ktap.txt", "TAP version 13\n1..1\nok 1 x_test\n");
	put("run/compare.tsv", "id\tclass\tdebian:trixie\tdebian:sid\n");
}

/* saved_load() of @rel: its message ("" when it loads @want kernels). */
static const char *load(const char *rel, size_t want)
{
	static struct err e;
	struct saved_kernel k[2];
	char *dir = xasprintf("%s/%s", root, rel), *at;
	int n = saved_load(dir, k, want, &e);
	size_t i;

	free(dir);
	if (n < 0) {
		ck_assert_ptr_null(strchr(e.msg, '\n'));
		/* The temporary root is left out: the rest is the test's. */
		at = strstr(e.msg, root);
		if (at)
			memmove(at, at + strlen(root) + 1,
				strlen(at + strlen(root) + 1) + 1);
		return e.msg;
	}
	ck_assert_int_eq(n, want);
	for (i = 0; i < (size_t)n; i++)
		saved_kernel_free(&k[i]);
	return "";
}

START_TEST(test_load)
{
	struct saved_kernel k[2];
	char *dir = xasprintf("%s/run", root);
	struct err e;

	good_run();
	ck_assert_int_eq(saved_load(dir, k, 2, &e), 2);
	ck_assert_str_eq(k[0].spec, "debian:sid");
	ck_assert_str_eq(k[0].source, "package x 1");
	ck_assert(k[0].ok);
	ck_assert(k[1].old_source);
	ck_assert(!k[1].ok);
	ck_assert_uint_eq(k[0].n, 1);
	ck_assert_str_eq(k[0].lsm[0], "apparmor");
	/* compare.tsv names trixie first: the two swap. */
	ck_assert_int_eq(saved_swapped(dir, k[1].spec, &e), 1);
	ck_assert_int_eq(saved_swapped(dir, k[0].spec, &e), 0);
	saved_kernel_free(&k[0]);
	saved_kernel_free(&k[1]);
	/* One boot's directory is one kernel. */
	ck_assert_str_eq(load("run/a-apparmor", 1), "");
	ck_assert_str_eq(load("run", 1), "run holds 2 kernels (want 1)");
	put("run/compare.tsv", "garbage\n");
	ck_assert_int_eq(saved_swapped(dir, "debian:sid", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "line 1 is not compare's header"));
	free(dir);
}
END_TEST

START_TEST(test_load_refused)
{
	char *path;

	good_run();
	ck_assert_str_eq(
		load("nothing", 1),
		"nothing: not a results directory (No such file or directory)");
	put("empty/x", "");
	ck_assert_str_eq(
		load("empty", 1),
		"empty: not a results directory (no kernel.txt in it or its subdirectories)");
	/* No verdict and an empty ktap.txt: it passed nothing. */
	put("run/b-apparmor/kernel.txt",
	    "spec\tdebian:trixie\nsuite\tapparmor\n");
	put("run/b-apparmor/ktap.txt", "");
	ck_assert_str_eq(
		load("run", 2),
		"run/b-apparmor: not a results directory (no verdict in kernel.txt, and an empty ktap.txt)");
	put("run/b-apparmor/ktap.txt", "TAP version 13\n");
	ck_assert_str_eq(
		load("run", 2),
		"run/b-apparmor: not a results directory (no verdict in kernel.txt, and no test line in ktap.txt)");
	good_run();
	path = xasprintf("%s/run/b-apparmor/ktap.txt", root);
	unlink(path);
	free(path);
	ck_assert_str_eq(
		load("run", 2),
		"run/b-apparmor: no ktap.txt (not a finished boot's results): not a results directory");
	/* records.tsv: its header by name, every line, no id twice. */
	good_run();
	put("run/a-apparmor/records.tsv", "id\tfoo\n");
	ck_assert_str_eq(
		load("run", 2),
		"run/a-apparmor/records.tsv: line 1: a header of other columns (\"id foo\"; want id, abi, subject, object, class, detail, op, depends, expected, observed)");
	put("run/a-apparmor/records.tsv",
	    RECORD_HEADER REC("x_test/a.b/c", "allow") "x_test/a\tb\n");
	ck_assert_str_eq(
		load("run", 2),
		"run/a-apparmor/records.tsv: line 3: 2 fields, want 10");
	put("run/a-apparmor/records.tsv",
	    RECORD_HEADER REC("x_test/a.b/c", "allow")
		    REC("x_test/a.b/c", "EACCES"));
	ck_assert_str_eq(
		load("run", 2),
		"run/a-apparmor/records.tsv: a case id recorded twice: x_test/a.b/c (line 2: allow, line 3: EACCES)");
	put("run/a-apparmor/records.tsv", REC("x_test/a.b/c", "allow"));
	ck_assert_str_eq(
		load("run", 2),
		"run/a-apparmor/records.tsv: line 1: no header (want the columns id, abi, subject, ... observed)");
	put("run/a-apparmor/records.tsv",
	    "id\tabi\tsubject\tobject\tclass\tdetail\top\tdepends\texpected\tobserved\r\n");
	ck_assert_str_eq(
		load("run", 2),
		"run/a-apparmor/records.tsv: line 1: ends in CR (a CRLF file, not as lsmconf writes it)");
	put("run/a-apparmor/records.tsv", RECORD_HEADER "x_test/a.b/c\t5.0");
	ck_assert_str_eq(
		load("run", 2),
		"run/a-apparmor/records.tsv: line 2: cut short (no newline at its end)");
	/* A directory or a FIFO where a file should be. */
	good_run();
	path = xasprintf("%s/run/a-apparmor/known.tsv", root);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_str_eq(
		load("run", 2),
		"run/a-apparmor/known.tsv: a FIFO, not a regular file");
	unlink(path);
	ck_assert_int_eq(mkdir(path, 0755), 0);
	ck_assert_str_eq(
		load("run", 2),
		"run/a-apparmor/known.tsv: a directory, not a regular file");
	rmdir(path);
	free(path);
	put("run/a-apparmor/kernel.txt", "spec\tdebian:sid\n");
	ck_assert_str_eq(load("run", 2),
			 "run/a-apparmor/kernel.txt: no suite line");
	/* A symlink that loops is no boot's directory to skip silently. */
	good_run();
	path = xasprintf("%s/run/c-apparmor", root);
	ck_assert_int_eq(symlink("c-apparmor", path), 0);
	ck_assert_str_eq(
		load("run", 2),
		"run/c-apparmor/kernel.txt: Too many levels of symbolic links");
	free(path);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("saved");

	CHECK_TCASE(s, "values", NULL, NULL, test_value, test_group,
		    test_verdict, test_kernel_txt);
	CHECK_TCASE(s, "load", setup, teardown, test_load, test_load_refused);
	return check_run_suite(s);
}
