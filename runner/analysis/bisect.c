// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "bisect.h"
#include "lib/lib.h"

#include <stdlib.h>
#include <string.h>

/*
 * The bound. One kind alone is a binary search over the n patches that
 * may have introduced it: ceil(log2(n)) builds beyond base and tip. With
 * two kinds, both start in the same interval (0, n]: a build at its middle
 * splits both. While they stay together each build halves their common
 * interval; once a build separates them, each lies in an interval of at
 * most 2^(ceil(log2(n)) - 1) patches, bisected alone. So at most
 * 1 + 2 * (ceil(log2(n)) - 1) = 2 * ceil(log2(n)) - 1 builds for n >= 2,
 * and K kinds take at most K * (ceil(log2(n)) - 1) + 1. That is within the
 * issue's ceil(log2(n)) + 2 up to n = 8 (the 6-patch fixture: 5), not
 * beyond: for n = 16, culprits at 8 and 9 separate after the first build
 * and leave two bisections of 8, whatever the plan (each build in one
 * interval says one bit of one kind), so 7 builds are needed.
 */

/*
 * A kind whose presence one boot may fake (a bad boot fails a case); any
 * kind of a boot that decides nothing alone (bisect_obs.confirm) too.
 */
static const bool needs_confirm[BISECT_N_KINDS] = {
	[BISECT_FAILURE] = true,
};
/* The kinds a boot of the suites shows (cost has a boot of its own). */
static const bool from_suites[BISECT_N_KINDS] = {
	[BISECT_DECISIONS] = true,
	[BISECT_FAILURE] = true,
};

/* Boots of one kernel at most: a retry after a bad boot, a confirmation. */
#define MAX_BOOTS 3

struct kinfo {
	enum bisect_kstate state;
	bool built; /* its objects exist: a neighbour to copy from */
	unsigned int boots;
	enum bisect_seen seen[BISECT_N_KINDS];
};

struct bisect {
	size_t n;
	size_t last; /* the last kernel that can exist */
	size_t refused; /* the patch that does not apply, or 0 */
	struct kinfo *k;
	bool has_pending;
	struct bisect_next pending;
	size_t builds, reruns;
};

struct bisect *bisect_new(size_t n)
{
	struct bisect *b = xcalloc(1, sizeof(*b));

	b->n = n;
	b->last = n;
	b->k = xcalloc(n + 1, sizeof(*b->k));
	return b;
}

void bisect_free(struct bisect *b)
{
	if (!b)
		return;
	free(b->k);
	free(b);
}

/* The highest kernel still worth trying as the tip, or 0. */
static size_t top(const struct bisect *b)
{
	size_t i;

	for (i = b->last; i > 0; i--) {
		enum bisect_kstate s = b->k[i].state;

		if (s == BISECT_UNTRIED || s == BISECT_OBSERVED ||
		    s == BISECT_BOOT_AGAIN)
			return i;
	}
	return 0;
}

/* The interval (good, bad] a kind's first patch lies in; false: no bad. */
static bool interval(const struct bisect *b, enum bisect_kind kind,
		     size_t *good, size_t *bad)
{
	bool has_bad = false;
	size_t i;

	*good = 0;
	*bad = 0;
	for (i = 0; i <= b->last; i++) {
		if (b->k[i].state != BISECT_OBSERVED)
			continue;
		if (b->k[i].seen[kind] == BISECT_ABSENT)
			*good = i;
		else if (b->k[i].seen[kind] == BISECT_PRESENT && !has_bad) {
			*bad = i;
			has_bad = true;
		}
	}
	return has_bad;
}

static bool untried_between(const struct bisect *b, size_t lo, size_t hi)
{
	size_t i;

	for (i = lo + 1; i < hi; i++)
		if (b->k[i].state == BISECT_UNTRIED)
			return true;
	return false;
}

/* The first kernel in (@lo, @hi) whose boots disagreed on @kind, or 0. */
static size_t flaky_between(const struct bisect *b, enum bisect_kind kind,
			    size_t lo, size_t hi)
{
	size_t i;

	for (i = lo + 1; i < hi; i++)
		if (b->k[i].state == BISECT_OBSERVED &&
		    b->k[i].seen[kind] == BISECT_FLAKY)
			return i;
	return 0;
}

static bool any_unconfirmed(const struct bisect *b, enum bisect_kind kind)
{
	size_t i;

	for (i = 0; i <= b->last; i++)
		if (b->k[i].seen[kind] == BISECT_UNCONFIRMED)
			return true;
	return false;
}

struct bisect_culprit bisect_culprit(const struct bisect *b,
				     enum bisect_kind kind)
{
	struct bisect_culprit c = { BISECT_OPEN, 0, 0 };
	const struct kinfo *base = &b->k[0];
	size_t t = top(b), good, bad;

	if (base->state == BISECT_UNTRIED || base->state == BISECT_BOOT_AGAIN ||
	    any_unconfirmed(b, kind))
		return c;
	if (base->state != BISECT_OBSERVED || !t) {
		c.verdict = BISECT_UNKNOWN;
		return c;
	}
	/* A failure of the base's that did not repeat is noise there. */
	if (base->seen[kind] == BISECT_PRESENT) {
		c.verdict = BISECT_PREEXISTING;
		return c;
	}
	if (b->k[t].state != BISECT_OBSERVED)
		return c;
	if (!interval(b, kind, &good, &bad)) {
		c.verdict = b->k[t].seen[kind] == BISECT_ABSENT ?
				    BISECT_NONE :
			    b->k[t].seen[kind] == BISECT_FLAKY ?
				    BISECT_INCONCLUSIVE :
				    BISECT_UNKNOWN;
		c.first = c.last = c.verdict == BISECT_INCONCLUSIVE ? t : 0;
		return c;
	}
	if (bad < good) {
		c.verdict = BISECT_INCONSISTENT;
		c.first = bad;
		c.last = good;
		return c;
	}
	if (untried_between(b, good, bad))
		return c;
	c.first = good + 1;
	c.last = bad;
	/* A kernel in between that did not repeat what it showed. */
	c.verdict = flaky_between(b, kind, good, bad) ? BISECT_INCONCLUSIVE :
		    bad == good + 1		      ? BISECT_FOUND :
							BISECT_RANGE;
	if (c.verdict == BISECT_INCONCLUSIVE)
		c.first = flaky_between(b, kind, good, bad);
	return c;
}

/* Still to narrow, with its interval. */
static bool open_kind(const struct bisect *b, enum bisect_kind kind,
		      size_t *good, size_t *bad)
{
	if (bisect_culprit(b, kind).verdict != BISECT_OPEN)
		return false;
	return interval(b, kind, good, bad) && *good < *bad;
}

/*
 * The untried kernel that splits the most open intervals, then leaves
 * the least to search in the worst case (the sum over open kinds of the
 * larger side), then the lowest: 0 when none splits any.
 */
static size_t best_split(const struct bisect *b, size_t t)
{
	size_t good[BISECT_N_KINDS], bad[BISECT_N_KINDS];
	bool open[BISECT_N_KINDS];
	size_t m, best = 0, best_splits = 0, best_left = 0;
	int k;

	for (k = 0; k < BISECT_N_KINDS; k++)
		open[k] = open_kind(b, k, &good[k], &bad[k]);
	for (m = 1; m < t; m++) {
		size_t splits = 0, left = 0;

		if (b->k[m].state != BISECT_UNTRIED)
			continue;
		for (k = 0; k < BISECT_N_KINDS; k++) {
			if (!open[k])
				continue;
			if (good[k] < m && m < bad[k]) {
				splits++;
				left += m - good[k] > bad[k] - m ? m - good[k] :
								   bad[k] - m;
			} else {
				left += bad[k] - good[k];
			}
		}
		if (!splits)
			continue;
		if (splits > best_splits ||
		    (splits == best_splits && left < best_left)) {
			best = m;
			best_splits = splits;
			best_left = left;
		}
	}
	return best;
}

static struct bisect_next plan(struct bisect *b, enum bisect_step step,
			       size_t index)
{
	b->has_pending = step != BISECT_DONE;
	b->pending = (struct bisect_next){ step, index };
	return b->pending;
}

struct bisect_next bisect_next(struct bisect *b)
{
	size_t i, t;
	int k;

	if (b->has_pending)
		return b->pending;
	for (i = 0; i <= b->last; i++) {
		if (b->k[i].state == BISECT_BOOT_AGAIN)
			return plan(b, BISECT_RERUN, i);
		for (k = 0; k < BISECT_N_KINDS; k++)
			if (b->k[i].seen[k] == BISECT_UNCONFIRMED)
				return plan(b, BISECT_RERUN, i);
	}
	if (b->k[0].state == BISECT_UNTRIED)
		return plan(b, BISECT_BUILD, 0);
	if (b->k[0].state != BISECT_OBSERVED)
		return plan(b, BISECT_DONE, 0);
	t = top(b);
	if (!t)
		return plan(b, BISECT_DONE, 0);
	if (b->k[t].state == BISECT_UNTRIED)
		return plan(b, BISECT_BUILD, t);
	i = best_split(b, t);
	return plan(b, i ? BISECT_BUILD : BISECT_DONE, i);
}

static void observe(struct kinfo *k, const struct bisect_obs *o)
{
	int kind;

	k->state = BISECT_OBSERVED;
	for (kind = 0; kind < BISECT_N_KINDS; kind++)
		k->seen[kind] = !o->present[kind] ? BISECT_ABSENT :
				needs_confirm[kind] || (o->confirm &&
							from_suites[kind]) ?
						    BISECT_UNCONFIRMED :
						    BISECT_PRESENT;
}

static int record_build(struct bisect *b, size_t index,
			const struct bisect_obs *o, struct err *e)
{
	struct kinfo *k = &b->k[index];
	size_t i;

	if (o->outcome == BISECT_NO_APPLY && (!o->patch || o->patch > index))
		return err_set(
			e,
			"kernel %zu: patch %zu cannot be the one that does not apply",
			index, o->patch);
	if (index && index != b->n)
		b->builds++;
	switch (o->outcome) {
	case BISECT_NO_APPLY:
		/* Later kernels cannot exist. */
		b->refused = o->patch;
		b->last = o->patch - 1;
		b->k[o->patch].state = BISECT_REFUSED;
		for (i = o->patch + 1; i <= b->n; i++)
			b->k[i].state = BISECT_MISSING;
		break;
	case BISECT_NO_BUILD:
		k->state = BISECT_UNBUILT;
		break;
	case BISECT_NO_BOOT:
		k->built = true;
		k->boots = 1;
		k->state = BISECT_BOOT_AGAIN;
		break;
	case BISECT_OK:
		k->built = true;
		k->boots = 1;
		observe(k, o);
		break;
	}
	return 0;
}

static int record_rerun(struct bisect *b, size_t index,
			const struct bisect_obs *o, struct err *e)
{
	struct kinfo *k = &b->k[index];
	int kind;

	if (o->outcome != BISECT_OK && o->outcome != BISECT_NO_BOOT)
		return err_set(e,
			       "kernel %zu: a rerun only boots (built before)",
			       index);
	b->reruns++;
	k->boots++;
	if (k->state == BISECT_BOOT_AGAIN) {
		if (o->outcome == BISECT_OK)
			observe(k, o);
		else
			k->state = BISECT_UNBOOTED;
		return 0;
	}
	for (kind = 0; kind < BISECT_N_KINDS; kind++) {
		if (k->seen[kind] != BISECT_UNCONFIRMED)
			continue;
		/* A bad boot neither confirms nor refutes: once more. */
		if (o->outcome == BISECT_NO_BOOT)
			k->seen[kind] = k->boots < MAX_BOOTS ?
						BISECT_UNCONFIRMED :
						BISECT_FLAKY;
		else
			k->seen[kind] = o->present[kind] ? BISECT_PRESENT :
							   BISECT_FLAKY;
	}
	return 0;
}

int bisect_record(struct bisect *b, size_t index, const struct bisect_obs *o,
		  struct err *e)
{
	int rc;

	if (!b->has_pending || b->pending.index != index)
		return err_set(e, "kernel %zu is not the planned step", index);
	if (b->pending.step == BISECT_BUILD)
		rc = record_build(b, index, o, e);
	else
		rc = record_rerun(b, index, o, e);
	/* A refused record leaves the step to be recorded again. */
	if (!rc)
		b->has_pending = false;
	return rc;
}

enum bisect_kstate bisect_kernel_state(const struct bisect *b, size_t index)
{
	return index <= b->n ? b->k[index].state : BISECT_MISSING;
}

enum bisect_seen bisect_seen(const struct bisect *b, size_t index,
			     enum bisect_kind kind)
{
	return index <= b->n ? b->k[index].seen[kind] : BISECT_UNSEEN;
}

size_t bisect_refused(const struct bisect *b)
{
	return b->refused;
}

size_t bisect_builds(const struct bisect *b)
{
	return b->builds;
}

size_t bisect_reruns(const struct bisect *b)
{
	return b->reruns;
}

const char *bisect_kind_name(enum bisect_kind kind)
{
	static const char *const names[] = {
		[BISECT_DECISIONS] = "decisions",
		[BISECT_FAILURE] = "failure",
		[BISECT_COST] = "cost",
	};

	return (unsigned int)kind < BISECT_N_KINDS ? names[kind] : "?";
}

const char *bisect_verdict_name(enum bisect_verdict v)
{
	static const char *const names[] = {
		[BISECT_OPEN] = "open",
		[BISECT_NONE] = "none",
		[BISECT_FOUND] = "found",
		[BISECT_RANGE] = "range",
		[BISECT_PREEXISTING] = "preexisting",
		[BISECT_INCONSISTENT] = "inconsistent",
		[BISECT_UNKNOWN] = "unknown",
		[BISECT_INCONCLUSIVE] = "inconclusive",
	};

	return (unsigned int)v <= BISECT_INCONCLUSIVE ? names[v] : "?";
}
