// SPDX-License-Identifier: GPL-2.0
/* `lsmconf kernel SPEC...`: provisions kernels and prints their identities. */
#define _GNU_SOURCE
#include "cli.h"
#include "provision/provision.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_kernel(int argc, char **argv)
{
	bool refresh = false;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--refresh"))
			refresh = true;
		else
			die("kernel: unknown option %s", argv[i]);
	}
	if (i >= argc)
		die("kernel: no kernel spec given (e.g. debian:sid)");
	/* The same check as every planner's: all specs before the first. */
	specs_check(argv + i, argc - i);
	for (; i < argc; i++) {
		struct kernel k;
		struct err e;
		char *id;

		if (kernel_provision(argv[i], &k, refresh, &e))
			die("%s", e.msg);
		id = kernel_identity(&k);
		printf("%s\n", id);
		free(id);
		kernel_free(&k);
	}
	return 0;
}
