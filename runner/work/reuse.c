// SPDX-License-Identifier: GPL-2.0
/*
 * The results of a boot are never produced twice: a boot of an unpatched
 * kernel built from source (the original of mutate, compare's unpatched
 * side, a series' base) that passed is kept in the cache under a key of
 * everything it came from, and a later boot with the same key, by any
 * command, takes a copy instead of booting. The key: the kernel image's
 * and config's SHA-256, the spec, the LSM, every run option that changes
 * a boot (unit_run_key()), the SHA-256 of this lsmconf program, the guest
 * init and helpers, every file of the tests directory, the known kernel
 * bugs list, the guest's AppArmor userspace, and every LSMCONF_ variable
 * of the environment (a stand-in QEMU, TCG forced...). Kernels from
 * packages (debian:, deb:, file:) and patched builds always boot: they
 * are what a run is asked to look at.
 */
#define _GNU_SOURCE
#include "work.h"
#include "provision/provision.h"
#include "vm/vm.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

/* "NAME SHA-256" of @path, and of every file below it, in name order. */
static void digest_tree(struct sbuf *sb, const char *path, const char *name)
{
	struct dirent **ents;
	struct stat st;
	char hex[65], target[PATH_MAX];
	ssize_t n;
	int i, m;

	if (lstat(path, &st)) {
		sbuf_printf(sb, "%s missing\n", name);
		return;
	}
	if (S_ISLNK(st.st_mode)) {
		n = readlink(path, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		sbuf_printf(sb, "%s -> %s\n", name, target);
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		if (sha256_file(path, hex))
			strcpy(hex, "unreadable");
		sbuf_printf(sb, "%s %s\n", name, hex);
		return;
	}
	m = scandir(path, &ents, NULL, alphasort);
	for (i = 0; i < m; i++) {
		if (strcmp(ents[i]->d_name, ".") &&
		    strcmp(ents[i]->d_name, "..")) {
			char *p = xasprintf("%s/%s", path, ents[i]->d_name);
			char *nm = xasprintf("%s/%s", name, ents[i]->d_name);

			digest_tree(sb, p, nm);
			free(p);
			free(nm);
		}
		free(ents[i]);
	}
	if (m >= 0)
		free(ents);
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every LSMCONF_ variable but where the cache and check counts go. */
static void digest_env(struct sbuf *sb)
{
	char **v = NULL;
	size_t n = 0, i;

	for (i = 0; environ[i]; i++)
		if (!strncmp(environ[i], "LSMCONF_", 8) &&
		    strncmp(environ[i], "LSMCONF_CACHE=", 14) &&
		    strncmp(environ[i], "LSMCONF_CHECK_COUNTS=", 21)) {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n++] = environ[i];
		}
	if (n)
		qsort(v, n, sizeof(*v), by_string);
	for (i = 0; i < n; i++)
		sbuf_printf(sb, "env %s\n", v[i]);
	free(v);
}

char *reuse_key(const struct run_opts *o, const struct unit *u,
		const struct kernel *k)
{
	const struct lsm *l = u->lsm ? lsm_find(u->lsm) : NULL;
	struct sbuf sb = { 0 };
	char *run_key, *tests, *self, hex[65];
	const char *parser;
	struct err e;

	/* Unpatched source builds only, one LSM a boot. */
	if (!k->build_log || k->known_base || !l)
		return NULL;
	parser = guest_parser_id(&e);
	if (!parser)
		return NULL;
	run_key = unit_run_key(o);
	sbuf_printf(&sb, "reuse 1\nimage %s\nconfig %s\nspec %s\nlsm %s\n%s",
		    k->image_sha256, k->config_sha256, u->spec, u->lsm,
		    run_key);
	sbuf_printf(&sb, "parser %s\n", parser);
	/* The program itself, not /proc's link to it. */
	self = realpath("/proc/self/exe", NULL);
	digest_tree(&sb, self ? self : "/proc/self/exe", "lsmconf");
	digest_tree(&sb, LSMCONF_ROOT "/runner/guest/init", "init");
	digest_tree(&sb, LSMCONF_ROOT "/build/guest", "guest");
	tests = o->tests_dir ? xstrdup(o->tests_dir) :
			       xasprintf("%s/%s", o->tests_root, l->tests);
	digest_tree(&sb, tests, "tests");
	digest_tree(&sb, o->known_path ? o->known_path : "/nonexistent",
		    "known");
	digest_env(&sb);
	sha256_buf(sb.buf, sb.len, hex);
	sbuf_free(&sb);
	free(run_key);
	free(tests);
	free(self);
	return xstrndup(hex, 32);
}

/* Copies tree @from to @to (hard links where it can). */
static int copy_tree(const char *from, const char *to)
{
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (lstat(from, &st))
		return -errno;
	if (!S_ISDIR(st.st_mode)) {
		if (S_ISREG(st.st_mode) &&
		    (!link(from, to) ||
		     !copy_file(from, to, st.st_mode & 0777)))
			return 0;
		return S_ISREG(st.st_mode) ? -EIO : 0; /* no links, FIFOs */
	}
	if (mkdir(to, 0755) && errno != EEXIST)
		return -errno;
	d = opendir(from);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		char *f, *t;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		f = xasprintf("%s/%s", from, de->d_name);
		t = xasprintf("%s/%s", to, de->d_name);
		ret = copy_tree(f, t);
		free(f);
		free(t);
	}
	closedir(d);
	return ret;
}

int reuse_take(const char *key, const char *dir, const char *name)
{
	char *cached = cache_path("runs"), *from, *to, *report, *t;
	int ret = 0;

	from = xasprintf("%s/%s/run", cached, key);
	report = xasprintf("%s/%s/report", cached, key);
	to = xasprintf("%s/%s", dir, name);
	if (path_exists(from) && !read_file(report, &t, NULL)) {
		if (!copy_tree(from, to)) {
			char *timing = xasprintf("%s/timing.tsv", to);

			/* Nothing was timed here: no time to count again. */
			unlink(timing);
			free(timing);
			printf("== reused: %s's results of an earlier boot of the same kernel image, tests, lsmconf and options (%s/%s)\n%s",
			       name, cached, key, t);
			ret = 1;
		} else {
			remove_tree(to);
		}
		free(t);
	}
	free(report);
	free(from);
	free(to);
	free(cached);
	return ret;
}

void reuse_keep(const char *key, const char *dir, const char *name)
{
	char *cached = cache_path("runs"), *tmp, *final, *from, *path, *out;
	size_t len;

	fflush(stdout);
	final = xasprintf("%s/%s", cached, key);
	tmp = xasprintf("%s.%d", final, getpid());
	from = xasprintf("%s/%s", dir, name);
	path = xasprintf("%s/run", tmp);
	/* The unit's report so far: what run_kernel() printed of this boot. */
	out = xasprintf("%s/output.txt", dir);
	if (!mkdir_p(tmp) && !copy_tree(from, path)) {
		char *text, *rep = xasprintf("%s/report", tmp);

		if (!read_file(out, &text, &len)) {
			write_file(rep, text, len);
			free(text);
			/* The first to finish wins; the same key is the same run. */
			if (rename(tmp, final))
				remove_tree(tmp);
		} else {
			remove_tree(tmp);
		}
		free(rep);
	} else {
		remove_tree(tmp);
	}
	free(out);
	free(path);
	free(from);
	free(tmp);
	free(final);
	free(cached);
}
