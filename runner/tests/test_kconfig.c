// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>

#include "provision/kconfig.h"

static const char cfg[] = "#\n# Automatically generated file\n#\n"
			  "CONFIG_64BIT=y\n"
			  "CONFIG_LSM=\"landlock,apparmor\"\n"
			  "CONFIG_LOCALVERSION=\"-a\"\n"
			  "# CONFIG_SYSVIPC is not set\n"
			  "CONFIG_NR_CPUS=4\n";

START_TEST(test_get)
{
	char *v;

	v = kconfig_get(cfg, "64BIT");
	ck_assert_str_eq(v, "y");
	free(v);
	v = kconfig_get(cfg, "LSM");
	ck_assert_str_eq(v, "\"landlock,apparmor\"");
	free(v);
	v = kconfig_get(cfg, "SYSVIPC");
	ck_assert_str_eq(v, "n");
	free(v);
	ck_assert_ptr_null(kconfig_get(cfg, "64BI"));
	ck_assert_ptr_null(kconfig_get(cfg, "NOPE"));
}
END_TEST

START_TEST(test_fragment)
{
	char why[256];

	ck_assert_int_eq(kconfig_check_fragment(cfg,
						"CONFIG_64BIT=y\n"
						"CONFIG_SYSVIPC=n\n"
						"# CONFIG_ABSENT is not set\n"
						"CONFIG_NR_CPUS=4\n",
						why, sizeof(why)),
			 0);
	ck_assert_str_eq(why, "");
	ck_assert_int_eq(kconfig_check_fragment(cfg,
						"CONFIG_SYSVIPC=y\n"
						"CONFIG_64BIT=y\n"
						"CONFIG_NEW=y\n",
						why, sizeof(why)),
			 2);
	ck_assert_str_eq(why, "CONFIG_SYSVIPC is n, the fragment wants y");
}
END_TEST

START_TEST(test_diff_ignores_localversion)
{
	static const char other[] = "CONFIG_64BIT=y\n"
				    "CONFIG_LSM=\"landlock,apparmor\"\n"
				    "CONFIG_LOCALVERSION=\"-b\"\n"
				    "# CONFIG_SYSVIPC is not set\n"
				    "CONFIG_NR_CPUS=4\n";
	char why[256];

	ck_assert_int_eq(kconfig_diff(cfg, other, why, sizeof(why)), 0);
}
END_TEST

START_TEST(test_diff_finds_changes)
{
	static const char other[] = "CONFIG_64BIT=y\n"
				    "CONFIG_LSM=\"apparmor\"\n"
				    "CONFIG_SYSVIPC=y\n"
				    "CONFIG_NR_CPUS=4\n"
				    "CONFIG_EXTRA=y\n";
	char why[256];

	/* LSM and SYSVIPC differ; EXTRA only in the second. */
	ck_assert_int_eq(kconfig_diff(cfg, other, why, sizeof(why)), 3);
	ck_assert_str_eq(why,
			 "CONFIG_LSM: \"landlock,apparmor\" vs \"apparmor\"");
	ck_assert_int_eq(kconfig_diff("CONFIG_A=y\n",
				      "CONFIG_A=y\nCONFIG_B=m\n", why,
				      sizeof(why)),
			 1);
	ck_assert_str_eq(why, "CONFIG_B: absent vs m");
}
END_TEST

int main(void)
{
	return CHECK_RUN("kconfig", test_get, test_fragment,
			 test_diff_ignores_localversion,
			 test_diff_finds_changes);
}
