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
 * The reference's two bench boots of @points, A and A2, on @k (into
 * @root/@who-cost-A and -A2); dies when they fail or lack samples.
 */
void cost_reference(const struct run_opts *o, const char *root,
		    const char *points, const char *who, struct kernel *k,
		    struct cost_ref *ref);
void cost_ref_free(struct cost_ref *ref);

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
 * feature that changes is a difference, not an explanation).
 */
void mutate_observe(const struct run_opts *ro, const char *root,
		    struct kernel *k, const struct kernel_boots *orig_kb,
		    const struct record_set *orig, struct mutant_obs *ob);
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
/* The guest reached its tests (sent its identity) in every boot's run. */
bool mutate_reached(const struct kernel_boots *kb);

#endif
