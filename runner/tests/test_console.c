// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/vm/console.c
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "vm/console.h"

static struct console_scan scan;

static void scan_str(const char *text)
{
	console_scan(text, strlen(text), &scan);
}

static unsigned int total(void)
{
	unsigned int n = 0;
	int e;

	for (e = 0; e < CONSOLE_N_EVENTS; e++)
		n += scan.count[e];
	return n;
}

START_TEST(test_panic)
{
	scan_str("[    0.000000] Linux version 6.8.0\n"
		 "[    1.234567] Kernel panic - not syncing: No init found.\n"
		 "[    1.234600] ---[ end Kernel panic - not syncing: No init "
		 "found. ]---\n");
	ck_assert_uint_eq(scan.count[CONSOLE_PANIC], 2);
	ck_assert_uint_eq(total(), 2);
	ck_assert_uint_eq(scan.first[CONSOLE_PANIC].line, 2);
	ck_assert_int_eq(scan.first[CONSOLE_PANIC].event, CONSOLE_PANIC);
	ck_assert_str_eq(scan.first[CONSOLE_PANIC].text,
			 "Kernel panic - not syncing: No init found.");
}
END_TEST

START_TEST(test_oops)
{
	scan_str("BUG: unable to handle page fault for address: 0000\n"
		 "Oops: 0002 [#1] PREEMPT SMP NOPTI\n"
		 "general protection fault, probably for non-canonical "
		 "address\n");
	ck_assert_uint_eq(scan.count[CONSOLE_OOPS], 3);
	ck_assert_uint_eq(scan.count[CONSOLE_BUG], 0);
	ck_assert_uint_eq(scan.first[CONSOLE_OOPS].line, 1);
}
END_TEST

START_TEST(test_bug)
{
	scan_str("BUG: KASAN: slab-use-after-free in aa_label_free+0x1/0x2\n"
		 "kernel BUG at security/apparmor/label.c:42!\n"
		 "UBSAN: array-index-out-of-bounds in policy.c:10:3\n"
		 "KASAN: null-ptr-deref in range [0x0-0x7]\n"
		 "BUG: KFENCE: out-of-bounds read in foo\n"
		 "list_add corruption. prev->next should be next\n"
		 "refcount_t: underflow; use-after-free.\n"
		 "BUG: sleeping function called from invalid context\n");
	ck_assert_uint_eq(scan.count[CONSOLE_BUG], 8);
	ck_assert_uint_eq(total(), 8);
	ck_assert_uint_eq(scan.first[CONSOLE_BUG].line, 1);
}
END_TEST

START_TEST(test_warning)
{
	scan_str("[    2.000000] ------------[ cut here ]------------\n"
		 "[    2.000001] WARNING: CPU: 0 PID: 1 at kernel/foo.c:12 "
		 "bar+0x1/0x2\n"
		 "[    2.000002] Modules linked in:\n"
		 "[    2.000003] ---[ end trace 0000000000000000 ]---\n");
	ck_assert_uint_eq(scan.count[CONSOLE_WARNING], 1);
	ck_assert_uint_eq(total(), 1);
	ck_assert_uint_eq(scan.first[CONSOLE_WARNING].line, 2);
	ck_assert_str_eq(scan.first[CONSOLE_WARNING].text,
			 "WARNING: CPU: 0 PID: 1 at kernel/foo.c:12 "
			 "bar+0x1/0x2");
}
END_TEST

START_TEST(test_stall)
{
	scan_str("rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n"
		 "INFO: rcu_sched self-detected stall on CPU\n"
		 "INFO: task apparmor_parser:123 blocked for more than 120 "
		 "seconds.\n"
		 "INFO: task list is empty\n"
		 "watchdog: BUG: soft lockup - CPU#0 stuck for 22s!\n");
	ck_assert_uint_eq(scan.count[CONSOLE_STALL], 4);
	ck_assert_uint_eq(scan.count[CONSOLE_BUG], 0);
	ck_assert_uint_eq(total(), 4);
	ck_assert_uint_eq(scan.first[CONSOLE_STALL].line, 1);
}
END_TEST

START_TEST(test_timestamps_and_levels)
{
	scan_str("<4>WARNING: CPU: 1 PID: 2 at a.c:1 f\n"
		 "<0>[   12.5] Kernel panic - not syncing: x\n"
		 "[    3.100000][    T1] BUG: unable to handle kernel paging\n"
		 "[ 123456.000001] <3>kernel BUG at mm/slub.c:1!\n"
		 "[5] WARNING: CPU: 0 PID: 0 at b.c:2 g\n");
	ck_assert_uint_eq(scan.count[CONSOLE_WARNING], 2);
	ck_assert_uint_eq(scan.count[CONSOLE_PANIC], 1);
	ck_assert_uint_eq(scan.count[CONSOLE_OOPS], 1);
	ck_assert_uint_eq(scan.count[CONSOLE_BUG], 1);
	ck_assert_str_eq(scan.first[CONSOLE_WARNING].text,
			 "WARNING: CPU: 1 PID: 2 at a.c:1 f");
	ck_assert_str_eq(scan.first[CONSOLE_PANIC].text,
			 "Kernel panic - not syncing: x");
	ck_assert_str_eq(scan.first[CONSOLE_OOPS].text,
			 "BUG: unable to handle kernel paging");
	ck_assert_str_eq(scan.first[CONSOLE_BUG].text,
			 "kernel BUG at mm/slub.c:1!");
}
END_TEST

START_TEST(test_no_false_positives)
{
	scan_str("ok 3 test_BUG_detector\n"
		 "# WARNING count: 0\n"
		 "[    1.000000] apparmor: test_WARNING: fine\n"
		 "[    1.000000]  WARNING: indented\n"
		 "#  RUN           global.Kernel panic - not syncing ...\n"
		 "xBUG: nope\n"
		 "warning: lower case\n"
		 "Bug: mixed case\n"
		 "INFO: task foo:1 finished\n"
		 "[ 1.0 garbage] BUG: broken timestamp\n"
		 "------------[ cut here ]------------\n");
	ck_assert_uint_eq(total(), 0);
}
END_TEST

START_TEST(test_first_occurrence)
{
	scan_str("boot\n"
		 "WARNING: first\n"
		 "x\n"
		 "WARNING: second\n"
		 "BUG: first bug\n"
		 "WARNING: third\n"
		 "BUG: second bug\n");
	ck_assert_uint_eq(scan.count[CONSOLE_WARNING], 3);
	ck_assert_uint_eq(scan.count[CONSOLE_BUG], 2);
	ck_assert_uint_eq(scan.first[CONSOLE_WARNING].line, 2);
	ck_assert_str_eq(scan.first[CONSOLE_WARNING].text, "WARNING: first");
	ck_assert_uint_eq(scan.first[CONSOLE_BUG].line, 5);
	ck_assert_str_eq(scan.first[CONSOLE_BUG].text, "BUG: first bug");
	ck_assert_uint_eq(scan.first[CONSOLE_PANIC].line, 0);
}
END_TEST

START_TEST(test_crlf_nul_and_bytes)
{
	static const char text[] = "a\0b\r\n"
				   "\xff\xfe garbage\r\n"
				   "[    1.000000] BUG: x\0y\xc3\r\n"
				   "WARNING: no newline at end";

	console_scan(text, sizeof(text) - 1, &scan);
	ck_assert_uint_eq(scan.bytes, sizeof(text) - 1);
	ck_assert_uint_eq(scan.count[CONSOLE_BUG], 1);
	ck_assert_uint_eq(scan.first[CONSOLE_BUG].line, 3);
	ck_assert_str_eq(scan.first[CONSOLE_BUG].text, "BUG: x?y\xc3");
	ck_assert_uint_eq(scan.count[CONSOLE_WARNING], 1);
	ck_assert_uint_eq(scan.first[CONSOLE_WARNING].line, 4);
	ck_assert_str_eq(scan.first[CONSOLE_WARNING].text,
			 "WARNING: no newline at end");
}
END_TEST

START_TEST(test_long_line)
{
	char text[400];
	size_t len;

	memset(text, 'x', sizeof(text));
	memcpy(text, "[    1.000000] BUG: ", 20);
	len = sizeof(text);
	console_scan(text, len, &scan);
	ck_assert_uint_eq(scan.count[CONSOLE_BUG], 1);
	ck_assert_uint_eq(strlen(scan.first[CONSOLE_BUG].text), 159);
	ck_assert(!strncmp(scan.first[CONSOLE_BUG].text, "BUG: xxx", 8));
}
END_TEST

START_TEST(test_verdict_order)
{
	char buf[256];

	scan_str("rcu: INFO: rcu_sched detected stalls\n"
		 "WARNING: CPU: 0 PID: 1 at a.c:1 f\n");
	ck_assert(console_verdict(&scan, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "kernel WARNING at console line 2: "
			      "WARNING: CPU: 0 PID: 1 at a.c:1 f");

	scan_str("rcu: INFO: rcu_sched detected stalls\n");
	ck_assert(console_verdict(&scan, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "kernel stall at console line 1: "
			      "rcu: INFO: rcu_sched detected stalls");

	scan_str("WARNING: w\nBUG: b\nOops: o\n");
	ck_assert(console_verdict(&scan, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "kernel oops at console line 3: Oops: o");

	scan_str("WARNING: w\nBUG: b\n");
	ck_assert(console_verdict(&scan, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "kernel BUG at console line 2: BUG: b");
}
END_TEST

START_TEST(test_verdict_panic)
{
	char buf[256];
	char small[8];

	scan_str("Oops: 0000 [#1] SMP\n"
		 "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"
		 "11\n12\n13\n14\n15\n16\n17\n18\n19\n20\n"
		 "21\n22\n23\n24\n25\n26\n27\n28\n29\n30\n"
		 "31\n32\n33\n34\n35\n36\n37\n38\n39\n40\n"
		 "[    9.999999] Kernel panic - not syncing: No working init "
		 "found\n");
	ck_assert(console_verdict(&scan, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "kernel panic at console line 42: Kernel panic "
			      "- not syncing: No working init found");
	ck_assert(console_verdict(&scan, small, sizeof(small)));
	ck_assert_str_eq(small, "kernel ");
}
END_TEST

START_TEST(test_empty)
{
	char buf[16] = "junk";
	int e;

	console_scan("", 0, &scan);
	ck_assert_uint_eq(scan.bytes, 0);
	ck_assert_uint_eq(total(), 0);
	for (e = 0; e < CONSOLE_N_EVENTS; e++)
		ck_assert_uint_eq(scan.first[e].line, 0);
	ck_assert(!console_verdict(&scan, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "");

	scan_str("\n\n\r\n");
	ck_assert_uint_eq(scan.bytes, 4);
	ck_assert_uint_eq(total(), 0);
	ck_assert(!console_verdict(&scan, buf, sizeof(buf)));
}
END_TEST

static enum console_line_kind kind(const char *line)
{
	return console_line_kind(line, strlen(line));
}

/* The lines after which a kernel gets no further end a running boot. */
START_TEST(test_line_kind_fatal)
{
	static const char *const fatal[] = {
		"[    0.089456] kernel BUG at lib/string_helpers.c:1044!",
		"PANIC: early exception 0x06 IP 10:ffffffff81b2c3d4 error 0",
		"<0>[   12.5] Kernel panic - not syncing: Fatal exception\r",
		"[    3.1] Oops: general protection fault, probably for ...",
		"[    3.1] Oops: 0000 [#1] PREEMPT SMP NOPTI",
		"general protection fault, maybe for address 0x1: 0000 [#1]",
		"[    7.7] BUG: unable to handle page fault for address: 08",
		"[    7.7] BUG: kernel NULL pointer dereference, address: 08",
	};
	size_t i;

	for (i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
		ck_assert_msg(kind(fatal[i]) == CONSOLE_LINE_FATAL, "%s",
			      fatal[i]);
}
END_TEST

/* A report's frame marks a trace; warnings and the rest do not end a boot. */
START_TEST(test_line_kind_trace_and_other)
{
	ck_assert_int_eq(kind("[    5.0] ------------[ cut here ]------------"),
			 CONSOLE_LINE_TRACE);
	ck_assert_int_eq(kind("[    5.2] ---[ end trace 0000000000000000 ]---"),
			 CONSOLE_LINE_TRACE);
	ck_assert_int_eq(kind("[    5.1] WARNING: CPU: 0 PID: 1 at mm/x.c:1"),
			 CONSOLE_LINE_OTHER);
	ck_assert_int_eq(kind("BUG: sleeping function called from invalid"),
			 CONSOLE_LINE_OTHER);
	ck_assert_int_eq(kind("UBSAN: shift-out-of-bounds in x.c:3:4"),
			 CONSOLE_LINE_OTHER);
	ck_assert_int_eq(kind("Probing EDD (edd=off to disable)... ok"),
			 CONSOLE_LINE_OTHER);
	ck_assert_int_eq(kind("lsmconf: run kernel BUG at x"),
			 CONSOLE_LINE_OTHER);
	ck_assert_int_eq(kind(""), CONSOLE_LINE_OTHER);
}
END_TEST

/* The early exception counts as a panic in a scan of the whole log. */
START_TEST(test_early_exception_is_panic)
{
	scan_str("kernel BUG at lib/string_helpers.c:1044!\n"
		 "PANIC: early exception 0x06 IP 10:ffffffff81b2c3d4\n");
	ck_assert_uint_eq(scan.count[CONSOLE_PANIC], 1);
	ck_assert_uint_eq(scan.count[CONSOLE_BUG], 1);
	ck_assert_uint_eq(scan.first[CONSOLE_PANIC].line, 2);
}
END_TEST

START_TEST(test_event_names)
{
	ck_assert_str_eq(console_event_name(CONSOLE_PANIC), "panic");
	ck_assert_str_eq(console_event_name(CONSOLE_OOPS), "oops");
	ck_assert_str_eq(console_event_name(CONSOLE_BUG), "BUG");
	ck_assert_str_eq(console_event_name(CONSOLE_WARNING), "WARNING");
	ck_assert_str_eq(console_event_name(CONSOLE_STALL), "stall");
}
END_TEST

/* A boot that warned, locked badly, stalled, then oopsed in its last test. */
static const char boot_log[] =
	"[    1.0] Linux version 7.2.13\n" /* 1 */
	"lsmconf: run first_test 300\n" /* 2 */
	"[    2.0] refcount_t: underflow; use-after-free.\n" /* 3 */
	"[    2.0] WARNING: CPU: 0 PID: 9 at lib/refcount.c:28 refcount_warn_saturate+0x1/0x2\n"
	"[    2.0] Call Trace:\n" /* 5 */
	"[    2.0] ---[ end trace 0000000000000000 ]---\n" /* 6 */
	"[    2.1] WARNING: possible circular locking dependency detected\n" /* 7 */
	"lsmconf: done first_test rc=0\n" /* 8 */
	"[    3.0] WARNING: inconsistent lock state\n" /* 9 */
	"lsmconf: run second_test 300\n" /* 10 */
	"[    4.0] UBSAN: array-index-out-of-bounds in x.c:1:2\n" /* 11 */
	"[    4.0] ---[ end trace 0000000000000000 ]---\n" /* 12 */
	"[    5.0] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:\n" /* 13 */
	"[    9.0] BUG: kernel NULL pointer dereference, address: 4c\n" /* 14 */
	"[    9.0] #PF: supervisor read access in kernel mode\n" /* 15 */
	"[    9.0] Oops: Oops: 0000 [#1] SMP NOPTI\n" /* 16 */
	"[    9.0] RIP: 0010:aa_label_merge+0x71/0x770\n" /* 17 */
	"[    9.0] ---[ end trace 0000000000000000 ]---\n" /* 18 */
	"[    9.1] Kernel panic - not syncing: Fatal exception\n"; /* 19 */

/* The boot above as if it had hung before its oops. */
static size_t hung_len(void)
{
	return strstr(boot_log, "[    9.0] BUG") - boot_log;
}

START_TEST(test_fatal_line)
{
	static const char sysrq[] =
		"x\nlsmconf: run t 9\n"
		"[ 1.0] WARNING: CPU: 0 at a.c:1 f+0x1/0x2\n"
		"[ 1.0] ---[ end trace 0 ]---\n"
		"[ 2.0] sysrq: Trigger a crash\n"
		"[ 2.0] Kernel panic - not syncing: sysrq triggered crash\n";

	/* The oops from the BUG line that heads it, not the panic. */
	ck_assert_uint_eq(console_fatal_line(boot_log, strlen(boot_log)), 14);
	/* A panic of its own: the panic line; the WARNING before is not it. */
	ck_assert_uint_eq(console_fatal_line(sysrq, strlen(sysrq)), 6);
	/* A boot that ended cleanly, hung or timed out has none. */
	ck_assert_uint_eq(console_fatal_line(boot_log, hung_len()), 0);
	ck_assert_uint_eq(console_fatal_line("", 0), 0);
}
END_TEST

START_TEST(test_problems)
{
	struct console_problem *p;
	size_t n = console_problems(boot_log, strlen(boot_log), &p);

	ck_assert_uint_eq(n, 5);
	/* refcount_t and its WARNING are one report. */
	ck_assert_int_eq(p[0].event, CONSOLE_BUG);
	ck_assert_uint_eq(p[0].line, 3);
	ck_assert_str_eq(p[0].text, "refcount_t: underflow; use-after-free.");
	ck_assert_str_eq(p[0].test, "first_test");
	/* Lockdep, after the first report ended. */
	ck_assert_int_eq(p[1].event, CONSOLE_WARNING);
	ck_assert_uint_eq(p[1].line, 7);
	ck_assert_str_eq(p[1].test, "first_test");
	/* Between tests. */
	ck_assert_str_eq(p[2].text, "WARNING: inconsistent lock state");
	ck_assert_str_eq(p[2].test, "");
	ck_assert_str_eq(p[3].text,
			 "UBSAN: array-index-out-of-bounds in x.c:1:2");
	ck_assert_str_eq(p[3].test, "second_test");
	ck_assert_int_eq(p[4].event, CONSOLE_STALL);
	ck_assert_str_eq(p[4].test, "second_test");
	/* The fatal oops is the crash's, not a problem of its own. */
	free(p);

	/* A boot without a panic (it hung): everything to its end. */
	n = console_problems(boot_log, hung_len(), &p);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(p[4].event, CONSOLE_STALL);
	free(p);
	ck_assert_uint_eq(console_problems("lsmconf: run a 1\nok\n", 19, &p),
			  0);
	ck_assert_ptr_null(p);
}
END_TEST

static Suite *console_suite(void)
{
	Suite *s = suite_create("console");
	TCase *tc = tcase_create("scan");

	tcase_add_test(tc, test_panic);
	tcase_add_test(tc, test_oops);
	tcase_add_test(tc, test_bug);
	tcase_add_test(tc, test_warning);
	tcase_add_test(tc, test_stall);
	tcase_add_test(tc, test_timestamps_and_levels);
	tcase_add_test(tc, test_no_false_positives);
	tcase_add_test(tc, test_first_occurrence);
	tcase_add_test(tc, test_crlf_nul_and_bytes);
	tcase_add_test(tc, test_long_line);
	tcase_add_test(tc, test_verdict_order);
	tcase_add_test(tc, test_verdict_panic);
	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_event_names);
	tcase_add_test(tc, test_line_kind_fatal);
	tcase_add_test(tc, test_line_kind_trace_and_other);
	tcase_add_test(tc, test_early_exception_is_panic);
	tcase_add_test(tc, test_fatal_line);
	tcase_add_test(tc, test_problems);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(console_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
