/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The work layer, between the command line and the layers that boot and
 * judge: units of work and their store (units.h), the local engine that
 * runs them (pool.h), the steps every command's units take (steps.c) and
 * a boot's results kept for reuse (reuse.c). lib/ knows nothing of units.
 */
#ifndef LSMCONF_WORK_H
#define LSMCONF_WORK_H

#include "session/session.h"
#include "pool.h"
#include "units.h"

struct err;
struct kernel;

/*
 * A command cut into units of work (units.h): its plan, its units run and
 * its merge; compare, mutate, bench, series and coverage each define one.
 */
struct unit;
struct unit_plan;
struct unit_cmd {
	const char *name;
	/*
	 * Parses the command's arguments (@argv[0] is the command; the words
	 * are kept) and plans its units into @p, ordered; sets *@o to its run
	 * options and returns what run and merge need. Dies on bad input.
	 */
	void *(*plan)(int argc, char **argv, struct unit_plan *p,
		      const struct run_opts **o);
	/*
	 * Runs @u, its dependencies done in @store, into the new directory
	 * @dir (its stdout is the unit's output.txt). 0, or -1 and @e.
	 */
	int (*run)(void *ctx, const struct unit_plan *p, const struct unit *u,
		   const char *store, const char *dir, struct err *e);
	/*
	 * The command's report, results files (in @root) and exit status,
	 * from the finished units of @p in @store.
	 */
	int (*merge)(void *ctx, const struct unit_plan *p, const char *store,
		     const char *root);
	/*
	 * merge --partial: the report of the results there are so far, what
	 * is not done yet counted as pending. NULL: the command's report
	 * needs every unit.
	 */
	int (*merge_partial)(void *ctx, const struct unit_plan *p,
			     const char *store, const char *root);
	/*
	 * A command whose next units depend on results (series): adds to @p
	 * the units that the finished ones of @store call for, and returns
	 * how many it added (0: none, the plan is whole once they are done).
	 * @store NULL: the units planned before any result. NULL for a
	 * command planned whole at once.
	 */
	size_t (*extend)(void *ctx, struct unit_plan *p, const char *store);
};

/* The inputs of run options that make one boot differ from another. */
char *unit_run_key(const struct run_opts *o);

/*
 * A provision or build unit: u->spec provisioned, kernel.tsv (status,
 * source, times) and its config in @dir. A build that fails by the
 * kernel's own fault (err.kernel: a patch refused, a compile error) is a
 * result (status failed) when @failure_is_result. 0, or -1 and @e.
 */
int unit_provision(const struct run_opts *o, const struct unit *u,
		   const char *dir, bool failure_is_result, struct err *e);

/*
 * A boot unit: u->spec booted with u->lsm into @dir/u->name-LSM, and its
 * verdict (PASS, FAIL). 0, or -1 and @e.
 */
int unit_boot(const struct run_opts *o, const struct unit *u, const char *dir,
	      struct err *e);

/*
 * A kernel's units, as compare and coverage plan them: its provision (a
 * build: for build:) unit, whose index is returned, and one boot unit per
 * LSM of @lsm (their indexes into @boot), keyed by @run_key
 * (unit_run_key()).
 */
size_t unit_plan_kernel(struct unit_plan *p, const char *spec,
			const char *const *lsm, size_t n_lsm,
			const char *run_key, size_t *boot);

/* Runs a unit of unit_plan_kernel(): unit_boot() or unit_provision(). */
int unit_run_kernel(const struct run_opts *o, const struct unit *u,
		    const char *dir, struct err *e);

/*
 * A boot's results never produced twice (reuse.c): the key of unit
 * @u's boot of @k (NULL: a kernel that always boots), a copy of the kept
 * results as @dir/@name (1, its report printed; 0: none kept), and a
 * passing boot's results kept.
 */
struct kernel;
char *reuse_key(const struct run_opts *o, const struct unit *u,
		const struct kernel *k);
int reuse_take(const char *key, const char *dir, const char *name);
void reuse_keep(const char *key, const char *dir, const char *name);

#endif
