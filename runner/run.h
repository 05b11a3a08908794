/* SPDX-License-Identifier: GPL-2.0 */
/* `lsmconf run`: one boot per kernel, results directory per boot. */
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
	const char *tests_dir; /* installed selftests */
	int test_timeout_s;
	int boot_timeout_s; /* 0: derived from the plan */
	int memory_mb;
	int cpus;
	bool refresh;
	bool icount; /* guest time counts instructions (TCG only) */
	const char *dir_name; /* results subdirectory; NULL: from the spec */
};

struct kernel;

/* A new results directory under @base (and @base/latest pointing to it). */
char *run_results_root(const char *base);
/*
 * Boots the provisioned kernel @k once with the suite, into a directory
 * under @root (returned in *@dir when @dir is not NULL). True when every
 * planned case passed or was skipped and the boot had no problem.
 */
bool run_kernel(const struct run_opts *o, const char *root, struct kernel *k,
		char **dir);

/* Runs the suite on each kernel; returns the process exit status. */
int run_main(const struct run_opts *o, char *const *specs, size_t n_specs);

#endif
