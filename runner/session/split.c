// SPDX-License-Identifier: GPL-2.0
/*
 * A crash costs its case, not a boot of the rest: the cases the known
 * kernel bugs list says bring this kernel down (observed: oops) run in
 * boots of their own, in a copy of lsmconf forked beside the main boot,
 * which runs every other case. Their boots are numbered after the main
 * boot's first. What they found is taken into the kernel's run as the
 * main boots would have met it: each case's crash, its report, its boot;
 * the list judges it afterwards as before (a crash with another signature
 * is a failure). When they were not as listed (a case that did not bring
 * the kernel down, a boot that gave up), the split tests run again whole
 * after the main boots, as they would without the split.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "results/results.h"
#include "lib/lib.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUTCOME "outcome.tsv"

static void restore_plan(struct kernel_run *kr, struct crash_boots *cb);

/*
 * What the list may call this kernel before it boots: the release its
 * package or image gives, a build's source name, a patched build's base.
 */
static char *names_before_boot(const struct kernel *k)
{
	struct sbuf s = { 0 };
	const char *part[] = { k->release, k->known_name, k->known_base };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(part); i++)
		if (part[i])
			sbuf_printf(&s, "%s%s", s.len ? " " : "", part[i]);
	return s.buf;
}

/*
 * Splits test @t when its listing holds listed crash cases and others:
 * the others stay in @kr's plan ("-r" each), the crash cases go to @cb's.
 */
static void split_test(struct kernel_run *kr, const char *names, size_t t,
		       struct crash_boots *cb)
{
	struct plan_item *it = &kr->plan.items[t];
	struct sbuf crash = { 0 }, other = { 0 };
	char **cases;
	int n, i;

	n = list_cases(kr, it->name, &cases);
	for (i = 0; i < n; i++) {
		char *id = xasprintf("%s/%s", it->name, cases[i]);
		struct sbuf *to = known_oops_listed(kr->known, names, id) ?
					  &crash :
					  &other;

		free(id);
		sbuf_printf(to, "%s-r %s", to->len ? " " : "", cases[i]);
		free(cases[i]);
	}
	if (n > 0)
		free(cases);
	/* A test of listed crashes alone runs as it did. */
	if (crash.len && other.len) {
		struct plan_item *c = &cb->plan.items[cb->plan.n++];

		c->name = xstrdup(it->name);
		c->timeout_s = it->timeout_s;
		c->args = crash.buf;
		cb->orig[t] = it->args;
		it->args = other.buf;
		return;
	}
	sbuf_free(&crash);
	sbuf_free(&other);
}

/* One field of a line of the outcome, tabs and newlines made spaces. */
static void put_field(struct sbuf *s, const char *text)
{
	const char *p;

	for (p = text ? text : ""; *p; p++)
		sbuf_printf(s, "%c", *p == '\t' || *p == '\n' ? ' ' : *p);
}

/* The forked copy: boots the crash plan, writes its outcome, ends. */
static void __attribute__((noreturn))
crash_child(const struct kernel_run *kr, const struct run_opts *o,
	    const char *append, const struct crash_boots *cb)
{
	struct kernel_run sub = *kr;
	struct plan cur = { 0 };
	struct err e = { 0 };
	struct sbuf out = { 0 };
	size_t i, j;
	int ret;

	sub.dir = cb->dir;
	sub.plan = cb->plan;
	sub.fate = xcalloc(cb->plan.n, sizeof(*sub.fate));
	/* The main boot is boot 1. */
	sub.boots = 1;
	sub.retries = sub.host_failures = 0;
	memset(&sub.boot_log, 0, sizeof(sub.boot_log));
	memset(&sub.first_output, 0, sizeof(sub.first_output));
	memset(&sub.timing, 0, sizeof(sub.timing));
	sub.problems = NULL;
	sub.image_s = sub.boot_s = 0;
	sub.whole = false;
	resume_plan_all(&sub, &cur);
	ret = boot_loop(&sub, o, append, &cur, NULL, &e);

	sbuf_printf(&out, "status\t%s\t", ret ? "error" : "ok");
	put_field(&out, ret ? e.msg : "");
	sbuf_printf(&out, "\nboots\t%d\nhost_failures\t%d\n", sub.boots,
		    sub.host_failures);
	sbuf_printf(&out, "image_s\t%.3f\nboot_s\t%.3f\nfirst_output\t",
		    sub.image_s, sub.boot_s);
	put_field(&out, sub.first_output.buf);
	sbuf_printf(&out, "\n");
	for (i = 0; i < sub.plan.n; i++) {
		const struct test_fate *f = &sub.fate[i];

		if (f->framed)
			sbuf_printf(&out, "framed\t%s\n",
				    sub.plan.items[i].name);
		for (j = 0; j < f->n_crashed; j++) {
			char name[64];

			sbuf_printf(&out, "crash\t%s\t%s\t%d\t",
				    sub.plan.items[i].name, f->crashed[j],
				    f->boots[j]);
			put_field(&out, f->hows[j]);
			sbuf_printf(&out, "\n");
			snprintf(name, sizeof(name), "trace-%d.txt",
				 f->boots[j]);
			if (f->traces[j])
				write_file_at(sub.dir, name, f->traces[j],
					      strlen(f->traces[j]));
		}
	}
	if (sub.boot_log.len)
		write_file_at(sub.dir, "boot-log.txt", sub.boot_log.buf,
			      sub.boot_log.len);
	if (sub.problems)
		write_file_at(sub.dir, "problems.txt", sub.problems,
			      strlen(sub.problems));
	if (sub.timing.len)
		write_file_at(sub.dir, "timing.part", sub.timing.buf,
			      sub.timing.len);
	/* Written last: its presence says the rest is whole. */
	ret = write_file_at(sub.dir, OUTCOME, out.buf, out.len);
	fflush(NULL);
	_exit(ret ? 1 : 0);
}

void crash_boots_start(struct kernel_run *kr, const struct run_opts *o,
		       const char *append, struct crash_boots *cb)
{
	char *names;
	pid_t pid;
	size_t i;

	memset(cb, 0, sizeof(*cb));
	/* A whole-collection boot runs the collection as upstream does. */
	if (!kr->known || kr->whole)
		return;
	names = names_before_boot(&kr->k);
	if (!names)
		return;
	cb->plan.items = xcalloc(kr->plan.n, sizeof(*cb->plan.items));
	cb->orig = xcalloc(kr->plan.n, sizeof(*cb->orig));
	cb->n_orig = kr->plan.n;
	for (i = 0; i < kr->plan.n; i++)
		if (!kr->plan.items[i].args[0])
			split_test(kr, names, i, cb);
	free(names);
	if (!cb->plan.n) {
		crash_boots_free(cb);
		return;
	}
	cb->dir = xasprintf("%s/known-crashes", kr->dir);
	mkdir_p(cb->dir);
	pid = spawn_fork(&cb->pidfd);
	if (pid == 0)
		crash_child(kr, o, append, cb);
	if (pid < 0) {
		sbuf_printf(
			&kr->boot_log,
			"the known crashes could not run beside the main boot (fork: %s): they run in it\n",
			strerror(-pid));
		restore_plan(kr, cb);
		crash_boots_free(cb);
		return;
	}
	cb->pid = pid;
}

/* @kr's plan as it was before the split. */
static void restore_plan(struct kernel_run *kr, struct crash_boots *cb)
{
	size_t i;

	for (i = 0; cb->orig && i < kr->plan.n; i++)
		if (cb->orig[i]) {
			free(kr->plan.items[i].args);
			kr->plan.items[i].args = cb->orig[i];
			cb->orig[i] = NULL;
		}
}

static size_t test_index(const struct kernel_run *kr, const char *name)
{
	size_t i;

	for (i = 0; i < kr->plan.n; i++)
		if (!strcmp(kr->plan.items[i].name, name))
			break;
	return i;
}

/* Split the outcome's line @line into at most @max tab-separated fields. */
static size_t fields(char *line, char **f, size_t max)
{
	size_t n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

/* A crash the forked boots found, taken into @kr as its own. */
static void take_crash(struct kernel_run *kr, const struct crash_boots *cb,
		       size_t t, const char *kase, int boot, const char *how)
{
	struct test_fate *f = &kr->fate[t];
	char *path = xasprintf("%s/trace-%d.txt", cb->dir, boot), *trace;

	if (read_file(path, &trace, NULL))
		trace = NULL;
	free(path);
	fate_add_crash(f, kase, trace, how, boot);
	if (boot > f->crash_boot) {
		f->crash_boot = boot;
		snprintf(f->why, sizeof(f->why), "%s", how);
	}
}

/* Appends file @name of @dir to @s, if it is there. */
static void add_file(struct sbuf *s, const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name), *text;
	size_t len;

	if (!read_file(path, &text, &len)) {
		sbuf_add(s, text, len);
		free(text);
	}
	free(path);
}

/*
 * Whether every case of the crash plan is among the outcome's crashes
 * (@crashes: "TEST/CASE" one a line) and no test of it finished; else the
 * first that did not bring the kernel down, in @why.
 */
static bool as_listed(const struct crash_boots *cb, const char *crashes,
		      const char *framed, char *why, size_t size)
{
	size_t i;
	int j;

	for (i = 0; i < cb->plan.n; i++) {
		const char *name = cb->plan.items[i].name;
		char **cases;
		int n = crash_args_cases(cb->plan.items[i].args, &cases);
		bool all = true;

		for (j = 0; j < n; j++) {
			char *id = xasprintf("\n%s/%s\n", name, cases[j]);

			if (all && !strstr(crashes, id)) {
				snprintf(
					why, size,
					"case %s/%s did not bring the kernel down",
					name, cases[j]);
				all = false;
			}
			free(id);
			free(cases[j]);
		}
		if (n > 0)
			free(cases);
		if (!all)
			return false;
	}
	if (framed[0]) {
		snprintf(why, size, "%s finished", framed);
		return false;
	}
	return true;
}

int crash_boots_join(struct kernel_run *kr, struct crash_boots *cb,
		     struct err *e)
{
	struct sbuf crashes = { 0 }, text = { 0 };
	char *line, *next, *status = NULL, *msg = NULL, framed[300] = "";
	char why[600] = "", buf[64], *(*crash)[5] = NULL;
	int rc = spawn_finish(cb->pid, cb->pidfd, 0), boots = 0, first;
	size_t i, n_crash = 0;

	cb->pid = 0;
	first = kr->boots + 1;
	add_file(&text, cb->dir, OUTCOME);
	if (!text.len) {
		restore_plan(kr, cb);
		return err_set(
			e,
			"%s [%s]: the known crashes' boots (%s) ended with no outcome (%s)",
			kr->k.spec.text, kr->lsm, cb->dir,
			spawn_strstatus(rc, buf, sizeof(buf)));
	}
	sbuf_printf(&crashes, "\n");
	for (line = text.buf; line && *line; line = next) {
		char *f[5];
		size_t n;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		n = fields(line, f, 5);
		if (n == 3 && !strcmp(f[0], "status")) {
			status = f[1];
			msg = f[2];
		} else if (n == 2 && !strcmp(f[0], "boots")) {
			boots = atoi(f[1]);
		} else if (n == 2 && !strcmp(f[0], "host_failures")) {
			kr->host_failures += atoi(f[1]);
		} else if (n == 2 && !strcmp(f[0], "image_s")) {
			kr->image_s += atof(f[1]);
		} else if (n == 2 && !strcmp(f[0], "boot_s")) {
			kr->boot_s += atof(f[1]);
		} else if (n == 2 && !strcmp(f[0], "first_output")) {
			f[1] += strspn(f[1], " ");
			if (*f[1])
				sbuf_printf(&kr->first_output, " %s", f[1]);
		} else if (n == 2 && !strcmp(f[0], "framed") && !framed[0]) {
			snprintf(framed, sizeof(framed), "%s", f[1]);
		} else if (n == 5 && !strcmp(f[0], "crash")) {
			sbuf_printf(&crashes, "%s/%s\n", f[1], f[2]);
			crash = xrealloc(crash, (n_crash + 1) * sizeof(*crash));
			memcpy(crash[n_crash++], f, sizeof(f));
		}
	}
	if (!status || strcmp(status, "ok")) {
		restore_plan(kr, cb);
		err_set(e, "%s",
			msg && *msg ?
				msg :
				"the known crashes' boots ended in error");
		sbuf_free(&text);
		sbuf_free(&crashes);
		free(crash);
		return -1;
	}
	add_file(&kr->boot_log, cb->dir, "boot-log.txt");
	add_file(&kr->timing, cb->dir, "timing.part");
	{
		struct sbuf p = { 0 };
		char *l, *nl;

		add_file(&p, cb->dir, "problems.txt");
		for (l = p.buf; l && *l; l = nl) {
			nl = strchr(l, '\n');
			if (nl)
				*nl++ = '\0';
			if (*l)
				add_problem(kr, "%s", l);
		}
		sbuf_free(&p);
	}
	if (as_listed(cb, crashes.buf, framed, why, sizeof(why))) {
		size_t t;

		for (i = 0; i < n_crash; i++)
			if ((t = test_index(kr, crash[i][1])) < kr->plan.n)
				take_crash(kr, cb, t, crash[i][2],
					   atoi(crash[i][3]), crash[i][4]);
	} else {
		sbuf_printf(
			&kr->boot_log,
			"boots %d-%d, of the listed crashes: %s, not as the known bugs list says; the tests they split run again whole\n",
			first, boots, why);
		restore_plan(kr, cb);
		cb->again = true;
	}
	if (boots > kr->boots)
		kr->boots = boots;
	sbuf_free(&text);
	sbuf_free(&crashes);
	free(crash);
	return 0;
}

void crash_boots_again(struct kernel_run *kr, struct crash_boots *cb,
		       struct plan *again)
{
	size_t i, t;

	again->items = xcalloc(cb->plan.n, sizeof(*again->items));
	again->n = 0;
	for (i = 0; i < cb->plan.n; i++) {
		struct plan_item *it = &again->items[again->n];

		t = test_index(kr, cb->plan.items[i].name);
		if (t == kr->plan.n)
			continue;
		kr->fate[t].framed = false;
		if (kr->fate[t].n_crashed) {
			if (rest_of_test(kr, t, it))
				again->n++;
			continue;
		}
		it->name = xstrdup(kr->plan.items[t].name);
		it->timeout_s = kr->plan.items[t].timeout_s;
		it->args = xstrdup(kr->plan.items[t].args);
		again->n++;
	}
}

void crash_boots_free(struct crash_boots *cb)
{
	size_t i;

	if (cb->orig)
		for (i = 0; i < cb->n_orig; i++)
			free(cb->orig[i]);
	free(cb->orig);
	plan_free(&cb->plan);
	free(cb->dir);
	memset(cb, 0, sizeof(*cb));
}
