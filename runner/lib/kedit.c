// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "kedit.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* @text with @line (and "\n") put in at offset @at. */
static char *insert_at(const char *text, size_t at, const char *line)
{
	return xasprintf("%.*s%s\n%s", (int)at, text, line, text + at);
}

/* The length of the line at @p, without its "\n". */
static size_t line_len(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? (size_t)(nl - p) : strlen(p);
}

static const char *line_after(const char *p)
{
	const char *nl = strchr(p, '\n');

	return nl ? nl + 1 : p + strlen(p);
}

/* Whether the line at @p is @prefix followed by exactly @value. */
static int line_is(const char *p, const char *prefix, const char *value)
{
	size_t n = line_len(p), lp = strlen(prefix);

	return n == lp + strlen(value) && !strncmp(p, prefix, lp) &&
	       !strncmp(p + lp, value, n - lp);
}

/* strcmp of the rest of the line at @p (after @skip bytes) with @value. */
static int line_cmp(const char *p, size_t skip, const char *value)
{
	size_t n = line_len(p) - skip, lv = strlen(value);
	int c = strncmp(p + skip, value, n < lv ? n : lv);

	return c ? c : (n > lv) - (n < lv);
}

char *kedit_targets(const char *makefile, const char *target, const char **why)
{
	static const char prefix[] = "TARGETS += ";
	const char *p, *at = NULL, *first = NULL;
	char *line, *out;

	for (p = makefile; *p; p = line_after(p)) {
		if (strncmp(p, prefix, strlen(prefix)))
			continue;
		if (line_is(p, prefix, target)) {
			*why = "already has that TARGETS entry";
			return NULL;
		}
		if (!first)
			first = p;
		if (line_cmp(p, strlen(prefix), target) < 0)
			at = line_after(p);
	}
	if (!first) {
		*why = "has no \"TARGETS += \" line";
		return NULL;
	}
	line = xasprintf("%s%s", prefix, target);
	out = insert_at(makefile, (at ? at : first) - makefile, line);
	free(line);
	return out;
}

char *kedit_maintainers(const char *maintainers, const char *entry,
			const char *path, const char **why)
{
	const char *p, *at = NULL, *first = NULL, *last = NULL;
	char *line, *out;

	for (p = maintainers; *p && !line_is(p, "", entry); p = line_after(p))
		;
	if (!*p) {
		*why = "has no such entry";
		return NULL;
	}
	/* The entry's lines: up to the first empty line. */
	for (p = line_after(p); *p && *p != '\n'; p = line_after(p)) {
		last = p;
		if (strncmp(p, "F:\t", 3))
			continue;
		if (line_is(p, "F:\t", path)) {
			*why = "already lists that path";
			return NULL;
		}
		if (!first)
			first = p;
		if (line_cmp(p, 3, path) < 0)
			at = line_after(p);
	}
	if (!last) {
		*why = "has an empty entry";
		return NULL;
	}
	if (!at)
		at = first ? first : line_after(last);
	line = xasprintf("F:\t%s", path);
	out = insert_at(maintainers, at - maintainers, line);
	free(line);
	return out;
}
