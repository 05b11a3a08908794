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

const char *cmp_change_name(enum cmp_change c)
{
	static const char *const names[] = { "loosened", "tightened",
					     "errno changed", "other" };

	return c < CMP_N_CHANGES ? names[c] : "?";
}

const char *cmp_rule_name(enum cmp_rule r)
{
	static const char *const names[] = { "-", "feature", "known-bug",
					     "known-crash" };

	return r < CMP_N_RULES ? names[r] : "?";
}

/* The guest records "allow" or an errno's name (outcome_name()). */
static bool is_errno(const char *o)
{
	return o[0] == 'E' && (o[1] == '?' || (o[1] >= 'A' && o[1] <= 'Z'));
}

static enum cmp_change change_of(const char *a, const char *b)
{
	if (is_errno(a) && !strcmp(b, "allow"))
		return CMP_LOOSENED;
	if (!strcmp(a, "allow") && is_errno(b))
		return CMP_TIGHTENED;
	if (is_errno(a) && is_errno(b))
		return CMP_ERRNO_CHANGED;
	return CMP_OTHER;
}

static void add(struct cmp_result *r, const char *id, enum cmp_class cls,
		enum cmp_rule rule, const char *a, const char *b,
		const char *reason)
{
	struct cmp_case *c;

	r->count[cls]++;
	if (cls == CMP_SAME)
		return;
	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	c = &r->v[r->n++];
	c->id = id;
	c->cls = cls;
	c->change = change_of(a, b);
	c->rule = rule;
	c->a = a;
	c->b = b;
	snprintf(c->reason, sizeof(c->reason), "%s", reason);
	r->changes[cls][c->change]++;
}

/*
 * "feature=value" on both sides, same feature, different values: the
 * kernels differ in exactly what this expectation depends on. That is
 * evidence only between different upstream versions: of one version (a
 * patched build against its base, Debian's binary against a source build
 * of the same release), the change changed the feature too, and a change
 * must not explain itself; a kernel of unknown identity proves nothing.
 */
static bool explained_by(const char *da, const char *db, enum cmp_identity id,
			 char *why, size_t size)
{
	static const char *const but[] = {
		[CMP_UPSTREAM_DIFFERENT] = "",
		[CMP_UPSTREAM_SAME] =
			", but both kernels are one upstream version: a feature explains nothing there",
		[CMP_UPSTREAM_UNKNOWN] =
			", but a kernel's upstream version is not recorded: a feature explains nothing then",
	};

	const char *ea = strchr(da, '='), *eb = strchr(db, '=');

	if (!ea || !eb || ea - da != eb - db || strncmp(da, db, ea - da))
		return false;
	if (!strcmp(ea, eb))
		return false;
	snprintf(why, size, "the kernels differ in %.*s (%s vs %s)%s",
		 (int)(ea - da), da, ea + 1, eb + 1, but[id]);
	return id == CMP_UPSTREAM_DIFFERENT;
}

static void classify(const struct record *ra, const struct record *rb,
		     struct cmp_result *out)
{
	const char *oa = ra->col[REC_OBSERVED], *ob = rb->col[REC_OBSERVED];
	const char *da = ra->col[REC_DEPENDS], *db = rb->col[REC_DEPENDS];
	char why[200] = "";

	if (!strcmp(oa, ob)) {
		add(out, ra->col[REC_ID], CMP_SAME, CMP_RULE_NONE, oa, ob, "");
		return;
	}
	if (ra->known || rb->known) {
		snprintf(why, sizeof(why),
			 "known kernel bug %s on the %s kernel",
			 ra->known ? ra->known : rb->known,
			 ra->known ? "first" : "second");
		add(out, ra->col[REC_ID], CMP_EXPLAINED, CMP_RULE_KNOWN_BUG, oa,
		    ob, why);
		return;
	}
	if (explained_by(da, db, out->identity, why, sizeof(why))) {
		add(out, ra->col[REC_ID], CMP_EXPLAINED, CMP_RULE_FEATURE, oa,
		    ob, why);
		return;
	}
	if (!strcmp(da, "-"))
		snprintf(
			why, sizeof(why),
			"policy ABI %s is the same on both kernels: the decision must not change",
			ra->col[REC_ABI]);
	else if (!*why)
		snprintf(why, sizeof(why),
			 "the decision changed although %s holds on both", da);
	add(out, ra->col[REC_ID], CMP_UNEXPLAINED, CMP_RULE_NONE, oa, ob, why);
}

struct feat_line {
	const char *path, *value;
	int plen, vlen;
};

static int feat_cmp(const void *x, const void *y)
{
	const struct feat_line *a = x, *b = y;
	int c = strncmp(a->path, b->path,
			(size_t)(a->plen < b->plen ? a->plen : b->plen));

	return c ? c : a->plen - b->plen;
}

/* features.tsv as "path<TAB>value" lines, sorted by path. */
static struct feat_line *feat_lines(const char *text, size_t *n)
{
	struct feat_line *v = NULL;
	const char *p = text;

	*n = 0;
	while (p && *p) {
		size_t len = strcspn(p, "\n"), plen = strcspn(p, "\t\n");
		struct feat_line *f;

		if (len) {
			v = xrealloc(v, (*n + 1) * sizeof(*v));
			f = &v[(*n)++];
			f->path = p;
			f->plen = (int)plen;
			f->value = p + plen + (plen < len);
			f->vlen = (int)(len - plen - (plen < len));
			/* The guest joins a file's lines with spaces. */
			while (f->vlen && f->value[f->vlen - 1] == ' ')
				f->vlen--;
		}
		p += len + (p[len] == '\n');
	}
	if (*n)
		qsort(v, *n, sizeof(*v), feat_cmp);
	return v;
}

static void add_feature(struct cmp_result *r, const struct feat_line *path,
			const struct feat_line *a, const struct feat_line *b)
{
	struct cmp_feature *f;

	r->feat = xrealloc(r->feat, (r->n_feat + 1) * sizeof(*r->feat));
	f = &r->feat[r->n_feat++];
	f->path = xstrndup(path->path, path->plen);
	f->a = a ? xstrndup(a->value, a->vlen) : xstrdup("-");
	f->b = b ? xstrndup(b->value, b->vlen) : xstrdup("-");
}

/* The advertised features that differ, by a merge join on the path. */
static void compare_features(const char *fa, const char *fb,
			     struct cmp_result *r)
{
	size_t na, nb, i = 0, j = 0;
	struct feat_line *a = feat_lines(fa, &na), *b = feat_lines(fb, &nb);

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : feat_cmp(&a[i], &b[j]);

		if (c < 0) {
			add_feature(r, &a[i], &a[i], NULL);
			i++;
		} else if (c > 0) {
			add_feature(r, &b[j], NULL, &b[j]);
			j++;
		} else {
			if (a[i].vlen != b[j].vlen ||
			    strncmp(a[i].value, b[j].value, a[i].vlen))
				add_feature(r, &a[i], &a[i], &b[j]);
			i++;
			j++;
		}
	}
	free(a);
	free(b);
}

size_t cmp_unexplained(const struct cmp_result *r)
{
	return r->count[CMP_UNEXPLAINED] +
	       (r->identity == CMP_UPSTREAM_SAME ? r->n_feat : 0);
}

void compare_kernels(const struct record_set *a, const struct record_set *b,
		     const char *fa, const char *fb, enum cmp_identity id,
		     struct cmp_result *out)
{
	size_t i = 0, j = 0;

	memset(out, 0, sizeof(*out));
	out->identity = id;
	compare_features(fa, fb, out);
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
			    CMP_RULE_NONE, a->v[i].col[REC_OBSERVED], "-",
			    "recorded on the first kernel only");
			i++;
		} else if (c > 0) {
			add(out, b->v[j].col[REC_ID], CMP_UNEXPLAINED,
			    CMP_RULE_NONE, "-", b->v[j].col[REC_OBSERVED],
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
		c->rule = CMP_RULE_KNOWN_CRASH;
		r->count[CMP_UNEXPLAINED]--;
		r->count[CMP_EXPLAINED]++;
		r->changes[CMP_UNEXPLAINED][c->change]--;
		r->changes[CMP_EXPLAINED][c->change]++;
		snprintf(
			c->reason, sizeof(c->reason),
			"known kernel bug %s brought the %s kernel down in this case",
			b->name, on_a ? "first" : "second");
	}
}

void compare_free(struct cmp_result *r)
{
	size_t i;

	for (i = 0; i < r->n_feat; i++) {
		free(r->feat[i].path);
		free(r->feat[i].a);
		free(r->feat[i].b);
	}
	free(r->feat);
	free(r->v);
	memset(r, 0, sizeof(*r));
}
