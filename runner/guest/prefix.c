// SPDX-License-Identifier: GPL-2.0
/*
 * /usr/bin/perl in the guest, for one script only: kselftest's
 * kselftest/prefix.pl, which runner.sh pipes each program's output
 * through when /usr/bin/perl exists ("# " before every line, unbuffered).
 * Without it runner.sh falls back to sed, which holds its output in a
 * buffer: the case a kernel crash happened in never reached the host.
 * This writes each read's bytes at once, as prefix.pl does.
 *
 * Where a program's time goes: with LSMCONF_RESULTS set (the guest init
 * sets it per program), the guest uptimes of the program's first and last
 * output go to $LSMCONF_RESULTS/output.time ("FIRST LAST"); the init's
 * own start and end times of the program frame them (its start-up,
 * cases and end in the run's timing.tsv).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Seconds since boot, as /proc/uptime counts them. */
static double uptime(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void write_output_time(double first, double last)
{
	const char *dir = getenv("LSMCONF_RESULTS");
	char path[4096];
	FILE *f;

	if (!dir || !*dir || first < 0)
		return;
	snprintf(path, sizeof(path), "%s/output.time", dir);
	f = fopen(path, "w");
	if (!f)
		return; /* timing only: the output itself went through */
	fprintf(f, "%.3f %.3f\n", first, last);
	fclose(f);
}

static int write_all(const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(1, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= w;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *script = argc > 1 ? strrchr(argv[1], '/') : NULL;
	char in[4096], out[3 * sizeof(in)];
	double first = -1, last = -1;
	int needed = 1;

	script = script ? script + 1 : argc > 1 ? argv[1] : "";
	if (strcmp(script, "prefix.pl")) {
		fprintf(stderr,
			"perl: this guest runs kselftest's prefix.pl only\n");
		return 2;
	}
	for (;;) {
		ssize_t n = read(0, in, sizeof(in)), i;
		size_t o = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			perror("perl: prefix.pl: read");
			return 1;
		}
		if (n == 0) {
			write_output_time(first, last);
			return 0;
		}
		last = uptime();
		if (first < 0)
			first = last;
		for (i = 0; i < n; i++) {
			if (needed) {
				out[o++] = '#';
				out[o++] = ' ';
				needed = 0;
			}
			out[o++] = in[i];
			if (in[i] == '\n')
				needed = 1;
		}
		if (write_all(out, o)) {
			perror("perl: prefix.pl: write");
			return 1;
		}
	}
}
