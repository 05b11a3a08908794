// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "mutgen.h"
#include "lcov.h"
#include "lib/lib.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

const char *const mutgen_ops[] = {
	"negate-condition",  "swap-equality",  "swap-relational",
	"drop-error-return", "return-0-early", "swap-errno",
	"drop-mask-bit",     "skip-call",
};
const size_t mutgen_n_ops = ARRAY_SIZE(mutgen_ops);

struct sites {
	struct mutgen_site *v;
	size_t n;
};

/* @line with bytes [@at, @at + @len) replaced by @with. */
static char *splice(const char *line, size_t at, size_t len, const char *with)
{
	return xasprintf("%.*s%s%s", (int)at, line, with, line + at + len);
}

static void add(struct sites *s, const char *op, unsigned long line,
		char *after)
{
	s->v = xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
	s->v[s->n++] =
		(struct mutgen_site){ .op = op, .line = line, .after = after };
}

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* The identifier ending just before @end (at most @start), its length. */
static size_t ident_before(const char *start, const char *end)
{
	size_t n = 0;

	while (end - n > start && ident_char(end[-(long)n - 1]))
		n++;
	return n;
}

/* A constant's name: upper case, digits and '_', a letter first. */
static bool constant(const char *p, size_t len)
{
	size_t i;

	if (len < 2 || !isupper((unsigned char)p[0]))
		return false;
	for (i = 0; i < len; i++)
		if (!isupper((unsigned char)p[i]) &&
		    !isdigit((unsigned char)p[i]) && p[i] != '_')
			return false;
	return true;
}

/* The ')' that closes the '(' at @open in @m (masked), or NULL. */
static const char *closing(const char *open)
{
	int depth = 0;

	for (; *open; open++) {
		if (*open == '(')
			depth++;
		else if (*open == ')' && !--depth)
			return open;
	}
	return NULL;
}

static const char *skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

/*
 * The sites of one line: @line the text, @m the same with comments and
 * the insides of literals blanked (same length), @no its number.
 */
static void line_sites(struct sites *s, const char *line, const char *m,
		       unsigned long no)
{
	const char *t = skip_blank(m), *p;
	size_t indent = t - m, len = strlen(m);

	/* negate-condition: "if (C)" with C whole on the line. */
	p = t;
	if (!strncmp(p, "} else ", 7))
		p = skip_blank(p + 7);
	if (!strncmp(p, "if (", 4) || !strncmp(p, "if(", 3)) {
		const char *open = strchr(p, '('), *close = closing(open);

		if (close && (!*skip_blank(close + 1) ||
			      !strcmp(skip_blank(close + 1), "{"))) {
			size_t o = open - m, c = close - m;
			char *after = xasprintf("%.*s(!(%.*s))%s", (int)o, line,
						(int)(c - o - 1), line + o + 1,
						line + c + 1);

			add(s, "negate-condition", no, after);
		}
	}
	for (p = m; *p; p++) {
		size_t at = p - m;
		char prev = at ? p[-1] : ' ';

		/* swap-equality */
		if (p[0] == '=' && p[1] == '=' && !strchr("=!<>", prev) &&
		    p[2] != '=')
			add(s, "swap-equality", no, splice(line, at, 2, "!="));
		if (p[0] == '!' && p[1] == '=' && p[2] != '=')
			add(s, "swap-equality", no, splice(line, at, 2, "=="));
		/* swap-relational: not <<, >>, ->, nor their = forms */
		if ((p[0] == '<' || p[0] == '>') && prev != '<' &&
		    prev != '>' && prev != '-' && p[1] != '<' && p[1] != '>') {
			if (p[1] == '=')
				add(s, "swap-relational", no,
				    splice(line, at, 2,
					   p[0] == '<' ? "<" : ">"));
			else
				add(s, "swap-relational", no,
				    splice(line, at, 1,
					   p[0] == '<' ? "<=" : ">="));
		}
		/* swap-errno: "-EXXX" */
		if (p[0] == '-' && p[1] == 'E' && !ident_char(prev) &&
		    prev != ')') {
			size_t n = 1;

			while (ident_char(p[1 + n]))
				n++;
			if (constant(p + 1, n)) {
				bool eacces =
					n == 6 && !strncmp(p + 1, "EACCES", 6);

				add(s, "swap-errno", no,
				    splice(line, at + 1, n,
					   eacces ? "EPERM" : "EACCES"));
			}
		}
		/* drop-mask-bit: "A | B", both constants */
		if (p[0] == '|' && p[1] != '|' && p[1] != '=' && prev != '|') {
			const char *l_end = p, *r;
			size_t ll, rl;

			while (l_end > m && l_end[-1] == ' ')
				l_end--;
			ll = ident_before(m, l_end);
			r = skip_blank(p + 1);
			rl = 0;
			while (ident_char(r[rl]))
				rl++;
			if (constant(l_end - ll, ll) && constant(r, rl) &&
			    !ident_char(r[rl])) {
				size_t from = l_end - m, to = r + rl - m;

				/* Drop the right one: "A | B" -> "A". */
				add(s, "drop-mask-bit", no,
				    splice(line, from, to - from, ""));
				/* Drop the left one: "A | B" -> "B". */
				add(s, "drop-mask-bit", no,
				    splice(line, l_end - ll - m,
					   (r - m) - (l_end - ll - m), ""));
			}
		}
	}
	/* drop-error-return and return-0-early: a whole-line return */
	if (!strncmp(t, "return ", 7) && len && m[len - 1] == ';') {
		const char *v = t + 7;
		size_t vl = strlen(v) - 1;
		static const char *const names[] = { "err", "error", "ret",
						     "rc" };
		size_t i;

		if (v[0] == '-' && constant(v + 1, vl - 1) && v[1] == 'E')
			add(s, "drop-error-return", no,
			    xasprintf("%.*sreturn 0;", (int)indent, line));
		for (i = 0; i < ARRAY_SIZE(names); i++)
			if (vl == strlen(names[i]) && !strncmp(v, names[i], vl))
				add(s, "return-0-early", no,
				    xasprintf("%.*sreturn 0;", (int)indent,
					      line));
	}
	/* skip-call: the line is one call statement, "f(...);" */
	{
		size_t n = 0;

		while (ident_char(t[n]))
			n++;
		if (n && !isdigit((unsigned char)t[0]) && t[n] == '(') {
			static const char *const words[] = {
				"if",	  "while",  "for",
				"switch", "return", "sizeof"
			};
			const char *close = closing(t + n);
			bool keyword = false;
			size_t i;

			for (i = 0; i < ARRAY_SIZE(words); i++)
				keyword |= n == strlen(words[i]) &&
					   !strncmp(t, words[i], n);
			if (!keyword && close && !strcmp(close + 1, ";"))
				add(s, "skip-call", no,
				    xasprintf("%.*s;", (int)indent, line));
		}
	}
}

bool mutgen_default_file(const char *path)
{
	size_t len = strlen(path);

	return len > 2 && !strcmp(path + len - 2, ".c") &&
	       !(len > 7 && !strcmp(path + len - 7, "_test.c"));
}

/*
 * @line (@len bytes) with what is not code blanked: comments (*@in_comment
 * carries a block comment from line to line) and the insides of string
 * and character literals. Malloc'd, @len bytes and a NUL; *@code tells
 * whether anything is left.
 */
static char *code_mask(const char *line, size_t len, bool *in_comment,
		       bool *code)
{
	char *m = xstrndup(line, len);
	size_t i;

	*code = false;
	for (i = 0; i < len; i++) {
		if (*in_comment) {
			if (m[i] == '*' && m[i + 1] == '/') {
				m[i] = ' ';
				m[++i] = ' ';
				*in_comment = false;
			} else {
				m[i] = ' ';
			}
		} else if (m[i] == '/' && m[i + 1] == '*') {
			m[i] = m[i + 1] = ' ';
			i++;
			*in_comment = true;
		} else if (m[i] == '/' && m[i + 1] == '/') {
			memset(m + i, ' ', len - i);
			break;
		} else if (m[i] == '"' || m[i] == '\'') {
			char q = m[i];

			for (i++; i < len && m[i] != q; i++) {
				if (m[i] == '\\' && i + 1 < len)
					m[i++] = ' ';
				m[i] = ' ';
			}
		} else if (!isspace((unsigned char)m[i])) {
			*code = true;
		}
	}
	return m;
}

size_t mutgen_sites(const char *text, struct mutgen_site **out)
{
	struct sites s = { 0 };
	bool in_comment = false;
	unsigned long no = 0;
	const char *p = text;

	while (*p) {
		size_t len = strcspn(p, "\n");
		char *line = xstrndup(p, len), *m;
		bool code;

		no++;
		/* Blank what is not code: comments and literals' insides. */
		m = code_mask(line, len, &in_comment, &code);
		/* Trailing blanks of the mask (a comment) are not the line's. */
		while (len && m[len - 1] == ' ')
			m[--len] = '\0';
		if (code && *skip_blank(m) != '#')
			line_sites(&s, line, m, no);
		free(line);
		free(m);
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	*out = s.v;
	return s.n;
}

void mutgen_sites_free(struct mutgen_site *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(s[i].after);
	free(s);
}

/* splitmix64: a small, well-known generator; the same seed, the same draw. */
static uint64_t next(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

size_t mutgen_draw(uint64_t seed, size_t m, size_t n, size_t *out)
{
	size_t *all = xcalloc(m ? m : 1, sizeof(*all)), i;
	uint64_t state = seed;

	if (n > m)
		n = m;
	for (i = 0; i < m; i++)
		all[i] = i;
	/* The first n steps of a Fisher-Yates shuffle. */
	for (i = 0; i < n; i++) {
		size_t j = i + next(&state) % (m - i), t = all[i];

		all[i] = all[j];
		all[j] = t;
		out[i] = all[i];
	}
	free(all);
	return n;
}

char *mutgen_patch(const char *file, const char *text,
		   const struct mutgen_site *s)
{
	struct sbuf sb = { 0 };
	unsigned long first = s->line > 3 ? s->line - 3 : 1, last = s->line + 3;
	unsigned long no = 0, count = 0;
	const char *p = text, *before = NULL;
	size_t before_len = 0;

	/* The lines of the hunk, and the changed one's old text. */
	for (no = 1; *p && no <= last; no++) {
		size_t len = strcspn(p, "\n");

		if (no == s->line) {
			before = p;
			before_len = len;
		}
		if (no >= first)
			count++;
		p += len;
		if (*p)
			p++;
	}
	if (before) {
		size_t lead = strspn(before, " \t");

		before += lead;
		before_len -= before_len < lead ? before_len : lead;
	}
	sbuf_printf(&sb,
		    "generated: %s at %s:%lu: \"%.*s\" -> \"%s\"\n\n"
		    "Drawn by lsmconf mutate --generate from every site of the "
		    "operator in the file,\nnot chosen by anyone.\n\n",
		    s->op, file, s->line, (int)before_len, before ? before : "",
		    s->after + strspn(s->after, " \t"));
	sbuf_printf(&sb, "--- a/%s\n+++ b/%s\n@@ -%lu,%lu +%lu,%lu @@\n", file,
		    file, first, count, first, count);
	p = text;
	for (no = 1; *p && no < first + count; no++) {
		size_t len = strcspn(p, "\n");

		if (no == s->line)
			sbuf_printf(&sb, "-%.*s\n+%s\n", (int)len, p, s->after);
		else if (no >= first)
			sbuf_printf(&sb, " %.*s\n", (int)len, p);
		p += len;
		if (*p)
			p++;
	}
	return sb.buf;
}

/*
 * Up to 8 lines of the old side of @patch's first hunk before @line: each
 * one's number, its code (code_mask(): what is left of it, trailing
 * blanks cut) and whether it was blank before that.
 */
struct before {
	unsigned long no[8];
	char *code[8];
	bool blank[8];
	size_t n;
};

static void before_free(struct before *b)
{
	while (b->n)
		free(b->code[--b->n]);
}

static void lines_before(const char *patch, unsigned long line,
			 struct before *b)
{
	const char *p = patch ? strstr(patch, "\n@@ -") : NULL;
	bool in_comment = false, first = true, code;
	unsigned long no;
	char *end, *m;

	b->n = 0;
	if (!p)
		return;
	no = strtoul(p + 5, &end, 10);
	if (end == p + 5)
		return;
	p = strchr(end, '\n');
	while (p && *++p && no < line) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p), k;

		if (*p == '+') {
			p = nl;
			continue;
		}
		if (*p != ' ' && *p != '-')
			break;
		/* A hunk may start inside a block comment: " * ..." or " *" "/". */
		k = strspn(p + 1, " \t");
		if (first && k < len - 1 && p[1 + k] == '*' &&
		    (k + 2 == len || p[2 + k] == ' ' || p[2 + k] == '/'))
			in_comment = true;
		first = false;
		m = code_mask(p + 1, len - 1, &in_comment, &code);
		for (k = strlen(m); k && isspace((unsigned char)m[k - 1]); k--)
			m[k - 1] = '\0';
		if (b->n == sizeof(b->no) / sizeof(*b->no)) {
			free(b->code[0]);
			memmove(b->no, b->no + 1,
				sizeof(b->no) - sizeof(*b->no));
			memmove(b->code, b->code + 1,
				sizeof(b->code) - sizeof(*b->code));
			memmove(b->blank, b->blank + 1,
				sizeof(b->blank) - sizeof(*b->blank));
			b->n--;
		}
		b->no[b->n] = no++;
		b->code[b->n] = m;
		b->blank[b->n++] = len - 1 == strspn(p + 1, " \t");
		p = nl;
	}
	if (no != line)
		before_free(b);
}

/*
 * Whether a statement's first line starts a plain statement (a call, an
 * assignment), which goes on to the next line once it ran: not a jump,
 * a condition, a label or a call that never returns.
 */
static bool plain_statement(const char *t, size_t len)
{
	static const char *const not [] = { "return",	"goto", "break",
					    "continue", "if",	"else",
					    "while",	"for",	"do",
					    "switch",	"case", "default",
					    "BUG",	"panic" };
	size_t i, k, skip = strspn(t, " \t");

	t += skip;
	len -= skip;
	for (i = 0; i < sizeof(not ) / sizeof(*not ); i++) {
		k = strlen(not [i]);
		if (len >= k && !strncmp(t, not [i], k) &&
		    (len == k || !ident_char(t[k])))
			return false;
	}
	return len && *t != '}' && *t != '{';
}

/*
 * Classes @line, which has no counter, by the lines before it: those of
 * its own statement, or of the plain statement it follows.
 */
static enum mutgen_gap by_neighbour(const char *patch, const struct lcov *cov,
				    const char *file, unsigned long line,
				    struct mutgen_gap_of *of)
{
	unsigned long edges = 0, taken = 0, t;
	char end = 0; /* how the code before @line ends */
	size_t i, len, first = (size_t)-1, counted = (size_t)-1;
	enum mutgen_gap g = MUTGEN_NOT_COUNTED;
	struct before b;

	lines_before(patch, line, &b);
	for (i = b.n; i-- > 0;) {
		len = strlen(b.code[i]);
		/* A blank line: a statement starts after it. */
		if (b.blank[i]) {
			first = i + 1;
			break;
		}
		/* A comment alone: nothing to read. */
		if (!len)
			continue;
		/* A preprocessor line: what follows may not be built. */
		if (b.code[i][strspn(b.code[i], " \t")] == '#')
			break;
		if (!end) {
			end = b.code[i][len - 1];
		} else if (strchr(";{}:", b.code[i][len - 1])) {
			/* The statement before starts on the line after. */
			first = i + 1;
			break;
		}
		/* @line's own statement: stop at its counted line. */
		if (end != ';' && strchr(";{}:", end))
			goto out;
		if (end != ';')
			edges += lcov_line_edges(cov, file, b.no[i], &t),
				taken += t;
		if (counted == (size_t)-1 &&
		    lcov_line_count(cov, file, b.no[i]) >= 0) {
			counted = i;
			if (end != ';')
				break;
		}
	}
	if (counted == (size_t)-1)
		goto out;
	of->by = b.no[counted];
	of->count = lcov_line_count(cov, file, of->by);
	if (end == ';') {
		/*
		 * @line starts the statement after a plain one that ran,
		 * which went on to it (the plain one's first line in sight).
		 */
		while (first < counted && !*b.code[first])
			first++;
		if (first != (size_t)-1 && first <= counted && of->count > 0 &&
		    plain_statement(b.code[first], strlen(b.code[first]))) {
			of->follows = true;
			g = MUTGEN_ORACLE_GAP;
		}
	} else if (!of->count) {
		g = MUTGEN_REACH_GAP;
	} else if (end != ')') {
		g = MUTGEN_ORACLE_GAP;
	} else if (edges && taken == edges) {
		/*
		 * A statement unfinished after ")" is a condition (if, while,
		 * a for_each macro) and @line its body, which ran only if
		 * every edge of the condition was taken.
		 */
		of->body = true;
		g = MUTGEN_ORACLE_GAP;
	}
out:
	if (g == MUTGEN_NOT_COUNTED) {
		of->by = 0;
		of->count = -1;
	}
	before_free(&b);
	return g;
}

enum mutgen_gap mutgen_gap(const char *desc, const char *patch,
			   const struct lcov *cov, struct mutgen_gap_of *of)
{
	const char *at = strstr(desc, " at "), *colon;
	const struct lcov_func *fn;
	enum mutgen_gap g;
	unsigned long line;
	char *file, *end;

	memset(of, 0, sizeof(*of));
	of->count = -1;
	if (strncmp(desc, "generated: ", 11) || !at)
		return MUTGEN_NOT_GENERATED;
	at += 4;
	colon = strchr(at, ':');
	if (!colon)
		return MUTGEN_NOT_GENERATED;
	line = strtoul(colon + 1, &end, 10);
	if (end == colon + 1 || *end != ':')
		return MUTGEN_NOT_GENERATED;
	file = xstrndup(at, colon - at);
	of->count = lcov_line_count(cov, file, line);
	if (!lcov_file(cov, file))
		g = MUTGEN_NOT_BUILT;
	else if (of->count < 0)
		g = by_neighbour(patch, cov, file, line, of);
	else
		g = of->count ? MUTGEN_ORACLE_GAP : MUTGEN_REACH_GAP;
	/* Whatever its line, a function never called ran none of it. */
	fn = g == MUTGEN_NOT_COUNTED ? lcov_line_func(cov, file, line) : NULL;
	if (fn && !fn->count) {
		of->function = fn->name;
		g = MUTGEN_REACH_GAP;
	}
	free(file);
	return g;
}

const char *mutgen_gap_name(enum mutgen_gap g)
{
	switch (g) {
	case MUTGEN_REACH_GAP:
		return "reach gap";
	case MUTGEN_ORACLE_GAP:
		return "oracle gap";
	case MUTGEN_NOT_COUNTED:
		return "not counted";
	case MUTGEN_NOT_BUILT:
		return "not built";
	default:
		return "not generated";
	}
}

bool mutgen_unexecuted(enum mutgen_gap g)
{
	return g == MUTGEN_REACH_GAP || g == MUTGEN_NOT_BUILT;
}
