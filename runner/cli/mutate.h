/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What `mutate` and `series` share (mutate.c): one run of the suites on a
 * patched kernel compared with the unpatched one's, and the cost boots
 * judged like mutate --cost.
 */
#ifndef LSMCONF_CLI_MUTATE_H
#define LSMCONF_CLI_MUTATE_H

#include "cli.h"
#include "results/results.h"
#include "analysis/analysis.h"
#include "work/work.h"

/*
 * mutate --cost: a short bench of the chosen points on its own boot per
 * kernel, under icount (the suites' boots run on two vCPUs without it, so
 * the bench cannot share them). The original is measured twice, A and A2,
 * which gives the drift a mutant's change must exceed.
 */
struct cost_ref {
	char *args; /* unix_send_bench's arguments */
	bool icount;
	struct bench_set a, a2; /* the original's two bench boots */
	struct path_set pa, pa2; /* and their path probes */
	/* Their instruction profiles (bench --profile; under icount only). */
	bool profile;
	struct path_set pra, pra2;
};

/* The short bench sizes of a cost boot. */
static const struct bench_opts mutate_cost_sizes = {
	.invocations = 1,
	.warmup = 6,
	.rounds = 6,
	.messages = 8192,
	/* The functions behind a change: calls per message, untimed. */
	.probe_messages = 256,
	.probe_calls_only = true,
};

/*
 * How the cost boots of @points run, decided where the plan is made (a
 * part of each cost unit's id): unix_send_bench's arguments at
 * mutate_cost_sizes, QEMU icount without KVM, the profile with icount.
 */
struct cost_plan {
	const char *points;
	char *args;
	bool icount, profile;
};
void cost_plan_init(struct cost_plan *cp, const char *points);
/* Its lines for a unit's key, malloc'd. */
char *cost_plan_key(const struct cost_plan *cp);
/* The kind of its units: counted (icount) or timed. */
enum unit_kind cost_unit_kind(const struct cost_plan *cp);

struct unit;
/*
 * A cost unit: one bench boot of u->spec (seed A2 when u->name ends in
 * "-A2", else A) into @dir/NAME-LSM, its verdict PASS or FAIL; NOBUILD,
 * and no boot, when its build (u->deps[0]) failed. 0, or -1 and @e.
 */
int cost_unit_run(const struct run_opts *o, const struct cost_plan *cp,
		  const struct unit *u, const char *store, const char *dir,
		  struct err *e);
/*
 * The bench boot the unit @id of @store left under @name: its samples,
 * path probe and profile into @set, @paths and @prof; with @root, its
 * directory linked there and its output printed. False when the boot
 * failed or left no directory.
 */
bool cost_saved(const char *store, const char *id, const char *name,
		const char *root, const struct cost_plan *cp,
		struct bench_set *set, struct path_set *paths,
		struct path_set *prof);
/*
 * The reference's two bench boots, A and A2, from their units @id[0] and
 * @id[1] (named @name[0], @name[1]); dies when they failed or lack
 * samples ("the @who's cost boots...").
 */
void cost_reference_saved(const char *store, const char *const id[2],
			  const char *const name[2], const char *root,
			  const struct cost_plan *cp, const char *who,
			  struct cost_ref *ref);
void cost_ref_free(struct cost_ref *ref);
/* The smallest cost change @ref's samples can call (stats.h). */
static inline double cost_min_diff(const struct cost_ref *ref)
{
	return ref->icount ? AB_COUNT_FLOOR : 0;
}
/*
 * A mutant's or a kernel's cost boot (the unit @id of @store, named
 * @name) against the reference @ref: 1 when some point changed
 * significantly, 0 when none did, -1 when it was not measured. The
 * points that changed (or lack samples), and the functions behind them,
 * go to @changes.
 */
int cost_verdict_saved(const char *store, const char *id, const char *name,
		       const char *root, const struct cost_plan *cp,
		       const struct cost_ref *ref, struct sbuf *changes);

/* One run of the suites on a patched kernel, and what it showed. */
struct mutant_obs {
	struct kernel_boots kb;
	struct record_set rs;
	struct cmp_result cmp;
	struct mutant_diff *diffs;
	char **feat_ids; /* "feature PATH", the diffs' ids of features */
	struct mutant_fail *fails;
	struct mutant_run run;
};

/*
 * Runs the suites of @ro on @k into @ro->dir_name and compares with the
 * unpatched kernel's boots @orig_kb and records @orig (same source: a
 * feature that changes is a difference, not an explanation). 0, or -1
 * and @e when the boots could not run (a host failure: no observation,
 * the unit fails and runs again).
 */
int mutate_observe(const struct run_opts *ro, const char *root,
		   struct kernel *k, const struct kernel_boots *orig_kb,
		   const struct record_set *orig, struct mutant_obs *ob,
		   struct err *e);
/*
 * What mutate_observe() shows of boots already run: @ob->kb filled in,
 * the rest of @ob from their results directories.
 */
void mutate_analyse(const struct run_opts *ro,
		    const struct kernel_boots *orig_kb,
		    const struct record_set *orig, struct mutant_obs *ob);
void mutate_obs_free(struct mutant_obs *ob);
/*
 * The boots one unit @id of @store left under @prefix ("original",
 * "mutant-NAME", "kernel-3"): each LSM's directory PREFIX-LSM, linked into
 * @root when @root is not NULL (@kb->ok is left false).
 */
void mutate_boots_saved(const char *store, const char *id, const char *prefix,
			const char *root, struct kernel_boots *kb);
/*
 * Every failure of one kernel's run: its boots' failed cases (a known
 * bug's too), failed tests, cases that brought it down (with their
 * report's first line), problems, and decisions @rs holds not as
 * expected. Free with mutant_fails_free().
 */
void kernel_failures(const struct kernel_boots *kb, const struct record_set *rs,
		     struct mutant_fail **v, size_t *n);
/* The guest reached its tests (sent its identity) in every boot's run. */
bool mutate_reached(const struct kernel_boots *kb);

/* mutate --generate N --seed S [--files GLOB]... (mutate_gen.c) */
struct mutate_gen {
	size_t n; /* 0: not asked */
	uint64_t seed;
	char **files; /* --files GLOBs, relative to the tree */
	size_t n_files;
};

/*
 * The mutants @gen asks for, drawn from the tree of @source (a kernel
 * tree or debian-source:X.Y): N from each LSM of @want (its own C files,
 * each of its subdirectories' too) or N from the --files globs, written
 * as patches into a directory of the cache named by every input (the
 * same inputs, the same patches), whose path is returned. Prints the
 * seed and the counts. NULL and @e when the tree or a file cannot be
 * read or nothing matched.
 */
char *mutate_generate(const struct mutate_gen *gen, const char *source,
		      const char *want, struct err *e);

#endif
