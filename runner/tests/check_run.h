/* SPDX-License-Identifier: GPL-2.0 */
/* Runs one Check suite of the given tests; the unit tests' main(). */
#ifndef LSMCONF_CHECK_RUN_H
#define LSMCONF_CHECK_RUN_H

#include <check.h>
#include <stdlib.h>

/*
 * A test case's own directory: CHECK_TMPDIR(PATH) defines root, PATH
 * ("/tmp/NAME-XXXXXX"), and the fixture setup() that makes it and
 * teardown() that removes it with all it holds and puts the template
 * back for the next test. The file includes lib/lib.h (remove_tree).
 */
#define CHECK_TMPDIR(path)                                 \
	static char root[] = path;                         \
	static void setup(void)                            \
	{                                                  \
		ck_assert_ptr_nonnull(mkdtemp(root));      \
	}                                                  \
	static void teardown(void)                         \
	{                                                  \
		remove_tree(root);                         \
		strcpy(root + strlen(root) - 6, "XXXXXX"); \
	}

/* Runs @s (freed here); the exit status of a unit test's main(). */
static inline int check_run_suite(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

/*
 * A test case @name of @tests in @s, @setup and @teardown around each
 * test (NULL: none).
 */
static inline TCase *check_tcase(Suite *s, const char *name, SFun setup,
				 SFun teardown, const TTest *const *tests,
				 size_t n)
{
	TCase *tc = tcase_create(name);
	size_t i;

	if (setup || teardown)
		tcase_add_checked_fixture(tc, setup, teardown);
	for (i = 0; i < n; i++)
		tcase_add_test(tc, tests[i]);
	suite_add_tcase(s, tc);
	return tc;
}

/*
 * One test case of @tests (see check_tcase()); @timeout_s replaces
 * Check's default per-test bound when not 0.
 */
static inline int check_run_fixture(const char *name, SFun setup, SFun teardown,
				    double timeout_s, const TTest *const *tests,
				    size_t n)
{
	Suite *s = suite_create(name);
	TCase *tc = check_tcase(s, "core", setup, teardown, tests, n);

	if (timeout_s)
		tcase_set_timeout(tc, timeout_s);
	return check_run_suite(s);
}

static inline int check_run(const char *name, const TTest *const *tests,
			    size_t n)
{
	return check_run_fixture(name, NULL, NULL, 0, tests, n);
}

#define CHECK_TCASE(s, name, setup, teardown, ...)               \
	({                                                       \
		const TTest *const tests_[] = { __VA_ARGS__ };   \
		check_tcase(s, name, setup, teardown, tests_,    \
			    sizeof(tests_) / sizeof(tests_[0])); \
	})

#define CHECK_RUN_FIXTURE(name, setup, teardown, timeout_s, ...)            \
	({                                                                  \
		const TTest *const tests_[] = { __VA_ARGS__ };              \
		check_run_fixture(name, setup, teardown, timeout_s, tests_, \
				  sizeof(tests_) / sizeof(tests_[0]));      \
	})

#define CHECK_RUN(name, ...)                                                 \
	({                                                                   \
		const TTest *const tests_[] = { __VA_ARGS__ };               \
		check_run(name, tests_, sizeof(tests_) / sizeof(tests_[0])); \
	})

#endif
