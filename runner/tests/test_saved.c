// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>

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
}
END_TEST

int main(void)
{
	return CHECK_RUN("saved", test_value, test_group, test_verdict);
}
