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

static bool cover_one(const struct run_opts *o, const char *root,
		      const char *spec, struct sbuf *timing)
{
	char *text = coverage_spec(spec), *out;
	struct coverage_hooks
		hooks[ARRAY_SIZE(((struct kernel_boots *)0)->lsm)];
	struct kernel_boots kb;
	struct kernel k;
	struct lcov l;
	struct err e;
	bool ok;

	if (kernel_provision(text, &k, o->refresh, &e))
		die("%s", e.msg);
	if (run_kernel_lsms(o, root, &k, &kb, &e))
		die("%s", e.msg);
	ok = kb.ok;
	timing_rows_of(&kb, timing);
	out = report_dir(&kb);
	if (coverage_report(&k, kb.dir, kb.lsm, kb.n, out, &l, hooks, &e))
		die("%s", e.msg);
	printf("== coverage of %s\n", text);
	print_summary(&l);
	print_hooks(hooks, kb.n);
	for (size_t i = 0; i < kb.n; i++)
		sbuf_free(&hooks[i].uncalled);
	printf("   per file: %s/coverage.tsv; hooks: %s/hooks.tsv; HTML: %s/html/index.html\n",
	       out, out, out);
	lcov_free(&l);
	free(out);
	free(text);
	kernel_free(&k);
	kernel_boots_free(&kb);
	return ok;
}

int cmd_coverage(int argc, char **argv)
{
	struct run_opts o;
	int first = run_options(argc, argv, &o);
	struct sbuf timing = { 0 };
	size_t i, failed = 0;
	char *root;

	if (first >= argc)
		die("coverage: no kernel spec given (e.g. build:debian-source:7.2)");
	for (i = first; i < (size_t)argc; i++)
		free(coverage_spec(argv[i]));
	specs_check(argv + first, argc - first);
	root = results_root(o.results);
	for (i = first; i < (size_t)argc; i++)
		failed += !cover_one(&o, root, argv[i], &timing);
	timing_report(root, &timing);
	sbuf_free(&timing);
	printf("lsmconf: coverage of %d kernels, %zu passed; results in %s\n",
	       argc - first, argc - first - failed, root);
	free(root);
	return failed ? 1 : 0;
}
