// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "source.h"
#include "apt.h"
#include "lib/cache.h"
#include "deb.h"
#include "lib/util.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *pick_all(const char *path, void *ctx)
{
	return xasprintf("%s/%s", (const char *)ctx, path);
}

/* linux-source (the meta package) of @suite depends on linux-source-X.Y. */
static char *series_of_suite(const char *what, const char *suite)
{
	char *madison, *ver, *pv, *stanza, *dep, *pkg, *series;

	madison = apt_cache("madison", "linux-source");
	ver = apt_madison_pick(madison, "linux-source", suite);
	free(madison);
	if (!ver)
		die("%s: no linux-source package in suite %s", what, suite);
	pv = xasprintf("linux-source=%s", ver);
	stanza = apt_cache("show", pv);
	dep = apt_stanza_field(stanza, "Depends");
	pkg = dep ? apt_depends_find(dep, "linux-source-", "") : NULL;
	if (!pkg)
		die("%s: cannot find the versioned package behind %s", what,
		    pv);
	series = xstrdup(pkg + strlen("linux-source-"));
	free(pkg);
	free(dep);
	free(stanza);
	free(pv);
	free(ver);
	return series;
}

char *debian_source_tree(const char *what, const char *series,
			 const char *suite)
{
	char *own = NULL, *pkg, *madison, *ver, *sub, *dir, *stamp, *tree;
	char *debs, *deb, *nested, err[512];

	apt_ready(false);
	if (!series)
		series = own = series_of_suite(what, suite);
	pkg = xasprintf("linux-source-%s", series);
	madison = apt_cache("madison", pkg);
	ver = apt_madison_pick(madison, pkg, NULL);
	free(madison);
	if (!ver)
		die("%s: no package %s in the archive", what, pkg);
	sub = xasprintf("src/%s_%s", pkg, ver);
	dir = cache_path(sub);
	stamp = xasprintf("%s/.complete", dir);
	if (!path_exists(stamp)) {
		debs = cache_path("debs");
		deb = apt_download(pkg, ver, debs);
		nested = xasprintf("usr/src/%s.tar.xz", pkg);
		progress("extracting %s (about 1.8 GB)", nested);
		if (deb_extract(deb, nested, pick_all, dir, err, sizeof(err)) <
		    0)
			die("%s: %s", what, err);
		progress_done();
		/* The extracted tree is the cache; the package is not kept. */
		unlink(deb);
		write_file(stamp, "", 0);
		free(nested);
		free(deb);
		free(debs);
	}
	/* Members are linux-source-X.Y/...: that is the tree. */
	tree = xasprintf("%s/%s", dir, pkg);
	free(stamp);
	free(dir);
	free(sub);
	free(ver);
	free(pkg);
	free(own);
	return tree;
}
