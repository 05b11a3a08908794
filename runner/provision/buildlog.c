// SPDX-License-Identifier: GPL-2.0
/* Whose fault a failed build step is (buildlog.h). */
#include "buildlog.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/* Whether @s (@n bytes) holds @lit. */
static bool has(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit), i;

	for (i = 0; i + k <= n; i++)
		if (!memcmp(s + i, lit, k))
			return true;
	return false;
}

static bool starts(const char *s, size_t n, const char *lit)
{
	size_t k = strlen(lit);

	return n >= k && !memcmp(s, lit, k);
}

/* The host ran short: whatever else the log says, not the tree's. */
static bool host_short(const char *s, size_t n)
{
	static const char *const words[] = {
		"No space left on device",  "Killed signal terminated program",
		"virtual memory exhausted", "Cannot allocate memory",
		"out of memory allocating", "Disk quota exceeded",
	};
	size_t i;

	for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (has(s, n, words[i]))
			return true;
	return false;
}

/* Digits at @s[*@i], moving past them; whether there were any. */
static bool digits(const char *s, size_t n, size_t *i)
{
	size_t from = *i;

	while (*i < n && s[*i] >= '0' && s[*i] <= '9')
		(*i)++;
	return *i > from;
}

/*
 * "FILE:LINE[:COL]: error: ..." (and fatal error, gas's Error, kconfig's
 * syntax error) where FILE is the tree's: relative, or under @tree, and
 * not a tool's pseudo file ("<command-line>", "{standard input}").
 */
static bool tree_error(const char *s, size_t n, const char *tree)
{
	static const char *const kinds[] = { " error:", " fatal error:",
					     " Error:", " syntax error" };
	size_t i = 0, k, tlen = tree ? strlen(tree) : 0;

	if (!n || s[0] == '<' || s[0] == '{' || s[0] == ' ')
		return false;
	if (s[0] == '/' &&
	    !(tlen && starts(s, n, tree) && n > tlen && s[tlen] == '/'))
		return false;
	while (i < n && s[i] != ':' && s[i] != ' ')
		i++;
	/* A file's name: a path, or a name with an extension. */
	if (i == n || s[i] != ':' || (!memchr(s, '.', i) && !memchr(s, '/', i)))
		return false;
	i++;
	if (!digits(s, n, &i) || i == n || s[i] != ':')
		return false;
	i++;
	if (digits(s, n, &i)) {
		if (i == n || s[i] != ':')
			return false;
		i++;
	}
	for (k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		if (starts(s + i, n - i, kinds[k]))
			return true;
	return false;
}

/* The tool's own evidence against the tree, on one line. */
static bool kernel_line(const char *s, size_t n, const char *tree)
{
	return tree_error(s, n, tree) || has(s, n, "undefined reference to") ||
	       has(s, n, "multiple definition of") ||
	       starts(s, n, "ERROR: modpost:") || starts(s, n, "Hunk #") ||
	       has(s, n, "saving rejects to file") ||
	       (has(s, n, " out of ") &&
		(has(s, n, " hunk ignored") || has(s, n, " hunks ignored")));
}

static bool input_line(const char *s, size_t n)
{
	return has(s, n, "malformed patch at line") ||
	       has(s, n, "Only garbage was found in the patch input") ||
	       has(s, n, "unexpected end of file in patch");
}

/* The length of the line at @s, without its line end. */
static size_t strcspn_line(const char *s, const char *end)
{
	const char *nl = memchr(s, '\n', end - s);
	size_t n = nl ? (size_t)(nl - s) : (size_t)(end - s);

	return n && s[n - 1] == '\r' ? n - 1 : n;
}

static void copy_line(const char *s, size_t n, char *out, size_t size)
{
	if (size)
		snprintf(out, size, "%.*s", (int)n, s);
}

enum build_blame build_log_blame(const char *log, size_t len, const char *tree,
				 char *line, size_t size)
{
	const char *p = log, *end = log + len, *last = NULL;
	const char *input = NULL, *kernel = NULL;
	size_t last_n = 0, input_n = 0, kernel_n = 0;

	if (size)
		line[0] = '\0';
	for (; p < end; p += last_n + 1) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		last_n = n;
		if (n && p[n - 1] == '\r')
			n--;
		if (!n)
			continue;
		last = p;
		if (host_short(p, n)) {
			copy_line(p, n, line, size);
			return BUILD_HOST;
		}
		if (!input && input_line(p, n)) {
			input = p;
			input_n = n;
		} else if (!kernel && kernel_line(p, n, tree)) {
			kernel = p;
			kernel_n = n;
		}
	}
	/* A patch that cannot be read says nothing of the tree. */
	if (input) {
		copy_line(input, input_n, line, size);
		return BUILD_INPUT;
	}
	if (kernel) {
		copy_line(kernel, kernel_n, line, size);
		return BUILD_KERNEL;
	}
	if (last)
		copy_line(last, strcspn_line(last, end), line, size);
	return BUILD_HOST;
}
