/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A results directory as a KCIDB v5.3 submission (kernelci's report
 * schema, vendored in fixtures/kcidb/): what each case, boot and kernel
 * of lsmconf's results maps to. kcidb_cases.c reads a boot's ktap.txt
 * into its programs and cases; kcidb.c builds the document (jansson),
 * kcidb_runs.c adds the bench, mutate and compare runs' own verdicts.
 * Pure of I/O: the caller reads the files.
 */
#ifndef LSMCONF_KCIDB_H
#define LSMCONF_KCIDB_H
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include "lib/lib.h"
#include "known.h"
#include "records.h"

/* KCIDB's test statuses (the schema's "status" enum). */
enum kcidb_status {
	KCIDB_PASS,
	KCIDB_FAIL,
	KCIDB_SKIP,
	KCIDB_MISS, /* planned, never reported: the guest died first */
	KCIDB_ERROR, /* the program misbehaved: its cases' fate unknown */
	KCIDB_DONE, /* a measurement, no verdict */
	KCIDB_N_STATUS,
};
const char *kcidb_status_name(enum kcidb_status s);

/* One case of a program, as the boot's ktap.txt reports it. */
struct kcidb_case {
	char *name; /* the harness's case name, or "lost_N" (KTAP number N) */
	enum kcidb_status status;
	char *reason; /* a skip's reason, or NULL */
	int crash_boot; /* > 0: the case brought the kernel down in this boot */
};

/* One test program of a boot and its cases. */
struct kcidb_prog {
	char *name;
	enum kcidb_status status;
	char *problem; /* the runner's note on its result line, or NULL */
	struct kcidb_case *cases;
	size_t n;
};

/*
 * The programs of a boot's ktap.txt (@len bytes) with their cases: a
 * case ok is PASS (an xfail too), "# SKIP" SKIP, not ok FAIL, one that
 * brought the kernel down FAIL with its boot; planned cases never
 * reported are MISS, the one the harness had started named from its
 * "RUN" line, the others "lost_N". A program is its result line: PASS,
 * SKIP, else FAIL when a case failed, MISS when cases were lost (or
 * it reported nothing), ERROR when the runner names another problem. Returns 0, or -1 with @e
 * saying why (no plan line, fewer programs than planned: truncated).
 */
int kcidb_progs(const char *ktap, size_t len, struct kcidb_prog **out,
		size_t *n, struct err *e);
void kcidb_progs_free(struct kcidb_prog *p, size_t n);

/*
 * @name as a KCIDB test path segment list appended to @prefix: "/" and
 * ":" separate segments like ".", any other character outside
 * [A-Za-z0-9_-] becomes "_", empty segments are dropped. Malloc'd.
 */
char *kcidb_path(const char *prefix, const char *name);
/* Whether @origin is a KCIDB origin: [a-z0-9_]+. */
bool kcidb_origin_ok(const char *origin);
/*
 * "ORIGIN:KIND-HASH", HASH the first 20 hex digits of the SHA-256 of
 * @identity: the same identity gives the same id, whenever it is made.
 */
char *kcidb_id(const char *origin, const char *kind, const char *identity);
/* SHA-256 over each patch's SHA-256 line ("HEX\n"), KCIDB's patchset_hash. */
void kcidb_patchset_hash(char *const *patch_sha256, size_t n, char hex[65]);

/* One boot's saved results, read by the caller. */
struct kcidb_boot {
	const char *dir_name; /* the boot's directory name in its run */
	const char *kernel_txt;
	const char *ktap;
	size_t ktap_len;
	/* records.tsv, sorted, its known.tsv marked (records_mark_known()) */
	const struct record_set *recs;
	const char *known_crashes; /* known-crashes.tsv, or NULL */
	/*
	 * Its guest/tests/NAME.time files ("START END", guest uptime):
	 * @time_names[i] the program, @times[i] the text; a program's
	 * duration.
	 */
	char *const *time_names;
	char *const *times;
	size_t n_times;
	/* Its crash-N.txt files: a crashed case's report is its log_excerpt. */
	char *const *crashes;
	size_t n_crashes;
	/* "" without patches; NULL when a patch could not be read */
	const char *patchset_hash;
	char *const *patches; /* the patches' file names */
	size_t n_patches;
};

struct kcidb {
	char *origin;
	/*
	 * What tells this run's tests from another run's of the same
	 * kernel, boot and case ("" when the run is the kernel's only one):
	 * KCIDB merges objects of one id.
	 */
	char *run;
	json_t *checkouts, *builds, *tests, *issues, *incidents;
	size_t count[KCIDB_N_STATUS];
};

/* Returns 0, or -1 with @e when @origin is not [a-z0-9_]+. @run: see above. */
int kcidb_init(struct kcidb *k, const char *origin, const char *run,
	       struct err *e);
/*
 * Adds a boot: its kernel's checkout and build (once per kernel), a test
 * per program and case, "lsm.LSM.boot" (the boot's verdict) and
 * "lsm.LSM.decisions" (every decision as expected, known bugs aside),
 * and an incident per case a known kernel bug explains. Returns 0, or -1
 * with @e (kernel.txt without spec or suite, ktap.txt truncated).
 */
int kcidb_add_boot(struct kcidb *k, const struct kcidb_boot *b, struct err *e);
/* The build id of the boot @dir_name added before, or NULL. */
const char *kcidb_boot_build(const struct kcidb *k, const char *dir_name);
/*
 * A bench run's summary.tsv: per point, a DONE test "lsm.bench.POINT"
 * on each boot's build with its mean cost per message in "number"
 * (seconds per message, metric prefix), the change and its interval in
 * misc. @roles[i] is the role ("A", "B", "A2") of boot @dirs[i].
 */
int kcidb_add_bench(struct kcidb *k, const char *summary_tsv,
		    char *const *roles, char *const *dirs, size_t n,
		    struct err *e);
/*
 * A mutate run's mutants.tsv: per mutant, "lsm.mutate.NAME" on the
 * mutant's build (@dirs[i], the boot of mutant @names[i]): killed is
 * PASS, survived FAIL, stillborn ERROR, inconclusive MISS.
 */
int kcidb_add_mutants(struct kcidb *k, const char *mutants_tsv,
		      char *const *names, char *const *dirs, size_t n,
		      struct err *e);
/*
 * A compare run's compare.tsv: "lsm.compare" on B's build (its boots
 * are those whose spec, @specs[i] of boot @dirs[i], is the header's B),
 * FAIL when any case or feature is unexplained, with A's build and the
 * unexplained cases in misc.
 */
int kcidb_add_compare(struct kcidb *k, const char *compare_tsv,
		      char *const *specs, char *const *dirs, size_t n,
		      struct err *e);
/*
 * A series run's series.tsv: per patch that was built, "lsm.series" on
 * its kernel's build (the boot whose spec, @specs[i] of @dirs[i], is the
 * row's): PASS when it changed no decision and no cost significantly,
 * FAIL when it did, ERROR when it did not apply; the row in misc.
 */
int kcidb_add_series(struct kcidb *k, const char *series_tsv,
		     char *const *specs, char *const *dirs, size_t n,
		     struct err *e);
/* Every listed known kernel bug as an issue (the incidents link them). */
void kcidb_add_issues(struct kcidb *k, const struct known_list *l);
/* The submission: {"version": {5, 3}, "checkouts": ..., ...}. A new reference. */
json_t *kcidb_doc(const struct kcidb *k);
void kcidb_free(struct kcidb *k);

#endif
