// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "build.h"
#include "buildlog.h"
#include "coverage.h"
#include "lib/lib.h"
#include "kconfig.h"
#include "kernel.h"
#include "lineage.h"
#include "retarget.h"
#include "source.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define FRAGMENT LSMCONF_ROOT "/fixtures/config/lsmconf.config"
/*
 * The suites' own fragments, merged after FRAGMENT as make kselftest-merge
 * merges every tools/testing/selftests/<dir>/config.
 */
static const char *const suite_fragments[] = {
	LSMCONF_ROOT "/selftests/apparmor/config",
	LSMCONF_ROOT "/selftests/selinux/config",
};
#define BUILD_TIMEOUT_S (90 * 60)

/*
 * Runs a build step with its output appended to @log; 0, or the tool's
 * status (spawn_wait()) and @e.
 */
static int step_status(const struct kernel *k, const char *what,
		       const char *log, const char *cwd, char *const argv[],
		       struct err *e)
{
	char status[128];
	int fd, ret;

	fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return err_set(e, "cannot write %s: %s", log, strerror(errno));
	ret = spawn_wait(argv,
			 &(struct spawn_opts){ .cwd = cwd,
					       .stdin_fd = -1,
					       .stdout_fd = fd,
					       .stderr_fd = fd,
					       .timeout_s = BUILD_TIMEOUT_S });
	close(fd);
	if (ret) {
		/* The tool's own last words say best what went wrong. */
		char *text = NULL, *last = "";
		size_t len = 0;

		if (!read_file(log, &text, &len) && len) {
			while (len && text[len - 1] == '\n')
				text[--len] = '\0';
			last = strrchr(text, '\n');
			last = last ? last + 1 : text;
		}
		err_set(e, "%s: %s failed (%s): %s (log: %s)", k->spec.text,
			what, spawn_strstatus(ret, status, sizeof(status)),
			last, log);
		free(text);
		return ret;
	}
	return 0;
}

/* A step of the host's own (a copy): 0 or -1 and @e (the host's). */
static int step(const struct kernel *k, const char *what, const char *log,
		const char *cwd, char *const argv[], struct err *e)
{
	if (!step_status(k, what, log, cwd, argv, e))
		return 0;
	e->host = true;
	return -1;
}

/*
 * A step of the tree's (make, patch(1) in @cwd): its failure is the
 * kernel's only with the tool's own evidence in what the step wrote to
 * @log (buildlog.h), then @e->kernel; a patch patch(1) cannot read is
 * bad input; anything else (a compiler killed, a full disk, a step timed
 * out) is the host's, @e->host. 0 or -1 and @e.
 */
static int kernel_step(const struct kernel *k, const char *what,
		       const char *log, const char *cwd, char *const argv[],
		       struct err *e)
{
	char status[128], line[512];
	struct stat st;
	off_t from = stat(log, &st) ? 0 : st.st_size;
	enum build_blame blame = BUILD_HOST;
	char *text = NULL;
	size_t len = 0;
	int ret = step_status(k, what, log, cwd, argv, e);

	if (!ret)
		return 0;
	line[0] = '\0';
	if (ret > 0 && ret < 128 && !read_file(log, &text, &len) &&
	    (size_t)from <= len)
		blame = build_log_blame(text + from, len - from, cwd, line,
					sizeof(line));
	free(text);
	spawn_strstatus(ret, status, sizeof(status));
	switch (blame) {
	case BUILD_KERNEL:
		err_set(e, "%s: %s failed (%s): %s (log: %s)", k->spec.text,
			what, status, line, log);
		e->kernel = true;
		break;
	case BUILD_INPUT:
		err_set(e, "%s: %s failed: patch(1) cannot read it: %s",
			k->spec.text, what, line);
		break;
	case BUILD_HOST:
		/* step_status()'s message names the tool's last words. */
		if (line[0]) {
			err_set(e,
				"host failure: %s: %s failed (%s) with no error of the tree's in its log: %s (log: %s)",
				k->spec.text, what, status, line, log);
		} else {
			char *msg = xstrdup(e->msg);

			err_set(e, "host failure: %s", msg);
			free(msg);
		}
		e->host = true;
		break;
	}
	return -1;
}

static char *source_tree(const struct kernel *k, const char *src, struct err *e)
{
	char *mk;

	if (!strncmp(src, "debian-source:", 14))
		return debian_source_tree(k->spec.text, src + 14, NULL, e);
	mk = xasprintf("%s/security/apparmor/af_unix.c", src);
	if (access(mk, R_OK)) {
		err_set(e, "%s: %s is not a kernel tree with AppArmor (no %s)",
			k->spec.text, src, mk);
		free(mk);
		return NULL;
	}
	free(mk);
	return realpath(src, NULL);
}

/*
 * The name the known kernel bugs list gives this build: its exact source
 * (a Debian source package's tree is .../PACKAGE_VERSION/PACKAGE), and for
 * a patched build the first 12 digits of its build @key: no name that
 * every patch and mutant of a source shares, so that a stanza names
 * exactly the kernels it was seen on.
 */
static char *source_name(const char *src, const char *pristine, size_t n,
			 const char *key)
{
	char *dir = xstrdup(pristine), *slash, *name;

	slash = strrchr(dir, '/');
	if (!strncmp(src, "debian-source:", 14) && slash && slash != dir) {
		*slash = '\0';
		slash = strrchr(dir, '/');
	} else {
		slash = NULL;
	}
	name = xasprintf("build:%s%s%.*s", slash ? slash + 1 : pristine,
			 n ? "+" : "", n ? 12 : 0, key);
	free(dir);
	return name;
}

int kernel_makefile_version(const char *mk, char *out, size_t size)
{
	static const char *const keys[] = { "VERSION", "PATCHLEVEL",
					    "SUBLEVEL" };
	long v[3];
	size_t i;

	for (i = 0; i < 3; i++) {
		const char *p = mk;
		size_t n = strlen(keys[i]);
		char *end;

		/* "VERSION = 7" at the start of a line. */
		while (p && (strncmp(p, keys[i], n) ||
			     p[n + strspn(p + n, " ")] != '='))
			p = (p = strchr(p, '\n')) ? p + 1 : NULL;
		if (!p)
			return -1;
		p += n + strspn(p + n, " ") + 1;
		v[i] = strtol(p, &end, 10);
		if (end == p || v[i] < 0)
			return -1;
	}
	snprintf(out, size, "%ld.%ld.%ld", v[0], v[1], v[2]);
	return 0;
}

/* The VERSION.PATCHLEVEL.SUBLEVEL of @tree's Makefile, or NULL. */
static char *tree_version(const char *tree)
{
	char *path = xasprintf("%s/Makefile", tree), *mk = NULL, v[64];
	bool ok = !read_file(path, &mk, NULL) &&
		  !kernel_makefile_version(mk, v, sizeof(v));

	free(mk);
	free(path);
	return ok ? xstrdup(v) : NULL;
}

char *build_source_identity(const char *src, const char *tree)
{
	const char *end = strrchr(tree, '/'), *start;
	char *id, *us;

	if (strncmp(src, "debian-source:", 14) || !end)
		return xasprintf("tree %s", tree);
	for (start = end; start > tree && start[-1] != '/'; start--)
		;
	id = xasprintf("source %.*s", (int)(end - start), start);
	/* Debian's package names and versions hold no '_'. */
	us = strchr(id, '_');
	if (us)
		*us = ' ';
	return id;
}

/*
 * What makes a build distinct: source, patches, fragment, compiler, and
 * coverage's counters.
 */
static char *build_key(const char *tree, char *const *patches, size_t n,
		       bool coverage, struct err *e)
{
	struct sbuf sb = { 0 };
	char hex[65], *text;
	size_t i, len;

	sbuf_printf(&sb, "tree %s\n", tree);
	if (coverage) {
		text = coverage_key_text();
		sbuf_printf(&sb, "%s", text);
		free(text);
	}
	if (!read_file(FRAGMENT, &text, &len)) {
		/* What a suite's fragment adds: nothing today, same keys. */
		for (i = 0; i < ARRAY_SIZE(suite_fragments); i++) {
			char *frag, *beyond;

			if (read_file(suite_fragments[i], &frag, NULL))
				continue;
			beyond = kconfig_beyond(text, frag);
			sbuf_printf(&sb, "%s", beyond);
			free(beyond);
			free(frag);
		}
		sbuf_add(&sb, text, len);
		free(text);
	}
	for (i = 0; i < n; i++) {
		if (read_file(patches[i], &text, &len)) {
			err_set(e, "cannot read patch %s: %s", patches[i],
				strerror(errno));
			sbuf_free(&sb);
			return NULL;
		}
		sbuf_printf(&sb, "patch %zu\n", i);
		sbuf_add(&sb, text, len);
		free(text);
	}
	sha256_buf(sb.buf, sb.len, hex);
	sbuf_free(&sb);
	return xasprintf("%.16s", hex);
}

static int configure(const struct kernel *k, const char *root, const char *tree,
		     const char *out, const char *key, const char *log,
		     struct err *e)
{
	/* Not named localversion*: kbuild would append such a file's text. */
	char *local = xasprintf("%s/release-name.config", root);
	char *line = xasprintf("CONFIG_LOCALVERSION=\"-lsmconf-%.8s\"\n", key);
	char *o = xasprintf("O=%s", out), *cfg = NULL, *frag = NULL;
	char *merge = xasprintf("%s/scripts/kconfig/merge_config.sh", tree);
	char *cfgpath = xasprintf("%s/.config", out);
	char why[256];
	size_t i;
	int bad, rc;

	const char *cover = k->spec.coverage ? COVERAGE_FRAGMENT : NULL;

	_Static_assert(ARRAY_SIZE(suite_fragments) == 2,
		       "merge_config.sh is given two suite fragments");
	rc = kernel_step(k, "make tinyconfig", log, tree,
			 (char *[]){ "make", o, "tinyconfig", NULL }, e);
	if (!rc && write_file(local, line, strlen(line)))
		rc = err_set(e, "cannot write %s", local);
	if (!rc)
		rc = step(k, "merging the config fragments", log, tree,
			  (char *[]){ "sh", merge, "-m", "-O", (char *)out,
				      cfgpath, FRAGMENT,
				      (char *)suite_fragments[0],
				      (char *)suite_fragments[1], local,
				      (char *)cover, NULL },
			  e);
	if (!rc)
		rc = kernel_step(k, "make olddefconfig", log, tree,
				 (char *[]){ "make", o, "olddefconfig", NULL },
				 e);
	/* Kconfig drops what it cannot satisfy: check every option held. */
	if (!rc && read_file(cfgpath, &cfg, NULL))
		rc = err_set(e, "cannot read %s", cfgpath);
	for (i = 0; !rc && i <= ARRAY_SIZE(suite_fragments) + !!cover; i++) {
		const char *path = !i ? FRAGMENT :
				   i <= ARRAY_SIZE(suite_fragments) ?
					suite_fragments[i - 1] :
					cover;

		if (read_file(path, &frag, NULL)) {
			rc = err_set(e, "cannot read %s", path);
			break;
		}
		bad = kconfig_check_fragment(cfg, frag, why, sizeof(why));
		if (bad)
			rc = err_set(
				e,
				"%s: %d options of %s do not hold in the kernel config: %s",
				k->spec.text, bad, path, why);
		free(frag);
		frag = NULL;
	}
	free(cfg);
	free(frag);
	free(cfgpath);
	free(merge);
	free(o);
	free(line);
	free(local);
	return rc;
}

/* patch(1) of @patch in @tree, forwards or @reverse. */
static int apply(const struct kernel *k, const char *tree, const char *patch,
		 bool reverse, const char *log, struct err *e)
{
	char *what =
		xasprintf("%s %s", reverse ? "reverting" : "applying", patch);
	int rc;

	rc = kernel_step(k, what, log, tree,
			 (char *[]){ "patch", "-p1", "--no-backup-if-mismatch",
				     "-i", (char *)patch, reverse ? "-R" : NULL,
				     NULL },
			 e);
	free(what);
	return rc;
}

/*
 * The host tools' dependency files of objects copied from build root
 * @from into @out, pointed at @tree (retarget.h). 0, or -1 and @e (the
 * host's).
 */
static int retarget(const char *from, const char *tree, const char *out,
		    struct err *e)
{
	char *old = xasprintf("%s/tree/", from), *new = xasprintf("%s/", tree);
	char *tools = xasprintf("%s/tools", out);
	int rc = retarget_tools(tools, old, new, e);

	if (rc < 0)
		e->host = true;
	free(old);
	free(new);
	free(tools);
	return rc < 0 ? -1 : 0;
}

/*
 * The tree and objects of the complete build @from (nearest to this one,
 * @common patches shared): its tree hard-linked, its objects copied with
 * their times, its patches after @common reverted and ours after it
 * applied. Every file those patches touch is then newer than the objects,
 * and only it is compiled again. 0, or -1 and @e.
 */
static int from_neighbour(const struct kernel *k, const char *from,
			  const struct lineage *nb, size_t common,
			  char *const *patches, size_t n, const char *tree,
			  const char *out, const char *log, struct err *e)
{
	char *src = xasprintf("%s/tree/.", from);
	char *objs = xasprintf("%s/tree/o", from);
	size_t i;
	int rc;

	rc = step(k, "linking the neighbour's tree", log, NULL,
		  (char *[]){ "cp", "-al", src, (char *)tree, NULL }, e);
	/* Objects are rewritten in place by the compiler: never shared. */
	if (!rc && remove_tree(out))
		rc = err_set(e, "cannot remove %s", out);
	if (!rc)
		rc = step(k, "copying the neighbour's objects", log, NULL,
			  (char *[]){ "cp", "-a", objs, (char *)out, NULL }, e);
	if (!rc)
		rc = retarget(from, tree, out, e);
	for (i = nb->n; !rc && i > common; i--) {
		char *saved = xasprintf("%s/patches/%04zu.patch", from, i);

		rc = apply(k, tree, saved, true, log, e);
		free(saved);
	}
	for (i = common; !rc && i < n; i++)
		rc = apply(k, tree, patches[i], false, log, e);
	free(src);
	free(objs);
	return rc;
}

/* What this build is made of, for the builds after it (lineage.h). */
static int keep_lineage(const char *root, char *const *patches,
			const struct lineage *l, struct err *e)
{
	char *dir = xasprintf("%s/patches", root), *text, *to;
	size_t i;
	int rc = mkdir_p(dir) ? err_set(e, "cannot create %s", dir) : 0;

	for (i = 0; !rc && i < l->n; i++) {
		to = xasprintf("%s/%04zu.patch", dir, i + 1);
		if (copy_file(patches[i], to, 0644))
			rc = err_set(e, "cannot copy %s to %s", patches[i], to);
		free(to);
	}
	text = lineage_text(l);
	if (!rc && write_file_at(root, "lineage", text, strlen(text)))
		rc = err_set(e, "cannot write %s/lineage", root);
	free(text);
	free(dir);
	return rc;
}

/*
 * The build itself, into @root (the cache entry of @want): a copy of the
 * nearest complete build's tree and objects with the patches between them
 * applied, else the pristine tree patched and the unpatched build's
 * objects; then configure and make. 0, or -1 with the reason in @e.
 */
static int build(const struct kernel *k, const char *pristine,
		 char *const *patches, const struct lineage *want,
		 const char *root, const char *tree, const char *out,
		 const char *key, const char *log, const char *base_out,
		 double t0, struct err *e)
{
	char *cmd, *base_done, *builds, *from;
	struct lineage nb;
	size_t i, n = want->n, common = 0;
	bool ccache, copy;
	int rc;

	builds = xasprintf("%s/builds", cache_root());
	from = n ? lineage_nearest(builds, want, &nb) : NULL;
	free(builds);
	if (from) {
		remove_tree(root);
		if (mkdir_p(root))
			return err_set(e, "cannot create %s", root);
		lineage_distance(&nb, want, &common);
		progress(
			"%s: starting from the build %s (%zu patches reverted, %zu applied)",
			k->spec.text, strrchr(from, '/') + 1, nb.n - common,
			n - common);
		cmd = xasprintf("started from %s: %zu reverted, %zu applied\n",
				from, nb.n - common, n - common);
		write_file_at(root, "started-from", cmd, strlen(cmd));
		free(cmd);
		rc = from_neighbour(k, from, &nb, common, patches, n, tree, out,
				    log, e);
		lineage_free(&nb);
		free(from);
		if (!rc)
			goto configure;
		/* The neighbour's way failed: the pristine way says why, if it fails too. */
		progress_done();
		fprintf(stderr,
			"lsmconf: %s: %s; building from the pristine tree\n",
			k->spec.text, e->msg);
	}
	remove_tree(root);
	if (mkdir_p(root))
		return err_set(e, "cannot create %s", root);
	progress("%s: preparing the source tree", k->spec.text);
	/* Hard links: patch(1) replaces the files it changes. */
	cmd = xasprintf("%s/.", pristine);
	rc = step(k, "copying the source tree", log, NULL,
		  (char *[]){ "cp", "-al", cmd, (char *)tree, NULL }, e);
	free(cmd);
	for (i = 0; !rc && i < n; i++)
		rc = apply(k, tree, patches[i], false, log, e);
	if (rc)
		return rc;
	base_done = xasprintf("%s/../../.complete", base_out);
	copy = n && path_exists(base_done);
	free(base_done);
	if (copy) {
		/* Start from the original's objects, once it is complete. */
		char *base_root = xstrndup(base_out, strlen(base_out) -
							     strlen("/tree/o"));

		if (step(k, "copying the original build", log, NULL,
			 (char *[]){ "cp", "-a", (char *)base_out, (char *)out,
				     NULL },
			 e) ||
		    retarget(base_root, tree, out, e)) {
			free(base_root);
			return -1;
		}
		free(base_root);
	} else {
		mkdir_p(out);
	}
configure:
	if (k->spec.coverage && coverage_profile_tree(tree, e))
		return -1;
	if (configure(k, root, tree, out, key, log, e))
		return -1;
	ccache = !spawn_wait((char *[]){ "ccache", "--version", NULL },
			     &(struct spawn_opts){ .stdin_fd = -1,
						   .stdout_fd = -1,
						   .stderr_fd = -1,
						   .timeout_s = 10 });
	progress("%s: building bzImage%s (log: %s)", k->spec.text,
		 ccache ? " with ccache" : "", log);
	cmd = xasprintf("O=%s", out);
	rc = kernel_step(k, "make bzImage", log, tree,
			 (char *[]){ "make", cmd, "-j2",
				     ccache ? "CC=ccache gcc" : "CC=gcc",
				     "bzImage", NULL },
			 e);
	free(cmd);
	if (rc)
		return rc;
	progress_done();
	if (keep_lineage(root, patches, want, e))
		return -1;
	cmd = xasprintf("%.1f\n", now_seconds() - t0);
	write_file(xasprintf("%s/build-seconds", root), cmd, strlen(cmd));
	free(cmd);
	return 0;
}

int build_kernel(struct kernel *k, struct err *e)
{
	char *src = xstrdup(k->spec.value), *tok, *save = NULL;
	char **patches = NULL, *pristine = NULL, *key = NULL, *base_key = NULL;
	char *root = NULL, *tree = NULL, *out = NULL, *log = NULL;
	char *stamp = NULL, *image = NULL, *base_out = NULL, *lock = NULL;
	char *builds = NULL;
	struct lineage want = { 0 };
	int lock_fd = -1;
	size_t n = 0, i;
	double t0 = now_seconds();
	int rc = -1;

	/* SOURCE+PATCH+PATCH... */
	tok = strtok_r(src, "+", &save);
	while ((tok = strtok_r(NULL, "+", &save))) {
		patches = xrealloc(patches, (n + 1) * sizeof(char *));
		patches[n] = realpath(tok, NULL);
		if (!patches[n]) {
			err_set(e, "%s: cannot read patch %s: %s", k->spec.text,
				tok, strerror(errno));
			goto out;
		}
		n++;
	}
	pristine = source_tree(k, src, e);
	if (!pristine)
		goto out;
	key = build_key(pristine, patches, n, k->spec.coverage, e);
	if (!key)
		goto out;
	base_key = build_key(pristine, NULL, 0, k->spec.coverage, e);
	want.base = base_key;
	want.n = n;
	want.hash = xcalloc(n ? n : 1, sizeof(*want.hash));
	for (i = 0; i < n; i++)
		if (sha256_file(patches[i], want.hash[i])) {
			err_set(e, "%s: cannot read patch %s", k->spec.text,
				patches[i]);
			goto out;
		}
	builds = cache_path("builds");
	root = xasprintf("%s/%s", builds, key);
	tree = xasprintf("%s/tree", root);
	/* Out of tree, one level down: kbuild then uses relative paths, so
	 * a copy of the objects under another tree stays valid. */
	out = xasprintf("%s/o", tree);
	log = xasprintf("%s/build.log", root);
	stamp = xasprintf("%s/.complete", root);
	image = xasprintf("%s/arch/x86/boot/bzImage", out);
	base_out = xasprintf("%s/builds/%s/tree/o", cache_root(), base_key);

	/*
	 * Another lsmconf (a second shell, a parallel job) may build the
	 * same key: build() starts by removing the entry, so only one may
	 * build it and the others wait for its result. The wait ends with
	 * that build, whose every step is bounded.
	 */
	lock = xasprintf("%s.lock", root);
	lock_fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (lock_fd < 0 || flock(lock_fd, LOCK_EX)) {
		err_set(e, "%s: cannot lock %s: %s", k->spec.text, lock,
			strerror(errno));
		goto out;
	}
	if (!path_exists(stamp)) {
		int tries = 1;

		rc = build(k, pristine, patches, &want, root, tree, out, key,
			   log, base_out, t0, e);
		/* The host's failure once may not be twice: once more. */
		if (rc && e->host) {
			progress_done();
			note("%s: building once more after a host failure",
			     k->spec.text);
			rc = build(k, pristine, patches, &want, root, tree, out,
				   key, log, base_out, t0, e);
			tries++;
		}
		if (rc && e->host) {
			char *msg = xstrdup(e->msg);

			err_set(e, "%s (in %d tries)", msg, tries);
			e->host = true;
			free(msg);
		}
		if (rc)
			goto out;
		rc = -1;
		write_file(stamp, "", 0);
	} else {
		/* Built before lineages were kept: one for its neighbours now. */
		char *kept = xasprintf("%s/lineage", root);

		if (!path_exists(kept))
			keep_lineage(root, patches, &want, e);
		free(kept);
	}
	k->image = image;
	k->config = xasprintf("%s/.config", out);
	k->package = xasprintf("build %s", key);
	k->version = xasprintf("%s%s", src, n ? " + patches" : "");
	k->known_name = source_name(src, pristine, n, key);
	/* A patched build inherits its base's crash signatures only. */
	if (n)
		k->known_base = source_name(src, pristine, 0, NULL);
	k->tree_version = tree_version(tree);
	k->build_seconds = now_seconds() - t0;
	k->build_log = log;
	k->source = build_source_identity(src, pristine);
	image = log = NULL;
	rc = 0;
out:
	if (lock_fd >= 0)
		close(lock_fd); /* releases the lock */
	free(lock);
	free(builds);
	for (i = 0; i < n; i++)
		free(patches[i]);
	free(patches);
	free(pristine);
	free(key);
	free(base_key);
	free(want.hash);
	free(root);
	free(tree);
	free(out);
	free(log);
	free(stamp);
	free(image);
	free(base_out);
	free(src);
	return rc;
}
