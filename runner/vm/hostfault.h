/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whose fault the end of a boot is. Only the guest's own report (a
 * panic, an oops, a BUG, a stall, a report still open) speaks against
 * the kernel; QEMU's own exit status, a signal, a QEMU that could not
 * start, and a deadline that passed while the host starved QEMU of CPU
 * are the host's, and a host failure is never a verdict on the kernel.
 *
 * The starvation rule: a deadline (the silence, the init's, a test's
 * bound, the whole boot's) passed while the host starved QEMU when,
 * within the deadline's window, some thread of QEMU was runnable but
 * waited for a CPU for at least half the window (the run-queue wait of
 * /proc/PID/task/TID/schedstat). A guest that is busy (QEMU on a CPU)
 * or idle (QEMU asleep, a halted guest) waits for no CPU: its hang
 * stays the kernel's. Where the kernel keeps no schedstat, no wait is
 * seen and every deadline stays the kernel's, as before.
 */
#ifndef LSMCONF_HOSTFAULT_H
#define LSMCONF_HOSTFAULT_H

#include "boot.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The run-queue figures of one process's threads at one moment. */
struct sched_snap {
	size_t n;
	struct {
		pid_t tid;
		unsigned long long wait_ns; /* runnable, waiting for a CPU */
	} v[64];
};

/*
 * Parses a schedstat line ("RUN_NS WAIT_NS SLICES") into *@wait_ns;
 * 0, or -1 when it is not one.
 */
int sched_parse(const char *text, unsigned long long *wait_ns);
/* The threads of @pid now (none when /proc says nothing). */
void sched_sample(pid_t pid, struct sched_snap *s);
/*
 * The longest wait for a CPU of any thread of @now since @then (a thread
 * not in @then waited since it started), in seconds.
 */
double sched_wait_since(const struct sched_snap *then,
			const struct sched_snap *now);
/* The starvation rule above: @wait_s of a @window_s window. */
bool host_starved(double window_s, double wait_s);

/* What is known of a boot when it ended, for boot_host_fault(). */
struct boot_facts {
	enum boot_end end;
	/* QEMU's exit status, 128+N for signal N; -1: it did not exit by itself */
	int status;
	/* The console shows a report that can end a boot (not a WARNING). */
	bool kernel_report;
	bool host_signal; /* QMP: QEMU shut down on a signal from the host */
	/* For an end by a deadline: its window and QEMU's longest CPU wait. */
	double window_s, wait_s;
	unsigned int console_line; /* complete console lines by then */
	const char *reason; /* the watcher's one line */
	const char *said; /* QEMU's own line from qemu.log, or "" */
};

/*
 * Whether the boot @f describes ended by the host's fault; if so its
 * one line ("QEMU exited with status 1 at console line 412, no kernel
 * report: ...") in @why. A kernel report on the console always makes
 * the end the kernel's.
 */
bool boot_host_fault(const struct boot_facts *f, char *why, size_t size);

#endif
