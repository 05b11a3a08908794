/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timing.tsv: where a run's seconds went. One row per measured step, the
 * same columns in a kernel's results directory and in the run's root
 * (which gathers every kernel's rows and adds its own):
 *
 *   kernel  boot  stage  name  seconds  count
 *
 * kernel: the kernel's results directory name; boot: 1, 2... or "-";
 * name: the test program, or "-"; count: how many steps the seconds
 * add up (policy compiles, frames sent), else 1. Host stages are timed on
 * the host's clock; guest stages (kernel-boot, program*, policy,
 * transfer) on the guest's uptime.
 */
#ifndef LSMCONF_TIMING_H
#define LSMCONF_TIMING_H

#include <stddef.h>

#include "lib/lib.h"

enum timing_stage {
	T_FETCH, /* host: the kernel package fetched (or found cached) */
	T_BUILD, /* host: the kernel built from source */
	T_IMAGE, /* host: the guest image of one boot */
	T_QEMU, /* host: one boot, QEMU started to QEMU ended */
	T_QEMU_START, /* host: QEMU started to the console's first byte */
	T_KERNEL_BOOT, /* guest: uptime when the init started the tests */
	T_PROGRAM, /* guest: one test program, the init's start to its end */
	T_PROGRAM_START, /* guest: to the program's first output */
	T_PROGRAM_CASES, /* guest: its first output to its last */
	T_PROGRAM_END, /* guest: its last output to the init's end of it */
	T_POLICY, /* guest: apparmor_parser runs (count: compiles) */
	T_TRANSFER, /* guest: results frames written out (count: frames) */
	T_COLLECT, /* host: a kernel's results read and judged */
	T_COMPARE, /* host: two kernels' records compared */
	T_N_STAGES
};

#define TIMING_HEADER "kernel\tboot\tstage\tname\tseconds\tcount\n"

const char *timing_stage_name(enum timing_stage st);

/* Appends one row to @sb (@boot 0 and @name NULL print "-"). */
void timing_row(struct sbuf *sb, const char *kernel, int boot,
		enum timing_stage st, const char *name, double seconds,
		long count);

/* A timing.tsv's rows added up by stage; boots counted by their rows. */
struct timing_sum {
	double seconds[T_N_STAGES];
	long count[T_N_STAGES];
	long rows[T_N_STAGES];
};

/*
 * Adds the rows of @buf (a timing.tsv, its header first) to @sum.
 * Returns 0, or the number of the first line that is not a row (a
 * header of other columns, a wrong column count, an unknown stage, a
 * negative or unreadable number), with why in @why.
 */
size_t timing_parse(const char *buf, size_t len, struct timing_sum *sum,
		    char *why, size_t size);

/*
 * @sum on one line, the host's steps then the guest's, e.g. "fetch
 * 0.0 s, image 0.2 s, QEMU 21.3 s in 2 boots (to first output 0.6 s;
 * guest: kernel boot 5.4 s, programs 12.0 s = start-up 3.0 + cases 8.0
 * + end 1.0, policy 3.1 s in 40 compiles, transfer 1.2 s in 12 frames),
 * collect 0.3 s, compare 0.1 s"; stages with no row are left out.
 */
void timing_summary(const struct timing_sum *sum, char *out, size_t size);

/*
 * The rows of @dir/timing.tsv appended to @rows (no header). Returns 1,
 * 0 when there is none (a run saved before timing.tsv), or -1 with why
 * in @e when it is not a timing.tsv.
 */
int timing_read(const char *dir, struct sbuf *rows, struct err *e);

#endif
