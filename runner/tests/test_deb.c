// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/provision/deb.c: packages built here (ar + tar, as
 * dpkg-deb reads them), extracted for real into a temporary directory.
 */
#include "check_run.h"
#include "tar_fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/lib.h"
#include "provision/deb.h"

/* One member of an ar archive (the .deb container). */
static void ar_member(FILE *f, const char *name, const char *data, size_t n)
{
	fprintf(f, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name, "0", "0", "0",
		"100644", n);
	fwrite(data, 1, n, f);
	if (n % 2)
		fputc('\n', f);
}

static char dir[] = "/tmp/lsmconf-test-deb-XXXXXX";

/* @dir/t.deb holding @ents as its data. */
static char *make_deb(const struct tar_ent *ents, size_t n)
{
	static const struct tar_ent control[] = {
		{ "./control", AE_IFREG,
		  "Package: t\nVersion: 1\nArchitecture: all\n"
		  "Maintainer: t <t@example.invalid>\nDescription: t\n",
		  NULL },
	};
	char *path = xasprintf("%s/t.deb", dir), *tar;
	size_t len;
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	fputs("!<arch>\n", f);
	ar_member(f, "debian-binary", "2.0\n", 4);
	tar = tar_make(control, 1, false, &len);
	ar_member(f, "control.tar", tar, len);
	free(tar);
	tar = tar_make(ents, n, false, &len);
	ar_member(f, "data.tar", tar, len);
	free(tar);
	ck_assert_int_eq(fclose(f), 0);
	return path;
}

/* Every member into @dir/out, by its path (source.c's pick_all). */
static char *pick_all(const char *path, void *ctx)
{
	return xasprintf("%s/%s", (const char *)ctx, path);
}

static char *out;

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	out = xasprintf("%s/out", dir);
	ck_assert_int_eq(mkdir_p(out), 0);
}

static void teardown(void)
{
	remove_tree(dir);
	strcpy(dir + strlen(dir) - 6, "XXXXXX");
	free(out);
}

static bool exists_in(const char *sub)
{
	char *p = xasprintf("%s/%s", dir, sub);
	bool yes = !access(p, F_OK);

	free(p);
	return yes;
}

START_TEST(test_plain_package)
{
	/* A symlink may point anywhere, even up: it is never followed. */
	static const struct tar_ent ents[] = {
		{ "./usr/lib/a", AE_IFREG, "a\n", NULL },
		{ "./usr/lib/build", AE_IFLNK, NULL, "../../src" },
		{ "./usr/lib/builder", AE_IFREG, "b\n", NULL },
	};
	char *deb = make_deb(ents, 3), err[512];

	ck_assert_int_eq(
		deb_extract(deb, NULL, pick_all, out, err, sizeof(err)), 3);
	ck_assert(exists_in("out/usr/lib/a"));
	ck_assert(exists_in("out/usr/lib/builder"));
	free(deb);
}
END_TEST

/* Before the fix this wrote @dir/evil through out/link. */
START_TEST(test_under_symlink)
{
	char *target = xasprintf("%s", dir), *deb, err[512], *want;
	const struct tar_ent ents[] = {
		{ "./ok", AE_IFREG, "x\n", NULL },
		{ "./link", AE_IFLNK, NULL, target },
		{ "./link/evil", AE_IFREG, "x\n", NULL },
		{ "./after", AE_IFREG, "x\n", NULL },
	};

	deb = make_deb(ents, 4);
	ck_assert_int_eq(
		deb_extract(deb, NULL, pick_all, out, err, sizeof(err)), -1);
	want = xasprintf(
		"unsafe package %s: refusing member link/evil: it is under the symlink %s/link the package made",
		deb, out);
	ck_assert_str_eq(err, want);
	ck_assert(!exists_in("evil"));
	ck_assert(exists_in("out/ok"));
	ck_assert(!exists_in("out/after"));
	free(want);
	free(deb);
	free(target);
}
END_TEST

/* The same link spelt differently: still the link. */
START_TEST(test_under_symlink_spelt)
{
	static const char *const names[] = { "././link/evil", ".//link/evil",
					     "./link/./evil", "./link//evil" };
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct tar_ent ents[] = {
			{ "./link", AE_IFLNK, NULL, dir },
			{ names[i], AE_IFREG, "x\n", NULL },
		};
		char *deb = make_deb(ents, 2), err[512];

		ck_assert_int_eq(
			deb_extract(deb, NULL, pick_all, out, err, sizeof(err)),
			-1);
		ck_assert_msg(strstr(err, "under the symlink"), "%s: %s",
			      names[i], err);
		ck_assert(!exists_in("evil"));
		free(deb);
	}
}
END_TEST

/* Before the fix this wrote @dir/up. */
START_TEST(test_dotdot)
{
	static const char *const bad[] = { "./../up", "./a/../../up", "./..",
					   "./a/.." };
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const struct tar_ent ents[] = { { bad[i], AE_IFREG, "x\n",
						  NULL } };
		char *deb = make_deb(ents, 1), err[512], *want;

		ck_assert_int_eq(
			deb_extract(deb, NULL, pick_all, out, err, sizeof(err)),
			-1);
		want = xasprintf(
			"unsafe package %s: refusing member %s: it has a '..' component",
			deb, bad[i] + 2);
		ck_assert_str_eq(err, want);
		ck_assert(!exists_in("up"));
		free(want);
		free(deb);
	}
}
END_TEST

/* "..x" and "x.." are names, not the parent. */
START_TEST(test_dots_in_names)
{
	static const struct tar_ent ents[] = {
		{ "./..x", AE_IFREG, "x\n", NULL },
		{ "./a/x..", AE_IFREG, "x\n", NULL },
		{ "./.../b", AE_IFREG, "x\n", NULL },
	};
	char *deb = make_deb(ents, 3), err[512];

	ck_assert_int_eq(
		deb_extract(deb, NULL, pick_all, out, err, sizeof(err)), 3);
	ck_assert(exists_in("out/..x"));
	ck_assert(exists_in("out/a/x.."));
	ck_assert(exists_in("out/.../b"));
	free(deb);
}
END_TEST

int main(void)
{
	return CHECK_RUN_FIXTURE("deb", setup, teardown, 0, test_plain_package,
				 test_under_symlink, test_under_symlink_spelt,
				 test_dotdot, test_dots_in_names);
}
