// SPDX-License-Identifier: GPL-2.0
/* The local engine (pool.h): fork + wait, bounded by the machine. */
#define _GNU_SOURCE
#include "pool.h"
#include "units.h"
#include "lib/lib.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* QEMU's own memory beside its guest's, per TCG guest (measured ~200 MB). */
#define QEMU_OVERHEAD_MB 256
/* At most this many units at once: spawn.c stops at most 32 children. */
#define POOL_MAX 32

int pool_slots(long cpus, long mem_avail_mb, int guest_mb)
{
	long by_mem = mem_avail_mb / (guest_mb + QEMU_OVERHEAD_MB);
	long n = cpus < by_mem ? cpus : by_mem;

	if (n > POOL_MAX)
		n = POOL_MAX;
	return n < 1 ? 1 : (int)n;
}

/* MemAvailable of /proc/meminfo in MB, or -1. */
static long mem_available_mb(void)
{
	char *text, *p;
	long kb = -1;

	if (read_file("/proc/meminfo", &text, NULL))
		return -1;
	p = strstr(text, "MemAvailable:");
	if (p)
		kb = strtol(p + strlen("MemAvailable:"), NULL, 10);
	free(text);
	return kb < 0 ? -1 : kb / 1024;
}

int pool_slots_here(int guest_mb)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	long mem = mem_available_mb();

	return pool_slots(cpus > 0 ? cpus : 1, mem > 0 ? mem : guest_mb,
			  guest_mb);
}

/* The state of the unit @id of @p. */
static enum pool_state dep_state(const struct unit_plan *p,
				 const enum pool_state *state, const char *id)
{
	const struct unit *d = unit_find(p, id);

	/* Not in the plan: nothing here can make it, so it failed. */
	return d ? state[d - p->v] : POOL_FAILED;
}

int pool_pick(const struct unit_plan *p, enum pool_state *state, int slots)
{
	size_t i, j, running = 0;
	bool busy_exclusive = false;
	int build = -1;

	for (i = 0; i < p->n; i++) {
		if (state[i] != POOL_RUNNING)
			continue;
		running++;
		busy_exclusive |= unit_kind_exclusive(p->v[i].kind);
	}
	for (i = 0; i < p->n; i++) {
		bool ready = true;

		if (state[i] != POOL_WAIT)
			continue;
		for (j = 0; j < p->v[i].n_deps; j++) {
			enum pool_state s =
				dep_state(p, state, p->v[i].deps[j]);

			if (s == POOL_FAILED) {
				state[i] = POOL_FAILED;
				ready = false;
				break;
			}
			ready &= s == POOL_DONE;
		}
		if (!ready || busy_exclusive)
			continue;
		/*
		 * A unit that runs beside others goes before one that runs
		 * alone: the total is the same (a build overlaps nothing), and
		 * what a build was for (a mutant's boots) is done before the
		 * next build, so results come as the run goes.
		 */
		if (unit_kind_exclusive(p->v[i].kind)) {
			if (!running && build < 0)
				build = (int)i;
		} else if ((int)running < slots) {
			return (int)i;
		}
	}
	return build;
}

struct child {
	pid_t pid;
	int pidfd;
	size_t unit;
	double t0;
};

/* Starts unit @i; false (and the unit failed) when it could not. */
static bool start(const struct unit_plan *p, size_t i, const char *store,
		  const char *self, struct child *c)
{
	/* Its one-line summary goes where notes go: stdout is the report. */
	struct spawn_opts so = { .stdin_fd = -1,
				 .stdout_fd = STDERR_FILENO,
				 .stderr_fd = -2,
				 .relay = true };
	char *argv[] = { (char *)self,	     "unit", "--store", (char *)store,
			 (char *)p->v[i].id, NULL };

	c->pid = spawn_start(argv, &so, &c->pidfd);
	if (c->pid < 0) {
		note("unit %s (%s): cannot start %s: %s", p->v[i].id,
		     p->v[i].desc, self, strerror((int)-c->pid));
		return false;
	}
	c->unit = i;
	c->t0 = now_seconds();
	return true;
}

double pool_eta(const struct unit_plan *p, const enum pool_state *state,
		const double *took, const double *ran_for, int slots)
{
	double sum[UNIT_N_KINDS] = { 0 }, all = 0, serial = 0, side = 0;
	size_t n[UNIT_N_KINDS] = { 0 }, n_all = 0, i;

	for (i = 0; i < p->n; i++) {
		if (took[i] < 0)
			continue;
		sum[p->v[i].kind] += took[i];
		n[p->v[i].kind]++;
		all += took[i];
		n_all++;
	}
	if (!n_all)
		return -1;
	for (i = 0; i < p->n; i++) {
		enum unit_kind k = p->v[i].kind;
		double each = n[k] ? sum[k] / n[k] : all / n_all;

		if (state[i] == POOL_DONE || state[i] == POOL_FAILED)
			continue;
		if (state[i] == POOL_RUNNING)
			each = each > ran_for[i] ? each - ran_for[i] : 0;
		if (unit_kind_exclusive(k))
			serial += each;
		else
			side += each;
	}
	return serial + side / (slots > 0 ? slots : 1);
}

/* "N of M units done; about T left" after a unit of @p ended. */
static void progress_note(const struct unit_plan *p,
			  const enum pool_state *state, const double *took,
			  const struct child *run, size_t n_run, int slots)
{
	double *ran_for = xcalloc(p->n ? p->n : 1, sizeof(*ran_for));
	double now = now_seconds(), eta;
	size_t i, done = 0;

	for (i = 0; i < n_run; i++)
		ran_for[run[i].unit] = now - run[i].t0;
	for (i = 0; i < p->n; i++)
		done += state[i] == POOL_DONE;
	eta = pool_eta(p, state, took, ran_for, slots);
	if (eta < 0)
		note("progress: %zu of %zu units done", done, p->n);
	else if (eta < 90)
		note("progress: %zu of %zu units done; about %.0f s left", done,
		     p->n, eta);
	else
		note("progress: %zu of %zu units done; about %.0f min left",
		     done, p->n, eta / 60);
	free(ran_for);
}

size_t pool_run(const struct unit_plan *p, const char *store, const char *self,
		int slots)
{
	enum pool_state *state = xcalloc(p->n ? p->n : 1, sizeof(*state));
	bool *ran = xcalloc(p->n ? p->n : 1, sizeof(*ran));
	double *took = xcalloc(p->n ? p->n : 1, sizeof(*took));
	struct child run[POOL_MAX + 1];
	size_t i, n_run = 0, failed = 0;
	char why[64];
	int pick;

	for (i = 0; i < p->n; i++) {
		state[i] =
			store_done(store, p->v[i].id) ? POOL_DONE : POOL_WAIT;
		took[i] = -1; /* done before, or not yet: not measured here */
	}
	for (;;) {
		struct pollfd pfd[POOL_MAX + 1];
		int ret;

		/* After a failure nothing new starts: the command cannot merge. */
		while (!failed && n_run < POOL_MAX &&
		       (pick = pool_pick(p, state, slots)) >= 0) {
			ran[pick] = true;
			if (start(p, pick, store, self, &run[n_run])) {
				state[pick] = POOL_RUNNING;
				n_run++;
			} else {
				state[pick] = POOL_FAILED;
				failed++;
			}
		}
		if (!n_run)
			break;
		for (i = 0; i < n_run; i++)
			pfd[i] = (struct pollfd){ .fd = run[i].pidfd,
						  .events = POLLIN };
		/* Each unit bounds its own boots and builds in time. */
		ret = poll(pfd, n_run, -1);
		if (ret < 0 && errno != EINTR)
			bug("poll on the units' pidfds: %s", strerror(errno));
		for (i = 0; ret > 0 && i < n_run; i++) {
			struct child *c = &run[i];
			const struct unit *u = &p->v[c->unit];
			int st;

			if (!pfd[i].revents)
				continue;
			st = spawn_finish(c->pid, c->pidfd, 0);
			if (st == 0 && store_done(store, u->id)) {
				state[c->unit] = POOL_DONE;
				took[c->unit] = now_seconds() - c->t0;
			} else {
				state[c->unit] = POOL_FAILED;
				failed++;
				note("unit %s (%s) failed after %.0f s: %s",
				     u->id, u->desc, now_seconds() - c->t0,
				     spawn_strstatus(st, why, sizeof(why)));
			}
			/* Each pidfd is polled once: the last takes its place. */
			pfd[i] = pfd[n_run - 1];
			run[i--] = run[--n_run];
			if (!failed)
				progress_note(p, state, took, run, n_run,
					      slots);
		}
	}
	for (failed = 0, i = 0; i < p->n; i++) {
		if (state[i] == POOL_DONE)
			continue;
		failed++;
		/* A unit that ran and failed has said so above. */
		if (!ran[i])
			note("unit %s (%s) not run: a unit failed before it",
			     p->v[i].id, p->v[i].desc);
	}
	free(ran);
	free(took);
	free(state);
	return failed;
}
