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
#include "kcidb_int.h"
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
		oom();
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
void kcidb_set_str(json_t *o, const char *key, const char *value)
{
	json_t *s = json_string(value ? value : "");

	/* Text that is not UTF-8 (a guest's): its other bytes as '?'. */
	if (!s && value) {
		char *c = xstrdup(value), *p;

		for (p = c; *p; p++)
			if ((unsigned char)*p >= 0x80)
				*p = '?';
		s = json_string(c);
		free(c);
	}
	if (!s || json_object_set_new(o, key, s))
		oom();
}

void kcidb_set_new(json_t *o, const char *key, json_t *value)
{
	if (!value || json_object_set_new(o, key, value))
		oom();
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

void kcidb_append(json_t *arr, json_t *v)
{
	if (json_array_append_new(arr, v))
		oom();
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
		oom();
	kcidb_set_str(c, "id", id);
	kcidb_set_str(c, "origin", k->origin);
	kcidb_set_str(c, "tree_name", source);
	if (b->patchset_hash)
		kcidb_set_str(c, "patchset_hash", b->patchset_hash);
	kcidb_set_new(c, "valid", json_true());
	kcidb_set_str(misc, "source", source);
	for (i = 0; i < b->n_patches; i++)
		kcidb_append(names, json_string(b->patches[i]));
	kcidb_set_new(misc, "patches", names);
	if (!b->patchset_hash)
		kcidb_set_str(
			misc, "patchset",
			"a patch could not be read: the build key stands for the patches");
	kcidb_set_new(c, "misc", misc);
	kcidb_append(k->checkouts, c);
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
			oom();
		kcidb_set_str(o, "id", id);
		kcidb_set_str(o, "origin", k->origin);
		kcidb_set_str(o, "checkout_id", checkout_id);
		kcidb_set_str(o, "architecture", "x86_64");
		if (strcmp(v[5], "-")) {
			char *name = xasprintf("lsmconf-%.12s", v[5]);

			kcidb_set_str(o, "config_name", name);
			free(name);
		} else if (!strncmp(v[0], "debian:", 7) ||
			   !strncmp(v[0], "deb:", 4)) {
			kcidb_set_str(o, "config_name", "debian");
		}
		/* It booted: a kernel that does not build leaves no boot. */
		kcidb_set_str(o, "status", "PASS");
		for (i = 0; i < 7; i++)
			kcidb_set_str(misc, keys[i], v[i]);
		kcidb_set_new(o, "misc", misc);
		kcidb_append(k->builds, o);
	}
	for (i = 0; i < 7; i++)
		free(v[i]);
	return id;
}

/* A test of @boot on @build_id at @path; its id hashes all three. */
json_t *kcidb_add_test(struct kcidb *k, const char *build_id, const char *boot,
		       const char *path, enum kcidb_status st, json_t *misc)
{
	char *ident = xasprintf("%s%s%s\n%s\n%s\n", k->run, *k->run ? "\n" : "",
				unorigined(build_id), boot, path);
	char *id = kcidb_id(k->origin, "test", ident);
	json_t *t = json_object();

	if (!t)
		oom();
	kcidb_set_str(t, "id", id);
	kcidb_set_str(t, "origin", k->origin);
	kcidb_set_str(t, "build_id", build_id);
	kcidb_set_str(t, "path", path);
	kcidb_set_str(t, "status", kcidb_status_name(st));
	if (!misc)
		misc = json_object();
	kcidb_set_str(misc, "boot", boot);
	kcidb_set_new(t, "misc", misc);
	kcidb_append(k->tests, t);
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
			oom();
		kcidb_set_str(o, "id", id);
		kcidb_set_str(o, "origin", k->origin);
		kcidb_set_str(o, "issue_id", issue);
		kcidb_set_new(o, "issue_version", json_integer(1));
		kcidb_set_str(o, "test_id", test_id(t));
		kcidb_set_new(o, "present", json_true());
		kcidb_append(k->incidents, o);
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
		oom();
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
			oom();
		kcidb_set_str(d, "op", r->col[REC_OP]);
		kcidb_set_str(d, "decision", decision_of(obs));
		if (strcmp(decision_of(obs), obs))
			kcidb_set_str(d, "errno", obs);
		kcidb_set_str(d, "expected", r->col[REC_EXPECTED]);
		kcidb_set_str(d, "observed", obs);
		kcidb_set_str(d, "subject", r->col[REC_SUBJECT]);
		kcidb_set_str(d, "object", r->col[REC_OBJECT]);
		kcidb_set_str(d, "class", r->col[REC_CLASS]);
		kcidb_set_str(d, "detail", r->col[REC_DETAIL]);
		kcidb_set_str(d, "abi", r->col[REC_ABI]);
		kcidb_set_str(d, "depends", r->col[REC_DEPENDS]);
		if (r->known) {
			kcidb_set_str(d, "known_bug", r->known);
			add_incident(k, t, r->known);
		}
		kcidb_append(list, d);
	}
	if (json_array_size(list))
		kcidb_set_new(misc, "decisions", list);
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
		oom();
	if (p->problem)
		kcidb_set_str(misc, "problem", p->problem);
	t = kcidb_add_test(k, build_id, b->dir_name, path, p->status, misc);
	for (i = 0; i < b->n_times; i++) {
		double t0, t1;

		if (!strcmp(b->time_names[i], p->name) &&
		    sscanf(b->times[i], "%lf %lf", &t0, &t1) == 2 && t1 >= t0)
			kcidb_set_new(t, "duration", json_real(t1 - t0));
	}
	for (i = 0; i < p->n; i++) {
		const struct kcidb_case *c = &p->cases[i];
		char *cpath = kcidb_path(path, c->name);
		int boot = c->crash_boot;
		char *bug, *excerpt;
		json_t *t;

		misc = json_object();
		if (!misc)
			oom();
		kcidb_set_str(misc, "case", c->name);
		if (c->reason)
			kcidb_set_str(misc, "skip_reason", c->reason);
		if (c->status == KCIDB_MISS)
			kcidb_set_str(
				misc, "lost",
				"planned, never reported: the guest died or its results were lost");
		excerpt =
			boot ? crash_excerpt(b, p->name, c->name, &boot) : NULL;
		if (boot)
			kcidb_set_new(misc, "crashed_boot", json_integer(boot));
		t = kcidb_add_test(k, build_id, b->dir_name, cpath, c->status,
				   misc);
		if (excerpt)
			kcidb_set_str(t, "log_excerpt", excerpt);
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
		oom();
	st = !verdict		      ? KCIDB_MISS :
	     !strcmp(verdict, "PASS") ? KCIDB_PASS :
					KCIDB_FAIL;
	kcidb_set_str(misc, "verdict", verdict ? verdict : "none recorded");
	kcidb_set_str(misc, "boots", boots);
	kcidb_set_str(misc, "accel", accel);
	kcidb_add_test(k, build_id, b->dir_name, path, st, misc);
	free(path);
	for (i = 0; i < n; i++) {
		const struct record *r = &b->recs->v[i];

		if (strcmp(r->col[REC_EXPECTED], r->col[REC_OBSERVED]))
			r->known ? known++ : wrong++;
	}
	misc = json_object();
	if (!misc)
		oom();
	kcidb_set_new(misc, "recorded", json_integer(n));
	kcidb_set_new(misc, "not_as_expected", json_integer(wrong));
	kcidb_set_new(misc, "known_bugs", json_integer(known));
	path = xasprintf("lsm.%s.decisions", lsm);
	kcidb_add_test(k, build_id, b->dir_name, path,
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
	char *checkout = NULL, *build = NULL, *started;
	struct kcidb_prog *progs = NULL;
	size_t n = 0, i, first;
	int ret = -1;

	if (!spec || !lsm) {
		err_set(e,
			"%s/kernel.txt has no %s line (not a boot's results)",
			b->dir_name, spec ? "suite" : "spec");
		goto out;
	}
	/* KCIDB's start_time is an RFC 3339 date-time, nothing else. */
	started = saved_value(b->kernel_txt, "started");
	if (started && !is_rfc3339(started)) {
		err_set(e,
			"%s/kernel.txt: started %.40s is not an RFC 3339 date-time (e.g. 2026-12-04T10:11:12Z)",
			b->dir_name, started);
		free(started);
		goto out;
	}
	free(started);
	if (kcidb_progs(b->ktap, b->ktap_len, &progs, &n, e)) {
		char *msg = xstrdup(e->msg);

		err_set(e, "%s/%s", b->dir_name, msg);
		free(msg);
		goto out;
	}
	checkout = add_checkout(k, b);
	build = add_build(k, b, checkout);
	first = json_array_size(k->tests);
	for (i = 0; i < n; i++)
		add_prog(k, b, build, lsm, &progs[i]);
	add_own_checks(k, b, build, lsm);
	/* The boot's start for each of its tests (results before it have none). */
	started = saved_value(b->kernel_txt, "started");
	for (i = first; started && i < json_array_size(k->tests); i++)
		kcidb_set_str(json_array_get(k->tests, i), "start_time",
			      started);
	free(started);
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

void kcidb_add_issues(struct kcidb *k, const struct known_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++) {
		const struct known_bug *b = &l->v[i];
		char *id = xasprintf("%s:%s", k->origin, b->name);
		json_t *o = json_object(), *misc = json_object(),
		       *culprit = json_object();

		if (!o || !misc || !culprit)
			oom();
		kcidb_set_str(o, "id", id);
		kcidb_set_str(o, "origin", k->origin);
		kcidb_set_new(o, "version", json_integer(1));
		kcidb_set_str(o, "report_subject", b->name);
		if (strcmp(b->report, "-"))
			kcidb_set_str(o, "report_url", b->report);
		kcidb_set_str(o, "comment", b->evidence);
		kcidb_set_new(culprit, "code", json_true());
		kcidb_set_new(o, "culprit", culprit);
		kcidb_set_str(misc, "kernels", b->kernels);
		kcidb_set_str(misc, "cases", b->cases);
		kcidb_set_str(misc, "observed", b->observed);
		kcidb_set_str(misc, "trace", b->trace);
		kcidb_set_str(misc, "function", b->function);
		kcidb_set_str(misc, "reproduce", b->reproduce);
		kcidb_set_new(o, "misc", misc);
		kcidb_append(k->issues, o);
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
			oom();
		kcidb_set_str(o, "id", id);
		kcidb_set_str(o, "origin", k->origin);
		kcidb_set_new(o, "version", json_integer(1));
		kcidb_set_str(o, "report_subject", strchr(id, ':') + 1);
		kcidb_set_str(
			o, "comment",
			"named by the run, not in the known kernel bugs list given");
		kcidb_append(k->issues, o);
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
		oom();
	return doc;
}
