// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "provision/build.h"
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

START_TEST(test_beyond)
{
	static const char base[] = "CONFIG_SECURITY=y\n"
				   "CONFIG_AUDIT=y\n"
				   "CONFIG_SYSVIPC=n\n";
	char *b;

	/* A suite fragment that adds nothing leaves the build key alone. */
	b = kconfig_beyond(base,
			   "CONFIG_AUDIT=y\n# CONFIG_SYSVIPC is not set\n");
	ck_assert_str_eq(b, "");
	free(b);
	b = kconfig_beyond(base, "CONFIG_AUDIT=y\nCONFIG_SYSVIPC=y\n"
				 "# a comment\nCONFIG_NEW=m\n");
	ck_assert_str_eq(b, "CONFIG_SYSVIPC=y\nCONFIG_NEW=m\n");
	free(b);
}
END_TEST

/* The committed suite fragments: every option also in lsmconf.config. */
START_TEST(test_suite_fragments_in_base)
{
	static const char *const frags[] = {
		LSMCONF_ROOT "/selftests/apparmor/config",
		LSMCONF_ROOT "/selftests/selinux/config",
	};
	char *base, *frag, *b, why[256];
	size_t i;

	ck_assert_int_eq(read_file(LSMCONF_ROOT
				   "/fixtures/config/lsmconf.config",
				   &base, NULL),
			 0);
	for (i = 0; i < ARRAY_SIZE(frags); i++) {
		ck_assert_int_eq(read_file(frags[i], &frag, NULL), 0);
		b = kconfig_beyond(base, frag);
		ck_assert_str_eq(b, "");
		/* And a config that holds the base holds the fragment. */
		ck_assert_int_eq(
			kconfig_check_fragment(base, frag, why, sizeof(why)),
			0);
		free(b);
		free(frag);
	}
	free(base);
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

START_TEST(test_makefile_version)
{
	char v[32];

	ck_assert_int_eq(kernel_makefile_version(
				 "# SPDX-License-Identifier: GPL-2.0\n"
				 "VERSION = 7\nPATCHLEVEL = 2\nSUBLEVEL = 13\n"
				 "EXTRAVERSION =\nNAME = Baby Opossum Posse\n",
				 v, sizeof(v)),
			 0);
	ck_assert_str_eq(v, "7.2.13");
	/* A line that only starts like a key is not it. */
	ck_assert_int_eq(
		kernel_makefile_version("VERSIONS = 1\nVERSION = 6\n"
					"PATCHLEVEL = 1\nSUBLEVEL = 0\n",
					v, sizeof(v)),
		0);
	ck_assert_str_eq(v, "6.1.0");
	ck_assert_int_eq(kernel_makefile_version("VERSION = 7\n", v, sizeof(v)),
			 -1);
	ck_assert_int_eq(kernel_makefile_version("VERSION = x\nPATCHLEVEL = 1\n"
						 "SUBLEVEL = 0\n",
						 v, sizeof(v)),
			 -1);
}
END_TEST

int main(void)
{
	return CHECK_RUN("kconfig", test_get, test_fragment, test_beyond,
			 test_suite_fragments_in_base,
			 test_diff_ignores_localversion,
			 test_diff_finds_changes, test_makefile_version);
}
