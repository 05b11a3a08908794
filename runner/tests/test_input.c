// SPDX-License-Identifier: GPL-2.0
/*
 * lib/input.c and lib/diffcheck.c: inputs refused in one line (a FIFO
 * without blocking, a directory, a device, a NUL byte, a size limit) and
 * unified diffs checked before patch(1) sees them.
 */
#define _GNU_SOURCE
#include "check_run.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lib.h"

static char dir[] = "/tmp/lsmconf-test-input.XXXXXX";

static char *put(const char *name, const char *text, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);

	ck_assert_int_eq(write_file(path, text, len), 0);
	return path;
}

static void one_line(const struct err *e)
{
	ck_assert(e->msg[0]);
	ck_assert_ptr_null(strchr(e->msg, '\n'));
}

START_TEST(test_read_input)
{
	char *path = put("text", "a\nb\n", 4), *buf, *fifo, *sub;
	struct err e;
	size_t len;

	ck_assert_int_eq(read_input(path, 16, INPUT_TEXT, &buf, &len, &e), 0);
	ck_assert_uint_eq(len, 4);
	ck_assert_str_eq(buf, "a\nb\n");
	free(buf);
	/* Over the limit: refused, never cut. */
	ck_assert_int_eq(read_input(path, 3, INPUT_TEXT, &buf, &len, &e),
			 -EFBIG);
	ck_assert_ptr_nonnull(strstr(e.msg, "larger than 3 bytes"));
	one_line(&e);
	free(path);
	/* A missing file says so, and is told apart. */
	path = xasprintf("%s/none", dir);
	ck_assert_int_eq(read_input(path, 16, 0, &buf, NULL, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, path));
	free(path);
	/* A FIFO with no writer: refused at once, not waited on. */
	fifo = xasprintf("%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	ck_assert_int_lt(read_input(fifo, 16, 0, &buf, NULL, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "a FIFO, not a regular file"));
	ck_assert_int_lt(input_regular(fifo, &e), 0);
	free(fifo);
	/* A directory is not an empty file. */
	sub = xasprintf("%s/sub", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_eq(read_input(sub, 16, 0, &buf, NULL, &e), -EISDIR);
	ck_assert_ptr_nonnull(strstr(e.msg, "a directory, not a regular file"));
	ck_assert_int_eq(input_directory(sub, &e), 0);
	free(sub);
	/* A device that never ends: refused before any read. */
	ck_assert_int_lt(read_input("/dev/zero", 16, 0, &buf, NULL, &e), 0);
	ck_assert_ptr_nonnull(strstr(e.msg, "a character device"));
	one_line(&e);
}
END_TEST

START_TEST(test_nul)
{
	char *path = put("nul", "id\nab\0c\n", 8), *buf;
	unsigned int line;
	struct err e;
	size_t off;

	ck_assert_int_eq(read_input(path, 64, INPUT_TEXT, &buf, NULL, &e),
			 -EILSEQ);
	ck_assert_ptr_nonnull(strstr(e.msg, "a NUL byte at offset 5 (line 2)"));
	one_line(&e);
	/* Binary inputs (a store's command) may hold them. */
	ck_assert_int_eq(read_input(path, 64, 0, &buf, NULL, &e), 0);
	free(buf);
	free(path);
	ck_assert(!input_find_nul("abc", 3, &off, &line));
	ck_assert(input_find_nul("\n\n\0", 3, &off, &line));
	ck_assert_uint_eq(off, 2);
	ck_assert_uint_eq(line, 3);
}
END_TEST

#define HEAD "A mutant\n\nWhy.\n\n"
#define FILES "--- a/security/apparmor/lsm.c\n+++ b/security/apparmor/lsm.c\n"

static int check(const char *text, struct err *e)
{
	return diff_check(text, strlen(text), "m.patch", e);
}

START_TEST(test_diff_good)
{
	struct err e;

	ck_assert_int_eq(
		check(HEAD FILES "@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n", &e), 1);
	/* One line each when the counts are left out; "\ No newline". */
	ck_assert_int_eq(
		check(FILES
		      "@@ -1 +1 @@\n-b\n+c\n\\ No newline at end of file\n",
		      &e),
		1);
	/* An empty context line (its space stripped by a mailer). */
	ck_assert_int_eq(check(FILES "@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n", &e), 1);
	/* Two files, a mail's "---" and diffstat, a signature after. */
	ck_assert_int_eq(
		check("Subject: x\n\nmsg\n---\n lsm.c | 2 +-\n\n"
		      "diff --git a/x b/x\n" FILES
		      "@@ -1,2 +1,2 @@\n-a\n+b\n c\n"
		      "--- a/y\n+++ b/y\n@@ -0,0 +1 @@\n+new\n-- \n2.39.2\n\n",
		      &e),
		2);
	/* A removed line that reads "-- x" is a hunk's own. */
	ck_assert_int_eq(check(FILES "@@ -1,2 +1 @@\n--- x\n a\n", &e), 1);
}
END_TEST

START_TEST(test_diff_bad)
{
	struct err e;

	ck_assert_int_eq(check(HEAD "Only words.\n", &e), -1);
	ck_assert_str_eq(e.msg,
			 "m.patch: no diff in it (no \"--- \"/\"+++ \" lines)");
	ck_assert_int_eq(check(FILES "@@ -1,3 +1,3 @@\nzzz\n", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "line 4: the hunk of line 3"));
	ck_assert_ptr_nonnull(strstr(e.msg, "ends early"));
	ck_assert_int_eq(check(FILES "@@ -1,3 +1,3 @@\n a\n", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "is cut short"));
	ck_assert_int_eq(check(FILES "@@ -1,1 +1,1 @@\n-a\n+b\n+c\n", &e), -1);
	ck_assert_ptr_nonnull(
		strstr(e.msg, "more lines than its header counts"));
	ck_assert_int_eq(check(FILES "@@ garbage @@\n", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "line 3: not a hunk header"));
	ck_assert_int_eq(check(FILES "@@ -0,0 +0,0 @@\n", &e), -1);
	/* "@@" alone (fuzz_series): a header cut short, not read past. */
	ck_assert_int_eq(diff_check(FILES "@@", strlen(FILES) + 2, "m", &e),
			 -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "not a hunk header"));
	ck_assert_int_eq(check("@@ -1 +1 @@\n-a\n+b\n", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "a hunk outside a file"));
	ck_assert_int_eq(check(FILES "\n", &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "has no hunk"));
	ck_assert_int_eq(check(FILES "@@ -1 +1 @@\n-a\n+b\n--- a/y\nzz\n", &e),
			 -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "without its \"+++ \" line"));
	/* A control byte never makes the message two lines. */
	ck_assert_int_eq(check(FILES "@@ -1 +1 @@\nx\ry\n", &e), -1);
	one_line(&e);
}
END_TEST

START_TEST(test_rfc3339)
{
	ck_assert(is_rfc3339("2026-12-04T10:11:12Z"));
	ck_assert(is_rfc3339("2026-12-04t10:11:12.123456z"));
	ck_assert(is_rfc3339("2026-12-04T10:11:12+01:00"));
	ck_assert(is_rfc3339("2024-02-29T00:00:60-23:59"));
	ck_assert(!is_rfc3339("yesterday"));
	ck_assert(!is_rfc3339(""));
	ck_assert(!is_rfc3339("2026-12-04"));
	ck_assert(!is_rfc3339("2026-12-04 10:11:12Z"));
	ck_assert(!is_rfc3339("2026-12-04T10:11:12"));
	ck_assert(!is_rfc3339("2026-13-04T10:11:12Z"));
	ck_assert(!is_rfc3339("2026-04-31T10:11:12Z"));
	ck_assert(!is_rfc3339("2026-02-29T10:11:12Z"));
	ck_assert(!is_rfc3339("1900-02-29T10:11:12Z"));
	ck_assert(is_rfc3339("2000-02-29T10:11:12Z"));
	ck_assert(!is_rfc3339("2026-12-04T24:00:00Z"));
	ck_assert(!is_rfc3339("2026-12-04T10:11:12.Z"));
	ck_assert(!is_rfc3339("2026-12-04T10:11:12+0100"));
	ck_assert(!is_rfc3339("2026-12-04T10:11:12Zjunk"));
}
END_TEST

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	remove_tree(dir);
	strcpy(dir + strlen(dir) - 6, "XXXXXX");
}

int main(void)
{
	return CHECK_RUN_FIXTURE("input", setup, teardown, 0, test_read_input,
				 test_nul, test_diff_good, test_diff_bad,
				 test_rfc3339);
}
