// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lib.h"
#include "vm/seed.h"

START_TEST(test_names)
{
	ck_assert(seed_name_valid("0100a164d2eb9008-185.bin"));
	ck_assert(seed_name_valid("ffffffffffffffff-1.bin"));
	ck_assert(seed_name_valid("0000000000000000-4294967295.bin"));
	/* Upper case, short hashes, no length, other suffixes, paths. */
	ck_assert(!seed_name_valid("0100A164D2EB9008-185.bin"));
	ck_assert(!seed_name_valid("0100a164d2eb900-185.bin"));
	ck_assert(!seed_name_valid("0100a164d2eb9008-.bin"));
	ck_assert(!seed_name_valid("0100a164d2eb9008-18x.bin"));
	ck_assert(!seed_name_valid("0100a164d2eb9008-185.bin.1234"));
	ck_assert(!seed_name_valid("0100a164d2eb9008-12345678901.bin"));
	ck_assert(!seed_name_valid("../0100a164d2eb90-185.bin"));
	ck_assert(!seed_name_valid("parser"));
	ck_assert(!seed_name_valid(""));
}
END_TEST

CHECK_TMPDIR("/tmp/lsmconf-seed-XXXXXX")

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s/%s", root, dir, name);

	ck_assert_int_eq(write_file(path, text, strlen(text)), 0);
	free(path);
}

static char *get(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s/%s", root, dir, name), *buf;

	if (read_file(path, &buf, NULL))
		buf = NULL;
	free(path);
	return buf;
}

START_TEST(test_keep)
{
	char *seed = xasprintf("%s/seed", root),
	     *from = xasprintf("%s/out", root);
	struct err e;
	char *text;

	ck_assert_int_eq(mkdir(from, 0755), 0);
	ck_assert_int_eq(mkdir(seed, 0755), 0);
	put("out", "0100a164d2eb9008-3.bin", "new");
	put("out", "1111111111111111-3.bin", "dup");
	put("seed", "1111111111111111-3.bin", "old");
	put("out", "0100a164d2eb9008-3.bin.77", "half");
	put("out", "notes", "x");
	/* One new blob kept; the one there already stays as it was. */
	ck_assert_int_eq(seed_keep(seed, from, &e), 1);
	text = get("seed", "0100a164d2eb9008-3.bin");
	ck_assert_str_eq(text, "new");
	free(text);
	text = get("seed", "1111111111111111-3.bin");
	ck_assert_str_eq(text, "old");
	free(text);
	/* Only blobs: no half-written copy, nothing else. */
	ck_assert_ptr_null(get("seed", "0100a164d2eb9008-3.bin.77"));
	ck_assert_ptr_null(get("seed", "notes"));
	/* The results' copy is gone: a cache, not a result. */
	ck_assert(!path_exists(from));
	/* Nothing left there: nothing kept, no error. */
	ck_assert_int_eq(seed_keep(seed, from, &e), 0);
	remove_tree(seed);
	free(seed);
	free(from);
}
END_TEST

START_TEST(test_keep_creates_seed)
{
	char *seed = xasprintf("%s/a/b/seed", root);
	char *from = xasprintf("%s/out", root);
	struct err e;

	ck_assert_int_eq(mkdir(from, 0755), 0);
	put("out", "2222222222222222-9.bin", "blob");
	ck_assert_int_eq(seed_keep(seed, from, &e), 1);
	ck_assert(path_exists(seed));
	free(seed);
	free(from);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("seed");

	CHECK_TCASE(s, "names", NULL, NULL, test_names);
	CHECK_TCASE(s, "keep", setup, teardown, test_keep,
		    test_keep_creates_seed);
	return check_run_suite(s);
}
