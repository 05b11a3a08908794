// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "guest.h"
#include "seed.h"
#include "provision/provision.h"
#include "lib/lib.h"
#include "image.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * The AppArmor userspace in the guest comes from this suite: only
 * apparmor_parser 5.0 and later know ABI 5.0 (network_v9, fine AF_UNIX).
 */
#define PARSER_SUITE_DEFAULT "sid"
static const char *const parser_packages[] = { "apparmor",  "libapparmor1",
					       "libc6",	    "libstdc++6",
					       "libgcc-s1", "libzstd1",
					       NULL };

/* Files of those packages the parser needs at run time. */
static const char *const parser_files[] = {
	"usr/sbin/apparmor_parser",
	"usr/lib64/ld-linux-x86-64.so.2",
	"usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
	"usr/lib/x86_64-linux-gnu/libc.so.6",
	"usr/lib/x86_64-linux-gnu/libm.so.6",
	"usr/lib/x86_64-linux-gnu/libgcc_s.so.1",
	"usr/lib/x86_64-linux-gnu/libstdc++.so.6*",
	"usr/lib/x86_64-linux-gnu/libzstd.so.1*",
	"usr/lib/x86_64-linux-gnu/libapparmor.so.1*",
	"etc/apparmor.d/abi/*",
	"etc/apparmor.d/tunables/*",
	NULL,
};

static char *parser_version;
/* The policy seed of that parser (seed.h), once an image was built. */
static char *seed_dir;

const char *guest_policy_seed(void)
{
	return seed_dir;
}

static char *parser_root(struct err *e);

const char *guest_parser_id(struct err *e)
{
	static char *id;
	char *root;

	if (!id) {
		root = parser_root(e);
		if (!root)
			return NULL;
		id = xstrdup(strrchr(root, '/') ? strrchr(root, '/') + 1 :
						  root);
		free(root);
	}
	return id;
}

const char *guest_parser_version(void)
{
	return parser_version ? parser_version : "?";
}

static char *pick_parser_file(const char *path, void *ctx)
{
	const char *const *f;

	for (f = parser_files; *f; f++)
		if (!fnmatch(*f, path, 0))
			return xasprintf("%s/%s", (const char *)ctx, path);
	return NULL;
}

/* The parser's root: cached by the exact versions of its packages. */
static char *parser_root(struct err *e)
{
	const char *suite = getenv("LSMCONF_PARSER_SUITE");
	struct sbuf key = { 0 };
	char *versions[ARRAY_SIZE(parser_packages)] = { 0 };
	char hex[65], *sub, *dir = NULL, *stamp = NULL, *debs, *bin;
	char err[512];
	size_t i;

	if (!suite || !*suite)
		suite = PARSER_SUITE_DEFAULT;
	if (apt_ready(false, e))
		return NULL;
	for (i = 0; parser_packages[i]; i++) {
		char *madison = apt_cache("madison", parser_packages[i], e);

		if (!madison)
			goto out;

		versions[i] =
			apt_madison_pick(madison, parser_packages[i], suite);
		free(madison);
		if (!versions[i]) {
			err_set(e,
				"no package %s in suite %s (needed for apparmor_parser in the guest)",
				parser_packages[i], suite);
			goto out;
		}
		sbuf_printf(&key, "%s=%s\n", parser_packages[i], versions[i]);
	}
	parser_version = xasprintf("apparmor %s (%s)", versions[0], suite);
	sha256_buf(key.buf, key.len, hex);
	sub = xasprintf("guest/apparmor-%s-%.12s", versions[0], hex);
	dir = cache_path(sub);
	free(sub);
	stamp = xasprintf("%s/.complete", dir);
	if (!path_exists(stamp)) {
		debs = cache_path("debs");
		for (i = 0; parser_packages[i]; i++) {
			char *deb = apt_download(parser_packages[i],
						 versions[i], debs, e);

			if (!deb)
				break;

			progress("extracting %s", deb);
			if (deb_extract(deb, NULL, pick_parser_file, dir, err,
					sizeof(err)) < 0) {
				err_set(e, "%s", err);
				free(deb);
				break;
			}
			progress_done();
			unlink(deb);
			free(deb);
		}
		free(debs);
		if (parser_packages[i]) {
			free(dir);
			dir = NULL;
			goto out;
		}
		bin = xasprintf("%s/usr/sbin/apparmor_parser", dir);
		if (!path_exists(bin)) {
			err_set(e,
				"apparmor package of %s has no apparmor_parser",
				suite);
			free(bin);
			free(dir);
			dir = NULL;
			goto out;
		}
		free(bin);
		write_file(stamp, "", 0);
	}
out:
	for (i = 0; parser_packages[i]; i++)
		free(versions[i]);
	sbuf_free(&key);
	free(stamp);
	return dir;
}

/* The guest has no shared libraries for busybox: it must be static. */
static int require_static(const char *path, struct err *e)
{
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int fd = open(path, O_RDONLY | O_CLOEXEC), i, ret = 0;

	if (fd < 0)
		return err_set(
			e,
			"cannot read %s: %s (install busybox-static or set LSMCONF_BUSYBOX)",
			path, strerror(errno));
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		close(fd);
		return err_set(e, "%s is not a 64-bit ELF program", path);
	}
	for (i = 0; i < eh.e_phnum && !ret; i++) {
		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph))
			ret = err_set(e, "%s: truncated ELF header", path);
		else if (ph.p_type == PT_INTERP)
			ret = err_set(
				e,
				"%s is dynamically linked; the guest needs a static program",
				path);
	}
	close(fd);
	return ret;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int plan_make(struct plan *p, const char *tests_dir, char *const *only,
	      size_t n_only, const char *args, int timeout_s, struct err *e)
{
	char **names = NULL;
	size_t n = 0, i;

	if (n_only) {
		names = xcalloc(n_only, sizeof(char *));
		for (i = 0; i < n_only; i++)
			names[n++] = xstrdup(only[i]);
	} else {
		DIR *dir = opendir(tests_dir);
		struct dirent *de;

		memset(p, 0, sizeof(*p));
		if (!dir)
			return err_set(
				e,
				"cannot read the test directory %s: %s (run make first)",
				tests_dir, strerror(errno));
		while ((de = readdir(dir))) {
			size_t len = strlen(de->d_name);

			if (len > 5 && !strcmp(de->d_name + len - 5, "_test")) {
				names = xrealloc(names,
						 (n + 1) * sizeof(char *));
				names[n++] = xstrdup(de->d_name);
			}
		}
		closedir(dir);
		qsort(names, n, sizeof(char *), cmp_str);
	}
	memset(p, 0, sizeof(*p));
	if (!n) {
		free(names);
		return err_set(e, "no tests in %s", tests_dir);
	}
	for (i = 0; i < n; i++) {
		char *path = xasprintf("%s/%s", tests_dir, names[i]);

		if (strchr(names[i], '/') || access(path, X_OK)) {
			err_set(e, "no test program %s", path);
			free(path);
			for (i = 0; i < n; i++)
				free(names[i]);
			free(names);
			return -1;
		}
		free(path);
	}
	p->items = xcalloc(n, sizeof(*p->items));
	p->n = n;
	for (i = 0; i < n; i++) {
		p->items[i].name = names[i];
		p->items[i].timeout_s = timeout_s;
		p->items[i].args = xstrdup(args ? args : "");
	}
	free(names);
	return 0;
}

void plan_free(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->items[i].name);
		free(p->items[i].args);
	}
	free(p->items);
	memset(p, 0, sizeof(*p));
}

/* Guest program @name of build/guest (make builds it) at @path, or -1. */
static int guest_helper(struct image *img, const char *path, const char *name,
			struct err *e)
{
	char *s = xasprintf("%s/build/guest/%s", LSMCONF_ROOT, name);

	if (!path_exists(s)) {
		err_set(e, "no %s (run make first)", s);
		free(s);
		return -1;
	}
	image_file(img, path, s, 0755);
	free(s);
	return 0;
}

/*
 * The seed's blobs at lsmconf/policy-seed, by name: a copy another boot's
 * collection is writing into @dir (a temporary name) is not one.
 */
static void image_seed(struct image *img, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	image_dir(img, "lsmconf/policy-seed");
	while (d && (de = readdir(d))) {
		char *host, *guest;

		if (!seed_name_valid(de->d_name))
			continue;
		host = xasprintf("%s/%s", dir, de->d_name);
		guest = xasprintf("lsmconf/policy-seed/%s", de->d_name);
		image_file(img, guest, host, 0644);
		free(host);
		free(guest);
	}
	if (d)
		closedir(d);
}

/*
 * The kselftest install the guest runs the plan from, at /kselftest, as
 * "make install" lays it out: run_kselftest.sh, kselftest/ (runner.sh and
 * its helpers), kselftest-list.txt, and the collection's directory (named
 * as @tests_dir is) with the planned programs and its settings file. The
 * runner's files come from the install @tests_dir is in, else from
 * lsmconf's own (build/kselftest: a directory of loose programs, such as
 * the e2e fixtures, runs the same way). The list names the planned
 * programs; the guest's init runs them one by one with "-t COLL:NAME".
 */
static int kselftest_install(struct image *img, const struct plan *p,
			     const char *tests_dir, struct err *e)
{
	char *dir = xstrdup(tests_dir), *slash, *root, *runner, *coll, *s;
	struct sbuf list = { 0 };
	size_t i;

	while ((slash = strrchr(dir, '/')) && !slash[1] && slash != dir)
		*slash = '\0';
	slash = strrchr(dir, '/');
	coll = xstrdup(slash ? slash + 1 : dir);
	root = slash ? xstrndup(dir, slash - dir) : xstrdup(".");
	runner = xasprintf("%s/run_kselftest.sh", root);
	if (!path_exists(runner)) {
		free(root);
		root = xstrdup(LSMCONF_ROOT "/build/kselftest");
		free(runner);
		runner = xasprintf("%s/run_kselftest.sh", root);
	}
	if (!path_exists(runner)) {
		err_set(e, "no kselftest install at %s (run make first)", root);
		free(runner);
		free(root);
		free(coll);
		free(dir);
		return -1;
	}
	image_file(img, "kselftest/run_kselftest.sh", runner, 0755);
	s = xasprintf("%s/kselftest", root);
	image_tree(img, "kselftest/kselftest", s);
	free(s);
	for (i = 0; i < p->n; i++) {
		char *host = xasprintf("%s/%s", tests_dir, p->items[i].name);
		char *guest =
			xasprintf("kselftest/%s/%s", coll, p->items[i].name);

		image_file(img, guest, host, 0755);
		sbuf_printf(&list, "%s:%s\n", coll, p->items[i].name);
		free(host);
		free(guest);
	}
	image_data(img, "kselftest/kselftest-list.txt", list.buf, list.len,
		   0644);
	s = xasprintf("%s/settings", tests_dir);
	if (path_exists(s)) {
		char *guest = xasprintf("kselftest/%s/settings", coll);

		image_file(img, guest, s, 0644);
		free(guest);
	}
	free(s);
	image_data(img, "lsmconf/collection", coll, strlen(coll), 0644);
	/*
	 * runner.sh prefixes the program's output with kselftest/prefix.pl
	 * when /usr/bin/perl exists, else with sed, which buffers it: the
	 * live port must see each line as it is written (the case a crash
	 * happened in). runner/guest/prefix.c does what prefix.pl does;
	 * the script's "#!/usr/bin/env perl" finds it through busybox's env.
	 * runner.sh and init bound each program with /usr/bin/timeout, GNU's
	 * interface on runner/guest/timeout.c.
	 */
	if (guest_helper(img, "usr/bin/perl", "perl", e) ||
	    guest_helper(img, "usr/bin/timeout", "timeout", e)) {
		sbuf_free(&list);
		free(runner);
		free(root);
		free(coll);
		free(dir);
		return -1;
	}
	/* lsmconf.user=UID: runner/guest/runas.c (make builds it too). */
	s = xasprintf("%s/build/guest/runas", LSMCONF_ROOT);
	if (path_exists(s))
		image_file(img, "lsmconf/runas", s, 0755);
	free(s);
	image_symlink(img, "usr/bin/env", "/bin/busybox");
	sbuf_free(&list);
	free(runner);
	free(root);
	free(coll);
	free(dir);
	return 0;
}

int guest_image(const char *path, const struct kernel *k, const struct plan *p,
		const char *tests_dir, struct err *e)
{
	const char *busybox = getenv("LSMCONF_BUSYBOX");
	char *root = parser_root(e), *profiles, *modules, *abi;
	struct sbuf plan = { 0 };
	struct image *img;
	size_t i;
	int ret;

	if (!root)
		return -1;
	{
		const char *base = strrchr(root, '/');
		char *sub = xasprintf("policy/%s", base ? base + 1 : root);

		free(seed_dir);
		seed_dir = cache_path(sub);
		free(sub);
	}
	if (!busybox || !*busybox)
		busybox = "/bin/busybox";
	if (require_static(busybox, e)) {
		free(root);
		return -1;
	}

	img = image_create(path);
	image_file(img, "bin/busybox", busybox, 0755);
	image_symlink(img, "bin/sh", "busybox");
	image_file(img, "init", LSMCONF_ROOT "/runner/guest/init", 0755);
	image_file(img, "lsmconf/run-program",
		   LSMCONF_ROOT "/runner/guest/run-program", 0755);
	/* The kernel opens /dev/console before devtmpfs is mounted. */
	image_chardev(img, "dev/console", 5, 1);
	image_dir(img, "proc");
	image_dir(img, "sys");
	image_dir(img, "tmp");
	image_dir(img, "run");

	/* Merged /usr, as on Debian: the parser's loader is /lib64/ld-... */
	image_tree(img, "usr", xasprintf("%s/usr", root));
	image_tree(img, "etc", xasprintf("%s/etc", root));
	image_symlink(img, "lib64", "usr/lib64");
	image_symlink(img, "lib", "usr/lib");
	image_symlink(img, "sbin", "usr/sbin");

	if (kselftest_install(img, p, tests_dir, e)) {
		struct err ignored;

		image_close(img, &ignored);
		free(root);
		return -1;
	}
	for (i = 0; i < p->n; i++)
		sbuf_printf(&plan, "%s\t%d\t%s\n", p->items[i].name,
			    p->items[i].timeout_s, p->items[i].args);
	image_data(img, "lsmconf/plan", plan.buf, plan.len, 0644);
	profiles = xasprintf("%s/profiles", tests_dir);
	if (path_exists(profiles))
		image_tree(img, "lsmconf/profiles", profiles);
	else
		image_dir(img, "lsmconf/profiles");
	/*
	 * Blobs of this parser compiled in earlier boots (seed.h); "parser"
	 * is its identity, part of every blob's key.
	 */
	image_seed(img, seed_dir);
	{
		const char *base = strrchr(seed_dir, '/') + 1;

		image_data(img, "lsmconf/policy-seed/parser", base,
			   strlen(base), 0644);
	}
	/* Pinned AppArmor feature sets (--abi), installed beside the tests. */
	abi = xasprintf("%s/abi", tests_dir);
	if (path_exists(abi))
		image_tree(img, "lsmconf/abi", abi);
	free(abi);
	if (k->modules) {
		modules = xasprintf("usr/lib/modules/%s", k->release);
		image_tree(img, modules, k->modules);
		free(modules);
	}
	ret = image_close(img, e);
	sbuf_free(&plan);
	free(profiles);
	free(root);
	return ret;
}
