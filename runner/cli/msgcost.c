// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf msgcost SPEC...`: the SELinux message-queue round-trip cost per
 * kernel, per policy category count and per sender level, and a check
 * that it does not grow with the category count. Each kernel boots once
 * with SELinux; under TCG the guest clock counts instructions.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "vm/vm.h"
#include "provision/provision.h"
#include "analysis/analysis.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct msgcost_opts {
	const char *points; /* "CATS:LEVEL ..." */
	int warmup, rounds, iterations;
	double limit; /* instructions per category per round trip */
	double limit_carried; /* the same, for messages carrying them */
};

static void load_samples(const char *dir, struct msgcost_set *set)
{
	char *path, *text = run_guest_file(dir, "msgcost.tsv", &path);

	msgcost_parse(text, set);
	note_malformed(path, set->malformed);
	free(text);
	free(path);
}

/* The category counts named in the points, ascending, without repeats. */
static size_t point_cats(const char *points, int *cats, size_t max)
{
	const char *p = points;
	size_t n = 0, i, j;

	while (*p) {
		int c = atoi(p);

		for (i = 0; i < n && cats[i] != c; i++)
			;
		if (c > 0 && i == n && n < max)
			cats[n++] = c;
		p += strcspn(p, " ");
		p += strspn(p, " ");
	}
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && cats[j - 1] > cats[j]; j--) {
			int t = cats[j];

			cats[j] = cats[j - 1];
			cats[j - 1] = t;
		}
	return n;
}

static bool report_kernel(const char *spec, const struct msgcost_set *set,
			  const struct msgcost_opts *mo, struct sbuf *sum)
{
	int cats[16];
	size_t nc = point_cats(mo->points, cats, 16), c, l;
	bool flagged = false;

	printf("   %-8s", "level");
	for (c = 0; c < nc; c++)
		printf(" %9s%-4d", "c", cats[c]);
	printf(" %8s %10s %10s %13s  %s\n", "max CV", "growth", "95% +-",
	       "per category", "verdict");
	for (l = 0; l < MSGCOST_N_LEVELS; l++) {
		struct msgcost_verdict v;
		size_t n;

		if (!strstr(mo->points, msgcost_levels[l]))
			continue;
		printf("   %-8s", msgcost_levels[l]);
		for (c = 0; c < nc; c++)
			printf(" %13.1f", msgcost_mean(set, cats[c],
						       msgcost_levels[l], &n));
		if (msgcost_judge(set, msgcost_levels[l],
				  msgcost_limit(msgcost_levels[l], mo->limit,
						mo->limit_carried),
				  &v)) {
			printf("  missing samples\n");
			flagged = true;
			continue;
		}
		printf(" %7.3f%% %+10.1f %10.1f %13.3f  %s\n", 100 * v.max_cv,
		       v.growth, v.margin, v.per_category,
		       v.grows ? "GROWS with categories" : "flat");
		sbuf_printf(
			sum,
			"%s\t%s\t%d\t%d\t%.2f\t%.2f\t%.6f\t%.2f\t%.2f\t%.4f\t%s\n",
			spec, msgcost_levels[l], v.cats_lo, v.cats_hi, v.lo,
			v.hi, v.max_cv, v.growth, v.margin, v.per_category,
			v.grows ? "grows" : "flat");
		flagged |= v.grows;
	}
	return !flagged;
}

/* `lsmconf msgcost SPEC...`; returns the exit status. */
static int msgcost_main(const struct run_opts *o, const struct msgcost_opts *mo,
			char *const *specs, size_t n_specs)
{
	char *root = results_root(o->results);
	struct sbuf all = { 0 }, sum = { 0 };
	bool icount = !boot_uses_kvm();
	size_t i, j, bad = 0;
	char *args;

	args = xasprintf("-W %d -r %d -n %d %s", mo->warmup, mo->rounds,
			 mo->iterations, mo->points);
	sbuf_printf(
		&all,
		"kernel\tcats\tlevel\tround\twarmup\titerations\tns\tns_per_op\n");
	sbuf_printf(
		&sum,
		"kernel\tlevel\tcats_lo\tcats_hi\tcost_lo\tcost_hi\tmax_cv\tgrowth\tmargin95\tper_category\tverdict\n");
	for (i = 0; i < n_specs; i++) {
		struct run_opts ro = *o;
		struct msgcost_set set;
		struct kernel k;
		struct err e;
		char *test = "msg_cost", *dir, *append;
		int ok;

		if (kernel_provision(specs[i], &k, o->refresh, &e))
			die("%s", e.msg);
		ro.tests = &test;
		ro.n_tests = 1;
		ro.args = args;
		ro.lsm = "selinux";
		ro.icount = icount;
		ro.append = append = cost_boot_append(o->append);
		ok = run_kernel(&ro, root, &k, &dir, &e);
		free(append);
		if (ok < 0)
			die("%s", e.msg);
		load_samples(dir, &set);
		for (j = 0; j < set.n; j++) {
			const struct msgcost_sample *s = &set.v[j];

			sbuf_printf(&all,
				    "%s\t%d\t%s\t%d\t%d\t%lld\t%lld\t%.4f\n",
				    specs[i], s->cats, s->level, s->round,
				    s->warmup, s->iterations, s->ns, s->per_op);
		}
		printf("== msgcost %s (%s; msgsnd + msgrcv per round trip, mean of %d rounds)\n",
		       specs[i],
		       icount ? "clock: QEMU icount, guest ns = instructions" :
				"clock: real time under KVM",
		       mo->rounds);
		ok &= report_kernel(specs[i], &set, mo, &sum);
		bad += !ok;
		msgcost_free(&set);
		kernel_free(&k);
		free(dir);
	}
	write_file_at(root, "msgcost.tsv", all.buf, all.len);
	write_file_at(root, "summary.tsv", sum.buf, sum.len);
	printf("   GROWS = more than %.2f instructions per category per round trip (%.2f when the message carries the categories: level low) between the fewest and the most categories, beyond the 95%% interval\n",
	       mo->limit, mo->limit_carried);
	printf("lsmconf: %zu of %zu kernels passed the category-cost check; results in %s (msgcost.tsv, summary.tsv)\n",
	       n_specs - bad, n_specs, root);
	sbuf_free(&all);
	sbuf_free(&sum);
	free(args);
	free(root);
	return bad ? 1 : 0;
}

static bool msgcost_option(void *ctx, const char *opt, const char *v)
{
	struct msgcost_opts *m = ctx;

	if (!strcmp(opt, "--points"))
		m->points = opt_value(opt, v);
	else if (!strcmp(opt, "--warmup"))
		m->warmup = opt_nonnegative(opt, opt_value(opt, v));
	else if (!strcmp(opt, "--rounds"))
		m->rounds = opt_positive(opt, opt_value(opt, v));
	else if (!strcmp(opt, "--iterations"))
		m->iterations = opt_positive(opt, opt_value(opt, v));
	else if (!strcmp(opt, "--limit"))
		m->limit = opt_positive_real(opt, opt_value(opt, v));
	else if (!strcmp(opt, "--limit-carried"))
		m->limit_carried = opt_positive_real(opt, opt_value(opt, v));
	else
		return false;
	return true;
}

int cmd_msgcost(int argc, char **argv)
{
	struct msgcost_opts m = {
		.points = "4:none 4:high 4:low 256:none 256:high 256:low "
			  "1024:none 1024:high 1024:low",
		.warmup = 3,
		.rounds = 10,
		.iterations = 2000,
		.limit = MSGCOST_MAX_PER_CATEGORY,
		.limit_carried = MSGCOST_MAX_PER_CARRIED_CATEGORY,
	};
	struct run_opts o;
	int first;
	char err[512];

	/* msgcost options first, then the shared ones. */
	argc = own_options(argc, argv, msgcost_option, &m);
	first = run_options(argc, argv, &o);
	if (first >= argc)
		die("msgcost: no kernel spec given (e.g. debian:sid)");
	if (m.rounds < 2)
		die("msgcost: --rounds must be at least 2");
	if (msgcost_points_check(m.points, err, sizeof(err)))
		die("--points: %s", err);
	specs_check(argv + first, argc - first);
	if (!o.test_timeout_s)
		o.test_timeout_s = 1800;
	return msgcost_main(&o, &m, argv + first, argc - first);
}
