/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private to vm/: one QEMU watched while it runs (boot.c starts it and
 * judges how it ended). The console, QMP and the data ports are read as
 * they come; each stage of the boot has a deadline, and the first reason
 * to stop is kept in the result.
 */
#ifndef LSMCONF_WATCH_H
#define LSMCONF_WATCH_H

#include "boot.h"
#include "hostfault.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct watch {
	const struct boot_opts *o;
	struct boot_result *r;
	pid_t pid;
	int pidfd, qmp, con, con_log;
	double t0, test_deadline, panic_deadline;
	double fatal_t; /* when the first fatal line came, 0: none */
	double stall_deadline; /* after a trace: progress due by then, 0: none */
	long long stall_sizes; /* data.bin + live.log bytes when armed */
	bool exited, sent;
	bool kernel_up; /* the kernel's first message ("Linux version") came */
	bool in_trace; /* between "cut here" and "end trace" */
	unsigned int lineno; /* complete console lines so far */
	char fatal[160]; /* the first fatal line, "" if none */
	char mark[256]; /* the running test's last announced case, or "" */
	/* QEMU's threads when the running test started, and when. */
	struct sched_snap test_sched;
	double test_t0;
	/* The deadline that ended the boot: its window, QEMU's CPU wait. */
	double window_s, wait_s;
	bool host_signal; /* QMP: QEMU shut down on a signal from the host */
	char conline[512], qmpline[1024];
	size_t conlen, qmplen;
};

/* Until QEMU exits or the boot has a reason to end (in w->r). */
void watch_loop(struct watch *w);
/*
 * After QEMU ended: what it wrote that is still in the FIFO, and a last
 * line without its newline, are read as if they had come in time.
 */
void watch_drain(struct watch *w);
/* One line of QEMU's own messages (qemu.log), for a reason. */
void qemu_said(const char *dir, char *out, size_t size);

#endif
