// SPDX-License-Identifier: GPL-2.0
/*
 * Whose fault the end of a boot is (hostfault.h): the judgement is pure;
 * sched_sample() is the one reader of /proc.
 */
#define _GNU_SOURCE
#include "hostfault.h"
#include "lib/lib.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sched_parse(const char *text, unsigned long long *wait_ns)
{
	unsigned long long run, wait;

	if (sscanf(text, "%llu %llu", &run, &wait) != 2)
		return -1;
	*wait_ns = wait;
	return 0;
}

void sched_sample(pid_t pid, struct sched_snap *s)
{
	char *dir = xasprintf("/proc/%d/task", (int)pid);
	DIR *d = opendir(dir);
	struct dirent *de;

	s->n = 0;
	while (d && (de = readdir(d)) && s->n < ARRAY_SIZE(s->v)) {
		char *path, *text;
		int tid = atoi(de->d_name);

		if (tid <= 0)
			continue;
		path = xasprintf("%s/%d/schedstat", dir, tid);
		if (!read_file(path, &text, NULL)) {
			if (!sched_parse(text, &s->v[s->n].wait_ns))
				s->v[s->n++].tid = tid;
			free(text);
		}
		free(path);
	}
	if (d)
		closedir(d);
	free(dir);
}

double sched_wait_since(const struct sched_snap *then,
			const struct sched_snap *now)
{
	unsigned long long most = 0;
	size_t i, j;

	for (i = 0; i < now->n; i++) {
		unsigned long long w = now->v[i].wait_ns, before = 0;

		for (j = 0; then && j < then->n; j++)
			if (then->v[j].tid == now->v[i].tid)
				before = then->v[j].wait_ns;
		/* A thread id used again by a new thread: its own wait. */
		if (w >= before)
			w -= before;
		if (w > most)
			most = w;
	}
	return most / 1e9;
}

bool host_starved(double window_s, double wait_s)
{
	return window_s > 0 && wait_s * 2 >= window_s;
}

/* The ends a deadline makes: a starved host's as much as a hung guest's. */
static bool deadline_end(enum boot_end e)
{
	return e == BOOT_SILENT || e == BOOT_NOINIT || e == BOOT_HUNG ||
	       e == BOOT_TIMEOUT;
}

bool boot_host_fault(const struct boot_facts *f, char *why, size_t size)
{
	char at[80];
	const char *said = f->said ? f->said : "";

	if (size)
		why[0] = '\0';
	/* The guest's own report is the kernel's, whatever happened next. */
	if (f->kernel_report)
		return false;
	snprintf(at, sizeof(at), "at console line %u, no kernel report",
		 f->console_line);
	if (f->end == BOOT_NOSTART) {
		snprintf(why, size, "QEMU could not be started: %s", f->reason);
		return true;
	}
	/* lsmconf itself could not go on watching (boot.c's poll). */
	if (f->end == BOOT_STOPPED && !strncmp(f->reason, "poll: ", 6)) {
		snprintf(why, size, "the watch of QEMU failed (%s) %s",
			 f->reason, at);
		return true;
	}
	if (f->end == BOOT_EXITED || f->end == BOOT_DONE) {
		/* With -no-reboot a guest's reset or power-off exits 0. */
		if (f->status > 128)
			snprintf(why, size,
				 "QEMU was killed by signal %d %s%s%s",
				 f->status - 128, at, said[0] ? ": " : "",
				 said);
		else if (f->status > 0)
			snprintf(why, size, "QEMU exited with status %d %s%s%s",
				 f->status, at, said[0] ? ": " : "", said);
		else if (f->host_signal)
			snprintf(
				why, size,
				"QEMU shut down on a signal from the host %s%s%s",
				at, said[0] ? ": " : "", said);
		else
			return false;
		return true;
	}
	if (deadline_end(f->end) && host_starved(f->window_s, f->wait_s)) {
		snprintf(
			why, size,
			"the host starved QEMU of CPU (a thread of it waited %.0f s of %.0f s for one) %s: %s",
			f->wait_s, f->window_s, at, f->reason);
		return true;
	}
	return false;
}
