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

/* Printed in full up to this many; the rest are in compare.tsv. */
#define SHOW_MAX 40

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

	sbuf_printf(&tsv, "id\tclass\t%s\t%s\treason\n", a, b);
	for (i = 0; i < r->n; i++)
		sbuf_printf(&tsv, "%s\t%s\t%s\t%s\t%s\n", r->v[i].id,
			    cmp_class_name(r->v[i].cls), r->v[i].a, r->v[i].b,
			    r->v[i].reason);
	sbuf_printf(&ktap, "TAP version 13\n1..%d\n# compare %s %s\n",
		    CMP_N_CLASSES, a, b);
	for (i = 0; i < r->n; i++)
		sbuf_printf(&ktap, "# %s: %s: %s -> %s (%s)\n",
			    cmp_class_name(r->v[i].cls), r->v[i].id, r->v[i].a,
			    r->v[i].b, r->v[i].reason);
	for (c = 0; c < CMP_N_CLASSES; c++)
		sbuf_printf(&ktap, "%s %d %s # %zu cases\n",
			    c == CMP_UNEXPLAINED && r->count[c] ? "not ok" :
								  "ok",
			    c + 1, cmp_class_name(c), r->count[c]);
	write_file_at(root, "compare.tsv", tsv.buf, tsv.len);
	write_file_at(root, "compare.ktap", ktap.buf, ktap.len);
	sbuf_free(&tsv);
	sbuf_free(&ktap);
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
	char *crashed_a, *crashed_b;
	size_t i, shown = 0;
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
	compare_records(&ra, &rb, &r);
	/* Only a crash the runs saw, with its signature, explains a gap. */
	crashed_a = run_known_crashes(&boots_a);
	crashed_b = run_known_crashes(&boots_b);
	compare_explain_crashes(&r, o->known, crashed_a, crashed_b);
	free(crashed_a);
	free(crashed_b);
	write_outputs(root, &r, spec_a, spec_b);
	t_cmp = now_seconds() - t_cmp;

	printf("== compare %s -> %s\n", spec_a, spec_b);
	for (i = 0; i < r.n && shown < SHOW_MAX; i++, shown++)
		printf("   %-11s %s: %s -> %s (%s)\n",
		       cmp_class_name(r.v[i].cls), r.v[i].id, r.v[i].a,
		       r.v[i].b, r.v[i].reason);
	if (r.n > shown)
		printf("   ... %zu more in %s/compare.tsv\n", r.n - shown,
		       root);
	printf("   cases:");
	for (c = 0; c < CMP_N_CLASSES; c++)
		printf(" %zu %s%s", r.count[c], cmp_class_name(c),
		       c + 1 < CMP_N_CLASSES ? "," : "\n");
	if (!ok_a || !ok_b)
		printf("   runs: %s%s%s failed on its own (see above)\n",
		       ok_a ? "" : spec_a, !ok_a && !ok_b ? " and " : "",
		       ok_b ? "" : spec_b);
	printf("   time: %s %.1f s (build %.1f s), %s %.1f s (build %.1f s), compare %.2f s, total %.1f s\n",
	       spec_a, a.fetch_seconds, a.build_seconds, spec_b,
	       b.fetch_seconds, b.build_seconds, t_cmp, now_seconds() - t0);
	printf("   results: %s (compare.tsv, compare.ktap)\n", root);

	c = r.count[CMP_UNEXPLAINED] || !ok_a || !ok_b;
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
