// SPDX-License-Identifier: GPL-2.0
/*
 * The runs' own verdicts in a KCIDB submission (kcidb.h): a bench run's
 * points (summary.tsv), a mutate run's mutants (mutants.tsv), a compare
 * run's comparison (compare.tsv), a series run's patches (series.tsv),
 * each a test on the build of the boot it belongs to.
 */
#define _GNU_SOURCE
#include "kcidb.h"
#include "kcidb_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A TSV with a header: its rows, each split into its fields. */
struct tsv {
	char **head;
	size_t n_head;
	char ***rows;
	size_t *n_fields, n;
};

static char **split_tabs(const char *line, size_t *n)
{
	char **v = NULL;
	const char *p = line;

	*n = 0;
	for (;;) {
		size_t len = strcspn(p, "\t");

		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = xstrndup(p, len);
		if (p[len] != '\t')
			return v;
		p += len + 1;
	}
}

static void tsv_free(struct tsv *t)
{
	size_t i, j;

	for (i = 0; i < t->n; i++) {
		for (j = 0; j < t->n_fields[i]; j++)
			free(t->rows[i][j]);
		free(t->rows[i]);
	}
	for (j = 0; j < t->n_head; j++)
		free(t->head[j]);
	free(t->head);
	free(t->rows);
	free(t->n_fields);
}

/* Every row must have the header's fields: a cut file is an error. */
static int tsv_parse(const char *text, const char *what, struct tsv *t,
		     struct err *e)
{
	const char *p = text;
	bool cut = false;
	char *line;

	*t = (struct tsv){ 0 };
	line = next_line(&p, &cut);
	if (!line)
		return err_set(e, "%s is empty%s", what,
			       cut ? " or cut short" : "");
	t->head = split_tabs(line, &t->n_head);
	free(line);
	while ((line = next_line(&p, &cut))) {
		size_t nf;
		char **f = split_tabs(line, &nf);

		t->rows = xrealloc(t->rows, (t->n + 1) * sizeof(*t->rows));
		t->n_fields = xrealloc(t->n_fields,
				       (t->n + 1) * sizeof(*t->n_fields));
		t->rows[t->n] = f;
		t->n_fields[t->n++] = nf;
		free(line);
		if (nf != t->n_head) {
			tsv_free(t);
			return err_set(
				e,
				"%s: line %zu has %zu fields, its header %zu",
				what, t->n + 1, nf, t->n_head);
		}
	}
	if (cut) {
		tsv_free(t);
		return err_set(e, "%s is cut short (its last line has no end)",
			       what);
	}
	return 0;
}

/* Row @r's field of column @name, or NULL. */
static const char *tsv_get(const struct tsv *t, size_t r, const char *name)
{
	size_t j;

	for (j = 0; j < t->n_head; j++)
		if (!strcmp(t->head[j], name))
			return t->rows[r][j];
	return NULL;
}

static int tsv_need(const struct tsv *t, const char *what,
		    const char *const *cols, struct err *e)
{
	for (; *cols; cols++)
		if (!tsv_get(t, 0, *cols) && t->n)
			return err_set(e, "%s has no column %s", what, *cols);
	return 0;
}

/*
 * The build of the first boot of @name (boot @dirs[i] is @names[i]'s) that
 * has one, its boot in @dir and a new @misc for its test; NULL, with
 * nothing opened, when none has (a stillborn mutant, a patch never built).
 */
static const char *named_build(const struct kcidb *k, const char *name,
			       char *const *names, char *const *dirs, size_t n,
			       const char **dir, json_t **misc)
{
	const char *build = NULL;
	size_t i;

	for (i = 0; i < n && !build; i++)
		if (!strcmp(names[i], name)) {
			*dir = dirs[i];
			build = kcidb_boot_build(k, *dir);
		}
	if (!build)
		return NULL;
	*misc = json_object();
	if (!*misc)
		oom();
	return build;
}

int kcidb_add_bench(struct kcidb *k, const char *summary_tsv,
		    char *const *roles, char *const *dirs, size_t n,
		    struct err *e)
{
	static const char *const cols[] = { "point", "change", "ratio",
					    "ci_lo", "ci_hi",  "significant",
					    NULL };
	static const char *const extra[] = { "max_cv", "drift", "change",
					     "ratio",  "ci_lo", "ci_hi" };
	struct tsv t;
	size_t r, i, j;

	if (tsv_parse(summary_tsv, "summary.tsv", &t, e))
		return -1;
	if (tsv_need(&t, "summary.tsv", cols, e)) {
		tsv_free(&t);
		return -1;
	}
	for (r = 0; r < t.n; r++)
		for (i = 0; i < n; i++) {
			const char *v = tsv_get(&t, r, roles[i]);
			const char *build = kcidb_boot_build(k, dirs[i]);
			char *path, *end;
			double ns;
			json_t *misc, *num, *test;

			if (!v || !build)
				continue;
			ns = strtod(v, &end);
			if (end == v || *end) {
				tsv_free(&t);
				return err_set(
					e,
					"summary.tsv: point %s: %s is not a number",
					t.rows[r][0], v);
			}
			misc = json_object();
			num = json_object();
			if (!misc || !num)
				oom();
			kcidb_set_str(misc, "role", roles[i]);
			kcidb_set_new(misc, "ns_per_msg", json_real(ns));
			for (j = 0; j < sizeof(extra) / sizeof(*extra); j++)
				kcidb_set_new(
					misc, extra[j],
					json_real(strtod(
						tsv_get(&t, r, extra[j]) ?: "0",
						NULL)));
			kcidb_set_str(misc, "significant",
				      tsv_get(&t, r, "significant"));
			path = kcidb_path("lsm.bench", tsv_get(&t, r, "point"));
			test = kcidb_add_test(k, build, dirs[i], path,
					      KCIDB_DONE, misc);
			kcidb_set_new(num, "value", json_real(ns * 1e-9));
			kcidb_set_str(num, "unit", "s/msg");
			kcidb_set_str(num, "prefix", "metric");
			kcidb_set_new(test, "number", num);
			free(path);
		}
	tsv_free(&t);
	return 0;
}

int kcidb_add_compare(struct kcidb *k, const char *compare_tsv,
		      char *const *specs, char *const *dirs, size_t n,
		      struct err *e)
{
	const char *build[2] = { NULL, NULL };
	size_t count[3] = { 0 }, r, i, side;
	json_t *misc, *list;
	struct tsv t;

	if (tsv_parse(compare_tsv, "compare.tsv", &t, e))
		return -1;
	if (t.n_head < 7 || strcmp(t.head[0], "id") ||
	    strcmp(t.head[1], "class")) {
		tsv_free(&t);
		return err_set(
			e, "compare.tsv has no header id, class, A, B, ...");
	}
	/* A is the first boot of its spec, B the last of its (A may be B). */
	for (side = 0; side < 2; side++)
		for (i = 0; i < n; i++)
			if (!strcmp(specs[i], t.head[2 + side]) &&
			    (side || !build[0]))
				build[side] = kcidb_boot_build(k, dirs[i]);
	if (!build[0] || !build[1]) {
		err_set(e, "compare.tsv: no boot of %s in the run",
			build[0] ? t.head[3] : t.head[2]);
		tsv_free(&t);
		return -1;
	}
	misc = json_object();
	list = json_array();
	if (!misc || !list)
		oom();
	for (r = 0; r < t.n; r++) {
		const char *cls = t.rows[r][1];

		if (!strcmp(cls, "explained"))
			count[0]++;
		else if (!strcmp(cls, "unexplained"))
			count[1]++;
		else if (!strcmp(cls, "evidence"))
			count[2]++;
		if (!strcmp(cls, "unexplained")) {
			char *c = xasprintf("%s: %s -> %s", t.rows[r][0],
					    t.rows[r][2], t.rows[r][3]);

			kcidb_append(list, json_string(c));
			free(c);
		}
	}
	kcidb_set_str(misc, "a", t.head[2]);
	kcidb_set_str(misc, "b", t.head[3]);
	kcidb_set_str(misc, "a_build_id", build[0]);
	kcidb_set_new(misc, "explained", json_integer(count[0]));
	kcidb_set_new(misc, "unexplained", json_integer(count[1]));
	kcidb_set_new(misc, "features_as_evidence", json_integer(count[2]));
	kcidb_set_new(misc, "unexplained_cases", list);
	kcidb_add_test(k, build[1], "compare", "lsm.compare",
		       count[1] ? KCIDB_FAIL : KCIDB_PASS, misc);
	tsv_free(&t);
	return 0;
}

static enum kcidb_status mutant_status(const char *verdict)
{
	if (!strcmp(verdict, "killed"))
		return KCIDB_PASS;
	if (!strcmp(verdict, "survived"))
		return KCIDB_FAIL;
	if (!strcmp(verdict, "inconclusive"))
		return KCIDB_MISS;
	/* Its claim checked, it is out of the score: not a pass. */
	if (!strcmp(verdict, "equivalent"))
		return KCIDB_SKIP;
	return KCIDB_ERROR;
}

int kcidb_add_mutants(struct kcidb *k, const char *mutants_tsv,
		      char *const *names, char *const *dirs, size_t n,
		      struct err *e)
{
	static const char *const cols[] = { "mutant", "verdict", "description",
					    NULL };
	static const char *const keep[] = { "verdict",	   "killed_by_way",
					    "decisions",   "failures",
					    "description", "why" };
	struct tsv t;
	size_t r, j;

	if (tsv_parse(mutants_tsv, "mutants.tsv", &t, e))
		return -1;
	if (tsv_need(&t, "mutants.tsv", cols, e)) {
		tsv_free(&t);
		return -1;
	}
	for (r = 0; r < t.n; r++) {
		const char *name = tsv_get(&t, r, "mutant");
		const char *build, *dir = NULL;
		json_t *misc;
		char *path;

		/* A stillborn mutant never booted: no build to attach it to. */
		build = named_build(k, name, names, dirs, n, &dir, &misc);
		if (!build)
			continue;
		for (j = 0; j < sizeof(keep) / sizeof(*keep); j++)
			if (tsv_get(&t, r, keep[j]))
				kcidb_set_str(misc, keep[j],
					      tsv_get(&t, r, keep[j]));
		path = kcidb_path("lsm.mutate", name);
		kcidb_add_test(k, build, dir, path,
			       mutant_status(tsv_get(&t, r, "verdict")), misc);
		free(path);
	}
	tsv_free(&t);
	return 0;
}

int kcidb_add_series(struct kcidb *k, const char *series_tsv,
		     char *const *specs, char *const *dirs, size_t n,
		     struct err *e)
{
	static const char *const cols[] = { "patch",
					    "subject",
					    "applies",
					    "decisions_changed",
					    "cost_significant",
					    "spec",
					    NULL };
	struct tsv t;
	size_t r, j;

	if (tsv_parse(series_tsv, "series.tsv", &t, e))
		return -1;
	if (tsv_need(&t, "series.tsv", cols, e)) {
		tsv_free(&t);
		return -1;
	}
	for (r = 0; r < t.n; r++) {
		const char *spec = tsv_get(&t, r, "spec");
		const char *build, *dir = NULL;
		enum kcidb_status st;
		json_t *misc;

		/* A patch the bisection never built has no kernel. */
		build = named_build(k, spec, specs, dirs, n, &dir, &misc);
		if (!build)
			continue;
		for (j = 0; j < t.n_head; j++)
			if (strcmp(t.head[j], "spec"))
				kcidb_set_str(misc, t.head[j], t.rows[r][j]);
		/* A decision or a significant cost changed: a finding. */
		st = strcmp(tsv_get(&t, r, "applies"), "yes") ? KCIDB_ERROR :
		     strcmp(tsv_get(&t, r, "decisions_changed"), "0") ||
				     !strcmp(tsv_get(&t, r, "cost_significant"),
					     "yes") ?
								KCIDB_FAIL :
								KCIDB_PASS;
		kcidb_add_test(k, build, dir, "lsm.series", st, misc);
	}
	tsv_free(&t);
	return 0;
}
