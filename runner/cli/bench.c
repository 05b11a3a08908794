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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_BOOTS 3

static const char *const boot_names[N_BOOTS] = { "A", "B", "A2" };

static void load_samples(const char *dir, struct bench_set *set)
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
	load_samples(dir, set);
	if (paths)
		bench_path_load(dir, paths);
	if (o->profile && prof)
		bench_profile_load(dir, points, set, prof);
	free(dir);
	return ran;
}

/*
 * The three boots, A -> B -> A2, with the same command line: only the
 * kernel differs (and, under icount, A2's clock seed: see BENCH_SEED_A2).
 * Their samples go to @set; false when a boot failed.
 */
static bool bench_boots(const struct run_opts *o, const struct bench_opts *bo,
			const char *const specs[N_BOOTS], const char *root,
			bool icount, struct bench_set set[N_BOOTS],
			struct path_set paths[N_BOOTS],
			struct path_set prof[N_BOOTS])
{
	struct kernel k[2];
	struct err e;
	char *args;
	bool ok = true;
	int b;

	if (kernel_provision(specs[0], &k[0], o->refresh, &e))
		die("%s", e.msg);
	if (kernel_provision(specs[1], &k[1], o->refresh, &e))
		die("%s", e.msg);
	args = bench_args(bo);
	for (b = 0; b < N_BOOTS; b++) {
		char *name = safe_name(specs[b]);
		char *dir_name =
			xasprintf("%d-%s-%s", b + 1, boot_names[b], name);

		ok &= bench_boot(o, args, icount,
				 b == 2 ? BENCH_SEED_A2 : BENCH_SEED_A,
				 &k[b == 1], root, dir_name, &set[b], &paths[b],
				 bo->points, &prof[b]);
		free(dir_name);
		free(name);
	}
	kernel_free(&k[0]);
	kernel_free(&k[1]);
	free(args);
	return ok;
}

/* samples.tsv: every sample of the three boots (gnuplot reads it too). */
static void write_samples(const char *root, const struct bench_set set[N_BOOTS])
{
	struct sbuf out = { 0 };
	size_t i;
	int b;

	sbuf_printf(
		&out,
		"boot\tworkload\tconfinement\tinvocation\tround\twarmup\tmessages\tns\tns_per_msg\n");
	for (b = 0; b < N_BOOTS; b++)
		for (i = 0; i < set[b].n; i++) {
			const struct bench_sample *s = &set[b].v[i];
			char *pt = xstrdup(s->point), *c = strchr(pt, ':');

			*c = '\t';
			sbuf_printf(&out,
				    "%s\t%s\t%d\t%d\t%d\t%lld\t%lld\t%.4f\n",
				    boot_names[b], pt, s->invocation, s->round,
				    s->warmup, s->messages, s->ns, s->per_msg);
			free(pt);
		}
	write_file_at(root, "samples.tsv", out.buf, out.len);
	sbuf_free(&out);
}

/*
 * One point's statistics: a report line and a summary.tsv line. False
 * when a boot has no samples of it.
 */
static bool summarize_point(const char *point,
			    const struct bench_set set[N_BOOTS],
			    struct sbuf *sum)
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
		ab_compare(v[0], n[0], v[1], n[1], v[2], n[2], &ab);
		printf("   %-20s %11.2f %11.2f %11.2f %7.3f%% %7.3f%% %+7.2f%% [%8.4f, %8.4f] %s%s\n",
		       point, st[0].mean, st[1].mean, st[2].mean,
		       100 * ab.max_cv, 100 * ab.drift, 100 * ab.change, ab.lo,
		       ab.hi,
		       ab.significant ? "significant" : "not significant",
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

static int bench_main(const struct run_opts *o, const struct bench_opts *bo,
		      const char *spec_a, const char *spec_b)
{
	const char *specs[N_BOOTS] = { spec_a, spec_b, spec_a };
	struct bench_set set[N_BOOTS];
	struct path_set paths[N_BOOTS], prof[N_BOOTS] = { 0 };
	struct sbuf sum = { 0 }, path_tsv = { 0 }, prof_tsv = { 0 };
	struct run_opts ro = *o;
	char *root = results_root(o->results), *copy, *tok, *save = NULL;
	bool icount = !boot_uses_kvm(), ok;
	int b, failed = 0;

	/* The plugin counts what TCG executes: under KVM there is none. */
	ro.profile = bo->profile && icount && boot_can_profile();
	if (bo->profile && !ro.profile)
		printf("   --profile on: no instruction profile (%s)\n",
		       !icount ? "under KVM: the plugin needs TCG" :
				 "this QEMU cannot load plugins");
	ok = bench_boots(&ro, bo, specs, root, icount, set, paths, prof);
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
		failed += !summarize_point(tok, set, &sum);
		if (bo->probe_messages)
			bench_path_point(tok, paths, &path_tsv);
		if (ro.profile)
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

	for (b = 0; b < N_BOOTS; b++) {
		bench_free(&set[b]);
		path_free(&paths[b]);
		path_free(&prof[b]);
	}
	sbuf_free(&sum);
	sbuf_free(&prof_tsv);
	sbuf_free(&path_tsv);
	free(root);
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

int cmd_bench(int argc, char **argv)
{
	struct bench_opts b = {
		.points = "socketpair:none twoproc:none twoproc:sender "
			  "twoproc:receiver twoproc:both twoproc:stacked "
			  "uring:none",
		.invocations = 3,
		.warmup = 3,
		.rounds = 15,
		.messages = 65536,
		.probe_messages = 1024,
		/* The graph tracer crashed build: 7.2 kernels (docs/runner.md) */
		.probe_calls_only = true,
	};
	struct run_opts o;
	int first;
	char err[512];

	/* Bench options first, then the shared ones. */
	argc = own_options(argc, argv, bench_option, &b);
	first = run_options(argc, argv, &o);
	if (argc - first != 2)
		die("bench: want exactly two kernel specs (A B)");
	if (bench_points_check(b.points, err, sizeof(err)))
		die("--points: %s", err);
	specs_check(argv + first, 2);
	if (!o.test_timeout_s)
		o.test_timeout_s = 3600;
	return bench_main(&o, &b, argv[first], argv[first + 1]);
}
