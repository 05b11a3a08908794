// SPDX-License-Identifier: GPL-2.0
/*
 * A results directory as one KCIDB v5.3 submission (kcidb.h): kernel
 * sources are checkouts, kernels builds, programs, cases and lsmconf's
 * own checks tests, known kernel bugs issues with their incidents. Every
 * id hashes identities (source, patches, kernel, boot, path), never a
 * time, so converting the same results again gives the same ids.
 */
#define _GNU_SOURCE
#include "kcidb.h"
#include "saved.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_names[KCIDB_N_STATUS] = {
	"PASS", "FAIL", "SKIP", "MISS", "ERROR", "DONE",
};

const char *kcidb_status_name(enum kcidb_status s)
{
	return s < KCIDB_N_STATUS ? status_names[s] : "ERROR";
}

bool kcidb_origin_ok(const char *origin)
{
	return *origin &&
	       strspn(origin, "abcdefghijklmnopqrstuvwxyz0123456789_") ==
		       strlen(origin);
}

char *kcidb_path(const char *prefix, const char *name)
{
	struct sbuf sb = { 0 };
	const char *s;
	bool seg = false; /* inside a segment */

	sbuf_printf(&sb, "%s", prefix);
	for (s = name; *s; s++) {
		char c = *s;

		if (c == '.' || c == '/' || c == ':') {
			seg = false;
			continue;
		}
		if (!seg && sb.len)
			sbuf_add(&sb, ".", 1);
		seg = true;
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '_' || c == '-'))
			c = '_';
		sbuf_add(&sb, &c, 1);
	}
	return sb.buf ? sb.buf : xstrdup("");
}

char *kcidb_id(const char *origin, const char *kind, const char *identity)
{
	char hex[65];

	sha256_buf(identity, strlen(identity), hex);
	return xasprintf("%s:%s-%.20s", origin, kind, hex);
}

void kcidb_patchset_hash(char *const *patch_sha256, size_t n, char hex[65])
{
	struct sbuf sb = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		sbuf_printf(&sb, "%s\n", patch_sha256[i]);
	sha256_buf(sb.buf ? sb.buf : "", sb.len, hex);
	sbuf_free(&sb);
}

int kcidb_init(struct kcidb *k, const char *origin, const char *run,
	       struct err *e)
{
	if (!kcidb_origin_ok(origin))
		return err_set(e,
			       "origin '%s' is not a KCIDB origin ([a-z0-9_]+)",
			       origin);
	*k = (struct kcidb){
		.origin = xstrdup(origin),
		.run = xstrdup(run ? run : ""),
		.checkouts = json_array(),
		.builds = json_array(),
		.tests = json_array(),
		.issues = json_array(),
		.incidents = json_array(),
	};
	if (!k->checkouts || !k->builds || !k->tests || !k->issues ||
	    !k->incidents)
		die("out of memory");
	return 0;
}

void kcidb_free(struct kcidb *k)
{
	json_decref(k->checkouts);
	json_decref(k->builds);
	json_decref(k->tests);
	json_decref(k->issues);
	json_decref(k->incidents);
	free(k->origin);
	free(k->run);
	*k = (struct kcidb){ 0 };
}

/* Sets @key to a string, never failing quietly. */
static void set_str(json_t *o, const char *key, const char *value)
{
	if (json_object_set_new(o, key, json_string(value ? value : "")))
		die("out of memory (or text that is not UTF-8 in %s)", key);
}

static void set_new(json_t *o, const char *key, json_t *value)
{
	if (!value || json_object_set_new(o, key, value))
		die("out of memory");
}

static json_t *find_id(json_t *arr, const char *id)
{
	size_t i;
	json_t *v;

	json_array_foreach(
		arr, i,
		v) if (!strcmp(json_string_value(json_object_get(v, "id")),
			       id)) return v;
	return NULL;
}

static void append(json_t *arr, json_t *v)
{
	if (json_array_append_new(arr, v))
		die("out of memory");
}

/* An id without its origin: what other ids hash, so origins only prefix. */
static const char *unorigined(const char *id)
{
	return strchr(id, ':') + 1;
}

/* kernel.txt's @key, or "-" when absent. */
static char *kval(const char *kernel_txt, const char *key)
{
	char *v = saved_value(kernel_txt, key);

	return v ? v : xstrdup("-");
}

/* A kernel's source and patches: its checkout id, added once. */
static char *add_checkout(struct kcidb *k, const struct kcidb_boot *b)
{
	char *source = kval(b->kernel_txt, "source");
	char *package = kval(b->kernel_txt, "package");
	/* Without the patches' text, the build key stands for them. */
	char *ident = xasprintf("source %s\npatchset %s\n", source,
				b->patchset_hash ? b->patchset_hash : package);
	char *id = kcidb_id(k->origin, "checkout", ident);
	json_t *c, *misc, *names;
	size_t i;

	free(ident);
	if (find_id(k->checkouts, id))
		goto out;
	c = json_object();
	misc = json_object();
	names = json_array();
	if (!c || !misc || !names)
		die("out of memory");
	set_str(c, "id", id);
	set_str(c, "origin", k->origin);
	set_str(c, "tree_name", source);
	if (b->patchset_hash)
		set_str(c, "patchset_hash", b->patchset_hash);
	set_new(c, "valid", json_true());
	set_str(misc, "source", source);
	for (i = 0; i < b->n_patches; i++)
		append(names, json_string(b->patches[i]));
	set_new(misc, "patches", names);
	if (!b->patchset_hash)
		set_str(misc, "patchset",
			"a patch could not be read: the build key stands for the patches");
	set_new(c, "misc", misc);
	append(k->checkouts, c);
out:
	free(source);
	free(package);
	return id;
}

/* The kernel itself: its build id, added once. */
static char *add_build(struct kcidb *k, const struct kcidb_boot *b,
		       const char *checkout_id)
{
	static const char *const keys[] = { "spec",	    "package",
					    "version",	    "release",
					    "image_sha256", "config_sha256",
					    "known_name" };
	char *v[7], *ident, *id;
	json_t *o, *misc;
	size_t i;

	for (i = 0; i < 7; i++)
		v[i] = kval(b->kernel_txt, keys[i]);
	/* The kernel, not the spec that named it (debian:sid or its version). */
	ident = xasprintf("%s\n%s\n%s\n%s\n%s\n%s\n", unorigined(checkout_id),
			  v[1], v[2], v[3], v[4], v[5]);
	id = kcidb_id(k->origin, "build", ident);
	free(ident);
	if (!find_id(k->builds, id)) {
		o = json_object();
		misc = json_object();
		if (!o || !misc)
			die("out of memory");
		set_str(o, "id", id);
		set_str(o, "origin", k->origin);
		set_str(o, "checkout_id", checkout_id);
		set_str(o, "architecture", "x86_64");
		if (strcmp(v[5], "-")) {
			char *name = xasprintf("lsmconf-%.12s", v[5]);

			set_str(o, "config_name", name);
			free(name);
		} else if (!strncmp(v[0], "debian:", 7) ||
			   !strncmp(v[0], "deb:", 4)) {
			set_str(o, "config_name", "debian");
		}
		/* It booted: a kernel that does not build leaves no boot. */
		set_str(o, "status", "PASS");
		for (i = 0; i < 7; i++)
			set_str(misc, keys[i], v[i]);
		set_new(o, "misc", misc);
		append(k->builds, o);
	}
	for (i = 0; i < 7; i++)
		free(v[i]);
	return id;
}

/* A test of @boot on @build_id at @path; its id hashes all three. */
static json_t *add_test(struct kcidb *k, const char *build_id, const char *boot,
			const char *path, enum kcidb_status st, json_t *misc)
{
	char *ident = xasprintf("%s%s%s\n%s\n%s\n", k->run, *k->run ? "\n" : "",
				unorigined(build_id), boot, path);
	char *id = kcidb_id(k->origin, "test", ident);
	json_t *t = json_object();

	if (!t)
		die("out of memory");
	set_str(t, "id", id);
	set_str(t, "origin", k->origin);
	set_str(t, "build_id", build_id);
	set_str(t, "path", path);
	set_str(t, "status", kcidb_status_name(st));
	if (!misc)
		misc = json_object();
	set_str(misc, "boot", boot);
	set_new(t, "misc", misc);
	append(k->tests, t);
	k->count[st]++;
	free(ident);
	free(id);
	return t;
}

static const char *test_id(json_t *t)
{
	return json_string_value(json_object_get(t, "id"));
}

/* Known kernel bug @bug explains test @t: one incident. */
static void add_incident(struct kcidb *k, json_t *t, const char *bug)
{
	char *issue = xasprintf("%s:%s", k->origin, bug);
	char *ident = xasprintf("%s\n%s\n", issue, test_id(t));
	char *id = kcidb_id(k->origin, "incident", ident);
	json_t *o;

	if (!find_id(k->incidents, id)) {
		o = json_object();
		if (!o)
			die("out of memory");
		set_str(o, "id", id);
		set_str(o, "origin", k->origin);
		set_str(o, "issue_id", issue);
		set_new(o, "issue_version", json_integer(1));
		set_str(o, "test_id", test_id(t));
		set_new(o, "present", json_true());
		append(k->incidents, o);
	}
	free(issue);
	free(ident);
	free(id);
}

/* "allow", "not-run", or "deny" for an errno name. */
static const char *decision_of(const char *observed)
{
	if (!strcmp(observed, "allow") || !strcmp(observed, "not-run"))
		return observed;
	return "deny";
}

/*
 * The decisions case @prog/@name recorded, into @misc, and the known bugs
 * they show (each an incident of @t).
 */
static void add_decisions(struct kcidb *k, json_t *t, json_t *misc,
			  const struct record_set *recs, const char *prog,
			  const char *name)
{
	char *prefix = xasprintf("%s/%s/", prog, name);
	size_t plen = strlen(prefix), lo = 0, hi = recs ? recs->n : 0, i;
	json_t *list = json_array();

	if (!list)
		die("out of memory");
	/* records_sort() sorted them by id: the case's are one run. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(recs->v[mid].col[REC_ID], prefix) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; recs && i < recs->n &&
		     !strncmp(recs->v[i].col[REC_ID], prefix, plen);
	     i++) {
		const struct record *r = &recs->v[i];
		const char *obs = r->col[REC_OBSERVED];
		json_t *d = json_object();

		if (!d)
			die("out of memory");
		set_str(d, "op", r->col[REC_OP]);
		set_str(d, "decision", decision_of(obs));
		if (strcmp(decision_of(obs), obs))
			set_str(d, "errno", obs);
		set_str(d, "expected", r->col[REC_EXPECTED]);
		set_str(d, "observed", obs);
		set_str(d, "subject", r->col[REC_SUBJECT]);
		set_str(d, "object", r->col[REC_OBJECT]);
		set_str(d, "class", r->col[REC_CLASS]);
		set_str(d, "detail", r->col[REC_DETAIL]);
		set_str(d, "abi", r->col[REC_ABI]);
		set_str(d, "depends", r->col[REC_DEPENDS]);
		if (r->known) {
			set_str(d, "known_bug", r->known);
			add_incident(k, t, r->known);
		}
		append(list, d);
	}
	if (json_array_size(list))
		set_new(misc, "decisions", list);
	else
		json_decref(list);
	free(prefix);
}

/* The bug known-crashes.tsv names for case @prog/@name ("CASE\tBUG\t..."). */
static char *crash_bug(const char *crashes, const char *prog, const char *name)
{
	char *want = xasprintf("%s/%s\t", prog, name), *bug = NULL;
	const char *p = crashes;
	size_t n = strlen(want);

	while (p && *p && !bug) {
		if (!strncmp(p, want, n))
			bug = xstrndup(p + n, strcspn(p + n, "\t\n"));
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	free(want);
	return bug;
}

/*
 * The crash-N.txt of case @prog/@name ("boot N ended in test PROG, case
 * NAME" on its first line) as a log excerpt: at most the schema's 16384
 * characters, bytes outside printable ASCII as '?' (JSON wants UTF-8, a
 * console gives any byte). Sets *@boot to N. NULL when there is none.
 */
static char *crash_excerpt(const struct kcidb_boot *b, const char *prog,
			   const char *name, int *boot)
{
	char *want = xasprintf(" ended in test %s, case %s\n", prog, name);
	char *out = NULL;
	size_t i, j;

	for (i = 0; i < b->n_crashes && !out; i++) {
		const char *t = b->crashes[i], *hit = strstr(t, want);

		if (!hit || memchr(t, '\n', hit - t) ||
		    sscanf(t, "boot %d", boot) != 1)
			continue;
		out = xstrndup(t, 16384);
		for (j = 0; out[j]; j++)
			if ((out[j] < ' ' || out[j] > '~') && out[j] != '\n' &&
			    out[j] != '\t')
				out[j] = '?';
	}
	free(want);
	return out;
}

static void add_prog(struct kcidb *k, const struct kcidb_boot *b,
		     const char *build_id, const char *lsm,
		     const struct kcidb_prog *p)
{
	char *prefix = xasprintf("kselftest.%s", lsm);
	char *path = kcidb_path(prefix, p->name);
	json_t *misc = json_object(), *t;
	size_t i;

	if (!misc)
		die("out of memory");
	if (p->problem)
		set_str(misc, "problem", p->problem);
	t = add_test(k, build_id, b->dir_name, path, p->status, misc);
	for (i = 0; i < b->n_times; i++) {
		double t0, t1;

		if (!strcmp(b->time_names[i], p->name) &&
		    sscanf(b->times[i], "%lf %lf", &t0, &t1) == 2 && t1 >= t0)
			set_new(t, "duration", json_real(t1 - t0));
	}
	for (i = 0; i < p->n; i++) {
		const struct kcidb_case *c = &p->cases[i];
		char *cpath = kcidb_path(path, c->name);
		int boot = c->crash_boot;
		char *bug, *excerpt;
		json_t *t;

		misc = json_object();
		if (!misc)
			die("out of memory");
		set_str(misc, "case", c->name);
		if (c->reason)
			set_str(misc, "skip_reason", c->reason);
		if (c->status == KCIDB_MISS)
			set_str(misc, "lost",
				"planned, never reported: the guest died or its results were lost");
		excerpt =
			boot ? crash_excerpt(b, p->name, c->name, &boot) : NULL;
		if (boot)
			set_new(misc, "crashed_boot", json_integer(boot));
		t = add_test(k, build_id, b->dir_name, cpath, c->status, misc);
		if (excerpt)
			set_str(t, "log_excerpt", excerpt);
		free(excerpt);
		add_decisions(k, t, misc, b->recs, p->name, c->name);
		bug = c->crash_boot ?
			      crash_bug(b->known_crashes, p->name, c->name) :
			      NULL;
		if (bug)
			add_incident(k, t, bug);
		free(bug);
		free(cpath);
	}
	free(path);
	free(prefix);
}

/* lsmconf's own checks of a boot: its verdict and its decisions. */
static void add_own_checks(struct kcidb *k, const struct kcidb_boot *b,
			   const char *build_id, const char *lsm)
{
	char *verdict = saved_value(b->kernel_txt, "verdict");
	char *boots = kval(b->kernel_txt, "boots");
	char *accel = kval(b->kernel_txt, "accel");
	char *path = xasprintf("lsm.%s.boot", lsm);
	size_t i, wrong = 0, known = 0, n = b->recs ? b->recs->n : 0;
	json_t *misc = json_object();
	enum kcidb_status st;

	if (!misc)
		die("out of memory");
	st = !verdict		      ? KCIDB_MISS :
	     !strcmp(verdict, "PASS") ? KCIDB_PASS :
					KCIDB_FAIL;
	set_str(misc, "verdict", verdict ? verdict : "none recorded");
	set_str(misc, "boots", boots);
	set_str(misc, "accel", accel);
	add_test(k, build_id, b->dir_name, path, st, misc);
	free(path);
	for (i = 0; i < n; i++) {
		const struct record *r = &b->recs->v[i];

		if (strcmp(r->col[REC_EXPECTED], r->col[REC_OBSERVED]))
			r->known ? known++ : wrong++;
	}
	misc = json_object();
	if (!misc)
		die("out of memory");
	set_new(misc, "recorded", json_integer(n));
	set_new(misc, "not_as_expected", json_integer(wrong));
	set_new(misc, "known_bugs", json_integer(known));
	path = xasprintf("lsm.%s.decisions", lsm);
	add_test(k, build_id, b->dir_name, path,
		 !n    ? KCIDB_SKIP :
		 wrong ? KCIDB_FAIL :
			 KCIDB_PASS,
		 misc);
	free(path);
	free(verdict);
	free(boots);
	free(accel);
}

int kcidb_add_boot(struct kcidb *k, const struct kcidb_boot *b, struct err *e)
{
	char *spec = saved_value(b->kernel_txt, "spec");
	char *lsm = saved_value(b->kernel_txt, "suite");
	char *checkout = NULL, *build = NULL;
	struct kcidb_prog *progs = NULL;
	size_t n = 0, i;
	int ret = -1;

	if (!spec || !lsm) {
		err_set(e,
			"%s/kernel.txt has no %s line (not a boot's results)",
			b->dir_name, spec ? "suite" : "spec");
		goto out;
	}
	if (kcidb_progs(b->ktap, b->ktap_len, &progs, &n, e)) {
		char *msg = xstrdup(e->msg);

		err_set(e, "%s/%s", b->dir_name, msg);
		free(msg);
		goto out;
	}
	checkout = add_checkout(k, b);
	build = add_build(k, b, checkout);
	for (i = 0; i < n; i++)
		add_prog(k, b, build, lsm, &progs[i]);
	add_own_checks(k, b, build, lsm);
	ret = 0;
out:
	kcidb_progs_free(progs, n);
	free(checkout);
	free(build);
	free(spec);
	free(lsm);
	return ret;
}

const char *kcidb_boot_build(const struct kcidb *k, const char *dir_name)
{
	size_t i;
	json_t *t;

	json_array_foreach(k->tests, i, t)
	{
		const char *boot = json_string_value(
			json_object_get(json_object_get(t, "misc"), "boot"));

		if (boot && !strcmp(boot, dir_name))
			return json_string_value(
				json_object_get(t, "build_id"));
	}
	return NULL;
}

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
				die("out of memory");
			set_str(misc, "role", roles[i]);
			set_new(misc, "ns_per_msg", json_real(ns));
			for (j = 0; j < sizeof(extra) / sizeof(*extra); j++)
				set_new(misc, extra[j],
					json_real(strtod(
						tsv_get(&t, r, extra[j]) ?: "0",
						NULL)));
			set_str(misc, "significant",
				tsv_get(&t, r, "significant"));
			path = kcidb_path("lsm.bench", tsv_get(&t, r, "point"));
			test = add_test(k, build, dirs[i], path, KCIDB_DONE,
					misc);
			set_new(num, "value", json_real(ns * 1e-9));
			set_str(num, "unit", "s/msg");
			set_str(num, "prefix", "metric");
			set_new(test, "number", num);
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
		die("out of memory");
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

			append(list, json_string(c));
			free(c);
		}
	}
	set_str(misc, "a", t.head[2]);
	set_str(misc, "b", t.head[3]);
	set_str(misc, "a_build_id", build[0]);
	set_new(misc, "explained", json_integer(count[0]));
	set_new(misc, "unexplained", json_integer(count[1]));
	set_new(misc, "features_as_evidence", json_integer(count[2]));
	set_new(misc, "unexplained_cases", list);
	add_test(k, build[1], "compare", "lsm.compare",
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
	size_t r, i, j;

	if (tsv_parse(mutants_tsv, "mutants.tsv", &t, e))
		return -1;
	if (tsv_need(&t, "mutants.tsv", cols, e)) {
		tsv_free(&t);
		return -1;
	}
	for (r = 0; r < t.n; r++) {
		const char *name = tsv_get(&t, r, "mutant");
		const char *build = NULL, *dir = NULL;
		json_t *misc;
		char *path;

		for (i = 0; i < n && !build; i++)
			if (!strcmp(names[i], name)) {
				dir = dirs[i];
				build = kcidb_boot_build(k, dir);
			}
		/* A stillborn mutant never booted: no build to attach it to. */
		if (!build)
			continue;
		misc = json_object();
		if (!misc)
			die("out of memory");
		for (j = 0; j < sizeof(keep) / sizeof(*keep); j++)
			if (tsv_get(&t, r, keep[j]))
				set_str(misc, keep[j], tsv_get(&t, r, keep[j]));
		path = kcidb_path("lsm.mutate", name);
		add_test(k, build, dir, path,
			 mutant_status(tsv_get(&t, r, "verdict")), misc);
		free(path);
	}
	tsv_free(&t);
	return 0;
}

void kcidb_add_issues(struct kcidb *k, const struct known_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct known_bug *b = &l->v[i];
		char *id = xasprintf("%s:%s", k->origin, b->name);
		json_t *o = json_object(), *misc = json_object(),
		       *culprit = json_object();

		if (!o || !misc || !culprit)
			die("out of memory");
		set_str(o, "id", id);
		set_str(o, "origin", k->origin);
		set_new(o, "version", json_integer(1));
		set_str(o, "report_subject", b->name);
		set_str(o, "comment", b->evidence);
		set_new(culprit, "code", json_true());
		set_new(o, "culprit", culprit);
		set_str(misc, "kernels", b->kernels);
		set_str(misc, "cases", b->cases);
		set_str(misc, "observed", b->observed);
		set_str(misc, "trace", b->trace);
		set_str(misc, "function", b->function);
		set_str(misc, "reproduce", b->reproduce);
		set_new(o, "misc", misc);
		append(k->issues, o);
		free(id);
	}
	/* A bug the run named that the list no longer has: still an issue. */
	for (i = 0; i < json_array_size(k->incidents); i++) {
		const char *id = json_string_value(json_object_get(
			json_array_get(k->incidents, i), "issue_id"));
		json_t *o;

		if (find_id(k->issues, id))
			continue;
		o = json_object();
		if (!o)
			die("out of memory");
		set_str(o, "id", id);
		set_str(o, "origin", k->origin);
		set_new(o, "version", json_integer(1));
		set_str(o, "report_subject", strchr(id, ':') + 1);
		set_str(o, "comment",
			"named by the run, not in the known kernel bugs list given");
		append(k->issues, o);
	}
}

json_t *kcidb_doc(const struct kcidb *k)
{
	json_t *doc =
		json_pack("{s:{s:i,s:i},s:O,s:O,s:O,s:O,s:O}", "version",
			  "major", 5, "minor", 3, "checkouts", k->checkouts,
			  "builds", k->builds, "tests", k->tests, "issues",
			  k->issues, "incidents", k->incidents);

	if (!doc)
		die("out of memory");
	return doc;
}
