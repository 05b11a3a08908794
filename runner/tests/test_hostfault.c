// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/vm/hostfault.c: whose fault the end of a boot
 * is, and the starvation rule.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_run.h"
#include "vm/hostfault.h"

static char why[512];

/* A boot that ended as @end, QEMU's status @status, nothing else known. */
static struct boot_facts facts(enum boot_end end, int status)
{
	return (struct boot_facts){ .end = end,
				    .status = status,
				    .console_line = 412,
				    .reason = "the watcher's reason",
				    .said = "" };
}

START_TEST(test_qemu_status)
{
	struct boot_facts f = facts(BOOT_EXITED, 1);

	f.said = "qemu-system-x86_64: cannot allocate memory";
	ck_assert(boot_host_fault(&f, why, sizeof(why)));
	ck_assert_str_eq(
		why,
		"QEMU exited with status 1 at console line 412, no kernel report: qemu-system-x86_64: cannot allocate memory");
	/* The OOM killer's SIGKILL. */
	f = facts(BOOT_EXITED, 128 + 9);
	ck_assert(boot_host_fault(&f, why, sizeof(why)));
	ck_assert_str_eq(
		why,
		"QEMU was killed by signal 9 at console line 412, no kernel report");
	/* A status after the guest said it sent its results: still QEMU's. */
	f = facts(BOOT_DONE, 2);
	ck_assert(boot_host_fault(&f, why, sizeof(why)));
}
END_TEST

/* QEMU exits 0 when the guest resets (-no-reboot): the guest's doing. */
START_TEST(test_guest_reset)
{
	struct boot_facts f = facts(BOOT_EXITED, 0);

	ck_assert(!boot_host_fault(&f, why, sizeof(why)));
	ck_assert_str_eq(why, "");
	/* Unless QMP said the host ended it (SIGTERM: QEMU exits 0). */
	f.host_signal = true;
	ck_assert(boot_host_fault(&f, why, sizeof(why)));
	ck_assert_str_eq(
		why,
		"QEMU shut down on a signal from the host at console line 412, no kernel report");
	/* QEMU killed by lsmconf itself at a deadline: status -1. */
	f = facts(BOOT_EXITED, -1);
	ck_assert(!boot_host_fault(&f, why, sizeof(why)));
}
END_TEST

/* The guest's report is the kernel's, whatever QEMU did next. */
START_TEST(test_kernel_report_wins)
{
	struct boot_facts f = facts(BOOT_EXITED, 1);

	f.kernel_report = true;
	ck_assert(!boot_host_fault(&f, why, sizeof(why)));
	f = facts(BOOT_EXITED, 128 + 9);
	f.kernel_report = true;
	ck_assert(!boot_host_fault(&f, why, sizeof(why)));
	f = facts(BOOT_TIMEOUT, -1);
	f.window_s = 100;
	f.wait_s = 90;
	f.kernel_report = true;
	ck_assert(!boot_host_fault(&f, why, sizeof(why)));
	f = facts(BOOT_PANIC, -1);
	ck_assert(!boot_host_fault(&f, why, sizeof(why)));
}
END_TEST

/*
 * A deadline is the host's only when QEMU waited for a CPU for half its
 * window: a busy guest (QEMU on a CPU) or an idle one (asleep) stays the
 * kernel's.
 */
START_TEST(test_starved_deadlines)
{
	static const enum boot_end ends[] = { BOOT_SILENT, BOOT_NOINIT,
					      BOOT_HUNG, BOOT_TIMEOUT };
	size_t i;

	for (i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		struct boot_facts f = facts(ends[i], -1);

		f.window_s = 60;
		f.wait_s = 2; /* busy or idle, not starved */
		ck_assert(!boot_host_fault(&f, why, sizeof(why)));
		f.wait_s = 30;
		ck_assert(boot_host_fault(&f, why, sizeof(why)));
		ck_assert_str_eq(
			why,
			"the host starved QEMU of CPU (a thread of it waited 30 s of 60 s for one) at console line 412, no kernel report: the watcher's reason");
	}
	/* Not a deadline's end: the wait does not matter. */
	{
		struct boot_facts f = facts(BOOT_STOPPED, -1);

		f.window_s = 60;
		f.wait_s = 59;
		ck_assert(!boot_host_fault(&f, why, sizeof(why)));
	}
	ck_assert(!host_starved(0, 0));
	ck_assert(!host_starved(10, 4.9));
	ck_assert(host_starved(10, 5));
}
END_TEST

START_TEST(test_nostart)
{
	struct boot_facts f = facts(BOOT_NOSTART, -1);

	f.reason = "cannot start qemu-system-x86_64: No such file or directory";
	ck_assert(boot_host_fault(&f, why, sizeof(why)));
	ck_assert_str_eq(
		why,
		"QEMU could not be started: cannot start qemu-system-x86_64: No such file or directory");
}
END_TEST

START_TEST(test_sched)
{
	struct sched_snap then = { 0 }, now = { 0 };
	unsigned long long w;

	ck_assert_int_eq(sched_parse("1234 5678 9\n", &w), 0);
	ck_assert_uint_eq(w, 5678);
	ck_assert_int_eq(sched_parse("", &w), -1);
	ck_assert_int_eq(sched_parse("12\n", &w), -1);
	/* The longest wait of a thread since then; a new thread's all. */
	then.n = 2;
	then.v[0].tid = 10;
	then.v[0].wait_ns = 1000000000ULL;
	then.v[1].tid = 11;
	then.v[1].wait_ns = 0;
	now.n = 3;
	now.v[0].tid = 10;
	now.v[0].wait_ns = 4000000000ULL; /* 3 s more */
	now.v[1].tid = 11;
	now.v[1].wait_ns = 2000000000ULL; /* 2 s */
	now.v[2].tid = 12;
	now.v[2].wait_ns = 2500000000ULL; /* new: 2.5 s */
	ck_assert_double_eq_tol(sched_wait_since(&then, &now), 3.0, 1e-9);
	ck_assert_double_eq_tol(sched_wait_since(NULL, &now), 4.0, 1e-9);
	/* This process: read from /proc, never negative. */
	sched_sample(getpid(), &now);
	ck_assert_uint_ge(now.n, 1);
	ck_assert(sched_wait_since(&now, &now) == 0);
}
END_TEST

int main(void)
{
	return CHECK_RUN("hostfault", test_qemu_status, test_guest_reset,
			 test_kernel_report_wins, test_starved_deadlines,
			 test_nostart, test_sched);
}
