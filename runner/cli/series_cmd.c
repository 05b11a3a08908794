// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf series SOURCE SERIES`: a patch series checked before it is
 * merged. Kernel i is build:SOURCE+P1+...+Pi (0 the base, n the tip); the
 * bisection planner (analysis/bisect.c) chooses every kernel to build or
 * boot again. Each kernel's suites are compared with the base's as
 * mutate compares a mutant (mutate.h), and its cost boot is judged
 * against the base's two like mutate --cost. The report (report.txt for
 * a mail reply, report.html, series.tsv) is series_out.c's.
 *
 * Cut into units of work (work/units.h) like compare and mutate, but its
 * plan grows with its results: a step of the bisection is a kernel's
 * build, its suites' boot and its cost boot, and series_extend() replays
 * the bisection over the store's finished units to add the next step's.
 * The tip's units are planned with the base's: the bisection always asks
 * for the tip next, and the two then run side by side.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "series_int.h"
#include "provision/provision.h"
#include "analysis/analysis.h"
#include "lib/lib.h"
#include "work/work.h"
#include "vm/vm.h"

#include <errno.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The command planned: its inputs, and the bisection replayed. */
struct series_ctx {
	struct run_opts o;
	struct series_opts so;
	char *cmdline; /* as given, for the report's "To reproduce" */
	char **key; /* kernel i's inputs: the source, its patches' hashes */
	char *run_key;
	struct cost_plan cp; /* --cost: how the cost boots run */
	double t0;
	struct series_run r;
	struct bisect *b;
	const char *store;
	bool say; /* merge: print each step, link its boots into r.root */
};

/* The units of one step: a kernel's build, a boot of its suites, cost. */
struct step {
	char build[UNIT_ID_LEN + 1], boot[UNIT_ID_LEN + 1];
	char cost[2][UNIT_ID_LEN + 1];
	char *boot_name, *cost_name[2];
	size_t n_cost;
};

/* build:SOURCE+P1+...+Pi. */
static char *kernel_spec(const struct series_run *r, size_t i)
{
	struct sbuf sb = { 0 };
	size_t j;

	sbuf_printf(&sb, "build:%s", r->so->source);
	for (j = 0; j < i; j++)
		sbuf_printf(&sb, "+%s", r->s.p[j].path);
	return sb.buf;
}

/*
 * The patch an "applying PATCH failed" names (1..@i), or 0. The message
 * starts with the whole spec, every patch in it: only the path after
 * "applying " counts.
 */
static size_t refused_patch(const struct series_run *r, size_t i,
			    const char *msg)
{
	const char *p = strstr(msg, ": applying ");
	size_t j, len;

	if (!p)
		return 0;
	p += strlen(": applying ");
	for (j = 0; j < i; j++) {
		len = strlen(r->s.p[j].path);
		if (!strncmp(p, r->s.p[j].path, len) && p[len] == ' ')
			return j + 1;
	}
	return 0;
}

/* @v's lines into the sbuf, each "a -> b" as compare prints them. */
static void keep_lines(struct sbuf *sb, const char *line)
{
	sbuf_printf(sb, "%s\n", line);
}

/*
 * "FUNCTION A -> B KIND/msg, ..." of @point in @fn, one a line into @out
 * ("POINT FUNCTION ..."); empties @fn.
 */
static void add_functions(struct sbuf *out, const char *point, struct sbuf *fn)
{
	char *p, *sp = NULL;

	for (p = fn->len ? strtok_r(fn->buf, ",", &sp) : NULL; p;
	     p = strtok_r(NULL, ",", &sp))
		sbuf_printf(out, "%s %s\n", point, p + strspn(p, " "));
	sbuf_free(fn);
}

/* What a boot of the base or of kernel @i is called ("kernel-3-again1"). */
static char *boot_name(size_t i, int a)
{
	if (!i)
		return a == 0 ? xstrdup("base") :
		       a == 1 ? xstrdup("base-again") :
				xasprintf("base-again%d", a);
	return a ? xasprintf("kernel-%zu-again%d", i, a) :
		   xasprintf("kernel-%zu", i);
}

static size_t add_unit(struct series_ctx *c, struct unit_plan *p,
		       enum unit_kind kind, const char *key, const size_t *dep,
		       const char *desc, size_t i, const char *name)
{
	size_t x = unit_add(p, kind, key, dep, dep ? 1 : 0, desc);
	struct unit *u = &p->v[x];

	if (!u->spec) {
		u->spec = kernel_spec(&c->r, i);
		u->name = name ? xstrdup(name) : NULL;
		u->role = (int)i;
	}
	return x;
}

static void step_free(struct step *st)
{
	free(st->boot_name);
	free(st->cost_name[0]);
	free(st->cost_name[1]);
	memset(st, 0, sizeof(*st));
}

/*
 * The units of kernel @i's step into @p: its build, boot @a of its suites
 * and, with --cost and @cost, its cost boot (the base: A and A2, made
 * once). Keys hold what the units' results depend on: the patches by
 * their contents, so that every host plans the same ids.
 */
static void plan_step(struct series_ctx *c, struct unit_plan *p, size_t i,
		      int a, bool cost, struct step *st)
{
	char *key, *desc;
	size_t build, x;
	int b;

	memset(st, 0, sizeof(*st));
	key = xasprintf("series build\n%s", c->key[i]);
	desc = i ? xasprintf("build kernel %zu (base + patches 1-%zu)", i, i) :
		   xasprintf("build the base %s", c->so.source);
	build = add_unit(c, p, UNIT_BUILD, key, NULL, desc, i, NULL);
	memcpy(st->build, p->v[build].id, UNIT_ID_LEN + 1);
	free(key);
	free(desc);
	st->boot_name = boot_name(i, a);
	key = xasprintf("series boot\n%sattempt %d\n%s", c->key[i], a,
			c->run_key);
	desc = xasprintf("boot %s", st->boot_name);
	x = add_unit(c, p, UNIT_BOOT, key, &build, desc, i, st->boot_name);
	memcpy(st->boot, p->v[x].id, UNIT_ID_LEN + 1);
	free(key);
	free(desc);
	if (!c->so.cost || (i && !cost))
		return;
	for (b = 0; b < (i ? 1 : 2); b++) {
		st->cost_name[b] =
			!i ? xasprintf("base-cost-%s", b ? "A2" : "A") :
			a  ? xasprintf("kernel-%zu-cost-again%d", i, a) :
			     xasprintf("kernel-%zu-cost", i);
		char *cost_key = cost_plan_key(&c->cp);

		key = xasprintf("series cost\n%s%s %d\n%s%s", c->key[i],
				i ? "attempt" : "boot", i ? a : b, cost_key,
				c->run_key);
		free(cost_key);
		desc = xasprintf("bench %s", st->cost_name[b]);
		x = add_unit(c, p, cost_unit_kind(&c->cp), key, &build, desc, i,
			     st->cost_name[b]);
		memcpy(st->cost[b], p->v[x].id, UNIT_ID_LEN + 1);
		st->n_cost++;
		free(key);
		free(desc);
	}
}

static bool step_done(const struct series_ctx *c, const struct step *st)
{
	size_t b;

	if (!c->store || !store_done(c->store, st->build) ||
	    !store_done(c->store, st->boot))
		return false;
	for (b = 0; b < st->n_cost; b++)
		if (!store_done(c->store, st->cost[b]))
			return false;
	return true;
}

#define say(c, ...)                          \
	do {                                 \
		if ((c)->say)                \
			printf(__VA_ARGS__); \
	} while (0)

/*
 * Kernel @i's cost boot (unit @id) against the base's A and A2: false
 * when it gave no samples (a boot that failed).
 */
static bool kernel_cost(struct series_ctx *c, size_t i, const char *id,
			const char *name)
{
	struct series_run *r = &c->r;
	struct kern *kn = &r->k[i];
	struct path_set paths[3] = { r->ref.pa, { 0 }, r->ref.pa2 };
	struct path_set prof[3] = { r->ref.pra, { 0 }, r->ref.pra2 };
	char *copy, *tok, *save = NULL;
	size_t changed, missing, na, nb, na2;
	double *va, *vb, *va2;
	struct ab_verdict v;

	bench_free(&kn->b);
	path_free(&kn->pb);
	sbuf_free(&kn->cost);
	sbuf_free(&kn->functions);
	kn->run_s += unit_seconds(c->store, id);
	if (!cost_saved(c->store, id, name, c->say ? r->root : NULL, &c->cp,
			&kn->b, &kn->pb, &prof[1])) {
		path_free(&prof[1]);
		return false;
	}
	changed =
		bench_cost_changes(c->so.cost, &r->ref.a, &kn->b, &r->ref.a2,
				   cost_min_diff(&r->ref), &kn->cost, &missing);
	if (missing) {
		path_free(&prof[1]);
		return false;
	}
	/* The report's column: the first point, with its interval. */
	copy = xstrdup(c->so.cost);
	tok = strtok_r(copy, " ", &save);
	va = bench_values(&r->ref.a, tok, &na);
	vb = bench_values(&kn->b, tok, &nb);
	va2 = bench_values(&r->ref.a2, tok, &na2);
	ab_compare(va, na, vb, nb, va2, na2, cost_min_diff(&r->ref), &v);
	kn->has_cost = true;
	kn->cost_sig = changed > 0;
	kn->pct = 100 * v.change;
	kn->lo = 100 * (v.lo - 1);
	kn->hi = 100 * (v.hi - 1);
	free(va);
	free(vb);
	free(va2);
	/* The functions behind a change, from the probes after the rounds. */
	paths[1] = kn->pb;
	for (; changed && tok; tok = strtok_r(NULL, " ", &save)) {
		struct sbuf fn = { 0 };

		if (!paths[0].n || !paths[1].n || !paths[2].n) {
			sbuf_printf(&kn->functions, "%s: no path evidence\n",
				    tok);
			continue;
		}
		bench_path_changed(tok, paths, &fn);
		add_functions(&kn->functions, tok, &fn);
		/* Where the instructions went, when profiled. */
		if (r->ref.profile && prof[1].n) {
			bench_profile_changed(tok, prof, &fn);
			add_functions(&kn->functions, tok, &fn);
		}
	}
	free(copy);
	path_free(&prof[1]);
	if (changed && !kn->functions.len)
		sbuf_printf(&kn->functions, "none of the probed changed\n");
	return true;
}

/* The base's suites (and cost reference): the kinds are absent there. */
static void observe_base(struct series_ctx *c, const struct step *st,
			 struct bisect_obs *obs)
{
	struct series_run *r = &c->r;
	struct kern *kn = &r->k[0];

	kernel_boots_free(&r->base_kb);
	records_free(&r->base_rs);
	memset(&r->base_kb, 0, sizeof(r->base_kb));
	memset(&r->base_rs, 0, sizeof(r->base_rs));
	mutate_boots_saved(c->store, st->boot, st->boot_name,
			   c->say ? r->root : NULL, &r->base_kb);
	r->base_kb.ok = unit_passed(c->store, st->boot);
	if (c->say)
		unit_print_output(c->store, st->boot, r->root);
	kn->runs++;
	kn->run_s += unit_seconds(c->store, st->boot);
	boots_records(&r->base_kb, c->o.known, &r->base_rs);
	if (!mutate_reached(&r->base_kb)) {
		obs->outcome = BISECT_NO_BOOT;
		return;
	}
	/* A failure of the base's own: every later kernel has it too. */
	obs->present[BISECT_FAILURE] = !r->base_kb.ok;
	if (c->so.cost && !r->ref.args) {
		const char *ids[2] = { st->cost[0], st->cost[1] };
		const char *names[2] = { st->cost_name[0], st->cost_name[1] };

		cost_reference_saved(c->store, ids, names,
				     c->say ? r->root : NULL, &c->cp, "base",
				     &r->ref);
	}
	say(c, "== base %s: %zu decisions, %s\n", kn->spec, r->base_rs.n,
	    r->base_kb.ok ? "every case passed" :
			    "some cases FAILED on their own");
}

/* The decisions and failures that kernel @kn's report names. */
static void keep_evidence(struct kern *kn, const struct mutant_diff *const *d,
			  size_t n_d, const struct mutant_fail *const *f,
			  size_t n_f)
{
	size_t j;

	kn->n_changed = n_d;
	sbuf_free(&kn->cases);
	sbuf_free(&kn->failed);
	for (j = 0; j < n_d; j++) {
		char *line =
			xasprintf("%s (%s -> %s)", d[j]->id, d[j]->a, d[j]->b);

		keep_lines(&kn->cases, line);
		free(line);
	}
	for (j = 0; j < n_f; j++)
		keep_lines(&kn->failed, f[j]->name);
}

/*
 * What kernel @kn's suites showed against the base's, by the rule mutate
 * judges a mutant with (mutant_judge()), for the kinds of @obs: a first
 * run that decides alone is what it shows; one that does not (a record on
 * one side only, a lost case, a failure with every decision as the
 * base's) makes the bisection boot the kernel again (@obs->confirm), and
 * then only what the two runs repeat counts.
 */
static void judge_run(struct series_ctx *c, struct kern *kn,
		      struct mutant_obs *ob, bool again, struct bisect_obs *obs)
{
	const struct mutant_diff **d;
	const struct mutant_fail **f;
	struct mutant_judgement j;
	const char *why;
	size_t i;

	if (again && kn->have_first) {
		mutant_judge(true, &kn->first.run, &ob->run, &j);
		/* Nothing repeats: the report shows what the first run did. */
		if (j.ways)
			keep_evidence(kn, j.diffs, j.n_diffs, j.fails,
				      j.n_fails);
		else
			kn->n_changed = 0;
		obs->present[BISECT_DECISIONS] = j.ways & MUTANT_BY_DECISION;
		obs->present[BISECT_FAILURE] =
			(j.ways & (MUTANT_BY_FAILURE | MUTANT_BY_CRASH)) &&
			!(j.ways & MUTANT_BY_DECISION);
		say(c, "   again: %s\n",
		    j.ways ? "the change repeats" :
			     "nothing of the first run repeats");
		mutant_judgement_free(&j);
		return;
	}
	d = xcalloc(ob->run.n_diffs + 1, sizeof(*d));
	f = xcalloc(ob->run.n_fails + 1, sizeof(*f));
	for (i = 0; i < ob->run.n_diffs; i++)
		d[i] = &ob->run.diffs[i];
	for (i = 0; i < ob->run.n_fails; i++)
		f[i] = &ob->run.fails[i];
	keep_evidence(kn, d, ob->run.n_diffs, f, ob->run.n_fails);
	free(d);
	free(f);
	obs->present[BISECT_DECISIONS] = ob->run.n_diffs > 0;
	/* Cases that fail because a decision changed are that change. */
	obs->present[BISECT_FAILURE] = ob->run.n_fails && !ob->run.n_diffs;
	why = mutant_rerun_reason(&ob->run);
	obs->confirm = why != NULL;
	/* A run that failed with nothing named is a failure to confirm. */
	if (why && !obs->present[BISECT_DECISIONS])
		obs->present[BISECT_FAILURE] = true;
	say(c, "   decisions: %s; failed cases: %zu%s%s%s\n",
	    ob->run.n_diffs ? "CHANGED" : "same as the base's", ob->run.n_fails,
	    why ? " (decides nothing alone: " : "", why ? why : "",
	    why ? "; booted again)" : "");
	if (kn->have_first)
		mutate_obs_free(&kn->first);
	kn->first = *ob;
	kn->have_first = true;
	memset(ob, 0, sizeof(*ob));
}

/*
 * Kernel @i's suites against the base's, and its cost boot unless
 * @suites_only (a run that confirms needs no cost); @again: a run that
 * confirms the first.
 */
static void observe_kernel(struct series_ctx *c, size_t i,
			   const struct step *st, bool suites_only, bool again,
			   struct bisect_obs *obs)
{
	struct series_run *r = &c->r;
	struct kern *kn = &r->k[i];
	struct mutant_obs ob;

	memset(&ob, 0, sizeof(ob));
	mutate_boots_saved(c->store, st->boot, st->boot_name,
			   c->say ? r->root : NULL, &ob.kb);
	ob.kb.ok = unit_passed(c->store, st->boot);
	if (c->say)
		unit_print_output(c->store, st->boot, r->root);
	mutate_analyse(&c->o, &r->base_kb, &r->base_rs, &ob);
	kn->runs++;
	kn->run_s += unit_seconds(c->store, st->boot);
	if (!ob.run.reached) {
		obs->outcome = BISECT_NO_BOOT;
		say(c, "   the guest never reached its tests\n");
		mutate_obs_free(&ob);
		return;
	}
	judge_run(c, kn, &ob, again, obs);
	mutate_obs_free(&ob);
	if (suites_only || !c->so.cost)
		return;
	if (!kernel_cost(c, i, st->cost[0], st->cost_name[0])) {
		say(c, "   the cost boot gave no samples: %s\n",
		    kn->cost.len ? kn->cost.buf : "it failed");
		obs->outcome = BISECT_NO_BOOT;
		return;
	}
	obs->present[BISECT_COST] = kn->cost_sig;
	say(c, "   cost: %s\n",
	    kn->cost_sig ? kn->cost.buf : "no point changed significantly");
}

/* Kernel @i built (BISECT_BUILD), then observed. */
static void build_step(struct series_ctx *c, size_t i, const struct step *st,
		       struct bisect_obs *obs)
{
	struct series_run *r = &c->r;
	struct kern *kn = &r->k[i];
	char *kt = unit_file(c->store, st->build, "kernel.tsv");
	char *status = kt ? unit_value(kt, "status") : NULL;

	kn->spec = kernel_spec(r, i);
	if (i)
		say(c, "== kernel %zu of %zu (patch %zu \"%s\")\n", i, r->s.n,
		    i, r->s.p[i - 1].subject);
	else
		say(c, "== base %s\n", kn->spec);
	kn->build_s = unit_seconds(c->store, st->build);
	if (!status || strcmp(status, "ok")) {
		char *msg = kt ? unit_value(kt, "error") : NULL;

		if (!i)
			die("%s", msg ? msg : "the base does not build");
		obs->patch = refused_patch(r, i, msg ? msg : "");
		obs->outcome = obs->patch ? BISECT_NO_APPLY : BISECT_NO_BUILD;
		say(c, "   %s: %s\n",
		    obs->patch ? "a patch does not apply" : "does not build",
		    msg ? msg : "?");
		free(msg);
		free(status);
		free(kt);
		return;
	}
	kn->have_k = true;
	kn->k.package = unit_value(kt, "package");
	kn->k.release = unit_value(kt, "release");
	{
		char *sha = unit_value(kt, "image_sha256");

		snprintf(kn->k.image_sha256, sizeof(kn->k.image_sha256), "%s",
			 sha ? sha : "?");
		free(sha);
	}
	say(c, "   built: %s (%.0f s)\n", kn->k.package ? kn->k.package : "?",
	    kn->build_s);
	free(status);
	free(kt);
	if (i)
		observe_kernel(c, i, st, false, false, obs);
	else
		observe_base(c, st, obs);
}

/* Kernel @i's boot again (BISECT_RERUN): a boot that failed, or a failure. */
static void rerun_step(struct series_ctx *c, size_t i, bool again,
		       const struct step *st, struct bisect_obs *obs)
{
	say(c, "== kernel %zu again: %s\n", i,
	    again ? "no boot reached its tests" :
		    "its first run decides nothing alone");
	if (i)
		observe_kernel(c, i, st, !again, !again, obs);
	else
		observe_base(c, st, obs);
}

/* What is known of every kernel forgotten: a replay starts afresh. */
static void run_reset(struct series_ctx *c)
{
	struct series_run *r = &c->r;
	size_t i;

	for (i = 0; r->k && i <= r->s.n; i++) {
		struct kern *kn = &r->k[i];

		free(kn->spec);
		free(kn->k.package);
		free(kn->k.release);
		sbuf_free(&kn->cases);
		sbuf_free(&kn->failed);
		if (kn->have_first)
			mutate_obs_free(&kn->first);
		sbuf_free(&kn->cost);
		sbuf_free(&kn->functions);
		bench_free(&kn->b);
		path_free(&kn->pb);
	}
	free(r->k);
	r->k = xcalloc(r->s.n + 1, sizeof(*r->k));
	kernel_boots_free(&r->base_kb);
	records_free(&r->base_rs);
	memset(&r->base_kb, 0, sizeof(r->base_kb));
	memset(&r->base_rs, 0, sizeof(r->base_rs));
	cost_ref_free(&r->ref);
	memset(&r->ref, 0, sizeof(r->ref));
	if (c->b)
		bisect_free(c->b);
	c->b = bisect_new(r->s.n);
}

/*
 * The bisection replayed over the finished units of @store, each step's
 * units added to @p: true when it is over, false at the first step whose
 * units are not all done.
 */
static bool replay(struct series_ctx *c, struct unit_plan *p)
{
	struct series_run *r = &c->r;
	struct step st;
	struct err e;

	run_reset(c);
	/* The tip beside the base: the bisection asks for it next. */
	plan_step(c, p, r->s.n, 0, true, &st);
	step_free(&st);
	for (;;) {
		struct bisect_next nx = bisect_next(c->b);
		struct bisect_obs obs = { .outcome = BISECT_OK };
		size_t i = nx.index;
		bool again;

		if (nx.step == BISECT_DONE)
			return true;
		again = nx.step == BISECT_RERUN &&
			bisect_kernel_state(c->b, i) == BISECT_BOOT_AGAIN;
		plan_step(c, p, i, nx.step == BISECT_RERUN ? r->k[i].runs : 0,
			  nx.step == BISECT_BUILD || again, &st);
		if (!step_done(c, &st)) {
			step_free(&st);
			return false;
		}
		if (nx.step == BISECT_BUILD)
			build_step(c, i, &st, &obs);
		else
			rerun_step(c, i, again, &st, &obs);
		step_free(&st);
		fflush(stdout);
		if (bisect_record(c->b, i, &obs, &e))
			die("%s", e.msg);
	}
}

/* A shell word of the command line, quoted when it needs it. */
static void add_word(struct sbuf *sb, const char *w)
{
	if (w[strcspn(w, " \t'\"$\\")] || !*w)
		sbuf_printf(sb, " '%s'", w);
	else
		sbuf_printf(sb, " %s", w);
}

static bool series_option(void *ctx, const char *opt, const char *v)
{
	struct series_opts *so = ctx;

	if (!strcmp(opt, "--git-dir"))
		so->git_dir = opt_value(opt, v);
	else if (!strcmp(opt, "--cost"))
		so->cost = opt_value(opt, v);
	else
		return false;
	return true;
}

/*
 * The series loaded into the cache (series/HASH, per host: the same
 * patches give the same directory), and each kernel's key.
 */
static void load_series(struct series_ctx *c)
{
	struct series_run *r = &c->r;
	char *base = cache_path("series"), *tmp, *dir, hex[65];
	struct sbuf all = { 0 }, key = { 0 };
	size_t i, len;
	struct err e;

	tmp = xasprintf("%s/.load-%d", base, (int)getpid());
	remove_tree(tmp);
	if (series_load(c->so.input, c->so.git_dir, tmp, c->so.allow_gaps,
			&r->s, &e))
		die("%s", e.msg);
	c->key = xcalloc(r->s.n + 1, sizeof(*c->key));
	sbuf_printf(&key, "source %s\n", c->so.source);
	c->key[0] = xstrdup(key.buf);
	for (i = 0; i < r->s.n; i++) {
		if (sha256_file(r->s.p[i].path, hex))
			die("cannot read %s: %s", r->s.p[i].path,
			    strerror(errno));
		sbuf_printf(&key, "patch %s\n", hex);
		sbuf_printf(&all, "%s\n%s\n", r->s.p[i].subject,
			    strrchr(r->s.p[i].path, '/') + 1);
		c->key[i + 1] = xstrdup(key.buf);
	}
	sbuf_printf(&all, "%s", key.buf);
	sha256_buf(all.buf, all.len, hex);
	dir = xasprintf("%s/%.16s", base, hex);
	/* Another process may have put the same series there first. */
	if (rename(tmp, dir)) {
		if (errno != EEXIST && errno != ENOTEMPTY)
			die("cannot rename %s to %s: %s", tmp, dir,
			    strerror(errno));
		remove_tree(tmp);
	}
	len = strlen(tmp);
	for (i = 0; i < r->s.n; i++) {
		char *path = xasprintf("%s%s", dir, r->s.p[i].path + len);

		free(r->s.p[i].path);
		r->s.p[i].path = path;
	}
	sbuf_free(&all);
	sbuf_free(&key);
	free(dir);
	free(tmp);
	free(base);
}

static void *series_plan(int argc, char **argv, struct unit_plan *p,
			 const struct run_opts **o)
{
	struct series_ctx *c = xcalloc(1, sizeof(*c));
	struct sbuf cmd = { 0 };
	char err[512], *spec;
	int first, i;

	(void)p;
	c->t0 = now_seconds();
	c->so.cost = "socketpair:none";
	/* The command as given, for the report's "To reproduce". */
	sbuf_printf(&cmd, "lsmconf");
	for (i = 0; i < argc; i++)
		add_word(&cmd, argv[i]);
	c->cmdline = cmd.buf;
	/* A flag without a value: taken out before the others. */
	for (first = i = 0; i < argc; i++)
		if (strcmp(argv[i], "--allow-gaps"))
			argv[first++] = argv[i];
		else
			c->so.allow_gaps = true;
	argc = first;
	argv[argc] = NULL;
	argc = own_options(argc, argv, series_option, &c->so);
	first = run_options(argc, argv, &c->o);
	if (argc - first != 2)
		die("series: SOURCE and SERIES expected (lsmconf series [options] SOURCE SERIES)");
	c->so.source = argv[first];
	c->so.input = argv[first + 1];
	spec = xasprintf("build:%s", c->so.source);
	specs_check(&spec, 1);
	free(spec);
	if (!*c->so.cost)
		c->so.cost = NULL;
	if (c->so.cost && bench_points_check(c->so.cost, err, sizeof(err)))
		die("--cost: %s", err);
	c->r.o = &c->o;
	c->r.so = &c->so;
	load_series(c);
	c->run_key = unit_run_key(&c->o);
	if (c->so.cost)
		cost_plan_init(&c->cp, c->so.cost);
	*o = &c->o;
	return c;
}

static size_t series_extend(void *ctx, struct unit_plan *p, const char *store)
{
	struct series_ctx *c = ctx;
	size_t before = p->n;

	c->store = store;
	c->say = false;
	replay(c, p);
	unit_plan_order(p);
	return p->n - before;
}

static int series_unit_run(void *ctx, const struct unit_plan *p,
			   const struct unit *u, const char *store,
			   const char *dir, struct err *e)
{
	struct series_ctx *c = ctx;
	struct kernel_boots kb;
	struct run_opts ro = c->o;
	struct kernel k;
	char *kt, *status;
	bool ok;

	(void)p;
	/* A kernel that does not build is a result (the base's is not). */
	if (u->kind == UNIT_BUILD)
		return unit_provision(&c->o, u, dir, u->role != 0, e);
	if (unit_kind_bench(u->kind))
		return cost_unit_run(&c->o, &c->cp, u, store, dir, e);
	kt = unit_file(store, u->deps[0], "kernel.tsv");
	status = kt ? unit_value(kt, "status") : NULL;
	ok = status && !strcmp(status, "ok");
	free(status);
	free(kt);
	if (!ok)
		return write_file_at(dir, "verdict", "NOBUILD\n", 8);
	if (kernel_provision(u->spec, &k, c->o.refresh, e))
		return -1;
	ro.dir_name = u->name;
	if (run_kernel_lsms(&ro, dir, &k, &kb, e)) {
		kernel_free(&k);
		return -1;
	}
	ok = kb.ok;
	kernel_boots_free(&kb);
	kernel_free(&k);
	return write_file_at(dir, "verdict", ok ? "PASS\n" : "FAIL\n", 5);
}

static int series_merge(void *ctx, const struct unit_plan *p, const char *store,
			const char *root)
{
	struct series_ctx *c = ctx;
	struct unit_plan scratch = { 0 };
	char *dir = xasprintf("%s/patches", root);
	size_t i;
	bool whole;

	(void)p;
	/* The patches with the results: the report names them. */
	mkdir_p(dir);
	for (i = 0; i < c->r.s.n; i++) {
		char *to = xasprintf("%s/%s", dir,
				     strrchr(c->r.s.p[i].path, '/') + 1);

		if (copy_file(c->r.s.p[i].path, to, 0644))
			die("cannot copy %s to %s", c->r.s.p[i].path, to);
		free(to);
	}
	printf("== series %s: %zu patches (in %s)\n", c->so.input, c->r.s.n,
	       dir);
	free(dir);
	c->r.root = xstrdup(root);
	c->store = store;
	c->say = true;
	whole = replay(c, &scratch);
	unit_plan_free(&scratch);
	if (!whole)
		die("%s: the bisection is not over (lsmconf plan --store %s --ready names the units to run next)",
		    store, store);
	return series_write_report(&c->r, c->b, c->cmdline, c->t0);
}

const struct unit_cmd series_units = {
	.name = "series",
	.plan = series_plan,
	.run = series_unit_run,
	.merge = series_merge,
	.extend = series_extend,
};

int cmd_series(int argc, char **argv)
{
	return units_here(&series_units, argc, argv);
}
