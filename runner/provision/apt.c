// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "apt.h"
#include "lib/lib.h"

#include <ctype.h>
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

static const char *const default_suites[] = { "bookworm", "bookworm-backports",
					      "trixie", "sid", NULL };

const char *const *apt_suites(void)
{
	static const char **env_suites;
	const char *env = getenv("LSMCONF_DEBIAN_SUITES");
	char *copy, *tok, *save = NULL;
	size_t n = 0;

	if (!env || !*env)
		return default_suites;
	if (env_suites)
		return env_suites;
	env_suites = xcalloc(strlen(env) + 2, sizeof(char *));
	copy = xstrdup(env);
	for (tok = strtok_r(copy, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save))
		env_suites[n++] = tok;
	return env_suites;
}

bool apt_is_suite(const char *name)
{
	const char *const *s;

	for (s = apt_suites(); *s; s++)
		if (!strcmp(*s, name))
			return true;
	return false;
}

static void add_source(struct apt_source **v, size_t *n, const char *uri,
		       const char *suite, const char *signed_by)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].uri = xstrdup(uri);
	(*v)[*n].suite = xstrdup(suite);
	(*v)[*n].signed_by = signed_by ? xstrdup(signed_by) : NULL;
	(*n)++;
}

/* One deb822 stanza: Types, URIs, Suites (space separated), Signed-By. */
static void parse_stanza(char *st, struct apt_source **v, size_t *n)
{
	char *types = NULL, *uris = NULL, *suites = NULL, *sb = NULL;
	char *line, *save = NULL, *u, *s, *su = NULL, *ss = NULL;

	for (line = strtok_r(st, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon;

		if (line[0] == '#' || isspace((unsigned char)line[0]))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (!strcasecmp(line, "Types"))
			types = trim(colon + 1);
		else if (!strcasecmp(line, "URIs"))
			uris = trim(colon + 1);
		else if (!strcasecmp(line, "Suites"))
			suites = trim(colon + 1);
		else if (!strcasecmp(line, "Signed-By"))
			/* An inline key (continuation lines) has no file name. */
			sb = *trim(colon + 1) ? trim(colon + 1) : NULL;
		else if (!strcasecmp(line, "Enabled") &&
			 !strcasecmp(trim(colon + 1), "no"))
			return;
	}
	if (!types || !uris || !suites || !strstr(types, "deb"))
		return;
	/* "deb-src" alone is no binary source. */
	if (!strcmp(types, "deb-src"))
		return;
	for (u = strtok_r(uris, " \t", &su); u;
	     u = strtok_r(NULL, " \t", &su)) {
		char *copy = xstrdup(suites);

		for (s = strtok_r(copy, " \t", &ss); s;
		     s = strtok_r(NULL, " \t", &ss))
			add_source(v, n, u, s, sb);
		free(copy);
	}
}

void apt_parse_sources(const char *text, bool deb822, struct apt_source **v,
		       size_t *n)
{
	char *copy = xstrdup(text), *p = copy, *line, *save = NULL;

	if (deb822) {
		/* Stanzas are separated by blank lines. */
		for (;;) {
			char *end = strstr(p, "\n\n");

			if (end)
				*end = '\0';
			parse_stanza(p, v, n);
			if (!end)
				break;
			p = end + 2;
		}
		free(copy);
		return;
	}
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[8], *ts = NULL, *t, *signed_by = NULL;
		int nt = 0;

		line = trim(line);
		if (strncmp(line, "deb ", 4) && strncmp(line, "deb\t", 4))
			continue;
		line += 4;
		line = trim(line);
		if (*line == '[') {
			char *close = strchr(line, ']');
			char *sb;

			if (!close)
				continue;
			*close = '\0';
			sb = strstr(line, "signed-by=");
			if (sb) {
				signed_by = sb + 10;
				signed_by[strcspn(signed_by, " \t")] = '\0';
			}
			line = close + 1;
		}
		for (t = strtok_r(line, " \t", &ts); t && nt < 8;
		     t = strtok_r(NULL, " \t", &ts))
			tok[nt++] = t;
		if (nt >= 2)
			add_source(v, n, tok[0], tok[1], signed_by);
	}
	free(copy);
}

void apt_sources_free(struct apt_source *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].uri);
		free(v[i].suite);
		free(v[i].signed_by);
	}
	free(v);
}

static void emit(struct sbuf *sb, const struct apt_source *src,
		 const char *suite)
{
	char *line;

	if (src->signed_by)
		line = xasprintf("deb [signed-by=%s] %s %s main\n",
				 src->signed_by, src->uri, suite);
	else
		line = xasprintf("deb %s %s main\n", src->uri, suite);
	/* The same archive may be named by several system entries. */
	if (!sb->buf || !strstr(sb->buf, line))
		sbuf_add(sb, line, strlen(line));
	free(line);
}

char *apt_private_sources(const struct apt_source *v, size_t n,
			  const char *const *suites)
{
	struct sbuf sb = { 0 };
	const char *const *s;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *dash = strchr(v[i].suite, '-');

		/* Third-party repositories (own keys) serve no Debian suites. */
		if (v[i].signed_by &&
		    !strstr(v[i].signed_by, "debian-archive-keyring"))
			continue;
		if (!dash && !strchr(v[i].suite, '/')) {
			for (s = suites; *s; s++)
				emit(&sb, &v[i], *s);
		} else if (dash && !strcmp(dash, "-security")) {
			emit(&sb, &v[i], v[i].suite);
		}
	}
	return sb.buf;
}

char *apt_madison_pick(const char *madison, const char *pkg, const char *suite)
{
	const char *line = madison;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *l = xstrndup(line, len), *f[3], *save = NULL, *p;
		int nf = 0;

		for (p = strtok_r(l, "|", &save); p && nf < 3;
		     p = strtok_r(NULL, "|", &save))
			f[nf++] = trim(p);
		if (nf == 3 && !strcmp(f[0], pkg)) {
			char *want = suite ? xasprintf(" %s/", suite) : NULL;
			bool ok = !want || strstr(f[2], want);

			free(want);
			if (ok) {
				char *ver = xstrdup(f[1]);

				free(l);
				return ver;
			}
		}
		free(l);
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

char *apt_stanza_field(const char *stanza, const char *field)
{
	size_t flen = strlen(field);
	const char *line = stanza;

	while (line && *line && *line != '\n') {
		const char *end = strchr(line, '\n');

		if (!strncasecmp(line, field, flen) && line[flen] == ':') {
			const char *v = line + flen + 1;
			size_t len = end ? (size_t)(end - v) : strlen(v);
			char *copy = xstrndup(v, len), *t = xstrdup(trim(copy));

			free(copy);
			return t;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

char *apt_depends_find(const char *depends, const char *prefix,
		       const char *suffix)
{
	size_t plen = strlen(prefix), slen = strlen(suffix);
	const char *p = depends;

	while (p && *p) {
		size_t len;

		while (*p == ' ' || *p == ',' || *p == '|')
			p++;
		len = strcspn(p, " ,|(");
		if (len > plen + slen && !strncmp(p, prefix, plen) &&
		    !strncmp(p + len - slen, suffix, slen))
			return xstrndup(p, len);
		p += len;
		p += strcspn(p, ",|");
	}
	return NULL;
}

/* --- the private state -------------------------------------------------- */

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
	int n = 0;

	argv[n++] = (char *)prog;
	argv[n++] = "-o";
	argv[n++] = xasprintf("Dir::Etc::sourcelist=%s/sources.list", d);
	argv[n++] = "-o";
	argv[n++] = "Dir::Etc::sourceparts=/dev/null";
	argv[n++] = "-o";
	argv[n++] = "Dir::Etc::preferencesparts=/dev/null";
	argv[n++] = "-o";
	argv[n++] = xasprintf("Dir::State::lists=%s/lists", d);
	argv[n++] = "-o";
	argv[n++] = "Dir::State::status=/dev/null";
	argv[n++] = "-o";
	argv[n++] = xasprintf("Dir::Cache=%s/cache", d);
	argv[n++] = "-o";
	argv[n++] = "Acquire::Languages=none";
	argv[n++] = "-o";
	argv[n++] = "APT::Architectures=amd64";
	argv[n++] = "-o";
	argv[n++] = xasprintf("APT::Sandbox::User=%s", apt_sandbox_user());
	argv[n++] = "-o";
	argv[n++] = "Debug::NoLocking=1";
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
