/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The local engine: the units of a plan run here, independent ones side
 * by side, as many as the machine holds (pool_slots()), each as its own
 * `lsmconf unit` process, so that running here and on any other engine is
 * one code path.
 */
#ifndef LSMCONF_POOL_H
#define LSMCONF_POOL_H

#include <stdbool.h>
#include <stddef.h>

struct unit_plan;
struct err;

/*
 * Guests that fit side by side: one per CPU (a TCG guest is one busy host
 * thread) and as many as @mem_avail_mb holds at @guest_mb each plus
 * QEMU's own; at least one.
 */
int pool_slots(long cpus, long mem_avail_mb, int guest_mb);
/* This machine's pool_slots() for guests of @guest_mb. */
int pool_slots_here(int guest_mb);

enum pool_state { POOL_WAIT, POOL_RUNNING, POOL_DONE, POOL_FAILED };

/*
 * The next unit of @p that may start (its dependencies done, a slot free,
 * and for a build: nothing running; nothing beside a running build), or
 * -1: the first in plan order of those that run beside others, else the
 * first build. Units whose dependency failed are marked failed on the way.
 */
int pool_pick(const struct unit_plan *p, enum pool_state *state, int slots);

/*
 * The seconds left of @p's units not done: each costs the mean of the
 * units of its kind that finished in this run (@took[i] >= 0), else the
 * mean of all that finished; exclusive kinds (builds) one at a time, the
 * others @slots at a time; a running unit less what it has run
 * (@ran_for[i]), never below 0. -1 when none has finished yet.
 */
double pool_eta(const struct unit_plan *p, const enum pool_state *state,
		const double *took, const double *ran_for, int slots);

/*
 * Runs every unit of @p that is not done in @store, each as
 * "@self unit --store @store ID", up to @slots at a time; after a unit
 * fails, none starts (those running end). Returns how many are not done;
 * their ids and descriptions are printed. With each unit that ends, a
 * note says how many of how many are done and about how long is left
 * (pool_eta()).
 */
size_t pool_run(const struct unit_plan *p, const char *store, const char *self,
		int slots);

#endif
