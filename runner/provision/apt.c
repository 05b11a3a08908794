// SPDX-License-Identifier: GPL-2.0
/*
 * apt run with lsmconf's private state (in the cache): the package lists,
 * apt-cache answers remembered until the next update, and downloads
 * checked against the archive's SHA256. The texts are parsed in
 * apt_parse.c.
 */
#define _GNU_SOURCE
#include "apt.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *apt_dir(void)
{
	return cache_path("apt");
}

/* True when user @pw can create a file in @dir: tried, as apt does. */
static bool user_can_write(const struct passwd *pw, const char *dir)
{
	char *tmpl = xasprintf("%s/.lsmconf-sandbox-XXXXXX", dir);
	pid_t pid = fork();
	int status = 1, fd;

	if (!pid) {
		if (setgroups(0, NULL) || setgid(pw->pw_gid) ||
		    setuid(pw->pw_uid))
			_exit(1);
		fd = mkstemp(tmpl);
		if (fd < 0)
			_exit(1);
		unlink(tmpl);
		_exit(0);
	}
	free(tmpl);
	if (pid < 0)
		return false;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(status) && !WEXITSTATUS(status);
}

/*
 * Where downloads land first: @d/download, owned by _apt (0700) as apt
 * owns its partial/ directories, so that apt-get download (which writes
 * into its working directory) can stay sandboxed.
 */
static char *stage_dir(const char *d)
{
	return xasprintf("%s/download", d);
}

/*
 * apt run as root downloads as _apt (APT::Sandbox::User) and chowns its
 * partial/ directories to it; that only works when _apt can reach the
 * private state. It cannot under a home directory of mode 0700 (the
 * default cache, ~/.cache/lsmconf, of root): then apt would go on as root
 * with a warning, so root is said outright. Decided once per process.
 */
const char *apt_sandbox_user(void)
{
	static const char *user;
	struct passwd *pw;
	char *d, *stage;

	if (user)
		return user;
	user = "root";
	/* Not root: apt cannot change users, nor does it try. */
	if (geteuid() || !(pw = getpwnam("_apt")))
		return user;
	d = apt_dir();
	stage = stage_dir(d);
	if (!mkdir_p(stage) && !chown(stage, pw->pw_uid, 0) &&
	    !chmod(stage, 0700) && user_can_write(pw, stage))
		user = "_apt";
	free(stage);
	free(d);
	return user;
}

static void apt_argv(char **argv, int *argc, const char *prog)
{
	char *d = apt_dir();
	/* Each "-o" option: the sources, lists and cache are the private state. */
	char *opts[] = {
		xasprintf("Dir::Etc::sourcelist=%s/sources.list", d),
		"Dir::Etc::sourceparts=/dev/null",
		"Dir::Etc::preferencesparts=/dev/null",
		xasprintf("Dir::State::lists=%s/lists", d),
		"Dir::State::status=/dev/null",
		xasprintf("Dir::Cache=%s/cache", d),
		"Acquire::Languages=none",
		"APT::Architectures=amd64",
		xasprintf("APT::Sandbox::User=%s", apt_sandbox_user()),
		"Debug::NoLocking=1",
	};
	size_t i;
	int n = 0;

	argv[n++] = (char *)prog;
	for (i = 0; i < ARRAY_SIZE(opts); i++) {
		argv[n++] = "-o";
		argv[n++] = opts[i];
	}
	*argc = n;
	free(d);
}

static char *system_sources(void)
{
	struct apt_source *v = NULL;
	size_t n = 0;
	char *text, *out;
	DIR *dir;
	struct dirent *de;

	if (!read_file("/etc/apt/sources.list", &text, NULL)) {
		apt_parse_sources(text, false, &v, &n);
		free(text);
	}
	dir = opendir("/etc/apt/sources.list.d");
	while (dir && (de = readdir(dir))) {
		size_t len = strlen(de->d_name);
		bool deb822 =
			len > 8 && !strcmp(de->d_name + len - 8, ".sources");
		bool list = len > 5 && !strcmp(de->d_name + len - 5, ".list");
		char *path;

		if (!deb822 && !list)
			continue;
		path = xasprintf("/etc/apt/sources.list.d/%s", de->d_name);
		if (!read_file(path, &text, NULL)) {
			apt_parse_sources(text, deb822, &v, &n);
			free(text);
		}
		free(path);
	}
	if (dir)
		closedir(dir);
	out = apt_private_sources(v, n, apt_suites());
	apt_sources_free(v, n);
	return out;
}

int apt_ready(bool refresh, struct err *e)
{
	char *d = apt_dir(), *path, *old = NULL, *src, *argv[40];
	int argc, ret, rc = 0;
	char buf[128];

	src = system_sources();
	if (!src) {
		free(d);
		return err_set(
			e,
			"no Debian archive found in the system's apt sources (/etc/apt/sources.list[.d])");
	}
	path = xasprintf("%s/sources.list", d);
	if (!refresh && !read_file(path, &old, NULL) && !strcmp(old, src)) {
		char *stamp = xasprintf("%s/lists/.complete", d);
		bool fresh = path_exists(stamp);

		free(stamp);
		if (fresh)
			goto out;
	}
	if (mkdir_p(d) || write_file(path, src, strlen(src))) {
		rc = err_set(e, "cannot write %s", path);
		goto out;
	}
	free(path);
	path = xasprintf("%s/lists/partial", d);
	mkdir_p(path);
	free(path);
	path = xasprintf("%s/cache/archives/partial", d);
	mkdir_p(path);
	free(path);
	path = NULL;

	/* Answers remembered from the old lists are void with new lists. */
	path = xasprintf("%s/memo", d);
	remove_tree(path);
	free(path);
	path = NULL;
	progress("updating package lists (private apt state in %s)", d);
	apt_argv(argv, &argc, "apt-get");
	argv[argc++] = stderr_is_tty() ? "-q" : "-qq";
	argv[argc++] = "update";
	argv[argc] = NULL;
	ret = spawn_wait(argv, &(struct spawn_opts){ .stdin_fd = -1,
						     .stdout_fd = -1,
						     .stderr_fd = -2,
						     .timeout_s = 600 });
	progress_done();
	if (ret) {
		rc = err_set(e, "apt-get update (private state %s) failed: %s",
			     d, spawn_strstatus(ret, buf, sizeof(buf)));
		goto out;
	}
	path = xasprintf("%s/lists/.complete", d);
	write_file(path, "", 0);
out:
	free(path);
	free(old);
	free(src);
	free(d);
	return rc;
}

/*
 * apt-cache parses every list on each call (seconds); the answers only
 * change when the lists do, so they are remembered until the next update.
 */
static char *memo_path(const char *cmd, const char *arg)
{
	char *key = xasprintf("%s %s", cmd, arg), *d = apt_dir(), *path;
	char hex[65];

	sha256_buf(key, strlen(key), hex);
	path = xasprintf("%s/memo/%.32s", d, hex);
	free(key);
	free(d);
	return path;
}

char *apt_cache(const char *cmd, const char *arg, struct err *e)
{
	char *argv[40], *out, *err, *memo = memo_path(cmd, arg);
	int argc, ret;
	char buf[128];

	if (!read_file(memo, &out, NULL)) {
		free(memo);
		return out;
	}

	apt_argv(argv, &argc, "apt-cache");
	argv[argc++] = (char *)cmd;
	argv[argc++] = (char *)arg;
	argv[argc] = NULL;
	ret = spawn_capture(
		argv, &(struct spawn_opts){ .stdin_fd = -1, .timeout_s = 120 },
		&out, NULL, &err);
	if (ret == SPAWN_TIMEOUT || ret < 0) {
		err_set(e, "apt-cache %s %s: %s", cmd, arg,
			spawn_strstatus(ret, buf, sizeof(buf)));
		free(memo);
		return NULL;
	}
	free(err);
	/* apt-cache show fails for unknown packages: callers see "". */
	if (ret)
		out[0] = '\0';
	*strrchr(memo, '/') = '\0';
	mkdir_p(memo);
	memo[strlen(memo)] = '/';
	write_file(memo, out, strlen(out));
	free(memo);
	return out;
}

/*
 * A fresh directory of the stage for one download, owned by _apt, or NULL
 * when apt runs as root (then it downloads into the destination itself).
 */
static char *download_stage(void)
{
	struct passwd *pw;
	char *d, *stage, *tmpl;

	if (strcmp(apt_sandbox_user(), "_apt") || !(pw = getpwnam("_apt")))
		return NULL;
	d = apt_dir();
	stage = stage_dir(d);
	tmpl = xasprintf("%s/XXXXXX", stage);
	free(stage);
	free(d);
	if (!mkdtemp(tmpl) || chown(tmpl, pw->pw_uid, 0)) {
		free(tmpl);
		return NULL;
	}
	return tmpl;
}

char *apt_download(const char *pkg, const char *version, const char *dir,
		   struct err *e)
{
	char *stanza, *filename, *sha, *path, *base, *pv, *argv[40], *stage;
	char hex[65], buf[128];
	int argc, ret;

	pv = xasprintf("%s=%s", pkg, version);
	stanza = apt_cache("show", pv, e);
	if (!stanza) {
		free(pv);
		return NULL;
	}
	filename = apt_stanza_field(stanza, "Filename");
	sha = apt_stanza_field(stanza, "SHA256");
	if (!filename || !sha) {
		err_set(e, "%s: not in the package lists", pv);
		path = NULL;
		goto out;
	}
	base = strrchr(filename, '/');
	base = base ? base + 1 : filename;
	/* apt writes an epoch's ':' as "%3a" in file names. */
	path = xasprintf("%s/%s", dir, base);
	{
		char *c = strstr(path + strlen(dir), ":");

		if (c) {
			char *fixed = xasprintf("%.*s%%3a%s", (int)(c - path),
						path, c + 1);

			free(path);
			path = fixed;
		}
	}
	if (path_exists(path) && !sha256_file(path, hex) && !strcmp(hex, sha))
		goto out;
	mkdir_p(dir);
	stage = download_stage();
	progress("downloading %s", pv);
	apt_argv(argv, &argc, "apt-get");
	argv[argc++] = stderr_is_tty() ? "-q" : "-qq";
	argv[argc++] = "download";
	argv[argc++] = pv;
	argv[argc] = NULL;
	ret = spawn_wait(argv, &(struct spawn_opts){ .cwd = stage ? stage : dir,
						     .stdin_fd = -1,
						     .stdout_fd = -1,
						     .stderr_fd = -2,
						     .timeout_s = 1800 });
	progress_done();
	if (!ret && stage) {
		char *staged =
			xasprintf("%s/%s", stage, strrchr(path, '/') + 1);

		/* Another file system: copied, then the stage goes. */
		if (rename(staged, path) &&
		    (errno != EXDEV || copy_file(staged, path, 0644))) {
			err_set(e, "%s: cannot move %s to %s: %s", pv, staged,
				path, strerror(errno));
			free(path);
			path = NULL;
		}
		free(staged);
	}
	if (stage) {
		remove_tree(stage);
		free(stage);
	}
	if (!path)
		goto out;
	if (ret) {
		err_set(e, "downloading %s failed: %s", pv,
			spawn_strstatus(ret, buf, sizeof(buf)));
		free(path);
		path = NULL;
	} else if (sha256_file(path, hex) || strcmp(hex, sha)) {
		err_set(e,
			"%s: downloaded file %s does not match the archive's SHA256",
			pv, path);
		free(path);
		path = NULL;
	}
out:
	free(stanza);
	free(filename);
	free(sha);
	free(pv);
	return path;
}
