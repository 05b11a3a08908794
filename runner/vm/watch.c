// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "watch.h"
#include "console.h"
#include "crash.h"
#include "qmp.h"
#include "lib/lib.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Seconds of console silence after a fatal line (panic, oops, kernel BUG
 * at, early exception) before the boot ends: a guest that resets ends QEMU
 * sooner; one that halts (an early crash, before panic= applies) is done.
 * While the kernel goes on printing its report the wait is renewed, up to
 * FATAL_MAX_S, so the whole trace is kept.
 */
#define PANIC_EXIT_S 5
#define FATAL_MAX_S 30
/*
 * Seconds without progress (console, data or live output) after a "cut
 * here" or "end trace" line before the boot ends: a kernel that reported
 * a problem and then stopped.
 */
#define STALL_S 15

void qemu_said(const char *dir, char *out, size_t size)
{
	char *path = xasprintf("%s/qemu.log", dir), *buf, *p;

	out[0] = '\0';
	if (!read_file(path, &buf, NULL)) {
		/* The first line that is not a warning says what went wrong. */
		for (p = buf; *p;) {
			size_t n = strcspn(p, "\n");
			char *line = xstrndup(p, n);
			bool warning = strstr(line, "warning:");

			free(line);
			if (n && !warning) {
				snprintf(out, size, "%.*s", (int)n, p);
				break;
			}
			p += n + (p[n] == '\n');
		}
		if (!out[0] && *buf)
			snprintf(out, size, "%.*s", (int)strcspn(buf, "\n"),
				 buf);
		free(buf);
	}
	free(path);
}

static void end(struct watch *w, enum boot_end e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void end(struct watch *w, enum boot_end e, const char *fmt, ...)
{
	va_list ap;

	if (w->r->reason[0] || w->r->end != BOOT_DONE)
		return;
	w->r->end = e;
	va_start(ap, fmt);
	vsnprintf(w->r->reason, sizeof(w->r->reason), fmt, ap);
	va_end(ap);
}

static bool ended(const struct watch *w)
{
	return w->r->end != BOOT_DONE || w->exited;
}

/* Bytes the guest has written to its data and live ports so far. */
static long long output_sizes(const struct watch *w)
{
	const char *names[] = { "data.bin", "live.log" };
	long long total = 0;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *p = xasprintf("%s/%s", w->o->dir, names[i]);
		struct stat st;

		if (!stat(p, &st))
			total += st.st_size;
		free(p);
	}
	return total;
}

/*
 * A fatal line ends the boot after PANIC_EXIT_S of silence; a trace
 * marker arms the stall watch, which the next sign of life disarms.
 */
static void watch_line_kind(struct watch *w, const char *line)
{
	double now = now_seconds();

	switch (console_line_kind(line, strlen(line))) {
	case CONSOLE_LINE_FATAL:
		if (!w->fatal_t) {
			w->fatal_t = now;
			snprintf(w->fatal, sizeof(w->fatal), "%s", line);
		}
		break;
	case CONSOLE_LINE_TRACE:
		w->in_trace = !strstr(line, "---[ end trace");
		w->stall_deadline = now + STALL_S;
		w->stall_sizes = output_sizes(w);
		return;
	case CONSOLE_LINE_OTHER:
		break;
	}
	/* A line after the report: the kernel goes on. */
	if (!w->in_trace)
		w->stall_deadline = 0;
	else
		w->stall_deadline = now + STALL_S;
}

static void append_line(const char *path, const char *line)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, line, strlen(line)) != (ssize_t)strlen(line))
		note("cannot write %s: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
}

/*
 * A kernel report (WARNING, BUG, ...) during a test: the harness case open
 * at that moment on the live port, noted as "LINE<TAB>TEST<TAB>CASE" in
 * console-cases.tsv, so the report can name the case, not just the test.
 */
static void problem_case(struct watch *w, const char *line, unsigned int no)
{
	char *path, *live, name[256];
	struct console_scan scan;
	const char *sec;
	size_t len, slen;

	if (!w->r->running[0])
		return;
	console_scan(line, strlen(line), &scan);
	if (!scan.count[CONSOLE_WARNING] && !scan.count[CONSOLE_BUG] &&
	    !scan.count[CONSOLE_STALL] && !scan.count[CONSOLE_OOPS])
		return;
	path = xasprintf("%s/live.log", w->o->dir);
	if (!read_file(path, &live, &len)) {
		sec = crash_section(live, len, w->r->running, &slen);
		/*
		 * The case the console announced last, unless the live port
		 * saw it end; else the live port's open case.
		 */
		if (w->mark[0] &&
		    !(sec && crash_case_reported(sec, slen, w->mark)))
			snprintf(name, sizeof(name), "%s", w->mark);
		else if (!sec || crash_open_case(sec, slen, name, sizeof(name)))
			name[0] = '\0';
		if (name[0]) {
			char *out =
				xasprintf("%s/console-cases.tsv", w->o->dir);
			char *row = xasprintf("%u\t%s\t%s\n", no, w->r->running,
					      name);

			append_line(out, row);
			free(row);
			free(out);
		}
		free(live);
	}
	free(path);
}

/*
 * QEMU's longest wait for a CPU since @since (seconds of the watch) and
 * @then (NULL: since its threads started), kept as the window that ends
 * the boot.
 */
static void measure_wait(struct watch *w, double since,
			 const struct sched_snap *then)
{
	struct sched_snap now;

	sched_sample(w->pid, &now);
	w->window_s = now_seconds() - since;
	w->wait_s = sched_wait_since(then, &now);
}

/*
 * A test that ended while the host starved QEMU: "TEST<TAB>WINDOW<TAB>
 * WAIT" in starved.tsv, so that its end by the guest's own timeout is
 * not taken for the kernel's (the guest's clock runs on while QEMU
 * waits for a CPU).
 */
static void test_ended(struct watch *w, const char *name)
{
	measure_wait(w, w->test_t0, &w->test_sched);
	if (host_starved(w->window_s, w->wait_s)) {
		char *out = xasprintf("%s/starved.tsv", w->o->dir);
		char *row = xasprintf("%s\t%.1f\t%.1f\n", name, w->window_s,
				      w->wait_s);

		append_line(out, row);
		free(row);
		free(out);
	}
	w->window_s = w->wait_s = 0;
}

/* The guest init's markers, and a crash as it happens. */
static void console_line(struct watch *w, const char *line, unsigned int no)
{
	char name[128];
	int limit;

	if (sscanf(line, "lsmconf: run %127s %d", name, &limit) == 2) {
		snprintf(w->r->running, sizeof(w->r->running), "%s", name);
		w->mark[0] = '\0';
		w->test_deadline = now_seconds() + limit + w->o->grace_s;
		w->test_t0 = now_seconds();
		sched_sample(w->pid, &w->test_sched);
	} else if (sscanf(line, "lsmconf: done %127s", name) == 1) {
		test_ended(w, name);
		w->r->running[0] = '\0';
		w->test_deadline = 0;
	} else if (!strncmp(line, "lsmconf: tests start", 20)) {
		w->r->tests_started = true;
	} else if (!strncmp(line, "lsmconf: results sent", 21)) {
		w->sent = true;
	} else if (strstr(line, "Linux version ")) {
		w->kernel_up = true;
	} else if (w->r->running[0]) {
		crash_mark_line(line, strlen(line), w->r->running, w->mark,
				sizeof(w->mark));
	}
	watch_line_kind(w, line);
	problem_case(w, line, no);
}

static void read_console(struct watch *w)
{
	char buf[8192];
	ssize_t n, i;

	while ((n = read(w->con, buf, sizeof(buf))) > 0) {
		if (w->r->first_output_s < 0)
			w->r->first_output_s = now_seconds() - w->t0;
		if (write(w->con_log, buf, n) != n)
			note("cannot write console.log: %s", strerror(errno));
		for (i = 0; i < n; i++) {
			if (buf[i] == '\n' ||
			    w->conlen == sizeof(w->conline) - 1) {
				w->conline[w->conlen] = '\0';
				console_line(w, w->conline, w->lineno + 1);
				w->conlen = 0;
			}
			if (buf[i] == '\n')
				w->lineno++;
			if (buf[i] != '\n' && buf[i] != '\r')
				w->conline[w->conlen++] = buf[i] ? buf[i] : '?';
		}
		/* Silence after a fatal line ends the boot; output renews it. */
		if (w->fatal_t)
			w->panic_deadline = MIN(now_seconds() + PANIC_EXIT_S,
						w->fatal_t + FATAL_MAX_S);
	}
	/* End of file: QEMU closed the console (it is exiting). */
	if (n == 0) {
		close(w->con);
		w->con = -1;
	}
}

static void qmp_send(struct watch *w, const char *cmd)
{
	size_t len = strlen(cmd);

	if (send(w->qmp, cmd, len, MSG_NOSIGNAL) != (ssize_t)len)
		return; /* QEMU is gone: its exit says the rest. */
}

static void qmp_line(struct watch *w, const char *line)
{
	char value[64], said[300];

	switch (qmp_parse(line, value, sizeof(value))) {
	case QMP_GREETING:
		qmp_send(w, "{\"execute\":\"qmp_capabilities\"}\n");
		/* A guest stopped before we connected sends no STOP event. */
		qmp_send(w, "{\"execute\":\"query-status\"}\n");
		break;
	case QMP_EVENT:
		if (qmp_host_shutdown(line))
			w->host_signal = true;
		if (!strcmp(value, "STOP"))
			qmp_send(w, "{\"execute\":\"query-status\"}\n");
		else if (!strcmp(value, "GUEST_PANICKED") && !w->panic_deadline)
			w->panic_deadline = now_seconds() + PANIC_EXIT_S;
		break;
	case QMP_STATUS:
		if (qmp_status_alive(value))
			break;
		qemu_said(w->o->dir, said, sizeof(said));
		end(w, BOOT_STOPPED, "QEMU stopped the guest (state %s)%s%s",
		    value, said[0] ? ": " : "", said);
		break;
	case QMP_OTHER:
		break;
	}
}

static void read_qmp(struct watch *w)
{
	char buf[4096];
	ssize_t n, i;

	n = read(w->qmp, buf, sizeof(buf));
	if (n <= 0) {
		close(w->qmp);
		w->qmp = -1;
		return;
	}
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' || w->qmplen == sizeof(w->qmpline) - 1) {
			w->qmpline[w->qmplen] = '\0';
			qmp_line(w, w->qmpline);
			w->qmplen = 0;
		}
		if (buf[i] != '\n')
			w->qmpline[w->qmplen++] = buf[i];
	}
}

/* The earliest deadline still ahead, in ms from now for poll(). */
static int next_wait_ms(const struct watch *w)
{
	double now = now_seconds(), d = w->t0 + w->o->timeout_s;

	if (w->r->first_output_s < 0 && w->o->silence_s)
		d = MIN(d, w->t0 + w->o->silence_s);
	if (w->test_deadline)
		d = MIN(d, w->test_deadline);
	if (w->panic_deadline)
		d = MIN(d, w->panic_deadline);
	if (w->stall_deadline)
		d = MIN(d, w->stall_deadline);
	if (!w->r->tests_started && w->o->init_s)
		d = MIN(d, w->t0 + w->o->init_s);
	return d <= now ? 0 : (int)((d - now) * 1000) + 1;
}

static void check_deadlines(struct watch *w)
{
	double now = now_seconds();
	char said[300];

	if (w->panic_deadline && now >= w->panic_deadline) {
		if (w->fatal[0])
			end(w, BOOT_PANIC,
			    "the kernel crashed (%s) and the guest did not reset within %d s",
			    w->fatal, PANIC_EXIT_S);
		else
			end(w, BOOT_PANIC,
			    "the kernel panicked and the guest did not reset within %d s",
			    PANIC_EXIT_S);
	} else if (w->stall_deadline && now >= w->stall_deadline) {
		long long sizes = output_sizes(w);

		/* The data or live port moved: the guest goes on. */
		if (sizes != w->stall_sizes && !w->in_trace)
			w->stall_deadline = 0;
		else
			end(w, BOOT_HUNG,
			    "the kernel printed a report (\"cut here\"/\"end trace\") and made no progress for %d s",
			    STALL_S);
	} else if (!w->r->tests_started && w->o->init_s &&
		   now >= w->t0 + w->o->init_s) {
		measure_wait(w, w->t0, NULL);
		end(w, BOOT_NOINIT,
		    w->kernel_up ?
			    "the kernel started but the guest's init did not report within %d s" :
			    "the guest's init did not report within %d s (the kernel never printed its banner)",
		    w->o->init_s);
	} else if (w->r->first_output_s < 0 && w->o->silence_s &&
		   now >= w->t0 + w->o->silence_s) {
		qemu_said(w->o->dir, said, sizeof(said));
		measure_wait(w, w->t0, NULL);
		end(w, BOOT_SILENT,
		    "the guest printed nothing within %d s (no console output at all)%s%s",
		    w->o->silence_s, said[0] ? "; QEMU: " : "", said);
	} else if (w->test_deadline && now >= w->test_deadline) {
		measure_wait(w, w->test_t0, &w->test_sched);
		end(w, BOOT_HUNG,
		    "the guest stopped answering in %s (%d s past its bound, and its own timeout did not end it)",
		    w->r->running, w->o->grace_s);
	} else if (now >= w->t0 + w->o->timeout_s) {
		measure_wait(w, w->t0, NULL);
		end(w, BOOT_TIMEOUT,
		    "the guest did not finish within %d s (boot timeout)",
		    w->o->timeout_s);
	}
}

void watch_loop(struct watch *w)
{
	while (!ended(w)) {
		struct pollfd pfd[3] = {
			{ .fd = w->pidfd, .events = POLLIN },
			{ .fd = w->qmp, .events = POLLIN },
			{ .fd = w->con, .events = POLLIN },
		};
		int n = poll(pfd, 3, next_wait_ms(w));

		if (n < 0 && errno != EINTR) {
			/* Nothing more can be watched: QEMU is stopped below. */
			end(w, BOOT_STOPPED, "poll: %s", strerror(errno));
			break;
		}
		if (pfd[2].revents)
			read_console(w);
		if (pfd[1].revents)
			read_qmp(w);
		if (pfd[0].revents)
			w->exited = true;
		check_deadlines(w);
	}
}

void watch_drain(struct watch *w)
{
	struct pollfd pfd = { .fd = w->qmp, .events = POLLIN };

	/* QMP's last events (a SHUTDOWN and its reason), without blocking. */
	while (w->qmp >= 0 && poll(&pfd, 1, 0) > 0)
		read_qmp(w);
	if (w->con >= 0)
		read_console(w);
	if (w->conlen) {
		w->conline[w->conlen] = '\0';
		console_line(w, w->conline, w->lineno + 1);
	}
}
