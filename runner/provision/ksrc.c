// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "ksrc.h"
#include "source.h"
#include "lib/lib.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KSRC_SUITE_DEFAULT "sid"

static int require_harness(const char *dir, const char *what, struct err *e)
{
	int rc = 0;

	char *h = xasprintf("%s/tools/testing/selftests/kselftest_harness.h",
			    dir);
	char *m = xasprintf("%s/tools/testing/selftests/lib.mk", dir);

	if (access(h, R_OK) || access(m, R_OK))
		rc = err_set(e, "%s: no kselftest harness (%s, %s)", what, h,
			     m);
	free(h);
	free(m);
	return rc;
}

char *ksrc_dir(const char *ksrc, struct err *e)
{
	const char *suite = getenv("LSMCONF_KSRC_SUITE");
	char *dir;

	if (ksrc && *ksrc) {
		if (require_harness(ksrc, "KSRC", e))
			return NULL;
		return xstrdup(ksrc);
	}
	if (!suite || !*suite)
		suite = KSRC_SUITE_DEFAULT;
	/* The same tree build:debian-source:X.Y kernels are built from. */
	dir = debian_source_tree("kselftest harness", NULL, suite, e);
	if (dir && require_harness(dir, dir, e)) {
		free(dir);
		return NULL;
	}
	return dir;
}
