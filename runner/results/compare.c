// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "compare.h"
#include "known.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *cmp_class_name(enum cmp_class c)
{
	static const char *const names[] = { "same", "explained",
					     "unexplained" };

	return c < CMP_N_CLASSES ? names[c] : "?";
}

static void add(struct cmp_result *r, const char *id, enum cmp_class cls,
		const char *a, const char *b, const char *reason)
{
	struct cmp_case *c;

	r->count[cls]++;
	if (cls == CMP_SAME)
		return;
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	c = &r->v[r->n++];
	c->id = id;
	c->cls = cls;
	c->a = a;
	c->b = b;
	snprintf(c->reason, sizeof(c->reason), "%s", reason);
}

/*
 * "feature=value" on both sides, same feature, different values: the
 * kernels differ in exactly what this expectation depends on.
 */
static bool explained_by(const char *da, const char *db, char *why, size_t size)
{
	const char *ea = strchr(da, '='), *eb = strchr(db, '=');

	if (!ea || !eb || ea - da != eb - db || strncmp(da, db, ea - da))
		return false;
	if (!strcmp(ea, eb))
		return false;
	snprintf(why, size, "the kernels differ in %.*s (%s vs %s)",
		 (int)(ea - da), da, ea + 1, eb + 1);
	return true;
}

static void classify(const struct record *ra, const struct record *rb,
		     struct cmp_result *out)
{
	const char *oa = ra->col[REC_OBSERVED], *ob = rb->col[REC_OBSERVED];
	const char *da = ra->col[REC_DEPENDS], *db = rb->col[REC_DEPENDS];
	char why[200];

	if (!strcmp(oa, ob)) {
		add(out, ra->col[REC_ID], CMP_SAME, oa, ob, "");
		return;
	}
	if (ra->known || rb->known) {
		snprintf(why, sizeof(why),
			 "known kernel bug %s on the %s kernel",
			 ra->known ? ra->known : rb->known,
			 ra->known ? "first" : "second");
		add(out, ra->col[REC_ID], CMP_EXPLAINED, oa, ob, why);
		return;
	}
	if (explained_by(da, db, why, sizeof(why))) {
		add(out, ra->col[REC_ID], CMP_EXPLAINED, oa, ob, why);
		return;
	}
	if (!strcmp(da, "-"))
		snprintf(
			why, sizeof(why),
			"policy ABI %s is the same on both kernels: the decision must not change",
			ra->col[REC_ABI]);
	else
		snprintf(why, sizeof(why),
			 "the decision changed although %s holds on both", da);
	add(out, ra->col[REC_ID], CMP_UNEXPLAINED, oa, ob, why);
}

void compare_records(const struct record_set *a, const struct record_set *b,
		     struct cmp_result *out)
{
	size_t i = 0, j = 0;

	memset(out, 0, sizeof(*out));
	/* Both sorted by id: a merge join. */
	while (i < a->n || j < b->n) {
		int c;

		if (i == a->n)
			c = 1;
		else if (j == b->n)
			c = -1;
		else
			c = strcmp(a->v[i].col[REC_ID], b->v[j].col[REC_ID]);
		if (c < 0) {
			add(out, a->v[i].col[REC_ID], CMP_UNEXPLAINED,
			    a->v[i].col[REC_OBSERVED], "-",
			    "recorded on the first kernel only");
			i++;
		} else if (c > 0) {
			add(out, b->v[j].col[REC_ID], CMP_UNEXPLAINED, "-",
			    b->v[j].col[REC_OBSERVED],
			    "recorded on the second kernel only");
			j++;
		} else {
			classify(&a->v[i], &b->v[j], out);
			i++;
			j++;
		}
	}
}

void compare_explain_crashes(struct cmp_result *r, const struct known_list *l,
			     const char *crashed_a, const char *crashed_b)
{
	size_t i;

	for (i = 0; l && i < r->n; i++) {
		struct cmp_case *c = &r->v[i];
		bool on_a = !strcmp(c->a, "-");
		const struct known_bug *b;

		if (c->cls != CMP_UNEXPLAINED || (!on_a && strcmp(c->b, "-")))
			continue;
		b = known_crash_record(l, on_a ? crashed_a : crashed_b, c->id);
		if (!b)
			continue;
		c->cls = CMP_EXPLAINED;
		r->count[CMP_UNEXPLAINED]--;
		r->count[CMP_EXPLAINED]++;
		snprintf(
			c->reason, sizeof(c->reason),
			"known kernel bug %s brought the %s kernel down in this case",
			b->name, on_a ? "first" : "second");
	}
}

void compare_free(struct cmp_result *r)
{
	free(r->v);
	memset(r, 0, sizeof(*r));
}
