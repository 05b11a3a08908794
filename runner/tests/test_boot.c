// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the pure parts of runner/vm/boot.c: the guest clock's
 * start under icount and the kernel command line.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "vm/boot.h"

static void rtc_is(int seed, const char *want)
{
	char *got = rtc_base(seed);

	ck_assert_str_eq(got, want);
	free(got);
}

/* Seed 0 is RTC_EPOCH; each seed is one day later, whatever the month. */
START_TEST(test_rtc_seeds)
{
	rtc_is(0, "base=2026-01-01T00:00:00,clock=vm");
	rtc_is(1, "base=2026-01-02T00:00:00,clock=vm");
	rtc_is(31, "base=2026-02-01T00:00:00,clock=vm");
	rtc_is(365, "base=2027-01-01T00:00:00,clock=vm");
}
END_TEST

/* The same seed gives the same start: that is what makes boots repeat. */
START_TEST(test_rtc_same_seed)
{
	char *a = rtc_base(7), *b = rtc_base(7);

	ck_assert_str_eq(a, b);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_cmdline_append)
{
	char *plain = boot_cmdline(NULL), *empty = boot_cmdline("");
	char *with = boot_cmdline("lsmconf.user=1000");

	ck_assert_str_eq(plain, empty);
	ck_assert_ptr_nonnull(strstr(plain, "oops=panic"));
	ck_assert_int_eq(strlen(with),
			 strlen(plain) + strlen(" lsmconf.user=1000"));
	ck_assert_str_eq(with + strlen(plain), " lsmconf.user=1000");
	free(plain);
	free(empty);
	free(with);
}
END_TEST

int main(void)
{
	return CHECK_RUN("boot", test_rtc_seeds, test_rtc_same_seed,
			 test_cmdline_append);
}
