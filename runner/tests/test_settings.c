// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lib/lib.h"

START_TEST(test_parse)
{
	struct err e;

	ck_assert_int_eq(settings_timeout("timeout=300\n", &e), 300);
	/* Comments as runner.sh skips them, the last value counts. */
	ck_assert_int_eq(settings_timeout("# timeout=5\ntimeout=60\n"
					  "timeout=120",
					  &e),
			 120);
	ck_assert_int_eq(settings_timeout("# nothing\n", &e),
			 SETTINGS_DEFAULT_TIMEOUT_S);
	ck_assert_int_eq(settings_timeout("", &e), 45);
	ck_assert_int_eq(settings_timeout("timeout=0\n", &e), -1);
	ck_assert_str_eq(e.msg,
			 "timeout=0 is not a positive number of seconds");
	ck_assert_int_eq(settings_timeout("timeout=30s\n", &e), -1);
	ck_assert_int_eq(settings_timeout("timeout=-1\n", &e), -1);
	ck_assert_int_eq(settings_timeout("timeout=99999999999\n", &e), -1);
	ck_assert_int_eq(settings_timeout("timeout=\n", &e), -1);
	ck_assert_str_eq(e.msg, "timeout= has no value");
}
END_TEST

START_TEST(test_dir)
{
	char dir[] = "/tmp/test_settings.XXXXXX", path[64];
	struct err e;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* No settings file: kselftest's default. */
	ck_assert_int_eq(settings_dir_timeout(dir, &e), 45);
	snprintf(path, sizeof(path), "%s/settings", dir);
	ck_assert_int_eq(write_file(path, "timeout=7\n", 10), 0);
	ck_assert_int_eq(settings_dir_timeout(dir, &e), 7);
	ck_assert_int_eq(write_file(path, "timeout=x\n", 10), 0);
	ck_assert_int_eq(settings_dir_timeout(dir, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "/settings: timeout=x is not"));
	unlink(path);
	rmdir(dir);
}
END_TEST

/* The committed files: what kselftest's runner and lsmconf both apply. */
START_TEST(test_committed)
{
	struct err e;

	ck_assert_int_eq(
		settings_dir_timeout(LSMCONF_ROOT "/selftests/apparmor", &e),
		300);
	ck_assert_int_eq(
		settings_dir_timeout(LSMCONF_ROOT "/selftests/selinux", &e),
		120);
}
END_TEST

int main(void)
{
	return CHECK_RUN("settings", test_parse, test_dir, test_committed);
}
