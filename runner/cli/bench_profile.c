// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf bench --profile on`: the instructions each kernel function
 * executed per message in the measured rounds, counted by a QEMU plugin
 * (runner/qemu/insn_plugin.c) on the timed boot itself, named by the
 * guest's own symbols, and the functions whose count changed between A and
 * B (A2 the control) printed under each point, with profile.tsv.
 */
#include "cli.h"
#include "analysis/analysis.h"
#include "vm/vm.h"
#include "lib/lib.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Functions printed per point; profile.tsv has them all. */
#define SHOW_FUNCTIONS 10

void bench_profile_load(const char *dir, const char *points,
			const struct bench_set *set, struct path_set *prof)
{
	char *raw = NULL, *raw_path = xasprintf("%s/%s", dir, INSN_PROFILE);
	char *ksyms_path,
		*ksyms = run_guest_file(dir, "ksyms.txt", &ksyms_path);
	struct insn_syms syms;
	size_t bad;

	memset(prof, 0, sizeof(*prof));
	if (read_file(raw_path, &raw, NULL) || !*ksyms) {
		printf("     instruction profile: none in %s (%s)\n", dir,
		       raw ? "the guest wrote no ksyms.txt" :
			     "QEMU wrote no " INSN_PROFILE);
	} else {
		note_malformed(ksyms_path, insn_syms_parse(ksyms, &syms));
		bad = insn_profile_rows(raw, &syms, points, set, prof);
		note_malformed(raw_path, bad);
		insn_syms_free(&syms);
	}
	free(raw);
	free(raw_path);
	free(ksyms);
	free(ksyms_path);
}

static int by_change(const void *a, const void *b)
{
	const struct path_change *x = a, *y = b;
	double dx = fabs(x->v[1] - x->v[0]), dy = fabs(y->v[1] - y->v[0]);

	return dx < dy ? 1 : dx > dy ? -1 : 0;
}

void bench_profile_point(const char *point, const struct path_set *prof,
			 struct sbuf *tsv)
{
	struct path_change *c;
	double total[3] = { 0 };
	size_t n, i;
	int b, shown = 0;

	if (!tsv->len)
		sbuf_printf(tsv,
			    "point\tfunction\tA\tB\tA2\tchanged\tcontrol_ok\n");
	c = path_compare(prof, point, &n);
	if (!n) {
		/* unix_send_bench marks the first eight points only. */
		printf("     instruction profile: none for %s (%s)\n", point,
		       prof[0].n || prof[1].n || prof[2].n ?
			       "only the first eight points are profiled" :
			       "no boot left a profile");
		free(c);
		return;
	}
	qsort(c, n, sizeof(*c), by_change);
	for (i = 0; i < n; i++) {
		for (b = 0; b < 3; b++)
			total[b] += c[i].v[b];
		sbuf_printf(tsv, "%s\t%s\t%.4f\t%.4f\t%.4f\t%s\t%s\n", point,
			    c[i].function, c[i].v[0], c[i].v[1], c[i].v[2],
			    c[i].changed ? "yes" : "no",
			    c[i].control_ok ? "yes" : "no");
	}
	printf("     instructions per message in the measured rounds, all functions: %.1f -> %.1f (A2 %.1f)\n",
	       total[0], total[1], total[2]);
	for (i = 0; i < n && shown < SHOW_FUNCTIONS; i++) {
		if (!c[i].changed)
			continue;
		if (!shown++)
			printf("     instructions behind the change (per message, A -> B; A2 the control):\n");
		printf("       %s %.2f -> %.2f (A2 %.2f)\n", c[i].function,
		       c[i].v[0], c[i].v[1], c[i].v[2]);
	}
	if (!shown)
		printf("     instructions behind the change: none (no function beyond the floor and A2's difference)\n");
	free(c);
}

void bench_profile_changed(const char *point, const struct path_set *prof,
			   struct sbuf *out)
{
	struct path_change *c;
	size_t n, i;
	int shown = 0;

	c = path_compare(prof, point, &n);
	qsort(c, n, sizeof(*c), by_change);
	for (i = 0; i < n && shown < 3; i++)
		if (c[i].changed)
			sbuf_printf(out, "%s%s %.2f -> %.2f instructions/msg",
				    shown++ ? ", " : "", c[i].function,
				    c[i].v[0], c[i].v[1]);
	free(c);
}
