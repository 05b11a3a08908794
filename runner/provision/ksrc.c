// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "ksrc.h"
#include "source.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KSRC_SUITE_DEFAULT "sid"

static void require_harness(const char *dir, const char *what)
{
	char *h = xasprintf("%s/tools/testing/selftests/kselftest_harness.h",
			    dir);
	char *m = xasprintf("%s/tools/testing/selftests/lib.mk", dir);

	if (access(h, R_OK) || access(m, R_OK))
		die("%s: no kselftest harness (%s, %s)", what, h, m);
	free(h);
	free(m);
}

char *ksrc_dir(const char *ksrc)
{
	const char *suite = getenv("LSMCONF_KSRC_SUITE");
	char *dir;

	if (ksrc && *ksrc) {
		require_harness(ksrc, "KSRC");
		return xstrdup(ksrc);
	}
	if (!suite || !*suite)
		suite = KSRC_SUITE_DEFAULT;
	/* The same tree build:debian-source:X.Y kernels are built from. */
	dir = debian_source_tree("kselftest harness", NULL, suite);
	require_harness(dir, dir);
	return dir;
}
