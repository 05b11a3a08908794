/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The functions of an LSM's files that no boot of a coverage run called,
 * each with what the hook table says of the hook it implements: its
 * status and reason (hookreasons.h), a gap, or no hook at all (a helper,
 * with its own reason from fixtures/uncovered-reasons.tsv, read as
 * hookreasons.h reads hook-reasons.tsv, or none). Pure of I/O.
 */
#ifndef LSMCONF_UNCOVERED_H
#define LSMCONF_UNCOVERED_H

#include "lib/lib.h"

#include <stdbool.h>
#include <stddef.h>

struct lcov_file;
struct hookreasons;

/* One hook's verdict in the hook table, by the function implementing it. */
struct hook_verdict {
	const char *hook;
	const char *function;
	const char *status; /* hook_status_name() */
	const char *reason; /* fixtures/hook-reasons.tsv's, or "-" */
	bool gap; /* hook_status_gap() */
};

/* An LSM's functions never called, by what they implement. */
struct uncovered_sum {
	size_t never; /* functions never called */
	size_t reasoned; /* a hook listed with a reason */
	size_t gap; /* a hook the table calls a gap */
	size_t helper_reasoned; /* no hook, a reason of its own */
	size_t helper; /* no hook, no reason */
};

/*
 * Appends to @out one row for each function of @f (its path @path)
 * whose count is 0: "path\tfunction\tline\thook\tstatus\treason", the
 * hook of @v (@nv verdicts) it implements, or "-" for a helper, whose
 * status is its row of @helpers for LSM @lsm ("boot only", ...) or "no
 * hook"; counts them into @sum.
 */
void uncovered_rows(const struct lcov_file *f, const char *path,
		    const struct hook_verdict *v, size_t nv,
		    const struct hookreasons *helpers, const char *lsm,
		    struct sbuf *out, struct uncovered_sum *sum);

#endif
