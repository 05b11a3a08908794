// SPDX-License-Identifier: GPL-2.0
/*
 * The plan after a crash: the tests and cases still to run, resumed on
 * the next boot.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "vm/vm.h"
#include "provision/provision.h"
#include "results/results.h"
#include "lsmconf_record.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * Test @t without the cases that brought the kernel down, in *@out: every
 * other case by the harness's own "-r" (of the cases it was planned with,
 * "-r" each, else of all of them from its listing). False when none is
 * left, or when "every other case" is not known (arguments of the
 * user's): the test then ends there.
 */
bool rest_of_test(struct kernel_run *kr, size_t t, struct plan_item *out)
{
	const struct plan_item *it = &kr->plan.items[t];
	const struct test_fate *f = &kr->fate[t];
	struct sbuf args = { 0 };
	char **cases = NULL;
	int n = -1, i;
	size_t j;

	if (f->n_crashed && !it->args[0])
		n = list_cases(kr, it->name, &cases);
	else if (f->n_crashed)
		n = crash_args_cases(it->args, &cases);
	for (i = 0; i < n; i++) {
		bool crashed = false;

		for (j = 0; j < f->n_crashed; j++)
			crashed |= !strcmp(cases[i], f->crashed[j]);
		if (!crashed)
			sbuf_printf(&args, "%s-r %s", args.len ? " " : "",
				    cases[i]);
		free(cases[i]);
	}
	free(cases);
	if (!args.len)
		return false;
	out->name = xstrdup(it->name);
	out->timeout_s = it->timeout_s;
	out->args = args.buf;
	return true;
}

/*
 * The plan after a boot ended in test @t: the test again without the case
 * that brought the kernel down (rest_of_test()), then the tests after it.
 * Cases are rerun rather than kept from the dead boot: their records went
 * down with it.
 */
void resume_plan(struct kernel_run *kr, size_t t, struct plan *next)
{
	size_t j, k = 0;

	next->items = xcalloc(kr->plan.n - t, sizeof(*next->items));
	if (rest_of_test(kr, t, &next->items[k]))
		k++;
	for (j = t + 1; j < kr->plan.n; j++) {
		next->items[k].name = xstrdup(kr->plan.items[j].name);
		next->items[k].timeout_s = kr->plan.items[j].timeout_s;
		next->items[k++].args = xstrdup(kr->plan.items[j].args);
	}
	next->n = k;
}

/* The index in the full plan of the first test of @p. */
size_t plan_index(const struct kernel_run *kr, const struct plan *p)
{
	size_t i;

	for (i = 0; i < kr->plan.n; i++)
		if (p->n && !strcmp(kr->plan.items[i].name, p->items[0].name))
			return i;
	return kr->plan.n;
}

/*
 * One line on how boot @boot ended: the console's finding when there is
 * one (a panic names its cause), else the watcher's reason.
 */
void boot_why(const char *bdir, const struct boot_result *br, char *out,
	      size_t size, char **trace)
{
	char *path = xasprintf("%s/console.log", bdir), *buf, verdict[300];
	struct console_scan scan;
	size_t len;

	*trace = NULL;
	snprintf(out, size, "%s", br->reason);
	if (!read_file(path, &buf, &len)) {
		console_scan(buf, len, &scan);
		/* A panic is the watcher's reason too: say it once. */
		if (console_verdict(&scan, verdict, sizeof(verdict)))
			snprintf(out, size, "%s%s%.200s", verdict,
				 br->end == BOOT_EXITED ? "" : "; ",
				 br->end == BOOT_EXITED ? "" : br->reason);
		*trace = crash_trace(buf, len, TRACE_LINES);
		free(buf);
	}
	free(path);
}

/* The whole plan, as the first boot runs it. */
void again_plan(const struct kernel_run *kr, size_t t, struct plan *next)
{
	size_t j, k = 0;

	next->items = xcalloc(kr->plan.n - t, sizeof(*next->items));
	for (j = t; j < kr->plan.n; j++) {
		if (j > t && kr->fate[j].framed)
			continue;
		next->items[k].name = xstrdup(kr->plan.items[j].name);
		next->items[k].timeout_s = kr->plan.items[j].timeout_s;
		next->items[k++].args = xstrdup(kr->plan.items[j].args);
	}
	next->n = k;
}

void resume_plan_all(const struct kernel_run *kr, struct plan *p)
{
	size_t i;

	p->items = xcalloc(kr->plan.n, sizeof(*p->items));
	p->n = kr->plan.n;
	for (i = 0; i < p->n; i++) {
		p->items[i].name = xstrdup(kr->plan.items[i].name);
		p->items[i].timeout_s = kr->plan.items[i].timeout_s;
		p->items[i].args = xstrdup(kr->plan.items[i].args);
	}
}
