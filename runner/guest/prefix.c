// SPDX-License-Identifier: GPL-2.0
/*
 * /usr/bin/perl in the guest, for one script only: kselftest's
 * kselftest/prefix.pl, which runner.sh pipes each program's output
 * through when /usr/bin/perl exists ("# " before every line, unbuffered).
 * Without it runner.sh falls back to sed, which holds its output in a
 * buffer: the case a kernel crash happened in never reached the host.
 * This writes each read's bytes at once, as prefix.pl does.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
		if (n == 0)
			return 0;
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
