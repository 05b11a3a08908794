/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the files of the session layer share (not its API, session.h):
 * one kernel run (struct kernel_run) and the steps of it each file does.
 * plan.c: the plan after a crash; boots.c: the boots; collect.c: frames,
 * records, accounting; report.c: identity, ktap.txt, the printed report;
 * session.c: the public entry points.
 */
#ifndef LSMCONF_SESSION_INTERNAL_H
#define LSMCONF_SESSION_INTERNAL_H

#include "session.h"
#include "vm/vm.h"
#include "results/results.h"
#include "lib/lib.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>
#include <time.h>

/* Seconds a guest may take to boot and send results, beyond its tests. */
#define BOOT_ALLOWANCE_S 90
/* A guest that prints nothing for this long has failed (it prints in ~1 s). */
#define SILENCE_S 10
/*
 * A guest whose init has not said "tests start" by then has failed: Debian's
 * kernels reach it in 3-5 s under TCG here, 3-4 times that on a loaded host.
 */
#define INIT_S 60
/* Beyond a test's own bound (which the guest enforces) before it is hung. */
#define GRACE_S 15
/* Boots of one kernel: the first, a retry, and one per crashed case. */
#define MAX_BOOTS 8
/*
 * Boots ended by the host (vm/hostfault.h, lost results, a test the
 * guest's timeout ended while the host starved QEMU) booted again, beyond
 * MAX_BOOTS; one more fails the run as a host failure, with no verdict.
 */
#define HOST_RETRIES 2
/* Lines of a kernel's report kept per crash. */
#define TRACE_LINES 120

/* On the kernel command line: run_kselftest.sh -c, once (guest/init). */
#define WHOLE_ARG "lsmconf.whole=1"
/* A coverage build's boots: the guest zeroes and sends the gcov counters. */
#define COVERAGE_ARG "lsmconf.coverage=1"

/* What happened to one planned test across the boots. */
struct test_fate {
	bool framed; /* its results arrived */
	int boot; /* the boot it ended in */
	char **crashed; /* the cases that brought the kernel down */
	char **traces; /* for each, the kernel's report, or NULL (a hang) */
	char **hows; /* for each, how its boot ended */
	int *boots; /* for each, its boot */
	size_t n_crashed;
	int crash_boot; /* the last boot that ended in it */
	char why[600]; /* how the last boot that ended in it ended, or "" */
	char *live; /* its live output when its results never arrived */
	bool resent; /* its results were lost on the way once: run again */
};

struct kernel_run {
	struct kernel k;
	const char *lsm;
	const char *abi; /* the pinned feature set policy is compiled for */
	char *dir;
	const char *tests_dir;
	struct plan plan;
	struct test_fate *fate;
	/* This boot runs the collection whole (run_kselftest.sh -c). */
	bool whole;
	int boots, retries;
	int host_failures; /* boots the host ended */
	char host_failed[700]; /* the last of them, when one too many */
	struct sbuf boot_log; /* one line per boot that ended early */
	bool accel_kvm;
	char *qemu_cmdline; /* the first boot's */
	struct sbuf first_output; /* seconds to each boot's first output */
	struct test_account *acct;
	struct run_totals totals;
	char *problems; /* boot-level problems, one per line */
	double image_s, boot_s;
	char *uname, *lsm_list;
	/*
	 * The upstream version the kernel reports (its /proc/version,
	 * identity_upstream()), else its tree's; NULL when neither is known.
	 */
	char *upstream;
	/* What the known bugs list may call it: release, build: source. */
	char *names;
	/* And for a crash's signature: with a patched build's base too. */
	char *crash_names;
	char *features; /* features.tsv as read from the guest */
	/* Why this boot's tests skip, as upstream expects, or NULL. */
	const char *skip_why;
	size_t decisions, mismatches;
	struct known_list *known; /* NULL: no list */
	size_t known_decisions;
	double guest_boot_s,
		guest_suite_s; /* guest uptime at test start, end */
	time_t started; /* when this kernel's run began (kernel.txt) */
	struct sbuf timing; /* timing.tsv's rows (results/timing.h) */
	const char *label; /* the results directory's name: timing's kernel */
	/*
	 * Where boot-N directories and crash-N.txt go: the kernel's results
	 * directory, also for the known crashes' boots (split.c), whose
	 * own @dir takes their frames apart from the main boot's.
	 */
	const char *boot_root;
};

/* session.c */
void add_problem(struct kernel_run *kr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
char *guest_text(const struct kernel_run *kr, const char *name);
void chomp(char *s);

/* plan.c */
void resume_plan(struct kernel_run *kr, size_t t, struct plan *next);
/* Test @t whole, then every later test whose results have not arrived. */
void again_plan(const struct kernel_run *kr, size_t t, struct plan *next);
size_t plan_index(const struct kernel_run *kr, const struct plan *p);
void boot_why(const char *bdir, const struct boot_result *br, char *out,
	      size_t size, char **trace);
void resume_plan_all(const struct kernel_run *kr, struct plan *p);

/* boots.c */
int boot_all(struct kernel_run *kr, const struct run_opts *o,
	     const char *append, struct err *e);
/*
 * Boots @cur (taken) and what each boot leaves, until every test of it
 * has run; @cb, when not NULL, is joined after the first boot.
 */
struct crash_boots;
int boot_loop(struct kernel_run *kr, const struct run_opts *o,
	      const char *append, struct plan *cur, struct crash_boots *cb,
	      struct err *e);
/* Case @kase of @f brought boot @boot down (@how; @trace, taken, or NULL). */
void fate_add_crash(struct test_fate *f, const char *kase, char *trace,
		    const char *how, int boot);
/* Test @t again without the cases that brought the kernel down. */
bool rest_of_test(struct kernel_run *kr, size_t t, struct plan_item *out);

/*
 * split.c: the cases a listed known bug brings down (an oops) run in
 * boots of their own beside the main one, which runs every other case.
 */
struct crash_boots {
	pid_t pid; /* 0: none running */
	int pidfd;
	struct plan plan; /* the split tests, their listed cases each */
	char *dir; /* their frames and outcome */
	bool again; /* not as listed: the split tests run again whole */
	char **orig; /* the plan's own arguments of each split test */
	size_t n_orig;
};
/*
 * Starts the known crashes' boots when the plan holds listed crash cases
 * for this kernel, beside the main boot; @kr's plan then runs every other
 * case. Nothing to split, or no fork: @cb stays empty, the plan whole.
 */
void crash_boots_start(struct kernel_run *kr, const struct run_opts *o,
		       const char *append, struct crash_boots *cb);
/*
 * Waits for them and takes what they found into @kr: the crashes, when
 * every listed case brought the kernel down; else @cb->again, the split
 * tests planned whole again. Returns 0, or -1 with @e set (a host
 * failure, or the boots could not be run).
 */
int crash_boots_join(struct kernel_run *kr, struct crash_boots *cb,
		     struct err *e);
/* The plan to run when they were not as listed (empty otherwise). */
void crash_boots_again(struct kernel_run *kr, struct crash_boots *cb,
		       struct plan *again);
void crash_boots_free(struct crash_boots *cb);

/* collect.c */
bool take_frames(struct kernel_run *kr, const char *bdir, int boot,
		 bool *identity);
int list_cases(const struct kernel_run *kr, const char *name, char ***cases);
size_t split_whole(struct kernel_run *kr, int boot, const char *text,
		   size_t len, bool finished_only);
int collect(struct kernel_run *kr, struct err *e);

/* timing_rows.c: the guest's rows of timing.tsv; the file written. */
/* Boot @boot's rows: its frames held uptime.start (@started), transfer.time. */
void timing_boot_rows(struct kernel_run *kr, int boot, bool started,
		      bool ended);
void timing_guest_rows(struct kernel_run *kr);
void timing_write(struct kernel_run *kr);

/* report.c */
void write_ktap(const struct kernel_run *kr);
void write_identity(const struct kernel_run *kr);
bool report(const struct kernel_run *kr);

#endif
