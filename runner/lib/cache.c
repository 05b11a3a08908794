// SPDX-License-Identifier: GPL-2.0
#include "cache.h"
#include "util.h"

#include <stdlib.h>

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
