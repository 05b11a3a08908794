/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bisection planner of a patch series: which kernel to build or boot
 * next, and the first patch of each kind of change. Pure logic: the caller
 * builds, boots and compares, then records what it saw.
 *
 * Kernel i (0..n) is the base plus the first i patches: 0 is the base, n
 * the tip. A kind of change, once a patch introduced it, is assumed to stay
 * in every later kernel (a later patch that reverts it is outside what a
 * bisection can name); an observation that breaks this is reported as
 * inconsistent for that kind, never bisected again.
 */
#ifndef LSMCONF_BISECT_H
#define LSMCONF_BISECT_H

#include <stdbool.h>
#include <stddef.h>

struct err;

/* A kind of change against the base, each bisected on its own. */
enum bisect_kind {
	BISECT_DECISIONS, /* a decision differs, unexplained */
	BISECT_FAILURE, /* a case failed (confirmed by a second boot) */
	BISECT_COST, /* the cost per message changed significantly */
	BISECT_N_KINDS,
};

/* How far a kernel got. */
enum bisect_outcome {
	BISECT_OK, /* built and booted: the kinds are observed */
	BISECT_NO_APPLY, /* a patch did not apply (@patch says which) */
	BISECT_NO_BUILD,
	BISECT_NO_BOOT,
};

struct bisect_obs {
	enum bisect_outcome outcome;
	size_t patch; /* BISECT_NO_APPLY: the first patch, 1..n, refused */
	bool present[BISECT_N_KINDS]; /* BISECT_OK: each kind seen or not */
	/*
	 * BISECT_OK: this boot decides nothing alone (mutant_rerun_reason():
	 * a record on one side only, a lost case, a failure): every kind of
	 * the suites it shows is booted again, and only what repeats counts.
	 */
	bool confirm;
};

enum bisect_step {
	BISECT_BUILD, /* build kernel @index (then boot it) */
	BISECT_RERUN, /* boot kernel @index again, no build */
	BISECT_DONE,
};

struct bisect_next {
	enum bisect_step step;
	size_t index;
};

/* What is known of one kernel. */
enum bisect_kstate {
	BISECT_UNTRIED,
	BISECT_OBSERVED,
	BISECT_REFUSED, /* its last patch does not apply */
	BISECT_MISSING, /* an earlier patch does not apply: cannot exist */
	BISECT_UNBUILT, /* does not build */
	BISECT_UNBOOTED, /* built, but no boot reached its tests, twice */
	BISECT_BOOT_AGAIN, /* built, one boot failed: boots again */
};

/* One kind as seen in one kernel. */
enum bisect_seen {
	BISECT_UNSEEN,
	BISECT_ABSENT,
	BISECT_PRESENT,
	BISECT_UNCONFIRMED, /* a failure seen once: boots again */
	BISECT_FLAKY, /* a failure the second boot did not repeat */
};

enum bisect_verdict {
	BISECT_OPEN, /* still bisecting */
	BISECT_NONE, /* not in the last kernel that could be observed */
	BISECT_FOUND, /* the first patch is @first */
	BISECT_RANGE, /* one of @first..@last: the others were unobservable */
	BISECT_PREEXISTING, /* already in the base */
	BISECT_INCONSISTENT, /* in kernel @first, gone again in kernel @last */
	BISECT_UNKNOWN, /* the base or every later kernel unobservable */
	/*
	 * Kernel @first showed it in one boot and not in the next, and the
	 * first patch lies in @first..@last: no patch can be named.
	 */
	BISECT_INCONCLUSIVE,
};

struct bisect_culprit {
	enum bisect_verdict verdict;
	size_t first, last; /* patch numbers, 1..n (see the verdicts) */
};

struct bisect;

/* A planner for @n patches (n >= 1). */
struct bisect *bisect_new(size_t n);
void bisect_free(struct bisect *b);

/*
 * What to do next: a rerun before any build (a failure to confirm, a boot
 * to retry), the base, the last kernel that can exist, then the index that
 * narrows the most open kinds at once, most evenly.
 */
struct bisect_next bisect_next(struct bisect *b);

/*
 * Records what the step bisect_next() gave showed for kernel @index (for
 * a rerun that confirms: what the boots repeat, the first and this one).
 * Returns 0, or -1 with a one-line message in @e when @index is not the
 * planned step's or @o does not fit it (a rerun cannot fail to build).
 */
int bisect_record(struct bisect *b, size_t index, const struct bisect_obs *o,
		  struct err *e);

struct bisect_culprit bisect_culprit(const struct bisect *b,
				     enum bisect_kind kind);
enum bisect_kstate bisect_kernel_state(const struct bisect *b, size_t index);
enum bisect_seen bisect_seen(const struct bisect *b, size_t index,
			     enum bisect_kind kind);
/* The patch that does not apply (1..n), or 0. */
size_t bisect_refused(const struct bisect *b);
/* Builds asked for beyond the base and the tip (kernel n). */
size_t bisect_builds(const struct bisect *b);
/* Boots asked for again (confirmations and retries). */
size_t bisect_reruns(const struct bisect *b);

const char *bisect_kind_name(enum bisect_kind kind);
const char *bisect_verdict_name(enum bisect_verdict v);

#endif
