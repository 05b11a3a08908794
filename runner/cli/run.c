// SPDX-License-Identifier: GPL-2.0
/* `lsmconf run SPEC...`: the suites on each kernel, one boot per LSM. */
#define _GNU_SOURCE
#include "cli.h"
#include "provision/provision.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>

static bool run_one(const struct run_opts *o, const char *root,
		    const char *spec, struct sbuf *timing)
{
	struct kernel_boots kb;
	struct kernel k;
	struct err e;
	bool ok;

	if (kernel_provision(spec, &k, o->refresh, &e))
		die("%s", e.msg);
	if (run_kernel_lsms(o, root, &k, &kb, &e))
		die("%s", e.msg);
	ok = kb.ok;
	timing_rows_of(&kb, timing);
	kernel_free(&k);
	kernel_boots_free(&kb);
	return ok;
}

/* Runs the suite on each kernel; returns the process exit status. */
static int run_main(const struct run_opts *o, char *const *specs,
		    size_t n_specs)
{
	char *root = results_root(o->results);
	double t0 = now_seconds();
	struct sbuf timing = { 0 };
	size_t i, failed = 0;

	for (i = 0; i < n_specs; i++)
		failed += !run_one(o, root, specs[i], &timing);
	timing_report(root, &timing);
	sbuf_free(&timing);
	printf("lsmconf: %zu of %zu kernels passed in %.1f s wall; results in %s\n",
	       n_specs - failed, n_specs, now_seconds() - t0, root);
	free(root);
	return failed ? 1 : 0;
}

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	int first = run_options(argc, argv, &o);

	if (first >= argc)
		die("run: no kernel spec given (e.g. debian:sid)");
	specs_check(argv + first, argc - first);
	return run_main(&o, argv + first, argc - first);
}
