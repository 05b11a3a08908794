// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "hookops.h"
#include "lib/lib.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS 5

/* A hook's name: lower-case letters, digits and '_'. */
static bool hook_name(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

bool hookops_lsm_name(const char *s)
{
	if (!strcmp(s, "*"))
		return true;
	for (; *s; s++)
		if (*s < 'a' || *s > 'z')
			return false;
	return true;
}

/* "a,b,c" into @r's hooks: false when a name is bad. */
static bool split_hooks(const char *s, struct hookop_row *r)
{
	const char *p = s, *comma;

	if (!strcmp(s, "-"))
		return true;
	for (;;) {
		size_t n;

		comma = strchr(p, ',');
		n = comma ? (size_t)(comma - p) : strlen(p);
		if (!hook_name(p, n))
			return false;
		r->hooks = xrealloc(r->hooks,
				    (r->n_hooks + 1) * sizeof(*r->hooks));
		r->hooks[r->n_hooks++] = xstrndup(p, n);
		if (!comma)
			return true;
		p = comma + 1;
	}
}

static void row_free(struct hookop_row *r)
{
	size_t i;

	free(r->lsm);
	free(r->test);
	free(r->cls);
	free(r->op);
	for (i = 0; i < r->n_hooks; i++)
		free(r->hooks[i]);
	free(r->hooks);
}

/* One row's fields into @r: NULL, or why it is bad. */
static const char *parse_row(char **f, struct hookop_row *r)
{
	if (!hookops_lsm_name(f[0]))
		return "the LSM is neither a name nor *";
	*r = (struct hookop_row){ .lsm = xstrdup(f[0]),
				  .test = xstrdup(f[1]),
				  .cls = xstrdup(f[2]),
				  .op = xstrdup(f[3]) };
	if (!split_hooks(f[4], r))
		return "the hooks are neither - nor names separated by commas";
	return NULL;
}

/* input_rows()'s row: one row appended to the table @ctx. */
static const char *add_row(char **f, unsigned int n, void *ctx)
{
	struct hookops *t = ctx;
	struct hookop_row r = { 0 };
	const char *why = parse_row(f, &r);

	if (why) {
		row_free(&r);
		return why;
	}
	r.line = n;
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	t->v[t->n++] = r;
	return NULL;
}

int hookops_parse(const char *text, size_t len, struct hookops *t, char *err,
		  size_t size)
{
	*t = (struct hookops){ 0 };
	if (input_rows(text, len, FIELDS, add_row, t, err, size)) {
		hookops_free(t);
		return -1;
	}
	if (!t->n) {
		snprintf(err, size, "no rows");
		return -1;
	}
	return 0;
}

void hookops_free(struct hookops *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		row_free(&t->v[i]);
	free(t->v);
	*t = (struct hookops){ 0 };
}

const struct hookop_row *hookops_match(const struct hookops *t, const char *lsm,
				       const char *id, const char *cls,
				       const char *op)
{
	const char *slash = strchr(id, '/'), *last = strrchr(op, '/');
	char *test = slash ? xstrndup(id, slash - id) : xstrdup(id);
	const struct hookop_row *found = NULL;
	size_t i;

	op = last ? last + 1 : op;
	for (i = 0; !found && i < t->n; i++) {
		const struct hookop_row *r = &t->v[i];

		if ((!strcmp(r->lsm, "*") || !strcmp(r->lsm, lsm)) &&
		    !fnmatch(r->test, test, 0) && !fnmatch(r->cls, cls, 0) &&
		    !fnmatch(r->op, op, 0))
			found = r;
	}
	free(test);
	return found;
}

enum hookop_outcome hookop_outcome(const char *observed)
{
	if (!strcmp(observed, "allow"))
		return HOOKOP_ALLOW;
	if (!strcmp(observed, "EACCES") || !strcmp(observed, "EPERM"))
		return HOOKOP_DENY;
	return HOOKOP_NEITHER;
}
