// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "known.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every stanza names all of these; documentation keys are required too. */
static const char *const keys[] = {
	"bug",	 "kernels",  "cases",	 "observed",
	"trace", "function", "evidence", "reproduce"
};
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

static char **field(struct known_bug *b, size_t k)
{
	char **f[N_KEYS] = { &b->name,	   &b->kernels,	 &b->cases,
			     &b->observed, &b->trace,	 &b->function,
			     &b->evidence, &b->reproduce };

	return f[k];
}

static void bug_free(struct known_bug *b)
{
	size_t k;

	for (k = 0; k < N_KEYS; k++)
		free(*field(b, k));
}

static bool has_glob(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] == '*' || s[i] == '?' || s[i] == '[')
			return true;
	return false;
}

/*
 * The first space-separated word of @list that breaks @ok, or NULL; @ok
 * sees each word as a pointer and a length.
 */
static const char *bad_word(const char *list, bool (*ok)(const char *, size_t),
			    size_t *len)
{
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, " \t");

		if (n && !ok(p, n)) {
			*len = n;
			return p;
		}
		p += n;
		p += strspn(p, " \t");
	}
	return NULL;
}

/* A kernel is named exactly: a glob would cover builds and mutants too. */
static bool exact_word(const char *w, size_t n)
{
	return !has_glob(w, n);
}

/*
 * A case glob must name its test binary literally (the part before the
 * first '/'): "*" or "?*" would match everything.
 */
static bool rooted_word(const char *w, size_t n)
{
	size_t root = strcspn(w, "/ \t");

	if (n == 1 && w[0] == '-')
		return true;
	return root && root <= n && !has_glob(w, root);
}

static bool ident_word(const char *w, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(w[i] == '_' || (w[i] >= 'a' && w[i] <= 'z') ||
		      (w[i] >= 'A' && w[i] <= 'Z') ||
		      (w[i] >= '0' && w[i] <= '9' && i)))
			return false;
	return n > 0;
}

/* What a record's observed column can say: allow, or an errno name. */
static bool outcome_ok(const char *s)
{
	size_t i;

	if (!strcmp(s, "allow"))
		return true;
	if (s[0] != 'E' || !s[1])
		return false;
	for (i = 1; s[i]; i++)
		if (!((s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

/* The stanza's values, checked: 0, or -1 with @e naming the stanza. */
static int check_stanza(const struct known_bug *b, unsigned int first,
			struct err *e)
{
	bool oops = !strcmp(b->observed, "oops");
	const char *w;
	size_t n;

	if (!b->cases[0] || !strcmp(b->cases, "-"))
		return err_set(e, "known bugs: %s (line %u) lists no cases",
			       b->name, first);
	if (!b->kernels[0] || !strcmp(b->kernels, "-"))
		return err_set(e, "known bugs: %s (line %u) names no kernel",
			       b->name, first);
	w = bad_word(b->kernels, exact_word, &n);
	if (w)
		return err_set(
			e,
			"known bugs: %s (line %u): kernel \"%.*s\" is a glob; name exact releases (uname -r) or build: sources",
			b->name, first, (int)n, w);
	w = bad_word(b->cases, rooted_word, &n);
	if (w)
		return err_set(
			e,
			"known bugs: %s (line %u): \"%.*s\" could match every case; name its test binary literally before the first /",
			b->name, first, (int)n, w);
	if (!oops && !outcome_ok(b->observed))
		return err_set(
			e,
			"known bugs: %s (line %u): observed must be oops, allow or an errno name, not \"%s\"",
			b->name, first, b->observed);
	if (oops && !strcmp(b->trace, "-"))
		return err_set(
			e,
			"known bugs: %s (line %u): an oops needs the functions its trace names (trace:)",
			b->name, first);
	if (!oops && strcmp(b->trace, "-"))
		return err_set(
			e,
			"known bugs: %s (line %u): trace: is for observed: oops only (give -)",
			b->name, first);
	w = oops ? bad_word(b->trace, ident_word, &n) : NULL;
	if (w)
		return err_set(
			e,
			"known bugs: %s (line %u): trace: \"%.*s\" is not a function name",
			b->name, first, (int)n, w);
	return 0;
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
	if (check_stanza(b, first, e))
		return -1;
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
		/* The first format listed record ids apart from cases. */
		if (k == N_KEYS && n > 8 && !strncmp(line, "records:", 8)) {
			err_set(e,
				"known bugs: line %u: records: is no longer read: a case's decisions are the record ids under it (<binary>/<KTAP case>/<op>); list cases: only",
				lineno);
			goto bad;
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
		l->v[i].other_cases = 0;
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

/* True when a word of @a equals a word of @b (both space-separated). */
static bool word_common(const char *a, const char *b)
{
	const char *p, *q;

	for (p = a; *p; p += strspn(p, " \t")) {
		size_t n = strcspn(p, " \t");

		for (q = b; *q; q += strspn(q, " \t")) {
			size_t m = strcspn(q, " \t");

			if (n && n == m && !memcmp(p, q, n))
				return true;
			q += m;
		}
		p += n;
	}
	return false;
}

bool known_applies(const struct known_bug *b, const char *names)
{
	return names && word_common(b->kernels, names);
}

/*
 * Whether decision @id ("<binary>/<KTAP case>/<op>") is one of @b's: its
 * case, the id up to the second '/', is listed.
 */
static bool id_listed(const struct known_bug *b, const char *id)
{
	const char *slash = strchr(id, '/');
	char *kcase;
	bool hit;

	slash = slash ? strchr(slash + 1, '/') : NULL;
	if (!slash)
		return false;
	kcase = xstrndup(id, slash - id);
	hit = glob_any(b->cases, kcase);
	free(kcase);
	return hit;
}

/* A decision of @r that shows bug @b: listed, with its wrong outcome. */
static bool shows(const struct known_bug *b, const struct record *r)
{
	return id_listed(b, r->col[REC_ID]) &&
	       !strcmp(r->col[REC_OBSERVED], b->observed) &&
	       strcmp(r->col[REC_EXPECTED], b->observed);
}

/* Whether record id @id is a decision of case @name ("<binary>/<case>"). */
static bool under_case(const char *id, const char *name)
{
	size_t n = strlen(name);

	return !strncmp(id, name, n) && id[n] == '/';
}

struct known_bug *known_case(struct known_list *l, const char *names,
			     const char *name, bool failed,
			     const struct record_set *recs, char *why,
			     size_t size)
{
	size_t i, j;

	if (size)
		why[0] = '\0';
	for (i = 0; i < l->n; i++) {
		struct known_bug *b = &l->v[i];
		bool shown = false;

		if (!known_applies(b, names) || !glob_any(b->cases, name))
			continue;
		if (!failed) {
			b->clean_cases++;
			continue;
		}
		/* An oops ends the boot: a case that reported did not oops. */
		for (j = 0; recs && strcmp(b->observed, "oops") && j < recs->n;
		     j++)
			shown |= under_case(recs->v[j].col[REC_ID], name) &&
				 shows(b, &recs->v[j]);
		if (shown) {
			b->failed_cases++;
			return b;
		}
		b->other_cases++;
		if (!strcmp(b->observed, "oops"))
			snprintf(
				why, size,
				"case %s is listed for known kernel bug %s (an oops) but reported a failure instead",
				name, b->name);
		else
			snprintf(
				why, size,
				"case %s is listed for known kernel bug %s but failed without it (no decision of the case shows %s)",
				name, b->name, b->observed);
		return NULL;
	}
	return NULL;
}

/* @line (@len bytes) without its "[   11.2] " timestamp and blanks. */
static const char *after_stamp(const char *line, size_t len)
{
	const char *q = line;

	if (*q == '[' && memchr(q, ']', len))
		q = (const char *)memchr(q, ']', len) + 1;
	return q + strspn(q, " ");
}

/*
 * Whether every frame of the first report's call trace is a "? " guess:
 * a kernel without frame pointers or ORC (the guess unwinder, as in a
 * tinyconfig build) marks them all so, and then the guesses are all the
 * trace there is.
 */
static bool frames_all_guessed(const char *trace)
{
	const char *p = trace;
	bool in_trace = false, guessed = false;

	while (*p) {
		size_t len = strcspn(p, "\n");
		const char *q = after_stamp(p, len), *end = p + len;

		if (memmem(p, len, "Call Trace:", 11)) {
			in_trace = true;
		} else if (in_trace && q < end && *q != '<' &&
			   memmem(q, end - q, "+0x", 3)) {
			if (q[0] != '?' || q[1] != ' ')
				return false;
			guessed = true;
		}
		if (memmem(p, len, "---[ end trace", 14))
			break;
		p += len + (p[len] == '\n');
	}
	return guessed;
}

/*
 * The kernel's first report in @trace (up to its "---[ end trace" line):
 * does it name function @fn, @n bytes, as "fn+0x" in the faulting RIP or
 * in a reliable frame (not a "? " guess, unless every frame is one)?
 */
static bool trace_names(const char *trace, const char *fn, size_t n)
{
	bool guesses = frames_all_guessed(trace);
	const char *p = trace;

	while (*p) {
		size_t len = strcspn(p, "\n");
		const char *q = p, *end = p + len;

		q = after_stamp(p, len);
		if (guesses && q + 1 < end && q[0] == '?' && q[1] == ' ')
			q += 2;
		if (q < end && !(q[0] == '?' && q[1] == ' ')) {
			const char *h;

			for (h = q; (h = memmem(h, end - h, fn, n)); h++)
				if ((h == q || h[-1] == ' ' || h[-1] == ':') &&
				    end - h > (long)n + 3 &&
				    !memcmp(h + n, "+0x", 3))
					return true;
		}
		if (memmem(p, len, "---[ end trace", 14))
			break;
		p += len + (p[len] == '\n');
	}
	return false;
}

bool known_trace_matches(const struct known_bug *b, const char *trace)
{
	const char *p = b->trace;

	if (!trace || strcmp(b->observed, "oops"))
		return false;
	while (*p) {
		size_t n = strcspn(p, " \t");

		if (n && !trace_names(trace, p, n))
			return false;
		p += n;
		p += strspn(p, " \t");
	}
	return true;
}

struct known_bug *known_crash(struct known_list *l, const char *names,
			      const char *name, const char *trace,
			      const char *how, char *why, size_t size)
{
	size_t i;

	if (size)
		why[0] = '\0';
	for (i = 0; i < l->n; i++) {
		struct known_bug *b = &l->v[i];

		if (!known_applies(b, names) || !glob_any(b->cases, name))
			continue;
		if (known_trace_matches(b, trace)) {
			b->failed_cases++;
			return b;
		}
		b->other_cases++;
		if (strcmp(b->observed, "oops"))
			snprintf(
				why, size,
				"case %s is listed for known kernel bug %s (a wrong decision, %s) but brought the kernel down: %s",
				name, b->name, b->observed, how);
		else if (!trace)
			snprintf(
				why, size,
				"case %s is listed for known kernel bug %s but the boot ended without a kernel report (a hang or a timeout, not the oops): %s",
				name, b->name, how);
		else
			snprintf(
				why, size,
				"case %s is listed for known kernel bug %s but the kernel's report is another (it does not name %s): %s",
				name, b->name, b->trace, how);
		return NULL;
	}
	return NULL;
}

struct known_bug *known_record(struct known_list *l, const char *names,
			       const struct record *r)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		struct known_bug *b = &l->v[i];

		if (!known_applies(b, names) || !id_listed(b, r->col[REC_ID]) ||
		    !strcmp(b->observed, "oops"))
			continue;
		/* The bug: the model says otherwise, the kernel says this. */
		if (shows(b, r)) {
			b->wrong_records++;
			return b;
		}
		b->clean_records++;
	}
	return NULL;
}

const struct known_bug *known_crash_record(const struct known_list *l,
					   const char *crashed, const char *id)
{
	size_t i;

	for (i = 0; crashed && i < l->n; i++) {
		const struct known_bug *b = &l->v[i];

		if (!strcmp(b->observed, "oops") && id_listed(b, id) &&
		    known_crashed(crashed, b->name))
			return b;
	}
	return NULL;
}

bool known_crashed(const char *crashed, const char *bug)
{
	const char *p = crashed;
	size_t n = strlen(bug);

	/* Lines "CASE<TAB>BUG<TAB>..." (known_crash_line()). */
	while (p && *p) {
		size_t len = strcspn(p, "\n"), c = strcspn(p, "\t\n");

		if (c < len && len - c - 1 >= n && !memcmp(p + c + 1, bug, n) &&
		    (p[c + 1 + n] == '\t' || p[c + 1 + n] == '\n' ||
		     !p[c + 1 + n]))
			return true;
		p += len + (p[len] == '\n');
	}
	return false;
}

const struct known_bug *known_unreproduced(const struct known_list *l,
					   const char *names)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct known_bug *b = &l->v[i];

		if (known_applies(b, names) &&
		    (b->clean_cases || b->clean_records))
			return b;
	}
	return NULL;
}
