// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/provision/deb.c: packages built here (ar + tar, as
 * dpkg-deb reads them), extracted for real into a temporary directory.
 */
#include "check_run.h"

#include <archive.h>
#include <archive_entry.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/lib.h"
#include "provision/deb.h"

struct ent {
	const char *path;
	const char *data; /* a file's content, or NULL for a symlink */
	const char *link; /* a symlink's target */
};

/* A ustar archive of @ents, in memory. */
static char *make_tar(const struct ent *ents, size_t n, size_t *len)
{
	size_t cap = 1 << 16;
	char *buf = xmalloc(cap);
	struct archive *a = archive_write_new();
	size_t i;

	ck_assert_int_eq(archive_write_set_format_ustar(a), ARCHIVE_OK);
	ck_assert_int_eq(archive_write_open_memory(a, buf, cap, len),
			 ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		size_t size = ents[i].data ? strlen(ents[i].data) : 0;

		archive_entry_set_pathname(e, ents[i].path);
		archive_entry_set_perm(e, 0644);
		if (ents[i].data) {
			archive_entry_set_filetype(e, AE_IFREG);
			archive_entry_set_size(e, size);
		} else {
			archive_entry_set_filetype(e, AE_IFLNK);
			archive_entry_set_symlink(e, ents[i].link);
		}
		ck_assert_int_eq(archive_write_header(a, e), ARCHIVE_OK);
		if (size)
			ck_assert_int_eq(
				archive_write_data(a, ents[i].data, size),
				(la_ssize_t)size);
		archive_entry_free(e);
	}
	ck_assert_int_eq(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	return buf;
}

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
static char *make_deb(const struct ent *ents, size_t n)
{
	static const struct ent control[] = {
		{ "./control",
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
	tar = make_tar(control, 1, &len);
	ar_member(f, "control.tar", tar, len);
	free(tar);
	tar = make_tar(ents, n, &len);
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
	static const struct ent ents[] = {
		{ "./usr/lib/a", "a\n", NULL },
		{ "./usr/lib/build", NULL, "../../src" },
		{ "./usr/lib/builder", "b\n", NULL },
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
	const struct ent ents[] = {
		{ "./ok", "x\n", NULL },
		{ "./link", NULL, target },
		{ "./link/evil", "x\n", NULL },
		{ "./after", "x\n", NULL },
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
		const struct ent ents[] = {
			{ "./link", NULL, dir },
			{ names[i], "x\n", NULL },
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
		const struct ent ents[] = { { bad[i], "x\n", NULL } };
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
	static const struct ent ents[] = {
		{ "./..x", "x\n", NULL },
		{ "./a/x..", "x\n", NULL },
		{ "./.../b", "x\n", NULL },
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
