// SPDX-License-Identifier: GPL-2.0
/* `lsmconf ksrc`: the kernel tree the selftests build against. */
#define _GNU_SOURCE
#include "cli.h"
#include "provision/provision.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cmd_ksrc(int argc, char **argv)
{
	const char *ksrc = getenv("KSRC");
	struct err e;
	char *dir;

	if (argc == 3 && !strcmp(argv[1], "--ksrc"))
		ksrc = argv[2];
	else if (argc != 1)
		die("ksrc: usage: lsmconf ksrc [--ksrc DIR]");
	dir = ksrc_dir(ksrc, &e);
	if (!dir)
		die("%s", e.msg);
	printf("%s\n", dir);
	free(dir);
	return 0;
}
