// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "provision/lineage.h"

static char tmp[64];

static void setup(void)
{
	strcpy(tmp, "/tmp/lsmconf-test-lineage.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(tmp));
}

static void teardown(void)
{
	remove_tree(tmp);
}

/* A lineage of @base and patches named by one letter each ("abc"). */
static struct lineage of(const char *base, const char *patches)
{
	struct lineage l = { .base = xstrdup(base), .n = strlen(patches) };
	size_t i;

	l.hash = xcalloc(l.n + 1, sizeof(*l.hash));
	for (i = 0; i < l.n; i++)
		sha256_buf(&patches[i], 1, l.hash[i]);
	return l;
}

/* A cache entry @name of @l, complete or not. */
static void entry(const char *name, const struct lineage *l, bool complete)
{
	char *dir = xasprintf("%s/%s", tmp, name), *text = lineage_text(l);

	ck_assert_int_eq(mkdir_p(dir), 0);
	ck_assert_int_eq(write_file_at(dir, "lineage", text, strlen(text)), 0);
	if (complete)
		ck_assert_int_eq(write_file_at(dir, ".complete", "", 0), 0);
	free(text);
	free(dir);
}

START_TEST(test_text)
{
	struct lineage l = of("0123abcd", "xy"), back;
	char *text = lineage_text(&l);

	ck_assert_int_eq(lineage_parse(text, &back), 0);
	ck_assert_str_eq(back.base, "0123abcd");
	ck_assert_uint_eq(back.n, 2);
	ck_assert_str_eq(back.hash[1], l.hash[1]);
	lineage_free(&back);
	/* Not a lineage: no base, a short hash, a cut line, a stray line. */
	ck_assert_int_eq(lineage_parse("", &back), -1);
	ck_assert_int_eq(lineage_parse("patch 00\n", &back), -1);
	ck_assert_int_eq(lineage_parse("base k\npatch 00\n", &back), -1);
	ck_assert_int_eq(lineage_parse("base k", &back), -1);
	ck_assert_int_eq(lineage_parse("base k\nhello\n", &back), -1);
	free(text);
	lineage_free(&l);
}
END_TEST

START_TEST(test_distance)
{
	struct lineage abc = of("k", "abc"), abde = of("k", "abde");
	struct lineage other = of("j", "abc"), none = of("k", "");
	size_t c;

	/* c reverted, d and e applied. */
	ck_assert_uint_eq(lineage_distance(&abc, &abde, &c), 3);
	ck_assert_uint_eq(c, 2);
	ck_assert_uint_eq(lineage_distance(&none, &abde, &c), 4);
	ck_assert_uint_eq(c, 0);
	ck_assert_uint_eq(lineage_distance(&abc, &abc, &c), 0);
	ck_assert_uint_eq(c, 3);
	/* Another source or config: never a neighbour. */
	ck_assert_uint_eq(lineage_distance(&other, &abc, &c), (size_t)-1);
	lineage_free(&abc);
	lineage_free(&abde);
	lineage_free(&other);
	lineage_free(&none);
}
END_TEST

START_TEST(test_nearest)
{
	struct lineage want = of("k", "abcdef"), l, found;
	char *root;

	/* Nothing built: the unpatched build is as near as it gets. */
	ck_assert_ptr_null(lineage_nearest(tmp, &want, &found));
	l = of("k", "abc");
	entry("e-abc", &l, true);
	lineage_free(&l);
	l = of("k", "abcdefg");
	entry("f-abcdefg", &l, false); /* nearer, but not complete */
	lineage_free(&l);
	l = of("j", "abcde");
	entry("g-other", &l, true); /* nearer, another base */
	lineage_free(&l);
	l = of("k", "abcdef");
	entry("h-itself", &l, true); /* the build being made */
	lineage_free(&l);
	root = lineage_nearest(tmp, &want, &found);
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(strrchr(root, '/'), "/e-abc");
	ck_assert_uint_eq(found.n, 3);
	free(root);
	lineage_free(&found);
	/* One apply away either way: the one that needs no revert wins. */
	l = of("k", "abcdefg");
	entry("a-abcdefg", &l, true);
	lineage_free(&l);
	l = of("k", "abcde");
	entry("z-abcde", &l, true);
	lineage_free(&l);
	root = lineage_nearest(tmp, &want, &found);
	ck_assert_str_eq(strrchr(root, '/'), "/z-abcde");
	free(root);
	lineage_free(&found);
	/* A full tie goes to the first name, whatever readdir's order. */
	l = of("k", "abcde");
	entry("b-abcde", &l, true);
	lineage_free(&l);
	root = lineage_nearest(tmp, &want, &found);
	ck_assert_str_eq(strrchr(root, '/'), "/b-abcde");
	free(root);
	lineage_free(&found);
	/* A corrupt lineage is skipped, not trusted. */
	entry("0-corrupt", &(struct lineage){ .base = "k" }, true);
	ck_assert_int_eq(write_file_at(tmp, "0-corrupt/lineage",
				       "base k\npatch x\n", 15),
			 0);
	root = lineage_nearest(tmp, &want, &found);
	ck_assert_str_eq(strrchr(root, '/'), "/b-abcde");
	free(root);
	lineage_free(&found);
	lineage_free(&want);
}
END_TEST

int main(void)
{
	return CHECK_RUN_FIXTURE("lineage", setup, teardown, 30, test_text,
				 test_distance, test_nearest);
}
