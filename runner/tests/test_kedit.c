// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>

#include "lib/kedit.h"

static const char makefile[] = "# SPDX\n"
			       "TARGETS += acct\n"
			       "TARGETS += alsa\n"
			       "TARGETS += breakpoints\n"
			       "TARGETS += lsm\n"
			       "TARGETS += sysctl\n"
			       "\n"
			       "include lib.mk\n";

START_TEST(test_targets_in_order)
{
	const char *why = NULL;
	char *a = kedit_targets(makefile, "apparmor", &why);
	char *s = a ? kedit_targets(a, "selinux", &why) : NULL;

	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s, "# SPDX\n"
			    "TARGETS += acct\n"
			    "TARGETS += alsa\n"
			    "TARGETS += apparmor\n"
			    "TARGETS += breakpoints\n"
			    "TARGETS += lsm\n"
			    "TARGETS += selinux\n"
			    "TARGETS += sysctl\n"
			    "\n"
			    "include lib.mk\n");
	free(a);
	free(s);
	/* First and last places. */
	a = kedit_targets(makefile, "aa", &why);
	ck_assert_str_eq(a + 7, "TARGETS += aa\nTARGETS += acct\n"
				"TARGETS += alsa\nTARGETS += breakpoints\n"
				"TARGETS += lsm\nTARGETS += sysctl\n\n"
				"include lib.mk\n");
	free(a);
	a = kedit_targets(makefile, "zram", &why);
	ck_assert_ptr_nonnull(strstr(a, "sysctl\nTARGETS += zram\n\n"));
	free(a);
}
END_TEST

START_TEST(test_targets_refused)
{
	const char *why = NULL;

	/* A prefix of an entry is not that entry. */
	ck_assert_ptr_null(kedit_targets(makefile, "lsm", &why));
	ck_assert_str_eq(why, "already has that TARGETS entry");
	ck_assert_ptr_null(kedit_targets("all:\n", "apparmor", &why));
	ck_assert_str_eq(why, "has no \"TARGETS += \" line");
	free(kedit_targets(makefile, "ls", &why));
}
END_TEST

static const char maintainers[] =
	"APPARMOR SECURITY MODULE\n"
	"M:\tJohn <j@example.org>\n"
	"F:\tDocumentation/admin-guide/LSM/apparmor.rst\n"
	"F:\tsecurity/apparmor/\n"
	"\n"
	"NOFILES\n"
	"M:\tA <a@example.org>\n"
	"\n"
	"SELINUX SECURITY MODULE\n"
	"F:\tinclude/uapi/linux/selinux_netlink.h\n"
	"F:\tsecurity/selinux/\n"
	"F:\tscripts/selinux/\n"
	"K:\tselinux\n";

START_TEST(test_maintainers)
{
	const char *why = NULL;
	char *a = kedit_maintainers(maintainers, "APPARMOR SECURITY MODULE",
				    "tools/testing/selftests/apparmor/", &why);
	char *b = kedit_maintainers(a, "SELINUX SECURITY MODULE",
				    "tools/testing/selftests/selinux/", &why);
	char *c = kedit_maintainers(b, "NOFILES", "x/", &why);

	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c, "APPARMOR SECURITY MODULE\n"
			    "M:\tJohn <j@example.org>\n"
			    "F:\tDocumentation/admin-guide/LSM/apparmor.rst\n"
			    "F:\tsecurity/apparmor/\n"
			    "F:\ttools/testing/selftests/apparmor/\n"
			    "\n"
			    "NOFILES\n"
			    "M:\tA <a@example.org>\n"
			    "F:\tx/\n"
			    "\n"
			    "SELINUX SECURITY MODULE\n"
			    "F:\tinclude/uapi/linux/selinux_netlink.h\n"
			    "F:\tsecurity/selinux/\n"
			    "F:\tscripts/selinux/\n"
			    "F:\ttools/testing/selftests/selinux/\n"
			    "K:\tselinux\n");
	ck_assert_ptr_null(kedit_maintainers(c, "NOFILES", "x/", &why));
	ck_assert_str_eq(why, "already lists that path");
	ck_assert_ptr_null(kedit_maintainers(c, "APPARMOR", "x/", &why));
	ck_assert_str_eq(why, "has no such entry");
	free(a);
	free(b);
	free(c);
}
END_TEST

int main(void)
{
	return CHECK_RUN("kedit", test_targets_in_order, test_targets_refused,
			 test_maintainers);
}
