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
	char *text; /* the whole patch */
	char *equivalent; /* "Equivalent: REASON" in the header, or NULL */
	/* "Cost-only: REASON" in the header: no decision can kill it. */
	bool cost_only;
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
 * Whether a patch's header (before its first "--- " line) has a line
 * "Cost-only: REASON": a mutant that changes no decision, judged only by
 * `mutate --cost`.
 */
bool mutant_cost_only(const char *text);
/*
 * The LSM a patch touches: "apparmor" or "selinux" when every file it
 * patches (+++ b/security/LSM/...) is that LSM's, else NULL.
 */
const char *mutant_lsm(const char *patch);

struct err;

/*
 * The mutants in @dir (*.patch, sorted), or only those named in @only.
 * Returns 0, or -1 with a one-line message in @e on a missing directory,
 * an unknown name, no mutant at all, a patch that is no readable text
 * file, holds no diff, or one whose hunks do not add up (diff_check():
 * the file and line named), or a patch without a description.
 */
int mutants_list(const char *dir, char *const *only, size_t n_only,
		 struct mutant **out, size_t *n, struct err *e);
void mutant_clear(struct mutant *m);
void mutants_free(struct mutant *m, size_t n);

enum mutant_verdict {
	MUTANT_KILLED,
	MUTANT_SURVIVED,
	/* Does not apply, does not build, or never reaches its tests twice. */
	MUTANT_STILLBORN,
	MUTANT_INCONCLUSIVE, /* a failure that did not repeat */
	MUTANT_N_VERDICTS,
};

/* A decision of the mutant's that differs, unexplained, from the original's. */
struct mutant_diff {
	const char *id;
	const char *a,
		*b; /* the original's and the mutant's, "-" when absent */
};

/* A failure of the mutant's own (a known kernel bug's are left out). */
struct mutant_fail {
	/* "TEST/CASE", "TEST", "ID: observed X where Y was expected",
	 * or "boot: WHAT" */
	char *name;
	/* A case that brought the kernel down: its report's first line. */
	char *trace;
};

/* What one run of the suites on a mutant showed. */
struct mutant_run {
	bool reached; /* the guest reached its tests (in every boot's run) */
	/*
	 * Every boot passed. Not evidence by itself: a boot fails on a known
	 * bug the list names for the original only; the failures (its own,
	 * those the original does not show alike) are.
	 */
	bool ok;
	/* Its failures the original shows alike: no change, and named. */
	size_t n_alike;
	const struct mutant_diff *diffs;
	size_t n_diffs;
	const struct mutant_fail *fails;
	size_t n_fails;
};

/* How a mutant was killed (a bit each; several may hold). */
enum mutant_way {
	MUTANT_BY_DECISION = 1, /* a decision differs */
	MUTANT_BY_FAILURE = 2, /* the same case failed in both runs */
	MUTANT_BY_CRASH = 4, /* the same case brought the kernel down twice */
	MUTANT_BY_COST = 8, /* its cost per message changed (mutate --cost) */
};

struct mutant_judgement {
	enum mutant_verdict verdict;
	unsigned int ways;
	/* The killing decisions and failures (pointers into the runs). */
	const struct mutant_diff **diffs;
	size_t n_diffs;
	const struct mutant_fail **fails;
	bool *crashed; /* per killing failure: a crash in both runs */
	size_t n_fails;
	const char *why; /* stillborn, inconclusive: in one line */
};

/* Whether a decision of @d is absent on one side. */
bool mutant_diff_missing(const struct mutant_diff *d);

/*
 * Why the first run @r decides nothing alone (it must run again), or NULL:
 * it never reached its tests, a record is missing on one side (a crash or
 * a timeout may have taken it), it failed with a failure of its own and
 * every decision as the original's, or it failed with nothing named (no
 * failure of its own, none alike on the original).
 */
const char *mutant_rerun_reason(const struct mutant_run *r);

/*
 * The verdict on a mutant (@built: the patch applied and the kernel
 * built) from its first run @r1 and, when mutant_rerun_reason(@r1), its
 * second @r2 (NULL: not run again, inconclusive):
 *  - stillborn: not built, or neither run reached its tests;
 *  - killed by decision: a complete run (tests reached, no record
 *    missing) whose decisions differ, or the same difference in both runs;
 *  - killed by failure (by crash when both runs crashed in it): a failure
 *    of the same name in both runs;
 *  - survived: a first run with nothing changed;
 *  - inconclusive: anything else (a failure that did not repeat).
 * Free @j with mutant_judgement_free().
 */
void mutant_judge(bool built, const struct mutant_run *r1,
		  const struct mutant_run *r2, struct mutant_judgement *j);
void mutant_judgement_free(struct mutant_judgement *j);
const char *mutant_verdict_name(enum mutant_verdict v);
/*
 * The cost verdict on top of @j (mutate --cost), for a mutant killed or
 * survived by its decisions: @changed > 0 (some point's cost changed
 * significantly) kills it by cost; @changed < 0 (not measured) makes a
 * survivor inconclusive, since nothing showed it costs the same; 0 leaves
 * @j as it is. Stillborn and inconclusive mutants stay so.
 */
void mutant_judge_cost(struct mutant_judgement *j, int changed);
struct path_set;
/*
 * A mutant's "Equivalent: REASON" claim, judged: it holds only when the
 * mutant's records equal the original's (@j survived: every case the
 * same, nothing missing, no failure of its own in its run @r1) and its
 * instruction profile equals the original's on every point of @points
 * (space-separated): @prof[0] the original's A, @prof[1] the mutant's
 * cost boot, @prof[2] the original's A2 (bench --profile rows). Per
 * function and point, the mutant's instructions per message B equal A's
 * when |B - A| <= |A2 - A|: within the spread of the original's own two
 * boots, and exactly when A and A2 agree (a function absent counts 0).
 * A point with no profile on any of the three refuses the claim: nothing
 * showed the mutant costs the same there. NULL when the claim holds,
 * else why it is refused, in one line (malloc'd).
 */
char *mutant_equivalence_refused(const struct mutant_judgement *j,
				 const struct mutant_run *r1,
				 const char *points,
				 const struct path_set *prof);

/*
 * "decision", "failure", "crash", "cost" joined with "+", or "-" for
 * none.
 */
const char *mutant_ways_name(unsigned int ways);

/*
 * The failures a boot's ktap.txt reports: every "# not ok" case (as
 * TEST/CASE; one "brought the kernel down" is a crash, with a NULL trace
 * for the caller to fill), every "not ok" test, every "# boot problem"
 * that is the kernel's own report ("boot N: kernel WARNING in ...",
 * numbers in it as N, so two runs' problems compare). Other boot
 * problems (a frame cut short, a boot that died before its tests) are
 * no failure: they may be the host's, and only the guest's reports
 * kill. Appends to @v.
 */
void mutant_ktap_failures(const char *ktap, struct mutant_fail **v, size_t *n);
/*
 * A crash-N.txt ("boot N ended in test T, case C", the reason, a blank
 * line, the kernel's report): "T/C" in @name and the report's first line
 * (its console time stamp dropped; the reason when there is no report)
 * in @line, malloc'd. -1 when @text is not one.
 */
int mutant_crash_note(const char *text, char **name, char **line);
void mutant_fails_free(struct mutant_fail *v, size_t n);
/*
 * Whether failure @f of one kernel's run is among @other's @n (the
 * failures of the kernel it is compared with) alike: the same name (a
 * case, a test, a decision with both its outcomes) and, for a case that
 * brought the kernel down, a crash there too with the same first line of
 * the kernel's report (a kernel report among the boot problems, such as a
 * WARNING, by its text, numbers squashed).
 */
bool mutant_fail_shared(const struct mutant_fail *f,
			const struct mutant_fail *other, size_t n);

#endif
