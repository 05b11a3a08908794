/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The command line, the top layer: one file a subcommand, holding its
 * options and its driver (cli/run.c is `lsmconf run`...); main.c only
 * dispatches. Library layers return errors; a subcommand decides, and
 * dies with their one-line message.
 */
#ifndef LSMCONF_CLI_H
#define LSMCONF_CLI_H

#include "session/session.h"
#include "work/work.h"

/* The subcommands: @argv[0] is the subcommand; each returns the exit status. */
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_msgcost(int argc, char **argv);
int cmd_mutate(int argc, char **argv);
int cmd_coverage(int argc, char **argv);
int cmd_abi(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_ksrc(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_report_bug(int argc, char **argv);
int cmd_kcidb(int argc, char **argv);
int cmd_selftests_series(int argc, char **argv);
int cmd_series(int argc, char **argv);
int cmd_plan(int argc, char **argv);
int cmd_unit(int argc, char **argv);
int cmd_merge(int argc, char **argv);

extern const struct unit_cmd compare_units, mutate_units, bench_units,
	series_units, coverage_units;
/*
 * The serial command: every unit of its plan run here, independent ones
 * side by side (o->jobs, else as many as the machine holds), into a store
 * in its results directory, then merged. Returns the exit status.
 */
int units_here(const struct unit_cmd *c, int argc, char **argv);
/*
 * True while a unit, or merge, plans its command again from the store:
 * what the first planning said (a seed, the mutants drawn) is not said
 * again.
 */
extern bool replanning;
/* The file @name of the finished unit @id (malloc'd), or NULL. */
char *unit_file(const char *store, const char *id, const char *name);
/* "KEY value" lines: the value of @key in @text (malloc'd), or NULL. */
char *unit_value(const char *text, const char *key);
/* How long the unit @id took to run. */
double unit_seconds(const char *store, const char *id);
/*
 * Prints the unit's output.txt (its boots' reports), the paths into its
 * attempt's directory as paths into @root, where merge links them.
 */
void unit_print_output(const char *store, const char *id, const char *root);
/*
 * @root/@name, a link to the unit's results directory @name (relative
 * when the store is inside @root); malloc'd.
 */
char *unit_link(const char *store, const char *id, const char *name,
		const char *root);
/* The boot unit @id passed. */
bool unit_passed(const char *store, const char *id);

/*
 * bench's path evidence (bench_path.c): a boot's probe.tsv, and one
 * point's changed functions printed and appended to path.tsv's text
 * (@set: the A, B and A2 boots).
 */
struct path_set;
struct sbuf;
void bench_path_load(const char *dir, struct path_set *set);
struct bench_set;
/* The samples.tsv a bench boot's guest left in @dir, into @set. */
void bench_samples_load(const char *dir, struct bench_set *set);
void bench_path_point(const char *point, const struct path_set *set,
		      struct sbuf *tsv);
/*
 * The functions of @point whose numbers per message changed between the
 * boots A and B of @set (A2 the control), as "FUNCTION A -> B KIND/msg"
 * joined with ", ", appended to @out; nothing when none did.
 */
void bench_path_changed(const char *point, const struct path_set *set,
			struct sbuf *out);

/* Option values (options.c): each dies with a one-line message when bad. */
int opt_positive(const char *opt, const char *arg);
int opt_nonnegative(const char *opt, const char *arg);
double opt_positive_real(const char *opt, const char *arg);
/* The value of a bench, msgcost or mutate option: the next argument. */
const char *opt_value(const char *opt, const char *v);
/*
 * Every spec as `kernel` checks it (kernel_check_spec(): its syntax and
 * the local files it names), before anything is fetched, built or
 * booted; dies in one line on the first bad one.
 */
void specs_check(char *const *specs, int n);
/*
 * The subcommand's own options, each with a value, taken out of @argv
 * before run_options() reads the shared ones: @take sees every argument
 * with the one after it (NULL at the end) and returns true when it used
 * both. Returns the new argc.
 */
int own_options(int argc, char **argv,
		bool (*take)(void *ctx, const char *opt, const char *v),
		void *ctx);
/* Notes a samples file's lines that are not samples, when there are any. */
void note_malformed(const char *path, size_t n);
/* run_load_records() (session.h), or death in one line. */
struct kernel_boots;
struct known_list;
struct record_set;
void boots_records(const struct kernel_boots *kb, struct known_list *known,
		   struct record_set *set);
/* A new results directory under @base (session.h), or death. */
char *results_root(const char *base);

/* The rows of @kb's timing.tsv files, appended to @rows (cli/timing.c). */
void timing_rows_of(const struct kernel_boots *kb, struct sbuf *rows);
/* @root/timing.tsv of @rows, and its one-line breakdown printed. */
void timing_report(const char *root, const struct sbuf *rows);
/*
 * The features.tsv texts of two kernels' boots (compare.c), for
 * compare_kernels(): of the first LSM both booted whose boots left one on
 * either side ("" for the side without), both NULL when none did.
 */
struct kernel_boots;
void compare_boot_features(const struct kernel_boots *a,
			   const struct kernel_boots *b, char **fa, char **fb);
/* The send-cost benchmark's points and sizes (bench.c). */
struct bench_opts {
	const char *points; /* space-separated WORKLOAD:CONFINEMENT */
	int invocations, warmup, rounds, messages;
	int probe_messages; /* path probe per point, 0: none */
	bool probe_calls_only; /* no instructions per function */
	bool profile; /* --profile on: the QEMU plugin's instruction profile */
};
/* unix_send_bench's arguments for @bo; malloc'd. */
char *bench_args(const struct bench_opts *bo);
/*
 * Under icount a boot repeats exactly for one seed: A and B share one, so
 * that only the kernel differs; A2 gets another, so that the A -> A2
 * drift measures what a different per-boot random state costs.
 */
#define BENCH_SEED_A 0
#define BENCH_SEED_A2 1
/*
 * Every cost boot's kernel command line gets this: the per-CPU VM
 * statistics are folded every second by default, and a round that caught
 * a fold cost 90,000 to 190,000 instructions more (socketpair on 6.12: max
 * CV 0.035% with it, 0.008% without, 30 rounds of 65,536 messages).
 */
#define COST_BOOT_APPEND "sysctl.vm.stat_interval=3600"
/* @user's --append (or NULL) followed by COST_BOOT_APPEND. */
char *cost_boot_append(const char *user);
/*
 * One bench boot of @k under @o (icount when @icount, its clock from
 * @seed: BENCH_SEED_A for A and B, BENCH_SEED_A2 for A2) into
 * @root/@dir_name, running unix_send_bench @args; its samples go to @set
 * and, when @paths is not NULL, its path probe's counts to @paths. With
 * o->profile, the instruction profile of @points (as in @args) goes to
 * @prof (see bench_profile_load()).
 * False when the boot failed; dies when it could not run at all.
 */
struct kernel;
struct bench_set;
struct path_set;
bool bench_boot(const struct run_opts *o, const char *args, bool icount,
		int seed, struct kernel *k, const char *root,
		const char *dir_name, struct bench_set *set,
		struct path_set *paths, const char *points,
		struct path_set *prof);
/*
 * The instruction profile of the bench boot in @dir: the plugin's
 * INSN_PROFILE and the guest's ksyms.txt, as rows of instructions per
 * function of @points (in the order they ran) into @prof; says why when
 * there is none.
 */
void bench_profile_load(const char *dir, const char *points,
			const struct bench_set *set, struct path_set *prof);
/*
 * Prints the functions of @point whose instructions per message in the
 * measured rounds changed between A and B (@prof: A, B, A2), the largest
 * changes first, and adds every function's numbers to @tsv.
 */
void bench_profile_point(const char *point, const struct path_set *prof,
			 struct sbuf *tsv);
/*
 * Appends to @out the functions of @point whose instructions per message
 * changed between A and B (@prof: A, B, A2), the largest first, at most
 * three: "FUNCTION A -> B instructions/msg", comma-separated.
 */
void bench_profile_changed(const char *point, const struct path_set *prof,
			   struct sbuf *out);
/*
 * The bench's figures in @root (bench_plot.c): every round of @points in
 * the boots @boots, the per-point means and verdict, and the functions
 * whose calls per message changed (path.tsv, when present).
 */
void bench_plot(const char *root, const char *points, const char *const *boots,
		int n_boots);
/* Parses the options every booting subcommand shares; returns the first spec's index. */
int run_options(int argc, char **argv, struct run_opts *o);

#endif
