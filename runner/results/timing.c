// SPDX-License-Identifier: GPL-2.0
/* timing.tsv rows: written, read back, added up, said in one line. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/timing.h"

static const char *const stage_names[T_N_STAGES] = {
	[T_FETCH] = "fetch",
	[T_BUILD] = "build",
	[T_IMAGE] = "image",
	[T_QEMU] = "qemu",
	[T_QEMU_START] = "qemu-start",
	[T_KERNEL_BOOT] = "kernel-boot",
	[T_PROGRAM] = "program",
	[T_PROGRAM_START] = "program-start",
	[T_PROGRAM_CASES] = "program-cases",
	[T_PROGRAM_END] = "program-end",
	[T_POLICY] = "policy",
	[T_TRANSFER] = "transfer",
	[T_COLLECT] = "collect",
	[T_COMPARE] = "compare",
};

const char *timing_stage_name(enum timing_stage st)
{
	return st < T_N_STAGES ? stage_names[st] : "?";
}

void timing_row(struct sbuf *sb, const char *kernel, int boot,
		enum timing_stage st, const char *name, double seconds,
		long count)
{
	char b[16] = "-";

	if (boot > 0)
		snprintf(b, sizeof(b), "%d", boot);
	sbuf_printf(sb, "%s\t%s\t%s\t%s\t%.3f\t%ld\n", kernel ? kernel : "-", b,
		    timing_stage_name(st), name ? name : "-",
		    seconds < 0 ? 0 : seconds, count);
}

static int stage_of(const char *s, size_t n)
{
	int i;

	for (i = 0; i < T_N_STAGES; i++)
		if (strlen(stage_names[i]) == n &&
		    !memcmp(stage_names[i], s, n))
			return i;
	return -1;
}

/* Column @f (@n bytes) as a number of 0 or more (@whole: an integer). */
static bool field_number(const char *f, size_t n, bool whole, double *out)
{
	char num[64], *stop;

	if (n >= sizeof(num))
		return false;
	memcpy(num, f, n);
	num[n] = '\0';
	errno = 0;
	*out = whole ? (double)strtol(num, &stop, 10) : strtod(num, &stop);
	return !errno && !*stop && isfinite(*out) && *out >= 0;
}

/* Row @line (no newline, @n bytes) into @sum, or why it is not one. */
static const char *timing_line(const char *line, size_t n,
			       struct timing_sum *sum)
{
	const char *f[6], *p = line, *end = line + n;
	size_t len[6];
	double s, c;
	int i, st;

	for (i = 0; i < 6; i++) {
		const char *tab = memchr(p, '\t', end - p);

		f[i] = p;
		len[i] = (tab ? tab : end) - p;
		if (!len[i])
			return "an empty column";
		if (!tab) {
			if (i != 5)
				return "fewer than 6 columns";
			break;
		}
		if (i == 5)
			return "more than 6 columns";
		p = tab + 1;
	}
	st = stage_of(f[2], len[2]);
	if (st < 0)
		return "an unknown stage";
	if (!field_number(f[4], len[4], false, &s))
		return "seconds not a number of 0 or more";
	if (!field_number(f[5], len[5], true, &c))
		return "count not a whole number of 0 or more";
	sum->seconds[st] += s;
	sum->count[st] += (long)c;
	sum->rows[st]++;
	return NULL;
}

size_t timing_parse(const char *buf, size_t len, struct timing_sum *sum,
		    char *why, size_t size)
{
	const char *p = buf, *end = buf + len;
	size_t no = 0, hl = strlen(TIMING_HEADER);

	if (len < hl || memcmp(buf, TIMING_HEADER, hl)) {
		snprintf(why, size, "not a timing.tsv header");
		return 1;
	}
	p += hl;
	no = 1;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *err;

		no++;
		if (!nl) {
			snprintf(why, size, "no newline at its end");
			return no;
		}
		if (memchr(p, '\0', nl - p)) {
			snprintf(why, size, "a NUL byte");
			return no;
		}
		err = timing_line(p, nl - p, sum);
		if (err) {
			snprintf(why, size, "%s", err);
			return no;
		}
		p = nl + 1;
	}
	return 0;
}

/* Appends to @out (of @size, @o used) as printf does; never overflows. */
static size_t put(char *out, size_t size, size_t o, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t put(char *out, size_t size, size_t o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o >= size)
		return o;
	va_start(ap, fmt);
	n = vsnprintf(out + o, size - o, fmt, ap);
	va_end(ap);
	return n < 0 ? o : o + (size_t)n;
}

void timing_summary(const struct timing_sum *t, char *out, size_t size)
{
	const double *s = t->seconds;
	const long *r = t->rows, *c = t->count;
	size_t o = 0;
	int guest = 0;
	const char *sep = "";

	out[0] = '\0';
	if (r[T_BUILD]) {
		o = put(out, size, o, "%sbuild %.1f s", sep, s[T_BUILD]);
		sep = ", ";
	}
	if (r[T_FETCH]) {
		o = put(out, size, o, "%sfetch %.1f s", sep, s[T_FETCH]);
		sep = ", ";
	}
	if (r[T_IMAGE]) {
		o = put(out, size, o, "%simage %.1f s", sep, s[T_IMAGE]);
		sep = ", ";
	}
	if (r[T_QEMU]) {
		o = put(out, size, o, "%sQEMU %.1f s in %ld boot%s", sep,
			s[T_QEMU], r[T_QEMU], r[T_QEMU] == 1 ? "" : "s");
		sep = ", ";
		o = put(out, size, o, " (");
		if (r[T_QEMU_START]) {
			o = put(out, size, o, "to first output %.1f s; ",
				s[T_QEMU_START]);
		}
		o = put(out, size, o, "guest:");
		if (r[T_KERNEL_BOOT]) {
			o = put(out, size, o, " kernel boot %.1f s",
				s[T_KERNEL_BOOT]);
			guest = 1;
		}
		if (r[T_PROGRAM]) {
			o = put(out, size, o, "%s %ld program%s %.1f s",
				guest ? "," : "", r[T_PROGRAM],
				r[T_PROGRAM] == 1 ? "" : "s", s[T_PROGRAM]);
			if (r[T_PROGRAM_CASES])
				o = put(out, size, o,
					" = start-up %.1f + cases %.1f + end %.1f",
					s[T_PROGRAM_START], s[T_PROGRAM_CASES],
					s[T_PROGRAM_END]);
			guest = 1;
		}
		if (r[T_POLICY]) {
			o = put(out, size, o,
				"%s policy %.1f s in %ld compiles",
				guest ? "," : "", s[T_POLICY], c[T_POLICY]);
			guest = 1;
		}
		if (r[T_TRANSFER]) {
			o = put(out, size, o,
				"%s transfer %.1f s in %ld frames",
				guest ? "," : "", s[T_TRANSFER], c[T_TRANSFER]);
			guest = 1;
		}
		o = put(out, size, o, "%s)", guest ? "" : " nothing reported");
	}
	if (r[T_COLLECT]) {
		o = put(out, size, o, "%scollect %.1f s", sep, s[T_COLLECT]);
		sep = ", ";
	}
	if (r[T_COMPARE])
		o = put(out, size, o, "%scompare %.2f s", sep, s[T_COMPARE]);
	if (o >= size && size > 4)
		memcpy(out + size - 4, "...", 4);
}

int timing_read(const char *dir, struct sbuf *rows, struct err *e)
{
	char *path = xasprintf("%s/timing.tsv", dir), *buf, why[128];
	size_t len, hl = strlen(TIMING_HEADER), bad;
	struct timing_sum sum = { 0 };

	if (read_file(path, &buf, &len)) {
		free(path);
		return 0; /* saved before there was one */
	}
	bad = timing_parse(buf, len, &sum, why, sizeof(why));
	if (bad) {
		err_set(e, "%s line %zu: %s", path, bad, why);
		free(buf);
		free(path);
		return -1;
	}
	sbuf_add(rows, buf + hl, len - hl);
	free(buf);
	free(path);
	return 1;
}
