// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf bench A B`: the send-cost benchmark on fresh boots in the order
 * A, B, A2 with identical command lines. Under TCG the guest clock counts
 * instructions (-icount shift=0: 1 ns = 1 instruction), which makes the
 * numbers repeatable; with KVM it is real time.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "analysis/analysis.h"
#include "vm/vm.h"
#include "provision/provision.h"
#include "lib/lib.h"
#include "work/work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_BOOTS 3

static const char *const boot_names[N_BOOTS] = { "A", "B", "A2" };

void bench_samples_load(const char *dir, struct bench_set *set)
{
	char *path, *text = run_guest_file(dir, "samples.tsv", &path);

	bench_parse(text, set);
	note_malformed(path, set->malformed);
	free(text);
	free(path);
}

char *bench_args(const struct bench_opts *bo)
{
	return xasprintf("-i %d -W %d -r %d -n %d -P %d%s%s %s",
			 bo->invocations, bo->warmup, bo->rounds, bo->messages,
			 bo->probe_messages, bo->probe_calls_only ? " -C" : "",
			 bo->profile ? " -K" : "", bo->points);
}

char *cost_boot_append(const char *user)
{
	return user && *user ? xasprintf("%s %s", user, COST_BOOT_APPEND) :
			       xstrdup(COST_BOOT_APPEND);
}

bool bench_boot(const struct run_opts *o, const char *args, bool icount,
		int seed, struct kernel *k, const char *root,
		const char *dir_name, struct bench_set *set,
		struct path_set *paths, const char *points,
		struct path_set *prof)
{
	struct run_opts ro = *o;
	char *test = "unix_send_bench", *dir, *append;
	struct err e;
	int ran;

	ro.tests = &test;
	ro.n_tests = 1;
	ro.args = args;
	ro.icount = icount;
	ro.seed = seed;
	ro.dir_name = dir_name;
	ro.append = append = cost_boot_append(o->append);
	ran = run_kernel(&ro, root, k, &dir, &e);
	free(append);
	if (ran < 0)
		die("%s", e.msg);
	bench_samples_load(dir, set);
	if (paths)
		bench_path_load(dir, paths);
	if (o->profile && prof)
		bench_profile_load(dir, points, set, prof);
	free(dir);
	return ran;
}

/* samples.tsv: every sample of the three boots (gnuplot reads it too). */
static void write_samples(const char *root, const struct bench_set set[N_BOOTS])
{
	const struct bench_set *sets[N_BOOTS] = { &set[0], &set[1], &set[2] };
	struct sbuf out = { 0 };

	bench_samples_tsv(sets, boot_names, N_BOOTS, &out);
	write_file_at(root, "samples.tsv", out.buf, out.len);
	sbuf_free(&out);
}

/*
 * One point's statistics: a report line and a summary.tsv line. False
 * when a boot has no samples of it.
 */
static bool summarize_point(const char *point,
			    const struct bench_set set[N_BOOTS],
			    double min_diff, struct sbuf *sum)
{
	double *v[N_BOOTS];
	size_t n[N_BOOTS];
	struct sample_stats st[N_BOOTS];
	struct ab_verdict ab;
	bool warm_ok = true, have;
	int b;

	for (b = 0; b < N_BOOTS; b++) {
		v[b] = bench_values(&set[b], point, &n[b]);
		stats_of(v[b], n[b], &st[b]);
		warm_ok &= !bench_first_round_outlier(&set[b], point);
	}
	have = n[0] && n[1] && n[2];
	if (!have) {
		printf("   %-20s missing samples (A %zu, B %zu, A2 %zu)\n",
		       point, n[0], n[1], n[2]);
	} else {
		ab_compare(v[0], n[0], v[1], n[1], v[2], n[2], min_diff, &ab);
		printf("   %-20s %11.2f %11.2f %11.2f %7.3f%% %7.3f%% %+7.2f%% [%8.4f, %8.4f] %s%s\n",
		       point, st[0].mean, st[1].mean, st[2].mean,
		       100 * ab.max_cv, 100 * ab.drift, 100 * ab.change, ab.lo,
		       ab.hi,
		       ab.significant ?
			       "significant" :
		       ab.under_floor ?
			       "not significant (under one instruction a message)" :
			       "not significant",
		       warm_ok ?
			       "" :
			       " (first measured round is an outlier: longer warm-up needed)");
		sbuf_printf(
			sum,
			"%s\t%.4f\t%.4f\t%.4f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%s\t%s\n",
			point, st[0].mean, st[1].mean, st[2].mean, ab.max_cv,
			ab.drift, ab.change, ab.ratio, ab.lo, ab.hi,
			ab.significant ? "yes" : "no", warm_ok ? "yes" : "no");
	}
	for (b = 0; b < N_BOOTS; b++)
		free(v[b]);
	return have;
}

/*
 * The report of the three boots' samples (@set, @paths, @prof) into
 * @root; @ok: every boot passed. Returns the exit status.
 */
static int bench_report(const struct run_opts *o, const struct bench_opts *bo,
			const char *spec_a, const char *spec_b, bool icount,
			bool profile, const char *root,
			struct bench_set set[N_BOOTS],
			struct path_set paths[N_BOOTS],
			struct path_set prof[N_BOOTS], bool ok)
{
	struct sbuf sum = { 0 }, path_tsv = { 0 }, prof_tsv = { 0 };
	char *copy, *tok, *save = NULL;
	int failed = 0;

	(void)o;
	/* The plugin counts what TCG executes: under KVM there is none. */
	if (bo->profile && !profile)
		printf("   --profile on: no instruction profile (%s)\n",
		       !icount ? "under KVM: the plugin needs TCG" :
				 "this QEMU cannot load plugins");
	write_samples(root, set);

	printf("== bench %s -> %s -> %s (%s)\n", spec_a, spec_b, spec_a,
	       icount ?
		       "clock: QEMU icount, guest ns = instructions executed; counts path length, not cache or lock effects" :
		       "clock: real time under KVM");
	printf("   %-20s %11s %11s %11s %8s %8s %8s %23s %s\n", "point", "A",
	       "B", "A2", "max CV", "drift", "change", "B/A 95% CI", "verdict");
	sbuf_printf(
		&sum,
		"point\tA\tB\tA2\tmax_cv\tdrift\tchange\tratio\tci_lo\tci_hi\tsignificant\twarmup_ok\n");
	copy = xstrdup(bo->points);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		failed += !summarize_point(tok, set,
					   icount ? AB_COUNT_FLOOR : 0, &sum);
		if (bo->probe_messages)
			bench_path_point(tok, paths, &path_tsv);
		if (profile)
			bench_profile_point(tok, prof, &prof_tsv);
	}
	free(copy);
	write_file_at(root, "summary.tsv", sum.buf, sum.len);
	if (path_tsv.len)
		write_file_at(root, "path.tsv", path_tsv.buf, path_tsv.len);
	if (prof_tsv.len)
		write_file_at(root, "profile.tsv", prof_tsv.buf, prof_tsv.len);
	bench_plot(root, bo->points, boot_names, N_BOOTS);
	printf("   significant = |change| exceeds both the A->A2 drift and the 95%% interval of B/A\n");
	printf("   results: %s (samples.tsv, summary.tsv, %s%sfigures bench, points and, when a function changed, functions: .gp, .svg, .png)\n",
	       root, path_tsv.len ? "path.tsv; " : "",
	       prof_tsv.len ? "profile.tsv; " : "");

	sbuf_free(&sum);
	sbuf_free(&prof_tsv);
	sbuf_free(&path_tsv);
	return ok && !failed ? 0 : 1;
}

static bool bench_option(void *ctx, const char *opt, const char *v)
{
	struct bench_opts *b = ctx;

	if (!strcmp(opt, "--points"))
		b->points = opt_value(opt, v);
	else if (!strcmp(opt, "--invocations"))
		b->invocations = opt_positive(opt, opt_value(opt, v));
	else if (!strcmp(opt, "--warmup"))
		b->warmup = opt_nonnegative(opt, opt_value(opt, v));
	else if (!strcmp(opt, "--rounds"))
		b->rounds = opt_positive(opt, opt_value(opt, v));
	else if (!strcmp(opt, "--messages"))
		b->messages = opt_positive(opt, opt_value(opt, v));
	else if (!strcmp(opt, "--probe-instructions")) {
		v = opt_value(opt, v);
		if (strcmp(v, "on") && strcmp(v, "off"))
			die("--probe-instructions: want on or off, not %s", v);
		b->probe_calls_only = !strcmp(v, "off");
	} else if (!strcmp(opt, "--profile")) {
		v = opt_value(opt, v);
		if (strcmp(v, "on") && strcmp(v, "off"))
			die("--profile: want on or off, not %s", v);
		b->profile = !strcmp(v, "on");
	} else if (!strcmp(opt, "--probe-messages"))
		b->probe_messages = opt_nonnegative(opt, opt_value(opt, v));
	else
		return false;
	return true;
}

/* What bench's units and merge need (the plan's context). */
struct bench_ctx {
	struct bench_opts bo;
	struct run_opts o;
	const char *spec[2];
	bool icount, profile;
	char *args;
	char prov[2][UNIT_ID_LEN + 1];
	char boot[N_BOOTS][UNIT_ID_LEN + 1];
};

/* The boot names in results: 1-A-<spec>, 2-B-<spec>, 3-A2-<spec>. */
static char *boot_dir_name(const struct bench_ctx *c, int b)
{
	char *name = safe_name(c->spec[b == 1]);
	char *dir = xasprintf("%d-%s-%s", b + 1, boot_names[b], name);

	free(name);
	return dir;
}

/*
 * A provision unit per kernel and the three bench boots, A, B, A2, in
 * that order. Bench boots are exclusive: under KVM their figures are
 * wall-clock time, which a boot beside them would change.
 */
static void *bench_plan(int argc, char **argv, struct unit_plan *p,
			const struct run_opts **o)
{
	struct bench_ctx *c = xcalloc(1, sizeof(*c));
	size_t prov[2], boot[N_BOOTS];
	char err[512], *run_key;
	int first, s, b;

	c->bo = (struct bench_opts){
		.points = "socketpair:none twoproc:none twoproc:sender "
			  "twoproc:receiver twoproc:both twoproc:stacked "
			  "uring:none",
		.invocations = 3,
		.warmup = 3,
		.rounds = 15,
		.messages = 65536,
		.probe_messages = 1024,
		/* The graph tracer crashed build: 7.2 kernels (docs/runner-bench.md) */
		.probe_calls_only = true,
	};
	/* Bench options first, then the shared ones. */
	argc = own_options(argc, argv, bench_option, &c->bo);
	first = run_options(argc, argv, &c->o);
	if (argc - first != 2)
		die("bench: want exactly two kernel specs (A B)");
	if (bench_points_check(c->bo.points, err, sizeof(err)))
		die("--points: %s", err);
	specs_check(argv + first, 2);
	if (!c->o.test_timeout_s)
		c->o.test_timeout_s = 3600;
	c->spec[0] = argv[first];
	c->spec[1] = argv[first + 1];
	/* Decided where the plan is made: a part of every bench unit's id. */
	c->icount = !boot_uses_kvm();
	c->profile = c->bo.profile && c->icount && boot_can_profile();
	c->o.profile = c->profile;
	c->args = bench_args(&c->bo);
	for (s = 0; s < 2; s++) {
		bool build = !strncmp(c->spec[s], "build:", 6);
		char *key = xasprintf("spec %s\n", c->spec[s]);
		char *desc = xasprintf("%s %s", build ? "build" : "provision",
				       c->spec[s]);

		prov[s] = unit_add(p, build ? UNIT_BUILD : UNIT_PROVISION, key,
				   NULL, 0, desc);
		if (!p->v[prov[s]].spec)
			p->v[prov[s]].spec = xstrdup(c->spec[s]);
		free(key);
		free(desc);
	}
	run_key = unit_run_key(&c->o);
	for (b = 0; b < N_BOOTS; b++) {
		char *name = boot_dir_name(c, b);
		char *key = xasprintf(
			"spec %s\nboot %s\nargs %s\nicount %d\nprofile %d\n%s",
			c->spec[b == 1], boot_names[b], c->args, c->icount,
			c->profile, run_key);
		char *desc = xasprintf("bench %s %s", boot_names[b],
				       c->spec[b == 1]);
		struct unit *u;

		/* Counted boots (icount) may run side by side. */
		boot[b] = unit_add(p, c->icount ? UNIT_COUNT : UNIT_BENCH, key,
				   &prov[b == 1], 1, desc);
		u = &p->v[boot[b]];
		u->spec = xstrdup(c->spec[b == 1]);
		u->name = name;
		u->role = b;
		free(key);
		free(desc);
	}
	free(run_key);
	for (s = 0; s < 2; s++)
		memcpy(c->prov[s], p->v[prov[s]].id, UNIT_ID_LEN + 1);
	for (b = 0; b < N_BOOTS; b++)
		memcpy(c->boot[b], p->v[boot[b]].id, UNIT_ID_LEN + 1);
	unit_plan_order(p);
	*o = &c->o;
	return c;
}

static int bench_unit_run(void *ctx, const struct unit_plan *p,
			  const struct unit *u, const char *store,
			  const char *dir, struct err *e)
{
	const struct bench_ctx *c = ctx;
	struct bench_set set;
	struct path_set paths = { 0 }, prof = { 0 };
	struct kernel k;
	bool ok;

	(void)p;
	(void)store;
	if (!unit_kind_bench(u->kind))
		return unit_provision(&c->o, u, dir, false, e);
	if (kernel_provision(u->spec, &k, c->o.refresh, e))
		return -1;
	ok = bench_boot(&c->o, c->args, c->icount,
			u->role == 2 ? BENCH_SEED_A2 : BENCH_SEED_A, &k, dir,
			u->name, &set, &paths, c->bo.points, &prof);
	write_file_at(dir, "verdict", ok ? "PASS\n" : "FAIL\n", 5);
	bench_free(&set);
	path_free(&paths);
	path_free(&prof);
	kernel_free(&k);
	return 0;
}

static int bench_merge(void *ctx, const struct unit_plan *p, const char *store,
		       const char *root)
{
	struct bench_ctx *c = ctx;
	struct bench_set set[N_BOOTS];
	struct path_set paths[N_BOOTS] = { 0 }, prof[N_BOOTS] = { 0 };
	bool ok = true;
	int b, status;

	(void)p;
	for (b = 0; b < N_BOOTS; b++) {
		/* run_kernel() names the boot's directory NAME-LSM. */
		char *dir_name = boot_dir_name(c, b);
		char *name = xasprintf("%s-%s", dir_name,
				       c->o.lsm ? c->o.lsm : lsms[0].name);
		char *dir = unit_link(store, c->boot[b], name, root);

		free(dir_name);
		unit_print_output(store, c->boot[b], root);
		ok &= unit_passed(store, c->boot[b]);
		bench_samples_load(dir, &set[b]);
		if (c->bo.probe_messages)
			bench_path_load(dir, &paths[b]);
		if (c->profile)
			bench_profile_load(dir, c->bo.points, &set[b],
					   &prof[b]);
		free(dir);
		free(name);
	}
	status = bench_report(&c->o, &c->bo, c->spec[0], c->spec[1], c->icount,
			      c->profile, root, set, paths, prof, ok);
	for (b = 0; b < N_BOOTS; b++) {
		bench_free(&set[b]);
		path_free(&paths[b]);
		path_free(&prof[b]);
	}
	return status;
}

const struct unit_cmd bench_units = {
	.name = "bench",
	.plan = bench_plan,
	.run = bench_unit_run,
	.merge = bench_merge,
};

int cmd_bench(int argc, char **argv)
{
	return units_here(&bench_units, argc, argv);
}
