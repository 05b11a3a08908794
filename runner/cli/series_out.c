// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf series`' report (series_int.h): a line a patch, the culprit of
 * each kind with its cases and functions, a later cost change, the
 * kernels' identities and commands, as report.txt, report.html,
 * series.tsv and culprits.tsv, and the cost culprit's figures.
 */
#define _GNU_SOURCE
#include "series_int.h"
#include "analysis/analysis.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lines of @sb as an array of pointers into it (NUL-terminated). */
static const char **split_lines(struct sbuf *sb, size_t *n)
{
	const char **v = NULL;
	char *p, *save = NULL;

	*n = 0;
	if (!sb->len)
		return NULL;
	for (p = strtok_r(sb->buf, "\n", &save); p;
	     p = strtok_r(NULL, "\n", &save)) {
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = p;
	}
	return v;
}

static const char *const kind_text[BISECT_N_KINDS] = {
	[BISECT_DECISIONS] = "decisions changed",
	[BISECT_FAILURE] = "a case failed",
	[BISECT_COST] = "cost per message",
};

/* Minimal HTML escaping for the report's <pre> and table cells. */
static void add_html(struct sbuf *sb, const char *t)
{
	for (; *t; t++) {
		if (*t == '<')
			sbuf_printf(sb, "&lt;");
		else if (*t == '>')
			sbuf_printf(sb, "&gt;");
		else if (*t == '&')
			sbuf_printf(sb, "&amp;");
		else
			sbuf_add(sb, t, 1);
	}
}

/* The cost culprit's figures: base A, culprit B, base A2 (bench_plot). */
static bool plot_culprit(struct series_run *r, size_t i)
{
	const struct bench_set *set[3] = { &r->ref.a, &r->k[i].b, &r->ref.a2 };
	static const char *const names[3] = { "A", "B", "A2" };
	struct path_set paths[3] = { r->ref.pa, r->k[i].pb, r->ref.pa2 };
	char *dir = xasprintf("%s/cost-culprit", r->root);
	struct sbuf smp = { 0 }, sum = { 0 }, ptsv = { 0 };
	char *copy = xstrdup(r->so->cost), *tok, *save = NULL;
	int b;

	mkdir_p(dir);
	bench_samples_tsv(set, names, 3, &smp);
	write_file_at(dir, "samples.tsv", smp.buf, smp.len);
	sbuf_printf(
		&sum,
		"point\tA\tB\tA2\tmax_cv\tdrift\tchange\tratio\tci_lo\tci_hi\tsignificant\twarmup_ok\n");
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		double *v[3];
		size_t n[3];
		struct sample_stats st[3];
		struct ab_verdict ab;

		for (b = 0; b < 3; b++) {
			v[b] = bench_values(set[b], tok, &n[b]);
			stats_of(v[b], n[b], &st[b]);
		}
		if (n[0] && n[1] && n[2]) {
			ab_compare(v[0], n[0], v[1], n[1], v[2], n[2],
				   cost_min_diff(&r->ref), &ab);
			sbuf_printf(
				&sum,
				"%s\t%.4f\t%.4f\t%.4f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%s\tyes\n",
				tok, st[0].mean, st[1].mean, st[2].mean,
				ab.max_cv, ab.drift, ab.change, ab.ratio, ab.lo,
				ab.hi, ab.significant ? "yes" : "no");
		}
		for (b = 0; b < 3; b++)
			free(v[b]);
		bench_path_point(tok, paths, &ptsv);
	}
	write_file_at(dir, "summary.tsv", sum.buf, sum.len);
	if (ptsv.len)
		write_file_at(dir, "path.tsv", ptsv.buf, ptsv.len);
	bench_plot(dir, r->so->cost, names, 3);
	sbuf_free(&smp);
	sbuf_free(&sum);
	sbuf_free(&ptsv);
	free(copy);
	free(dir);
	return true;
}

/* report.html: the text report, the cost culprit's figures, the table. */
static void write_html(struct series_run *r, const char *text, const char *tsv,
		       size_t cost_culprit)
{
	struct sbuf h = { 0 };
	const char *p, *figs[] = { "points", "functions", "bench" };
	size_t f;

	sbuf_printf(&h, "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
			"<title>lsmconf series</title></head><body>\n"
			"<h1>lsmconf series</h1>\n<pre>");
	add_html(&h, text);
	sbuf_printf(&h, "</pre>\n");
	if (cost_culprit) {
		sbuf_printf(
			&h,
			"<h2>Cost: base A, patch %zu's kernel B, base A2</h2>\n",
			cost_culprit);
		for (f = 0; f < ARRAY_SIZE(figs); f++) {
			char *svg = xasprintf("%s/cost-culprit/%s.svg", r->root,
					      figs[f]);

			if (path_exists(svg))
				sbuf_printf(
					&h,
					"<p><img src=\"cost-culprit/%s.svg\" alt=\"%s\"></p>\n",
					figs[f], figs[f]);
			free(svg);
		}
	}
	sbuf_printf(&h, "<h2>series.tsv</h2>\n<table border=\"1\">\n<tr><td>");
	for (p = tsv; *p; p++) {
		if (*p == '\t')
			sbuf_printf(&h, "</td><td>");
		else if (*p == '\n')
			sbuf_printf(&h, p[1] ? "</td></tr>\n<tr><td>" :
					       "</td></tr>\n");
		else
			add_html(&h, (char[]){ *p, 0 });
	}
	sbuf_printf(&h, "</table>\n</body></html>\n");
	write_file_at(r->root, "report.html", h.buf, h.len);
	sbuf_free(&h);
}

/*
 * The bisection assumes a cost change, once in, stays. When the tip's
 * cost differs from that of the culprit @c's kernel (beyond the interval
 * and the base's own drift), a later patch changed it again: a rise
 * after a drop, or more of it. Names that range (a culprit @u of patches
 * c+1..n) and writes its patches to patches-after-C/, for a series of
 * its own on kernel c. False when the tip is as kernel @c.
 */
static bool cost_again(struct series_run *r, size_t c,
		       struct series_report_culprit *u, char **cmd)
{
	struct sbuf lines = { 0 }, spec = { 0 };
	size_t n = r->s.n, i;
	char *dir;

	if (c >= n || !r->k[c].b.n || !r->k[n].b.n ||
	    !bench_cost_again(r->so->cost, &r->ref.a, &r->ref.a2, &r->k[c].b,
			      &r->k[n].b, cost_min_diff(&r->ref), &lines))
		return false;
	memset(u, 0, sizeof(*u));
	u->first = c + 1;
	u->last = n;
	u->subject = r->s.p[c].subject;
	u->kind = xasprintf("cost changed again after patch %zu", c);
	u->cases = split_lines(&lines, &u->n_cases);
	/* The rest of the series, for `lsmconf series` on kernel c. */
	dir = xasprintf("%s/patches-after-%zu", r->root, c);
	mkdir_p(dir);
	sbuf_printf(&spec, "%s", r->so->source);
	for (i = 0; i < n; i++) {
		char *to = xasprintf("%s/%04zu.patch", dir, i - c + 1);

		if (i < c)
			sbuf_printf(&spec, "+%s", r->s.p[i].path);
		else
			copy_file(r->s.p[i].path, to, 0644);
		free(to);
	}
	*cmd = xasprintf("lsmconf series --cost '%s' '%s' '%s'", r->so->cost,
			 spec.buf, dir);
	sbuf_free(&spec);
	free(dir);
	return true;
}

int series_write_report(struct series_run *r, struct bisect *b,
			const char *cmdline, double t0)
{
	struct series_report_patch *pat;
	/* A culprit a kind, and a later cost change (cost_again()). */
	struct series_report_culprit cul[BISECT_N_KINDS + 1];
	const char **kernels = NULL, *cmds[2];
	char *again_cmd = NULL;
	size_t n = r->s.n, i, n_cul = 0, n_kern = 0, refused, cost_culprit = 0;
	struct sbuf tsv = { 0 };
	struct series_report rep;
	char *text;
	double per_kernel = 0;
	size_t n_timed = 0;
	int rc, k;

	if (bisect_kernel_state(b, 0) != BISECT_OBSERVED)
		die("the base %s never reached its tests: no patch can be judged against it",
		    r->k[0].spec);

	/* The report: a line a patch, the culprits, kernels, commands. */
	refused = bisect_refused(b);
	pat = xcalloc(n, sizeof(*pat));
	sbuf_printf(
		&tsv,
		"patch\tsubject\tapplies\tbuilt\tobserved\tdecisions_changed\tfailed_cases\tcost_change_pct\tcost_ci_lo_pct\tcost_ci_hi_pct\tcost_significant\tbuild_s\trun_s\tspec\n");
	for (i = 1; i <= n; i++) {
		struct series_report_patch *p = &pat[i - 1];
		struct kern *kn = &r->k[i];
		enum bisect_kstate st = bisect_kernel_state(b, i);
		size_t nf = 0;

		p->number = i;
		p->subject = r->s.p[i - 1].subject;
		p->apply = !refused || i < refused ? SERIES_APPLIES :
			   i == refused		   ? SERIES_REFUSED :
						     SERIES_NOT_REACHED;
		p->built = kn->have_k;
		p->build_failed = st == BISECT_UNBUILT;
		p->boot_failed = st == BISECT_UNBOOTED;
		p->observed = st == BISECT_OBSERVED;
		p->n_changed = kn->n_changed;
		p->has_cost = kn->has_cost;
		p->cost_pct = kn->pct;
		p->cost_lo = kn->lo;
		p->cost_hi = kn->hi;
		p->cost_significant = kn->cost_sig;
		for (const char *c = kn->failed.buf; c && *c; c++)
			nf += *c == '\n';
		sbuf_printf(&tsv, "%zu\t%s\t%s\t%s\t%s\t%zu\t%zu\t", i,
			    p->subject,
			    p->apply == SERIES_APPLIES ? "yes" :
			    p->apply == SERIES_REFUSED ? "no" :
							 "-",
			    p->build_failed ? "no" :
			    p->built	    ? "yes" :
					      "-",
			    p->observed	   ? "yes" :
			    p->boot_failed ? "no" :
					     "-",
			    kn->n_changed, nf);
		if (kn->has_cost)
			sbuf_printf(&tsv, "%.3f\t%.3f\t%.3f\t%s\t", kn->pct,
				    kn->lo, kn->hi,
				    kn->cost_sig ? "yes" : "no");
		else
			sbuf_printf(&tsv, "-\t-\t-\t-\t");
		sbuf_printf(&tsv, "%.1f\t%.1f\t%s\n", kn->build_s, kn->run_s,
			    kn->spec ? kn->spec : "-");
		/* Kernels built by this run (not found in the cache). */
		if (kn->have_k && kn->build_s > 10) {
			per_kernel += kn->build_s + kn->run_s;
			n_timed++;
		}
	}
	for (k = 0; k < BISECT_N_KINDS; k++) {
		struct bisect_culprit c = bisect_culprit(b, k);
		struct series_report_culprit *u = &cul[n_cul];
		struct kern *kn;

		if (c.verdict == BISECT_PREEXISTING)
			printf("== %s: already in the base, not a patch's\n",
			       kind_text[k]);
		else if (c.verdict == BISECT_UNKNOWN)
			printf("== %s: unknown, the kernels that would show it could not be observed\n",
			       kind_text[k]);
		if (c.verdict != BISECT_FOUND && c.verdict != BISECT_RANGE &&
		    c.verdict != BISECT_INCONSISTENT &&
		    c.verdict != BISECT_INCONCLUSIVE)
			continue;
		memset(u, 0, sizeof(*u));
		u->inconclusive = c.verdict == BISECT_INCONCLUSIVE;
		/*
		 * Its cases and functions: of the first kernel that has it
		 * (inconclusive: what the kernel's first boot showed).
		 */
		kn = &r->k[c.verdict == BISECT_INCONSISTENT ||
					   c.verdict == BISECT_INCONCLUSIVE ?
				   c.first :
				   c.last];
		u->first = c.first;
		u->last = c.verdict == BISECT_INCONSISTENT ? c.first : c.last;
		u->subject = r->s.p[c.first - 1].subject;
		u->kind = c.verdict == BISECT_INCONSISTENT ?
				  xasprintf("%s, gone again by patch %zu",
					    kind_text[k], c.last) :
				  xstrdup(kind_text[k]);
		if (k == BISECT_DECISIONS)
			u->cases = split_lines(&kn->cases, &u->n_cases);
		else if (k == BISECT_FAILURE)
			u->cases = split_lines(&kn->failed, &u->n_cases);
		else {
			/* The points that changed, "; "-joined: one a line. */
			for (char *q = kn->cost.buf;
			     q && (q = strstr(q, "; "));)
				*q = '\n',
				memmove(q + 1, q + 2, strlen(q + 2) + 1);
			u->cases = split_lines(&kn->cost, &u->n_cases);
			u->functions =
				split_lines(&kn->functions, &u->n_functions);
			cost_culprit = c.verdict == BISECT_INCONSISTENT ?
					       c.first :
					       c.last;
		}
		n_cul++;
	}
	if (cost_culprit && cul[n_cul - 1].first == cul[n_cul - 1].last &&
	    cost_again(r, cost_culprit, &cul[n_cul], &again_cmd))
		n_cul++;
	for (i = 0; i <= n; i++) {
		struct kern *kn = &r->k[i];

		if (!kn->have_k)
			continue;
		kernels = xrealloc(kernels, (n_kern + 1) * sizeof(*kernels));
		if (!i)
			kernels[n_kern++] = xasprintf(
				"base: %s, %s, %s, bzImage sha256 %.16s",
				kn->spec, kn->k.package,
				kn->k.release ? kn->k.release : "?",
				kn->k.image_sha256);
		else
			kernels[n_kern++] = xasprintf(
				"%s %zu: base + patches 1-%zu, %s, bzImage sha256 %.16s",
				i == n ? "tip" : "kernel", i, i, kn->k.package,
				kn->k.image_sha256);
	}
	cmds[0] = cmdline;
	cmds[1] = again_cmd;
	rep = (struct series_report){
		.patches = pat,
		.n_patches = n,
		.culprits = cul,
		.n_culprits = n_cul,
		.max_cases = 5,
		.kernels = kernels,
		.n_kernels = n_kern,
		.commands = cmds,
		.n_commands = again_cmd ? 2 : 1,
	};
	text = series_report_text(&rep);
	rc = series_report_exit(&rep);
	write_file_at(r->root, "report.txt", text, strlen(text));
	write_file_at(r->root, "series.tsv", tsv.buf, tsv.len);
	/* Every case of every culprit: the report shows the first few. */
	{
		struct sbuf ct = { 0 };

		sbuf_printf(&ct, "kind\tfirst\tlast\tcase\n");
		for (i = 0; i < n_cul; i++)
			for (size_t c = 0; c < cul[i].n_cases; c++)
				sbuf_printf(&ct, "%s\t%u\t%u\t%s\n",
					    cul[i].kind, cul[i].first,
					    cul[i].last, cul[i].cases[c]);
		write_file_at(r->root, "culprits.tsv", ct.buf, ct.len);
		sbuf_free(&ct);
	}
	if (cost_culprit && r->k[cost_culprit].b.n)
		plot_culprit(r, cost_culprit);
	write_html(r, text, tsv.buf, cost_culprit);
	printf("\n%s\n", text);
	printf("== bisection: %zu builds beyond base and tip, %zu boots again\n",
	       bisect_builds(b), bisect_reruns(b));
	/*
	 * Every patch one by one: the base's boots, then n kernels at the
	 * mean build and boots of those this run built.
	 */
	printf("== wall time %.0f s\n", now_seconds() - t0);
	if (n_timed)
		printf("   every patch one by one would take about %.0f s (the base's boots, then %zu kernels at the mean of %.0f s of those this run built)\n",
		       r->k[0].run_s + n * per_kernel / n_timed, n,
		       per_kernel / n_timed);
	printf("   results: %s (report.txt, report.html, series.tsv, culprits.tsv)\n",
	       r->root);
	for (i = 0; i < n_cul; i++) {
		free((char *)cul[i].kind);
		free((void *)cul[i].cases);
		free((void *)cul[i].functions);
	}
	for (i = 0; i < n_kern; i++)
		free((char *)kernels[i]);
	free(kernels);
	free(again_cmd);
	free(text);
	free(pat);
	sbuf_free(&tsv);
	return rc;
}
