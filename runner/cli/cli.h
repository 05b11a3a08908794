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

/* The subcommands: @argv[0] is the subcommand; each returns the exit status. */
int cmd_run(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_msgcost(int argc, char **argv);
int cmd_mutate(int argc, char **argv);
int cmd_abi(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_ksrc(int argc, char **argv);
int cmd_table(int argc, char **argv);
int cmd_selftests_series(int argc, char **argv);

/*
 * bench's path evidence (bench_path.c): a boot's probe.tsv, and one
 * point's changed functions printed and appended to path.tsv's text
 * (@set: the A, B and A2 boots).
 */
struct path_set;
struct sbuf;
void bench_path_load(const char *dir, struct path_set *set);
void bench_path_point(const char *point, const struct path_set *set,
		      struct sbuf *tsv);

/* Option values (options.c): each dies with a one-line message when bad. */
int opt_positive(const char *opt, const char *arg);
int opt_nonnegative(const char *opt, const char *arg);
double opt_positive_real(const char *opt, const char *arg);
/* The value of a bench, msgcost or mutate option: the next argument. */
const char *opt_value(const char *opt, const char *v);
/* Every spec's syntax, before anything is fetched, built or booted. */
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
/* A new results directory under @base (session.h), or death. */
char *results_root(const char *base);
/*
 * The features.tsv texts of two kernels' boots (compare.c), for
 * compare_kernels(): of the first LSM both booted whose boots left one on
 * either side ("" for the side without), both NULL when none did.
 */
struct kernel_boots;
void compare_boot_features(const struct kernel_boots *a,
			   const struct kernel_boots *b, char **fa, char **fb);
/* Parses the options every booting subcommand shares; returns the first spec's index. */
int run_options(int argc, char **argv, struct run_opts *o);

#endif
