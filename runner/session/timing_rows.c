// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's side of a kernel's timing.tsv, read from what the guest
 * sent: each boot's uptime when the tests started and the frames the
 * init wrote out (transfer.time, in its last frame: a boot that crashed
 * has none), read as the boot's frames arrive; each program's start and
 * end
 * (tests/NAME.time, the init's), its first and last output
 * (out/NAME/output.time, the guest's prefix.pl), its policy compiles
 * (out/NAME/policy.time, the tests' parser_run()). A file that did not
 * arrive (a crash, a rerun that runs the program itself) leaves its rows
 * out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

/* The seconds and number of lines "SECONDS ..." or "LABEL START END". */
static double sum_lines(const char *text, bool spans, long *n)
{
	const char *p = text;
	double total = 0, a, b;

	*n = 0;
	while (p && *p) {
		if (!spans && sscanf(p, "%lf", &a) == 1 && a >= 0) {
			total += a;
			++*n;
		} else if (spans && sscanf(p, "%*s %lf %lf", &a, &b) == 2 &&
			   b >= a) {
			total += b - a;
			++*n;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	return total;
}

/* Test @t's start-up, cases and end: the init's times around its output. */
static void program_rows(struct kernel_run *kr, const char *name)
{
	char *path = xasprintf("tests/%s.time", name);
	char *init = guest_text(kr, path), *out;
	double t0, t1, first, last;
	long n;

	free(path);
	path = xasprintf("out/%s/output.time", name);
	out = guest_text(kr, path);
	free(path);
	if (init && sscanf(init, "%lf %lf", &t0, &t1) == 2 && t1 >= t0) {
		timing_row(&kr->timing, kr->label, 0, T_PROGRAM, name, t1 - t0,
			   1);
		if (out && sscanf(out, "%lf %lf", &first, &last) == 2 &&
		    t0 <= first && first <= last && last <= t1) {
			timing_row(&kr->timing, kr->label, 0, T_PROGRAM_START,
				   name, first - t0, 1);
			timing_row(&kr->timing, kr->label, 0, T_PROGRAM_CASES,
				   name, last - first, 1);
			timing_row(&kr->timing, kr->label, 0, T_PROGRAM_END,
				   name, t1 - last, 1);
		}
	}
	free(init);
	free(out);
	path = xasprintf("out/%s/policy.time", name);
	out = guest_text(kr, path);
	free(path);
	if (out) {
		double s = sum_lines(out, false, &n);

		if (n)
			timing_row(&kr->timing, kr->label, 0, T_POLICY, name, s,
				   n);
	}
	free(out);
}

void timing_boot_rows(struct kernel_run *kr, int boot, bool started, bool ended)
{
	char *text;
	long n;

	if (started) {
		text = guest_text(kr, "uptime.start");
		if (text && atof(text) > 0)
			timing_row(&kr->timing, kr->label, boot, T_KERNEL_BOOT,
				   NULL, atof(text), 1);
		free(text);
	}
	if (ended) {
		text = guest_text(kr, "transfer.time");
		if (text) {
			double s = sum_lines(text, true, &n);

			if (n)
				timing_row(&kr->timing, kr->label, boot,
					   T_TRANSFER, NULL, s, n);
		}
		free(text);
	}
}

void timing_guest_rows(struct kernel_run *kr)
{
	size_t i;

	for (i = 0; i < kr->plan.n; i++)
		program_rows(kr, kr->plan.items[i].name);
}

void timing_write(struct kernel_run *kr)
{
	struct sbuf out = { 0 };

	sbuf_printf(&out, "%s", TIMING_HEADER);
	sbuf_add(&out, kr->timing.buf ? kr->timing.buf : "", kr->timing.len);
	write_file_at(kr->dir, "timing.tsv", out.buf, out.len);
	sbuf_free(&out);
}
