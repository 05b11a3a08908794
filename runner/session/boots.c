// SPDX-License-Identifier: GPL-2.0
/*
 * The boots of one kernel run: each boot of the plan, what ended it, a
 * note per crash, and the next plan (again after a crash).
 */
#define _GNU_SOURCE
#include "internal.h"
#include "vm/vm.h"
#include "provision/provision.h"
#include "results/results.h"
#include "lsmconf_record.h"
#include "lib/lib.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * A boot ended in test @t: the case it was running (from the live log),
 * the kernel's report (crash-N.txt), and the line for the report.
 */
static void crash_note(struct kernel_run *kr, const char *bdir, size_t t,
		       const char *why, const char *trace)
{
	struct test_fate *f = &kr->fate[t];
	const char *name = kr->plan.items[t].name, *sec = NULL;
	char *path = xasprintf("%s/live.log", bdir), *live, kase[512];
	char *inner = NULL, *cpath, *console;
	size_t len = 0, slen = 0, clen;
	struct sbuf out = { 0 };

	kase[0] = '\0';
	if (read_file(path, &live, &len))
		live = NULL;
	if (live)
		sec = crash_section(live, len, name, &slen);
	/* Run by run_kselftest.sh: the program's own lines, unprefixed. */
	if (sec) {
		struct ksft_run run;
		size_t n;

		if (ksft_unwrap(sec, slen, &inner, &n, &run) < 0)
			oom();
		if (inner) {
			sec = inner;
			slen = n;
		}
	}
	/*
	 * The console's last announced case is the one the kernel died in,
	 * unless the live port saw it end; the live port's open case (its
	 * "#  RUN" line can come before the announcement, or without one)
	 * otherwise.
	 */
	cpath = xasprintf("%s/console.log", bdir);
	if (!read_file(cpath, &console, &clen)) {
		if (crash_console_case(console, clen, name, kase,
				       sizeof(kase)) ||
		    (sec && crash_case_reported(sec, slen, kase)))
			kase[0] = '\0';
		free(console);
	}
	free(cpath);
	if (kase[0] ||
	    (sec && crash_open_case(sec, slen, kase, sizeof(kase)) == 0))
		fate_add_crash(f, kase, trace ? xstrdup(trace) : NULL, why,
			       kr->boots);
	/* Until its results arrive, what it printed is all there is. */
	if (sec && !f->framed) {
		free(f->live);
		f->live = xstrndup(sec, slen);
	}
	f->crash_boot = kr->boots;
	snprintf(f->why, sizeof(f->why), "%s", why);
	free(path);
	free(live);
	free(inner);

	path = xasprintf("%s/crash-%d.txt", kr->boot_root, kr->boots);
	sbuf_printf(&out, "boot %d ended in test %s, case %s\n%s\n\n%s",
		    kr->boots, name, kase[0] ? kase : "(none running)", why,
		    trace ? trace : "(no kernel report on the console)\n");
	write_file(path, out.buf, out.len);
	sbuf_free(&out);
	free(path);
	sbuf_printf(&kr->boot_log,
		    "boot %d ended in %s, case %s: %s (crash-%d.txt)\n",
		    kr->boots, name, kase[0] ? kase : "unknown", why,
		    kr->boots);
}

void fate_add_crash(struct test_fate *f, const char *kase, char *trace,
		    const char *how, int boot)
{
	size_t n = f->n_crashed + 1;

	f->crashed = xrealloc(f->crashed, n * sizeof(char *));
	f->traces = xrealloc(f->traces, n * sizeof(char *));
	f->hows = xrealloc(f->hows, n * sizeof(char *));
	f->boots = xrealloc(f->boots, n * sizeof(int));
	f->crashed[f->n_crashed] = xstrdup(kase);
	f->traces[f->n_crashed] = trace;
	f->hows[f->n_crashed] = xstrdup(how);
	f->boots[f->n_crashed++] = boot;
}

/*
 * Boots until every planned test has run: a boot that dies before its
 * tests is booted once more; one that dies in a test costs that test's
 * running case, and the next boot goes on after it.
 */
/* Boot @kr->boots of @cur into @bdir: its image, its bounds, the boot. */
static int boot_plan(struct kernel_run *kr, const struct run_opts *o,
		     const char *append, const struct plan *cur,
		     const char *bdir, struct boot_result *br, struct err *e)
{
	char *image = xasprintf("%s/initramfs.cpio", bdir);
	char *line = NULL;
	struct boot_opts bo = { 0 };
	double t0 = now_seconds();
	size_t i;

	/* Only the whole-collection boot; the boots after it go per test. */
	if (kr->whole)
		line = append ? xasprintf("%s %s", append, WHOLE_ARG) :
				xstrdup(WHOLE_ARG);
	else if (append)
		line = xstrdup(append);

	progress("%s [%s]: building the guest image", kr->k.spec.text, kr->lsm);
	if (guest_image(image, &kr->k, cur, kr->tests_dir, e)) {
		free(image);
		free(line);
		return -1;
	}
	kr->image_s += now_seconds() - t0;
	timing_row(&kr->timing, kr->label, kr->boots, T_IMAGE, NULL,
		   now_seconds() - t0, 1);
	bo.kernel = kr->k.image;
	bo.initrd = image;
	bo.append = line;
	bo.dir = bdir;
	bo.memory_mb = o->memory_mb;
	/*
	 * One vCPU under icount: with two vCPUs in single-threaded TCG the
	 * 6.12 guest hit a double fault in kmalloc during sendmmsg (seen
	 * here); twoproc then shares that CPU.
	 */
	bo.cpus = o->icount ? 1 : o->cpus;
	bo.icount = o->icount;
	bo.seed = o->seed;
	bo.profile = o->profile;
	bo.silence_s = SILENCE_S;
	bo.init_s = INIT_S;
	bo.grace_s = GRACE_S;
	bo.timeout_s = o->boot_timeout_s;
	if (!bo.timeout_s) {
		bo.timeout_s = BOOT_ALLOWANCE_S;
		for (i = 0; i < cur->n; i++)
			bo.timeout_s += cur->items[i].timeout_s;
	}
	progress("%s [%s]: boot %d (bounded to %d s)", kr->k.spec.text, kr->lsm,
		 kr->boots, bo.timeout_s);
	boot_run(&bo, br);
	progress_done();
	free(line);
	kr->boot_s += br->seconds;
	timing_row(&kr->timing, kr->label, kr->boots, T_QEMU, NULL, br->seconds,
		   1);
	if (br->first_output_s >= 0)
		timing_row(&kr->timing, kr->label, kr->boots, T_QEMU_START,
			   NULL, br->first_output_s, 1);
	sbuf_printf(&kr->first_output, "%s%.1f", kr->boots > 1 ? " " : "",
		    br->first_output_s);
	if (kr->boots == 1) {
		kr->accel_kvm = br->kvm;
		kr->qemu_cmdline = br->cmdline;
	} else {
		free(br->cmdline);
	}
	br->cmdline = NULL;
	/* The image is rebuilt every boot; it is not a result. */
	unlink(image);
	free(image);
	return 0;
}

/*
 * Every report on boot @kr->boots's console before the one that ended it
 * (a WARNING in a boot that later oopsed counts too): each a problem of
 * the run, with the test that was running.
 */
/*
 * The harness case the boot watcher saw open when console line @line came
 * (console-cases.tsv: LINE, TEST, CASE), or "".
 */
static void problem_case_of(const char *cases, unsigned int line, char *out,
			    size_t size)
{
	const char *p;

	out[0] = '\0';
	for (p = cases; p && *p;) {
		size_t n = strcspn(p, "\n");
		unsigned int no;
		char kase[256];

		if (sscanf(p, "%u\t%*[^\t]\t%255[^\n]", &no, kase) == 2 &&
		    no == line) {
			snprintf(out, size, "%s", kase);
			return;
		}
		p += n + (p[n] == '\n');
	}
}

static void scan_boot(struct kernel_run *kr, const char *bdir)
{
	char *path = xasprintf("%s/console.log", bdir), *buf, *cases, *cpath;
	struct console_problem *p;
	size_t len, n, i;

	if (read_file(path, &buf, &len)) {
		add_problem(kr, "boot %d: console.log is missing", kr->boots);
		free(path);
		return;
	}
	n = console_problems(buf, len, &p);
	cpath = xasprintf("%s/console-cases.tsv", bdir);
	if (read_file(cpath, &cases, NULL))
		cases = NULL;
	for (i = 0; i < n; i++) {
		char kase[300] = "";

		problem_case_of(cases, p[i].line, kase, sizeof(kase));
		add_problem(
			kr,
			"boot %d: kernel %s in %s%s%s%s at console line %u: %s",
			kr->boots, console_event_name(p[i].event),
			p[i].test[0] ? "test " : "",
			p[i].test[0] ? p[i].test : "no test (boot)",
			kase[0] ? ", case " : "", kase, p[i].line, p[i].text);
	}
	free(cases);
	free(cpath);
	free(p);
	free(buf);
	free(path);
}

enum after_boot { ALL_DONE, BOOT_AGAIN, RESUME, GIVE_UP, HOST_FAILED };

/* Whether test @name of this boot ended by the guest's own timeout. */
static bool guest_timed_out(const struct kernel_run *kr, const char *name)
{
	char *path = xasprintf("tests/%s.rc", name), *rc = guest_text(kr, path);
	char *ktap = NULL, *inner = NULL;
	struct ksft_run run = { 0 };
	size_t len, n;
	/* The rerun of a crashed test's cases: timeout -s KILL (init). */
	bool killed = rc && atoi(rc) == 128 + 9;

	free(path);
	path = xasprintf("%s/guest/tests/%s.ktap", kr->dir, name);
	if (!killed && !read_file(path, &ktap, &len)) {
		if (ksft_unwrap(ktap, len, &inner, &n, &run) < 0)
			oom();
		killed = run.timed_out;
	}
	free(inner);
	free(ktap);
	free(path);
	free(rc);
	return killed;
}

/*
 * A test of boot @kr->boots that the guest's own timeout ended while the
 * host starved QEMU (the watch's starved.tsv): the guest's clock ran on
 * while QEMU waited for a CPU, so the kill is the host's. Its results
 * are dropped, to run again; the first such test's line in @why.
 */
static bool starved_timeout(struct kernel_run *kr, const char *bdir, char *why,
			    size_t size)
{
	char *path = xasprintf("%s/starved.tsv", bdir), *text;
	const char *p;
	bool found = false;
	size_t i;

	if (read_file(path, &text, NULL))
		text = NULL;
	for (p = text; p && *p; p += strcspn(p, "\n"), p += *p == '\n') {
		double window, wait;
		char name[128];

		if (sscanf(p, "%127[^\t]\t%lf\t%lf", name, &window, &wait) != 3)
			continue;
		for (i = 0; i < kr->plan.n; i++) {
			struct test_fate *f = &kr->fate[i];

			if (strcmp(kr->plan.items[i].name, name) ||
			    !f->framed || f->boot != kr->boots ||
			    !guest_timed_out(kr, name))
				continue;
			f->framed = false;
			if (!found)
				snprintf(
					why, size,
					"the guest's own timeout ended %s while the host starved QEMU of CPU (a thread of it waited %.0f s of %.0f s for one)",
					name, wait, window);
			found = true;
		}
	}
	free(text);
	free(path);
	return found;
}

/*
 * Why boot @kr->boots ended by the host's fault, in @why: the watch's
 * judgement (vm/hostfault.h), or results of test @t the guest sent (it
 * said so, or later tests' arrived) that the data channel lost, with no
 * kernel report on the console.
 */
static bool host_end(const struct kernel_run *kr, const struct boot_result *br,
		     size_t t, bool later, char *why, size_t size)
{
	if (br->host) {
		snprintf(why, size, "%s", br->reason);
		return true;
	}
	if (br->kernel_report || t >= kr->plan.n ||
	    (br->end != BOOT_DONE && !later))
		return false;
	snprintf(
		why, size,
		"the results of %s never arrived though %s (the data channel lost them) at console line %u, no kernel report",
		kr->plan.items[t].name,
		br->end == BOOT_DONE ? "the guest said it sent them" :
				       "later tests' did",
		br->console_lines);
	return true;
}

/* Problems of the run added since it held @len bytes are dropped. */
static void drop_problems(struct kernel_run *kr, size_t len)
{
	if (!kr->problems)
		return;
	kr->problems[len] = '\0';
	if (!len) {
		free(kr->problems);
		kr->problems = NULL;
	}
}

/*
 * The plan after a boot the host ended: what of @cur has no results yet
 * (a whole-collection boot: @cur again, whole). Its results, when every
 * test's arrived but not the last frame's, come from the last test again.
 */
static void retry_plan(struct kernel_run *kr, const struct plan *cur,
		       struct plan *next)
{
	size_t i, j, k = 0;

	next->items = xcalloc(cur->n + 1, sizeof(*next->items));
	for (i = 0; i < cur->n; i++) {
		for (j = 0; j < kr->plan.n; j++)
			if (!strcmp(kr->plan.items[j].name, cur->items[i].name))
				break;
		if (kr->whole && j < kr->plan.n)
			kr->fate[j].framed = false;
		if (j < kr->plan.n && kr->fate[j].framed &&
		    (i + 1 < cur->n || k))
			continue;
		if (j < kr->plan.n)
			kr->fate[j].framed = false;
		next->items[k].name = xstrdup(cur->items[i].name);
		next->items[k].timeout_s = cur->items[i].timeout_s;
		next->items[k++].args = xstrdup(cur->items[i].args);
	}
	next->n = k;
}

/*
 * Boot @kr->boots ended by the host (@why): no case of it is the
 * kernel's, nothing crashed; booted again with what has no results, at
 * most HOST_RETRIES times in the run.
 */
static enum after_boot host_again(struct kernel_run *kr, const struct plan *cur,
				  const char *why, struct plan *next)
{
	sbuf_printf(&kr->boot_log, "boot %d: host failure: %s\n", kr->boots,
		    why);
	if (++kr->host_failures > HOST_RETRIES) {
		snprintf(kr->host_failed, sizeof(kr->host_failed),
			 "boot %d: %s", kr->boots, why);
		return HOST_FAILED;
	}
	retry_plan(kr, cur, next);
	return RESUME;
}

/*
 * The test a whole-collection boot ended in: the last planned test whose
 * "lsmconf: run NAME" section the live log holds (the guest marks each
 * program run_kselftest.sh starts), else @t. The tests that finished
 * before it (the runner's result line for each is on the live port) are
 * taken from there, in *@taken.
 */
static size_t whole_running(struct kernel_run *kr, const char *bdir, size_t t,
			    size_t *taken)
{
	char *path = xasprintf("%s/live.log", bdir), *live;
	size_t len, i, k = t, n;

	*taken = 0;
	if (!read_file(path, &live, &len)) {
		for (i = t; i < kr->plan.n; i++)
			if (crash_section(live, len, kr->plan.items[i].name,
					  &n))
				k = i;
		*taken = split_whole(kr, kr->boots, live, len, true);
		free(live);
	}
	free(path);
	/*
	 * The live port can lag behind a crash; the console cannot: the
	 * program of the last case announced there, when it is later.
	 */
	path = xasprintf("%s/console.log", bdir);
	if (!read_file(path, &live, &len)) {
		char prog[256];

		if (!crash_console_program(live, len, prog, sizeof(prog)))
			for (i = k + 1; i < kr->plan.n; i++)
				if (!strcmp(kr->plan.items[i].name, prog))
					k = i;
		free(live);
	}
	free(path);
	return k;
}

/*
 * After a whole-collection boot that ended in test @k: the tests before
 * it (their results went down with the boot), then @k without its
 * crashed case and the tests after it (resume_plan()), one at a time.
 */
static void whole_resume(struct kernel_run *kr, size_t k, struct plan *next)
{
	struct plan rest = { 0 };
	size_t j, n = 0;

	resume_plan(kr, k, &rest);
	next->items = xcalloc(k + rest.n + 1, sizeof(*next->items));
	for (j = 0; j < k; j++) {
		if (kr->fate[j].framed)
			continue;
		next->items[n].name = xstrdup(kr->plan.items[j].name);
		next->items[n].timeout_s = kr->plan.items[j].timeout_s;
		next->items[n++].args = xstrdup(kr->plan.items[j].args);
	}
	memcpy(next->items + n, rest.items, rest.n * sizeof(*rest.items));
	next->n = n + rest.n;
	free(rest.items);
}

/* Whether the results of a test planned after test @t arrived. */
static bool later_framed(const struct kernel_run *kr, size_t t)
{
	size_t j;

	for (j = t + 1; j < kr->plan.n; j++)
		if (kr->fate[j].framed)
			return true;
	return false;
}

/*
 * What boot @kr->boots left: every test done, the same plan again (it
 * died before its tests, once), the rest after the test it ended in
 * (@next), or nothing more to do.
 */
static enum after_boot after_boot(struct kernel_run *kr, const char *bdir,
				  const struct boot_result *br,
				  const struct plan *cur, struct plan *next)
{
	char why[600], *trace;
	size_t before = kr->problems ? strlen(kr->problems) : 0;
	bool identity, last = take_frames(kr, bdir, kr->boots, &identity);
	bool whole = kr->whole;
	bool host = starved_timeout(kr, bdir, why, sizeof(why));
	size_t t = plan_index(kr, cur);

	while (t < kr->plan.n && kr->fate[t].framed)
		t++;
	if (!host && !(br->end == BOOT_DONE && last && t == kr->plan.n))
		host = host_end(kr, br, t, later_framed(kr, t), why,
				sizeof(why));
	if (host) {
		/* A frame the host cut short is not the run's problem. */
		drop_problems(kr, before);
		scan_boot(kr, bdir);
		return host_again(kr, cur, why, next);
	}
	/* A WARNING on the way is still a problem of the run. */
	scan_boot(kr, bdir);
	if (br->end == BOOT_DONE && last && t == kr->plan.n)
		return ALL_DONE;
	boot_why(bdir, br, why, sizeof(why), &trace);
	if (!br->tests_started || !identity) {
		/* Nothing of the plan ran: boot the same plan once more. */
		sbuf_printf(&kr->boot_log,
			    "boot %d died before its tests: %s\n", kr->boots,
			    why);
		free(trace);
		if (kr->retries++ ||
		    kr->boots - kr->host_failures >= MAX_BOOTS) {
			add_problem(
				kr,
				"the guest died before its tests in %d boots: %s",
				kr->boots, why);
			return GIVE_UP;
		}
		return BOOT_AGAIN;
	}
	/* Whatever it left, the boots after a whole-collection one go per test. */
	kr->whole = false;
	if (whole && t < kr->plan.n) {
		size_t taken, k = whole_running(kr, bdir, t, &taken);

		sbuf_printf(
			&kr->boot_log,
			"boot %d: run_kselftest.sh -c ended in %s before its results frame: %s; finished tests taken from the live port: %zu, the rest run one at a time\n",
			kr->boots, kr->plan.items[k].name, why, taken);
		crash_note(kr, bdir, k, why, trace);
		free(trace);
		whole_resume(kr, k, next);
	} else if (t == kr->plan.n) {
		add_problem(
			kr,
			"boot %d: the results sent after the last test never arrived%s%s",
			kr->boots, why[0] ? ": " : "", why);
		free(trace);
		return GIVE_UP;
	} else if (!kr->fate[t].resent && later_framed(kr, t)) {
		/*
		 * A later test's results arrived: the guest went on past test
		 * @t, whose frame was lost on the way to the host (seen once:
		 * a frame whose header line never arrived). That is the
		 * channel's failure, not the kernel's: the test runs again,
		 * whole, once.
		 */
		kr->fate[t].resent = true;
		sbuf_printf(
			&kr->boot_log,
			"boot %d: the results of %s never arrived though later tests' did (lost on the way to the host): it runs again\n",
			kr->boots, kr->plan.items[t].name);
		free(trace);
		again_plan(kr, t, next);
	} else {
		crash_note(kr, bdir, t, why, trace);
		free(trace);
		resume_plan(kr, t, next);
	}
	if (next->n && kr->boots - kr->host_failures >= MAX_BOOTS) {
		add_problem(kr, "%d boots and still tests to run: giving up",
			    kr->boots);
		plan_free(next);
		return GIVE_UP;
	}
	return RESUME;
}

int boot_loop(struct kernel_run *kr, const struct run_opts *o,
	      const char *append, struct plan *cur, struct crash_boots *cb,
	      struct err *e)
{
	struct plan next = { 0 };
	enum after_boot then = BOOT_AGAIN;
	int ret = 0;

	while (cur->n && (then == BOOT_AGAIN || then == RESUME)) {
		struct boot_result br;
		char *bdir;

		kr->boots++;
		bdir = kr->boots == 1 ? xstrdup(kr->dir) :
					xasprintf("%s/boot-%d", kr->boot_root,
						  kr->boots);
		mkdir_p(bdir);
		if (boot_plan(kr, o, append, cur, bdir, &br, e)) {
			free(bdir);
			ret = -1;
			break;
		}
		then = after_boot(kr, bdir, &br, cur, &next);
		free(bdir);
		/*
		 * The known crashes' boots are numbered after the first: what
		 * they found is taken before another boot.
		 */
		if (cb && cb->pid > 0 && crash_boots_join(kr, cb, e)) {
			plan_free(&next);
			ret = -1;
			break;
		}
		if (then == HOST_FAILED) {
			ret = err_set(
				e,
				"host failure: %s [%s]: %s; %d boots ended by the host, no verdict on the kernel (its boots: %s)",
				kr->k.spec.text, kr->lsm, kr->host_failed,
				kr->host_failures, kr->boot_root);
			break;
		}
		if (then == RESUME) {
			plan_free(cur);
			*cur = next;
			memset(&next, 0, sizeof(next));
		}
	}
	plan_free(cur);
	return ret;
}

int boot_all(struct kernel_run *kr, const struct run_opts *o,
	     const char *append, struct err *e)
{
	struct crash_boots cb = { 0 };
	struct plan cur = { 0 }, again = { 0 };
	int ret;

	if (!kr->boot_root)
		kr->boot_root = kr->dir;
	crash_boots_start(kr, o, append, &cb);
	resume_plan_all(kr, &cur);
	ret = boot_loop(kr, o, append, &cur, &cb, e);
	/* Stopped before the first boot ended: theirs are not needed. */
	if (cb.pid > 0) {
		struct err ignored = { 0 };

		kill(cb.pid, SIGTERM);
		crash_boots_join(kr, &cb, &ignored);
	}
	if (!ret && cb.again) {
		crash_boots_again(kr, &cb, &again);
		ret = boot_loop(kr, o, append, &again, NULL, e);
	}
	crash_boots_free(&cb);
	return ret;
}
