// SPDX-License-Identifier: GPL-2.0
/*
 * apt's sandbox (runner/provision/apt.c), for real: a private apt state in
 * a temporary directory, its lists updated and one small package (the
 * linux-image-amd64 meta package, ~2 KB) downloaded from the archive the
 * system's apt sources name. Only bookworm-backports and bookworm-security
 * lists are fetched (LSMCONF_DEBIAN_SUITES), about 2 MB. Each test runs in
 * its own process (Check forks), so each has its own cache root.
 */
#define _GNU_SOURCE
#include <check.h>
#include "check_run.h"
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/lib.h"
#include "provision/apt.h"

static char dir[] = "/tmp/lsmconf-test-apt-XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("LSMCONF_DEBIAN_SUITES", "bookworm-backports", 1);
}

static void teardown(void)
{
	remove_tree(dir);
	strcpy(dir + strlen(dir) - 6, "XXXXXX");
}

/* Owner of @d/apt/@sub. */
static uid_t owner(const char *d, const char *sub)
{
	char *p = xasprintf("%s/apt/%s", d, sub);
	struct stat st;

	ck_assert_msg(!stat(p, &st), "%s missing", p);
	free(p);
	return st.st_uid;
}

/* apt_ready() and apt_download() of the meta package into @d/debs. */
static void update_and_download(const char *d)
{
	struct err e = { 0 };
	char *madison, *ver, *debs, *deb;

	ck_assert_msg(!apt_ready(true, &e), "apt_ready: %s", e.msg);
	madison = apt_cache("madison", "linux-image-amd64", &e);
	ck_assert_msg(madison, "apt-cache: %s", e.msg);
	ver = apt_madison_pick(madison, "linux-image-amd64", NULL);
	ck_assert_ptr_nonnull(ver);
	debs = xasprintf("%s/debs", d);
	/* apt_download() checks the archive's SHA256 of what it got. */
	deb = apt_download("linux-image-amd64", ver, debs, &e);
	ck_assert_msg(deb, "apt_download: %s", e.msg);
	ck_assert_int_eq(access(deb, R_OK), 0);
	free(deb);
	free(debs);
	free(ver);
	free(madison);
}

/* True when @d holds nothing (the download stage is cleaned up). */
static bool empty_dir(const char *d)
{
	char *cmd = xasprintf("[ -z \"$(ls -A '%s')\" ]", d);
	int ret = system(cmd);

	free(cmd);
	return ret == 0;
}

/*
 * Root, and _apt can reach the private state: apt keeps its sandbox. The
 * proof is apt's own: it chowns lists/partial to the sandbox user only
 * when it drops to one.
 */
START_TEST(test_root_sandboxed)
{
	struct passwd *pw = getpwnam("_apt");
	char *stage;

	if (geteuid() || !pw) {
		printf("skip - apt sandbox: needs root and the _apt user\n");
		return;
	}
	ck_assert_int_eq(chmod(dir, 0755), 0);
	setenv("LSMCONF_CACHE", dir, 1);
	ck_assert_str_eq(apt_sandbox_user(), "_apt");
	update_and_download(dir);
	ck_assert_uint_eq(owner(dir, "lists/partial"), pw->pw_uid);
	ck_assert_uint_eq(owner(dir, "download"), pw->pw_uid);
	stage = xasprintf("%s/apt/download", dir);
	ck_assert(empty_dir(stage));
	free(stage);
}
END_TEST

/* Root, but the state is under a 0700 directory: apt runs as root. */
START_TEST(test_root_unreachable)
{
	char *cache = xasprintf("%s/cache", dir);

	if (geteuid()) {
		printf("skip - apt sandbox: needs root\n");
		free(cache);
		return;
	}
	ck_assert_int_eq(chmod(dir, 0700), 0);
	setenv("LSMCONF_CACHE", cache, 1);
	ck_assert_str_eq(apt_sandbox_user(), "root");
	update_and_download(cache);
	ck_assert_uint_eq(owner(cache, "lists/partial"), 0);
	free(cache);
}
END_TEST

/* Not root (nobody, when the test runs as root): apt runs as the caller. */
START_TEST(test_not_root)
{
	struct passwd *pw = getpwnam("nobody");

	if (!geteuid()) {
		ck_assert_ptr_nonnull(pw);
		ck_assert_int_eq(chown(dir, pw->pw_uid, pw->pw_gid), 0);
		ck_assert_int_eq(setgroups(0, NULL), 0);
		ck_assert_int_eq(setgid(pw->pw_gid), 0);
		ck_assert_int_eq(setuid(pw->pw_uid), 0);
	}
	setenv("LSMCONF_CACHE", dir, 1);
	ck_assert_str_eq(apt_sandbox_user(), "root");
	update_and_download(dir);
	ck_assert_uint_eq(owner(dir, "lists/partial"), geteuid());
}
END_TEST

int main(void)
{
	/* Each test fetches ~2 MB of lists from the archive. */
	return CHECK_RUN_FIXTURE("apt_download", setup, teardown, 600,
				 test_root_sandboxed, test_root_unreachable,
				 test_not_root);
}
