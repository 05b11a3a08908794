// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/vm/xfer.c: xfer_untar(), for real, in scratch
 * directories: what the guest sends lands in the directory it is given,
 * and nothing an archive says can write outside it.
 */
#include "check_run.h"
#include "xfer_fixture.h"

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "vm/xfer.h"

static char *tar, *buf;
static size_t tar_len, len, off;
static const char *payload;
static size_t plen;
static char err[256];

/* All scratch directories, removed by main() even when a test failed. */
static char root[64];
static char cwd[4096], parent[128];

static void untar_setup(void)
{
	snprintf(parent, sizeof(parent), "%s/XXXXXX", root);
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_ptr_nonnull(mkdtemp(parent));
	/* Relative paths below are relative to @parent. */
	ck_assert_int_eq(chdir(parent), 0);
	ck_assert_int_eq(mkdir("out", 0755), 0);
	tar = NULL;
	strcpy(err, "untouched");
}

static void untar_teardown(void)
{
	free(tar);
	tar = NULL;
	if (chdir(cwd))
		perror(cwd);
	remove_tree(parent);
}

static void check_file(const char *path, const char *want)
{
	char *got = NULL;
	size_t n = 0;

	ck_assert_msg(read_file(path, &got, &n) == 0, "%s: missing", path);
	ck_assert_uint_eq(n, strlen(want));
	ck_assert_str_eq(got, want);
	free(got);
}

static void check_results(const char *dir)
{
	char *p;
	struct stat st;

	p = xasprintf("%s/uname", dir);
	check_file(p, uname_txt);
	free(p);
	p = xasprintf("%s/tests/a.ktap", dir);
	check_file(p, ktap_txt);
	free(p);
	p = xasprintf("%s/tests", dir);
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	free(p);
}

START_TEST(test_untar_relative_dir)
{
	tar = tar_make(results_tar, 3, false, &tar_len);
	ck_assert_int_eq(xfer_untar(tar, tar_len, "out", err, sizeof(err)), 2);
	check_results("out");
}
END_TEST

START_TEST(test_untar_gzipped)
{
	tar = tar_make(results_tar, 3, true, &tar_len);
	/* gzip's magic, not a tar header. */
	ck_assert_int_eq((unsigned char)tar[0], 0x1f);
	ck_assert_int_eq(xfer_untar(tar, tar_len, "out", err, sizeof(err)), 2);
	check_results("out");
}
END_TEST

START_TEST(test_untar_absolute_dir)
{
	/* session.c untars into "<results>/<kernel>/guest"; --results may be absolute. */
	char *dir = xasprintf("%s/out", parent);
	int n;

	tar = tar_make(results_tar, 3, false, &tar_len);
	n = xfer_untar(tar, tar_len, dir, err, sizeof(err));
	ck_assert_msg(n == 2, "xfer_untar into %s returned %d: %s", dir, n,
		      n < 0 ? err : "");
	check_results(dir);
	free(dir);
}
END_TEST

START_TEST(test_untar_framed)
{
	/* What the guest sends, end to end. */
	tar = tar_make(results_tar, 3, false, &tar_len);
	buf = frame(noise, sizeof(noise) - 1, tar, tar_len, TAIL, &len, &off);
	ck_assert_int_eq(
		xfer_parse(buf, len, &payload, &plen, err, sizeof(err)), 0);
	ck_assert_int_eq(xfer_untar(payload, plen, "out", err, sizeof(err)), 2);
	check_results("out");
	free(buf);
	buf = NULL;
}
END_TEST

START_TEST(test_untar_dotdot)
{
	static const struct tar_ent evil[] = {
		{ "uname", AE_IFREG, uname_txt, NULL },
		{ "../evil", AE_IFREG, "gotcha\n", NULL },
	};
	struct stat st;
	int n;

	tar = tar_make(evil, ARRAY_SIZE(evil), false, &tar_len);
	n = xfer_untar(tar, tar_len, "out", err, sizeof(err));
	ck_assert_msg(stat("evil", &st) && stat("../evil", &st),
		      "\"../evil\" was written outside the directory");
	ck_assert_msg(n == -1 || n == 1, "returned %d", n);
	if (n == -1)
		ck_assert_msg(!strncmp(err, "results: ", 9) && err[9],
			      "error \"%s\"", err);
}
END_TEST

START_TEST(test_untar_absolute_entry)
{
	char *abs = xasprintf("%s/abs-evil", parent);
	const struct tar_ent evil[] = {
		{ abs, AE_IFREG, "gotcha\n", NULL },
	};
	struct stat st;
	int n;

	tar = tar_make(evil, ARRAY_SIZE(evil), false, &tar_len);
	n = xfer_untar(tar, tar_len, "out", err, sizeof(err));
	ck_assert_msg(stat(abs, &st), "%s was written", abs);
	ck_assert_msg(n == -1 || n == 1, "returned %d", n);
	free(abs);
}
END_TEST

START_TEST(test_untar_symlink_skipped)
{
	static const struct tar_ent links[] = {
		{ "tests/", AE_IFDIR, NULL, NULL },
		{ "tests/passwd", AE_IFLNK, NULL, "/etc/passwd" },
		{ "up", AE_IFLNK, NULL, ".." },
		{ "uname", AE_IFREG, uname_txt, NULL },
	};
	struct stat st;

	tar = tar_make(links, ARRAY_SIZE(links), false, &tar_len);
	ck_assert_int_eq(xfer_untar(tar, tar_len, "out", err, sizeof(err)), 1);
	ck_assert_int_ne(lstat("out/tests/passwd", &st), 0);
	ck_assert_int_ne(lstat("out/up", &st), 0);
	check_file("out/uname", uname_txt);
}
END_TEST

/*
 * A ustar archive of one hard link entry that carries data (the libarchive
 * writer drops the data of hard links; other tars need not).
 */
static char *hardlink_tar(const char *name, const char *target,
			  const char *data, size_t *len)
{
	size_t n = strlen(data), blocks = (n + 511) / 512, i;
	unsigned int sum = 0;
	char *t;

	*len = 512 + blocks * 512 + 1024;
	t = calloc(1, *len);
	ck_assert_ptr_nonnull(t);
	strcpy(t, name);
	snprintf(t + 100, 8, "%07o", 0644);
	snprintf(t + 108, 8, "%07o", 0);
	snprintf(t + 116, 8, "%07o", 0);
	snprintf(t + 124, 12, "%011zo", n);
	snprintf(t + 136, 12, "%011o", 1700000000);
	memset(t + 148, ' ', 8);
	t[156] = '1';
	strcpy(t + 157, target);
	memcpy(t + 257,
	       "ustar\0"
	       "00",
	       8);
	for (i = 0; i < 512; i++)
		sum += (unsigned char)t[i];
	snprintf(t + 148, 7, "%06o", sum);
	memcpy(t + 512, data, n);
	return t;
}

START_TEST(test_untar_hardlink_outside)
{
	/*
	 * A hard link entry names its target relative to the archive; it
	 * must not link (nor write) a file outside @dir, here one in the
	 * current directory.
	 */
	struct stat in, out;

	ck_assert_int_eq(write_file("secret", "private\n", 8), 0);
	tar = hardlink_tar("leak", "secret", "pwned!\n", &tar_len);
	xfer_untar(tar, tar_len, "out", err, sizeof(err));
	check_file("secret", "private\n");
	ck_assert_int_eq(stat("secret", &in), 0);
	ck_assert_msg(
		lstat("out/leak", &out) || in.st_ino != out.st_ino,
		"out/leak is a hard link to a file outside the directory");
}
END_TEST

START_TEST(test_untar_garbage)
{
	char junk[1024];

	memset(junk, 'x', sizeof(junk));
	ck_assert_int_eq(
		xfer_untar(junk, sizeof(junk), "out", err, sizeof(err)), -1);
	ck_assert_msg(!strncmp(err, "results: ", 9) && err[9], "error \"%s\"",
		      err);
}
END_TEST

START_TEST(test_untar_truncated)
{
	tar = tar_make(results_tar, 3, false, &tar_len);
	/* Into the data of the last file (headers are 512 bytes each). */
	ck_assert_int_eq(xfer_untar(tar, 4 * 512 + 10, "out", err, sizeof(err)),
			 -1);
	ck_assert_msg(!strncmp(err, "results: ", 9) && err[9], "error \"%s\"",
		      err);
}
END_TEST

/*
 * A file that cannot be written whole (here: past RLIMIT_FSIZE, as on a
 * full disk) fails the frame; it used to count as unpacked, cut short.
 */
START_TEST(test_untar_write_fails)
{
	struct rlimit old, small = { 4, 4 };
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	int n;

	tar = tar_make(results_tar, 3, false, &tar_len);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	n = xfer_untar(tar, tar_len, "out", err, sizeof(err));
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	ck_assert_int_eq(n, -1);
	ck_assert_msg(!strcmp(err, "results: out/uname: Write failed"),
		      "error \"%s\"", err);
}
END_TEST

int main(void)
{
	char here[4096];
	int rc;

	strcpy(root, "/tmp/test_untar.XXXXXX");
	if (!getcwd(here, sizeof(here)) || !mkdtemp(root)) {
		perror("test_untar");
		return EXIT_FAILURE;
	}
	rc = CHECK_RUN_FIXTURE("untar", untar_setup, untar_teardown, 0,
			       test_untar_relative_dir, test_untar_gzipped,
			       test_untar_absolute_dir, test_untar_framed,
			       test_untar_dotdot, test_untar_absolute_entry,
			       test_untar_symlink_skipped,
			       test_untar_hardlink_outside, test_untar_garbage,
			       test_untar_truncated, test_untar_write_fails);
	/* A failed test may have left us in its directory (CK_FORK=no). */
	if (chdir(here))
		perror(here);
	remove_tree(root);
	return rc;
}
