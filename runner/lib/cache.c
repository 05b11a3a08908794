// SPDX-License-Identifier: GPL-2.0
#include "cache.h"
#include "util.h"

#include <stdlib.h>

/*
 * These two still die() when the cache cannot be created: cache_root() is
 * also called by the KVM memo (vm/accel.c, under boot_run(), which has no
 * error to return) and by build.c, and cache_path() by eight callers in
 * provision/ and vm/guest.c; every one would need an error branch for a
 * failure that the first of them, before any boot, already reports.
 */
const char *cache_root(void)
{
	static char *root;
	const char *env;

	if (root)
		return root;
	env = getenv("LSMCONF_CACHE");
	if (env && *env)
		root = xstrdup(env);
	else if ((env = getenv("XDG_CACHE_HOME")) && *env)
		root = xasprintf("%s/lsmconf", env);
	else if ((env = getenv("HOME")) && *env)
		root = xasprintf("%s/.cache/lsmconf", env);
	else
		root = xstrdup("/var/cache/lsmconf");
	if (mkdir_p(root))
		die("cannot create the cache directory %s", root);
	return root;
}

char *cache_path(const char *sub)
{
	char *p = xasprintf("%s/%s", cache_root(), sub);

	if (mkdir_p(p))
		die("cannot create %s", p);
	return p;
}
