// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf mutate`: builds every mutant incrementally from the original
 * build, runs the suites on it and compares its decisions with the
 * original's. A mutant is killed by the cases whose decisions differ, or
 * that failed on their own; one the suite cannot tell from the original
 * survives.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "results/results.h"
#include "provision/provision.h"
#include "analysis/analysis.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct mutate_opts {
	const char *dir; /* the mutants */
	const char *source; /* build:SOURCE of the original */
	char **only; /* only these mutants (NULL: all) */
	size_t n_only;
};

/* Case names shown per mutant; all of them are in mutants.tsv. */
#define SHOW_KILLERS 3

/* The failed cases of every boot of @kb, from its KTAP ("# not ok"). */
static void failed_cases(const struct kernel_boots *kb, struct sbuf *out,
			 size_t *n)
{
	size_t i;

	for (i = 0; i < kb->n; i++) {
		char *path = xasprintf("%s/ktap.txt", kb->dir[i]), *buf, *line;

		if (read_file(path, &buf, NULL)) {
			free(path);
			continue;
		}
		for (line = buf; line && *line; line = strchr(line, '\n')) {
			if (*line == '\n')
				line++;
			if (!strncmp(line, "# not ok ", 9)) {
				const char *name = line + 9;

				name += strspn(name, "0123456789 ");
				sbuf_printf(out, "%s%.*s", out->len ? "," : "",
					    (int)strcspn(name, "\n #"), name);
				(*n)++;
			}
		}
		free(buf);
		free(path);
	}
}

struct mutant_result {
	enum mutant_verdict verdict;
	size_t unexplained, failed;
	bool repeated; /* killed by a failure seen in two runs */
	struct sbuf killers; /* ids and case names, comma-separated */
	double build_s, run_s;
};

/* The LSMs a mutant is judged on: its own, or every one of the run. */
static const char *mutant_lsms(const struct run_opts *o, const struct mutant *m)
{
	return m->lsm ? m->lsm : o->lsms;
}

/* The original's decisions under the LSMs of @lsms. */
static void original_records(const struct kernel_boots *orig, const char *lsms,
			     struct record_set *rs)
{
	struct kernel_boots some = { 0 };
	size_t i;

	for (i = 0; i < orig->n; i++) {
		if (!lsm_listed(lsms, orig->lsm[i]))
			continue;
		some.lsm[some.n] = orig->lsm[i];
		some.dir[some.n++] = orig->dir[i];
	}
	run_load_records(&some, rs);
}

static void run_mutant(const struct run_opts *o, const char *root,
		       const struct mutate_opts *mo, const struct mutant *m,
		       const struct kernel_boots *orig_kb,
		       struct mutant_result *r)
{
	char *spec = xasprintf("build:%s+%s", mo->source, m->path);
	struct kernel_boots kb;
	struct record_set rs, orig;
	struct cmp_result cmp;
	struct run_opts ro = *o;
	struct sbuf names = { 0 };
	struct kernel k;
	struct err e;
	char *fa, *fb;
	size_t i, shown = 0;
	double t0 = now_seconds();
	bool run_ok;

	memset(r, 0, sizeof(*r));
	/* A mutant that does not build is stillborn, not the end of the run. */
	if (kernel_provision(spec, &k, o->refresh, &e)) {
		note("%s", e.msg);
		r->build_s = now_seconds() - t0;
		r->verdict = mutant_judge(false, false, 0);
		free(spec);
		return;
	}
	r->build_s = now_seconds() - t0;
	t0 = now_seconds();
	ro.dir_name = xasprintf("mutant-%s", m->name);
	ro.lsms = mutant_lsms(o, m);
	if (run_kernel_lsms(&ro, root, &k, &kb, &e))
		die("%s", e.msg);
	run_load_records(&kb, &rs);
	original_records(orig_kb, ro.lsms, &orig);
	/*
	 * A mutant is the original's source plus a patch: a feature it no
	 * longer advertises is a kill, and explains none of its decisions.
	 */
	compare_boot_features(orig_kb, &kb, &fa, &fb);
	compare_kernels(&orig, &rs, fa, fb, true, &cmp);
	free(fa);
	free(fb);
	r->unexplained = cmp_unexplained(&cmp);
	for (i = 0; i < cmp.n_feat; i++)
		sbuf_printf(&r->killers, "%sfeature:%s (%s -> %s)",
			    shown++ ? "," : "", cmp.feat[i].path, cmp.feat[i].a,
			    cmp.feat[i].b);
	for (i = 0; i < cmp.n; i++)
		if (cmp.v[i].cls == CMP_UNEXPLAINED)
			sbuf_printf(&r->killers, "%s%s (%s -> %s)",
				    shown++ ? "," : "", cmp.v[i].id, cmp.v[i].a,
				    cmp.v[i].b);
	failed_cases(&kb, &names, &r->failed);
	if (names.len)
		sbuf_printf(&r->killers, "%s%s", r->killers.len ? "," : "",
			    names.buf);
	run_ok = kb.ok;
	/*
	 * A failure with every decision as the original's kills only if it
	 * repeats: one bad boot of an emulator must not count as a kill.
	 */
	if (!run_ok && !r->unexplained) {
		struct kernel_boots again;

		free((char *)ro.dir_name);
		ro.dir_name = xasprintf("mutant-%s-again", m->name);
		printf("== mutant %s: it failed with no decision changed; running it again\n",
		       m->name);
		if (run_kernel_lsms(&ro, root, &k, &again, &e))
			die("%s", e.msg);
		run_ok = again.ok;
		r->repeated = !again.ok;
		if (again.ok)
			printf("   the failure did not repeat: not a kill\n");
		kernel_boots_free(&again);
	}
	r->verdict = mutant_judge(true, run_ok, r->unexplained);
	r->run_s = now_seconds() - t0;
	sbuf_free(&names);
	compare_free(&cmp);
	records_free(&rs);
	records_free(&orig);
	kernel_boots_free(&kb);
	kernel_free(&k);
	free((char *)ro.dir_name);
	free(spec);
}

/* The first SHOW_KILLERS entries of a comma-separated list. */
static void print_first(const char *list)
{
	const char *p = list;
	int i;

	for (i = 0; i < SHOW_KILLERS && p && *p; i++) {
		size_t n = strcspn(p, ",");

		printf("%s%.*s", i ? ", " : "", (int)n, p);
		p += n + (p[n] == ',');
	}
	if (p && *p)
		printf(", ...");
}

/*
 * Keeps the mutants of the run's LSMs (a mutant of several LSMs stays);
 * returns how many are left, dies when none is.
 */
static size_t keep_lsms(const struct run_opts *o, struct mutant *m, size_t n)
{
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		if (m[i].lsm && !lsm_listed(o->lsms, m[i].lsm)) {
			mutant_clear(&m[i]);
			continue;
		}
		m[kept++] = m[i];
	}
	if (!kept)
		die("no mutant patches an LSM of --lsm %s", o->lsms);
	return kept;
}

/* The LSMs the original must boot with: every one a kept mutant needs. */
static char *union_lsms(const struct run_opts *o, const struct mutant *m,
			size_t n)
{
	static const char *const all[] = { "apparmor", "selinux" };
	struct sbuf sb = { 0 };
	size_t i, j;

	for (j = 0; j < ARRAY_SIZE(all); j++) {
		if (!lsm_listed(o->lsms, all[j]))
			continue;
		for (i = 0; i < n; i++)
			if (lsm_listed(mutant_lsms(o, &m[i]), all[j]))
				break;
		if (i < n)
			sbuf_printf(&sb, "%s%s", sb.len ? "," : "", all[j]);
	}
	return sb.buf;
}

/* `lsmconf mutate`; returns the exit status. */
static int mutate_main(const struct run_opts *o, const struct mutate_opts *mo)
{
	char *root = results_root(o->results), *spec;
	struct mutant *m;
	struct mutant_result *res;
	struct kernel_boots kb;
	struct record_set orig;
	struct sbuf tsv = { 0 };
	char *lsms;
	size_t n, i, killed = 0, survived = 0, stillborn = 0, equivalent = 0;
	double t0 = now_seconds();
	struct kernel k;
	struct err e;

	if (mutants_list(mo->dir, mo->only, mo->n_only, &m, &n, &e))
		die("%s", e.msg);
	n = keep_lsms(o, m, n);
	spec = xasprintf("build:%s", mo->source);
	if (kernel_provision(spec, &k, o->refresh, &e))
		die("%s", e.msg);
	{
		struct run_opts ro = *o;

		ro.dir_name = "original";
		ro.lsms = lsms = union_lsms(o, m, n);
		if (run_kernel_lsms(&ro, root, &k, &kb, &e))
			die("%s", e.msg);
	}
	if (!kb.ok)
		die("the original %s fails the suite on its own: no mutant can be judged against it",
		    spec);
	run_load_records(&kb, &orig);
	kernel_free(&k);
	printf("== original %s (%s): %zu decisions, every case passed (%.0f s)\n",
	       spec, lsms, orig.n, now_seconds() - t0);
	records_free(&orig);

	res = xcalloc(n, sizeof(*res));
	sbuf_printf(
		&tsv,
		"mutant\tverdict\tunexplained\tfailed_cases\tbuild_s\trun_s\tdescription\tkilled_by\n");
	for (i = 0; i < n; i++) {
		struct mutant_result *r = &res[i];

		progress("mutant %zu of %zu: %s", i + 1, n, m[i].name);
		progress_done();
		run_mutant(o, root, mo, &m[i], &kb, r);
		printf("== mutant %s: %s\n   bug: %s\n", m[i].name,
		       mutant_verdict_name(r->verdict), m[i].desc);
		if (r->verdict == MUTANT_KILLED) {
			printf("   killed by %zu unexplained decisions, %zu failed cases%s: ",
			       r->unexplained, r->failed,
			       r->repeated ? " (the failure repeated)" : "");
			print_first(r->killers.buf);
			printf("\n");
			killed++;
		} else if (r->verdict == MUTANT_STILLBORN) {
			printf("   does not build (see the error above)\n");
			stillborn++;
		} else if (m[i].equivalent) {
			printf("   equivalent: %s\n", m[i].equivalent);
			equivalent++;
		} else {
			printf("   SURVIVED: no case tells it from the original\n");
			survived++;
		}
		printf("   time: build %.1f s, boots and compare %.1f s\n",
		       r->build_s, r->run_s);
		fflush(stdout);
		sbuf_printf(&tsv, "%s\t%s\t%zu\t%zu\t%.1f\t%.1f\t%s\t%s\n",
			    m[i].name, mutant_verdict_name(r->verdict),
			    r->unexplained, r->failed, r->build_s, r->run_s,
			    m[i].desc, r->killers.len ? r->killers.buf : "-");
		sbuf_free(&r->killers);
	}
	write_file_at(root, "mutants.tsv", tsv.buf, tsv.len);
	printf("== mutation score: %zu killed of %zu non-equivalent mutants (%.0f%%); %zu survived, %zu equivalent, %zu did not build\n",
	       killed, n - equivalent - stillborn,
	       n - equivalent - stillborn ?
		       100.0 * killed / (n - equivalent - stillborn) :
		       0.0,
	       survived, equivalent, stillborn);
	printf("   total time %.1f s; results in %s (mutants.tsv)\n",
	       now_seconds() - t0, root);
	kernel_boots_free(&kb);
	free(lsms);
	sbuf_free(&tsv);
	mutants_free(m, n);
	free(res);
	free(spec);
	free(root);
	return survived || stillborn ? 1 : 0;
}

struct mutate_args {
	struct mutate_opts m;
	bool lsm_given;
};

static bool mutate_option(void *ctx, const char *opt, const char *v)
{
	struct mutate_args *a = ctx;
	struct mutate_opts *m = &a->m;

	if (!strcmp(opt, "--lsm") || !strncmp(opt, "--lsm=", 6))
		a->lsm_given = true;
	if (!strcmp(opt, "--mutants")) {
		m->dir = opt_value(opt, v);
	} else if (!strcmp(opt, "--mutant")) {
		opt_value(opt, v);
		m->only = xrealloc(m->only, (m->n_only + 1) * sizeof(char *));
		m->only[m->n_only++] = (char *)v;
	} else if (!strcmp(opt, "--source")) {
		m->source = opt_value(opt, v);
	} else {
		return false;
	}
	return true;
}

int cmd_mutate(int argc, char **argv)
{
	struct mutate_args a = {
		.m = {
			.dir = LSMCONF_ROOT "/fixtures/mutants",
			.source = "debian-source:7.2",
		},
	};
	struct mutate_opts *m = &a.m;
	struct run_opts o;
	int first;

	/* mutate options first, then the shared ones. */
	argc = own_options(argc, argv, mutate_option, &a);
	first = run_options(argc, argv, &o);
	if (first != argc)
		die("mutate: no kernel specs: mutants are built from --source");
	{
		char *spec = xasprintf("build:%s", m->source);

		specs_check(&spec, 1);
		free(spec);
	}
	/*
	 * Each mutant is judged by the suite of the LSM it patches; --lsm
	 * keeps only the mutants of those LSMs.
	 */
	if (!a.lsm_given)
		o.lsms = "apparmor,selinux";
	return mutate_main(&o, m);
}
