// SPDX-License-Identifier: GPL-2.0
/*
 * The rules of the documentation check (doccheck.h). What is checked, in
 * `code spans` and in the lines of ```sh blocks (other fenced blocks are
 * sample output and are left alone), and in the targets of [links](...):
 *
 * - a path: a word with a '/' whose first component is a top-level entry
 *   of the repository must exist. Words are split at = : + , ( ) ; | and
 *   quotes first, so "build:debian-source:7.2+fixtures/patches/x.patch"
 *   yields "fixtures/patches/x.patch". Absolute, home, variable and
 *   parent paths and URLs are outside the repository. A path that does
 *   not exist but holds a placeholder (an uppercase word such as NAME or
 *   X, '<', '*', '{', '[', "...") stands for many and is not checked. A
 *   path in the build directory is a build product, whatever a local
 *   build left there: it must be a Makefile target (patterns matched), a
 *   directory holding one, or lie in a path a Makefile variable names
 *   (TREE, INSTALL, LSMCONF...);
 * - `make X`: each target X must be a Makefile target; VAR=value words
 *   and options are skipped, and nothing is checked after -C or -f (that
 *   is another Makefile); the kernel's own targets that the text on
 *   source-built kernels names are listed below (kernel_targets);
 * - `lsmconf SUBCOMMAND` (also build/lsmconf): the subcommand must be one
 *   runner/cli/main.c dispatches, and every --option after it, or in a
 *   span that starts with one, one that a runner/cli/ file parses;
 * - a test name X_test (lowercase; X_test.c counts, X_test.sh is a file
 *   name) must be a test: selftests/DIR/X_test.c or
 *   runner/tests/fixtures/guest-tests/X_test.c;
 * - a relative link target must exist, relative to the linking file;
 * - a table row whose first cell is a directory (`runner/lib/`, the
 *   Layout's rows) and that lists its files (names one at least) must
 *   name every .c file in it, as `x.c` (outside runner/, a program's name
 *   `x` will do), and every header without a .c of its stem, as `x.h`: a
 *   list that leaves a file out is stale too.
 */
#define _GNU_SOURCE
#include "doccheck.h"
#include "lib/lib.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct scan {
	const struct doc_facts *f;
	const char *name;
	FILE *out;
	int problems;
};

static void report(struct scan *s, int line, const char *what, const char *x)
{
	fprintf(s->out, "%s:%d: %s: %s\n", s->name, line, what, x);
	s->problems++;
}

/* An uppercase word (NAME, X), '<', '*', '{', '[' or "...": many names. */
static bool placeholder(const char *w)
{
	const char *p = w;

	if (strpbrk(w, "<*{[") || strstr(w, "..."))
		return true;
	while (*p) {
		const char *s = p;
		bool upper = true;

		if (!isalpha((unsigned char)*p)) {
			p++;
			continue;
		}
		for (; isalpha((unsigned char)*p); p++)
			upper = upper && isupper((unsigned char)*p);
		if (upper && p > s)
			return true;
	}
	return false;
}

static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

/* Is @path one of the Makefile's build products, or in one? */
static bool build_product(const struct doc_facts *f, const char *path)
{
	char *p = xstrdup(path);
	size_t i, n = strlen(p);
	bool ok = false;

	while (n > 1 && p[n - 1] == '/')
		p[--n] = '\0';
	for (i = 0; i < f->targets.n && !ok; i++) {
		const char *t = f->targets.v[i], *pct = strchr(t, '%');

		if (pct) {
			size_t pre = pct - t, suf = strlen(pct + 1);

			ok = n > pre + suf && !strncmp(p, t, pre) &&
			     !strcmp(p + n - suf, pct + 1);
		} else {
			ok = !strcmp(p, t);
		}
		/* A directory the build makes to hold a target. */
		ok = ok || (under(t, p) && strcmp(t, p));
	}
	for (i = 0; i < f->outputs.n && !ok; i++)
		ok = under(p, f->outputs.v[i]) || under(f->outputs.v[i], p);
	free(p);
	return ok;
}

static void check_path(struct scan *s, int line, const char *w)
{
	const struct doc_facts *f = s->f;
	char *first;
	size_t n;
	bool top;

	if (!strchr(w, '/') || strchr("/~$", w[0]) || !strncmp(w, "../", 3) ||
	    !strncmp(w, "http", 4))
		return;
	if (!strncmp(w, "./", 2))
		w += 2;
	n = strcspn(w, "/");
	first = xstrndup(w, n);
	top = doc_list_has(&f->top, first);
	free(first);
	if (!top)
		return;
	/* Not what a local build left: what the Makefile makes. */
	if (f->out && under(w, f->out) ? build_product(f, w) : f->exists(f, w))
		return;
	if (placeholder(w))
		return;
	report(s, line, "no such file", w);
}

static bool is_lsmconf(const struct doc_facts *f, const char *w)
{
	if (!strncmp(w, "./", 2))
		w += 2;
	return !strcmp(w, "lsmconf") || (f->lsmconf && !strcmp(w, f->lsmconf));
}

static void check_option(struct scan *s, int line, const char *w)
{
	size_t n = 2 + doc_opt_name_len(w + 2);
	char *o;

	if (n == 2)
		return;
	o = xstrndup(w, n);
	if (!doc_list_has(&s->f->opts, o))
		report(s, line, "no such lsmconf option", o);
	free(o);
}

static bool all_lower(const char *w)
{
	if (!*w)
		return false;
	for (; *w; w++)
		if (!islower((unsigned char)*w) && *w != '-')
			return false;
	return true;
}

/*
 * Targets of the kernel's own Makefile, which the text on kernels built
 * from source names (`make tinyconfig`): outside this repository.
 */
static const char *const kernel_targets[] = { "tinyconfig", "olddefconfig",
					      "bzImage" };

static bool make_target(const struct doc_facts *f, const char *w)
{
	size_t i, n = strlen(w);

	for (i = 0; i < ARRAY_SIZE(kernel_targets); i++)
		if (!strcmp(w, kernel_targets[i]))
			return true;

	for (i = 0; i < f->targets.n; i++) {
		const char *t = f->targets.v[i], *pct = strchr(t, '%');

		if (!strcmp(t, w))
			return true;
		if (pct && n > strlen(t) - 1 && !strncmp(w, t, pct - t) &&
		    !strcmp(w + n - strlen(pct + 1), pct + 1))
			return true;
	}
	return false;
}

/* The commands of a span or an sh line: make and lsmconf, word by word. */
static void check_commands(struct scan *s, int line, char **words, size_t n)
{
	enum { NONE, MAKE, LSMCONF, OPTS, SKIP } st = NONE;
	size_t i;

	for (i = 0; i < n; i++) {
		char *w = words[i];
		size_t len = strlen(w);
		bool last = len && w[len - 1] == ';';

		if (last)
			w[--len] = '\0';
		if (!strcmp(w, "&&") || !strcmp(w, "||") || !strcmp(w, "|")) {
			st = NONE;
			continue;
		}
		if (w[0] == '#')
			st = SKIP;
		switch (st) {
		case NONE:
			if (!strcmp(w, "make"))
				st = MAKE;
			else if (is_lsmconf(s->f, w))
				st = LSMCONF;
			else if (i == 0 && !strncmp(w, "--", 2)) {
				/* A span that is an option: lsmconf's. */
				check_option(s, line, w);
				st = OPTS;
			}
			break;
		case MAKE:
			if (!strcmp(w, "-C") || !strcmp(w, "-f") ||
			    !strncmp(w, "--directory", 11) ||
			    !strncmp(w, "--file", 6) || !strncmp(w, "-C", 2))
				st = SKIP;
			else if (w[0] != '-' && !strchr(w, '=') &&
				 !placeholder(w) && !make_target(s->f, w))
				report(s, line, "no such make target", w);
			break;
		case LSMCONF:
			st = OPTS;
			if (!strncmp(w, "--", 2))
				check_option(s, line, w);
			else if (all_lower(w) && !doc_list_has(&s->f->cmds, w))
				report(s, line, "no such lsmconf subcommand",
				       w);
			break;
		case OPTS:
			if (!strncmp(w, "--", 2))
				check_option(s, line, w);
			break;
		case SKIP:
			break;
		}
		if (last)
			st = NONE;
	}
}

/* Every lowercase name ending in _test must be a test. */
static void check_tests(struct scan *s, int line, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *b = p;
		bool lower = true;
		char *name;

		if (!isalnum((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		for (; isalnum((unsigned char)*p) || *p == '_'; p++)
			lower = lower && !isupper((unsigned char)*p);
		if (p - b <= 5 || strncmp(p - 5, "_test", 5) || !lower)
			continue;
		/* deps_test.sh is a file's name; unix_peer_test.c the test's. */
		if (p[0] == '.' && isalpha((unsigned char)p[1]) &&
		    (p[1] != 'c' || isalnum((unsigned char)p[2])))
			continue;
		name = xstrndup(b, p - b);
		if (!doc_list_has(&s->f->tests, name))
			report(s, line, "no such test", name);
		free(name);
	}
}

/* The words of @text as the shell splits them: K="a b" is one. */
static char **split_words(const char *text, size_t *n)
{
	const char *p = text;
	char **words = NULL;

	*n = 0;
	for (;;) {
		const char *b;
		char quote = 0;

		p += strspn(p, " \t\n");
		if (!*p)
			break;
		for (b = p; *p && (quote || !strchr(" \t\n", *p)); p++)
			if (quote ? *p == quote : (*p == '"' || *p == '\''))
				quote = quote ? 0 : *p;
		words = xrealloc(words, (*n + 1) * sizeof(*words));
		words[(*n)++] = xstrndup(b, p - b);
	}
	return words;
}

/* One `span`, or one logical line of an sh block. */
static void check_text(struct scan *s, int line, const char *text)
{
	static const char sep[] = " \t\n=:+,();|\"'";
	char *copy = xstrdup(text), *save = NULL, *piece;
	size_t n, i;
	char **words = split_words(text, &n);

	for (piece = strtok_r(copy, sep, &save); piece;
	     piece = strtok_r(NULL, sep, &save))
		check_path(s, line, piece);
	check_tests(s, line, text);
	check_commands(s, line, words, n);
	for (i = 0; i < n; i++)
		free(words[i]);
	free(words);
	free(copy);
}

/* @target of a link in the file s->name: relative to that file's folder. */
static void check_link(struct scan *s, int line, const char *target)
{
	const char *slash = strrchr(s->name, '/');
	char *t = xstrndup(target, strcspn(target, "#"));
	char *path, *p;

	if (!*t || strstr(t, "://") || !strncmp(t, "mailto:", 7) ||
	    t[0] == '/') {
		free(t);
		return;
	}
	path = xasprintf("%.*s%s", slash ? (int)(slash - s->name + 1) : 0,
			 s->name, t);
	/* "docs/../runner/x.c" -> "runner/x.c"; "./x" -> "x". */
	while ((p = strstr(path, "/../"))) {
		char *start = p;

		while (start > path && start[-1] != '/')
			start--;
		memmove(start, p + 4, strlen(p + 4) + 1);
	}
	while (!strncmp(path, "./", 2))
		memmove(path, path + 2, strlen(path + 2) + 1);
	if (!strncmp(path, "../", 3) || !s->f->exists(s->f, path))
		report(s, line, "no such file", t);
	free(path);
	free(t);
}

/* Spans and links of one paragraph @p, starting at line @line. */
static void scan_inline(struct scan *s, const char *p, int line)
{
	const char *q = p;

	while (*q) {
		if (q[0] == '\\' && q[1]) {
			line += q[1] == '\n';
			q += 2;
		} else if (*q == '`') {
			size_t n = strspn(q, "`");
			const char *c = q + n;

			/* The closing run has the same length, else literal. */
			while ((c = strchr(c, '`')) && strspn(c, "`") != n)
				c += strspn(c, "`");
			if (c) {
				char *span = xstrndup(q + n, c - q - n), *x;

				/* A table's "\|" is a '|' in the span. */
				while ((x = strstr(span, "\\|")))
					memmove(x, x + 1, strlen(x));
				check_text(s, line, span);
				free(span);
				for (; q < c; q++)
					line += *q == '\n';
				q = c + n;
			} else {
				q += n;
			}
		} else if (q[0] == ']' && q[1] == '(') {
			size_t n = strcspn(q + 2, ") \n");
			char *t = xstrndup(q + 2, n);

			if (q[2 + n] == ')')
				check_link(s, line, t);
			free(t);
			q += 2;
		} else {
			line += *q == '\n';
			q++;
		}
	}
}

/* A fence line: ``` or ~~~ (three or more), and its info string. */
static size_t fence(const char *l, char *c)
{
	size_t n;

	l += strspn(l, " ");
	if (*l != '`' && *l != '~')
		return 0;
	n = strspn(l, *l == '`' ? "`" : "~");
	*c = *l;
	return n >= 3 ? n : 0;
}

static bool shell_info(const char *l)
{
	static const char *const sh[] = { "sh", "shell", "bash", "console" };
	char word[16];
	size_t i;

	l += strspn(l, " `~");
	if (sscanf(l, "%15s", word) != 1)
		return false;
	for (i = 0; i < ARRAY_SIZE(sh); i++)
		if (!strcmp(word, sh[i]))
			return true;
	return false;
}

/*
 * Is @file of @dir named in row @l: as `file`, or, for a .c file outside
 * runner/ (a test program's), by the program's name `x`?
 */
static bool row_names(const char *l, const char *dir, const char *file)
{
	size_t len = strlen(file);
	char *as_is = xasprintf("`%s`", file);
	char *bare = xasprintf("`%.*s`", (int)(len - 2), file);
	bool prog = len > 2 && !strcmp(file + len - 2, ".c") &&
		    strncmp(dir, "runner/", 7);
	bool ok = strstr(l, as_is) || (prog && strstr(l, bare));

	free(as_is);
	free(bare);
	return ok;
}

/*
 * A table row "| `DIR/` | ..." that lists files of DIR (names one at
 * least; a summary row names none): each file of DIR it must name in it.
 */
static void check_row(struct scan *s, int line, const char *l)
{
	struct doc_list c = { 0 };
	size_t i, named = 0;
	const char *end;
	char *dir;

	if (!s->f->row_files || strncmp(l, "| `", 3))
		return;
	end = strchr(l + 3, '`');
	if (!end || end == l + 3 || end[-1] != '/')
		return;
	dir = xstrndup(l + 3, end - (l + 3));
	s->f->row_files(s->f, dir, &c);
	for (i = 0; i < c.n; i++)
		named += row_names(l, dir, c.v[i]);
	for (i = 0; i < c.n; i++) {
		if (named && !row_names(l, dir, c.v[i])) {
			char *what = xasprintf("%s%s", dir, c.v[i]);

			report(s, line, "a row of its directory leaves out",
			       what);
			free(what);
		}
		free(c.v[i]);
	}
	free(c.v);
	free(dir);
}

int doc_check(const struct doc_facts *f, const char *name, const char *text,
	      FILE *out)
{
	struct scan s = { .f = f, .name = name, .out = out };
	struct sbuf para = { 0 }, cmd = { 0 };
	const char *p = text;
	int line = 0, para_line = 0, cmd_line = 0;
	size_t open = 0;
	char open_c = 0;
	bool sh = false;

	while (*p) {
		const char *nl = strchrnul(p, '\n');
		char *l = xstrndup(p, nl - p), c = 0;
		size_t n = fence(l, &c);

		line++;
		p = *nl ? nl + 1 : nl;
		if (open) {
			if (n >= open && c == open_c && !l[strspn(l, " `~")]) {
				open = 0;
			} else if (sh) {
				size_t len = strlen(l);
				bool more = len && l[len - 1] == '\\';
				const char *body = l;

				if (!cmd.len) {
					cmd_line = line;
					/* A "$ " prompt is not part of it. */
					if (!strncmp(body, "$ ", 2))
						body += 2;
				}
				sbuf_add(&cmd, body,
					 strlen(body) - (more ? 1 : 0));
				if (more) {
					sbuf_add(&cmd, " ", 1);
				} else {
					sbuf_add(&cmd, "", 1);
					check_text(&s, cmd_line, cmd.buf);
					sbuf_free(&cmd);
				}
			}
			free(l);
			continue;
		}
		/* A paragraph ends at a blank line or a fence. */
		if (n || !l[strspn(l, " \t")]) {
			if (para.len) {
				sbuf_add(&para, "", 1);
				scan_inline(&s, para.buf, para_line);
				sbuf_free(&para);
			}
			if (n) {
				open = n;
				open_c = c;
				sh = shell_info(l);
			}
			free(l);
			continue;
		}
		if (!para.len)
			para_line = line;
		check_row(&s, line, l);
		sbuf_add(&para, l, strlen(l));
		sbuf_add(&para, "\n", 1);
		free(l);
	}
	if (para.len) {
		sbuf_add(&para, "", 1);
		scan_inline(&s, para.buf, para_line);
	}
	if (cmd.len) {
		sbuf_add(&cmd, "", 1);
		check_text(&s, cmd_line, cmd.buf);
	}
	sbuf_free(&para);
	sbuf_free(&cmd);
	return s.problems;
}
