// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf bench`'s path evidence: each boot's probe.tsv (the untimed
 * probe after every point, selftests/apparmor/path_probe.h), the functions
 * whose calls per message changed between A and B printed under each
 * point, and path.tsv with every function's numbers for the plots.
 */
#include "cli.h"
#include "analysis/analysis.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>

void bench_path_load(const char *dir, struct path_set *set)
{
	char *path, *text = run_guest_file(dir, "probe.tsv", &path);

	path_parse(text, set);
	note_malformed(path, set->malformed);
	free(text);
	free(path);
}

static void print_value(const struct path_change *c, int b)
{
	if (c->absent[b])
		printf("absent");
	else
		printf("%.2f", c->v[b]);
}

void bench_path_point(const char *point, const struct path_set *set,
		      struct sbuf *tsv)
{
	struct path_change *c;
	size_t n, i;
	int b, shown = 0;

	if (!tsv->len)
		sbuf_printf(
			tsv,
			"point\tfunction\tkind\tA\tB\tA2\tchanged\tcontrol_ok\n");
	for (b = 0; b < 3; b++)
		if (path_skipped(&set[b], point)) {
			printf("     path evidence: none, %s's probe skipped: %s\n",
			       b == 0 ? "A" :
			       b == 1 ? "B" :
					"A2",
			       path_skipped(&set[b], point));
			return;
		}
	c = path_compare(set, point, &n);
	if (!n) {
		printf("     path evidence: none (no probe.tsv lines)\n");
		free(c);
		return;
	}
	for (i = 0; i < n; i++) {
		sbuf_printf(tsv, "%s\t%s\t%s", point, c[i].function,
			    path_kind_name(c[i].kind));
		for (b = 0; b < 3; b++)
			if (c[i].absent[b])
				sbuf_printf(tsv, "\tabsent");
			else
				sbuf_printf(tsv, "\t%.4f", c[i].v[b]);
		sbuf_printf(tsv, "\t%s\t%s\n", c[i].changed ? "yes" : "no",
			    c[i].control_ok ? "yes" : "no");
		if (!c[i].changed && c[i].control_ok)
			continue;
		if (!shown++)
			printf("     functions behind the change (per message, A -> B; A2 the control):\n");
		printf("       %s ", c[i].function);
		print_value(&c[i], 0);
		printf(" -> ");
		print_value(&c[i], 1);
		printf(" %s/msg (A2 ", path_kind_name(c[i].kind));
		print_value(&c[i], 2);
		printf("%s)%s\n", c[i].control_ok ? "" : ": A and A2 disagree",
		       c[i].changed ? "" : ", not counted as a change");
	}
	if (!shown)
		printf("     functions behind the change: none (calls per message the same in A and B)\n");
	else if (path_tracer_cost(&set[0], point) >= 0)
		printf("       (instructions include the function-graph tracer's own cost per traced call: A %lld, B %lld, A2 %lld)\n",
		       path_tracer_cost(&set[0], point),
		       path_tracer_cost(&set[1], point),
		       path_tracer_cost(&set[2], point));
	free(c);
}

void bench_path_changed(const char *point, const struct path_set *set,
			struct sbuf *out)
{
	struct path_change *c;
	size_t n, i, shown = 0;

	c = path_compare(set, point, &n);
	for (i = 0; i < n; i++) {
		if (!c[i].changed)
			continue;
		sbuf_printf(out, "%s%s %.2f -> %.2f %s/msg",
			    shown++ ? ", " : "", c[i].function, c[i].v[0],
			    c[i].v[1], path_kind_name(c[i].kind));
	}
	free(c);
}
