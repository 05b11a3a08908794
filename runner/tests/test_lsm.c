// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <string.h>

#include "lib/lib.h"

START_TEST(test_find)
{
	const struct lsm *a = lsm_find("apparmor"), *s = lsm_find("selinux");

	ck_assert_ptr_nonnull(a);
	ck_assert_ptr_nonnull(s);
	/* The default of --lsm: AppArmor, in Debian's default LSM list. */
	ck_assert_ptr_eq(a, &lsms[0]);
	ck_assert_ptr_null(lsm_find("smack"));
	ck_assert_ptr_null(lsm_find("Apparmor"));
	ck_assert_ptr_null(lsm_find(""));
	/* AppArmor boots with the kernel's own list; SELinux names itself. */
	ck_assert_ptr_null(a->boot_append);
	ck_assert_str_eq(s->boot_append,
			 "lsm=landlock,lockdown,yama,selinux,bpf");
	ck_assert_str_eq(a->tests, "apparmor");
	ck_assert_str_eq(s->tests, "selinux");
}
END_TEST

START_TEST(test_pinning)
{
	/* Only AppArmor compiles policy in the guest, for a pinned ABI. */
	ck_assert(lsm_find("apparmor")->pins_abi);
	ck_assert(!lsm_find("selinux")->pins_abi);
	ck_assert_str_eq(lsm_pinning()->name, "apparmor");
}
END_TEST

START_TEST(test_of_source)
{
	ck_assert_str_eq(lsm_of_source("security/selinux/hooks.c")->name,
			 "selinux");
	ck_assert_str_eq(lsm_of_source("security/apparmor/af_unix.c")->name,
			 "apparmor");
	/* A file below the folder, not one whose name starts the same. */
	ck_assert_ptr_null(lsm_of_source("security/selinuxfs.c"));
	ck_assert_ptr_null(lsm_of_source("security/selinux"));
	ck_assert_ptr_null(lsm_of_source("net/unix/af_unix.c"));
	ck_assert_ptr_null(lsm_of_source(""));
}
END_TEST

START_TEST(test_names)
{
	/* The list the "unknown LSM" errors print, in table order. */
	ck_assert_str_eq(lsm_names(), "apparmor, selinux");
	ck_assert_ptr_eq(lsm_names(), lsm_names());
	/* --lsm's default: every LSM, as the option takes a list. */
	ck_assert_str_eq(lsm_all(), "apparmor,selinux");
	ck_assert_ptr_eq(lsm_all(), lsm_all());
	ck_assert_uint_eq(n_lsms, 2);
}
END_TEST

START_TEST(test_listed)
{
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
	return CHECK_RUN("lsm", test_find, test_pinning, test_of_source,
			 test_names, test_listed);
}
