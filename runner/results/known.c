// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "known.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* Every stanza names all of these; documentation keys are required too. */
static const char *const keys[] = { "bug",	"kernels",  "cases",
				    "records",	"observed", "function",
				    "evidence", "reproduce" };
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

static char **field(struct known_bug *b, size_t k)
{
	char **f[N_KEYS] = { &b->name,	   &b->kernels,	 &b->cases,
			     &b->records,  &b->observed, &b->function,
			     &b->evidence, &b->reproduce };

	return f[k];
}

static void bug_free(struct known_bug *b)
{
	size_t k;

	for (k = 0; k < N_KEYS; k++)
		free(*field(b, k));
}

/*
 * Ends the stanza being read: complete (moved into @l), or an error naming
 * its line (the caller frees it).
 */
static int close_stanza(struct known_list *l, struct known_bug *b,
			unsigned int first, struct err *e)
{
	size_t k;

	/* Blank lines between stanzas; any key at all makes an entry. */
	for (k = 0; k < N_KEYS && !*field(b, k); k++)
		;
	if (k == N_KEYS)
		return 0;
	for (k = 0; k < N_KEYS; k++)
		if (!*field(b, k))
			return err_set(
				e,
				"known bugs: the entry at line %u has no %s:",
				first, keys[k]);
	if (!strcmp(b->cases, "-") && !strcmp(b->records, "-"))
		return err_set(
			e,
			"known bugs: %s (line %u) lists neither cases nor records",
			b->name, first);
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = *b;
	memset(b, 0, sizeof(*b));
	return 0;
}

/* True when the @n bytes at @s are only blanks (@s is not NUL-terminated). */
static bool blank(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t')) {
		s++;
		n--;
	}
	return !n;
}

int known_parse(const char *text, size_t len, struct known_list *l,
		struct err *e)
{
	const char *p = text, *end = text + len;
	struct known_bug cur = { 0 };
	unsigned int lineno = 0, first = 0;

	memset(l, 0, sizeof(*l));
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = (nl ? nl : end) - p, k, klen;
		const char *line = p;

		p += n + (nl != NULL);
		lineno++;
		if (n && line[0] == '#')
			continue;
		if (blank(line, n)) {
			if (close_stanza(l, &cur, first, e))
				goto bad;
			first = 0;
			continue;
		}
		if (!first)
			first = lineno;
		for (k = 0; k < N_KEYS; k++) {
			klen = strlen(keys[k]);
			if (n > klen && !strncmp(line, keys[k], klen) &&
			    line[klen] == ':')
				break;
		}
		if (k == N_KEYS) {
			err_set(e,
				"known bugs: line %u: not \"key: value\" with a known key: %.*s",
				lineno, (int)(n < 40 ? n : 40), line);
			goto bad;
		}
		if (*field(&cur, k)) {
			err_set(e, "known bugs: line %u: %s given twice",
				lineno, keys[k]);
			goto bad;
		}
		line += klen + 1;
		n -= klen + 1;
		while (n && (*line == ' ' || *line == '\t')) {
			line++;
			n--;
		}
		*field(&cur, k) = xstrndup(line, n);
	}
	if (!close_stanza(l, &cur, first, e))
		return 0;
bad:
	bug_free(&cur);
	known_free(l);
	return -1;
}

void known_free(struct known_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		bug_free(&l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

void known_reset(struct known_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		l->v[i].failed_cases = l->v[i].wrong_records = 0;
		l->v[i].clean_cases = l->v[i].clean_records = 0;
	}
}

/* True when @s matches one of the space-separated globs of @globs. */
static bool glob_any(const char *globs, const char *s)
{
	const char *p = globs;

	while (*p) {
		size_t n = strcspn(p, " \t");
		char *g = xstrndup(p, n);
		bool hit = n && fnmatch(g, s, 0) == 0;

		free(g);
		if (hit)
			return true;
		p += n;
		p += strspn(p, " \t");
	}
	return false;
}

bool known_applies(const struct known_bug *b, const char *release)
{
	return release && glob_any(b->kernels, release);
}

struct known_bug *known_case(struct known_list *l, const char *release,
			     const char *name, bool failed)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct known_bug *b = &l->v[i];

		if (!known_applies(b, release) || !glob_any(b->cases, name))
			continue;
		if (failed) {
			b->failed_cases++;
			return b;
		}
		b->clean_cases++;
	}
	return NULL;
}

struct known_bug *known_record(struct known_list *l, const char *release,
			       const struct record *r)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct known_bug *b = &l->v[i];

		if (!known_applies(b, release) ||
		    !glob_any(b->records, r->col[REC_ID]))
			continue;
		/* The bug: the model says otherwise, the kernel says this. */
		if (!strcmp(r->col[REC_OBSERVED], b->observed) &&
		    strcmp(r->col[REC_EXPECTED], b->observed)) {
			b->wrong_records++;
			return b;
		}
		b->clean_records++;
	}
	return NULL;
}

const struct known_bug *known_crash_record(const struct known_list *l,
					   const char *release, const char *id)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct known_bug *b = &l->v[i];

		if (known_applies(b, release) && !strcmp(b->observed, "oops") &&
		    glob_any(b->records, id))
			return b;
	}
	return NULL;
}

const struct known_bug *known_unreproduced(const struct known_list *l,
					   const char *release)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct known_bug *b = &l->v[i];

		if (known_applies(b, release) &&
		    (b->clean_cases || b->clean_records))
			return b;
	}
	return NULL;
}
