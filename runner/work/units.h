/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Units of work: idempotent steps, each with an id derived from its
 * inputs, planned so that a unit's dependencies come first, and the store
 * (a directory) their results go to. Any engine that maps an index or an
 * id to `lsmconf unit` runs them: the local pool (pool.h), GNU parallel,
 * a Slurm array, a Kubernetes Indexed Job, a CI matrix.
 */
#ifndef LSMCONF_UNITS_H
#define LSMCONF_UNITS_H

#include <stdbool.h>
#include <stddef.h>

struct err;

enum unit_kind {
	UNIT_PROVISION, /* fetch and unpack a kernel */
	UNIT_BUILD, /* build a kernel from source and patches */
	UNIT_BOOT, /* one kernel, its LSMs, the suites */
	UNIT_BENCH, /* one bench boot, timed (under KVM: wall time) */
	UNIT_COUNT, /* one bench boot under QEMU icount: it counts instructions */
	UNIT_N_KINDS,
};

const char *unit_kind_name(enum unit_kind k);
/* The kind named @s, or -1. */
int unit_kind_parse(const char *s);
/*
 * A build takes every CPU, and a timed bench boot's figures are
 * disturbed by what runs beside it: nothing runs beside either. A
 * counted one (icount: guest time is its instruction count) is not.
 */
bool unit_kind_exclusive(enum unit_kind k);
/* A bench boot, timed or counted. */
bool unit_kind_bench(enum unit_kind k);

#define UNIT_ID_LEN 16
#define UNIT_MAX_DEPS 8

struct unit {
	char id[UNIT_ID_LEN + 1];
	enum unit_kind kind;
	char deps[UNIT_MAX_DEPS][UNIT_ID_LEN + 1];
	size_t n_deps;
	char *desc; /* one line, for people */
	int level; /* 0: no dependency; else 1 + its deepest dependency's */
	/* What the planning command needs to run it (not in plan.tsv). */
	char *spec, *lsm, *name;
	int role;
};

struct unit_plan {
	struct unit *v;
	size_t n;
};

/*
 * Adds a unit whose id hashes @kind, @key (every input that matters) and
 * the ids of @deps (indexes into @p); returns its index. A unit with the
 * same id is not added twice: its index is returned. @desc is copied.
 */
size_t unit_add(struct unit_plan *p, enum unit_kind kind, const char *key,
		const size_t *deps, size_t n_deps, const char *desc);
/* The unit with id @id, or NULL. */
struct unit *unit_find(const struct unit_plan *p, const char *id);
/*
 * Orders @p by level, builds first within a level (a unit's
 * dependencies then come first, and each step below is one range).
 */
void unit_plan_order(struct unit_plan *p);
void unit_plan_free(struct unit_plan *p);

/* "ID KIND DEP... -- description\n" for each unit, appended to @out. */
struct sbuf;
void unit_plan_format(const struct unit_plan *p, struct sbuf *out);
/*
 * Parses unit_plan_format()'s text into @p (ids, kinds, dependencies,
 * descriptions; levels recomputed). 0, or -1 and @e naming the line.
 */
int unit_plan_parse(const char *text, struct unit_plan *p, struct err *e);

/*
 * A step: units [first, last] of one level and one class (exclusive or
 * not), which may all run at once once the steps before them are done.
 */
struct unit_step {
	size_t first, last;
	bool exclusive;
};
/* The steps of an ordered plan into @out (at most @max); returns how many. */
size_t unit_steps(const struct unit_plan *p, struct unit_step *out, size_t max);

/*
 * The store: STORE/command (the planned command, NUL-separated: the
 * working directory, then its arguments), STORE/plan.tsv,
 * STORE/units/ID/ (a finished unit: its results, output.txt, done),
 * STORE/locks/ID (flock), STORE/units/.ID.*.tmp (attempts under way).
 */
/* STORE/units/ID, malloc'd. */
char *store_unit_dir(const char *store, const char *id);
/* The unit's result is complete (its done marker is there). */
bool store_done(const char *store, const char *id);
/* The boots a finished boot, bench or count unit's runs left. */
struct unit_boots {
	const char *const *lsms; /* a directory NAME-LSM each */
	size_t n_lsms;
	/*
	 * Which of @lsms ran is not known here (--test keeps the LSMs whose
	 * tests hold one, and they are not installed here): one at least.
	 */
	bool some;
	const char *profile; /* the file QEMU's profile plugin writes */
};
/*
 * What a finished unit must hold besides its done marker (docs/runner-units.md,
 * "Running on many machines"): a store copied in part (an rsync cut
 * short, a cluster's files not all there yet) has the marker and less.
 *  - provision, build: kernel.tsv with its status line;
 *  - boot: verdict (PASS, FAIL or NOBUILD), or runs (a mutant's boot
 *    unit: "NAME PASS|FAIL" a run, none when its build failed);
 *  - bench, count: verdict;
 * and for each run that booted, its boot directories NAME-LSM (NAME:
 * @u->name, or each run's) as @b says, each with kernel.txt and ktap.txt,
 * records.tsv when kernel.txt counts decisions (or, written before it
 * did, when guest/records.tsv is there), and for a bench or count boot
 * that passed guest/samples.tsv (unless its test was skipped) and
 * @b->profile when QEMU ran the profile plugin. Appends what unit @u
 * lacks to @out (paths in its directory, joined with ", ") and returns
 * how many.
 */
size_t store_unit_lacks(const char *store, const struct unit *u,
			const struct unit_boots *b, struct sbuf *out);
/*
 * Takes the unit's lock, waiting for another process that holds it;
 * returns the descriptor to pass to store_unlock(), or -1 and @e.
 */
int store_lock(const char *store, const char *id, struct err *e);
void store_unlock(int fd);
/*
 * A new empty directory for an attempt at the unit (under the lock; an
 * earlier attempt's leftovers are removed first), or NULL and @e.
 */
char *store_begin(const char *store, const char *id, struct err *e);
/*
 * Writes @done (the done marker's text) into @tmp and renames @tmp into
 * place. When the unit is already there (a host that took no lock, on a
 * file system without flock, finished first), @tmp is removed and the
 * finished result kept. 0, or -1 and @e.
 */
int store_commit(const char *store, const char *id, const char *tmp,
		 const char *done, struct err *e);
/*
 * Saves the command @argv (@argc words) planned from @cwd and its plan
 * text in @store; a store holding another command is an error. 0, or -1
 * and @e.
 */
int store_save(const char *store, const char *cwd, char *const *argv, int argc,
	       const char *plan, struct err *e);
/*
 * Replaces @store's plan.tsv with @plan (a temporary file renamed into
 * place: a reader sees the old plan or the new one). For a command whose
 * plan grows with its results (series). 0, or -1 and @e.
 */
int store_plan_write(const char *store, const char *plan, struct err *e);
/*
 * The saved command: *@cwd and *@argv (NULL-terminated, @argc words), all
 * in one malloc'd block (*@block), and the plan text (malloc'd). 0, or -1
 * and @e.
 */
int store_load(const char *store, char **block, char **cwd, char ***argv,
	       int *argc, char **plan, struct err *e);

#endif
