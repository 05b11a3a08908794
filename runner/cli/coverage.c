// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf coverage SPEC...`: each kernel built from source with gcov
 * counters in the LSMs' code (build:SOURCE[+PATCH...],coverage), the
 * suites run on it as `run` runs them, and its coverage reported
 * (coverage_report.c): per file and for the LSMs' mediation files.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "coverage.h"
#include "analysis/analysis.h"
#include "provision/provision.h"
#include "lib/lib.h"
#include "work/work.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The files the summary names, each LSM's mediation code. */
static const char *const summary_files[] = {
	"security/apparmor/lsm.c",	"security/apparmor/af_unix.c",
	"security/apparmor/net.c",	"security/apparmor/file.c",
	"security/apparmor/mount.c",	"security/apparmor/domain.c",
	"security/apparmor/ipc.c",	"security/apparmor/task.c",
	"security/apparmor/label.c",	"security/apparmor/policy.c",
	"security/apparmor/procattr.c", "security/apparmor/capability.c",
	"security/apparmor/resource.c", "security/apparmor/apparmorfs.c",
	"security/selinux/hooks.c",	"security/selinux/selinuxfs.c",
	"security/selinux/avc.c",	"security/selinux/ss/services.c",
	"security/selinux/ss/mls.c",	"security/security.c",
	"net/unix/af_unix.c",
};

static double pct(unsigned long hit, unsigned long all)
{
	return all ? 100.0 * hit / all : 0;
}

static void print_summary(const struct lcov *l)
{
	size_t i;

	printf("   %-32s %18s %18s %14s\n", "file", "lines", "branches",
	       "functions");
	for (i = 0; i < ARRAY_SIZE(summary_files); i++) {
		const struct lcov_file *f = lcov_file(l, summary_files[i]);
		char a[32], b[32], c[32];

		if (!f) {
			printf("   %-32s not built\n", summary_files[i]);
			continue;
		}
		snprintf(a, sizeof(a), "%lu/%lu %5.1f%%", f->lines_hit,
			 f->lines, pct(f->lines_hit, f->lines));
		snprintf(b, sizeof(b), "%lu/%lu %5.1f%%", f->branches_hit,
			 f->branches, pct(f->branches_hit, f->branches));
		snprintf(c, sizeof(c), "%lu/%zu %5.1f%%", f->funcs_hit,
			 f->n_funcs, pct(f->funcs_hit, f->n_funcs));
		printf("   %-32s %18s %18s %14s\n", summary_files[i], a, b, c);
	}
}

/* Per LSM: its hooks, those the counters saw called, those not built. */
static void print_hooks(const struct coverage_hooks *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (h[i].hooks) {
			printf("   %s: %zu hooks registered, %zu called, %zu not built; an allow recorded through %zu, a deny through %zu (%zu of %zu records mapped by fixtures/hook-ops.tsv)\n",
			       h[i].lsm, h[i].hooks, h[i].called, h[i].absent,
			       h[i].allow_seen, h[i].deny_seen,
			       h[i].records - h[i].unmapped, h[i].records);
			if (h[i].uncalled.len)
				printf("   %s: records through hooks the counters never saw called (fixtures/hook-ops.tsv is wrong there, or the build is): %s\n",
				       h[i].lsm, h[i].uncalled.buf);
			printf("   %s: %zu hooks with both outcomes, %zu not built, %zu listed with a reason (fixtures/hook-reasons.tsv); gaps: %s\n",
			       h[i].lsm, h[i].both, h[i].absent, h[i].reasoned,
			       h[i].gaps.len ? h[i].gaps.buf : "none");
			if (h[i].stale.len)
				printf("   %s: listed with a reason yet reached with both outcomes (the reason is stale): %s\n",
				       h[i].lsm, h[i].stale.buf);
			printf("   %s: %zu functions of security/%s/ never called: %zu implement a hook listed with a reason, %zu a gap, %zu no hook, of which %zu have a reason (fixtures/uncovered-reasons.tsv) and %zu none (uncovered.tsv)\n",
			       h[i].lsm, h[i].never.never, h[i].lsm,
			       h[i].never.reasoned, h[i].never.gap,
			       h[i].never.helper_reasoned + h[i].never.helper,
			       h[i].never.helper_reasoned, h[i].never.helper);
		}
}

/* @spec as a coverage build: build: only, ",coverage" added. */
static char *coverage_spec(const char *spec)
{
	struct kspec ks;
	char err[256], *text;

	if (kspec_parse(spec, &ks, err, sizeof(err)))
		die("%s", err);
	if (ks.kind != KSPEC_BUILD)
		die("coverage: %s is not a kernel built from source (want build:SOURCE[+PATCH...], e.g. build:debian-source:7.2)",
		    spec);
	text = ks.coverage ? xstrdup(spec) : xasprintf("%s,coverage", spec);
	kspec_free(&ks);
	return text;
}

/*
 * RESULTS/LABEL: the kernel's results directory's name without its LSM
 * ("build-debian-source-7.2-coverage"), beside its LSMs' directories.
 */
static char *report_dir(const struct kernel_boots *kb)
{
	const char *dir = kb->dir[0], *dash = strrchr(dir, '-');

	if (!dash || strcmp(dash + 1, kb->lsm[0]))
		return xasprintf("%s-report", dir);
	return xstrndup(dir, dash - dir);
}

/* What coverage's units and merge need (the plan's context). */
struct coverage_ctx {
	struct run_opts o;
	char **spec; /* each "build:...,coverage" */
	size_t n_spec;
	const char *lsm[4];
	size_t n_lsm;
	/* Per kernel: its build, its boots (one per LSM). */
	char (*build)[UNIT_ID_LEN + 1];
	char (*boot)[4][UNIT_ID_LEN + 1];
};

/*
 * Per kernel, its coverage build and one boot per LSM, as compare plans
 * a kernel: the boots' counters are merged by the report.
 */
static void *coverage_plan(int argc, char **argv, struct unit_plan *p,
			   const struct run_opts **o)
{
	struct coverage_ctx *c = xcalloc(1, sizeof(*c));
	int first = run_options(argc, argv, &c->o), n;
	size_t s, i, *build, (*boot)[4];
	char *run_key;
	struct err e;

	if (first >= argc)
		die("coverage: no kernel spec given (e.g. build:debian-source:7.2)");
	c->n_spec = argc - first;
	c->spec = xcalloc(c->n_spec, sizeof(*c->spec));
	for (s = 0; s < c->n_spec; s++)
		c->spec[s] = coverage_spec(argv[first + s]);
	specs_check(c->spec, c->n_spec);
	n = run_lsms(&c->o, c->lsm, ARRAY_SIZE(c->lsm), &e);
	if (n < 0)
		die("%s", e.msg);
	c->n_lsm = n;
	build = xcalloc(c->n_spec, sizeof(*build));
	boot = xcalloc(c->n_spec, sizeof(*boot));
	run_key = unit_run_key(&c->o);
	for (s = 0; s < c->n_spec; s++)
		build[s] = unit_plan_kernel(p, c->spec[s], c->lsm, c->n_lsm,
					    run_key, boot[s]);
	free(run_key);
	/* Ids, not indexes: ordering moves the units. */
	c->build = xcalloc(c->n_spec, sizeof(*c->build));
	c->boot = xcalloc(c->n_spec, sizeof(*c->boot));
	for (s = 0; s < c->n_spec; s++) {
		memcpy(c->build[s], p->v[build[s]].id, UNIT_ID_LEN + 1);
		for (i = 0; i < c->n_lsm; i++)
			memcpy(c->boot[s][i], p->v[boot[s][i]].id,
			       UNIT_ID_LEN + 1);
	}
	free(build);
	free(boot);
	unit_plan_order(p);
	*o = &c->o;
	return c;
}

static int coverage_unit_run(void *ctx, const struct unit_plan *p,
			     const struct unit *u, const char *store,
			     const char *dir, struct err *e)
{
	const struct coverage_ctx *c = ctx;

	(void)p;
	(void)store;
	return unit_run_kernel(&c->o, u, dir, e);
}

/*
 * Kernel @s's report from its boots' units: their counters beside the
 * build's notes files (the build's cache, where the merge runs). False
 * when a boot did not pass.
 */
static bool cover_one(const struct coverage_ctx *c, size_t s, const char *store,
		      const char *root)
{
	struct coverage_hooks hooks[ARRAY_SIZE(c->lsm)];
	struct kernel_boots kb = { .ok = true };
	char *name = safe_name(c->spec[s]), *out;
	struct kernel k;
	struct lcov l;
	struct err e;
	size_t i;

	for (i = 0; i < c->n_lsm; i++) {
		char *dir = xasprintf("%s-%s", name, c->lsm[i]);

		unit_print_output(store, c->boot[s][i], root);
		kb.lsm[i] = c->lsm[i];
		kb.dir[i] = unit_link(store, c->boot[s][i], dir, root);
		kb.ok &= unit_passed(store, c->boot[s][i]);
		kb.n = i + 1;
		free(dir);
	}
	/* The build unit made it: found in the cache, not built again. */
	if (kernel_provision(c->spec[s], &k, false, &e))
		die("%s", e.msg);
	out = report_dir(&kb);
	if (coverage_report(&k, kb.dir, kb.lsm, kb.n, out, &l, hooks, &e))
		die("%s", e.msg);
	printf("== coverage of %s\n", c->spec[s]);
	print_summary(&l);
	print_hooks(hooks, kb.n);
	for (i = 0; i < kb.n; i++) {
		sbuf_free(&hooks[i].uncalled);
		sbuf_free(&hooks[i].gaps);
		sbuf_free(&hooks[i].stale);
	}
	printf("   per file: %s/coverage.tsv; hooks: %s/hooks.tsv; HTML: %s/html/index.html\n",
	       out, out, out);
	lcov_free(&l);
	free(out);
	free(name);
	kernel_free(&k);
	i = kb.ok;
	kernel_boots_free(&kb);
	return i;
}

static int coverage_merge(void *ctx, const struct unit_plan *p,
			  const char *store, const char *root)
{
	struct coverage_ctx *c = ctx;
	size_t s, failed = 0;

	(void)p;
	for (s = 0; s < c->n_spec; s++)
		failed += !cover_one(c, s, store, root);
	printf("lsmconf: coverage of %zu kernels, %zu passed; results in %s\n",
	       c->n_spec, c->n_spec - failed, root);
	return failed ? 1 : 0;
}

const struct unit_cmd coverage_units = {
	.name = "coverage",
	.plan = coverage_plan,
	.run = coverage_unit_run,
	.merge = coverage_merge,
};

int cmd_coverage(int argc, char **argv)
{
	return units_here(&coverage_units, argc, argv);
}
