// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "boot.h"
#include "accel.h"
#include "console.h"
#include "crash.h"
#include "qmp.h"
#include "lib/lib.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
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

/* One line of QEMU's own messages (qemu.log), for a reason. */
static void qemu_said(const char *dir, char *out, size_t size)
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

struct watch {
	const struct boot_opts *o;
	struct boot_result *r;
	pid_t pid;
	int pidfd, qmp, con, con_log;
	double t0, test_deadline, panic_deadline;
	double fatal_t; /* when the first fatal line came, 0: none */
	double stall_deadline; /* after a trace: progress due by then, 0: none */
	long long stall_sizes; /* data.bin + live.log bytes when armed */
	bool exited, sent;
	bool kernel_up; /* the kernel's first message ("Linux version") came */
	bool in_trace; /* between "cut here" and "end trace" */
	unsigned int lineno; /* complete console lines so far */
	char fatal[160]; /* the first fatal line, "" if none */
	char conline[512], qmpline[1024];
	size_t conlen, qmplen;
};

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
		if (sec && !crash_open_case(sec, slen, name, sizeof(name))) {
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

/* The guest init's markers, and a crash as it happens. */
static void console_line(struct watch *w, const char *line, unsigned int no)
{
	char name[128];
	int limit;

	if (sscanf(line, "lsmconf: run %127s %d", name, &limit) == 2) {
		snprintf(w->r->running, sizeof(w->r->running), "%s", name);
		w->test_deadline = now_seconds() + limit + w->o->grace_s;
	} else if (sscanf(line, "lsmconf: done %127s", name) == 1) {
		w->r->running[0] = '\0';
		w->test_deadline = 0;
	} else if (!strncmp(line, "lsmconf: tests start", 20)) {
		w->r->tests_started = true;
	} else if (!strncmp(line, "lsmconf: results sent", 21)) {
		w->sent = true;
	} else if (strstr(line, "Linux version ")) {
		w->kernel_up = true;
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
		end(w, BOOT_NOINIT,
		    w->kernel_up ?
			    "the kernel started but the guest's init did not report within %d s" :
			    "the guest's init did not report within %d s (the kernel never printed its banner)",
		    w->o->init_s);
	} else if (w->r->first_output_s < 0 && w->o->silence_s &&
		   now >= w->t0 + w->o->silence_s) {
		qemu_said(w->o->dir, said, sizeof(said));
		end(w, BOOT_SILENT,
		    "the guest printed nothing within %d s (no console output at all)%s%s",
		    w->o->silence_s, said[0] ? "; QEMU: " : "", said);
	} else if (w->test_deadline && now >= w->test_deadline) {
		end(w, BOOT_HUNG,
		    "the guest stopped answering in %s (%d s past its bound, and its own timeout did not end it)",
		    w->r->running, w->o->grace_s);
	} else if (now >= w->t0 + w->o->timeout_s) {
		end(w, BOOT_TIMEOUT,
		    "the guest did not finish within %d s (boot timeout)",
		    w->o->timeout_s);
	}
}

static void watch_loop(struct watch *w)
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

/*
 * Multi-threaded TCG only when asked (LSMCONF_TCG_THREAD=multi) and icount
 * is off: it is faster with several vCPUs but not reliable (see below).
 */
static bool multi_tcg(const struct boot_opts *o)
{
	const char *t = getenv("LSMCONF_TCG_THREAD");

	return !o->icount && t && !strcmp(t, "multi");
}

/* The QEMU command line for @o with or without KVM. */
static char **qemu_argv(const struct boot_opts *o, bool kvm, const char *fifo)
{
	char **argv = xcalloc(48, sizeof(char *));
	int n = 0;

	argv[n++] = xstrdup(accel_qemu());
	argv[n++] = xstrdup("-nodefaults");
	argv[n++] = xstrdup("-no-user-config");
	argv[n++] = xstrdup("-display");
	argv[n++] = xstrdup("none");
	argv[n++] = xstrdup("-no-reboot");
	argv[n++] = xstrdup("-m");
	argv[n++] = xasprintf("%d", o->memory_mb);
	argv[n++] = xstrdup("-smp");
	argv[n++] = xasprintf("%d", o->cpus);
	argv[n++] = xstrdup("-accel");
	/*
	 * TCG runs every vCPU in one thread: multi-threaded TCG let a guest
	 * see a stale int3 from its own text patching (an oops in about one
	 * boot of a hundred). icount needs one thread anyway.
	 */
	argv[n++] = xstrdup(kvm		 ? "kvm" :
			    multi_tcg(o) ? "tcg,thread=multi" :
					   "tcg,thread=single");
	if (kvm) {
		argv[n++] = xstrdup("-cpu");
		argv[n++] = xstrdup("host");
	}
	if (o->icount) {
		argv[n++] = xstrdup("-icount");
		argv[n++] = xstrdup("shift=0,sleep=off");
	}
	argv[n++] = xstrdup("-qmp");
	argv[n++] = xstrdup("stdio");
	argv[n++] = xstrdup("-serial");
	argv[n++] = xasprintf("file:%s", fifo);
	argv[n++] = xstrdup("-serial");
	argv[n++] = xasprintf("file:%s/data.bin", o->dir);
	argv[n++] = xstrdup("-serial");
	argv[n++] = xasprintf("file:%s/live.log", o->dir);
	argv[n++] = xstrdup("-kernel");
	argv[n++] = xstrdup(o->kernel);
	argv[n++] = xstrdup("-initrd");
	argv[n++] = xstrdup(o->initrd);
	argv[n++] = xstrdup("-append");
	/*
	 * An oops panics the guest and a panic resets it, which ends QEMU
	 * (-no-reboot): a kernel bug ends the boot at once.
	 */
	/*
	 * earlyprintk: the decompressor and the first printk reach the
	 * console within a second or two, so a silent guest is told from a
	 * slow one early (decompressing takes several seconds under TCG).
	 */
	argv[n++] = boot_cmdline(o->append);
	argv[n] = NULL;
	return argv;
}

char *boot_cmdline(const char *append)
{
	return xasprintf(
		"console=ttyS0 earlyprintk=serial,ttyS0,115200 oops=panic panic=-1%s%s",
		append && *append ? " " : "", append ? append : "");
}

static void argv_free(char **argv)
{
	char **a;

	for (a = argv; *a; a++)
		free(*a);
	free(argv);
}

/* A boot that ends before QEMU runs: @r says why, as its one line. */
static void nostart(struct boot_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void nostart(struct boot_result *r, const char *fmt, ...)
{
	va_list ap;

	r->end = BOOT_NOSTART;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof(r->reason), fmt, ap);
	va_end(ap);
}

static void boot_once(const struct boot_opts *o, bool kvm,
		      struct boot_result *r)
{
	char *fifo = xasprintf("%s/console.fifo", o->dir);
	char *clog = xasprintf("%s/console.log", o->dir);
	char *qlog = xasprintf("%s/qemu.log", o->dir);
	char **argv = qemu_argv(o, kvm, fifo), said[300];
	struct watch w = {
		.o = o, .r = r, .qmp = -1, .con = -1, .con_log = -1
	};
	struct sbuf cmd = { 0 };
	int sv[2], qfd = -1, i;

	memset(r, 0, sizeof(*r));
	r->kvm = kvm;
	r->status = -1;
	r->first_output_s = -1;
	for (i = 0; argv[i]; i++)
		sbuf_printf(&cmd, "%s%s", i ? " " : "", argv[i]);
	r->cmdline = cmd.buf;

	{
		char *line = boot_cmdline(o->append);
		size_t len = strlen(line);

		free(line);
		if (len > BOOT_CMDLINE_MAX) {
			nostart(r,
				"the kernel command line is %zu characters; x86 takes at most %d",
				len, BOOT_CMDLINE_MAX);
			goto out;
		}
	}
	unlink(fifo);
	{
		char *cases = xasprintf("%s/console-cases.tsv", o->dir);

		unlink(cases);
		free(cases);
	}
	if (mkfifo(fifo, 0600)) {
		nostart(r, "cannot create %s: %s", fifo, strerror(errno));
		goto out;
	}
	/* Opened before QEMU starts, so its open for writing never blocks. */
	w.con = open(fifo, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	w.con_log = open(clog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	qfd = open(qlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (w.con < 0 || w.con_log < 0 || qfd < 0) {
		nostart(r, "cannot open the console or QEMU log in %s: %s",
			o->dir, strerror(errno));
		goto out;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		nostart(r, "socketpair: %s", strerror(errno));
		goto out;
	}
	w.qmp = sv[0];
	w.t0 = now_seconds();
	w.pid = spawn_start(argv,
			    &(struct spawn_opts){ .stdin_fd = sv[1],
						  .stdout_fd = sv[1],
						  .stderr_fd = qfd },
			    &w.pidfd);
	close(sv[1]);
	close(qfd);
	qfd = -1;
	if (w.pid < 0) {
		nostart(r, "cannot start %s: %s", argv[0], strerror(-w.pid));
	} else {
		watch_loop(&w);
		if (!w.exited) {
			kill(-w.pid, SIGKILL);
			kill(w.pid, SIGKILL);
		}
		r->status = spawn_finish(w.pid, w.pidfd, 0);
		if (!w.exited)
			r->status = -1;
		/* What QEMU wrote before it ended is still in the FIFO. */
		if (w.con >= 0)
			read_console(&w);
		if (w.conlen) {
			w.conline[w.conlen] = '\0';
			console_line(&w, w.conline, w.lineno + 1);
		}
		if (r->end == BOOT_DONE && !w.sent) {
			qemu_said(o->dir, said, sizeof(said));
			r->end = BOOT_EXITED;
			if (w.panic_deadline)
				snprintf(
					r->reason, sizeof(r->reason),
					"the kernel panicked (the guest reset)");
			else if (r->status)
				snprintf(
					r->reason, sizeof(r->reason),
					"QEMU exited with status %d before the guest sent its results%s%s",
					r->status, said[0] ? ": " : "", said);
			else if (!w.kernel_up)
				/* What a kernel does when its image does not fit. */
				snprintf(
					r->reason, sizeof(r->reason),
					"the guest reset before the kernel printed anything (is %d MB enough memory for the kernel and its image?)",
					o->memory_mb);
			else
				snprintf(
					r->reason, sizeof(r->reason),
					"the guest ended before it sent its results");
		}
	}
	r->seconds = now_seconds() - w.t0;
out:
	if (!w.t0)
		r->seconds = 0; /* QEMU was never started */
	if (qfd >= 0)
		close(qfd);
	if (w.con >= 0)
		close(w.con);
	if (w.qmp >= 0)
		close(w.qmp);
	if (w.con_log >= 0)
		close(w.con_log);
	unlink(fifo);
	argv_free(argv);
	free(fifo);
	free(clog);
	free(qlog);
}

bool boot_uses_kvm(void)
{
	char why[8];

	return accel_kvm_candidate() &&
	       accel_recall(why, sizeof(why)) == ACCEL_KVM;
}

/*
 * QEMU's own word that KVM could not run the guest: the QMP state
 * internal-error, or "KVM internal error" in its log (at any point of the
 * boot, before or after console output).
 */
static bool kvm_internal_error(const struct boot_opts *o,
			       const struct boot_result *r)
{
	char *path = xasprintf("%s/qemu.log", o->dir), *buf;
	bool said = false;

	if (!read_file(path, &buf, NULL)) {
		said = strstr(buf, "KVM internal error") != NULL;
		free(buf);
	}
	free(path);
	return said || (r->end == BOOT_STOPPED &&
			strstr(r->reason, "internal-error") != NULL);
}

/* The KVM boot's logs are kept beside the TCG boot's (NAME-kvm.log). */
static void keep_kvm_logs(const struct boot_opts *o)
{
	const char *names[] = { "qemu", "console" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		char *from = xasprintf("%s/%s.log", o->dir, names[i]);
		char *to = xasprintf("%s/%s-kvm.log", o->dir, names[i]);

		rename(from, to);
		free(from);
		free(to);
	}
}

/*
 * KVM is tried unless this host is remembered as TCG. It is proven only by
 * a guest whose init reported (its tests started) and disproven by QEMU's
 * internal error; a KVM boot that ends before its tests for any reason is
 * booted again at once under TCG, and a TCG guest that then runs is the
 * evidence that KVM was at fault. A remembered "kvm" only means KVM is
 * tried first: it is never a reason to boot under KVM again.
 */
void boot_run(const struct boot_opts *o, struct boot_result *r)
{
	static bool told;
	enum accel_memo memo = ACCEL_TCG;
	char why[512] = "";
	bool internal;

	if (!o->icount && accel_kvm_candidate())
		memo = accel_recall(why, sizeof(why));
	if (memo == ACCEL_TCG) {
		if (why[0] && !told)
			note("using TCG: KVM did not run a guest on this host (remembered: %s)",
			     why);
		told = true;
		boot_once(o, false, r);
		return;
	}
	boot_once(o, true, r);
	internal = kvm_internal_error(o, r);
	if (r->tests_started && !internal) {
		if (memo != ACCEL_KVM)
			accel_remember(ACCEL_KVM,
				       "a guest's init reported under KVM");
		return;
	}
	/* Not proven: the same boot under TCG, at once. */
	snprintf(why, sizeof(why), "%s", r->reason);
	if (internal && !strstr(why, "KVM internal error"))
		snprintf(why + strlen(why), sizeof(why) - strlen(why),
			 "%sKVM internal error (qemu-kvm.log)",
			 why[0] ? ": " : "");
	free(r->cmdline);
	keep_kvm_logs(o);
	boot_once(o, false, r);
	/* Only a guest that runs under TCG proves KVM was at fault. */
	if (r->tests_started) {
		accel_remember(ACCEL_TCG, why);
		note("using TCG: KVM did not run a guest on this host (%s); remembered for %ld h",
		     why, ACCEL_MEMO_TTL / 3600);
		told = true;
	}
}
