// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "boot.h"
#include "accel.h"
#include "console.h"
#include "hostfault.h"
#include "watch.h"
#include "lib/lib.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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
		argv[n++] = xstrdup("-rtc");
		argv[n++] = rtc_base(o->seed);
	}
	if (o->profile) {
		argv[n++] = xstrdup("-plugin");
		argv[n++] = xasprintf("%s,out=%s/%s", INSN_PLUGIN, o->dir,
				      INSN_PROFILE);
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

/*
 * The guest's real-time clock under icount: a fixed start that then
 * follows the guest's own clock. The host's time of day was the only
 * input that differed between two icount boots of one kernel (the
 * kernel mixes it into its random pool, and KASLR, hash seeds and slab
 * freelists follow), so with it fixed a boot repeats instruction for
 * instruction (measured: three boots of one kernel, identical rounds).
 * Each seed is one day later: another draw of that random state.
 */
char *rtc_base(int seed)
{
	time_t t = RTC_EPOCH + (time_t)seed * 86400;
	struct tm tm;
	char buf[32];

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	return xasprintf("base=%s,clock=vm", buf);
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

/*
 * Whose fault the end was (hostfault.h): the console's reports, QEMU's
 * status and words, the watch's deadline and QEMU's wait for a CPU.
 */
static void judge_end(const struct watch *w, const char *clog,
		      struct boot_result *r)
{
	struct boot_facts f = { 0 };
	struct console_scan scan;
	char said[300], why[sizeof(r->reason)], *buf;
	size_t len;

	/* A fatal line, a guest panic, or a report still open at the end. */
	r->kernel_report = w->fatal[0] || w->panic_deadline || w->in_trace;
	if (!read_file(clog, &buf, &len)) {
		console_scan(buf, len, &scan);
		r->kernel_report |=
			scan.count[CONSOLE_PANIC] || scan.count[CONSOLE_OOPS] ||
			scan.count[CONSOLE_BUG] || scan.count[CONSOLE_STALL];
		free(buf);
	}
	r->console_lines = w->lineno;
	qemu_said(w->o->dir, said, sizeof(said));
	f.end = r->end;
	f.status = r->status;
	f.kernel_report = r->kernel_report;
	f.host_signal = w->host_signal;
	f.window_s = w->window_s;
	f.wait_s = w->wait_s;
	f.console_line = w->lineno;
	f.reason = r->reason;
	f.said = said;
	r->host = boot_host_fault(&f, why, sizeof(why));
	if (r->host)
		snprintf(r->reason, sizeof(r->reason), "%s", why);
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
	for (i = 0; i < 2; i++) {
		char *p = xasprintf("%s/%s", o->dir,
				    i ? "starved.tsv" : "console-cases.tsv");

		unlink(p);
		free(p);
	}
	/* From here on, what keeps QEMU from starting is the host's. */
	r->host = true;
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
		r->host = false;
		watch_loop(&w);
		if (!w.exited) {
			kill(-w.pid, SIGKILL);
			kill(w.pid, SIGKILL);
		}
		r->status = spawn_finish(w.pid, w.pidfd, 0);
		if (!w.exited)
			r->status = -1;
		/* What QEMU wrote before it ended is still in the FIFO. */
		watch_drain(&w);
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
		judge_end(&w, clog, r);
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

bool boot_can_profile(void)
{
	return accel_qemu_plugins(INSN_PLUGIN);
}
