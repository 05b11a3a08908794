// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/lib.h"
#include "provision/series.h"

static char tmp[64];

static void setup(void)
{
	strcpy(tmp, "/tmp/lsmconf-test-series.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
	remove_tree(tmp);
}

static char *at(const char *name)
{
	return xasprintf("%s/%s", tmp, name);
}

static void put(const char *name, const char *text)
{
	char *path = at(name);

	ck_assert_int_eq(write_file(path, text, strlen(text)), 0);
	free(path);
}

static void gone(const char *name)
{
	char *path = at(name);

	ck_assert_int_eq(unlink(path), 0);
	free(path);
}

static int run(char *const argv[], const char *cwd)
{
	return spawn_wait(argv, &(struct spawn_opts){ .cwd = cwd,
						      .stdin_fd = -1,
						      .stdout_fd = -1,
						      .stderr_fd = -1,
						      .timeout_s = 60 });
}

/*
 * A mail as git format-patch writes it: @tag is the bracket group
 * ("PATCH v2 1/3"), the diff turns line @from of file f into @to.
 */
static char *mail(const char *tag, const char *subject, const char *from,
		  const char *to)
{
	return xasprintf(
		"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		"From: T <t@example.org>\n"
		"Date: Sat, 5 Dec 2026 08:53:02 +0000\n"
		"Subject: [%s] %s\n\n"
		"Why.\n---\n f | 2 +-\n\n"
		"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-%s\n+%s\n"
		"-- \n2.39.5\n\n",
		tag, subject, from, to);
}

static char *cover(const char *tag)
{
	return xasprintf(
		"From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
		"From: T <t@example.org>\n"
		"Subject: [%s] the series\n\n"
		"What it does.\n\n",
		tag);
}

/* An mbox of the mails given, in that order. */
static void put_mbox(const char *name, char *m1, char *m2, char *m3, char *m4)
{
	char *text = xasprintf("%s%s%s%s", m1, m2 ? m2 : "", m3 ? m3 : "",
			       m4 ? m4 : "");

	put(name, text);
	free(text);
	free(m1);
	free(m2);
	free(m3);
	free(m4);
}

START_TEST(test_subject)
{
	unsigned int i, n;
	char *s;

	s = series_strip_subject(" [PATCH v2 3/7] [RFC] apparmor: x y ");
	ck_assert_str_eq(s, "apparmor: x y");
	free(s);
	ck_assert(series_numbering("[PATCH v2 3/7] a", &i, &n));
	ck_assert_uint_eq(i, 3);
	ck_assert_uint_eq(n, 7);
	ck_assert(series_numbering("[RFC] [PATCH 00/12] a", &i, &n));
	ck_assert_uint_eq(i, 0);
	ck_assert_uint_eq(n, 12);
	ck_assert(!series_numbering("[PATCH] a 1/2", &i, &n));
	ck_assert(!series_numbering("a", &i, &n));
	/* Words joined by one '-', as format-patch names files. */
	s = series_slug("apparmor: fix   the unix_peer() check!");
	ck_assert_str_eq(s, "apparmor-fix-the-unix_peer-check");
	free(s);
	s = series_slug("!!!");
	ck_assert_str_eq(s, "patch");
	free(s);
	s = series_slug(
		"a very long subject that goes on and on and on past the limit");
	ck_assert_uint_le(strlen(s), 52);
	free(s);
	/* A folded Subject: header is one line; a plain patch its first. */
	s = series_header_subject("From: a\nSubject: [PATCH 1/2] one\n two\n"
				  "X: y\n\nSubject: body\n");
	ck_assert_str_eq(s, "[PATCH 1/2] one two");
	free(s);
	s = series_header_subject("fix the thing\n\n--- a/f\n+++ b/f\n");
	ck_assert_str_eq(s, "fix the thing");
	free(s);
	ck_assert_ptr_null(series_header_subject("From: a\n\nSubject: no\n"));
	ck_assert(series_has_diff("x\n--- a/f\n+++ b/f\n"));
	ck_assert(series_has_diff("diff --git a/f b/f\n"));
	ck_assert(!series_has_diff("x\n--- a/f\nno plus\n"));
}
END_TEST

/*
 * The patches apply in order with patch(1) as build.c runs it: f goes
 * a -> b -> c -> d.
 */
static void check_applies(const struct series *s, const char *want)
{
	char *tree = at("tree"), *f = at("tree/f"), *text;
	size_t i;

	ck_assert_int_eq(mkdir_p(tree), 0);
	ck_assert_int_eq(write_file(f, "a\n", 2), 0);
	for (i = 0; i < s->n; i++)
		ck_assert_int_eq(run((char *[]){ "patch", "-p1",
						 "--no-backup-if-mismatch",
						 "-i", s->p[i].path, NULL },
				     tree),
				 0);
	ck_assert_int_eq(read_file(f, &text, NULL), 0);
	ck_assert_str_eq(text, want);
	free(text);
	remove_tree(tree);
	free(tree);
	free(f);
}

START_TEST(test_mbox)
{
	char *mbox = at("s.mbox"), *out = at("out"), *name;
	struct series s;
	struct err e;

	/* Out of order on the list, the cover letter first. */
	put_mbox("s.mbox", cover("PATCH v2 0/3"),
		 mail("PATCH v2 2/3", "apparmor: second", "b", "c"),
		 mail("PATCH v2 1/3", "apparmor: first", "a", "b"),
		 mail("PATCH v2 3/3", "apparmor: third", "c", "d"));
	ck_assert_msg(!series_load(mbox, NULL, out, false, &s, &e), "%s",
		      e.msg);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_str_eq(s.p[0].subject, "apparmor: first");
	ck_assert_str_eq(s.p[2].subject, "apparmor: third");
	name = xasprintf("%s/0002-apparmor-second.patch", out);
	ck_assert_str_eq(s.p[1].path, name);
	free(name);
	check_applies(&s, "d\n");
	series_free(&s);
	free(mbox);
	free(out);
}
END_TEST

/* Each bad mbox: -1 and one line saying what is wrong. */
static void refused(const char *input, const char *git_dir, const char *why)
{
	char *out = at("bad-out");
	struct series s;
	struct err e;

	ck_assert_int_eq(series_load(input, git_dir, out, false, &s, &e), -1);
	ck_assert_msg(strstr(e.msg, why), "%s: want \"%s\"", e.msg, why);
	ck_assert_ptr_null(strchr(e.msg, '\n'));
	ck_assert_uint_eq(s.n, 0);
	remove_tree(out);
	free(out);
}

START_TEST(test_mbox_refused)
{
	char *path = at("m");

	put("m", "just text\n");
	refused(path, NULL, "not an mbox");
	put_mbox("m", cover("PATCH 00/2"), NULL, NULL, NULL);
	refused(path, NULL, "no patch in it");
	put_mbox("m", mail("PATCH 1/3", "a", "a", "b"),
		 mail("PATCH 2/3", "b", "b", "c"),
		 mail("PATCH 2/3", "b again", "b", "c"), NULL);
	refused(path, NULL, "patch 2/3 appears twice");
	put_mbox("m", mail("PATCH 1/5", "a", "a", "b"),
		 mail("PATCH 2/5", "b", "b", "c"),
		 mail("PATCH 3/5", "c", "c", "d"),
		 mail("PATCH 5/5", "e", "d", "e"));
	refused(path, NULL, "patch 4/5 is missing");
	put_mbox("m", mail("PATCH 1/2", "a", "a", "b"),
		 mail("PATCH 2/3", "b", "b", "c"), NULL, NULL);
	refused(path, NULL, "mixed series lengths");
	put_mbox("m", mail("PATCH 1/2", "a", "a", "b"),
		 mail("PATCH", "b", "b", "c"), NULL, NULL);
	refused(path, NULL, "numbered and unnumbered");
	/* A mail without a diff that is no cover letter: named, not dropped. */
	put_mbox("m", mail("PATCH 1/2", "a", "a", "b"), cover("PATCH 2/2"),
		 NULL, NULL);
	refused(path, NULL,
		"m: mail 2 (\"the series\") holds no diff (only a cover letter, numbered 0, may have none)");
	put_mbox("m", mail("PATCH 0/1", "a", "a", "b"),
		 mail("PATCH 1/1", "b", "b", "c"), NULL, NULL);
	refused(path, NULL,
		"mail 1 (\"a\") is numbered 0, a cover letter's number, and holds a diff");
	/* A hunk that does not add up, in the second mail. */
	put("m", "From 0 Mon Sep 17 00:00:00 2001\nFrom: T <t@example.org>\n"
		 "Subject: [PATCH] a\n\nWhy.\n---\n"
		 "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n-a\n+b\n");
	refused(path, NULL,
		"m, mail 1's diff: line 6: the hunk of line 4 (file b/f) is cut short");
	ck_assert_int_eq(write_file(path, "From x\n\0\n", 9), 0);
	refused(path, NULL,
		"m: a NUL byte at offset 7 (line 2): not a text file");
	free(path);
}
END_TEST

/* The numbers of a directory's patches: gaps refused, every one named. */
START_TEST(test_dir_numbering)
{
	char *dir = at("g"), *out = at("out"), *m;
	struct series s;
	struct err e;

	ck_assert_int_eq(mkdir_p(dir), 0);
	m = mail("PATCH 1/3", "first", "a", "b");
	put("g/0001-first.patch", m);
	free(m);
	m = mail("PATCH 2/3", "second", "b", "c");
	put("g/0003-second.patch", m);
	free(m);
	m = mail("PATCH 3/3", "third", "c", "d");
	put("g/0006-third.patch", m);
	free(m);
	refused(dir, NULL,
		"g: the numbering has gaps (0001, 0003, 0006; want 1 to 3, each once); --allow-gaps takes them in order");
	/* --allow-gaps: in number order, as they are. */
	ck_assert_msg(!series_load(dir, NULL, out, true, &s, &e), "%s", e.msg);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_str_eq(s.p[2].subject, "third");
	check_applies(&s, "d\n");
	series_free(&s);
	remove_tree(out);
	m = mail("PATCH", "again", "c", "d");
	put("g/0003-again.patch", m);
	free(m);
	refused(dir, NULL,
		"two patches numbered 3 (0003-again.patch and 0003-second.patch)");
	gone("g/0003-again.patch");
	put("g/fix.patch", "fix\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-d\n+e\n");
	refused(dir, NULL,
		"g: fix.patch has no number (want NNNN-name.patch, as git format-patch writes)");
	gone("g/fix.patch");
	/* A patch whose hunk is garbage: its file and line. */
	put("g/0006-third.patch",
	    "third\n\n--- a/f\n+++ b/f\n@@ -1 +1 @@\nzzz\n");
	ck_assert_int_eq(series_load(dir, NULL, out, true, &s, &e), -1);
	ck_assert_ptr_nonnull(strstr(
		e.msg,
		"0006-third.patch: line 6: the hunk of line 5 (file b/f) ends early"));
	free(dir);
	free(out);
}
END_TEST

START_TEST(test_dir)
{
	char *dir = at("d"), *out = at("out"), *m;
	struct series s;
	struct err e;

	ck_assert_int_eq(mkdir_p(dir), 0);
	refused(dir, NULL, "no patch in it");
	put("d/0000-cover-letter.patch", "Subject: [PATCH 0/3] x\n\nno diff\n");
	m = mail("PATCH 2/3", "second", "b", "c");
	put("d/0002-second.patch", m);
	free(m);
	m = mail("PATCH 1/3", "first", "a", "b");
	put("d/0001-first.patch", m);
	free(m);
	/* A plain patch: its first line is the subject. */
	put("d/0003-third.patch",
	    "third, plain\n\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-c\n+d\n");
	put("d/README", "not a patch\n");
	ck_assert_msg(!series_load(dir, NULL, out, false, &s, &e), "%s", e.msg);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_str_eq(s.p[0].subject, "first");
	ck_assert_str_eq(s.p[1].subject, "second");
	ck_assert_str_eq(s.p[2].subject, "third, plain");
	check_applies(&s, "d\n");
	series_free(&s);
	/* The output directory must start empty. */
	ck_assert_int_eq(series_load(dir, NULL, out, false, &s, &e), -1);
	ck_assert(strstr(e.msg, "is not empty"));
	free(dir);
	free(out);
}
END_TEST

static void commit(const char *repo, const char *text, const char *msg)
{
	char *f = xasprintf("%s/f", repo);

	ck_assert_int_eq(write_file(f, text, strlen(text)), 0);
	ck_assert_int_eq(
		run((char *[]){ "git", "-C", (char *)repo, "add", "f", NULL },
		    NULL),
		0);
	ck_assert_int_eq(
		run((char *[]){ "git", "-C", (char *)repo, "-c", "user.name=T",
				"-c", "user.email=t@example.org", "commit",
				"-q", "-m", (char *)msg, NULL },
		    NULL),
		0);
	free(f);
}

START_TEST(test_range)
{
	char *repo = at("repo"), *out = at("out");
	struct series s;
	struct err e;

	ck_assert_int_eq(
		run((char *[]){ "git", "init", "-q", repo, NULL }, NULL), 0);
	commit(repo, "a\n", "base");
	commit(repo, "b\n", "apparmor: first");
	commit(repo, "c\n", "apparmor: second");
	ck_assert_msg(!series_load("HEAD~2..HEAD", repo, out, false, &s, &e),
		      "%s", e.msg);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_str_eq(s.p[0].subject, "apparmor: first");
	ck_assert_str_eq(s.p[1].subject, "apparmor: second");
	check_applies(&s, "c\n");
	series_free(&s);
	refused("HEAD..HEAD", repo, "the range is empty");
	refused("HEAD...HEAD~1", repo, "not a git range");
	refused("nosuch..HEAD", repo, "git format-patch nosuch..HEAD");
	refused("nothing-at-all", repo, "not a series");
	/* Not an option to git either. */
	refused("--help..HEAD", repo, "not a git range");
	free(repo);
	free(out);
}
END_TEST

int main(void)
{
	return CHECK_RUN_FIXTURE("series", setup, teardown, 60, test_subject,
				 test_mbox, test_mbox_refused, test_dir,
				 test_dir_numbering, test_range);
}
