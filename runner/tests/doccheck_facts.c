// SPDX-License-Identifier: GPL-2.0
/*
 * The facts the documentation check holds the docs against (doccheck.h),
 * read from the repository's own text: the Makefile's targets and the
 * paths its variables name, the subcommands runner/cli/main.c dispatches
 * and the options runner/cli/ parses. The rules are in doccheck_rules.c.
 */
#define _GNU_SOURCE
#include "doccheck.h"
#include "lib/lib.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

void doc_list_add(struct doc_list *l, const char *s)
{
	if (doc_list_has(l, s))
		return;
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = xstrdup(s);
}

bool doc_list_has(const struct doc_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return true;
	return false;
}

static void doc_list_free(struct doc_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void doc_facts_free(struct doc_facts *f)
{
	doc_list_free(&f->top);
	doc_list_free(&f->targets);
	doc_list_free(&f->outputs);
	doc_list_free(&f->cmds);
	doc_list_free(&f->opts);
	doc_list_free(&f->tests);
	free(f->out);
	free(f->lsmconf);
	f->out = f->lsmconf = NULL;
}

/* ---- The Makefile ---- */

struct mk_var {
	char *name, *value;
};

struct mk_vars {
	struct mk_var *v;
	size_t n;
};

static const char *mk_get(const struct mk_vars *vars, const char *name)
{
	size_t i;

	for (i = vars->n; i-- > 0;)
		if (!strcmp(vars->v[i].name, name))
			return vars->v[i].value;
	return NULL;
}

/*
 * @s with its $(VAR) references expanded, or NULL when one cannot be: a
 * function call ($(wildcard ...)), an unknown variable, or too deep.
 */
static char *mk_expand(const struct mk_vars *vars, const char *s, int depth)
{
	struct sbuf sb = { 0 };
	const char *p = s;

	if (depth > 8)
		return NULL;
	while (*p) {
		const char *close, *value;
		char *name, *sub;

		if (p[0] != '$' || (p[1] != '(' && p[1] != '{')) {
			sbuf_add(&sb, p, 1);
			p += p[0] == '$' && p[1] == '$' ? 2 : 1;
			continue;
		}
		close = strchr(p + 2, p[1] == '(' ? ')' : '}');
		if (!close)
			goto fail;
		name = xstrndup(p + 2, close - p - 2);
		value = strpbrk(name, " \t,$:") ? NULL : mk_get(vars, name);
		free(name);
		if (!value)
			goto fail;
		sub = mk_expand(vars, value, depth + 1);
		if (!sub)
			goto fail;
		sbuf_add(&sb, sub, strlen(sub));
		free(sub);
		p = close + 1;
	}
	sbuf_add(&sb, "", 1);
	return sb.buf;
fail:
	sbuf_free(&sb);
	return NULL;
}

/* The first ':' or '=' of @s outside $(...), or NULL. */
static char *mk_operator(char *s)
{
	int depth = 0;

	for (; *s; s++) {
		if (*s == '(' || *s == '{')
			depth++;
		else if ((*s == ')' || *s == '}') && depth > 0)
			depth--;
		else if (!depth && (*s == ':' || *s == '='))
			return s;
	}
	return NULL;
}

/* Adds each word of @text, expanded, to @l; @prefix: only those in it. */
static void mk_add_words(const struct mk_vars *vars, const char *text,
			 const char *prefix, struct doc_list *l)
{
	char *copy = xstrdup(text), *save = NULL, *w;

	for (w = strtok_r(copy, " \t", &save); w;
	     w = strtok_r(NULL, " \t", &save)) {
		char *x = mk_expand(vars, w, 0), *save2 = NULL, *y;

		if (!x)
			continue;
		/* A variable may hold several words. */
		for (y = strtok_r(x, " \t", &save2); y;
		     y = strtok_r(NULL, " \t", &save2)) {
			/* $(CURDIR)/build/x: the root is the current folder. */
			if (!strncmp(y, "./", 2))
				y += 2;
			if (y[0] != '.' &&
			    (!prefix || !strncmp(y, prefix, strlen(prefix))))
				doc_list_add(l, y);
		}
		free(x);
	}
	free(copy);
}

void doc_facts_makefile(struct doc_facts *f, const char *text)
{
	struct mk_vars vars = { 0 };
	struct sbuf rules = { 0 };
	const char *p = text;
	char *line, *out_prefix, *r, *save = NULL;
	size_t i;

	/* make runs in the repository's root, where the paths start. */
	vars.v = xmalloc(sizeof(*vars.v));
	vars.v[vars.n++] = (struct mk_var){ xstrdup("CURDIR"), xstrdup(".") };
	while (*p) {
		struct sbuf logical = { 0 };
		char *op, *lhs, *rhs;
		bool append;

		/* One logical line: "\" at the end continues it. */
		for (;;) {
			const char *nl = strchrnul(p, '\n');
			size_t n = nl - p;
			bool more = n && p[n - 1] == '\\';

			sbuf_add(&logical, p, more ? n - 1 : n);
			p = *nl ? nl + 1 : nl;
			if (!more || !*p)
				break;
			sbuf_add(&logical, " ", 1);
		}
		sbuf_add(&logical, "", 1);
		line = logical.buf;
		/* Recipes, comments and conditionals name no target. */
		if (line[0] == '\t' || line[0] == '#' ||
		    !(op = mk_operator(line)))
			goto next;
		if (*op == ':' && op[1] != '=' && op[1] != ':') {
			/* A rule: keep its targets until the variables are known. */
			*op = '\0';
			sbuf_add(&rules, line, strlen(line));
			if (!strcmp(trim(line), ".PHONY")) {
				sbuf_add(&rules, " ", 1);
				rhs = op + 1;
				sbuf_add(&rules, rhs, strlen(rhs));
			}
			sbuf_add(&rules, "\n", 1);
			goto next;
		}
		rhs = op + (*op == ':' ? (op[1] == ':' ? 3 : 2) : 1);
		if (*op == '=' && op > line && strchr("?+:", op[-1]))
			op--;
		append = *op == '+';
		*op = '\0';
		lhs = trim(line);
		if (!strncmp(lhs, "export ", 7) || strchr(lhs, ' '))
			goto next;
		rhs = trim(rhs);
		if (append && mk_get(&vars, lhs)) {
			char *joined =
				xasprintf("%s %s", mk_get(&vars, lhs), rhs);

			vars.v = xrealloc(vars.v,
					  (vars.n + 1) * sizeof(*vars.v));
			vars.v[vars.n++] =
				(struct mk_var){ xstrdup(lhs), joined };
			goto next;
		}
		vars.v = xrealloc(vars.v, (vars.n + 1) * sizeof(*vars.v));
		vars.v[vars.n++] =
			(struct mk_var){ xstrdup(lhs), xstrdup(rhs) };
next:
		sbuf_free(&logical);
	}
	sbuf_add(&rules, "", 1);
	for (r = strtok_r(rules.buf, "\n", &save); r;
	     r = strtok_r(NULL, "\n", &save))
		mk_add_words(&vars, r, NULL, &f->targets);
	sbuf_free(&rules);

	if (mk_get(&vars, "OUT"))
		f->out = mk_expand(&vars, mk_get(&vars, "OUT"), 0);
	if (mk_get(&vars, "LSMCONF"))
		f->lsmconf = mk_expand(&vars, mk_get(&vars, "LSMCONF"), 0);
	if (f->out) {
		out_prefix = xasprintf("%s/", f->out);
		for (i = 0; i < vars.n; i++)
			mk_add_words(&vars, vars.v[i].value, out_prefix,
				     &f->outputs);
		free(out_prefix);
	}
	for (i = 0; i < vars.n; i++) {
		free(vars.v[i].name);
		free(vars.v[i].value);
	}
	free(vars.v);
}

/* ---- runner/cli/ ---- */

void doc_facts_cmds(struct doc_facts *f, const char *text)
{
	static const char key[] = "strcmp(argv[1], \"";
	const char *p = text;

	while ((p = strstr(p, key))) {
		const char *name = p + strlen(key), *end = strchr(name, '"');

		if (!end)
			break;
		/* "--help" and "-h" are options, not subcommands. */
		if (end > name && name[0] != '-') {
			char *cmd = xstrndup(name, end - name);

			doc_list_add(&f->cmds, cmd);
			free(cmd);
		}
		p = end;
	}
}

size_t doc_opt_name_len(const char *s)
{
	size_t n = 0;

	while (islower((unsigned char)s[n]) || isdigit((unsigned char)s[n]) ||
	       (n && s[n] == '-'))
		n++;
	return n;
}

void doc_facts_opts(struct doc_facts *f, const char *text)
{
	const char *p = text;

	while (*p) {
		if (p[0] == '/' && p[1] == '*') {
			const char *e = strstr(p + 2, "*/");

			p = e ? e + 2 : p + strlen(p);
		} else if (p[0] == '/' && p[1] == '/') {
			p = strchrnul(p, '\n');
		} else if (*p == '\'') {
			/* A character literal, '"' among them. */
			p++;
			while (*p && *p != '\'')
				p += p[0] == '\\' && p[1] ? 2 : 1;
			if (*p)
				p++;
		} else if (*p == '"') {
			const char *s = ++p, *brace = s - 2;
			size_t n;

			while (brace > text && *brace == ' ')
				brace--;

			while (*p && *p != '"')
				p += p[0] == '\\' && p[1] ? 2 : 1;
			/*
			 * "--name" or "--name=" (compared with strcmp or
			 * strncmp), or { "name", required_argument, ... } of
			 * a getopt_long table.
			 */
			if (s[0] == '-' && s[1] == '-' &&
			    (n = doc_opt_name_len(s + 2)) &&
			    (s + 2 + n == p ||
			     (s[2 + n] == '=' && s + 3 + n == p))) {
				char *o = xstrndup(s, 2 + n);

				doc_list_add(&f->opts, o);
				free(o);
			} else if (brace >= text && *brace == '{' &&
				   (n = doc_opt_name_len(s)) && s + n == p) {
				const char *end = strchrnul(p, '}');
				const char *arg = strstr(p, "_argument");

				if (arg && arg < end) {
					char *o =
						xasprintf("--%.*s", (int)n, s);

					doc_list_add(&f->opts, o);
					free(o);
				}
			}
			if (*p)
				p++;
		} else {
			p++;
		}
	}
}
