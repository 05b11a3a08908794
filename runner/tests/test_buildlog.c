// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/provision/buildlog.c: a failed build step is the
 * kernel's only with the tool's own evidence against the tree.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "provision/buildlog.h"

#define TREE "/cache/builds/0123/tree"

static char line[512];

static enum build_blame blame(const char *log)
{
	return build_log_blame(log, strlen(log), TREE, line, sizeof(line));
}

START_TEST(test_compile_error)
{
	/* kbuild with O=tree/o: the tree's files as ../PATH. */
	ck_assert_int_eq(
		blame("  CC      security/apparmor/lsm.o\n"
		      "../security/apparmor/lsm.c: In function 'apparmor_socket_create':\n"
		      "../security/apparmor/lsm.c:1234:9: error: 'x' undeclared (first use in this function)\n"
		      "make[4]: *** [../scripts/Makefile.build:229: security/apparmor/lsm.o] Error 1\n"
		      "make: *** [Makefile:224: __sub-make] Error 2\n"),
		BUILD_KERNEL);
	ck_assert_str_eq(
		line,
		"../security/apparmor/lsm.c:1234:9: error: 'x' undeclared (first use in this function)");
	/* Under the tree, absolute; a missing header; kconfig; gas. */
	ck_assert_int_eq(
		blame(TREE
		      "/security/apparmor/af_unix.c:12:3: error: expected ';'\n"),
		BUILD_KERNEL);
	ck_assert_int_eq(
		blame("../security/apparmor/lsm.c:20:10: fatal error: nope.h: No such file or directory\n"),
		BUILD_KERNEL);
	ck_assert_int_eq(blame("security/apparmor/Kconfig:5: syntax error\n"),
			 BUILD_KERNEL);
	ck_assert_int_eq(
		blame("../arch/x86/entry/entry_64.S:12: Error: no such instruction: `bogus'\n"),
		BUILD_KERNEL);
	/* The linker's. */
	ck_assert_int_eq(
		blame("ld: vmlinux.o: in function `aa_sock_perm':\n"
		      "af_unix.c:(.text+0x1c): undefined reference to `aa_gone'\n"
		      "make[2]: *** [scripts/Makefile.vmlinux:34: vmlinux] Error 1\n"),
		BUILD_KERNEL);
	ck_assert_str_eq(
		line,
		"af_unix.c:(.text+0x1c): undefined reference to `aa_gone'");
}
END_TEST

/* No error line of the tree's: the host's. */
START_TEST(test_host)
{
	/* cc1 OOM-killed: gcc's own line names no file. */
	ck_assert_int_eq(
		blame("  CC      security/apparmor/lsm.o\n"
		      "gcc: fatal error: Killed signal terminated program cc1\n"
		      "compilation terminated.\n"
		      "make[4]: *** [../scripts/Makefile.build:229: security/apparmor/lsm.o] Error 1\n"),
		BUILD_HOST);
	ck_assert_str_eq(
		line, "gcc: fatal error: Killed signal terminated program cc1");
	/* A full disk, even where the compiler names a file. */
	ck_assert_int_eq(
		blame("../security/apparmor/lsm.c:1:1: fatal error: error writing to /tmp/ccX.s: No space left on device\n"),
		BUILD_HOST);
	/* A make killed by a signal: nothing but make's own lines. */
	ck_assert_int_eq(
		blame("  CC      kernel/fork.o\n"
		      "make[2]: *** [kernel] Terminated\n"
		      "make: *** [Makefile:224: __sub-make] Terminated\n"),
		BUILD_HOST);
	ck_assert_str_eq(line,
			 "make: *** [Makefile:224: __sub-make] Terminated");
	/* Errors outside the tree, and the tools' pseudo files. */
	ck_assert_int_eq(
		blame("/usr/include/stdio.h:12:1: error: broken header\n"),
		BUILD_HOST);
	ck_assert_int_eq(
		blame("<command-line>:1:2: error: macro names must be identifiers\n"),
		BUILD_HOST);
	ck_assert_int_eq(
		blame("cc1: error: unrecognized command-line option\n"),
		BUILD_HOST);
	ck_assert_int_eq(blame(""), BUILD_HOST);
	ck_assert_str_eq(line, "");
}
END_TEST

START_TEST(test_patch)
{
	/* Refused hunks: the patch does not apply to this tree. */
	ck_assert_int_eq(
		blame("patching file security/apparmor/af_unix.c\n"
		      "Hunk #1 FAILED at 1.\n"
		      "1 out of 1 hunk FAILED -- saving rejects to file security/apparmor/af_unix.c.rej\n"),
		BUILD_KERNEL);
	ck_assert_str_eq(line, "Hunk #1 FAILED at 1.");
	ck_assert_int_eq(blame("can't find file to patch at input line 3\n"
			       "File to patch: \n"
			       "Skip this patch? [y] \n"
			       "Skipping patch.\n"
			       "1 out of 1 hunk ignored\n"),
			 BUILD_KERNEL);
	ck_assert_int_eq(
		blame("Reversed (or previously applied) patch detected!  Assume -R? [n] \n"
		      "Skipping patch.\n"
		      "2 out of 2 hunks ignored -- saving rejects to file f.c.rej\n"),
		BUILD_KERNEL);
	/* A patch patch(1) cannot read: bad input, whatever came first. */
	ck_assert_int_eq(blame("patching file f.c\n"
			       "patch: **** malformed patch at line 7: zzz\n"),
			 BUILD_INPUT);
	ck_assert_str_eq(line, "patch: **** malformed patch at line 7: zzz");
	ck_assert_int_eq(
		blame("patch: **** Only garbage was found in the patch input.\n"),
		BUILD_INPUT);
	ck_assert_int_eq(blame("patch: **** unexpected end of file in patch\n"),
			 BUILD_INPUT);
}
END_TEST

/* Only @len bytes are read: the step's own part of an appended log. */
START_TEST(test_bounded)
{
	static const char log[] = "x.c:1:1: error: from an earlier step\n"
				  "make: *** [Makefile:1: all] Killed\n";
	size_t skip = strcspn(log, "\n") + 1;

	ck_assert_int_eq(build_log_blame(log + skip, strlen(log) - skip, TREE,
					 line, sizeof(line)),
			 BUILD_HOST);
	ck_assert_int_eq(build_log_blame(log, skip, NULL, line, 8),
			 BUILD_KERNEL);
	ck_assert_str_eq(line, "x.c:1:1");
}
END_TEST

int main(void)
{
	return CHECK_RUN("buildlog", test_compile_error, test_host, test_patch,
			 test_bounded);
}
