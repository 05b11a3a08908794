// SPDX-License-Identifier: GPL-2.0
/* Unified diffs checked line by line: see diffcheck.h. */
#define _GNU_SOURCE
#include "diffcheck.h"
#include "util.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Quoted in a message: at most this much of a line. */
#define QUOTE_MAX 40

struct diff_scan {
	const char *name;
	unsigned int lineno;
	int files;
	bool in_file; /* after a file's "+++ " line */
	unsigned int file_line, hunks; /* where it started, its hunks */
	char file[256];
	unsigned int hunk_line; /* 0: not in a hunk */
	unsigned int ended; /* the hunk that ended on the line before, or 0 */
	unsigned long old_left, new_left;
};

/* @line (@n bytes) as a message shows it: one line, cut short. */
static void quote(const char *line, size_t n, char *out, size_t size)
{
	size_t i;

	if (n > QUOTE_MAX)
		n = QUOTE_MAX;
	if (n >= size)
		n = size - 1;
	for (i = 0; i < n; i++)
		out[i] = iscntrl((unsigned char)line[i]) ? '?' : line[i];
	out[n] = '\0';
}

/* A number of a hunk header: digits only, not absurdly large. */
static bool number(const char **p, unsigned long *v)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return false;
	*v = strtoul(*p, &end, 10);
	if (end - *p > 9)
		return false;
	*p = end;
	return true;
}

/* "@@ -a[,b] +c[,d] @@...": the line counts b and d (1 when left out). */
static bool hunk_header(const char *line, size_t n, unsigned long *old,
			unsigned long *new)
{
	char *copy = xstrndup(line, n);
	const char *p = copy + 3;
	unsigned long v;
	bool ok = false;

	*old = *new = 1;
	if (n < 4 || copy[2] != ' ' || *p++ != '-' || !number(&p, &v))
		goto out;
	if (*p == ',' && (p++, !number(&p, old)))
		goto out;
	if (*p++ != ' ' || *p++ != '+' || !number(&p, &v))
		goto out;
	if (*p == ',' && (p++, !number(&p, new)))
		goto out;
	ok = !strncmp(p, " @@", 3) && p[3] != '@';
out:
	free(copy);
	return ok;
}

static int no_hunk(struct diff_scan *s, struct err *e)
{
	return err_set(e, "%s: line %u: file %s has no hunk (no \"@@\" line)",
		       s->name, s->file_line, s->file);
}

/* A line inside a hunk: one of its old or new lines, or the end of it. */
static int hunk_line(struct diff_scan *s, const char *line, size_t n,
		     struct err *e)
{
	char q[QUOTE_MAX + 1];
	char c = n ? line[0] : ' ';

	/* An empty line: a context line whose space was stripped. */
	if ((c == ' ' && s->old_left && s->new_left) ||
	    (c == '-' && s->old_left) || (c == '+' && s->new_left)) {
		s->old_left -= c != '+';
		s->new_left -= c != '-';
		if (!s->old_left && !s->new_left) {
			s->ended = s->hunk_line;
			s->hunk_line = 0;
		}
		return 0;
	}
	if (c == '\\')
		return 0;
	quote(line, n, q, sizeof(q));
	return err_set(
		e,
		"%s: line %u: the hunk of line %u (file %s) ends early: %lu old and %lu new lines missing before \"%s\"",
		s->name, s->lineno, s->hunk_line, s->file, s->old_left,
		s->new_left, q);
}

/* The path a "+++ b/PATH<TAB>date" line names. */
static void file_name(struct diff_scan *s, const char *line, size_t n)
{
	size_t len = strcspn(line + 4, "\t\n");

	if (len > n - 4)
		len = n - 4;
	quote(line + 4, len, s->file, sizeof(s->file));
}

/* The length of the line at @p, without its newline. */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', end - p);

	return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

int diff_check(const char *text, size_t len, const char *name, struct err *e)
{
	struct diff_scan s = { .name = name };
	const char *p = text, *end = text + len;
	char q[QUOTE_MAX + 1];

	while (p < end) {
		size_t n = line_len(p, end);
		const char *next = p + n + (p + n < end);

		s.lineno++;
		if (n && p[n - 1] == '\r')
			n--;
		if (s.ended && n && strchr(" +-", p[0]) &&
		    strncmp(p, "--- ", 4) && strncmp(p, "-- ", 3) &&
		    (n != 2 || strncmp(p, "--", 2))) {
			quote(p, n, q, sizeof(q));
			return err_set(
				e,
				"%s: line %u: the hunk of line %u (file %s) has more lines than its header counts: \"%s\"",
				name, s.lineno, s.ended, s.file, q);
		}
		s.ended = 0;
		if (s.hunk_line) {
			if (hunk_line(&s, p, n, e))
				return -1;
		} else if (n >= 4 && !strncmp(p, "--- ", 4)) {
			size_t m = line_len(next, end);

			if (m < 4 || strncmp(next, "+++ ", 4)) {
				/* Before any file: a message's own words. */
				if (s.files)
					return err_set(
						e,
						"%s: line %u: \"--- \" without its \"+++ \" line",
						name, s.lineno);
			} else {
				if (s.in_file && !s.hunks)
					return no_hunk(&s, e);
				s.files++;
				s.in_file = true;
				s.hunks = 0;
				s.file_line = s.lineno;
				file_name(&s, next, m);
				s.lineno++;
				next = next + m + (next + m < end);
			}
		} else if (n >= 2 && !strncmp(p, "@@", 2)) {
			if (!s.in_file)
				return err_set(
					e,
					"%s: line %u: a hunk outside a file (no \"--- \"/\"+++ \" lines before it)",
					name, s.lineno);
			if (!hunk_header(p, n, &s.old_left, &s.new_left) ||
			    (!s.old_left && !s.new_left)) {
				quote(p, n, q, sizeof(q));
				return err_set(
					e,
					"%s: line %u: not a hunk header (want \"@@ -A,B +C,D @@\"): \"%s\"",
					name, s.lineno, q);
			}
			s.hunk_line = s.lineno;
			s.hunks++;
		}
		p = next;
	}
	if (s.hunk_line)
		return err_set(
			e,
			"%s: line %u: the hunk of line %u (file %s) is cut short: %lu old and %lu new lines missing",
			name, s.lineno, s.hunk_line, s.file, s.old_left,
			s.new_left);
	if (s.in_file && !s.hunks)
		return no_hunk(&s, e);
	if (!s.files)
		return err_set(e,
			       "%s: no diff in it (no \"--- \"/\"+++ \" lines)",
			       name);
	return s.files;
}
