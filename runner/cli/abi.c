// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf abi [--out DIR] SPEC...`: pins each kernel's AppArmor feature
 * set. The kernel boots with AppArmor and runs abi_capture (beside the
 * tests), which writes the running kernel's features as libapparmor
 * flattens them; the set goes to DIR/<MAJOR.MINOR> (default abi/) and its
 * origin to DIR/SOURCES.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "provision/provision.h"
#include "results/results.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CAPTURE_TEST "abi_capture"

struct abi_opts {
	const char *out;
};

static bool abi_option(void *ctx, const char *opt, const char *v)
{
	struct abi_opts *a = ctx;

	if (strcmp(opt, "--out"))
		return false;
	a->out = opt_value(opt, v);
	return true;
}

/* The file @name the capture left in boot directory @dir, or death. */
static char *capture_file(const char *dir, const char *spec, const char *name)
{
	char *rel = xasprintf("out/" CAPTURE_TEST "/%s", name), *path;
	char *text = run_guest_file(dir, rel, &path);

	if (!*text)
		die("abi: %s left no %s (see %s)", spec, path, dir);
	free(rel);
	free(path);
	return text;
}

/* Boots @spec, takes its feature set into @out; returns the set's name. */
static char *capture(const struct run_opts *o, const char *root,
		     const char *out, const char *spec)
{
	char *dir, *features, *release, *name, *path, *sources, *line;
	char why[256], set[32], day[32];
	time_t now = time(NULL);
	struct kernel k;
	struct err e;
	int ran, ret;

	if (kernel_provision(spec, &k, o->refresh, &e))
		die("%s", e.msg);
	ran = run_kernel(o, root, &k, &dir, &e);
	if (ran < 0)
		die("%s", e.msg);
	if (!ran)
		die("abi: the capture on %s failed (see %s)", spec, dir);
	features = capture_file(dir, spec, "features");
	release = capture_file(dir, spec, "features.release");
	if (abi_features_check(features, strlen(features), why, sizeof(why)))
		die("abi: %s: %s (see %s)", spec, why, dir);
	if (abi_set_name(release, set, sizeof(set)))
		die("abi: %s: kernel release %s has no MAJOR.MINOR", spec,
		    release);

	path = xasprintf("%s/%s", out, set);
	if (write_file(path, features, strlen(features)))
		die("abi: cannot write %s", path);
	free(path);
	path = xasprintf("%s/" ABI_SOURCES, out);
	ret = read_input(path, INPUT_MAX_LIST, INPUT_TEXT, &sources, NULL, &e);
	if (ret == -ENOENT)
		sources = NULL;
	else if (ret)
		die("abi: %s", e.msg);
	strftime(day, sizeof(day), "%Y-%m-%d", gmtime(&now));
	line = xasprintf("%s\t%s\t%s\t%s\t%s\tlsmconf abi %s", set, release,
			 k.package ? k.package : "-",
			 k.version ? k.version : "-", day, spec);
	name = abi_sources_update(sources, set, line);
	if (write_file(path, name, strlen(name)))
		die("abi: cannot write %s", path);
	printf("lsmconf: %s/%s <- %s (release %s, %s %s, %zu bytes)\n", out,
	       set, spec, release, k.package ? k.package : "-",
	       k.version ? k.version : "-", strlen(features));
	free(name);
	free(line);
	free(sources);
	free(path);
	free(features);
	free(release);
	free(dir);
	kernel_free(&k);
	return xstrdup(set);
}

int cmd_abi(int argc, char **argv)
{
	struct abi_opts a = { .out = LSMCONF_ROOT "/abi" };
	static char *test = CAPTURE_TEST;
	struct run_opts o;
	char *root;
	int first, i;

	argc = own_options(argc, argv, abi_option, &a);
	first = run_options(argc, argv, &o);
	if (first >= argc)
		die("abi: no kernel spec given (e.g. debian:sid)");
	if (o.n_tests || o.args || o.abi)
		die("abi: --test, --args and --abi do not apply (it runs " CAPTURE_TEST
		    ")");
	specs_check(argv + first, argc - first);
	if (mkdir_p(a.out))
		die("abi: cannot create %s", a.out);
	/* The capture needs the LSM whose policy --abi pins, nothing else. */
	o.lsms = lsm_pinning()->name;
	o.lsm = o.lsms;
	o.tests = &test;
	o.n_tests = 1;
	root = results_root(o.results);
	for (i = first; i < argc; i++) {
		char *set, *name = safe_name(argv[i]);

		o.dir_name = xasprintf("abi-%s", name);
		set = capture(&o, root, a.out, argv[i]);
		free((char *)o.dir_name);
		free(name);
		free(set);
	}
	free(root);
	return 0;
}
