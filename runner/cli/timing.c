// SPDX-License-Identifier: GPL-2.0
/*
 * A command's timing.tsv in its results root: its kernels' rows and its
 * own, and the one-line breakdown printed last.
 */
#include "cli.h"
#include "results/results.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>

void timing_rows_of(const struct kernel_boots *kb, struct sbuf *rows)
{
	struct err e;
	size_t i;

	for (i = 0; i < kb->n; i++)
		if (timing_read(kb->dir[i], rows, &e) < 0)
			fprintf(stderr, "lsmconf: timing: %s\n", e.msg);
}

void timing_report(const char *root, const struct sbuf *rows)
{
	struct sbuf all = { 0 };
	struct timing_sum sum = { 0 };
	char line[1024], why[128];
	size_t bad;

	sbuf_printf(&all, "%s", TIMING_HEADER);
	if (rows && rows->len)
		sbuf_add(&all, rows->buf, rows->len);
	write_file_at(root, "timing.tsv", all.buf, all.len);
	bad = timing_parse(all.buf, all.len, &sum, why, sizeof(why));
	if (bad) {
		fprintf(stderr, "lsmconf: %s/timing.tsv line %zu: %s\n", root,
			bad, why);
	} else {
		timing_summary(&sum, line, sizeof(line));
		printf("lsmconf: time: %s (%s/timing.tsv)\n", line, root);
	}
	sbuf_free(&all);
}
