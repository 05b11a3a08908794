/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The plain-text report of a series check, for a mail reply: every line
 * at most SERIES_REPORT_COLS columns, from what the command found.
 */
#ifndef LSMCONF_SERIES_REPORT_H
#define LSMCONF_SERIES_REPORT_H

#include <stdbool.h>
#include <stddef.h>

#define SERIES_REPORT_COLS 72

enum series_apply {
	SERIES_APPLIES,
	SERIES_REFUSED, /* does not apply */
	SERIES_NOT_REACHED, /* after a patch that does not apply */
};

struct series_report_patch {
	unsigned int number;
	const char *subject;
	enum series_apply apply;
	bool built; /* false: bisection skipped it ("not built") */
	bool build_failed;
	bool boot_failed; /* built, but no boot reached its tests */
	bool observed; /* built and booted: decisions and cost known */
	size_t n_changed; /* decisions changed against the base */
	bool has_cost;
	double cost_pct, cost_lo, cost_hi; /* change and its 95% interval */
	bool cost_significant;
};

struct series_report_culprit {
	const char *kind; /* "decisions changed", "cost per message"... */
	unsigned int first, last; /* a patch, or a range when last > first */
	/*
	 * No patch is named: kernel @first showed the kind in one boot and
	 * not in the next (the change lies in @first..@last).
	 */
	bool inconclusive;
	const char *subject; /* the first patch's */
	const char *const *cases;
	size_t n_cases;
	const char *const *functions; /* behind a cost change */
	size_t n_functions;
};

struct series_report {
	const struct series_report_patch *patches;
	size_t n_patches;
	const struct series_report_culprit *culprits;
	size_t n_culprits;
	size_t max_cases; /* cases shown per culprit (0: all) */
	const char *const *kernels; /* identities: "base: ...", "tip: ..." */
	size_t n_kernels;
	const char *const *commands; /* to reproduce */
	size_t n_commands;
};

/* The report, malloc'd: one line per patch, culprits, kernels, commands. */
char *series_report_text(const struct series_report *r);
/*
 * 0 only when nothing changed unexplained: no culprit (an inconclusive
 * step is none, and fails too), no patch with
 * decisions changed or a significant cost change, none that does not
 * apply or build; else 1.
 */
int series_report_exit(const struct series_report *r);

#endif
