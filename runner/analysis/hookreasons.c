// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "hookreasons.h"
#include "hookops.h"
#include "lib/lib.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FIELDS 4

static const char *const kind_names[] = {
	[HOOKREASON_NO_DECISION] = "no-decision",
	[HOOKREASON_CANNOT_DRIVE] = "cannot-drive",
	[HOOKREASON_BOOT_ONLY] = "boot-only",
	[HOOKREASON_ERROR_PATH] = "error-path",
};

/* A hook glob: lower-case letters, digits, '_' and '*'. */
static bool hook_glob(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '*'))
			return false;
	return true;
}

static void row_free(struct hookreason_row *r)
{
	free(r->lsm);
	free(r->hook);
	free(r->why);
}

/* One row's fields into @r: NULL, or why it is bad. */
static const char *parse_row(char **f, struct hookreason_row *r)
{
	size_t k;

	if (!hookops_lsm_name(f[0]))
		return "the LSM is neither a name nor *";
	if (!hook_glob(f[1]))
		return "the hook is not a glob of a hook's name";
	for (k = 0; k < sizeof(kind_names) / sizeof(kind_names[0]); k++)
		if (!strcmp(f[2], kind_names[k]))
			break;
	if (k == sizeof(kind_names) / sizeof(kind_names[0]))
		return "the kind is none of no-decision, cannot-drive, boot-only, error-path";
	if (strlen(f[3]) < 8)
		return "the reason says nothing (under 8 characters)";
	*r = (struct hookreason_row){ .lsm = xstrdup(f[0]),
				      .hook = xstrdup(f[1]),
				      .kind = k,
				      .why = xstrdup(f[3]) };
	return NULL;
}

/* input_rows()'s row: one row appended to the list @ctx. */
static const char *add_row(char **f, unsigned int n, void *ctx)
{
	struct hookreasons *t = ctx;
	struct hookreason_row r = { 0 };
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

int hookreasons_parse(const char *text, size_t len, struct hookreasons *t,
		      char *err, size_t size)
{
	*t = (struct hookreasons){ 0 };
	if (input_rows(text, len, FIELDS, add_row, t, err, size)) {
		hookreasons_free(t);
		return -1;
	}
	if (!t->n) {
		snprintf(err, size, "no rows");
		return -1;
	}
	return 0;
}

void hookreasons_free(struct hookreasons *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		row_free(&t->v[i]);
	free(t->v);
	*t = (struct hookreasons){ 0 };
}

const struct hookreason_row *hookreasons_match(const struct hookreasons *t,
					       const char *lsm,
					       const char *hook)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		const struct hookreason_row *r = &t->v[i];

		if ((!strcmp(r->lsm, "*") || !strcmp(r->lsm, lsm)) &&
		    !fnmatch(r->hook, hook, 0))
			return r;
	}
	return NULL;
}

enum hook_status hook_status(bool built, unsigned long long calls,
			     unsigned long allow, unsigned long deny,
			     const struct hookreason_row *reason)
{
	if (allow && deny)
		return HOOK_BOTH;
	if (!built)
		return HOOK_NOT_BUILT;
	if (reason)
		return HOOK_REASONED;
	if (allow)
		return HOOK_ALLOW_ONLY;
	if (deny)
		return HOOK_DENY_ONLY;
	return calls ? HOOK_NO_RECORD : HOOK_NEVER_CALLED;
}

bool hook_status_gap(enum hook_status s)
{
	return s >= HOOK_ALLOW_ONLY;
}

const char *hook_status_name(enum hook_status s,
			     const struct hookreason_row *reason)
{
	static const char *const names[] = {
		[HOOK_BOTH] = "both",
		[HOOK_NOT_BUILT] = "not built",
		[HOOK_ALLOW_ONLY] = "gap: allow only",
		[HOOK_DENY_ONLY] = "gap: deny only",
		[HOOK_NO_RECORD] = "gap: called, no decision recorded",
		[HOOK_NEVER_CALLED] = "gap: never called",
	};

	if (s == HOOK_REASONED)
		return hookreason_kind_name(reason ? reason->kind :
						     HOOKREASON_CANNOT_DRIVE);
	return names[s];
}

const char *hookreason_kind_name(enum hookreason_kind k)
{
	static const char *const names[] = {
		[HOOKREASON_NO_DECISION] = "no decision",
		[HOOKREASON_CANNOT_DRIVE] = "cannot drive",
		[HOOKREASON_BOOT_ONLY] = "boot only",
		[HOOKREASON_ERROR_PATH] = "error path",
	};

	return names[k];
}
