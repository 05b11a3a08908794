/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Mutants: small patches to a kernel's LSM code, each a plausible mistake,
 * that the suite must tell from the original (fixtures/mutants/).
 */
#ifndef LSMCONF_MUTATE_H
#define LSMCONF_MUTATE_H

#include <stdbool.h>
#include <stddef.h>

struct mutant {
	char *name; /* file name without .patch */
	char *path;
	char *desc; /* the patch's first line: the bug, in one line */
	char *equivalent; /* "Equivalent: REASON" in the header, or NULL */
	/* The LSM every file it patches belongs to, or NULL (several). */
	const char *lsm;
};

/*
 * Reads a patch's header (everything before the first "--- " line): its
 * first line is the description. Returns 0, or -1 when there is no
 * description or no diff at all.
 */
int mutant_header(const char *text, char **desc, char **equivalent);

/*
 * The LSM a patch touches: "apparmor" or "selinux" when every file it
 * patches (+++ b/security/LSM/...) is that LSM's, else NULL.
 */
const char *mutant_lsm(const char *patch);

/* Whether the comma-separated list @lsms names @lsm. */
bool lsm_listed(const char *lsms, const char *lsm);

struct err;

/*
 * The mutants in @dir (*.patch, sorted), or only those named in @only.
 * Returns 0, or -1 with a one-line message in @e on a missing directory,
 * an unknown name, no mutant at all or a patch without a description.
 */
int mutants_list(const char *dir, char *const *only, size_t n_only,
		 struct mutant **out, size_t *n, struct err *e);
void mutant_clear(struct mutant *m);
void mutants_free(struct mutant *m, size_t n);

enum mutant_verdict {
	MUTANT_KILLED,
	MUTANT_SURVIVED,
	MUTANT_STILLBORN, /* does not build: says nothing about the suite */
};

/*
 * A mutant is killed when a decision differs unexplained from the
 * original's, or when its run fails on its own (a decision not as the
 * test expected, a lost case, a crash) in two runs: @run_ok is false only
 * when the failure repeated.
 */
enum mutant_verdict mutant_judge(bool built, bool run_ok, size_t unexplained);
const char *mutant_verdict_name(enum mutant_verdict v);

#endif
