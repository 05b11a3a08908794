// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "ksrc.h"
#include "apt.h"
#include "cache.h"
#include "deb.h"
#include "util.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define KSRC_SUITE_DEFAULT "sid"

/* What `make -C tools/testing/selftests TARGETS=...` needs besides the target. */
static const char *const wanted[] = {
	"tools/testing/selftests/Makefile",
	"tools/testing/selftests/lib.mk",
	"tools/testing/selftests/*.h",
	"tools/testing/selftests/*.sh",
	"tools/testing/selftests/kselftest/*",
	"scripts/subarch.include",
	NULL,
};

static char *pick(const char *path, void *ctx)
{
	const char *rel = strchr(path, '/');
	const char *const *w;

	/* Members are "linux-source-X.Y/..." */
	if (!rel)
		return NULL;
	rel++;
	for (w = wanted; *w; w++)
		if (!fnmatch(*w, rel, FNM_PATHNAME))
			return xasprintf("%s/%s", (const char *)ctx, rel);
	return NULL;
}

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
	char *madison, *ver, *pv, *stanza, *dep, *pkg, *sub, *dir, *stamp;
	char *debs, *deb, *nested, err[512];

	if (ksrc && *ksrc) {
		require_harness(ksrc, "KSRC");
		return xstrdup(ksrc);
	}
	if (!suite || !*suite)
		suite = KSRC_SUITE_DEFAULT;
	apt_ready(false);
	madison = apt_cache("madison", "linux-source");
	ver = apt_madison_pick(madison, "linux-source", suite);
	if (!ver)
		die("no linux-source package in suite %s", suite);
	pv = xasprintf("linux-source=%s", ver);
	stanza = apt_cache("show", pv);
	dep = apt_stanza_field(stanza, "Depends");
	pkg = dep ? apt_depends_find(dep, "linux-source-", "") : NULL;
	if (!pkg)
		die("%s: cannot find the versioned linux-source package", pv);
	sub = xasprintf("ksrc/%s_%s", pkg, ver);
	dir = cache_path(sub);
	stamp = xasprintf("%s/.complete", dir);
	if (!path_exists(stamp)) {
		debs = cache_path("debs");
		deb = apt_download(pkg, ver, debs);
		nested = xasprintf("usr/src/%s.tar.xz", pkg);
		progress("extracting the kselftest harness from %s", deb);
		if (deb_extract(deb, nested, pick, dir, err, sizeof(err)) < 0)
			die("%s", err);
		progress_done();
		require_harness(dir, deb);
		unlink(deb);
		write_file(stamp, "", 0);
		free(nested);
		free(deb);
		free(debs);
	}
	free(madison);
	free(ver);
	free(pv);
	free(stanza);
	free(dep);
	free(pkg);
	free(sub);
	free(stamp);
	return dir;
}
