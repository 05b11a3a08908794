/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `lsmconf series` knows of its kernels (series_cmd.c: the units and
 * the bisection replayed over them) and the report written from it
 * (series_out.c).
 */
#ifndef LSMCONF_CLI_SERIES_INT_H
#define LSMCONF_CLI_SERIES_INT_H

#include "mutate.h"
#include "provision/provision.h"

struct bisect;

struct series_opts {
	const char *source; /* build:SOURCE of the base */
	const char *input; /* the series: mbox, directory or BASE..TIP */
	const char *git_dir; /* --git-dir: the tree of a range */
	const char *cost; /* --cost POINTS */
	bool allow_gaps; /* --allow-gaps: numbers may be missing */
};

/* What is known of kernel i. */
struct kern {
	char *spec;
	struct kernel k;
	bool have_k; /* provisioned: reruns boot it again */
	int runs; /* suites' runs */
	/*
	 * Its first run of the suites, kept when it decided nothing alone
	 * (mutant_rerun_reason()): the next run is judged with it.
	 */
	struct mutant_obs first;
	bool have_first;
	size_t n_changed;
	struct sbuf cases; /* the unexplained differences, one a line */
	struct sbuf failed; /* the failed cases, one a line */
	bool has_cost, cost_sig;
	double pct, lo, hi; /* the first point's change and its interval */
	struct sbuf cost; /* bench_cost_changes()' text */
	struct sbuf functions; /* the functions behind it, one a line */
	struct bench_set b;
	struct path_set pb;
	double build_s, run_s;
};

struct series_run {
	const struct run_opts *o;
	const struct series_opts *so;
	char *root;
	struct series s;
	struct kern *k; /* 0..n */
	struct kernel_boots base_kb;
	struct record_set base_rs;
	struct cost_ref ref;
};

/*
 * The report of a bisection replayed whole: report.txt, report.html,
 * series.tsv, culprits.tsv and the cost culprit's figures in r->root,
 * the text printed; returns the exit status. @t0: when the run began.
 */
int series_write_report(struct series_run *r, struct bisect *b,
			const char *cmdline, double t0);

#endif
