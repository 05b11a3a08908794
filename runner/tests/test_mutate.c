// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/mutate.h"
#include "lib/util.h"

START_TEST(test_header)
{
	char *desc, *eq;

	ck_assert_int_eq(mutant_header("listen check skipped\n\nWhy.\n\n"
				       "--- a/f.c\n+++ b/f.c\n",
				       &desc, &eq),
			 0);
	ck_assert_str_eq(desc, "listen check skipped");
	ck_assert_ptr_null(eq);
	free(desc);
	ck_assert_int_eq(mutant_header("a renamed local\n"
				       "Equivalent: only a name changes\n"
				       "--- a/f.c\n+++ b/f.c\n",
				       &desc, &eq),
			 0);
	ck_assert_str_eq(eq, "only a name changes");
	free(desc);
	free(eq);
	/* An "Equivalent:" line inside the diff does not count. */
	ck_assert_int_eq(mutant_header("bug\n--- a/f.c\n+++ b/f.c\n"
				       "+Equivalent: no\n",
				       &desc, &eq),
			 0);
	ck_assert_ptr_null(eq);
	free(desc);
	/* No description, or no diff. */
	ck_assert_int_eq(mutant_header("--- a/f.c\n+++ b/f.c\n", &desc, &eq),
			 -1);
	ck_assert_int_eq(mutant_header("\n--- a/f.c\n", &desc, &eq), -1);
	ck_assert_int_eq(mutant_header("just words\n", &desc, &eq), -1);
}
END_TEST

START_TEST(test_judge)
{
	ck_assert_int_eq(mutant_judge(true, true, 0), MUTANT_SURVIVED);
	ck_assert_int_eq(mutant_judge(true, true, 3), MUTANT_KILLED);
	/* A case failing on its own kills even with identical records. */
	ck_assert_int_eq(mutant_judge(true, false, 0), MUTANT_KILLED);
	ck_assert_int_eq(mutant_judge(false, false, 0), MUTANT_STILLBORN);
	ck_assert_str_eq(mutant_verdict_name(MUTANT_KILLED), "killed");
}
END_TEST

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	ck_assert_int_eq(write_file(path, text, strlen(text)), 0);
	free(path);
}

START_TEST(test_list)
{
	char dir[] = "/tmp/lsmconf-mutants.XXXXXX";
	char *only[] = { "02-b" }, *nope[] = { "03-c" };
	struct mutant *m;
	struct err e;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	put(dir, "02-b.patch", "second\n--- a/x\n");
	put(dir, "01-a.patch", "first\n--- a/x\n");
	put(dir, "README", "not a patch\n");
	ck_assert_int_eq(mutants_list(dir, NULL, 0, &m, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(m[0].name, "01-a");
	ck_assert_str_eq(m[1].desc, "second");
	mutants_free(m, n);
	ck_assert_int_eq(mutants_list(dir, only, 1, &m, &n, &e), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(m[0].name, "02-b");
	mutants_free(m, n);
	/* An unknown name is an error value, not the end of the program. */
	ck_assert_int_eq(mutants_list(dir, nope, 1, &m, &n, &e), -1);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(m);
	ck_assert(strstr(e.msg, "no mutant 03-c in ") == e.msg);
	for (n = 0; n < 3; n++) {
		static const char *const files[] = { "01-a.patch", "02-b.patch",
						     "README" };
		char *path = xasprintf("%s/%s", dir, files[n]);

		ck_assert_int_eq(unlink(path), 0);
		free(path);
	}
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(mutants_list(dir, NULL, 0, &m, &n, &e), -1);
	ck_assert(strstr(e.msg, "cannot read the mutants directory ") == e.msg);
}
END_TEST

START_TEST(test_lsm)
{
	/* The LSM is the one directory of security/ every file is under. */
	ck_assert_str_eq(mutant_lsm("bug\n\n--- a/security/selinux/hooks.c\n"
				    "+++ b/security/selinux/hooks.c\n@@\n"
				    "--- a/security/selinux/ss/mls.c\n"
				    "+++ b/security/selinux/ss/mls.c\n"),
			 "selinux");
	ck_assert_str_eq(mutant_lsm("bug\n--- a/security/apparmor/net.c\n"
				    "+++ b/security/apparmor/net.c\n"),
			 "apparmor");
	/* Both LSMs, another directory, a prefix that only looks alike. */
	ck_assert_ptr_null(mutant_lsm("b\n+++ b/security/apparmor/lsm.c\n"
				      "+++ b/security/selinux/avc.c\n"));
	ck_assert_ptr_null(mutant_lsm("b\n+++ b/net/unix/af_unix.c\n"));
	ck_assert_ptr_null(mutant_lsm("b\n+++ b/security/selinuxfs.c\n"));
	ck_assert_ptr_null(mutant_lsm("no diff at all\n"));

	ck_assert(lsm_listed("apparmor,selinux", "selinux"));
	ck_assert(lsm_listed("selinux", "selinux"));
	ck_assert(!lsm_listed("apparmor", "selinux"));
	ck_assert(!lsm_listed("selinuxx,apparmor", "selinux"));
	ck_assert(!lsm_listed("", "selinux"));
	ck_assert(!lsm_listed(NULL, "selinux"));
}
END_TEST

int main(void)
{
	return CHECK_RUN("mutate", test_header, test_judge, test_list,
			 test_lsm);
}
