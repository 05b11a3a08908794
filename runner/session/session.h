/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A session: a provisioned kernel booted once per LSM with the suite, a
 * results directory per boot (what run, compare, bench, msgcost and
 * mutate all do). Above vm/ (the boots) and results/ (the accounting).
 */
#ifndef LSMCONF_RUN_H
#define LSMCONF_RUN_H

#include <stdbool.h>
#include <stddef.h>

struct run_opts {
	char **tests; /* only these test binaries (NULL: all) */
	size_t n_tests;
	const char *args; /* arguments for every test binary */
	const char *append; /* extra kernel command line */
	const char *results; /* results root */
	const char *tests_root; /* installed selftests, a directory per LSM */
	const char *tests_dir; /* NULL: tests_root/<lsm> */
	const char *lsms; /* LSMs to boot with, comma-separated */
	const char *lsm; /* this boot's LSM (set per boot) */
	/* A pinned feature set (abi/NAME) AppArmor policy is compiled for. */
	const char *abi;
	/* 0: the timeout= of the tests directory's kselftest settings file */
	int test_timeout_s;
	int boot_timeout_s; /* 0: derived from the plan */
	int memory_mb;
	int cpus;
	int jobs; /* --jobs: units at once here (0: what the machine holds) */
	bool refresh;
	bool icount; /* guest time counts instructions (TCG only; one vCPU) */
	/*
	 * Under icount, the guest's clock starts at a fixed date chosen by
	 * this seed: a boot then repeats instruction for instruction, and
	 * another seed gives another draw of its per-boot random state.
	 */
	int seed;
	/* The instruction profile plugin (runner/qemu/insn_plugin.c) is on. */
	bool profile;
	/* The first boot runs run_kselftest.sh -c COLLECTION, once. */
	bool whole;
	/* Known kernel bugs (results/known.h), or NULL, and their file. */
	struct known_list *known;
	const char *known_path;
	const char *
		dir_name; /* results subdirectory (+ "-<lsm>"); NULL: the spec */
};

struct err;
struct kernel;

/*
 * The LSMs of o->lsms that have something to run: with --test, those whose
 * test directory holds one of the named tests (a name found nowhere is an
 * error). Returns how many were put in @out (at most @max), or -1 with the
 * reason in @e (an unknown LSM, a test found nowhere, nothing to run).
 */
int run_lsms(const struct run_opts *o, const char **out, size_t max,
	     struct err *e);

/*
 * Whether the kernel command line of every LSM's boot (its own arguments,
 * the pinned feature set, --append) fits what the kernel takes; 0, or -1
 * and @e. Asked before anything is fetched or booted.
 */
int run_check_cmdline(const struct run_opts *o, struct err *e);

/* The boots of one kernel, one per LSM, and their results directories. */
struct kernel_boots {
	size_t n;
	const char *lsm[4];
	char *dir[4];
	bool ok; /* every boot passed */
};

/* Boots @k once per LSM of @o (see run_lsms()); 0, or -1 and @e. */
int run_kernel_lsms(const struct run_opts *o, const char *root,
		    struct kernel *k, struct kernel_boots *kb, struct err *e);
void kernel_boots_free(struct kernel_boots *kb);

struct record_set;
struct known_list;
/*
 * The decision records of every boot of @kb, as one set, each that shows
 * a bug of @known (NULL: no list) on this kernel marked (record.known):
 * judged here against today's list, by the kernel's names in its
 * kernel.txt, never read from a saved known.tsv. Each boot's files are
 * checked first (saved_check_files()) and its records.tsv read strictly
 * (header, every line; records_check()); a boot without one recorded
 * nothing. 0, or -1 with a one-line reason naming the file in @e.
 */
int run_load_records(const struct kernel_boots *kb, struct known_list *known,
		     struct record_set *set, struct err *e);
/*
 * The crashes of @kb's boots that were a bug of @known, its signature
 * checked against each boot's crash-N.txt (today's list, never a saved
 * known-crashes.tsv), as known-crashes.tsv lines ("CASE<TAB>BUG<TAB>boot
 * N"), malloc'd, or NULL when there were none.
 */
char *run_known_crashes(const struct kernel_boots *kb,
			struct known_list *known);

/*
 * The value of @key in the kernel.txt of every boot of @kb, when they all
 * record the same one (not "-"), malloc'd; else NULL.
 */
char *run_kernel_value(const struct kernel_boots *kb, const char *key);

/*
 * The file @name the guest left in the boot directory @dir ("" when it
 * left none), malloc'd; its path, for messages, in *@path (malloc'd).
 */
char *run_guest_file(const char *dir, const char *name, char **path);

/*
 * A new results directory under @base (and @base/latest pointing to it),
 * or NULL with the reason in @e.
 */
char *run_results_root(const char *base, struct err *e);
/*
 * Boots the provisioned kernel @k once with the suite, into a directory
 * under @root (returned in *@dir when @dir is not NULL). 1 when every
 * planned case passed or was skipped and the boot had no problem, 0 when
 * not, -1 with the reason in @e when it could not run (an unknown LSM, a
 * directory it cannot create, none of the named tests there).
 */
int run_kernel(const struct run_opts *o, const char *root, struct kernel *k,
	       char **dir, struct err *e);

#endif
