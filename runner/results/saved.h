/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Saved results directories read back (`lsmconf compare --saved`,
 * `lsmconf kcidb`): a boot's kernel.txt values, which boots of a run are
 * one kernel, whether a boot passed, and the loader that reads a saved
 * run strictly: every file it uses must be what lsmconf wrote, or the
 * run is refused in one line. The one part of results/ that reads files.
 */
#ifndef LSMCONF_SAVED_H
#define LSMCONF_SAVED_H

#include <stdbool.h>
#include <stddef.h>

struct err;

/* kernel.txt's value of @key (its "key<TAB>value" line), malloc'd, or NULL. */
char *saved_value(const char *text, const char *key);

/*
 * kernel.txt read strictly: every line "KEY<TAB>VALUE" (a key of
 * lowercase letters, digits and '_', once; a value), ended by its
 * newline, no CR; spec and suite present; verdict, when there, PASS or
 * FAIL. 0, or -1 with a one-line reason naming @path and the line in @e.
 */
int saved_kernel_txt_check(const char *text, size_t len, const char *path,
			   struct err *e);

/*
 * The boots of a run by kernel: @specs[i] is boot i's kernel spec (NULL
 * when unknown: an error for the caller). Sets @group[i] to its kernel's
 * index, kernels numbered in the order first seen; returns how many.
 */
size_t saved_group(const char *const *specs, size_t n, size_t *group);

/*
 * Whether a saved boot passed: 1 or 0 from kernel.txt's "verdict" line
 * (PASS/FAIL, as its run printed it); without one (a run of an older
 * lsmconf), @ktap decides (*@from_ktap set): 0 when any test line is "not
 * ok", 1 when there are test lines and none is (a decision not as
 * expected is not seen that way), -1 when there is no test line at all:
 * nothing says the boot ran, it is no results directory.
 */
int saved_verdict(const char *kernel_txt, const char *ktap, int *from_ktap);

/*
 * The files of a boot's directory @dir that commands read back
 * (kernel.txt, ktap.txt, known.tsv, known-crashes.tsv,
 * guest/features.tsv): each, when there, a regular text file within its
 * size limit (lib/input.h). 0, or -1 with @e naming the file.
 */
int saved_check_files(const char *dir, struct err *e);

/*
 * A boot's records.tsv read strictly (records_check(), and no id twice):
 * 0 (also when there is none: the boot recorded nothing), or -1 and @e
 * naming the file and the line.
 */
int saved_check_records(const char *dir, struct err *e);

/* One kernel of a saved run: its boots, one per LSM. */
#define SAVED_MAX_BOOTS 4
/* A run's directory holds at most this many boots. */
#define SAVED_MAX_DIRS 64

struct saved_kernel {
	char *spec, *source, *ident;
	size_t n;
	char *dir[SAVED_MAX_BOOTS];
	char *lsm[SAVED_MAX_BOOTS]; /* kernel.txt's suite of each boot */
	bool ok; /* every boot passed */
	bool old_source, old_verdict; /* an older run left no such line */
};

/*
 * The kernels of saved results @dir into @out (at most @max): a boot's
 * directory (kernel.txt in it) is one kernel; a run's directory holds a
 * boot's directory per kernel and LSM, grouped by kernel spec. Every
 * boot is read strictly (saved_kernel_txt_check(), saved_check_files(),
 * saved_check_records(); a ktap.txt; a verdict, or test lines in
 * ktap.txt). Returns how many kernels, or -1 with a one-line reason in
 * @e (@out then holds nothing to free).
 */
int saved_load(const char *dir, struct saved_kernel *out, size_t max,
	       struct err *e);
void saved_kernel_free(struct saved_kernel *sk);

/*
 * A run's compare.tsv names its A and B in its header ("id<TAB>class
 * <TAB>A<TAB>B..."): 1 when it says @spec_b came first (the two swap), 0
 * when not or when @dir has none, -1 and @e when it is not compare's.
 */
int saved_swapped(const char *dir, const char *spec_b, struct err *e);

#endif
