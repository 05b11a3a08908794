// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lib.h"
#include "provision/retarget.h"

#define OLD "/c/builds/439a497f7d248391/tree/"
#define NEW "/c/builds/59481a4ccf1749b2/tree/"

START_TEST(test_text)
{
	char *buf = xstrdup("cmd_" OLD "o/a.o := gcc -I" OLD
			    "tools/include " OLD "x.c\n");
	size_t len = strlen(buf);

	ck_assert_uint_eq(retarget_text(&buf, &len, OLD, NEW), 3);
	ck_assert_uint_eq(len, strlen(buf));
	ck_assert_str_eq(buf, "cmd_" NEW "o/a.o := gcc -I" NEW
			      "tools/include " NEW "x.c\n");
	/* Nothing to replace: untouched; an empty pattern replaces nothing. */
	ck_assert_uint_eq(retarget_text(&buf, &len, OLD, NEW), 0);
	ck_assert_uint_eq(retarget_text(&buf, &len, "", NEW), 0);
	free(buf);
	/* Another length, at both ends. */
	buf = xstrdup("abXab");
	len = 5;
	ck_assert_uint_eq(retarget_text(&buf, &len, "ab", "long"), 2);
	ck_assert_str_eq(buf, "longXlong");
	ck_assert_uint_eq(len, 9);
	free(buf);
}
END_TEST

CHECK_TMPDIR("/tmp/lsmconf-retarget-XXXXXX")

static void put(const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", root, name);
	struct timespec old[2] = { { 1000000, 0 }, { 1000000, 0 } };

	ck_assert_int_eq(write_file(path, text, strlen(text)), 0);
	ck_assert_int_eq(utimensat(AT_FDCWD, path, old, 0), 0);
	free(path);
}

static char *get(const char *name, time_t *mtime)
{
	char *path = xasprintf("%s/%s", root, name), *buf;
	struct stat st;

	ck_assert_int_eq(read_file(path, &buf, NULL), 0);
	ck_assert_int_eq(stat(path, &st), 0);
	*mtime = st.st_mtime;
	free(path);
	return buf;
}

START_TEST(test_tools)
{
	char *sub = xasprintf("%s/objtool/arch", root), *text;
	struct err e;
	time_t mt;

	ck_assert_int_eq(mkdir_p(sub), 0);
	put("objtool/.check.o.cmd", "cmd_" OLD "o/check.o := gcc\n");
	put("objtool/arch/.decode.o.d", OLD "o/decode.o: " OLD "decode.c\n");
	put("objtool/check.c", OLD "\n");
	put("objtool/.other", OLD "\n");
	put("objtool/.fine.o.cmd", "nothing absolute\n");
	ck_assert_int_eq(retarget_tools(root, OLD, NEW, &e), 2);
	text = get("objtool/.check.o.cmd", &mt);
	ck_assert_str_eq(text, "cmd_" NEW "o/check.o := gcc\n");
	/* Its time kept: make compares times. */
	ck_assert_int_eq(mt, 1000000);
	free(text);
	text = get("objtool/arch/.decode.o.d", &mt);
	ck_assert_str_eq(text, NEW "o/decode.o: " NEW "decode.c\n");
	free(text);
	/* Only dependency files: sources and other dot files stay. */
	text = get("objtool/check.c", &mt);
	ck_assert_str_eq(text, OLD "\n");
	free(text);
	text = get("objtool/.other", &mt);
	ck_assert_str_eq(text, OLD "\n");
	free(text);
	/* No tools directory (a config without objtool): nothing to do. */
	free(sub);
	sub = xasprintf("%s/none", root);
	ck_assert_int_eq(retarget_tools(sub, OLD, NEW, &e), 0);
	free(sub);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("retarget");

	CHECK_TCASE(s, "text", NULL, NULL, test_text);
	CHECK_TCASE(s, "tools", setup, teardown, test_tools);
	return check_run_suite(s);
}
