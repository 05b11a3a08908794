// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/provision/coverage.c: the coverage build's tree
 * edits (gcov for the LSMs' directories, the framework and AF_UNIX), made
 * on a tree hard-linked to its pristine source without touching it, once.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "provision/coverage.h"
#include "lib/lib.h"
#include "check_run.h"

CHECK_TMPDIR("/tmp/lsmconf-coverage-XXXXXX")

static const char *const makefiles[] = { "security/apparmor/Makefile",
					 "security/selinux/Makefile",
					 "security/Makefile",
					 "net/unix/Makefile" };

/* pristine/ and tree/ (every file a hard link to pristine's), no Landlock. */
static void make_trees(void)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(makefiles); i++) {
		char *p = xasprintf("%s/pristine/%s", root, makefiles[i]);
		char *t = xasprintf("%s/tree/%s", root, makefiles[i]);
		char *d = xstrndup(t, strrchr(t, '/') - t);
		char *pd = xstrndup(p, strrchr(p, '/') - p);

		ck_assert_int_eq(mkdir_p(pd), 0);
		ck_assert_int_eq(mkdir_p(d), 0);
		ck_assert_int_eq(write_file(p, "obj-y += x.o\n", 13), 0);
		ck_assert_int_eq(link(p, t), 0);
		free(p);
		free(t);
		free(d);
		free(pd);
	}
}

static char *text_of(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s/%s", root, dir, name), *text = NULL;
	size_t len;

	ck_assert_int_eq(read_file(p, &text, &len), 0);
	free(p);
	return text;
}

START_TEST(test_profile_tree)
{
	char *tree = xasprintf("%s/tree", root), *t;
	struct err e = { 0 };
	size_t i;

	make_trees();
	ck_assert_int_eq(coverage_profile_tree(tree, &e), 0);
	for (i = 0; i < ARRAY_SIZE(makefiles); i++) {
		/* The pristine source is as it was. */
		t = text_of("pristine", makefiles[i]);
		ck_assert_str_eq(t, "obj-y += x.o\n");
		free(t);
	}
	t = text_of("tree", "security/apparmor/Makefile");
	ck_assert_ptr_nonnull(strstr(t, "obj-y += x.o\n"));
	ck_assert_ptr_nonnull(strstr(t, "\nGCOV_PROFILE := y\n"));
	free(t);
	t = text_of("tree", "security/Makefile");
	ck_assert_ptr_nonnull(strstr(t, "\nGCOV_PROFILE_security.o := y\n"));
	ck_assert_ptr_nonnull(
		strstr(t, "\nGCOV_PROFILE_lsm_syscalls.o := y\n"));
	ck_assert_ptr_null(strstr(t, "\nGCOV_PROFILE := y\n"));
	free(t);
	t = text_of("tree", "net/unix/Makefile");
	ck_assert_ptr_nonnull(strstr(t, "\nGCOV_PROFILE_af_unix.o := y\n"));
	free(t);
	/* A tree edited before (a neighbour's copy) is left as it is. */
	ck_assert_int_eq(coverage_profile_tree(tree, &e), 0);
	t = text_of("tree", "security/selinux/Makefile");
	ck_assert_ptr_null(
		strstr(strstr(t, "GCOV_PROFILE") + 1, "GCOV_PROFILE"));
	free(t);
	/* No Landlock Makefile in this tree, and none was made. */
	t = xasprintf("%s/tree/security/landlock/Makefile", root);
	ck_assert(!path_exists(t));
	free(t);
	free(tree);
}
END_TEST

START_TEST(test_unreadable)
{
	char *tree = xasprintf("%s/tree", root), *mk;
	struct err e = { 0 };

	make_trees();
	/* A directory where the Makefile should be: it cannot be read. */
	mk = xasprintf("%s/tree/security/selinux/Makefile", root);
	ck_assert_int_eq(unlink(mk), 0);
	ck_assert_int_eq(mkdir(mk, 0755), 0);
	ck_assert_int_eq(coverage_profile_tree(tree, &e), -1);
	ck_assert(e.host);
	ck_assert_ptr_nonnull(strstr(e.msg, "security/selinux/Makefile"));
	free(mk);
	free(tree);
}
END_TEST

START_TEST(test_key_text)
{
	char *k = coverage_key_text();

	/* The fragment and the edits: either changed makes another build. */
	ck_assert_ptr_nonnull(strstr(k, "CONFIG_GCOV_KERNEL=y"));
	ck_assert_ptr_nonnull(
		strstr(k, "security/apparmor/Makefile: GCOV_PROFILE := y"));
	free(k);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("coverage");
	TCase *tc = tcase_create("coverage");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_profile_tree);
	tcase_add_test(tc, test_unreadable);
	tcase_add_test(tc, test_key_text);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
