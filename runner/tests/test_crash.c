// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/vm/crash.c
 *
 * The harness outputs and listings below were captured from programs built
 * on the kselftest_harness.h of linux-source-7.2 (7.2.13), run plainly and
 * with "-l" (which lists on stderr).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "check_run.h"
#include "vm/crash.h"

/* --- crash_section ------------------------------------------------------- */

/* The section of @test in @live as a string, or NULL. */
static char *section(const char *live, const char *test)
{
	size_t len = 12345;
	const char *s = crash_section(live, strlen(live), test, &len);
	char *copy;

	if (!s) {
		ck_assert_uint_eq(len, 12345);
		return NULL;
	}
	ck_assert(s >= live && s + len <= live + strlen(live));
	copy = strndup(s, len);
	ck_assert_ptr_nonnull(copy);
	return copy;
}

static void section_is(const char *live, const char *test, const char *want)
{
	char *got = section(live, test);

	ck_assert_msg(got, "no section for %s", test);
	ck_assert_str_eq(got, want);
	free(got);
}

static const char live_two[] = "lsmconf: run a_test\n"
			       "TAP version 13\n"
			       "1..1\n"
			       "ok 1 global.a\n"
			       "lsmconf: run b_test\n"
			       "TAP version 13\n"
			       "1..2\n"
			       "#  RUN           global.b ...\n";

START_TEST(test_section_pick)
{
	section_is(live_two, "a_test", "TAP version 13\n1..1\nok 1 global.a\n");
	section_is(live_two, "b_test",
		   "TAP version 13\n1..2\n#  RUN           global.b ...\n");
}
END_TEST

START_TEST(test_section_prefix)
{
	static const char live[] = "lsmconf: run a_test2\n"
				   "two\n"
				   "lsmconf: run a_tes\n"
				   "short\n";

	ck_assert_ptr_null(section(live, "a_test"));
	section_is(live, "a_test2", "two\n");
	section_is(live, "a_tes", "short\n");
	/* The name in the middle of a line, or without the prefix. */
	ck_assert_ptr_null(section("x lsmconf: run a_test\nout\n", "a_test"));
	ck_assert_ptr_null(section("lsmconf: ran a_test\nout\n", "a_test"));
	ck_assert_ptr_null(section("lsmconf: run  a_test\nout\n", "a_test"));
}
END_TEST

START_TEST(test_section_twice)
{
	static const char live[] = "lsmconf: run a_test\n"
				   "first boot\n"
				   "lsmconf: run b_test\n"
				   "b\n"
				   "lsmconf: run a_test\n"
				   "second time\n"
				   "more\n";

	section_is(live, "a_test", "second time\nmore\n");
	section_is(live, "b_test", "b\n");
}
END_TEST

START_TEST(test_section_missing)
{
	size_t len;

	ck_assert_ptr_null(section(live_two, "c_test"));
	ck_assert_ptr_null(section("", "a_test"));
	ck_assert_ptr_null(section("lsmconf: run \n", "a_test"));
	/* Only the bytes within @len count. */
	len = 0;
	ck_assert_ptr_null(crash_section(live_two, 15, "a_test", &len));
	ck_assert_ptr_null(crash_section(live_two, 18, "a_test", &len));
	len = 1;
	ck_assert_ptr_eq(crash_section(live_two, 19, "a_test", &len),
			 live_two + 19);
	ck_assert_uint_eq(len, 0);
	len = 1;
	ck_assert_ptr_eq(crash_section(live_two, 20, "a_test", &len),
			 live_two + 20);
	ck_assert_uint_eq(len, 0);
}
END_TEST

START_TEST(test_section_no_newline)
{
	section_is("lsmconf: run a_test\nok 1 x\nnot ok 2 y", "a_test",
		   "ok 1 x\nnot ok 2 y");
	section_is("lsmconf: run a_test\nlsmconf: run b_test\npartial",
		   "b_test", "partial");
	/* Empty sections: the test started, and nothing came after. */
	section_is("lsmconf: run a_test\nlsmconf: run b_test\n", "a_test", "");
	section_is("lsmconf: run a_test\nlsmconf: run b_test\n", "b_test", "");
	section_is("out\nlsmconf: run a_test", "a_test", "");
}
END_TEST

START_TEST(test_section_crlf)
{
	/* The guest's tty adds a CR to each line. */
	section_is("lsmconf: run a_test\r\nTAP version 13\r\n"
		   "lsmconf: run b_test\r\n1..1\r\n",
		   "a_test", "TAP version 13\r\n");
}
END_TEST

/* --- crash_open_case ----------------------------------------------------- */

static char kase[64];

static int open_case(const char *section)
{
	strcpy(kase, "untouched");
	return crash_open_case(section, strlen(section), kase, sizeof(kase));
}

/* crash_open_case() on @section up to where @at first occurs in it. */
static int open_case_before(const char *section, const char *at)
{
	const char *cut = strstr(section, at);

	ck_assert_ptr_nonnull(cut);
	strcpy(kase, "untouched");
	return crash_open_case(section, cut - section, kase, sizeof(kase));
}

static const char run_global[] = "TAP version 13\n"
				 "1..5\n"
				 "# Starting 5 tests from 1 test cases.\n"
				 "#  RUN           global.first ...\n"
				 "#            OK  global.first\n"
				 "ok 1 global.first\n"
				 "#  RUN           global.second ...\n";

static const char run_failing[] =
	"TAP version 13\n"
	"1..4\n"
	"# Starting 4 tests from 1 test cases.\n"
	"#  RUN           global.passes ...\n"
	"#            OK  global.passes\n"
	"ok 1 global.passes\n"
	"#  RUN           global.fails ...\n"
	"# fail.c:3:fails:Expected 1 (1) == 2 (2)\n"
	"# fails: Test terminated by assertion\n"
	"#          FAIL  global.fails\n"
	"not ok 2 global.fails\n"
	"#  RUN           global.skips ...\n"
	"#      SKIP      no policy\n"
	"#            OK  global.skips\n"
	"ok 3 global.skips # SKIP no policy\n"
	"#  RUN           global.after ...\n"
	"#            OK  global.after\n"
	"ok 4 global.after\n"
	"# FAILED: 3 / 4 tests passed.\n"
	"# 1 skipped test(s) detected. Consider enabling relevant config "
	"options to improve coverage.\n"
	"# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:1 error:0\n";

START_TEST(test_open_running)
{
	ck_assert_int_eq(open_case(run_global), 0);
	ck_assert_str_eq(kase, "global.second");
	/* With its output so far, and without the last newline. */
	ck_assert_int_eq(open_case("#  RUN           global.first ...\n"
				   "# live_test.c:42:first:step 1\n"),
			 0);
	ck_assert_str_eq(kase, "global.first");
	ck_assert_int_eq(open_case("ok 1 global.a\n"
				   "#  RUN           global.b ..."),
			 0);
	ck_assert_str_eq(kase, "global.b");
	/* The harness's own "OK" line is not the result. */
	ck_assert_int_eq(open_case("#  RUN           global.first ...\n"
				   "#            OK  global.first\n"),
			 0);
	ck_assert_str_eq(kase, "global.first");
}
END_TEST

START_TEST(test_open_none)
{
	ck_assert_int_eq(open_case(run_failing), -1);
	ck_assert_int_eq(open_case(""), -1);
	ck_assert_int_eq(open_case("TAP version 13\n1..0\n"), -1);
	ck_assert_int_eq(open_case("#  RUN           global.first ...\n"
				   "#            OK  global.first\n"
				   "ok 1 global.first\n"),
			 -1);
	/* A run cut right after a result line. */
	ck_assert_int_eq(
		open_case_before(run_failing, "#  RUN           global.skips"),
		-1);
}
END_TEST

START_TEST(test_open_not_ok)
{
	static const char run[] = "#  RUN           global.fails ...\n"
				  "#          FAIL  global.fails\n"
				  "not ok 1 global.fails\n";

	ck_assert_int_eq(open_case(run), -1);
	/* Cut before its result: still open. */
	ck_assert_int_eq(open_case_before(run, "not ok"), 0);
	ck_assert_str_eq(kase, "global.fails");
	/* In the failing run, cut inside global.fails, then after it. */
	ck_assert_int_eq(open_case_before(run_failing, "# fails:"), 0);
	ck_assert_str_eq(kase, "global.fails");
	ck_assert_int_eq(open_case_before(run_failing, "#  RUN           "
						       "global.skips"),
			 -1);
	ck_assert_int_eq(open_case_before(run_failing, "ok 3"), 0);
	ck_assert_str_eq(kase, "global.skips");
}
END_TEST

START_TEST(test_open_variant)
{
	ck_assert_int_eq(open_case("TAP version 13\n"
				   "1..11\n"
				   "# Starting 11 tests from 5 test cases.\n"
				   "#  RUN           net.ipv4.bind ...\n"
				   "#            OK  net.ipv4.bind\n"
				   "ok 6 net.ipv4.bind\n"
				   "#  RUN           net.ipv4.connect ...\n"),
			 0);
	ck_assert_str_eq(kase, "net.ipv4.connect");
	ck_assert_int_eq(open_case("#  RUN           net.ipv6.bind ...\n"
				   "#            OK  net.ipv6.bind\n"
				   "ok 8 net.ipv6.bind # SKIP no ipv6\n"),
			 -1);
}
END_TEST

START_TEST(test_open_other_result)
{
	/* A result for another name leaves the case open. */
	ck_assert_int_eq(open_case("#  RUN           global.first ...\n"
				   "ok 1 global.firs\n"
				   "ok 1 global.first2\n"
				   "not ok 1 global.other\n"
				   "ok global.first\n"
				   "ok x global.first\n"
				   "# ok 1 global.first\n"),
			 0);
	ck_assert_str_eq(kase, "global.first");
	/* A result before its RUN does not close it either. */
	ck_assert_int_eq(open_case("ok 2 global.second\n"
				   "#  RUN           global.second ...\n"),
			 0);
	ck_assert_str_eq(kase, "global.second");
}
END_TEST

START_TEST(test_open_crlf)
{
	ck_assert_int_eq(open_case("#  RUN           global.first ...\r\n"
				   "ok 1 global.first\r\n"
				   "#  RUN           global.second ...\r\n"),
			 0);
	ck_assert_str_eq(kase, "global.second");
	ck_assert_int_eq(open_case("#  RUN           global.first ...\r\n"
				   "ok 1 global.first\r\n"),
			 -1);
}
END_TEST

START_TEST(test_open_small_buffer)
{
	char small[16];

	/* "global.second" and its NUL: 14 bytes. */
	memset(small, 'Z', sizeof(small));
	ck_assert_int_eq(
		crash_open_case(run_global, strlen(run_global), small, 13), -1);
	ck_assert_int_eq(
		crash_open_case(run_global, strlen(run_global), small, 14), 0);
	ck_assert_str_eq(small, "global.second");
	ck_assert_int_eq(small[14], 'Z');
}
END_TEST

/* --- crash_list_cases ---------------------------------------------------- */

#define DASH20 "--------------------"
#define DASHES DASH20 DASH20 DASH20 DASH20 "\n"
#define HEADER "# FIXTURE            VARIANT                   TEST\n"

/* TEST(first) ... TEST(fifth) */
static const char list_global[] =
	HEADER "global                                         first\n"
	       "                                               second\n"
	       "                                               third\n"
	       "                                               fourth\n"
	       "                                               fifth\n";

/* FIXTURE(f), FIXTURE_VARIANT_ADD(f, v1) and (f, v2), TEST_F(f, t1..t3) */
static const char list_variants[] =
	HEADER "global                                         \n" DASHES
	       "f                    v1                        t1\n"
	       "                     v2                        t2\n"
	       "                                               t3\n";

/* Names wider than their columns. */
static const char list_long[] =
	HEADER "global                                         \n" DASHES
	       "a_fixture_name_longer_than_twenty a_variant_name_longer_than_"
	       "25_chars a_test\n"
	       "                     short_v                   "
	       "a_test_name_that_is_quite_long_too\n";

/* Names as wide as their columns, and wider without a variant. */
static const char list_widths[] =
	HEADER "global                                         \n" DASHES
	       "fixture_of_twenty_ch                           only\n" DASHES
	       "a_fixture_without_any_variant                           one\n"
	       "                                               two\n" DASHES
	       "g                    v1                        t\n"
	       "                     second_variant_name_over_25 \n"
	       "                     variant_name_of_exactly25 \n";

/* TEST(first), TEST(second), then FIXTURE(profile), FIXTURE(net). */
static const char list_three[] =
	HEADER "global                                         first\n"
	       "                                               second\n" DASHES
	       "profile                                        load\n"
	       "                                               replace\n"
	       "                                               remove\n" DASHES
	       "net                  ipv4                      bind\n"
	       "                     ipv6                      connect\n"
	       "                     unix                      \n";

static void cases_are(const char *listing, const char *const *want, int n)
{
	char **cases = (char **)1;
	int got = crash_list_cases(listing, &cases), i;

	ck_assert_int_eq(got, n);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(cases[i], want[i]);
	for (i = 0; i < got; i++)
		free(cases[i]);
	free(cases);
}

START_TEST(test_list_global)
{
	static const char *const want[] = { "global.first", "global.second",
					    "global.third", "global.fourth",
					    "global.fifth" };

	cases_are(list_global, want, 5);
}
END_TEST

START_TEST(test_list_variants)
{
	/* In the order the harness runs them: variant by variant. */
	static const char *const want[] = { "f.v1.t1", "f.v1.t2", "f.v1.t3",
					    "f.v2.t1", "f.v2.t2", "f.v2.t3" };

	cases_are(list_variants, want, 6);
}
END_TEST

START_TEST(test_list_long_names)
{
	static const char *const want[] = {
		"a_fixture_name_longer_than_twenty."
		"a_variant_name_longer_than_25_chars.a_test",
		"a_fixture_name_longer_than_twenty."
		"a_variant_name_longer_than_25_chars."
		"a_test_name_that_is_quite_long_too",
		"a_fixture_name_longer_than_twenty.short_v.a_test",
		"a_fixture_name_longer_than_twenty.short_v."
		"a_test_name_that_is_quite_long_too",
	};
	static const char *const widths[] = {
		"fixture_of_twenty_ch.only",
		"a_fixture_without_any_variant.one",
		"a_fixture_without_any_variant.two",
		"g.v1.t",
		"g.second_variant_name_over_25.t",
		"g.variant_name_of_exactly25.t",
	};

	cases_are(list_long, want, 4);
	cases_are(list_widths, widths, 6);
}
END_TEST

START_TEST(test_list_fixtures)
{
	static const char *const want[] = {
		"global.first",	    "global.second",	"profile.load",
		"profile.replace",  "profile.remove",	"net.ipv4.bind",
		"net.ipv4.connect", "net.ipv6.bind",	"net.ipv6.connect",
		"net.unix.bind",    "net.unix.connect",
	};

	cases_are(list_three, want, 11);
}
END_TEST

START_TEST(test_list_garbage)
{
	char **cases = (char **)1;

	ck_assert_int_eq(crash_list_cases("", &cases), -1);
	ck_assert_ptr_null(cases);
	cases = (char **)1;
	ck_assert_int_eq(
		crash_list_cases("TAP version 13\n1..5\nok 1 x\n", &cases), -1);
	ck_assert_ptr_null(cases);
	/* A harness without "-l": its usage, no header. */
	ck_assert_int_eq(crash_list_cases("./t: invalid option -- 'l'\n"
					  "Usage: ./t [-h|-d] [-t|-T|-v|-V|-f|"
					  "-F|-r name]\n",
					  &cases),
			 -1);
	/* The rows without their header. */
	ck_assert_int_eq(crash_list_cases(list_three + strlen(HEADER), &cases),
			 -1);
	ck_assert_ptr_null(cases);
	/* A header and no tests at all: a listing, of nothing. */
	ck_assert_int_eq(crash_list_cases(HEADER "global                     "
						 "                    \n",
					  &cases),
			 0);
	free(cases);
}
END_TEST

/* --- crash_args_cases ---------------------------------------------------- */

START_TEST(test_args_cases)
{
	char **cases;

	ck_assert_int_eq(crash_args_cases("-r f.v.a -r global.b", &cases), 2);
	ck_assert_str_eq(cases[0], "f.v.a");
	ck_assert_str_eq(cases[1], "global.b");
	free(cases[0]);
	free(cases[1]);
	free(cases);
	ck_assert_int_eq(crash_args_cases("-r one", &cases), 1);
	ck_assert_str_eq(cases[0], "one");
	free(cases[0]);
	free(cases);
}
END_TEST

/* Anything but cases alone: "every other case" is not known from it. */
START_TEST(test_args_cases_other)
{
	static const char *const bad[] = {
		"",	      "-v",	 "-r",	 "-r ",	  "-r  a", "-r a -v",
		"-r a  -r b", "-r a -r", "-t a", "-r a ", " -r a", "-ra",
	};
	char **cases = (char **)1;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(crash_args_cases(bad[i], &cases) == -1,
			      "\"%s\" taken as cases", bad[i]);
		ck_assert_ptr_null(cases);
	}
}
END_TEST

/* --- crash_trace --------------------------------------------------------- */

#define BOOT                                                                    \
	"[    0.000000] Linux version 7.2.13+deb14-amd64 (debian-kernel@lists." \
	"debian.org)\n"                                                         \
	"[    0.000000] Command line: console=ttyS0 panic=-1\n"                 \
	"[    1.020000] LSM: initializing lsm=lockdown,capability,apparmor\n"   \
	"[    5.500000] ------------[ cut here ]------------\n"                 \
	"[    5.500001] WARNING: CPU: 0 PID: 1 at kernel/foo.c:12 bar+0x1/0x2\n"

#define PANIC                                                                \
	"[    6.259769] Kernel panic - not syncing: sysrq triggered crash\n" \
	"[    6.259800] CPU: 0 UID: 0 PID: 95 Comm: crash_test Not tainted " \
	"7.2.13+deb14-amd64 #1  Debian 7.2.13-1\n"                           \
	"[    6.259801] Call Trace:\n"                                       \
	"[    6.259802]  <TASK>\n"                                           \
	"[    6.259803]  dump_stack_lvl+0x5d/0x80\n"                         \
	"[    6.259804]  panic+0x118/0x2f0\n"                                \
	"[    6.259805]  sysrq_handle_crash+0x16/0x20\n"                     \
	"[    6.259806]  </TASK>\n"                                          \
	"[    6.259900] Kernel Offset: disabled\n"

static char *trace(const char *console, unsigned int max_lines)
{
	return crash_trace(console, strlen(console), max_lines);
}

START_TEST(test_trace_panic)
{
	char *t = trace(BOOT "[    6.259768] sysrq: Trigger a crash\n" PANIC,
			100);

	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(t, PANIC);
	free(t);
}
END_TEST

#define OOPS                                                              \
	"[    7.100000] Oops: general protection fault, probably for "    \
	"non-canonical address 0xdead000000000100: 0000 [#1] SMP NOPTI\n" \
	"[    7.100002] RIP: 0010:aa_label_free+0x12/0x40\n"              \
	"[    7.100007] ---[ end trace 0000000000000000 ]---\n"           \
	"[    7.100008] Kernel panic - not syncing: Fatal exception\n"

#define NULL_DEREF                                                       \
	"[    8.000000] BUG: kernel NULL pointer dereference, address: " \
	"0000000000000000\n"                                             \
	"[    8.000001] #PF: supervisor read access in kernel mode\n"    \
	"[    8.000002] Oops: 0000 [#1] SMP NOPTI\n"                     \
	"[    8.000003] Kernel panic - not syncing: Fatal exception\n"

#define NOISE "[    7.000000] lsmconf: noise\nmore noise\n"

START_TEST(test_trace_oops_first)
{
	char *t;

	t = trace(BOOT NOISE OOPS, 100);
	ck_assert_str_eq(t, OOPS);
	free(t);
	/* A BUG line before its Oops starts the report. */
	t = trace(BOOT NOISE NULL_DEREF, 100);
	ck_assert_str_eq(t, NULL_DEREF);
	free(t);
}
END_TEST

START_TEST(test_trace_none)
{
	ck_assert_ptr_null(trace("", 100));
	ck_assert_ptr_null(trace("[    0.000000] Linux version 7.2.13\n", 100));
	/* A WARNING alone is no crash. */
	ck_assert_ptr_null(trace(BOOT, 100));
	ck_assert_ptr_null(trace("ok 3 test_BUG_detector\n"
				 "#  RUN           global.Oops: ...\n",
				 100));
}
END_TEST

START_TEST(test_trace_max_lines)
{
	char *t = trace(BOOT PANIC, 3);

	ck_assert_str_eq(
		t, "[    6.259769] Kernel panic - not syncing: sysrq "
		   "triggered crash\n"
		   "[    6.259800] CPU: 0 UID: 0 PID: 95 Comm: crash_test "
		   "Not tainted 7.2.13+deb14-amd64 #1  Debian 7.2.13-1\n"
		   "[    6.259801] Call Trace:\n");
	free(t);
	t = trace(BOOT PANIC, 1);
	ck_assert_str_eq(t, "[    6.259769] Kernel panic - not syncing: sysrq "
			    "triggered crash\n");
	free(t);
}
END_TEST

START_TEST(test_trace_last_line)
{
	/* The console cut off without a newline: the line still ends in one. */
	char *t = trace("boot\n[    6.1] Kernel panic - not syncing: x\n"
			"[    6.2] Kernel Off",
			100);

	ck_assert_str_eq(t, "[    6.1] Kernel panic - not syncing: x\n"
			    "[    6.2] Kernel Off\n");
	free(t);
}
END_TEST

START_TEST(test_trace_crlf)
{
	/* The serial console ends its lines with CR LF; the report does not. */
	char *t = trace("[    0.0] Linux version 7.2.13\r\n"
			"[    6.1] Kernel panic - not syncing: x\r\n"
			"[    6.2] Call Trace:\r\n",
			100);

	ck_assert_str_eq(t, "[    6.1] Kernel panic - not syncing: x\n"
			    "[    6.2] Call Trace:\n");
	free(t);
}
END_TEST

/* --- crash_mark_line, crash_console_case, crash_case_reported ---------- */

START_TEST(test_mark_line)
{
	char kase[64];
	const char *l;

	l = "[   12.345678] kselftest: rose_socket_test: RUN global.crash\r\n";
	ck_assert(crash_mark_line(l, strlen(l), "rose_socket_test", kase,
				  sizeof(kase)));
	ck_assert_str_eq(kase, "global.crash");
	l = "kselftest: t: RUN f.v.c";
	ck_assert(crash_mark_line(l, strlen(l), "t", kase, sizeof(kase)));
	ck_assert_str_eq(kase, "f.v.c");
	/* Another program's, or one whose name only starts the same. */
	l = "[ 1.0] kselftest: t2: RUN f.c\n";
	ck_assert(!crash_mark_line(l, strlen(l), "t", kase, sizeof(kase)));
	l = "[ 1.0] kselftest: Running tests in apparmor\n";
	ck_assert(
		!crash_mark_line(l, strlen(l), "apparmor", kase, sizeof(kase)));
	/* A name longer than the buffer is no name. */
	l = "kselftest: t: RUN a_rather_long_case_name";
	ck_assert(!crash_mark_line(l, strlen(l), "t", kase, 8));
}
END_TEST

/* The init's markers around a test, and the tests' announcements. */
#define CON_RUN(t) "lsmconf: run " t " 300\r\n"
#define CON_MARK(ts, t, c) "[ " ts "] kselftest: " t ": RUN " c "\r\n"

static int console_case(const char *console, const char *test, char *kase)
{
	return crash_console_case(console, strlen(console), test, kase, 256);
}

START_TEST(test_console_last_before_panic)
{
	char kase[256];

	ck_assert_int_eq(
		console_case(
			BOOT CON_RUN("t") CON_MARK("5.6", "t", "global.a")
				CON_MARK("5.7", "t", "global.b")
					PANIC CON_MARK("9.9", "t", "global.z"),
			"t", kase),
		0);
	ck_assert_str_eq(kase, "global.b");
}
END_TEST

START_TEST(test_console_per_test)
{
	char kase[256] = "";

	/* A test's announcements do not carry over to the next test. */
	ck_assert_int_eq(
		console_case(
			BOOT CON_RUN("t") CON_MARK(
				"5.6", "t",
				"global.a") "lsmconf: done t rc=0\r\n" CON_RUN("u")
				PANIC,
			"u", kase),
		-1);
	/* Nor do those of an earlier run of the same test. */
	ck_assert_int_eq(
		console_case(
			BOOT CON_RUN("t") CON_MARK(
				"5.6", "t",
				"global.a") "lsmconf: done t rc=0\r\n" PANIC,
			"t", kase),
		-1);
	ck_assert_int_eq(
		console_case(
			BOOT CON_RUN("t") CON_MARK(
				"5.6", "t",
				"global.a") "lsmconf: done t rc=0\r\n" CON_RUN("t")
				CON_MARK("6.0", "t", "global.b") PANIC,
			"t", kase),
		0);
	ck_assert_str_eq(kase, "global.b");
	/* Without a panic, the last announced (the boot hung in it). */
	ck_assert_int_eq(console_case(BOOT CON_RUN("t")
					      CON_MARK("5.6", "t", "f.v.c"),
				      "t", kase),
			 0);
	ck_assert_str_eq(kase, "f.v.c");
}
END_TEST

START_TEST(test_console_before_run_line)
{
	char kase[256] = "";

	/* run_kselftest.sh -c: the "run" line comes from the piped output. */
	ck_assert_int_eq(console_case(BOOT CON_MARK("5.6", "t", "global.a")
					      CON_RUN("t") PANIC,
				      "t", kase),
			 0);
	ck_assert_str_eq(kase, "global.a");
}
END_TEST

START_TEST(test_console_program)
{
	const char *c =
		BOOT "[ 1.0] kselftest: Running tests in apparmor\n" CON_MARK(
			"5.6", "t", "global.a")
			CON_MARK("5.7", "u",
				 "f.b") "[ 5.8] kselftest: not a mark\n" PANIC;
	char prog[64];

	ck_assert_int_eq(
		crash_console_program(c, strlen(c), prog, sizeof(prog)), 0);
	ck_assert_str_eq(prog, "u");
	c = BOOT "[ 1.0] kselftest: Running tests in apparmor\n" PANIC;
	ck_assert_int_eq(
		crash_console_program(c, strlen(c), prog, sizeof(prog)), -1);
}
END_TEST

START_TEST(test_case_reported)
{
	const char *sec = "#  RUN           global.a ...\n"
			  "#            OK  global.a\n"
			  "ok 1 global.a\n"
			  "#  RUN           global.b ...\n"
			  "not ok 2 global.b # exit=1\n"
			  "#  RUN           global.c ...\n";

	ck_assert(crash_case_reported(sec, strlen(sec), "global.a"));
	ck_assert(crash_case_reported(sec, strlen(sec), "global.b"));
	ck_assert(!crash_case_reported(sec, strlen(sec), "global.c"));
	ck_assert(!crash_case_reported(sec, strlen(sec), "global"));
}
END_TEST

int main(void)
{
	return CHECK_RUN(
		"crash", test_section_pick, test_section_prefix,
		test_section_twice, test_section_missing,
		test_section_no_newline, test_section_crlf, test_open_running,
		test_open_none, test_open_not_ok, test_open_variant,
		test_open_other_result, test_open_crlf, test_open_small_buffer,
		test_list_global, test_list_variants, test_list_long_names,
		test_list_fixtures, test_list_garbage, test_args_cases,
		test_args_cases_other, test_trace_panic, test_trace_oops_first,
		test_trace_none, test_trace_max_lines, test_trace_last_line,
		test_trace_crlf, test_mark_line, test_console_last_before_panic,
		test_console_per_test, test_console_before_run_line,
		test_console_program, test_case_reported);
}
