/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf bench: path evidence. After a point's timed rounds, one untimed
 * probe counts how often each function of the LSM path runs per message,
 * with kprobe events (tracefs kprobe_events, their hit counts in
 * kprobe_profile). The probe runs the point twice, with one and with two
 * rounds of the same messages, and keeps the difference of the hit counts:
 * what set-up and tear-down cost (socket creation, fork, profile change)
 * is in both runs and cancels, so the count is of the extra round's
 * messages only.
 *
 * The caller runs every point's timed rounds first and the probes after
 * them all: the calls-only probe adds its events at the first point, keeps
 * them for the next points (counting from a baseline read) and removes
 * them in path_probe_end(). Removing kprobe events and adding them again
 * is what this avoids: on the lsmconf build: 7.2 kernels (tinyconfig and
 * lsmconf.config), the next call of security_socket_recvmsg() after the
 * events were removed jumped to address 0 (an oops, twice), while Debian's
 * 6.12 and 7.2 kernels did not. The timed probe (function-graph tracer,
 * one function at a time) still sets up and tears down per function, and
 * is off unless asked for.
 *
 * Output, appended to $LSMCONF_RESULTS/probe.tsv, one line per function:
 *   POINT FUNCTION CALLS MESSAGES INSTRUCTIONS
 * CALLS is a number, "absent" (no such symbol in this kernel) or
 * "unprobeable" (the kernel refused a kprobe on it); INSTRUCTIONS, of the
 * same messages, from the function-graph tracer one function at a time
 * (path_probe_graph()), or "-" (not measured: the function did not run,
 * cannot be traced, or the tracer is missing). A point whose probe cannot run gets one line
 *   # POINT skipped: REASON
 */

#ifndef LSMCONF_PATH_PROBE_H
#define LSMCONF_PATH_PROBE_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../kselftest.h" /* ARRAY_SIZE */
#include "../lsmconf/lsmconf.h" /* read_text() */

#define PATH_PROBE_TRACEFS "/sys/kernel/tracing"
#define PATH_PROBE_GROUP "lsmconf_path"
/* Symbols per function: the name itself and its compiler clones. */
#define PATH_PROBE_VARIANTS 4

/* The functions of the LSM path whose calls per message are counted. */
static const char *const path_probe_functions[] = {
	/* LSM hooks of the socket paths */
	"security_socket_sendmsg",
	"security_socket_recvmsg",
	"security_unix_may_send",
	"security_unix_stream_connect",
	"security_socket_getpeersec_dgram",
	/* AppArmor */
	"apparmor_socket_sendmsg",
	"apparmor_socket_recvmsg",
	"apparmor_unix_may_send",
	"apparmor_unix_stream_connect",
	"aa_unix_peer_perm",
	"unix_peer_perm",
	"profile_peer_perm",
	"aa_sunaddr",
	"aa_sk_perm",
	"aa_unix_msg_perm",
	"aa_inet_msg_perm",
	"aa_label_sk_perm",
	"aa_unix_sock_perm",
	"aa_unix_label_sk_perm",
	"aa_profile_af_perm",
	/* SELinux */
	"selinux_socket_sendmsg",
	"selinux_socket_recvmsg",
	"selinux_socket_unix_may_send",
	"selinux_socket_unix_stream_connect",
	"sock_has_perm",
	"avc_has_perm",
	"avc_has_perm_noaudit",
	/* af_unix and inet */
	"unix_dgram_sendmsg",
	"unix_dgram_recvmsg",
	"unix_stream_sendmsg",
	"unix_stream_recvmsg",
	"unix_scm_to_skb",
	"__scm_send",
	"tcp_sendmsg",
	"udp_sendmsg",
};

#define PATH_PROBE_N ARRAY_SIZE(path_probe_functions)

/* Runs the point once with @rounds rounds of the probe's messages. */
typedef int (*path_probe_run_fn)(const void *ctx, int rounds);

struct path_probe_fn {
	int n; /* symbols found */
	char sym[PATH_PROBE_VARIANTS][256];
	bool probed; /* every symbol has an event */
	/* cumulative hits after run 1, after run 2, and before run 1 */
	unsigned long long hits[3];
	long long instructions; /* of the extra round; < 0: not measured */
};

/* "unix_peer_perm.isra.0" is a clone of "unix_peer_perm"; "x_y" is not. */
static inline bool path_probe_sym_matches(const char *sym, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(sym, name, n) && (sym[n] == '\0' || sym[n] == '.');
}

/* Finds every function's symbols (and clones) in /proc/kallsyms. */
static inline int path_probe_resolve(struct path_probe_fn *fns)
{
	char line[512], sym[256], type;
	unsigned long long addr;
	FILE *f = fopen("/proc/kallsyms", "re");
	size_t i;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		/* Module symbols ("[mod]") are probed the same way. */
		if (sscanf(line, "%llx %c %255s", &addr, &type, sym) != 3)
			continue;
		if (type != 't' && type != 'T')
			continue;
		for (i = 0; i < PATH_PROBE_N; i++) {
			struct path_probe_fn *p = &fns[i];

			if (p->n < PATH_PROBE_VARIANTS &&
			    path_probe_sym_matches(sym,
						   path_probe_functions[i]))
				snprintf(p->sym[p->n++], sizeof(p->sym[0]),
					 "%s", sym);
		}
	}
	fclose(f);
	return 0;
}

static inline int path_probe_write(const char *file, const char *text,
				   int flags)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	snprintf(path, sizeof(path), PATH_PROBE_TRACEFS "/%s", file);
	fd = open(path, O_WRONLY | O_CLOEXEC | flags);
	if (fd < 0)
		return -errno;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text))
		ret = errno ? -errno : -EIO;
	close(fd);
	return ret;
}

/*
 * Removes every event of our group and turns tracing back on. Safe to call
 * when nothing is set up: every step's failure is ignored.
 */
static inline void path_probe_reset(void)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), PATH_PROBE_TRACEFS "/events/%s/enable",
		 PATH_PROBE_GROUP);
	if (!access(path, F_OK))
		path_probe_write("events/" PATH_PROBE_GROUP "/enable", "0", 0);
	/* Truncating kprobe_events removes every kprobe event. */
	path_probe_write("kprobe_events", "", O_TRUNC);
	path_probe_write("current_tracer", "nop", 0);
	path_probe_write("set_ftrace_filter", "", O_TRUNC);
	path_probe_write("trace", "", O_TRUNC);
	path_probe_write("tracing_on", "1", 0);
}

/* Reads our events' hit counts from kprobe_profile into hits[@slot]. */
static inline int path_probe_read(struct path_probe_fn *fns, int slot)
{
	char line[512], name[128];
	unsigned long long hit, miss;
	unsigned int i, v;
	FILE *f = fopen(PATH_PROBE_TRACEFS "/kprobe_profile", "re");

	if (!f)
		return -errno;
	for (i = 0; i < PATH_PROBE_N; i++)
		fns[i].hits[slot] = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %llu %llu", name, &hit, &miss) != 3)
			continue;
		/* Our events are named f<function>_<variant>. */
		if (sscanf(name, "f%u_%u", &i, &v) == 2 && i < PATH_PROBE_N)
			fns[i].hits[slot] += hit;
	}
	fclose(f);
	return 0;
}

static inline void path_probe_line(const char *dir, const char *line)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/probe.tsv", dir);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	if (write(fd, line, strlen(line)) < 0)
		fprintf(stderr, "cannot write %s\n", path);
	close(fd);
}

static inline void path_probe_skip(const char *dir, const char *point,
				   const char *reason)
{
	char line[512];

	snprintf(line, sizeof(line), "# %s skipped: %s\n", point, reason);
	path_probe_line(dir, line);
	printf("# path probe of %s skipped: %s\n", point, reason);
}

/* Creates one event per symbol; false when the kernel has no kprobe events. */
static inline bool path_probe_add(struct path_probe_fn *fns, int *err)
{
	char def[384];
	size_t i;
	int v, ret;

	*err = 0;
	for (i = 0; i < PATH_PROBE_N; i++) {
		fns[i].probed = fns[i].n > 0;
		for (v = 0; v < fns[i].n; v++) {
			snprintf(def, sizeof(def), "p:%s/f%zu_%d %s\n",
				 PATH_PROBE_GROUP, i, v, fns[i].sym[v]);
			ret = path_probe_write("kprobe_events", def, O_APPEND);
			if (ret == -ENOENT || ret == -EACCES) {
				*err = ret;
				return false;
			}
			/* notrace or blacklisted: this symbol cannot be probed */
			if (ret)
				fns[i].probed = false;
		}
	}
	return true;
}

/*
 * The sum of the function-graph durations in the trace buffer, in ns
 * (" 0)   0.452 us    |  unix_peer_perm();"). -1 when events were lost.
 */
static inline long long path_probe_graph_sum(void)
{
	char line[512], *u, *n;
	double sum = 0;
	FILE *f = fopen(PATH_PROBE_TRACEFS "/trace", "re");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "LOST")) {
			sum = -1;
			break;
		}
		u = strstr(line, " us ");
		if (line[0] == '#' || !u || !strchr(u, '|'))
			continue;
		for (n = u; n > line &&
			    (n[-1] == '.' || (n[-1] >= '0' && n[-1] <= '9'));
		     n--)
			;
		sum += strtod(n, NULL) * 1000;
	}
	fclose(f);
	return sum < 0 ? -1 : (long long)(sum + 0.5);
}

/*
 * Sets the function filter to @syms (@n of them) and checks that it holds
 * something: an empty filter would trace every function.
 */
static inline bool path_probe_filter(const char (*syms)[256], int n)
{
	char buf[64];
	int v, ok = 0;

	path_probe_write("set_ftrace_filter", "", O_TRUNC);
	for (v = 0; v < n; v++)
		ok += !path_probe_write("set_ftrace_filter", syms[v], O_APPEND);
	/* Empty, or the "#### all functions enabled ####" of an empty one */
	return ok &&
	       read_text(PATH_PROBE_TRACEFS "/set_ftrace_filter", buf,
			 sizeof(buf)) > 0 &&
	       buf[0] != '#';
}

/*
 * The instructions spent in @fn (its symbols, children included) during
 * the extra round, from the function-graph tracer with only @fn in its
 * filter: under icount a duration in ns is a count of instructions. The
 * durations include the part of the tracer's own entry and exit work that
 * lies between its two timestamps.
 */
static inline long long path_probe_graph(const struct path_probe_fn *fn,
					 path_probe_run_fn run, const void *ctx)
{
	long long sum[2];
	int r, ret;

	path_probe_write("current_tracer", "nop", 0);
	/* not traceable (notrace) */
	if (!path_probe_filter((const char(*)[256])fn->sym, fn->n) ||
	    path_probe_write("current_tracer", "function_graph", 0))
		return -1;
	for (r = 0; r < 2; r++) {
		path_probe_write("trace", "", O_TRUNC);
		path_probe_write("tracing_on", "1", 0);
		ret = run(ctx, r + 1);
		path_probe_write("tracing_on", "0", 0);
		sum[r] = ret ? -1 : path_probe_graph_sum();
		if (sum[r] < 0)
			return -1;
	}
	return sum[1] - sum[0];
}

/*
 * The tracer's own cost per traced call: the function-graph duration of
 * getppid's syscall (a body of a few dozen instructions), per call,
 * over @n calls. An upper bound of what each traced call adds; -1 when
 * it cannot be measured.
 */
static inline long long path_probe_tracer_cost(int n)
{
	long long sum;
	int i;

	static const char syms[][256] = { "__x64_sys_getppid",
					  "__do_sys_getppid" };

	path_probe_write("current_tracer", "nop", 0);
	/* One of the two names (one address) is in the filter's list. */
	if ((!path_probe_filter(syms, 1) && !path_probe_filter(syms + 1, 1)) ||
	    path_probe_write("current_tracer", "function_graph", 0))
		return -1;
	path_probe_write("trace", "", O_TRUNC);
	path_probe_write("tracing_on", "1", 0);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	path_probe_write("tracing_on", "0", 0);
	sum = path_probe_graph_sum();
	return sum < 0 ? -1 : sum / n;
}

/*
 * The probe of one point: @run runs the point with 1 and with 2 rounds of
 * @messages messages each; probe.tsv gets the calls of the second run
 * minus those of the first, i.e. of @messages messages, and when @timed
 * the instructions of each function that ran.
 */
/* The calls-only events, kept from the first point's probe to the end. */
static bool path_probe_armed;
static bool path_probe_probed[PATH_PROBE_N];

static inline void path_probe_point(const char *point, int messages, bool timed,
				    path_probe_run_fn run, const void *ctx)
{
	static struct path_probe_fn *resolved;
	const char *dir = getenv("LSMCONF_RESULTS");
	struct path_probe_fn *fns;
	char line[512], reason[128];
	int err, ret = 0;
	long long cost;
	size_t i, len;

	if (!dir || messages <= 0)
		return;
	if (access(PATH_PROBE_TRACEFS "/kprobe_events", F_OK)) {
		mkdir(PATH_PROBE_TRACEFS, 0755);
		mount("tracefs", PATH_PROBE_TRACEFS, "tracefs", 0, NULL);
	}
	if (access(PATH_PROBE_TRACEFS "/kprobe_events", W_OK)) {
		path_probe_skip(
			dir, point,
			"no kprobe events (tracefs kprobe_events missing)");
		return;
	}
	/* /proc/kallsyms is read once per process: slow under TCG. */
	if (!resolved) {
		resolved = calloc(PATH_PROBE_N, sizeof(*resolved));
		if (!resolved || path_probe_resolve(resolved)) {
			path_probe_skip(dir, point,
					"cannot read /proc/kallsyms");
			free(resolved);
			resolved = NULL;
			return;
		}
	}
	fns = malloc(PATH_PROBE_N * sizeof(*fns));
	if (!fns) {
		path_probe_skip(dir, point, "out of memory");
		return;
	}
	memcpy(fns, resolved, PATH_PROBE_N * sizeof(*fns));
	if (!path_probe_armed) {
		path_probe_reset();
		/* Hits are counted with tracing off: nothing goes to the buffer. */
		path_probe_write("tracing_on", "0", 0);
		if (!path_probe_add(fns, &err)) {
			snprintf(reason, sizeof(reason),
				 "cannot add kprobe events: %s",
				 strerror(-err));
			goto skip;
		}
		ret = path_probe_write("events/" PATH_PROBE_GROUP "/enable",
				       "1", 0);
		if (ret) {
			snprintf(reason, sizeof(reason),
				 "cannot enable kprobe events: %s",
				 strerror(-ret));
			goto skip;
		}
		for (i = 0; i < PATH_PROBE_N; i++)
			path_probe_probed[i] = fns[i].probed;
		path_probe_armed = true;
	}
	for (i = 0; i < PATH_PROBE_N; i++)
		fns[i].probed = path_probe_probed[i];
	ret = path_probe_read(fns, 2);
	if (!ret)
		ret = run(ctx, 1);
	if (!ret)
		ret = path_probe_read(fns, 0);
	if (!ret)
		ret = run(ctx, 2);
	if (!ret)
		ret = path_probe_read(fns, 1);
	if (timed) {
		path_probe_write("events/" PATH_PROBE_GROUP "/enable", "0", 0);
		path_probe_write("kprobe_events", "", O_TRUNC);
		path_probe_armed = false;
	}
	/* Then the instructions of every function that ran, one at a time. */
	for (i = 0; i < PATH_PROBE_N; i++) {
		fns[i].instructions = -1;
		if (!ret && timed && fns[i].probed &&
		    fns[i].hits[1] + fns[i].hits[2] > 2 * fns[i].hits[0])
			fns[i].instructions =
				path_probe_graph(&fns[i], run, ctx);
	}
	cost = ret || !timed ? -1 : path_probe_tracer_cost(256);
	if (timed || ret) {
		path_probe_reset();
		path_probe_armed = false;
	}
	if (ret) {
		snprintf(reason, sizeof(reason), "probe run failed: %s",
			 strerror(-ret));
		path_probe_skip(dir, point, reason);
		free(fns);
		return;
	}
	if (cost >= 0) {
		snprintf(line, sizeof(line), "# %s tracer: %lld\n", point,
			 cost);
		path_probe_line(dir, line);
	}
	for (i = 0; i < PATH_PROBE_N; i++) {
		const struct path_probe_fn *p = &fns[i];

		if (!p->n || !p->probed)
			snprintf(line, sizeof(line), "%s\t%s\t%s\t%d\t", point,
				 path_probe_functions[i],
				 p->n ? "unprobeable" : "absent", messages);
		else
			/*
			 * run 2 alone minus run 1, from the baseline b:
			 * (hits[1] - hits[0]) - (hits[0] - b)
			 */
			snprintf(line, sizeof(line), "%s\t%s\t%lld\t%d\t",
				 point, path_probe_functions[i],
				 (long long)(p->hits[1] + p->hits[2] -
					     2 * p->hits[0]),
				 messages);
		len = strlen(line);
		if (p->n && p->probed && p->instructions >= 0)
			snprintf(line + len, sizeof(line) - len, "%lld\n",
				 p->instructions);
		else
			snprintf(line + len, sizeof(line) - len, "-\n");
		path_probe_line(dir, line);
	}
	free(fns);
	return;
skip:
	path_probe_reset();
	path_probe_armed = false;
	path_probe_skip(dir, point, reason);
	free(fns);
}

/* Removes the calls-only probe's events: after the last point's probe. */
static inline void path_probe_end(void)
{
	if (path_probe_armed)
		path_probe_reset();
	path_probe_armed = false;
}

#endif /* LSMCONF_PATH_PROBE_H */
