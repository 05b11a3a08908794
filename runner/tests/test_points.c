// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis/points.h"

/* Every point of @list as "A|B" joined by spaces; a bad one as "!TEXT". */
static void walk(const char *list, char *out, size_t size)
{
	const char *p = list;
	struct point pt;
	size_t len = 0;
	int r;

	out[0] = '\0';
	while ((r = point_next(&p, &pt)) && len < size) {
		if (r < 0)
			len += snprintf(out + len, size - len, "%s!%.*s",
					len ? " " : "", pt.len, pt.text);
		else
			len += snprintf(out + len, size - len, "%s%.*s|%.*s",
					len ? " " : "", pt.alen, pt.text,
					pt.blen, pt.b);
	}
}

START_TEST(test_point_next)
{
	char out[256];

	walk("socketpair:none", out, sizeof(out));
	ck_assert_str_eq(out, "socketpair|none");
	walk("  a:b   c:d ", out, sizeof(out));
	ck_assert_str_eq(out, "a|b c|d");
	/* Only the first ':' splits; empty sides are the checker's. */
	walk("a:b:c :x y:", out, sizeof(out));
	ck_assert_str_eq(out, "a|b:c |x y|");
	walk("plain a:b", out, sizeof(out));
	ck_assert_str_eq(out, "!plain a|b");
	walk("", out, sizeof(out));
	ck_assert_str_eq(out, "");
	walk("   ", out, sizeof(out));
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(test_point_next_bad_is_einval)
{
	const char *p = "x y:z";
	struct point pt;

	ck_assert_int_eq(point_next(&p, &pt), -EINVAL);
	ck_assert_int_eq(pt.len, 1);
	ck_assert_int_eq(point_next(&p, &pt), 1);
	ck_assert_int_eq(point_next(&p, &pt), 0);
	ck_assert_int_eq(point_next(&p, &pt), 0);
}
END_TEST

START_TEST(test_names_join)
{
	static const char *const names[] = { "none", "high", "low" };
	char buf[32], small[8];

	ck_assert_str_eq(names_join(names, 3, buf, sizeof(buf)),
			 "none, high, low");
	ck_assert_str_eq(names_join(names, 0, buf, sizeof(buf)), "");
	/* Cut, never past the buffer. */
	ck_assert_str_eq(names_join(names, 3, small, sizeof(small)), "none, h");
}
END_TEST

int main(void)
{
	return CHECK_RUN("points", test_point_next,
			 test_point_next_bad_is_einval, test_names_join);
}
