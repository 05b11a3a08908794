/* SPDX-License-Identifier: GPL-2.0 */
/* `lsmconf coverage`: its report stage (coverage_report.c). */
#ifndef LSMCONF_CLI_COVERAGE_H
#define LSMCONF_CLI_COVERAGE_H

#include "analysis/analysis.h"
#include "lib/lib.h"

#include <stddef.h>

/* One LSM's row of the hook table in sum (hooks.tsv). */
struct coverage_hooks {
	const char *lsm;
	size_t hooks; /* registered (its LSM_HOOK_INIT list) */
	size_t called; /* whose function the counters saw called */
	size_t absent; /* whose function the build has no counters of */
	/* By fixtures/hook-ops.tsv: hooks with an allowed, a denied record. */
	size_t allow_seen, deny_seen;
	/* Records allowed or denied; of them, those no row maps. */
	size_t records, unmapped;
	/* Hooks credited with records that the counters never saw called. */
	struct sbuf uncalled;
	/* By fixtures/hook-reasons.tsv (analysis/hookreasons.h): hooks
	 * reached with both outcomes, listed with a reason; the gaps, and
	 * the reasons of hooks reached with both (stale), by name. */
	size_t both, reasoned;
	struct sbuf gaps, stale;
	/* The functions of its files (security/LSM/) never called, by the
	 * hook they implement (analysis/uncovered.h, uncovered.tsv). */
	struct uncovered_sum never;
};

struct kernel;
struct lcov;
struct err;

/*
 * The gcov counters of every boot of coverage build @k, under each of the
 * @n results directories @lsm_dirs (one an LSM, @lsms), into @out: each
 * boot's lcov capture (boot-N.info), their sum (coverage.info), genhtml's
 * report (html/), coverage.tsv (per file: lines, branches and functions
 * found and hit), hooks.tsv (each LSM's hooks, their calls and the
 * records allowed and denied through them; in sum in @hooks, one an LSM,
 * whose uncalled the caller frees), hooks-unmapped.tsv, uncovered.tsv
 * (every function of an LSM's files never called, and the hook table's
 * word on the hook it implements) and lcov.log; the
 * sum read back into @l. 0, or -1 and @e.
 */
int coverage_report(const struct kernel *k, char *const *lsm_dirs,
		    const char *const *lsms, size_t n, const char *out,
		    struct lcov *l, struct coverage_hooks *hooks,
		    struct err *e);

#endif
