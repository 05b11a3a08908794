// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf compare A B`: the suites on two kernels, decision by decision.
 * Exit status 0 only when every difference is explained and both runs
 * accounted for every case.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "mutate.h"
#include "results/results.h"
#include "provision/provision.h"
#include "session/session.h"
#include "lib/lib.h"
#include "work/work.h"

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
/* A run's own failures printed; the rest are counted. */
#define SHOW_FAILED 10

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

/*
 * Original and patched must be built alike: only LOCALVERSION may differ.
 * @ca, @cb: the two build: kernels' config files (NULL: not a build:
 * kernel).
 */
static void config_check(const char *ca, const char *cb)
{
	char *ta, *tb, why[256];
	int n;

	if (!ca || !cb) {
		printf("config check: not applicable (not two build: kernels; their configs may differ)\n");
		return;
	}
	if (read_file(ca, &ta, NULL) || read_file(cb, &tb, NULL))
		die("cannot read %s or %s", ca, cb);
	n = kconfig_diff(ta, tb, why, sizeof(why));
	if (n)
		die("config check failed: %d options differ beyond CONFIG_LOCALVERSION (%s)",
		    n, why);
	printf("config check: passed (the two .config files differ only in CONFIG_LOCALVERSION)\n");
	free(ta);
	free(tb);
}

/* One side of a compare: a kernel's boots, live or saved. */
struct side {
	const char *spec;
	const char *source; /* kernel.txt's source line */
	/* The upstream version its boots recorded, or NULL (identity.h). */
	char *upstream;
	struct kernel_boots boots;
	bool live; /* booted by this command: its fetch and build times */
	double fetch_s, build_s;
};

/* A feature that differs: "unexplained", "evidence" or "no-identity". */
static const char *feature_class(const struct cmp_result *r)
{
	return r->identity == CMP_UPSTREAM_SAME	   ? "unexplained" :
	       r->identity == CMP_UPSTREAM_UNKNOWN ? "no-identity" :
						     "evidence";
}

static const char *feature_reason(const struct cmp_result *r)
{
	return r->identity == CMP_UPSTREAM_SAME ?
		       "an advertised feature differs between kernels of one upstream version" :
	       r->identity == CMP_UPSTREAM_UNKNOWN ?
		       "an advertised feature differs, and a kernel's upstream version is not recorded: it explains nothing" :
		       "an advertised feature differs between kernels of different upstream versions";
}

static void write_outputs(const char *root, const struct cmp_result *r,
			  const char *a, const char *b)
{
	struct sbuf tsv = { 0 }, ktap = { 0 };
	size_t i;
	int c;

	/* New columns go last: scripts read the first five by position. */
	sbuf_printf(&tsv, "id\tclass\t%s\t%s\treason\tchange\trule\n", a, b);
	/* Features first: of one upstream version each is a finding. */
	for (i = 0; i < r->n_feat; i++)
		sbuf_printf(&tsv, "feature:%s\t%s\t%s\t%s\t%s\tfeature\t-\n",
			    r->feat[i].path, feature_class(r), r->feat[i].a,
			    r->feat[i].b, feature_reason(r));
	for (i = 0; i < r->n; i++)
		sbuf_printf(&tsv, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r->v[i].id,
			    cmp_class_name(r->v[i].cls), r->v[i].a, r->v[i].b,
			    r->v[i].reason, cmp_change_name(r->v[i].change),
			    cmp_rule_name(r->v[i].rule));
	sbuf_printf(&ktap, "TAP version 13\n1..%d\n# compare %s %s\n",
		    CMP_N_CLASSES, a, b);
	for (i = 0; r->identity == CMP_UPSTREAM_SAME && i < r->n_feat; i++)
		sbuf_printf(&ktap, "# unexplained: feature %s: %s -> %s\n",
			    r->feat[i].path, r->feat[i].a, r->feat[i].b);
	for (i = 0; i < r->n; i++)
		sbuf_printf(&ktap, "# %s: %s: %s -> %s (%s; %s; rule %s)\n",
			    cmp_class_name(r->v[i].cls), r->v[i].id, r->v[i].a,
			    r->v[i].b, r->v[i].reason,
			    cmp_change_name(r->v[i].change),
			    cmp_rule_name(r->v[i].rule));
	for (c = 0; c < CMP_N_CLASSES; c++)
		sbuf_printf(&ktap, "%s %d %s # %zu cases%s\n",
			    c == CMP_UNEXPLAINED && cmp_unexplained(r) ?
				    "not ok" :
				    "ok",
			    c + 1, cmp_class_name(c), r->count[c],
			    c == CMP_UNEXPLAINED &&
					    r->identity == CMP_UPSTREAM_SAME &&
					    r->n_feat ?
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
static void print_report(const struct cmp_result *r, const struct side *a,
			 const struct side *b, const char *root)
{
	static const char *const change_what[] = {
		"deny -> allow", "allow -> deny", "one errno for another",
		"on one kernel only, or not run"
	};
	size_t i, shown = 0, n_show;
	int ch;

	printf("   identity: upstream %s (%s) vs upstream %s (%s): %s\n",
	       a->upstream ? a->upstream : "unknown", a->source,
	       b->upstream ? b->upstream : "unknown", b->source,
	       r->identity == CMP_UPSTREAM_SAME ?
		       "one upstream version: an advertised feature that differs is unexplained, and explains no decision" :
	       r->identity == CMP_UPSTREAM_UNKNOWN ?
		       "a kernel's upstream version is not recorded: features explain no decision" :
		       "different upstream versions: a feature a case depends on may explain its change");
	n_show = r->identity == CMP_UPSTREAM_SAME ? r->n_feat : SHOW_FEATURES;
	if (r->n_feat)
		printf("   -- features that differ: %zu%s\n", r->n_feat,
		       r->identity == CMP_UPSTREAM_SAME ?
			       ", each unexplained (one upstream version)" :
			       "");
	/* Long values (af_mask lists) are cut here, whole in compare.tsv. */
	for (i = 0; i < r->n_feat && i < n_show; i++)
		printf("   %-11s feature %s: %.*s%s -> %.*s%s\n",
		       r->identity == CMP_UPSTREAM_SAME ? "unexplained" :
							  "differs",
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

/*
 * Whether side @x's run passed for this comparison: it passed, or every
 * failure of it the other side's run @y shows alike (the same case with
 * the same outcome: no change, whatever the known bugs list says of
 * either kernel). Its own failures are printed, and those alike counted.
 */
static bool run_ok(const struct side *x, const struct record_set *rx,
		   const struct side *y, const struct record_set *ry)
{
	struct mutant_fail *fx, *fy;
	size_t nx, ny, i, own = 0, alike = 0;

	if (x->boots.ok)
		return true;
	kernel_failures(&x->boots, rx, &fx, &nx);
	kernel_failures(&y->boots, ry, &fy, &ny);
	for (i = 0; i < nx; i++) {
		if (mutant_fail_shared(&fx[i], fy, ny)) {
			alike++;
			continue;
		}
		if (own++ < SHOW_FAILED)
			printf("   own failure of %s: %s%s%s\n", x->spec,
			       fx[i].name, fx[i].trace ? ": " : "",
			       fx[i].trace ? fx[i].trace : "");
	}
	if (own > SHOW_FAILED)
		printf("   ... %zu more own failures of %s\n",
		       own - SHOW_FAILED, x->spec);
	if (alike)
		printf("   alike: %zu failures of %s the other kernel shows the same way (no change)\n",
		       alike, x->spec);
	mutant_fails_free(fx, nx);
	mutant_fails_free(fy, ny);
	/* A run that failed with nothing to name failed on its own. */
	return !own && alike;
}

/*
 * The report, from the two sides' results directories: compare.tsv and
 * compare.ktap in @root. Returns the exit status: 0 when nothing is
 * unexplained and both runs passed.
 */
static int compare_report(const struct run_opts *o, const struct side *a,
			  const struct side *b, const char *root, double t0,
			  const char *notes)
{
	struct record_set ra, rb;
	struct cmp_result r;
	double t_cmp = now_seconds();
	bool ok_a, ok_b;
	char *crashed_a, *crashed_b, *fa, *fb;
	int c;

	boots_records(&a->boots, o->known, &ra);
	boots_records(&b->boots, o->known, &rb);
	/* Features are evidence only between two upstream versions. */
	compare_boot_features(&a->boots, &b->boots, &fa, &fb);
	compare_kernels(
		&ra, &rb, fa, fb,
		identity_rule(a->upstream, b->upstream, a->source, b->source),
		&r);
	free(fa);
	free(fb);
	/* Only a crash the runs saw, with its signature, explains a gap. */
	crashed_a = run_known_crashes(&a->boots, o->known);
	crashed_b = run_known_crashes(&b->boots, o->known);
	compare_explain_crashes(&r, o->known, crashed_a, crashed_b);
	free(crashed_a);
	free(crashed_b);
	write_outputs(root, &r, a->spec, b->spec);
	t_cmp = now_seconds() - t_cmp;

	printf("== compare %s -> %s\n", a->spec, b->spec);
	printf("%s", notes ? notes : "");
	/* Runs saved before ids named their KTAP case: said once a side. */
	if (ra.v1)
		printf("   A: records of schema v1, ids mapped to today's (%zu)\n",
		       ra.n);
	if (rb.v1)
		printf("   B: records of schema v1, ids mapped to today's (%zu)\n",
		       rb.n);
	print_report(&r, a, b, root);
	printf("   cases:");
	for (c = 0; c < CMP_N_CLASSES; c++)
		printf(" %zu %s%s", r.count[c], cmp_class_name(c),
		       c + 1 < CMP_N_CLASSES ? "," : "\n");
	if (r.identity == CMP_UPSTREAM_SAME && r.n_feat)
		printf("   features: %zu differ between kernels of one upstream version (unexplained)\n",
		       r.n_feat);
	ok_a = run_ok(a, &ra, b, &rb);
	ok_b = run_ok(b, &rb, a, &ra);
	if (!ok_a || !ok_b)
		printf("   runs: %s%s%s failed on its own (%s)\n",
		       ok_a ? "" : a->spec, !ok_a && !ok_b ? " and " : "",
		       ok_b ? "" : b->spec,
		       a->live ? "see above" : "as its saved run recorded");
	if (a->live && b->live)
		printf("   time: %s %.1f s (build %.1f s), %s %.1f s (build %.1f s), compare %.2f s, total %.1f s\n",
		       a->spec, a->fetch_s, a->build_s, b->spec, b->fetch_s,
		       b->build_s, t_cmp, now_seconds() - t0);
	else
		printf("   time: compare %.2f s, total %.1f s (saved results, no boot)\n",
		       t_cmp, now_seconds() - t0);
	printf("   results: %s (compare.tsv, compare.ktap)\n", root);
	{
		struct sbuf rows = { 0 };
		const struct side *sd[] = { a, b };
		size_t i;

		for (i = 0; i < 2; i++) {
			timing_rows_of(&sd[i]->boots, &rows);
			if (sd[i]->live && sd[i]->build_s > 0)
				timing_row(&rows, sd[i]->spec, 0, T_BUILD, NULL,
					   sd[i]->build_s, 1);
			else if (sd[i]->live)
				timing_row(&rows, sd[i]->spec, 0, T_FETCH, NULL,
					   sd[i]->fetch_s, 1);
		}
		timing_row(&rows, NULL, 0, T_COMPARE, NULL, t_cmp, 1);
		timing_report(root, &rows);
		sbuf_free(&rows);
	}

	c = cmp_unexplained(&r) || !ok_a || !ok_b;
	compare_free(&r);
	records_free(&ra);
	records_free(&rb);
	return c;
}

/* Saved results @dir's kernels (saved_load()), or death in one line. */
static size_t load_saved(const char *dir, struct saved_kernel *out, size_t max)
{
	struct err e;
	int n = saved_load(dir, out, max, &e);

	if (n < 0)
		die("compare --saved: %s", e.msg);
	return n;
}

/* A saved kernel's boots as a live compare's (@sk keeps the strings). */
static struct kernel_boots saved_boots(const struct saved_kernel *sk)
{
	struct kernel_boots kb = { .n = sk->n, .ok = sk->ok };
	size_t i;

	for (i = 0; i < sk->n; i++) {
		kb.lsm[i] = sk->lsm[i];
		kb.dir[i] = xstrdup(sk->dir[i]);
	}
	return kb;
}

static void saved_note(struct sbuf *sb, const char *side,
		       const struct saved_kernel *sk)
{
	size_t i;

	sbuf_printf(sb, "   %s: %s (%s), saved in", side, sk->spec, sk->ident);
	for (i = 0; i < sk->n; i++)
		sbuf_printf(sb, " %s", sk->dir[i]);
	sbuf_printf(sb, "\n");
	if (sk->old_source)
		sbuf_printf(
			sb,
			"   %s: no source identity recorded (an older run)\n",
			side);
	if (sk->old_verdict)
		sbuf_printf(
			sb,
			"   %s: no verdict recorded (an older run): whether it passed is read from ktap.txt's test lines only\n",
			side);
}

/*
 * `compare --saved A B` (or RUN, a run holding two kernels): the report
 * of a live compare from saved results, without booting.
 */
static int compare_saved(const struct run_opts *o, char **args, int n)
{
	struct saved_kernel ka[2], kb[2], *a, *b;
	struct side sa = { 0 }, sb = { 0 };
	struct sbuf notes = { 0 };
	double t0 = now_seconds();
	struct err e;
	char *root;
	int c, swapped;

	if (n == 1) {
		if (load_saved(args[0], ka, 2) != 2)
			die("compare --saved: %s holds one kernel (want two, or name two directories)",
			    args[0]);
		a = &ka[0];
		b = &ka[1];
		swapped = saved_swapped(args[0], b->spec, &e);
		if (swapped < 0)
			die("compare --saved: %s", e.msg);
		if (swapped) {
			a = &ka[1];
			b = &ka[0];
		}
	} else {
		load_saved(args[0], ka, 1);
		load_saved(args[1], kb, 1);
		a = &ka[0];
		b = &kb[0];
	}
	root = results_root(o->results);
	saved_note(&notes, "A", a);
	saved_note(&notes, "B", b);
	sa.spec = a->spec;
	sb.spec = b->spec;
	/* Unknown sources never count as the same one. */
	sa.source = a->source ? a->source : "unknown (A)";
	sb.source = b->source ? b->source : "unknown (B)";
	sa.boots = saved_boots(a);
	sb.boots = saved_boots(b);
	sa.upstream = run_kernel_value(&sa.boots, "upstream");
	sb.upstream = run_kernel_value(&sb.boots, "upstream");
	c = compare_report(o, &sa, &sb, root, t0, notes.buf);
	free(sa.upstream);
	free(sb.upstream);
	kernel_boots_free(&sa.boots);
	kernel_boots_free(&sb.boots);
	sbuf_free(&notes);
	saved_kernel_free(&ka[0]);
	if (n == 1)
		saved_kernel_free(&ka[1]);
	else
		saved_kernel_free(&kb[0]);
	free(root);
	return c;
}

/* The two specs of a compare's words (@argv[0] "compare"); dies when bad. */
static int compare_args(int argc, char **argv, struct run_opts *o)
{
	int first = run_options(argc, argv, o);

	if (argc - first != 2)
		die("compare: want exactly two kernel specs (A B)");
	specs_check(argv + first, 2);
	return first;
}

/* What compare's units and merge need (the plan's context). */
struct compare_ctx {
	struct run_opts o;
	const char *spec[2];
	char prov[2][UNIT_ID_LEN + 1];
	/* Each side's boots, one per LSM. */
	char boot[2][4][UNIT_ID_LEN + 1];
	const char *lsm[4];
	size_t n_lsm;
	double t0;
};

static bool is_build(const char *spec)
{
	return !strncmp(spec, "build:", 6);
}

/* A kernel's provision (or build) unit and one boot unit per LSM. */
static void *compare_plan(int argc, char **argv, struct unit_plan *p,
			  const struct run_opts **o)
{
	struct compare_ctx *c = xcalloc(1, sizeof(*c));
	size_t prov[2], boot[2][4], s, i;
	char *run_key;
	int first, n;
	struct err e;

	for (i = 0; i < (size_t)argc; i++)
		if (!strcmp(argv[i], "--saved"))
			die("compare --saved boots nothing: there are no units to plan");
	c->t0 = now_seconds();
	first = compare_args(argc, argv, &c->o);
	n = run_lsms(&c->o, c->lsm, ARRAY_SIZE(c->lsm), &e);
	if (n < 0)
		die("%s", e.msg);
	c->n_lsm = n;
	run_key = unit_run_key(&c->o);
	for (s = 0; s < 2; s++) {
		c->spec[s] = argv[first + s];
		prov[s] = unit_plan_kernel(p, c->spec[s], c->lsm, c->n_lsm,
					   run_key, boot[s]);
	}
	free(run_key);
	/* Ids, not indexes: ordering moves the units. */
	for (s = 0; s < 2; s++) {
		memcpy(c->prov[s], p->v[prov[s]].id, UNIT_ID_LEN + 1);
		for (i = 0; i < c->n_lsm; i++)
			memcpy(c->boot[s][i], p->v[boot[s][i]].id,
			       UNIT_ID_LEN + 1);
	}
	unit_plan_order(p);
	*o = &c->o;
	return c;
}

static int compare_unit_run(void *ctx, const struct unit_plan *p,
			    const struct unit *u, const char *store,
			    const char *dir, struct err *e)
{
	const struct compare_ctx *c = ctx;

	(void)p;
	(void)store;
	return unit_run_kernel(&c->o, u, dir, e);
}

/* One side of the compare from its units' results. */
static void side_load(const struct compare_ctx *c, size_t s, const char *store,
		      const char *root, struct side *sd, char **config)
{
	char *kt = unit_file(store, c->prov[s], "kernel.tsv"), *v;
	size_t i;

	memset(sd, 0, sizeof(*sd));
	sd->spec = c->spec[s];
	sd->live = true;
	sd->source = kt ? unit_value(kt, "source") : NULL;
	if (!sd->source)
		die("%s/units/%s/kernel.tsv: no source line", store,
		    c->prov[s]);
	v = unit_value(kt, "fetch_seconds");
	sd->fetch_s = v ? strtod(v, NULL) : 0;
	free(v);
	v = unit_value(kt, "build_seconds");
	sd->build_s = v ? strtod(v, NULL) : 0;
	free(v);
	free(kt);
	*config = NULL;
	if (is_build(c->spec[s])) {
		*config = xasprintf("%s/units/%s/config", store, c->prov[s]);
		if (!path_exists(*config)) {
			free(*config);
			*config = NULL;
		}
	}
	sd->boots.ok = true;
	for (i = 0; i < c->n_lsm; i++) {
		char *spec_name = safe_name(c->spec[s]);
		char *name = xasprintf("%s-%s", spec_name, c->lsm[i]);

		free(spec_name);

		sd->boots.lsm[i] = c->lsm[i];
		sd->boots.dir[i] = unit_link(store, c->boot[s][i], name, root);
		sd->boots.ok &= unit_passed(store, c->boot[s][i]);
		sd->boots.n = i + 1;
		free(name);
	}
	sd->upstream = run_kernel_value(&sd->boots, "upstream");
}

static int compare_merge(void *ctx, const struct unit_plan *p,
			 const char *store, const char *root)
{
	struct compare_ctx *c = ctx;
	struct side sa, sb;
	char *ca, *cb;
	size_t i;
	int status;

	side_load(c, 0, store, root, &sa, &ca);
	side_load(c, 1, store, root, &sb, &cb);
	config_check(is_build(c->spec[0]) && is_build(c->spec[1]) ? ca : NULL,
		     cb);
	/* Each boot's report, in the plan's order. */
	for (i = 0; i < p->n; i++)
		if (p->v[i].kind == UNIT_BOOT)
			unit_print_output(store, p->v[i].id, root);
	status = compare_report(&c->o, &sa, &sb, root, c->t0, NULL);
	free(ca);
	free(cb);
	free((char *)sa.source);
	free((char *)sb.source);
	free(sa.upstream);
	free(sb.upstream);
	kernel_boots_free(&sa.boots);
	kernel_boots_free(&sb.boots);
	return status;
}

const struct unit_cmd compare_units = {
	.name = "compare",
	.plan = compare_plan,
	.run = compare_unit_run,
	.merge = compare_merge,
};

int cmd_compare(int argc, char **argv)
{
	struct run_opts o;
	int first, i;

	for (i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--saved"))
			break;
	if (i == argc)
		return units_here(&compare_units, argc, argv);
	/* --saved is compare's own flag: taken out before the shared ones. */
	for (first = i = 1; i < argc; i++)
		if (strcmp(argv[i], "--saved"))
			argv[first++] = argv[i];
	argc = first;
	argv[argc] = NULL;
	first = run_options(argc, argv, &o);
	if (argc - first != 1 && argc - first != 2)
		die("compare --saved: want two results directories (A B), or one run holding two kernels");
	return compare_saved(&o, argv + first, argc - first);
}
