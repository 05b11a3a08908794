// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf compare A B`: the suites on two kernels, decision by decision.
 * Exit status 0 only when every difference is explained and both runs
 * accounted for every case.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "results/results.h"
#include "provision/provision.h"
#include "session/session.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Printed in full up to this many; the rest are in compare.tsv. Loosened
 * cases (deny -> allow) are always printed, every one.
 */
#define SHOW_MAX 40
/* Features that differ between kernels of different sources, printed. */
#define SHOW_FEATURES 10
#define FEATURE_WIDTH 48

void compare_boot_features(const struct kernel_boots *a,
			   const struct kernel_boots *b, char **fa, char **fb)
{
	size_t i, j;
	char *path;

	*fa = *fb = NULL;
	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++) {
			if (strcmp(a->lsm[i], b->lsm[j]))
				continue;
			*fa = run_guest_file(a->dir[i], "features.tsv", &path);
			free(path);
			*fb = run_guest_file(b->dir[j], "features.tsv", &path);
			free(path);
			if (**fa || **fb)
				return;
			free(*fa);
			free(*fb);
			*fa = *fb = NULL;
		}
}

/* Original and patched must be built alike: only LOCALVERSION may differ. */
static void config_check(const struct kernel *a, const struct kernel *b)
{
	char *ca, *cb, why[256];
	int n;

	if (a->spec.kind != KSPEC_BUILD || b->spec.kind != KSPEC_BUILD) {
		printf("config check: not applicable (not two build: kernels; their configs may differ)\n");
		return;
	}
	if (read_file(a->config, &ca, NULL) || read_file(b->config, &cb, NULL))
		die("cannot read %s or %s", a->config, b->config);
	n = kconfig_diff(ca, cb, why, sizeof(why));
	if (n)
		die("config check failed: %d options differ beyond CONFIG_LOCALVERSION (%s)",
		    n, why);
	printf("config check: passed (the two .config files differ only in CONFIG_LOCALVERSION)\n");
	free(ca);
	free(cb);
}

static void write_outputs(const char *root, const struct cmp_result *r,
			  const char *a, const char *b)
{
	struct sbuf tsv = { 0 }, ktap = { 0 };
	size_t i;
	int c;

	/* New columns go last: scripts read the first five by position. */
	sbuf_printf(&tsv, "id\tclass\t%s\t%s\treason\tchange\trule\n", a, b);
	/* Features first: on one source each is an unexplained finding. */
	for (i = 0; i < r->n_feat; i++)
		sbuf_printf(
			&tsv, "feature:%s\t%s\t%s\t%s\t%s\tfeature\t-\n",
			r->feat[i].path,
			r->same_source ? "unexplained" : "evidence",
			r->feat[i].a, r->feat[i].b,
			r->same_source ?
				"an advertised feature differs between kernels built from the same source" :
				"an advertised feature differs between kernels of different sources");
	for (i = 0; i < r->n; i++)
		sbuf_printf(&tsv, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r->v[i].id,
			    cmp_class_name(r->v[i].cls), r->v[i].a, r->v[i].b,
			    r->v[i].reason, cmp_change_name(r->v[i].change),
			    cmp_rule_name(r->v[i].rule));
	sbuf_printf(&ktap, "TAP version 13\n1..%d\n# compare %s %s\n",
		    CMP_N_CLASSES, a, b);
	for (i = 0; r->same_source && i < r->n_feat; i++)
		sbuf_printf(&ktap, "# unexplained: feature %s: %s -> %s\n",
			    r->feat[i].path, r->feat[i].a, r->feat[i].b);
	for (i = 0; i < r->n; i++)
		sbuf_printf(&ktap, "# %s: %s: %s -> %s (%s; %s; rule %s)\n",
			    cmp_class_name(r->v[i].cls), r->v[i].id, r->v[i].a,
			    r->v[i].b, r->v[i].reason,
			    cmp_change_name(r->v[i].change),
			    cmp_rule_name(r->v[i].rule));
	for (c = 0; c < CMP_N_CLASSES; c++)
		sbuf_printf(
			&ktap, "%s %d %s # %zu cases%s\n",
			c == CMP_UNEXPLAINED && cmp_unexplained(r) ? "not ok" :
								     "ok",
			c + 1, cmp_class_name(c), r->count[c],
			c == CMP_UNEXPLAINED && r->same_source && r->n_feat ?
				" and features that differ" :
				"");
	write_file_at(root, "compare.tsv", tsv.buf, tsv.len);
	write_file_at(root, "compare.ktap", ktap.buf, ktap.len);
	sbuf_free(&tsv);
	sbuf_free(&ktap);
}

/* "explained   ID: EACCES -> allow (by feature: the kernels differ ...)" */
static void print_case(const struct cmp_case *c)
{
	printf("   %-11s %s: %s -> %s (%s%s%s%s)\n", cmp_class_name(c->cls),
	       c->id, c->a, c->b, c->rule ? "by " : "",
	       c->rule ? cmp_rule_name(c->rule) : "", c->rule ? ": " : "",
	       c->reason);
}

/*
 * Features first (on one source each is a finding), then the cases by
 * change: every loosened one, the others up to SHOW_MAX.
 */
static void print_report(const struct cmp_result *r, const struct kernel *a,
			 const struct kernel *b, const char *root)
{
	static const char *const change_what[] = {
		"deny -> allow", "allow -> deny", "one errno for another",
		"on one kernel only, or not run"
	};
	size_t i, shown = 0, n_show;
	int ch;

	if (r->same_source)
		printf("   sources: the same (%s): an advertised feature that differs is unexplained, and explains no decision\n",
		       a->source);
	else
		printf("   sources: different (%s vs %s): a feature a case depends on may explain its change\n",
		       a->source, b->source);
	n_show = r->same_source ? r->n_feat : SHOW_FEATURES;
	if (r->n_feat)
		printf("   -- features that differ: %zu%s\n", r->n_feat,
		       r->same_source ? ", each unexplained (one source)" : "");
	/* Long values (af_mask lists) are cut here, whole in compare.tsv. */
	for (i = 0; i < r->n_feat && i < n_show; i++)
		printf("   %-11s feature %s: %.*s%s -> %.*s%s\n",
		       r->same_source ? "unexplained" : "differs",
		       r->feat[i].path, FEATURE_WIDTH, r->feat[i].a,
		       strlen(r->feat[i].a) > FEATURE_WIDTH ? "..." : "",
		       FEATURE_WIDTH, r->feat[i].b,
		       strlen(r->feat[i].b) > FEATURE_WIDTH ? "..." : "");
	if (r->n_feat > n_show)
		printf("   ... %zu more features in %s/compare.tsv\n",
		       r->n_feat - n_show, root);
	for (ch = 0; ch < CMP_N_CHANGES; ch++) {
		size_t e = r->changes[CMP_EXPLAINED][ch];
		size_t u = r->changes[CMP_UNEXPLAINED][ch], more = 0;

		if (!e && !u)
			continue;
		printf("   -- %s (%s): %zu explained, %zu unexplained\n",
		       cmp_change_name(ch), change_what[ch], e, u);
		for (i = 0; i < r->n; i++) {
			if (r->v[i].change != (enum cmp_change)ch)
				continue;
			if (ch != CMP_LOOSENED && shown >= SHOW_MAX) {
				more++;
				continue;
			}
			print_case(&r->v[i]);
			shown += ch != CMP_LOOSENED;
		}
		if (more)
			printf("   ... %zu more %s in %s/compare.tsv\n", more,
			       cmp_change_name(ch), root);
	}
}

/* Returns the process exit status: 0 when nothing is unexplained. */
static int compare_main(const struct run_opts *o, const char *spec_a,
			const char *spec_b)
{
	struct kernel a, b;
	struct err e;
	struct record_set ra, rb;
	struct cmp_result r;
	char *root = results_root(o->results);
	struct kernel_boots boots_a, boots_b;
	double t0 = now_seconds(), t_cmp;
	bool ok_a, ok_b;
	char *crashed_a, *crashed_b, *fa, *fb;
	int c;

	if (kernel_provision(spec_a, &a, o->refresh, &e))
		die("%s", e.msg);
	if (kernel_provision(spec_b, &b, o->refresh, &e))
		die("%s", e.msg);
	config_check(&a, &b);
	if (run_kernel_lsms(o, root, &a, &boots_a, &e))
		die("%s", e.msg);
	if (run_kernel_lsms(o, root, &b, &boots_b, &e))
		die("%s", e.msg);
	ok_a = boots_a.ok;
	ok_b = boots_b.ok;

	t_cmp = now_seconds();
	run_load_records(&boots_a, &ra);
	run_load_records(&boots_b, &rb);
	/* Features are evidence only between kernels of different sources. */
	compare_boot_features(&boots_a, &boots_b, &fa, &fb);
	compare_kernels(&ra, &rb, fa, fb, !strcmp(a.source, b.source), &r);
	free(fa);
	free(fb);
	/* Only a crash the runs saw, with its signature, explains a gap. */
	crashed_a = run_known_crashes(&boots_a);
	crashed_b = run_known_crashes(&boots_b);
	compare_explain_crashes(&r, o->known, crashed_a, crashed_b);
	free(crashed_a);
	free(crashed_b);
	write_outputs(root, &r, spec_a, spec_b);
	t_cmp = now_seconds() - t_cmp;

	printf("== compare %s -> %s\n", spec_a, spec_b);
	print_report(&r, &a, &b, root);
	printf("   cases:");
	for (c = 0; c < CMP_N_CLASSES; c++)
		printf(" %zu %s%s", r.count[c], cmp_class_name(c),
		       c + 1 < CMP_N_CLASSES ? "," : "\n");
	if (r.same_source && r.n_feat)
		printf("   features: %zu differ between kernels of one source (unexplained)\n",
		       r.n_feat);
	if (!ok_a || !ok_b)
		printf("   runs: %s%s%s failed on its own (see above)\n",
		       ok_a ? "" : spec_a, !ok_a && !ok_b ? " and " : "",
		       ok_b ? "" : spec_b);
	printf("   time: %s %.1f s (build %.1f s), %s %.1f s (build %.1f s), compare %.2f s, total %.1f s\n",
	       spec_a, a.fetch_seconds, a.build_seconds, spec_b,
	       b.fetch_seconds, b.build_seconds, t_cmp, now_seconds() - t0);
	printf("   results: %s (compare.tsv, compare.ktap)\n", root);

	c = cmp_unexplained(&r) || !ok_a || !ok_b;
	compare_free(&r);
	records_free(&ra);
	records_free(&rb);
	kernel_free(&a);
	kernel_free(&b);
	kernel_boots_free(&boots_a);
	kernel_boots_free(&boots_b);
	free(root);
	return c;
}

int cmd_compare(int argc, char **argv)
{
	struct run_opts o;
	int first = run_options(argc, argv, &o);

	if (argc - first != 2)
		die("compare: want exactly two kernel specs (A B)");
	specs_check(argv + first, 2);
	return compare_main(&o, argv[first], argv[first + 1]);
}
