// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/vm/guest.c's plan and runner/vm/image.c: their
 * failures come back as one-line errors.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vm/guest.h"
#include "vm/image.h"
#include "lib/lib.h"

static char dir[64];

static void setup(void)
{
	strcpy(dir, "/tmp/lsmconf-test-guest-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	remove_tree(dir);
}

static void touch(const char *name, mode_t mode)
{
	char *path = xasprintf("%s/%s", dir, name);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "x", 1), 1);
	close(fd);
	free(path);
}

START_TEST(test_plan_sorted)
{
	struct plan p;
	struct err e;

	touch("b_test", 0755);
	touch("a_test", 0755);
	touch("notes.txt", 0644);
	ck_assert_int_eq(plan_make(&p, dir, NULL, 0, "-v", 30, &e), 0);
	ck_assert_uint_eq(p.n, 2);
	ck_assert_str_eq(p.items[0].name, "a_test");
	ck_assert_str_eq(p.items[1].name, "b_test");
	ck_assert_str_eq(p.items[1].args, "-v");
	ck_assert_int_eq(p.items[0].timeout_s, 30);
	plan_free(&p);
}
END_TEST

START_TEST(test_plan_empty)
{
	struct plan p;
	struct err e;
	char *want = xasprintf("no tests in %s", dir);

	touch("notes.txt", 0644);
	ck_assert_int_eq(plan_make(&p, dir, NULL, 0, NULL, 30, &e), -1);
	ck_assert_str_eq(e.msg, want);
	ck_assert_uint_eq(p.n, 0);
	ck_assert_ptr_null(p.items);
	free(want);
}
END_TEST

START_TEST(test_plan_no_dir)
{
	struct plan p;
	struct err e;

	ck_assert_int_eq(
		plan_make(&p, "/nonexistent/lsmconf", NULL, 0, NULL, 30, &e),
		-1);
	ck_assert_str_eq(
		e.msg,
		"cannot read the test directory /nonexistent/lsmconf: No such file or directory (run make first)");
	ck_assert_uint_eq(p.n, 0);
}
END_TEST

START_TEST(test_plan_only_missing)
{
	char *only[] = { "a_test", "gone_test" };
	struct plan p;
	struct err e;
	char *want = xasprintf("no test program %s/gone_test", dir);

	touch("a_test", 0755);
	ck_assert_int_eq(plan_make(&p, dir, only, 2, NULL, 30, &e), -1);
	ck_assert_str_eq(e.msg, want);
	ck_assert_uint_eq(p.n, 0);
	free(want);
}
END_TEST

START_TEST(test_image_ok)
{
	char *path = xasprintf("%s/i.cpio", dir);
	struct image *img = image_create(path);
	struct err e;

	image_data(img, "a/b/c", "hello", 5, 0644);
	image_symlink(img, "a/l", "b");
	ck_assert_int_eq(image_close(img, &e), 0);
	ck_assert(path_exists(path));
	free(path);
}
END_TEST

START_TEST(test_image_cannot_create)
{
	struct image *img = image_create("/nonexistent/lsmconf/i.cpio");
	struct err e;

	image_data(img, "a", "x", 1, 0644);
	ck_assert_int_eq(image_close(img, &e), -1);
	ck_assert_msg(
		!strncmp(e.msg,
			 "cannot create /nonexistent/lsmconf/i.cpio: ", 43),
		"%s", e.msg);
}
END_TEST

START_TEST(test_image_first_error_kept)
{
	char *path = xasprintf("%s/i.cpio", dir);
	struct image *img = image_create(path);
	struct err e;

	image_file(img, "bin/x", "/nonexistent/lsmconf/x", 0755);
	image_tree(img, "etc", "/nonexistent/lsmconf/etc");
	image_data(img, "ok", "x", 1, 0644);
	ck_assert_int_eq(image_close(img, &e), -1);
	ck_assert_str_eq(
		e.msg,
		"cannot read /nonexistent/lsmconf/x: No such file or directory");
	free(path);
}
END_TEST

START_TEST(test_image_tree_not_dir)
{
	char *path = xasprintf("%s/i.cpio", dir);
	char *file = xasprintf("%s/profiles", dir);
	char *want = xasprintf("cannot read %s: Not a directory", file);
	struct image *img = image_create(path);
	struct err e;

	touch("profiles", 0644);
	image_dir(img, "proc");
	image_tree(img, "lsmconf/profiles", file);
	ck_assert_int_eq(image_close(img, &e), -1);
	ck_assert_str_eq(e.msg, want);
	free(want);
	free(file);
	free(path);
}
END_TEST

static Suite *guest_suite(void)
{
	Suite *s = suite_create("guest");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_plan_sorted);
	tcase_add_test(tc, test_plan_empty);
	tcase_add_test(tc, test_plan_no_dir);
	tcase_add_test(tc, test_plan_only_missing);
	tcase_add_test(tc, test_image_ok);
	tcase_add_test(tc, test_image_cannot_create);
	tcase_add_test(tc, test_image_first_error_kept);
	tcase_add_test(tc, test_image_tree_not_dir);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(guest_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
