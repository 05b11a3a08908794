// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "accel.h"
#include "lib/lib.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

const char *accel_qemu(void)
{
	const char *q = getenv("LSMCONF_QEMU");

	return q && *q ? q : "qemu-system-x86_64";
}

/* Seconds a paused QEMU must stay up to have loaded its plugin. */
#define PLUGIN_PROBE_S 2

bool accel_qemu_plugins(const char *plugin)
{
	static int known = -1;
	struct spawn_opts o = { .stdin_fd = -1,
				.stderr_fd = -1,
				.timeout_s = 30 };
	char *help[] = { (char *)accel_qemu(), "-help", NULL }, *out = NULL;
	char *arg = xasprintf("%s,out=/dev/null", plugin);
	/*
	 * A QEMU with no machine, paused, runs until killed once its plugins
	 * loaded; one that cannot load it (no plugin support, another API
	 * version) exits at once.
	 */
	char *load[] = {
		(char *)accel_qemu(), "-M", "none",    "-display", "none",
		"-nodefaults",	      "-S", "-plugin", arg,	   NULL
	};
	size_t len;

	if (known < 0) {
		known = !spawn_capture(help, &o, &out, &len, NULL) && out &&
			strstr(out, "\n-plugin ");
		if (known) {
			o.timeout_s = PLUGIN_PROBE_S;
			known = spawn_wait(load, &o) == SPAWN_TIMEOUT;
		}
		free(out);
	}
	free(arg);
	return known;
}

bool accel_kvm_candidate(void)
{
	const char *dev = getenv("LSMCONF_KVM_DEVICE");
	int fd;

	if (getenv("LSMCONF_NO_KVM"))
		return false;
	fd = open(dev && *dev ? dev : "/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* @name as execvp() would find it. */
static char *which(const char *name)
{
	const char *path = getenv("PATH"), *p;

	if (strchr(name, '/'))
		return xstrdup(name);
	for (p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		char *cand = xasprintf("%.*s/%s", (int)n, p, name);

		if (!access(cand, X_OK))
			return cand;
		free(cand);
		p += n + (p[n] == ':');
	}
	return xstrdup(name);
}

char *accel_host_key(void)
{
	struct utsname u;
	struct stat st = { 0 };
	char *q = which(accel_qemu()), *key;

	uname(&u);
	stat(q, &st);
	/* Another emulator build or host kernel must be tried afresh. */
	key = xasprintf("%s|%s|%s|%lld|%lld", u.nodename, u.release, q,
			(long long)st.st_size, (long long)st.st_mtime);
	free(q);
	return key;
}

static const char *memo_name(enum accel_memo v)
{
	return v == ACCEL_KVM ? "kvm" : v == ACCEL_TCG ? "tcg" : "unknown";
}

enum accel_memo accel_memo_find(const char *text, const char *key, long now,
				long ttl, char *reason, size_t size)
{
	size_t klen = strlen(key);
	const char *line;

	if (size)
		reason[0] = '\0';
	for (line = text; line && *line; line = strchr(line, '\n')) {
		enum accel_memo v = ACCEL_UNKNOWN;
		const char *f;
		char *end;
		size_t vn;
		long when;

		if (*line == '\n')
			line++;
		if (strncmp(line, key, klen) || line[klen] != '\t')
			continue;
		/*
		 * The fields are split by hand, within this line: sscanf()'s
		 * "\t" and "%ld" skip any white space, newlines included, so
		 * an empty reason was read from the next line, and a
		 * timestamp could be too.
		 */
		f = line + klen + 1;
		vn = strspn(f, "abcdefghijklmnopqrstuvwxyz");
		if (!vn || f[vn] != '\t' || f[vn + 1] < '0' || f[vn + 1] > '9')
			return ACCEL_UNKNOWN;
		when = strtol(f + vn + 1, &end, 10);
		if (*end && *end != '\t' && *end != '\n')
			return ACCEL_UNKNOWN;
		if (when > now || now - when > ttl)
			return ACCEL_UNKNOWN;
		if (vn == 3 && !strncmp(f, "kvm", 3))
			v = ACCEL_KVM;
		else if (vn == 3 && !strncmp(f, "tcg", 3))
			v = ACCEL_TCG;
		/* A reason only goes with an answer. */
		if (v != ACCEL_UNKNOWN && size) {
			f = end + (*end == '\t');
			snprintf(reason, size, "%.*s", (int)strcspn(f, "\n"),
				 f);
		}
		return v;
	}
	return ACCEL_UNKNOWN;
}

char *accel_memo_set(const char *text, const char *key, enum accel_memo v,
		     long now, const char *reason)
{
	struct sbuf out = { 0 };
	size_t klen = strlen(key);
	const char *line;

	sbuf_add(&out, "", 0);
	for (line = text; line && *line;) {
		size_t n = strcspn(line, "\n");

		if (n && !(n > klen && !strncmp(line, key, klen) &&
			   line[klen] == '\t'))
			sbuf_printf(&out, "%.*s\n", (int)n, line);
		line += n + (line[n] == '\n');
	}
	/* One line per key; a reason never breaks the format. */
	sbuf_printf(&out, "%s\t%s\t%ld\t", key, memo_name(v), now);
	for (; reason && *reason; reason++)
		sbuf_printf(&out, "%c",
			    *reason == '\n' || *reason == '\t' ? ' ' : *reason);
	sbuf_printf(&out, "\n");
	return out.buf;
}

static char *memo_path(void)
{
	return xasprintf("%s/accel.tsv", cache_root());
}

enum accel_memo accel_recall(char *reason, size_t size)
{
	char *path = memo_path(), *key = accel_host_key(), *text;
	enum accel_memo v = ACCEL_UNKNOWN;

	if (!read_file(path, &text, NULL)) {
		v = accel_memo_find(text, key, time(NULL), ACCEL_MEMO_TTL,
				    reason, size);
		free(text);
	}
	free(key);
	free(path);
	return v;
}

void accel_remember(enum accel_memo v, const char *reason)
{
	char *path = memo_path(), *key = accel_host_key(), *text = NULL;
	char *tmp = xasprintf("%s.%d", path, getpid()), *out;

	mkdir_p(cache_root());
	if (read_file(path, &text, NULL))
		text = NULL;
	out = accel_memo_set(text, key, v, time(NULL), reason);
	/* Written whole, then renamed: concurrent runs never see half a file. */
	if (!write_file(tmp, out, strlen(out)))
		rename(tmp, path);
	unlink(tmp);
	free(out);
	free(text);
	free(tmp);
	free(key);
	free(path);
}
