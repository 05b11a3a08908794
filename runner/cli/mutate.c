// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf mutate`: builds every mutant incrementally from the original
 * build, runs the suites on it and compares its decisions with the
 * original's. A run that decides nothing alone (the guest never reached
 * its tests, a record missing on one side, a failure with no decision
 * changed) is run again, and only what repeats kills (mutant_judge()).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "mutate.h"
#include "results/results.h"
#include "provision/provision.h"
#include "analysis/analysis.h"
#include "lib/lib.h"
#include "work/work.h"
#include "vm/vm.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct mutate_opts {
	const char *dir; /* the mutants */
	const char *source; /* build:SOURCE of the original */
	char **only; /* only these mutants (NULL: all) */
	size_t n_only;
	const char *cost; /* --cost POINTS: bench points judged too, or NULL */
	/*
	 * --coverage FILE: the original's coverage.info (lsmconf coverage of
	 * the same source, under the same suites): each generated survivor
	 * classed as a reach gap or an oracle gap.
	 */
	const char *coverage_path;
	struct lcov coverage;
	/*
	 * --skip-unexecuted: a generated mutant whose line that coverage
	 * never counted, or whose file it has no counters of, is neither
	 * built nor booted: it survives (mutgen_unexecuted()).
	 */
	bool skip_unexecuted;
	/*
	 * --evidence: each generated mutant claims equivalence, checked as a
	 * written claim is (its records and instruction profile).
	 */
	bool evidence;
};

/* The claim --evidence gives each generated mutant. */
static const char evidence_claim[] =
	"by evidence: its records and its instruction profile on the cost points are the original's";

/* Mutant @m left unrun by --skip-unexecuted. */
static bool unexecuted(const struct mutate_opts *mo, const struct mutant *m)
{
	struct mutgen_gap_of of;

	return mo->skip_unexecuted &&
	       mutgen_unexecuted(
		       mutgen_gap(m->desc, m->text, &mo->coverage, &of));
}

static bool by_evidence(const struct mutant *m)
{
	return m->equivalent && !strcmp(m->equivalent, evidence_claim);
}

/* Killing cases shown per mutant and way; all of them are in mutants.tsv. */
#define SHOW_KILLERS 3

/*
 * The cost points whose instruction profile an "Equivalent:" claim is
 * judged on without --cost: the unconfined early-out, a confined sender
 * and receiver, a stacked label (docs/findings.md, "Mutants").
 */
#define CLAIM_POINTS "socketpair:none twoproc:both twoproc:stacked"

/* A crashed case gets the first line of its kernel report. */
static void crash_lines(const char *dir, struct mutant_fail *v, size_t n)
{
	char *path, *text, *name, *line;
	size_t i;
	int c;

	/* crash-N.txt: N is the boot, at most the session's few. */
	for (c = 1; c <= 16; c++) {
		struct err e;
		int ret;

		path = xasprintf("%s/crash-%d.txt", dir, c);
		/* A store's file may be anything: never waited on. */
		ret = read_input(path, INPUT_MAX_LIST, INPUT_TEXT, &text, NULL,
				 &e);
		if (ret && ret != -ENOENT)
			die("%s", e.msg);
		if (ret) {
			free(path);
			continue;
		}
		if (!mutant_crash_note(text, &name, &line)) {
			for (i = 0; i < n; i++)
				if (v[i].trace && !v[i].trace[0] &&
				    !strcmp(v[i].name, name)) {
					free(v[i].trace);
					v[i].trace = xstrdup(line);
				}
			free(name);
			free(line);
		}
		free(text);
		free(path);
	}
}

void kernel_failures(const struct kernel_boots *kb, const struct record_set *rs,
		     struct mutant_fail **v, size_t *n)
{
	size_t i;

	*v = NULL;
	*n = 0;
	for (i = 0; i < kb->n; i++) {
		char *path = xasprintf("%s/ktap.txt", kb->dir[i]), *buf;
		size_t first = *n;

		if (!read_file(path, &buf, NULL)) {
			mutant_ktap_failures(buf, v, n);
			free(buf);
		}
		free(path);
		crash_lines(kb->dir[i], *v + first, *n - first);
	}
	/* A known bug's too: the other kernel may show the same. */
	for (i = 0; i < rs->n; i++) {
		const struct record *r = &rs->v[i];

		if (!strcmp(r->col[REC_EXPECTED], r->col[REC_OBSERVED]))
			continue;
		*v = xrealloc(*v, (*n + 1) * sizeof(**v));
		(*v)[*n].name = xasprintf(
			"%s: observed %s where %s was expected", r->col[REC_ID],
			r->col[REC_OBSERVED], r->col[REC_EXPECTED]);
		(*v)[(*n)++].trace = NULL;
	}
}

/*
 * The patched kernel's own failures in @kb: those of its failures
 * (kernel_failures()) that the unpatched kernel's run @orig_kb does not
 * show alike. The same outcome on both sides is no change, whatever the
 * known bugs list says of either kernel: a known bug of the original is
 * the mutant's own only when the mutant shows it otherwise.
 */
static void own_failures(const struct kernel_boots *orig_kb,
			 const struct record_set *orig,
			 const struct kernel_boots *kb,
			 const struct record_set *rs, struct mutant_obs *ob)
{
	struct mutant_fail *base;
	size_t i, n, n_base, kept = 0;

	kernel_failures(kb, rs, &ob->fails, &n);
	kernel_failures(orig_kb, orig, &base, &n_base);
	for (i = 0; i < n; i++) {
		struct mutant_fail *f = &ob->fails[i];

		if (mutant_fail_shared(f, base, n_base)) {
			free(f->name);
			free(f->trace);
			continue;
		}
		ob->fails[kept++] = *f;
	}
	mutant_fails_free(base, n_base);
	ob->run.fails = ob->fails;
	ob->run.n_fails = kept;
	ob->run.n_alike = n - kept;
}

bool mutate_reached(const struct kernel_boots *kb)
{
	size_t i;
	bool all = kb->n > 0;

	for (i = 0; i < kb->n; i++) {
		char *path, *uname = run_guest_file(kb->dir[i], "uname", &path);

		all &= uname[0] != '\0';
		free(uname);
		free(path);
	}
	return all;
}

int mutate_observe(const struct run_opts *ro, const char *root,
		   struct kernel *k, const struct kernel_boots *orig_kb,
		   const struct record_set *orig, struct mutant_obs *ob,
		   struct err *e)
{
	memset(ob, 0, sizeof(*ob));
	if (run_kernel_lsms(ro, root, k, &ob->kb, e)) {
		kernel_boots_free(&ob->kb);
		return -1;
	}
	mutate_analyse(ro, orig_kb, orig, ob);
	return 0;
}

void mutate_analyse(const struct run_opts *ro,
		    const struct kernel_boots *orig_kb,
		    const struct record_set *orig, struct mutant_obs *ob)
{
	char *crashed, *orig_crashed, *fa, *fb;
	size_t i, n = 0;

	boots_records(&ob->kb, ro->known, &ob->rs);
	/*
	 * A mutant is the original's source plus a patch: a feature it no
	 * longer advertises is a kill, and explains none of its decisions.
	 */
	compare_boot_features(orig_kb, &ob->kb, &fa, &fb);
	compare_kernels(orig, &ob->rs, fa, fb, CMP_UPSTREAM_SAME, &ob->cmp);
	free(fa);
	free(fb);
	/* A case a known kernel bug really brought down on one side. */
	crashed = run_known_crashes(&ob->kb, ro->known);
	orig_crashed = run_known_crashes(orig_kb, ro->known);
	if (ro->known)
		compare_explain_crashes(&ob->cmp, ro->known, orig_crashed,
					crashed);
	free(orig_crashed);
	ob->diffs = xcalloc(ob->cmp.n + ob->cmp.n_feat + 1, sizeof(*ob->diffs));
	ob->feat_ids = xcalloc(ob->cmp.n_feat + 1, sizeof(*ob->feat_ids));
	for (i = 0; i < ob->cmp.n_feat; i++) {
		ob->diffs[n].id = ob->feat_ids[i] =
			xasprintf("feature %s", ob->cmp.feat[i].path);
		ob->diffs[n].a = ob->cmp.feat[i].a;
		ob->diffs[n++].b = ob->cmp.feat[i].b;
	}
	for (i = 0; i < ob->cmp.n; i++) {
		const struct cmp_case *c = &ob->cmp.v[i];

		if (c->cls != CMP_UNEXPLAINED)
			continue;
		ob->diffs[n].id = c->id;
		ob->diffs[n].a = c->a;
		ob->diffs[n++].b = c->b;
	}
	ob->run.diffs = ob->diffs;
	ob->run.n_diffs = n;
	ob->run.ok = ob->kb.ok;
	ob->run.reached = mutate_reached(&ob->kb);
	own_failures(orig_kb, orig, &ob->kb, &ob->rs, ob);
	free(crashed);
}

void mutate_obs_free(struct mutant_obs *ob)
{
	mutant_fails_free(ob->fails, ob->run.n_fails);
	for (size_t i = 0; i < ob->cmp.n_feat; i++)
		free(ob->feat_ids[i]);
	free(ob->feat_ids);
	free(ob->diffs);
	compare_free(&ob->cmp);
	records_free(&ob->rs);
	kernel_boots_free(&ob->kb);
}

struct mutant_result {
	enum mutant_verdict verdict;
	unsigned int ways;
	size_t decisions, failures; /* the killing ones */
	int runs;
	const char *why; /* static text */
	struct sbuf killers; /* the killing cases, comma-separated */
	struct sbuf shown; /* the first few of each way, for the report */
	struct sbuf cost; /* mutate --cost: the points whose cost changed */
	char *refused; /* why its "Equivalent:" claim is refused, or NULL */
	double build_s, run_s;
};

/* The killing decisions and failures, all in @r->killers, some shown. */
static void name_killers(const struct mutant_judgement *j,
			 struct mutant_result *r)
{
	static const unsigned int ways[] = { MUTANT_BY_DECISION,
					     MUTANT_BY_CRASH,
					     MUTANT_BY_FAILURE };
	size_t i, w, shown;

	if (j->ways & MUTANT_BY_COST)
		sbuf_printf(&r->shown, "   killed by cost: %s\n", r->cost.buf);

	for (i = 0; i < j->n_diffs; i++)
		sbuf_printf(&r->killers, "%s%s (%s -> %s)",
			    r->killers.len ? "," : "", j->diffs[i]->id,
			    j->diffs[i]->a, j->diffs[i]->b);
	for (i = 0; i < j->n_fails; i++)
		sbuf_printf(&r->killers, "%s%s%s%s%s",
			    r->killers.len ? "," : "", j->fails[i]->name,
			    j->crashed[i] ? " (crash: " : "",
			    j->crashed[i] ? j->fails[i]->trace : "",
			    j->crashed[i] ? ")" : "");
	for (w = 0; w < ARRAY_SIZE(ways); w++) {
		if (!(j->ways & ways[w]))
			continue;
		shown = 0;
		if (ways[w] == MUTANT_BY_DECISION) {
			sbuf_printf(
				&r->shown,
				"   killed by decision: %zu differ from the original's:",
				j->n_diffs);
			for (i = 0; i < j->n_diffs && shown < SHOW_KILLERS;
			     i++, shown++)
				sbuf_printf(&r->shown, "%s %s (%s -> %s)",
					    shown ? "," : "", j->diffs[i]->id,
					    j->diffs[i]->a, j->diffs[i]->b);
			if (j->n_diffs > shown)
				sbuf_printf(&r->shown, ", ...");
			sbuf_printf(&r->shown, "\n");
			continue;
		}
		sbuf_printf(&r->shown, "   killed by %s in both runs:",
			    ways[w] == MUTANT_BY_CRASH ? "a crash" :
							 "a failure");
		for (i = 0; i < j->n_fails; i++) {
			bool crash = j->crashed[i];

			/* A crash of one run only is a plain failure. */
			if (crash != (ways[w] == MUTANT_BY_CRASH))
				continue;
			if (shown++ == SHOW_KILLERS) {
				sbuf_printf(&r->shown, ", ...");
				break;
			}
			sbuf_printf(&r->shown, "%s %s", shown > 1 ? "," : "",
				    j->fails[i]->name);
			if (crash)
				sbuf_printf(&r->shown, " (%s)",
					    j->fails[i]->trace[0] ?
						    j->fails[i]->trace :
						    "no kernel report");
		}
		sbuf_printf(&r->shown, "\n");
	}
}

/*
 * The verdict of @j in @r, with its killing decisions and failures named;
 * @j is freed.
 */
static void keep_judgement(struct mutant_judgement *j, struct mutant_result *r)
{
	r->verdict = j->verdict;
	r->ways = j->ways;
	r->why = j->why;
	r->decisions = j->n_diffs;
	r->failures = j->n_fails;
	name_killers(j, r);
	mutant_judgement_free(j);
}

/* The LSMs a mutant is judged on: its own, or every one of the run. */
static const char *mutant_lsms(const struct run_opts *o, const struct mutant *m)
{
	return m->lsm ? m->lsm : o->lsms;
}

/* The original's decisions under the LSMs of @lsms. */
static void original_records(const struct kernel_boots *orig, const char *lsms,
			     struct known_list *known, struct record_set *rs)
{
	struct kernel_boots some = { 0 };
	size_t i;

	for (i = 0; i < orig->n; i++) {
		if (!lsm_listed(lsms, orig->lsm[i]))
			continue;
		some.lsm[some.n] = orig->lsm[i];
		some.dir[some.n++] = orig->dir[i];
	}
	boots_records(&some, known, rs);
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
	struct sbuf sb = { 0 };
	size_t i, j;

	for (j = 0; j < n_lsms; j++) {
		if (!lsm_listed(o->lsms, lsms[j].name))
			continue;
		for (i = 0; i < n; i++)
			if (lsm_listed(mutant_lsms(o, &m[i]), lsms[j].name))
				break;
		if (i < n)
			sbuf_printf(&sb, "%s%s", sb.len ? "," : "",
				    lsms[j].name);
	}
	return sb.buf;
}

/* The verdicts' counts, for the score. */
struct mutate_score {
	size_t killed, survived, stillborn, equivalent, unjudged, inconclusive;
	size_t refused; /* "Equivalent:" claims refused */
	size_t gaps[5]; /* survivors by enum mutgen_gap, with --coverage */
	size_t pending; /* merge --partial: units not done yet */
	/* The score per LSM a mutant patches (NULL: several). */
	struct {
		const char *lsm;
		size_t killed, scored;
	} by_lsm[4];
	size_t n_lsm;
};

/* Mutant @m's verdict into its LSM's score. */
static void score_lsm(struct mutate_score *sc, const struct mutant *m,
		      bool killed)
{
	const char *lsm = m->lsm ? m->lsm : "several";
	size_t i;

	for (i = 0; i < sc->n_lsm && strcmp(sc->by_lsm[i].lsm, lsm); i++)
		;
	if (i == ARRAY_SIZE(sc->by_lsm))
		return;
	if (i == sc->n_lsm)
		sc->by_lsm[sc->n_lsm++].lsm = lsm;
	sc->by_lsm[i].scored++;
	sc->by_lsm[i].killed += killed;
}

/* Prints mutant @m's verdict block and adds its row to @tsv. */
static void mutant_print(const struct mutate_opts *mo, const struct mutant *m,
			 struct mutant_result *r, struct mutate_score *sc,
			 struct sbuf *tsv)
{
	/*
	 * A survivor whose claim held: equivalent, out of the score; but not
	 * by evidence when its line never runs (a reach gap: the same
	 * profile proves nothing then).
	 */
	struct mutgen_gap_of of = { 0 };
	enum mutgen_gap gap =
		mo->coverage_path ?
			mutgen_gap(m->desc, m->text, &mo->coverage, &of) :
			MUTGEN_NOT_COUNTED;
	bool equivalent = r->verdict == MUTANT_SURVIVED && m->equivalent &&
			  r->runs && !r->refused &&
			  !(m->cost_only && !mo->cost) &&
			  !(by_evidence(m) && mo->coverage_path &&
			    gap == MUTGEN_REACH_GAP);
	/* A cost-only survivor without --cost: no decision could kill it. */
	bool unjudged =
		r->verdict == MUTANT_SURVIVED && m->cost_only && !mo->cost;
	const char *label = equivalent ? "equivalent" :
			    unjudged   ? "unjudged" :
					 mutant_verdict_name(r->verdict);
	char *why;

	printf("== mutant %s: %s\n   bug: %s\n", m->name, label, m->desc);
	switch (r->verdict) {
	case MUTANT_KILLED:
		printf("%s", r->shown.buf);
		sc->killed++;
		score_lsm(sc, m, true);
		break;
	case MUTANT_STILLBORN:
		printf("   stillborn: %s\n", r->why);
		sc->stillborn++;
		break;
	case MUTANT_INCONCLUSIVE:
		printf("   INCONCLUSIVE: %s\n", r->why);
		sc->inconclusive++;
		score_lsm(sc, m, false);
		break;
	default:
		if (unjudged) {
			/* No decision can kill it: not a gap. */
			printf("   not judged: a cost-only mutant, judged by mutate --cost\n");
			sc->unjudged++;
		} else if (equivalent && by_evidence(m)) {
			printf("   equivalent %s\n", evidence_claim);
			sc->equivalent++;
		} else if (equivalent) {
			printf("   equivalent: %s (checked: its records and its instruction profile on the cost points are the original's)\n",
			       m->equivalent);
			sc->equivalent++;
		} else {
			printf("   SURVIVED: %s\n",
			       r->runs ?
				       "no case tells it from the original" :
				       "not run (--skip-unexecuted): no case executes its line");
			sc->survived++;
			score_lsm(sc, m, false);
			if (mo->coverage_path) {
				enum mutgen_gap g = gap;

				sc->gaps[g]++;
				if (g == MUTGEN_REACH_GAP && of.function)
					printf("   a reach gap: its function %s() is never called in the suites (gcov counts no code on its line)\n",
					       of.function);
				else if (g == MUTGEN_REACH_GAP && of.by)
					printf("   a reach gap: the suites never execute its statement (line %lu; gcov counts no code on its own)\n",
					       of.by);
				else if (g == MUTGEN_REACH_GAP)
					printf("   a reach gap: the suites never execute its line\n");
				else if (g == MUTGEN_ORACLE_GAP && of.body)
					printf("   an oracle gap: it is the body of the condition on line %lu, which went both ways (gcov counts no code on its own line), and no decision changed\n",
					       of.by);
				else if (g == MUTGEN_ORACLE_GAP && of.follows)
					printf("   an oracle gap: it follows the statement on line %lu, which ran %lld times (gcov counts no code on its own line), and no decision changed\n",
					       of.by, of.count);
				else if (g == MUTGEN_ORACLE_GAP && of.by)
					printf("   an oracle gap: its statement ran %lld times in the suites (line %lu; gcov counts no code on its own) and no decision changed\n",
					       of.count, of.by);
				else if (g == MUTGEN_ORACLE_GAP)
					printf("   an oracle gap: its line ran %lld times in the suites and no decision changed\n",
					       of.count);
				else if (g == MUTGEN_NOT_COUNTED)
					printf("   not classed: gcov counts no code on its line, and the lines before it in its hunk do not tell whether it ran\n");
				else if (g == MUTGEN_NOT_BUILT)
					printf("   not classed: its file has no counters (not built in this kernel)\n");
			}
		}
	}
	if (by_evidence(m) && r->refused) {
		printf("   not equivalent by evidence: %s\n", r->refused);
	} else if (m->equivalent && r->refused) {
		printf("   equivalence claim refused: %s\n", r->refused);
		sc->refused++;
	}
	if (mo->cost && r->cost.len && !(r->ways & MUTANT_BY_COST))
		printf("   cost: %s\n", r->cost.buf);
	else if (mo->cost && !r->cost.len && r->verdict != MUTANT_STILLBORN)
		printf("   cost: no point changed (%s)\n", mo->cost);
	printf("   time: build %.1f s, boots and compare %.1f s (%d run%s)\n",
	       r->build_s, r->run_s, r->runs, r->runs == 1 ? "" : "s");
	fflush(stdout);
	/* A claim refused is said in why, after the verdict's own reason. */
	why = r->refused ? xasprintf("%s%sequivalence claim refused: %s",
				     r->why ? r->why : "", r->why ? "; " : "",
				     r->refused) :
			   xstrdup(r->why ? r->why : "-");
	sbuf_printf(tsv,
		    "%s\t%s\t%s\t%zu\t%zu\t%d\t%.1f\t%.1f\t%s\t%s\t%s\t%s\n",
		    m->name, label, mutant_ways_name(r->ways), r->decisions,
		    r->failures, r->runs, r->build_s, r->run_s, m->desc, why,
		    r->killers.len ? r->killers.buf : "-",
		    r->cost.len ? r->cost.buf : "-");
	free(why);
	free(r->refused);
	sbuf_free(&r->killers);
	sbuf_free(&r->cost);
	sbuf_free(&r->shown);
}

static const char mutants_tsv_header[] =
	"mutant\tverdict\tkilled_by_way\tdecisions\tfailures\truns\tbuild_s\trun_s\tdescription\twhy\tkilled_by\tcost\n";

/* mutants.tsv, the score and the exit status. */
static int mutate_end(const struct mutate_score *sc, size_t n, struct sbuf *tsv,
		      const char *root, double t0)
{
	/* Inconclusive ones count against the score: nothing proved them. */
	size_t judged =
		n - sc->equivalent - sc->stillborn - sc->unjudged - sc->pending;
	size_t i;

	write_file_at(root, "mutants.tsv", tsv->buf, tsv->len);
	if (sc->unjudged)
		printf("== %zu cost-only mutants not judged (no --cost)\n",
		       sc->unjudged);
	if (sc->pending)
		printf("== PARTIAL: %zu of %zu mutants judged, %zu pending (their units are not done): the score is of those judged\n",
		       n - sc->pending, n, sc->pending);
	printf("== mutation score: %zu killed of %zu mutants neither stillborn nor equivalent (%.0f%%); %zu survived, %zu inconclusive, %zu stillborn, %zu equivalent (%zu equivalence claims refused)\n",
	       sc->killed, judged, judged ? 100.0 * sc->killed / judged : 0.0,
	       sc->survived, sc->inconclusive, sc->stillborn, sc->equivalent,
	       sc->refused);
	for (i = 0; sc->n_lsm > 1 && i < sc->n_lsm; i++)
		printf("   %s: %zu killed of %zu (%.0f%%)\n", sc->by_lsm[i].lsm,
		       sc->by_lsm[i].killed, sc->by_lsm[i].scored,
		       sc->by_lsm[i].scored ? 100.0 * sc->by_lsm[i].killed /
						      sc->by_lsm[i].scored :
					      0.0);
	if (sc->gaps[MUTGEN_REACH_GAP] || sc->gaps[MUTGEN_ORACLE_GAP] ||
	    sc->gaps[MUTGEN_NOT_COUNTED] || sc->gaps[MUTGEN_NOT_BUILT])
		printf("   survivors by the original's coverage: %zu reach gaps (never executed), %zu oracle gaps (executed, no decision changed), %zu not classed\n",
		       sc->gaps[MUTGEN_REACH_GAP], sc->gaps[MUTGEN_ORACLE_GAP],
		       sc->gaps[MUTGEN_NOT_COUNTED] +
			       sc->gaps[MUTGEN_NOT_BUILT] +
			       sc->gaps[MUTGEN_NOT_GENERATED]);
	printf("   total time %.1f s; results in %s (mutants.tsv)\n",
	       now_seconds() - t0, root);
	sbuf_free(tsv);
	if (sc->pending)
		return 2;
	return sc->survived || sc->stillborn || sc->inconclusive ? 1 : 0;
}

struct mutate_args {
	struct mutate_opts m;
	bool lsm_given;
	struct mutate_gen gen;
	bool seed_given, dir_given;
};

/* A count or a seed: decimal digits only. */
static unsigned long long number_option(const char *opt, const char *v)
{
	char *end;
	unsigned long long x;

	errno = 0;
	x = strtoull(v, &end, 10);
	if (!*v || *end || errno || *v == '-')
		die("%s: want a number, not %s", opt, v);
	return x;
}

static bool mutate_option(void *ctx, const char *opt, const char *v)
{
	struct mutate_args *a = ctx;
	struct mutate_opts *m = &a->m;

	if (!strcmp(opt, "--lsm") || !strncmp(opt, "--lsm=", 6))
		a->lsm_given = true;
	if (!strcmp(opt, "--mutants")) {
		m->dir = opt_value(opt, v);
		a->dir_given = true;
	} else if (!strcmp(opt, "--generate")) {
		a->gen.n = number_option(opt, opt_value(opt, v));
		if (!a->gen.n || a->gen.n > 10000)
			die("--generate: want 1 to 10000 mutants, not %s", v);
	} else if (!strcmp(opt, "--seed")) {
		a->gen.seed = number_option(opt, opt_value(opt, v));
		a->seed_given = true;
	} else if (!strcmp(opt, "--files")) {
		opt_value(opt, v);
		a->gen.files = xrealloc(a->gen.files,
					(a->gen.n_files + 1) * sizeof(char *));
		a->gen.files[a->gen.n_files++] = (char *)v;
	} else if (!strcmp(opt, "--mutant")) {
		opt_value(opt, v);
		m->only = xrealloc(m->only, (m->n_only + 1) * sizeof(char *));
		m->only[m->n_only++] = (char *)v;
	} else if (!strcmp(opt, "--cost")) {
		m->cost = opt_value(opt, v);
	} else if (!strcmp(opt, "--source")) {
		m->source = opt_value(opt, v);
	} else if (!strcmp(opt, "--coverage")) {
		m->coverage_path = opt_value(opt, v);
	} else {
		return false;
	}
	return true;
}

/* mutate's words (@argv[0] "mutate") into @a and @o; dies when bad. */
static void mutate_args_parse(int argc, char **argv, struct mutate_args *a,
			      struct run_opts *o)
{
	struct mutate_opts *m = &a->m;
	int first;

	*a = (struct mutate_args){
		.m = {
			.dir = LSMCONF_ROOT "/fixtures/mutants",
			.source = "debian-source:7.2",
		},
	};
	/* mutate options first, then the shared ones; one flag. */
	{
		int i, kept = 1;

		for (i = 1; i < argc; i++)
			if (!strcmp(argv[i], "--evidence"))
				m->evidence = true;
			else if (!strcmp(argv[i], "--skip-unexecuted"))
				m->skip_unexecuted = true;
			else
				argv[kept++] = argv[i];
		argc = kept;
	}
	argc = own_options(argc, argv, mutate_option, a);
	first = run_options(argc, argv, o);
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
	if (!a->lsm_given)
		o->lsms = lsm_all();
	if (m->cost) {
		char err[512];

		if (bench_points_check(m->cost, err, sizeof(err)))
			die("--cost: %s", err);
	}
	if (m->coverage_path) {
		char *text = NULL, err[256];
		size_t len;

		if (read_file(m->coverage_path, &text, &len))
			die("--coverage: cannot read %s", m->coverage_path);
		if (lcov_parse(text, len, &m->coverage, err, sizeof(err)))
			die("--coverage: %s: %s", m->coverage_path, err);
		free(text);
	}
	if (m->skip_unexecuted && !m->coverage_path)
		die("mutate: --skip-unexecuted needs --coverage FILE: which lines ran");
	if (!a->gen.n && (a->seed_given || a->gen.n_files || m->evidence))
		die("mutate: --seed, --files and --evidence go with --generate N");
	if (a->gen.n) {
		struct err e;

		if (a->dir_given)
			die("mutate: --generate draws its own mutants: no --mutants with it");
		/* cmd_mutate chose it if the user did not (seed_words()). */
		if (!a->seed_given)
			die("mutate --generate needs --seed S here: each unit draws the mutants again from it");
		m->dir = mutate_generate(&a->gen, m->source, o->lsms, &e);
		if (!m->dir)
			die("mutate --generate: %s", e.msg);
	}
}

/* What mutate's units and merge need (the plan's context). */
struct mutate_ctx {
	struct mutate_args a;
	struct run_opts o;
	struct mutant *m;
	size_t n;
	char *lsms; /* the original's: every LSM a mutant needs */
	char *spec; /* build:SOURCE */
	char build[UNIT_ID_LEN + 1];
	char boot[4][UNIT_ID_LEN + 1];
	const char *boot_lsm[4];
	size_t n_boot;
	/* Per mutant: its build and its boots (run again when undecided). */
	char (*mbuild)[UNIT_ID_LEN + 1];
	char (*mboot)[UNIT_ID_LEN + 1];
	/* --cost: the original's A and A2, a cost boot per mutant. */
	struct cost_plan cp;
	char ocost[2][UNIT_ID_LEN + 1];
	char (*mcost)[UNIT_ID_LEN + 1];
	double t0;
	bool partial; /* merge --partial */
};

static const char *const ocost_name[2] = { "original-cost-A",
					   "original-cost-A2" };

/* Role of the original's units: a mutant's is its index. */
#define ORIGINAL (-1)

static size_t add_unit(struct unit_plan *p, enum unit_kind kind,
		       const char *key, const size_t *deps, size_t n_deps,
		       const char *desc, const char *spec, const char *lsm,
		       const char *name, int role)
{
	size_t i = unit_add(p, kind, key, deps, n_deps, desc);
	struct unit *u = &p->v[i];

	if (!u->spec) {
		u->spec = xstrdup(spec);
		u->lsm = lsm ? xstrdup(lsm) : NULL;
		u->name = name ? xstrdup(name) : NULL;
		u->role = role;
	}
	return i;
}

/*
 * The original's build, its boots (one per LSM), then per mutant its
 * build (from the original's objects) and its boots, which need the
 * original's records of its LSMs to know whether to run again.
 */
static void *mutate_plan(int argc, char **argv, struct unit_plan *p,
			 const struct run_opts **o)
{
	struct mutate_ctx *c = xcalloc(1, sizeof(*c));
	size_t build, boot[4], ocost[2] = { 0 }, *mbuild, *mboot, *mcost, i, j;
	char *run_key, *key, *desc, *cost_key = NULL;
	struct run_opts ro;
	struct err e;
	int n;

	c->t0 = now_seconds();
	mutate_args_parse(argc, argv, &c->a, &c->o);
	if (mutants_list(c->a.m.dir, c->a.m.only, c->a.m.n_only, &c->m, &c->n,
			 &e))
		die("%s", e.msg);
	c->n = keep_lsms(&c->o, c->m, c->n);
	for (i = 0; c->a.m.evidence && i < c->n; i++) {
		free(c->m[i].equivalent);
		c->m[i].equivalent = xstrdup(evidence_claim);
	}
	c->spec = xasprintf("build:%s", c->a.m.source);
	c->lsms = union_lsms(&c->o, c->m, c->n);
	ro = c->o;
	ro.lsms = c->lsms;
	n = run_lsms(&ro, c->boot_lsm, ARRAY_SIZE(c->boot_lsm), &e);
	if (n < 0)
		die("%s", e.msg);
	c->n_boot = n;
	run_key = unit_run_key(&c->o);
	key = xasprintf("spec %s\n", c->spec);
	desc = xasprintf("build %s", c->spec);
	build = add_unit(p, UNIT_BUILD, key, NULL, 0, desc, c->spec, NULL, NULL,
			 ORIGINAL);
	free(key);
	free(desc);
	/* --cost, or a claim of equivalence to check: cost boots. */
	for (i = 0; !c->a.m.cost && i < c->n && !c->cp.points; i++)
		if (c->m[i].equivalent)
			cost_plan_init(&c->cp, CLAIM_POINTS);
	if (c->a.m.cost)
		cost_plan_init(&c->cp, c->a.m.cost);
	if (c->cp.points) {
		cost_key = cost_plan_key(&c->cp);
		for (i = 0; i < 2; i++) {
			key = xasprintf("spec %s\n%s\n%s%s", c->spec,
					ocost_name[i], cost_key, run_key);
			desc = xasprintf("bench %s", ocost_name[i]);
			ocost[i] = add_unit(p, cost_unit_kind(&c->cp), key,
					    &build, 1, desc, c->spec, NULL,
					    ocost_name[i], ORIGINAL);
			free(key);
			free(desc);
		}
	}
	for (i = 0; i < c->n_boot; i++) {
		key = xasprintf("spec %s\nlsm %s\noriginal\n%s", c->spec,
				c->boot_lsm[i], run_key);
		desc = xasprintf("boot %s %s (original)", c->spec,
				 c->boot_lsm[i]);
		boot[i] = add_unit(p, UNIT_BOOT, key, &build, 1, desc, c->spec,
				   c->boot_lsm[i], "original", ORIGINAL);
		free(key);
		free(desc);
	}
	mbuild = xcalloc(c->n + 1, sizeof(*mbuild));
	mboot = xcalloc(c->n + 1, sizeof(*mboot));
	mcost = xcalloc(c->n + 1, sizeof(*mcost));
	for (i = 0; i < c->n; i++) {
		const char *lsms = mutant_lsms(&c->o, &c->m[i]);
		char *spec, *name;
		size_t deps[UNIT_MAX_DEPS], nd = 0;

		if (unexecuted(&c->a.m, &c->m[i]))
			continue;
		spec = xasprintf("build:%s+%s", c->a.m.source, c->m[i].path);
		name = xasprintf("mutant-%s", c->m[i].name);
		key = xasprintf("spec %s\n", spec);
		desc = xasprintf("build mutant %s", c->m[i].name);
		mbuild[i] = add_unit(p, UNIT_BUILD, key, &build, 1, desc, spec,
				     NULL, NULL, (int)i);
		free(key);
		free(desc);
		deps[nd++] = mbuild[i];
		for (j = 0; j < c->n_boot; j++)
			if (lsm_listed(lsms, c->boot_lsm[j]))
				deps[nd++] = boot[j];
		key = xasprintf("spec %s\nmutant %s\nlsms %s\n%s", spec,
				c->m[i].name, lsms, run_key);
		desc = xasprintf("boot mutant %s (%s)", c->m[i].name, lsms);
		mboot[i] = add_unit(p, UNIT_BOOT, key, deps, nd, desc, spec,
				    lsms, name, (int)i);
		free(key);
		free(desc);
		if (cost_key && (c->a.m.cost || c->m[i].equivalent)) {
			char *cname = xasprintf("mutant-%s-cost", c->m[i].name);

			key = xasprintf("spec %s\nmutant %s\ncost\n%s%s", spec,
					c->m[i].name, cost_key, run_key);
			desc = xasprintf("bench %s", cname);
			mcost[i] = add_unit(p, cost_unit_kind(&c->cp), key,
					    &mbuild[i], 1, desc, spec, NULL,
					    cname, (int)i);
			free(key);
			free(desc);
			free(cname);
		}
		free(name);
		free(spec);
	}
	free(run_key);
	/* Ids, not indexes: ordering moves the units. */
	memcpy(c->build, p->v[build].id, UNIT_ID_LEN + 1);
	for (i = 0; i < c->n_boot; i++)
		memcpy(c->boot[i], p->v[boot[i]].id, UNIT_ID_LEN + 1);
	c->mbuild = xcalloc(c->n + 1, sizeof(*c->mbuild));
	c->mboot = xcalloc(c->n + 1, sizeof(*c->mboot));
	c->mcost = xcalloc(c->n + 1, sizeof(*c->mcost));
	for (i = 0; i < c->n; i++) {
		/* An unrun mutant has no units: its ids stay empty. */
		if (unexecuted(&c->a.m, &c->m[i]))
			continue;
		memcpy(c->mbuild[i], p->v[mbuild[i]].id, UNIT_ID_LEN + 1);
		memcpy(c->mboot[i], p->v[mboot[i]].id, UNIT_ID_LEN + 1);
		if (cost_key && (c->a.m.cost || c->m[i].equivalent))
			memcpy(c->mcost[i], p->v[mcost[i]].id, UNIT_ID_LEN + 1);
	}
	for (i = 0; cost_key && i < 2; i++)
		memcpy(c->ocost[i], p->v[ocost[i]].id, UNIT_ID_LEN + 1);
	free(cost_key);
	free(mbuild);
	free(mboot);
	free(mcost);
	unit_plan_order(p);
	*o = &c->o;
	return c;
}

void mutate_boots_saved(const char *store, const char *id, const char *prefix,
			const char *root, struct kernel_boots *kb)
{
	size_t i;

	memset(kb, 0, sizeof(*kb));
	for (i = 0; i < n_lsms && kb->n < ARRAY_SIZE(kb->lsm); i++) {
		char *name = xasprintf("%s-%s", prefix, lsms[i].name);
		char *dir = xasprintf("%s/units/%s/%s", store, id, name);

		if (path_exists(dir)) {
			kb->lsm[kb->n] = lsms[i].name;
			kb->dir[kb->n++] =
				root ? unit_link(store, id, name, root) :
				       xstrdup(dir);
		}
		free(dir);
		free(name);
	}
}

/* The original's boots (from its units) of the LSMs in @lsms. */
static bool original_saved(const struct mutate_ctx *c, const char *store,
			   const char *lsms, const char *root,
			   struct kernel_boots *kb)
{
	bool ok = true;
	size_t i;

	memset(kb, 0, sizeof(*kb));
	for (i = 0; i < c->n_boot; i++) {
		char *name;

		if (lsms && !lsm_listed(lsms, c->boot_lsm[i]))
			continue;
		name = xasprintf("original-%s", c->boot_lsm[i]);
		kb->lsm[kb->n] = c->boot_lsm[i];
		kb->dir[kb->n++] =
			root ? unit_link(store, c->boot[i], name, root) :
			       xasprintf("%s/units/%s/%s", store, c->boot[i],
					 name);
		ok &= unit_passed(store, c->boot[i]);
		free(name);
	}
	return ok;
}

/* A mutant's boots: run, and run again when the first run decides nothing. */
static int mutant_boot_unit(const struct mutate_ctx *c, const struct unit *u,
			    const char *store, const char *dir, struct err *e)
{
	const struct mutant *m = &c->m[u->role];
	char *kt = unit_file(store, u->deps[0], "kernel.tsv");
	char *status = kt ? unit_value(kt, "status") : NULL;
	struct mutant_obs first, again;
	struct kernel_boots orig_kb;
	struct record_set orig;
	struct run_opts ro = c->o;
	struct sbuf runs = { 0 };
	const char *reason;
	struct kernel k;
	int ret = 0;

	free(kt);
	/* A mutant that does not build is stillborn: nothing to boot. */
	if (!status || strcmp(status, "ok")) {
		free(status);
		write_file_at(dir, "runs", "", 0);
		return 0;
	}
	free(status);
	if (!original_saved(c, store, u->lsm, NULL, &orig_kb)) {
		kernel_boots_free(&orig_kb);
		return err_set(
			e,
			"the original %s fails the suite on its own: no mutant can be judged against it",
			c->spec);
	}
	if (kernel_provision(u->spec, &k, c->o.refresh, e)) {
		kernel_boots_free(&orig_kb);
		return -1;
	}
	ro.lsms = u->lsm;
	ro.dir_name = u->name;
	original_records(&orig_kb, ro.lsms, ro.known, &orig);
	/* A host failure is no run of the mutant: its unit fails. */
	if (mutate_observe(&ro, dir, &k, &orig_kb, &orig, &first, e)) {
		records_free(&orig);
		kernel_boots_free(&orig_kb);
		kernel_free(&k);
		return -1;
	}
	sbuf_printf(&runs, "%s %s\n", u->name, first.kb.ok ? "PASS" : "FAIL");
	reason = mutant_rerun_reason(&first.run);
	/*
	 * A run that decides nothing alone (one bad boot of an emulator, a
	 * crash or a timeout under load) is run again: only what repeats
	 * counts.
	 */
	if (reason) {
		ro.dir_name = xasprintf("%s-again", u->name);
		printf("== mutant %s: %s; running it again\n", m->name, reason);
		fflush(stdout);
		ret = mutate_observe(&ro, dir, &k, &orig_kb, &orig, &again, e);
		if (!ret) {
			sbuf_printf(&runs, "%s %s\n", ro.dir_name,
				    again.kb.ok ? "PASS" : "FAIL");
			mutate_obs_free(&again);
		}
		free((char *)ro.dir_name);
	}
	if (!ret)
		write_file_at(dir, "runs", runs.buf, runs.len);
	sbuf_free(&runs);
	mutate_obs_free(&first);
	records_free(&orig);
	kernel_boots_free(&orig_kb);
	kernel_free(&k);
	return ret;
}

static int mutate_unit_run(void *ctx, const struct unit_plan *p,
			   const struct unit *u, const char *store,
			   const char *dir, struct err *e)
{
	const struct mutate_ctx *c = ctx;

	(void)p;
	if (u->kind == UNIT_BUILD)
		return unit_provision(&c->o, u, dir, u->role != ORIGINAL, e);
	if (unit_kind_bench(u->kind))
		return cost_unit_run(&c->o, &c->cp, u, store, dir, e);
	if (u->role == ORIGINAL)
		return unit_boot(&c->o, u, dir, e);
	return mutant_boot_unit(c, u, store, dir, e);
}

/* One run of a mutant's boot unit as mutate_observe() saw it. */
static void run_saved(const struct mutate_ctx *c, const char *store,
		      const char *id, const char *prefix, bool ok,
		      const char *root, const struct kernel_boots *orig_kb,
		      const struct record_set *orig, struct run_opts *ro,
		      struct mutant_obs *ob)
{
	(void)c;
	memset(ob, 0, sizeof(*ob));
	mutate_boots_saved(store, id, prefix, root, &ob->kb);
	ob->kb.ok = ok;
	mutate_analyse(ro, orig_kb, orig, ob);
}

/*
 * Why mutant @i's "Equivalent:" claim is refused (malloc'd), or NULL
 * when it holds: its first run @r1 and verdict @j, and its cost boot's
 * instruction profile against the original's A and A2 in @ref
 * (mutant_equivalence_refused()). Without --cost its cost boot is the
 * claim's alone: linked into @root and its output printed here.
 */
static char *claim_refused(const struct mutate_ctx *c, size_t i,
			   const char *store, const char *root,
			   const struct cost_ref *ref,
			   const struct mutant_run *r1,
			   const struct mutant_judgement *j)
{
	const char *cost_lsm = c->o.lsm ? c->o.lsm : lsms[0].name;
	const struct mutant *m = &c->m[i];
	struct path_set prof[3] = { ref->pra, { 0 }, ref->pra2 };
	struct path_set paths = { 0 };
	struct bench_set set;
	char *name, *why;

	name = xasprintf("mutant-%s-cost", m->name);
	cost_saved(store, c->mcost[i], name, c->a.m.cost ? NULL : root, &c->cp,
		   &set, &paths, &prof[1]);
	if (j->verdict == MUTANT_SURVIVED &&
	    (!m->lsm || strcmp(m->lsm, cost_lsm)))
		why = xasprintf(
			"no instruction profile of its code: the cost boots run %s, it patches %s",
			cost_lsm, m->lsm ? m->lsm : "several LSMs");
	else if (j->verdict == MUTANT_SURVIVED && !c->cp.profile)
		why = xstrdup(
			"no instruction profile was measured (it needs QEMU icount and the profile plugin: none under KVM or with a QEMU without plugins)");
	else
		why = mutant_equivalence_refused(j, r1, c->cp.points, prof);
	bench_free(&set);
	path_free(&paths);
	path_free(&prof[1]);
	free(name);
	return why;
}

/*
 * Mutant @i judged from its units' results: stillborn when it did not
 * build, else by its runs (the second when the first decided nothing)
 * and, with --cost, its cost boot against the original's A and A2.
 */
static void judge_saved(const struct mutate_ctx *c, size_t i, const char *store,
			const char *root, const struct kernel_boots *orig_kb,
			const struct cost_ref *ref, struct mutant_result *r)
{
	char *kt = unit_file(store, c->mbuild[i], "kernel.tsv");
	char *status = kt ? unit_value(kt, "status") : NULL;
	char *runs = unit_file(store, c->mboot[i], "runs"), *line;
	const char *at = runs;
	struct mutant_obs obs[2];
	struct mutant_judgement j;
	struct record_set orig;
	struct run_opts ro = c->o;
	bool cut;
	int n;

	memset(r, 0, sizeof(*r));
	r->build_s = unit_seconds(store, c->mbuild[i]);
	if (!status || strcmp(status, "ok")) {
		char *err = kt ? unit_value(kt, "error") : NULL;

		note("%s", err ? err : "the mutant's build failed");
		free(err);
		mutant_judge(false, NULL, NULL, &j);
		keep_judgement(&j, r);
		free(status);
		free(kt);
		free(runs);
		return;
	}
	free(status);
	free(kt);
	r->run_s = unit_seconds(store, c->mboot[i]);
	ro.lsms = mutant_lsms(&c->o, &c->m[i]);
	original_records(orig_kb, ro.lsms, ro.known, &orig);
	while (r->runs < 2 && at && (line = next_line(&at, &cut))) {
		char *sp = strchr(line, ' ');

		if (sp) {
			*sp = '\0';
			run_saved(c, store, c->mboot[i], line,
				  !strcmp(sp + 1, "PASS"), root, orig_kb, &orig,
				  &ro, &obs[r->runs++]);
		}
		free(line);
	}
	free(runs);
	if (!r->runs)
		die("%s/units/%s/runs: no run of mutant %s", store, c->mboot[i],
		    c->m[i].name);
	mutant_judge(true, &obs[0].run, r->runs > 1 ? &obs[1].run : NULL, &j);
	if (c->a.m.cost) {
		char *name = xasprintf("mutant-%s-cost", c->m[i].name);

		mutant_judge_cost(&j, cost_verdict_saved(store, c->mcost[i],
							 name, root, &c->cp,
							 ref, &r->cost));
		free(name);
	}
	if (c->mcost[i][0])
		r->run_s += unit_seconds(store, c->mcost[i]);
	if (c->m[i].equivalent)
		r->refused =
			claim_refused(c, i, store, root, ref, &obs[0].run, &j);
	keep_judgement(&j, r);
	for (n = 0; n < r->runs; n++)
		mutate_obs_free(&obs[n]);
	records_free(&orig);
}

/* Whether the original's units (build, boots, cost boots) are done. */
static bool original_done(const struct mutate_ctx *c, const char *store)
{
	size_t i;

	if (!store_done(store, c->build))
		return false;
	for (i = 0; i < c->n_boot; i++)
		if (!store_done(store, c->boot[i]))
			return false;
	for (i = 0; i < 2; i++)
		if (c->ocost[i][0] && !store_done(store, c->ocost[i]))
			return false;
	return true;
}

/* Whether mutant @i's units are done (none planned: unrun, done). */
static bool mutant_done(const struct mutate_ctx *c, size_t i, const char *store)
{
	if (!c->mbuild[i][0])
		return true;
	return store_done(store, c->mbuild[i]) &&
	       store_done(store, c->mboot[i]) &&
	       (!c->mcost[i][0] || store_done(store, c->mcost[i]));
}

static int mutate_merge(void *ctx, const struct unit_plan *p, const char *store,
			const char *root)
{
	struct mutate_ctx *c = ctx;
	struct mutate_score sc = { 0 };
	struct mutant_result *res = xcalloc(c->n + 1, sizeof(*res));
	struct kernel_boots kb;
	struct record_set orig;
	struct cost_ref ref = { 0 };
	struct sbuf tsv = { 0 };
	double orig_s = unit_seconds(store, c->build);
	size_t i;

	(void)p;
	if (c->partial && !original_done(c, store))
		die("merge --partial: the original's units are not done yet: no mutant can be judged");
	if (!original_saved(c, store, NULL, root, &kb)) {
		for (i = 0; i < c->n_boot; i++)
			unit_print_output(store, c->boot[i], root);
		die("the original %s fails the suite on its own: no mutant can be judged against it",
		    c->spec);
	}
	for (i = 0; i < c->n_boot; i++) {
		unit_print_output(store, c->boot[i], root);
		orig_s += unit_seconds(store, c->boot[i]);
	}
	boots_records(&kb, c->o.known, &orig);
	if (c->cp.points) {
		const char *ids[2] = { c->ocost[0], c->ocost[1] };

		cost_reference_saved(store, ids, ocost_name, root, &c->cp,
				     "original", &ref);
		orig_s += unit_seconds(store, ids[0]) +
			  unit_seconds(store, ids[1]);
	}
	printf("== original %s (%s): %zu decisions, every case passed (%.0f s)\n",
	       c->spec, c->lsms, orig.n, orig_s);
	records_free(&orig);
	sbuf_printf(&tsv, "%s", mutants_tsv_header);
	for (i = 0; i < c->n; i++) {
		if (c->partial && !mutant_done(c, i, store)) {
			printf("== mutant %s: pending\n   bug: %s\n   not judged yet: its units are not done\n",
			       c->m[i].name, c->m[i].desc);
			sbuf_printf(
				&tsv,
				"%s\tpending\t-\t0\t0\t0\t0.0\t0.0\t%s\tits units are not done\t-\t-\n",
				c->m[i].name, c->m[i].desc);
			sc.pending++;
			continue;
		}
		if (c->mbuild[i][0]) {
			unit_print_output(store, c->mboot[i], root);
			judge_saved(c, i, store, root, &kb, &ref, &res[i]);
		} else {
			/* --skip-unexecuted: its line runs in no case. */
			res[i].verdict = MUTANT_SURVIVED;
			res[i].why =
				"not run: its line never ran in the original's coverage, or its file is not built";
		}
		mutant_print(&c->a.m, &c->m[i], &res[i], &sc, &tsv);
	}
	cost_ref_free(&ref);
	kernel_boots_free(&kb);
	free(res);
	return mutate_end(&sc, c->n, &tsv, root, c->t0);
}

/* The mutants judged so far, the rest pending; the original's first. */
static int mutate_merge_partial(void *ctx, const struct unit_plan *p,
				const char *store, const char *root)
{
	((struct mutate_ctx *)ctx)->partial = true;
	return mutate_merge(ctx, p, store, root);
}

const struct unit_cmd mutate_units = {
	.name = "mutate",
	.plan = mutate_plan,
	.run = mutate_unit_run,
	.merge = mutate_merge,
	.merge_partial = mutate_merge_partial,
};

/*
 * --generate without --seed: the seed is chosen here, once, and written
 * into the words every unit plans again from, so that each draws the
 * same mutants. Returns @argv, or a copy with "--seed S" after "mutate".
 */
static char **seed_words(int *argc, char **argv)
{
	bool gen = false, seed = false;
	unsigned long long s;
	char **v;
	int i;

	for (i = 1; i < *argc; i++) {
		gen |= !strcmp(argv[i], "--generate");
		seed |= !strcmp(argv[i], "--seed");
	}
	if (!gen || seed)
		return argv;
	s = ((unsigned long long)time(NULL) << 16) ^
	    (unsigned long long)getpid();
	v = xcalloc(*argc + 3, sizeof(*v));
	v[0] = argv[0];
	v[1] = "--seed";
	v[2] = xasprintf("%llu", s);
	for (i = 1; i < *argc; i++)
		v[i + 2] = argv[i];
	*argc += 2;
	return v;
}

int cmd_mutate(int argc, char **argv)
{
	argv = seed_words(&argc, argv);
	return units_here(&mutate_units, argc, argv);
}
