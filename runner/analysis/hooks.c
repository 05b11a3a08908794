// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "hooks.h"
#include "lib/lib.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define MACRO "LSM_HOOK_INIT"

static const char *skip_space(const char *p)
{
	while (isspace((unsigned char)*p))
		p++;
	return p;
}

/* An identifier at @p: its length, 0 when there is none. */
static size_t ident(const char *p)
{
	size_t n = 0;

	if (!isalpha((unsigned char)*p) && *p != '_')
		return 0;
	while (isalnum((unsigned char)p[n]) || p[n] == '_')
		n++;
	return n;
}

/* Whether @p is on a preprocessor line (its first non-blank is '#'). */
static bool directive(const char *src, const char *p)
{
	const char *start = p;

	while (start > src && start[-1] != '\n')
		start--;
	return *skip_space(start) == '#';
}

static unsigned long line_of(const char *src, const char *p)
{
	unsigned long line = 1;

	for (; src < p; src++)
		line += *src == '\n';
	return line;
}

size_t lsm_hooks_parse(const char *src, struct lsm_hook **out, size_t *n)
{
	const char *p = src;
	size_t bad = 0;

	*out = NULL;
	*n = 0;
	while (*p) {
		const char *h, *f;
		size_t hl, fl;

		/* Comments, strings and characters ('"') are not code. */
		if (p[0] == '/' && p[1] == '*') {
			const char *end = strstr(p + 2, "*/");

			p = end ? end + 2 : p + strlen(p);
			continue;
		}
		if (p[0] == '/' && p[1] == '/') {
			p += strcspn(p, "\n");
			continue;
		}
		if (*p == '"' || *p == '\'') {
			char quote = *p;

			for (p++; *p && *p != quote && *p != '\n'; p++)
				if (*p == '\\' && p[1])
					p++;
			if (*p)
				p++;
			continue;
		}
		if (strncmp(p, MACRO, strlen(MACRO)) ||
		    (p > src &&
		     (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
		    ident(p) != strlen(MACRO)) {
			p++;
			continue;
		}
		h = skip_space(p + strlen(MACRO));
		/* Not a use: "#define LSM_HOOK_INIT(NAME, HOOK)", or no call. */
		if (*h != '(' || directive(src, p)) {
			p = h;
			continue;
		}
		h = skip_space(h + 1);
		hl = ident(h);
		f = skip_space(h + hl);
		if (!hl || *f != ',') {
			bad++;
			p = h;
			continue;
		}
		f = skip_space(f + 1);
		fl = ident(f);
		if (!fl || *skip_space(f + fl) != ')') {
			bad++;
			p = f;
			continue;
		}
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		(*out)[(*n)++] = (struct lsm_hook){
			.hook = xstrndup(h, hl),
			.function = xstrndup(f, fl),
			.line = line_of(src, p),
		};
		p = f + fl;
	}
	return bad;
}

void lsm_hooks_free(struct lsm_hook *h, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(h[i].hook);
		free(h[i].function);
	}
	free(h);
}
