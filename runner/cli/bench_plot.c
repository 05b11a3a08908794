// SPDX-License-Identifier: GPL-2.0
/*
 * The bench's figures, drawn by gnuplot from the files the run wrote:
 *  - bench.svg/png: every measured round of every point and boot, in
 *    samples.tsv order (is a boot drifting, is a round an outlier?);
 *  - points.svg/png: per point, the means of A, B and A2 side by side,
 *    and B's change with its 95% interval against the A -> A2 drift,
 *    which is the verdict `bench` prints (summary.tsv);
 *  - functions.svg/png: the calls per message of each function of the
 *    LSM path that changed between A and B (path.tsv's changed rows,
 *    written to functions.tsv), when there is one.
 * A figure gnuplot cannot draw is a note, never a failed run.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const terms[][2] = {
	{ "svg size 1200,640 noenhanced", "svg" },
	{ "png size 1200,640 noenhanced", "png" },
};

static void draw(const char *root, const char *name, const struct sbuf *body)
{
	struct sbuf gp = { 0 };
	char *path = xasprintf("%s/%s.gp", root, name);
	size_t t;

	for (t = 0; t < ARRAY_SIZE(terms); t++)
		sbuf_printf(
			&gp,
			"reset session\nset terminal %s\n"
			"set output '%s/%s.%s'\n"
			"set datafile separator '\\t'\n%s\nunset multiplot\n",
			terms[t][0], root, name, terms[t][1], body->buf);
	write_file(path, gp.buf, gp.len);
	if (spawn_wait((char *[]){ "gnuplot", path, NULL },
		       &(struct spawn_opts){ .stdin_fd = -1,
					     .stdout_fd = -1,
					     .stderr_fd = -1,
					     .timeout_s = 60 }))
		note("gnuplot could not draw %s (is gnuplot installed?)", path);
	free(path);
	sbuf_free(&gp);
}

static void plot_rounds(const char *root, const char *points,
			const char *const *boots, int n_boots)
{
	struct sbuf gp = { 0 };
	char *copy = xstrdup(points), *tok, *save = NULL;
	bool first = true;
	int b;

	sbuf_printf(
		&gp,
		"set title 'AF_UNIX send cost per round (warm-up rounds excluded)'\n"
		"set xlabel 'line of samples.tsv (boots, invocations and rounds in order)'\n"
		"set ylabel 'guest ns per message'\nset key outside\nplot ");
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		for (b = 0; b < n_boots; b++) {
			sbuf_printf(
				&gp,
				"%s'%s/samples.tsv' every ::1 using 0:(strcol(1) eq '%s' && strcol(2).':'.strcol(3) eq '%s' && $6 == 0 ? $9 : 1/0) with linespoints title '%s %s'",
				first ? "" : ", ", root, boots[b], tok,
				boots[b], tok);
			first = false;
		}
	draw(root, "bench", &gp);
	free(copy);
	sbuf_free(&gp);
}

/* summary.tsv: point A B A2 max_cv drift change ratio ci_lo ci_hi ... */
static void plot_points(const char *root)
{
	struct sbuf gp = { 0 };

	sbuf_printf(
		&gp,
		"set multiplot layout 1,2 title 'bench A -> B -> A2, per point (summary.tsv)'\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.7 border -1\n"
		"set xtics rotate by -35 scale 0\n"
		"set key top left\nset grid ytics\n"
		"set title 'mean guest ns per message (warm-up rounds excluded)'\n"
		"set yrange [0:*]\n"
		"plot '%s/summary.tsv' every ::1 using 2:xtic(1) title 'A', "
		"'' every ::1 using 3 title 'B', "
		"'' every ::1 using 4 title 'A2'\n"
		"set style data points\nset yrange [*:*]\nset auto x\nset key below\n"
		"set title 'change of B against A, A2 (%%): significant = beyond both'\n"
		"set offsets 0.5, 0.5, 0, 0\nset xzeroaxis lt -1\n"
		"plot '%s/summary.tsv' every ::1 using ($0-0.12):(0):(-100*$6):(100*$6):xtic(1) with yerrorbars pt 0 lw 2 lc 'grey50' title 'A -> A2 drift (either sign)', "
		"'' every ::1 using ($0+0.12):(100*$7):(100*($9-1)):(100*($10-1)) with yerrorbars pt 7 lc 'black' title 'change, with the B/A 95%% CI'\n",
		root, root);
	draw(root, "points", &gp);
	sbuf_free(&gp);
}

/*
 * path.tsv: point function kind A B A2 changed control_ok. The figure
 * shows the calls per message of the changed functions only, from
 * functions.tsv (those rows of path.tsv; absent counts 0).
 */
static void plot_functions(const char *root)
{
	char *path = xasprintf("%s/path.tsv", root), *text, *line;
	struct sbuf rows = { 0 }, gp = { 0 };
	const char *p;
	size_t n = 0;
	bool cut;

	if (read_file(path, &text, NULL)) {
		free(path);
		return;
	}
	sbuf_printf(&rows, "point function\tA\tB\tA2\n");
	for (p = text; (line = next_line(&p, &cut));) {
		char point[64], fn[96], kind[16], v[3][32], changed[8];

		if (sscanf(line,
			   "%63[^\t]\t%95[^\t]\t%15[^\t]\t%31[^\t]\t%31[^\t]\t%31[^\t]\t%7[^\t]",
			   point, fn, kind, v[0], v[1], v[2], changed) == 7 &&
		    !strcmp(kind, "calls") && !strcmp(changed, "yes")) {
			sbuf_printf(&rows, "%s %s", point, fn);
			for (int b = 0; b < 3; b++)
				sbuf_printf(&rows, "\t%s",
					    strcmp(v[b], "absent") ? v[b] :
								     "0");
			sbuf_printf(&rows, "\n");
			n++;
		}
		free(line);
	}
	free(text);
	free(path);
	if (!n) {
		sbuf_free(&rows);
		return;
	}
	write_file_at(root, "functions.tsv", rows.buf, rows.len);
	sbuf_printf(
		&gp,
		"set title 'functions behind the change: calls per message in A, B and A2 (absent: 0)'\n"
		"set style data histograms\n"
		"set style histogram clustered gap 1\n"
		"set style fill solid 0.7 border -1\n"
		"set xtics rotate by -35 scale 0 noenhanced\n"
		"set key top right\nset grid ytics\nset yrange [0:*]\n"
		"set ylabel 'calls per message'\n"
		"plot '%s/functions.tsv' every ::1 using 2:xtic(1) title 'A', "
		"'' every ::1 using 3 title 'B', '' every ::1 using 4 title 'A2'\n",
		root);
	draw(root, "functions", &gp);
	sbuf_free(&gp);
	sbuf_free(&rows);
}

void bench_plot(const char *root, const char *points, const char *const *boots,
		int n_boots)
{
	plot_rounds(root, points, boots, n_boots);
	plot_points(root);
	plot_functions(root);
}
