// SPDX-License-Identifier: GPL-2.0
/* `lsmconf run SPEC...`: the suites on each kernel, one boot per LSM. */
#define _GNU_SOURCE
#include "cli.h"
#include "lib/util.h"

int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	int first = run_options(argc, argv, &o);

	if (first >= argc)
		die("run: no kernel spec given (e.g. debian:sid)");
	specs_check(argv + first, argc - first);
	return run_main(&o, argv + first, argc - first);
}
