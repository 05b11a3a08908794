// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "crash.h"
#include "console.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SECTION "lsmconf: run "

const char *crash_section(const char *live, size_t len, const char *test,
			  size_t *out_len)
{
	const char *p = live, *end = live + len, *found = NULL, *next;
	size_t tlen = strlen(test), slen = strlen(SECTION);

	for (p = live; p < end; p = next) {
		const char *nl = memchr(p, '\n', end - p);

		next = nl ? nl + 1 : end;
		/*
		 * ">=": the line may be the last, with no newline yet (with
		 * ">", the "== end" case below could never match).
		 */
		if ((size_t)(end - p) >= slen + tlen &&
		    !memcmp(p, SECTION, slen) &&
		    !memcmp(p + slen, test, tlen) &&
		    (p + slen + tlen == end || p[slen + tlen] == '\n' ||
		     p[slen + tlen] == '\r'))
			found = next;
	}
	if (!found)
		return NULL;
	/* Up to the next section, or the end. */
	for (p = found; p < end; p = next) {
		const char *nl = memchr(p, '\n', end - p);

		next = nl ? nl + 1 : end;
		if ((size_t)(end - p) >= slen && !memcmp(p, SECTION, slen))
			break;
	}
	*out_len = p - found;
	return found;
}

/* The first word after @prefix at the start of @line (bounded by @end). */
static bool word_after(const char *line, const char *end, const char *prefix,
		       char *out, size_t size)
{
	size_t plen = strlen(prefix), n;

	if ((size_t)(end - line) < plen || memcmp(line, prefix, plen))
		return false;
	line += plen;
	while (line < end && *line == ' ')
		line++;
	for (n = 0; line + n < end && line[n] != ' ' && line[n] != '\n' &&
		    line[n] != '\r';
	     n++)
		;
	if (!n || n >= size)
		return false;
	memcpy(out, line, n);
	out[n] = '\0';
	return true;
}

/* "ok N NAME" or "not ok N NAME": NAME into @out. */
static bool result_name(const char *line, const char *end, char *out,
			size_t size)
{
	char num[32];

	if ((size_t)(end - line) > 7 && !memcmp(line, "not ", 4))
		line += 4;
	if (!word_after(line, end, "ok", num, sizeof(num)) ||
	    strspn(num, "0123456789") != strlen(num))
		return false;
	line += 2;
	while (line < end && *line == ' ')
		line++;
	line += strlen(num);
	return word_after(line, end, "", out, size);
}

int crash_open_case(const char *section, size_t len, char *name, size_t size)
{
	const char *p, *end = section + len, *next;
	char cur[512] = "", done[512];

	for (p = section; p < end; p = next) {
		const char *nl = memchr(p, '\n', end - p);

		next = nl ? nl + 1 : end;
		if (word_after(p, next, "#  RUN", done, sizeof(done)))
			snprintf(cur, sizeof(cur), "%s", done);
		else if (cur[0] && result_name(p, next, done, sizeof(done)) &&
			 !strcmp(done, cur))
			cur[0] = '\0';
	}
	if (!cur[0] || strlen(cur) >= size)
		return -1;
	strcpy(name, cur);
	return 0;
}

/* Whether @section holds the result line ("ok N NAME", "not ok N NAME") of @kase. */
bool crash_case_reported(const char *section, size_t len, const char *kase)
{
	const char *p, *end = section + len, *next;
	char done[512];

	for (p = section; p < end; p = next) {
		const char *nl = memchr(p, '\n', end - p);

		next = nl ? nl + 1 : end;
		if (result_name(p, next, done, sizeof(done)) &&
		    !strcmp(done, kase))
			return true;
	}
	return false;
}

/* @line without the kernel's "[  seconds] " stamp. */
static const char *unstamped(const char *line, const char *end)
{
	const char *p = line;

	if (p < end && *p == '[') {
		p = memchr(p, ']', end - p);
		if (!p)
			return line;
		p++;
		while (p < end && *p == ' ')
			p++;
	}
	return p;
}

bool crash_mark_line(const char *line, size_t len, const char *test, char *name,
		     size_t size)
{
	const char *end = line + len, *p = unstamped(line, end);
	size_t tlen = strlen(test);
	static const char pre[] = "kselftest: ";

	if ((size_t)(end - p) < sizeof(pre) + tlen + 1 ||
	    memcmp(p, pre, sizeof(pre) - 1) ||
	    memcmp(p + sizeof(pre) - 1, test, tlen))
		return false;
	return word_after(p + sizeof(pre) - 1 + tlen, end, ": RUN", name, size);
}

int crash_console_program(const char *console, size_t len, char *prog,
			  size_t size)
{
	const char *p, *end = console + len, *next;
	static const char pre[] = "kselftest: ";
	int found = -1;

	for (p = console; p < end; p = next) {
		const char *nl = memchr(p, '\n', end - p);
		const char *line = unstamped(p, nl ? nl : end), *run;
		size_t n;

		next = nl ? nl + 1 : end;
		if ((size_t)(next - line) <= sizeof(pre) ||
		    memcmp(line, pre, sizeof(pre) - 1))
			continue;
		line += sizeof(pre) - 1;
		run = memmem(line, next - line, ": RUN ", 6);
		n = run ? (size_t)(run - line) : 0;
		if (!n || n >= size || memchr(line, ' ', n))
			continue;
		memcpy(prog, line, n);
		prog[n] = '\0';
		found = 0;
	}
	return found;
}

int crash_console_case(const char *console, size_t len, const char *test,
		       char *name, size_t size)
{
	const char *p, *end = console + len, *next;
	char *done = xasprintf("lsmconf: done %s ", test);
	unsigned int fatal = console_fatal_line(console, len), no = 1;
	char cur[512] = "", kase[512];

	for (p = console; p < end && (!fatal || no < fatal); p = next, no++) {
		const char *nl = memchr(p, '\n', end - p);
		const char *line = unstamped(p, nl ? nl : end);

		next = nl ? nl + 1 : end;
		/*
		 * A test runs once a boot, and its "run" line may come after
		 * its first announcements (run_kselftest.sh -c: the guest
		 * prints it from the program's piped output), so only its end
		 * closes what it announced.
		 */
		if ((size_t)(next - line) >= strlen(done) &&
		    !memcmp(line, done, strlen(done)))
			cur[0] = '\0';
		else if (crash_mark_line(p, next - p, test, kase, sizeof(kase)))
			snprintf(cur, sizeof(cur), "%s", kase);
	}
	free(done);
	if (!cur[0] || strlen(cur) >= size)
		return -1;
	strcpy(name, cur);
	return 0;
}

/* The next field of a "-l" row: a word, or "" where the column is blank. */
static const char *field(const char *p, int width, char *out, size_t size)
{
	size_t n = 0;

	if (*p != ' ') {
		while (p[n] && p[n] != ' ' && p[n] != '\n')
			n++;
		snprintf(out, size, "%.*s", (int)n, p);
	} else {
		out[0] = '\0';
	}
	/* Columns are padded to @width, then one space; longer names push on. */
	n = MIN(strlen(p), (size_t)(n > (size_t)width ? n : (size_t)width) + 1);
	return p + n;
}

static void push(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = xstrdup(s);
}

static void clear(char **v, size_t *n)
{
	while (*n)
		free(v[--*n]);
}

int crash_list_cases(const char *listing, char ***cases)
{
	char fixture[256] = "", f[256], v[256], t[256];
	char **vars = NULL, **tests = NULL, **out = NULL;
	size_t nv = 0, nt = 0, n = 0, i, j;
	const char *line = listing;
	bool header = false;

	*cases = NULL;
	for (;;) {
		size_t len = strcspn(line, "\n");
		bool last = !*line;

		/* A fixture's block ends at a dashed line or at the end. */
		if (last || (len && line[0] == '-')) {
			for (i = 0; i < (nv ? nv : 1); i++)
				for (j = 0; j < nt; j++) {
					out = xrealloc(out,
						       (n + 1) * sizeof(*out));
					out[n++] =
						nv ? xasprintf("%s.%s.%s",
							       fixture, vars[i],
							       tests[j]) :
						     xasprintf("%s.%s", fixture,
							       tests[j]);
				}
			clear(vars, &nv);
			clear(tests, &nt);
			if (last)
				break;
		} else if (len && !strncmp(line, "# FIXTURE", 9)) {
			header = true;
		} else if (len && header) {
			char *row = xstrndup(line, len);
			const char *p = row;

			p = field(p, 20, f, sizeof(f));
			p = field(p, 25, v, sizeof(v));
			p += strspn(p, " ");
			snprintf(t, sizeof(t), "%.*s", (int)strcspn(p, " "), p);
			free(row);
			if (f[0])
				snprintf(fixture, sizeof(fixture), "%s", f);
			if (v[0])
				push(&vars, &nv, v);
			if (t[0])
				push(&tests, &nt, t);
		}
		line += len + (line[len] == '\n');
	}
	free(vars);
	free(tests);
	if (!header) {
		for (i = 0; i < n; i++)
			free(out[i]);
		free(out);
		return -1;
	}
	*cases = out;
	return n;
}

char *crash_trace(const char *console, size_t len, unsigned int max_lines)
{
	unsigned int first = console_fatal_line(console, len), line = 1;
	unsigned int kept = 0;
	const char *p, *end = console + len, *start = NULL;
	struct sbuf out = { 0 };

	/* The report that ended the boot, not an earlier WARNING or BUG. */
	if (!first)
		return NULL;
	for (p = console; p < end && line < first; p++)
		if (*p == '\n')
			line++;
	start = p;
	for (p = start; p < end && kept < max_lines; kept++) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		/* The serial console's CR LF line ends become LF. */
		size_t w = n && p[n - 1] == '\r' ? n - 1 : n;

		sbuf_printf(&out, "%.*s\n", (int)w, p);
		p += n + 1;
	}
	return out.buf;
}

int crash_args_cases(const char *args, char ***cases)
{
	const char *p = args;
	int n = 0;

	*cases = NULL;
	while (*p) {
		size_t len;

		if (strncmp(p, "-r ", 3) || p[3] == ' ' || !p[3])
			break;
		p += 3;
		len = strcspn(p, " ");
		*cases = xrealloc(*cases, (n + 1) * sizeof(**cases));
		(*cases)[n++] = xstrndup(p, len);
		p += len;
		/* One space, then the next "-r". */
		if (*p == ' ' && !p[1])
			break;
		if (*p == ' ')
			p++;
	}
	if (*p || !n) {
		while (n)
			free((*cases)[--n]);
		free(*cases);
		*cases = NULL;
		return -1;
	}
	return n;
}
