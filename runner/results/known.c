// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "known.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Every stanza names all of these; documentation keys are required too. */
static const char *const keys[] = { "bug",	 "kernels",  "cases",
				    "decisions", "observed", "fatal",
				    "trace",	 "function", "evidence",
				    "reproduce", "report" };
#define N_KEYS (sizeof(keys) / sizeof(keys[0]))

static char **field(struct known_bug *b, size_t k)
{
	char **f[N_KEYS] = { &b->name,	    &b->kernels,  &b->cases,
			     &b->decisions, &b->observed, &b->fatal,
			     &b->trace,	    &b->function, &b->evidence,
			     &b->reproduce, &b->report };

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
 * "+patched" named every patched build of a source, mutants included: a
 * patched build now has a name of its own (its build key), and inherits
 * its base's stanzas for a crash with their signature only.
 */
static bool not_shared_word(const char *w, size_t n)
{
	return !(n >= 8 && !memcmp(w + n - 8, "+patched", 8));
}

/*
 * How many '/'-separated parts the exact name @w (@n bytes) has: a case is
 * "<binary>/<KTAP case>" (2), a decision "<binary>/<KTAP case>/<op>" (3,
 * the op may hold '/' too); 0 when a part is empty.
 */
static size_t parts(const char *w, size_t n)
{
	size_t k = 1, i;

	if (!n || w[0] == '/' || w[n - 1] == '/')
		return 0;
	for (i = 0; i < n; i++)
		if (w[i] == '/') {
			if (w[i + 1] == '/')
				return 0;
			k++;
		}
	return k;
}

/* A case, named exactly: its binary, its KTAP case, and no glob. */
static bool case_word(const char *w, size_t n)
{
	return !has_glob(w, n) && parts(w, n) == 2;
}

/* A decision, named exactly: "<binary>/<KTAP case>/<op>", no glob. */
static bool decision_word(const char *w, size_t n)
{
	return !has_glob(w, n) && parts(w, n) >= 3;
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

/* Whether @id ("<binary>/<KTAP case>/<op>") lies under a case of @cases. */
static bool under_a_case(const char *cases, const char *id, size_t n)
{
	const char *p = cases;

	while (*p) {
		size_t m = strcspn(p, " \t");

		if (m && m < n && !memcmp(p, id, m) && id[m] == '/')
			return true;
		p += m;
		p += strspn(p, " \t");
	}
	return false;
}

/* The stanza's values, checked: 0, or -1 with @e naming the stanza. */
static int check_stanza(const struct known_bug *b, unsigned int first,
			struct err *e)
{
	bool oops = !strcmp(b->observed, "oops");
	const char *w;
	size_t n;

	if (strcmp(b->report, "-") && ((strncmp(b->report, "https://", 8) &&
					strncmp(b->report, "http://", 7)) ||
				       strpbrk(b->report, " \t")))
		return err_set(
			e,
			"known bugs: %s (line %u): report: is the URL where the bug was reported (https://...), or - until it is",
			b->name, first);
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
	w = bad_word(b->kernels, not_shared_word, &n);
	if (w)
		return err_set(
			e,
			"known bugs: %s (line %u): kernel \"%.*s\" names every patched build; a patched build inherits its base's crash stanzas by signature only (name its own build:SOURCE+KEY to list it)",
			b->name, first, (int)n, w);
	w = bad_word(b->cases, case_word, &n);
	if (w)
		return err_set(
			e,
			"known bugs: %s (line %u): case \"%.*s\" is not an exact <test binary>/<KTAP case> name (no globs)",
			b->name, first, (int)n, w);
	if (!oops && !outcome_ok(b->observed))
		return err_set(
			e,
			"known bugs: %s (line %u): observed must be oops, allow or an errno name, not \"%s\"",
			b->name, first, b->observed);
	if (oops && strcmp(b->decisions, "-"))
		return err_set(
			e,
			"known bugs: %s (line %u): decisions: is for a wrong decision only (give - for an oops)",
			b->name, first);
	if (!oops && (!b->decisions[0] || !strcmp(b->decisions, "-")))
		return err_set(
			e,
			"known bugs: %s (line %u): a wrong decision needs the exact record ids that show it (decisions:)",
			b->name, first);
	w = oops ? NULL : bad_word(b->decisions, decision_word, &n);
	if (w)
		return err_set(
			e,
			"known bugs: %s (line %u): decision \"%.*s\" is not an exact <test binary>/<KTAP case>/<op> record id (no globs)",
			b->name, first, (int)n, w);
	for (w = oops ? "" : b->decisions; *w; w += strspn(w, " \t")) {
		n = strcspn(w, " \t");
		if (n && !under_a_case(b->cases, w, n))
			return err_set(
				e,
				"known bugs: %s (line %u): decision \"%.*s\" is under none of the listed cases",
				b->name, first, (int)n, w);
		w += n;
	}
	if (oops && (!strcmp(b->trace, "-") || !strcmp(b->fatal, "-")))
		return err_set(
			e,
			"known bugs: %s (line %u): an oops needs its signature: the report's first line (fatal:) and the functions its trace names (trace:)",
			b->name, first);
	if (!oops && (strcmp(b->trace, "-") || strcmp(b->fatal, "-")))
		return err_set(
			e,
			"known bugs: %s (line %u): fatal: and trace: are for observed: oops only (give -)",
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
				"known bugs: line %u: records: is no longer read: list the cases (cases:) and the exact record ids that show a wrong decision (decisions:)",
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

/* True when @s is one of the space-separated words of @list. */
static bool word_in(const char *list, const char *s)
{
	const char *p = list;
	size_t len = strlen(s);

	while (*p) {
		size_t n = strcspn(p, " \t");

		if (n == len && !memcmp(p, s, n))
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

bool known_oops_listed(const struct known_list *l, const char *names,
		       const char *name)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].observed, "oops") &&
		    known_applies(&l->v[i], names) &&
		    word_in(l->v[i].cases, name))
			return true;
	return false;
}

/*
 * Whether decision @id ("<binary>/<KTAP case>/<op>") lies under a case
 * @b lists: the id up to its second '/'.
 */
static bool case_listed(const struct known_bug *b, const char *id)
{
	const char *slash = strchr(id, '/');
	char *kcase;
	bool hit;

	slash = slash ? strchr(slash + 1, '/') : NULL;
	if (!slash)
		return false;
	kcase = xstrndup(id, slash - id);
	hit = word_in(b->cases, kcase);
	free(kcase);
	return hit;
}

/*
 * A decision that shows bug @b: one of the record ids it lists, with its
 * wrong outcome where the model expects another. Nothing else of a case
 * is the bug's.
 */
static bool shows(const struct known_bug *b, const struct record *r)
{
	return word_in(b->decisions, r->col[REC_ID]) &&
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
		const char *other = NULL;
		bool shown = false;

		if (!known_applies(b, names) || !word_in(b->cases, name))
			continue;
		if (!failed) {
			b->clean_cases++;
			continue;
		}
		/*
		 * An oops ends the boot: a case that reported did not oops.
		 * A wrong decision: a listed record shows it, and no other
		 * decision of the case is wrong.
		 */
		for (j = 0; recs && strcmp(b->observed, "oops") && j < recs->n;
		     j++) {
			const struct record *r = &recs->v[j];

			if (!under_case(r->col[REC_ID], name) ||
			    !strcmp(r->col[REC_EXPECTED], r->col[REC_OBSERVED]))
				continue;
			if (shows(b, r))
				shown = true;
			else if (!other)
				other = r->col[REC_ID];
		}
		if (shown && !other) {
			b->failed_cases++;
			return b;
		}
		b->other_cases++;
		if (!strcmp(b->observed, "oops"))
			snprintf(
				why, size,
				"case %s is listed for known kernel bug %s (an oops) but reported a failure instead",
				name, b->name);
		else if (other)
			snprintf(
				why, size,
				"case %s is listed for known kernel bug %s but decision %s, which the bug does not list, is not as expected",
				name, b->name, other);
		else
			snprintf(
				why, size,
				"case %s is listed for known kernel bug %s but failed without it (no listed decision shows %s)",
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

/* Whether the report's first line (its fatal line) holds @fatal. */
static bool fatal_names(const char *trace, const char *fatal)
{
	size_t len = strcspn(trace, "\n");
	const char *q = after_stamp(trace, len);

	return memmem(q, trace + len - q, fatal, strlen(fatal)) != NULL;
}

bool known_trace_matches(const struct known_bug *b, const char *trace)
{
	const char *p = b->trace;

	if (!trace || strcmp(b->observed, "oops") ||
	    !fatal_names(trace, b->fatal))
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

		if (!known_applies(b, names) || !word_in(b->cases, name))
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
				"case %s is listed for known kernel bug %s but the kernel's report is another (not \"%s\" naming %s): %s",
				name, b->name, b->fatal, b->trace, how);
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

		if (!known_applies(b, names) ||
		    !word_in(b->decisions, r->col[REC_ID]) ||
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

		if (!strcmp(b->observed, "oops") && case_listed(b, id) &&
		    known_crashed(crashed, b->name))
			return b;
	}
	return NULL;
}

int known_crash_note(const char *text, char **name, char **how, char **trace,
		     int *boot)
{
	const char *test, *kase, *nl, *report;
	int used = 0;

	*name = *how = *trace = NULL;
	if (sscanf(text, "boot %d ended in test %n", boot, &used) != 1 || !used)
		return -1;
	test = text + used;
	nl = strchr(test, '\n');
	kase = strstr(test, ", case ");
	if (!nl || !kase || kase > nl || !strncmp(kase + 7, "(none", 5))
		return -1;
	*name = xasprintf("%.*s/%.*s", (int)(kase - test), test,
			  (int)(nl - kase - 7), kase + 7);
	*how = xstrndup(nl + 1, strcspn(nl + 1, "\n"));
	report = strstr(nl + 1, "\n\n");
	if (report && report[2] && strncmp(report + 2, "(no kernel report", 17))
		*trace = xstrdup(report + 2);
	return 0;
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
