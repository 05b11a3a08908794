/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one place that starts QEMU, and watches it: QMP events and status,
 * the console as it arrives, and a deadline for each stage of the boot. A
 * boot ends as soon as it can no longer produce results.
 */
#ifndef LSMCONF_BOOT_H
#define LSMCONF_BOOT_H

#include <stdbool.h>

struct boot_opts {
	const char *kernel; /* bzImage */
	const char *initrd;
	const char *append; /* extra kernel command line, or NULL */
	/* results directory: console.log, data.bin, live.log, qemu.log */
	const char *dir;
	int memory_mb;
	int cpus;
	int timeout_s; /* the whole boot */
	int silence_s; /* no console output at all for this long: it failed */
	int grace_s; /* beyond a test's own bound: the guest is hung */
	/* the guest's init has not said "tests start" by then: it failed */
	int init_s;
	bool icount; /* -icount shift=0: guest time counts instructions */
	int seed; /* under icount: the guest clock's start (see rtc_base()) */
	/* The instruction profile plugin, its counts to dir/INSN_PROFILE. */
	bool profile;
};

enum boot_end {
	BOOT_DONE, /* the guest sent its results and QEMU exited */
	BOOT_EXITED, /* QEMU exited before that (a panic, a crash) */
	BOOT_PANIC, /* the console showed a panic and QEMU did not exit */
	BOOT_STOPPED, /* QEMU stopped the guest (internal-error...) */
	BOOT_SILENT, /* the guest printed nothing within silence_s */
	BOOT_NOINIT, /* output, but the init did not report within init_s */
	BOOT_HUNG, /* a test outlived its bound (the guest's own timeout too) */
	BOOT_TIMEOUT, /* the whole-boot bound */
	BOOT_NOSTART, /* QEMU could not be started */
};

/*
 * The kernel command line: the runner's console and crash settings, then
 * @append. x86 keeps at most BOOT_CMDLINE_MAX characters of it.
 */
#define BOOT_CMDLINE_MAX 2047
char *boot_cmdline(const char *append);
/* 2026-01-01T00:00:00Z: the guest clock's start under icount, seed 0. */
#define RTC_EPOCH 1767225600
/* Where the plugin writes, in a boot's results directory. */
#define INSN_PROFILE "insns.tsv"
#define INSN_PLUGIN LSMCONF_ROOT "/build/qemu/lsmconf-insns.so"
/* -rtc's argument under icount for @seed: "base=DATE,clock=vm". */
char *rtc_base(int seed);

struct boot_result {
	enum boot_end end;
	int status; /* QEMU's exit status when it exited by itself, else -1 */
	double seconds;
	double first_output_s; /* seconds to the first console byte, -1: none */
	bool kvm;
	bool tests_started; /* the guest said "tests start" */
	char running[128]; /* the test running when the boot ended, or "" */
	char reason[512]; /* one line, "" for BOOT_DONE */
	/*
	 * The end is the host's fault (hostfault.h: QEMU's own exit status,
	 * a signal, a deadline while the host starved QEMU), never the
	 * kernel's; @reason then says so, without the kernel's words.
	 */
	bool host;
	/* The console shows a report that can end a boot (not a WARNING). */
	bool kernel_report;
	unsigned int console_lines; /* complete console lines at the end */
	char *cmdline; /* the QEMU command line, for the record */
};

/*
 * Boots once. KVM is tried unless this host is remembered as TCG (see
 * accel.h). A KVM boot whose init never reported, or that QEMU stopped
 * with an internal error at any point, is booted again at once with TCG;
 * when that guest runs, the host is remembered as TCG with QEMU's reason,
 * and a note says why, once per process. Only an init that reported
 * under KVM makes the memo say KVM.
 */
void boot_run(const struct boot_opts *o, struct boot_result *r);

/*
 * Whether boots will use KVM, proven on this host (for icount, which needs
 * TCG, callers ask).
 */
bool boot_uses_kvm(void);
/* Whether this QEMU can load the instruction profile plugin (profile). */
bool boot_can_profile(void);

#endif
