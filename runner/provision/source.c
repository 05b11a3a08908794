// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "source.h"
#include "apt.h"
#include "lib/lib.h"
#include "deb.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *pick_all(const char *path, void *ctx)
{
	return xasprintf("%s/%s", (const char *)ctx, path);
}

/* linux-source (the meta package) of @suite depends on linux-source-X.Y. */
static char *series_of_suite(const char *what, const char *suite, struct err *e)
{
	char *madison, *ver, *pv, *stanza, *dep, *pkg, *series;

	madison = apt_cache("madison", "linux-source", e);
	if (!madison)
		return NULL;
	ver = apt_madison_pick(madison, "linux-source", suite);
	free(madison);
	if (!ver) {
		err_set(e, "%s: no linux-source package in suite %s", what,
			suite);
		return NULL;
	}
	pv = xasprintf("linux-source=%s", ver);
	free(ver);
	stanza = apt_cache("show", pv, e);
	if (!stanza) {
		free(pv);
		return NULL;
	}
	dep = apt_stanza_field(stanza, "Depends");
	pkg = dep ? apt_depends_find(dep, "linux-source-", "") : NULL;
	free(dep);
	free(stanza);
	if (!pkg) {
		err_set(e, "%s: cannot find the versioned package behind %s",
			what, pv);
		free(pv);
		return NULL;
	}
	series = xstrdup(pkg + strlen("linux-source-"));
	free(pkg);
	free(pv);
	return series;
}

char *debian_source_tree(const char *what, const char *series,
			 const char *suite, struct err *e)
{
	char *own = NULL, *pkg, *madison, *ver, *sub, *dir, *stamp;
	char *tree = NULL, *debs, *deb, *nested, err[512];

	if (apt_ready(false, e))
		return NULL;
	if (!series) {
		series = own = series_of_suite(what, suite, e);
		if (!series)
			return NULL;
	}
	pkg = xasprintf("linux-source-%s", series);
	free(own);
	madison = apt_cache("madison", pkg, e);
	if (!madison) {
		free(pkg);
		return NULL;
	}
	ver = apt_madison_pick(madison, pkg, NULL);
	free(madison);
	if (!ver) {
		err_set(e, "%s: no package %s in the archive", what, pkg);
		free(pkg);
		return NULL;
	}
	sub = xasprintf("src/%s_%s", pkg, ver);
	dir = cache_path(sub);
	stamp = xasprintf("%s/.complete", dir);
	if (!path_exists(stamp)) {
		debs = cache_path("debs");
		deb = apt_download(pkg, ver, debs, e);
		free(debs);
		if (!deb)
			goto out;
		nested = xasprintf("usr/src/%s.tar.xz", pkg);
		progress("extracting %s (about 1.8 GB)", nested);
		if (deb_extract(deb, nested, pick_all, dir, err, sizeof(err)) <
		    0) {
			err_set(e, "%s: %s", what, err);
			free(nested);
			free(deb);
			goto out;
		}
		progress_done();
		/* The extracted tree is the cache; the package is not kept. */
		unlink(deb);
		write_file(stamp, "", 0);
		free(nested);
		free(deb);
	}
	/* Members are linux-source-X.Y/...: that is the tree. */
	tree = xasprintf("%s/%s", dir, pkg);
out:
	free(stamp);
	free(dir);
	free(sub);
	free(ver);
	free(pkg);
	return tree;
}
