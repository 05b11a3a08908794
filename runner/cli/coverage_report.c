// SPDX-License-Identifier: GPL-2.0
/*
 * A coverage build's counters made into lcov's reports: each boot's gcov
 * counters (coverage/boot-N/ of each LSM's results, the guest's debugfs
 * tree) beside the build's notes files, captured by lcov with the gcov of
 * the compiler that built the kernel, the boots added up, genhtml's HTML,
 * and coverage.tsv: line, branch and function coverage per file.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "coverage.h"
#include "analysis/analysis.h"
#include "provision/provision.h"
#include "results/results.h"
#include "lib/lib.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LCOV_TIMEOUT_S 600

/* The capture's files: each counter file copied, its notes file linked. */
static const char *walk_from, *walk_objdir, *walk_to;
static int walk_copied, walk_failed;

static int take_counter(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	size_t len = strlen(path);
	char *rel, *dir, *to, *notes, *link_to;

	(void)st;
	(void)ftw;
	if (type != FTW_F || len < 5 || strcmp(path + len - 5, ".gcda"))
		return 0;
	/* "/security/apparmor/lsm" */
	rel = xstrndup(path + strlen(walk_from),
		       len - strlen(walk_from) - strlen(".gcda"));
	to = xasprintf("%s%s.gcda", walk_to, rel);
	dir = xstrndup(to, strrchr(to, '/') - to);
	notes = xasprintf("%s%s.gcno", walk_objdir, rel);
	link_to = xasprintf("%s%s.gcno", walk_to, rel);
	if (mkdir_p(dir) || !path_exists(notes) || copy_file(path, to, 0644) ||
	    symlink(notes, link_to))
		walk_failed++;
	else
		walk_copied++;
	free(rel);
	free(dir);
	free(to);
	free(notes);
	free(link_to);
	return 0;
}

static int run_lcov(char *const argv[], const char *log, struct err *e)
{
	char status[128];
	int fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int ret;

	if (fd < 0)
		return err_set(e, "cannot write %s: %s", log, strerror(errno));
	ret = spawn_wait(argv, &(struct spawn_opts){
				       .stdin_fd = -1,
				       .stdout_fd = fd,
				       .stderr_fd = fd,
				       .timeout_s = LCOV_TIMEOUT_S,
			       });
	close(fd);
	if (ret)
		return err_set(
			e, "%s failed (%s); its output is in %s", argv[0],
			spawn_strstatus(ret, status, sizeof(status)), log);
	return 0;
}

/*
 * One boot's counters (@boot: a coverage/boot-N directory) captured into
 * @info. The guest's tree mirrors the build's object directory @objdir
 * by its absolute path. 0, or -1 and @e.
 */
static int capture_boot(const char *boot, const char *objdir, const char *work,
			const char *info, const char *log, struct err *e)
{
	char *from = xasprintf("%s%s", boot, objdir);
	int rc;

	if (!path_exists(from)) {
		rc = err_set(
			e,
			"%s: no counters of the build %s (a boot of another build?)",
			boot, objdir);
		free(from);
		return rc;
	}
	remove_tree(work);
	walk_from = from;
	walk_objdir = objdir;
	walk_to = work;
	walk_copied = walk_failed = 0;
	nftw(from, take_counter, 16, FTW_PHYS);
	free(from);
	if (walk_failed)
		return err_set(
			e,
			"%s: %d counter files without their build's notes (.gcno) or not copied",
			boot, walk_failed);
	if (!walk_copied)
		return err_set(e, "%s: no counter files", boot);
	return run_lcov((char *[]){ "lcov", "--quiet", "--capture",
				    "--directory", (char *)work,
				    "--base-directory", (char *)objdir,
				    "--gcov-tool", "gcov", "--rc",
				    "lcov_branch_coverage=1", "--output-file",
				    (char *)info, NULL },
			log, e);
}

/* The path of @file relative to the kernel tree @tree. */
static const char *tree_relative(const char *file, const char *tree)
{
	size_t tl = strlen(tree);

	if (!strncmp(file, tree, tl) && file[tl] == '/')
		return file + tl + 1;
	return file;
}

static int write_summary(const struct lcov *l, const char *tree,
			 const char *path, struct err *e)
{
	struct sbuf sb = { 0 };
	size_t i;
	int rc;

	sbuf_printf(
		&sb,
		"file\tlines\tlines_hit\tbranches\tbranches_hit\tfunctions\tfunctions_hit\n");
	for (i = 0; i < l->n; i++) {
		const struct lcov_file *f = &l->files[i];

		sbuf_printf(&sb, "%s\t%lu\t%lu\t%lu\t%lu\t%zu\t%lu\n",
			    tree_relative(f->path, tree), f->lines,
			    f->lines_hit, f->branches, f->branches_hit,
			    f->n_funcs, f->funcs_hit);
	}
	rc = write_file(path, sb.buf, sb.len);
	sbuf_free(&sb);
	return rc ? err_set(e, "cannot write %s: %s", path, strerror(-rc)) : 0;
}

/* Each boot's counters of one LSM's results, the known crashes' too. */
static const char *const boot_globs[] = { "%s/coverage/boot-*",
					  "%s/known-crashes/coverage/boot-*" };
#define MAX_BOOTS 64

/* The ops table: LSMCONF_ROOT/fixtures/hook-ops.tsv (analysis/hookops.h). */
static int load_hookops(struct hookops *t, struct err *e)
{
	const char *path = LSMCONF_ROOT "/fixtures/hook-ops.tsv";
	char *text = NULL, err[256];
	size_t len;
	int rc = 0;

	if (read_file(path, &text, &len))
		return err_set(e, "cannot read %s", path);
	if (hookops_parse(text, len, t, err, sizeof(err)))
		rc = err_set(e, "%s: %s", path, err);
	free(text);
	return rc;
}

/*
 * Why hooks have no outcomes, or helpers never run: the list
 * LSMCONF_ROOT/fixtures/@name (hook-reasons.tsv, uncovered-reasons.tsv).
 */
static int load_hookreasons(struct hookreasons *t, const char *name,
			    struct err *e)
{
	char *path = xasprintf(LSMCONF_ROOT "/fixtures/%s", name);
	char *text = NULL, err[256];
	size_t len;
	int rc = 0;

	if (read_file(path, &text, &len))
		rc = err_set(e, "cannot read %s", path);
	else if (hookreasons_parse(text, len, t, err, sizeof(err)))
		rc = err_set(e, "%s: %s", path, err);
	free(text);
	free(path);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Records through each of @h's hooks by @t: allowed, denied. */
struct hook_seen {
	unsigned long *allow, *deny;
};

/*
 * Each record of @dir/records.tsv with an allow or a deny, credited to
 * the hooks of its row of @t that @h registers; a record no row maps
 * counted per test, class and op into @unmapped (hooks-unmapped.tsv).
 */
static int credit_records(const char *dir, const char *lsm,
			  const struct hookops *t, const struct lsm_hook *h,
			  size_t nh, struct hook_seen *seen,
			  struct coverage_hooks *sum, struct sbuf *unmapped,
			  struct err *e)
{
	char *path = xasprintf("%s/records.tsv", dir), *text = NULL;
	struct record_set set = { 0 };
	char **keys = NULL;
	size_t len, i, k, j, n_keys = 0;
	int rc = 0;

	if (read_file(path, &text, &len))
		rc = err_set(e, "cannot read %s", path);
	else if ((rc = records_parse(text, len, &set))) {
		char why[256];

		records_error(&set, rc, why, sizeof(why));
		rc = err_set(e, "%s: %s", path, why);
	} else if (set.malformed) {
		char why[256];

		records_bad_line(&set, why, sizeof(why));
		rc = err_set(e, "%s: %s", path, why);
	}
	if (rc) {
		records_free(&set);
		free(path);
		return rc;
	}
	for (i = 0; i < set.n; i++) {
		char **c = set.v[i].col;
		enum hookop_outcome out = hookop_outcome(c[REC_OBSERVED]);
		const struct hookop_row *r;

		if (out == HOOKOP_NEITHER)
			continue;
		sum->records++;
		r = hookops_match(t, lsm, c[REC_ID], c[REC_CLASS], c[REC_OP]);
		if (!r) {
			const char *slash = strchr(c[REC_ID], '/'),
				   *op = strrchr(c[REC_OP], '/');
			char *key = xasprintf(
				"%s\t%.*s\t%s\t%s", lsm,
				(int)(slash ? slash - c[REC_ID] :
					      (long)strlen(c[REC_ID])),
				c[REC_ID], c[REC_CLASS],
				op ? op + 1 : c[REC_OP]);

			sum->unmapped++;
			keys = xrealloc(keys, (n_keys + 1) * sizeof(*keys));
			keys[n_keys++] = key;
			continue;
		}
		for (k = 0; k < r->n_hooks; k++)
			for (j = 0; j < nh; j++)
				if (!strcmp(h[j].hook, r->hooks[k])) {
					if (out == HOOKOP_ALLOW)
						seen->allow[j]++;
					else
						seen->deny[j]++;
				}
	}
	/* Counted per key, in order. */
	qsort(keys, n_keys, sizeof(*keys), cmp_str);
	for (i = 0; i < n_keys; i = j) {
		for (j = i + 1; j < n_keys && !strcmp(keys[i], keys[j]); j++)
			;
		sbuf_printf(unmapped, "%s\t%zu\n", keys[i], j - i);
	}
	for (i = 0; i < n_keys; i++)
		free(keys[i]);
	free(keys);
	records_free(&set);
	free(path);
	return 0;
}

/*
 * One hook's row of hooks.tsv: what the counters and the records saw,
 * its status and reason (analysis/hookreasons.h), also into @v; the gap
 * or the stale reason named in @sum.
 */
static void hook_row(struct sbuf *sb, struct coverage_hooks *sum,
		     const struct hookreasons *hr, const char *lsm,
		     const struct lsm_hook *h, const struct lcov_func *f,
		     const char *calls, unsigned long allow, unsigned long deny,
		     struct hook_verdict *v)
{
	const struct hookreason_row *why = hookreasons_match(hr, lsm, h->hook);
	enum hook_status st =
		hook_status(f, f ? f->count : 0, allow, deny, why);
	struct sbuf *list = NULL;

	if (hook_status_gap(st))
		list = &sum->gaps;
	else if (st == HOOK_BOTH && why)
		list = &sum->stale;
	sum->both += st == HOOK_BOTH;
	sum->reasoned += st == HOOK_REASONED;
	if (list)
		sbuf_printf(list, "%s%s (%s)", list->len ? ", " : "", h->hook,
			    hook_status_name(st, why));
	*v = (struct hook_verdict){ h->hook, h->function,
				    hook_status_name(st, why),
				    st == HOOK_REASONED ? why->why : "-",
				    hook_status_gap(st) };
	sbuf_printf(sb, "%s\t%s\t%s\t%s\t%lu\t%lu\t%s\t%s\n", lsm, h->hook,
		    h->function, calls, allow, deny, v->status, v->reason);
}

/*
 * uncovered.tsv's rows of LSM @lsm: every function never called in its
 * files (security/@lsm/ of @tree), with the verdict of the hook it
 * implements, @v (@nv), or a helper's reason of @helpers.
 */
static void uncovered_lsm(const struct lcov *l, const char *tree,
			  const char *lsm, const struct hook_verdict *v,
			  size_t nv, const struct hookreasons *helpers,
			  struct sbuf *out, struct uncovered_sum *sum)
{
	char *dir = xasprintf("security/%s/", lsm);
	size_t i;

	for (i = 0; i < l->n; i++) {
		const char *path = tree_relative(l->files[i].path, tree);

		if (!strncmp(path, dir, strlen(dir)))
			uncovered_rows(&l->files[i], path, v, nv, helpers, lsm,
				       out, sum);
	}
	free(dir);
}

/*
 * hooks.tsv: every hook each LSM of @lsms registers in @tree's source
 * (its LSM_HOOK_INIT list) with its function, the calls the counters
 * saw ("-" for a function the build has no counters of: not compiled
 * in, a hook under an option the configuration lacks), and the records
 * of @lsm_dirs allowed and denied through it by fixtures/hook-ops.tsv;
 * hooks-unmapped.tsv: the records no row of the table maps.
 */
static int write_hooks(const struct lcov *l, const char *tree,
		       char *const *lsm_dirs, const char *const *lsms, size_t n,
		       const char *out, struct coverage_hooks *sum,
		       struct err *e)
{
	struct sbuf sb = { 0 }, um = { 0 }, uc = { 0 };
	struct hookreasons hr = { 0 }, helpers = { 0 };
	struct hookops t = { 0 };
	size_t i, j;
	int rc;

	rc = load_hookops(&t, e);
	if (!rc)
		rc = load_hookreasons(&hr, "hook-reasons.tsv", e);
	if (!rc)
		rc = load_hookreasons(&helpers, "uncovered-reasons.tsv", e);
	sbuf_printf(
		&sb,
		"lsm\thook\tfunction\tcalls\tallow\tdeny\tstatus\treason\n");
	sbuf_printf(&um, "lsm\ttest\tclass\top\trecords\n");
	sbuf_printf(&uc, "file\tfunction\tline\thook\tstatus\treason\n");
	for (i = 0; !rc && i < n; i++) {
		const struct lsm *m = lsm_find(lsms[i]);
		struct hook_verdict *v = NULL;
		struct hook_seen seen;
		char *src, *text = NULL;
		struct lsm_hook *h;
		size_t nh, bad;

		sum[i] = (struct coverage_hooks){ .lsm = lsms[i] };
		if (!m || !m->hooks_src)
			continue;
		src = xasprintf("%s/%s", tree, m->hooks_src);
		if (read_file(src, &text, NULL)) {
			rc = err_set(e, "cannot read %s", src);
			free(src);
			break;
		}
		bad = lsm_hooks_parse(text, &h, &nh);
		if (bad || !nh)
			rc = err_set(
				e,
				"%s: %zu LSM_HOOK_INIT uses that are not two names, %zu read",
				src, bad, nh);
		seen.allow = xcalloc(nh + 1, sizeof(*seen.allow));
		seen.deny = xcalloc(nh + 1, sizeof(*seen.deny));
		v = xcalloc(nh + 1, sizeof(*v));
		if (!rc)
			rc = credit_records(lsm_dirs[i], m->name, &t, h, nh,
					    &seen, &sum[i], &um, e);
		for (j = 0; !rc && j < nh; j++) {
			const struct lcov_func *f = lcov_func(l, h[j].function);
			char calls[32] = "-";

			sum[i].hooks++;
			sum[i].called += f && f->count;
			sum[i].absent += !f;
			sum[i].allow_seen += seen.allow[j] > 0;
			sum[i].deny_seen += seen.deny[j] > 0;
			if (f)
				snprintf(calls, sizeof(calls), "%llu",
					 f->count);
			/* The table against the counters. */
			if ((seen.allow[j] || seen.deny[j]) && !(f && f->count))
				sbuf_printf(&sum[i].uncalled, "%s%s",
					    sum[i].uncalled.len ? ", " : "",
					    h[j].hook);
			hook_row(&sb, &sum[i], &hr, m->name, &h[j], f, calls,
				 seen.allow[j], seen.deny[j], &v[j]);
		}
		if (!rc)
			uncovered_lsm(l, tree, m->name, v, nh, &helpers, &uc,
				      &sum[i].never);
		free(v);
		free(seen.allow);
		free(seen.deny);
		lsm_hooks_free(h, nh);
		free(text);
		free(src);
	}
	if (!rc) {
		char *path = xasprintf("%s/hooks.tsv", out);
		char *upath = xasprintf("%s/hooks-unmapped.tsv", out);
		char *cpath = xasprintf("%s/uncovered.tsv", out);

		rc = write_file(path, sb.buf, sb.len);
		if (!rc)
			rc = write_file(upath, um.buf, um.len);
		if (!rc)
			rc = write_file(cpath, uc.buf, uc.len);
		if (rc)
			rc = err_set(e, "cannot write %s: %s", path,
				     strerror(-rc));
		free(path);
		free(upath);
		free(cpath);
	}
	hookops_free(&t);
	hookreasons_free(&hr);
	hookreasons_free(&helpers);
	sbuf_free(&sb);
	sbuf_free(&um);
	sbuf_free(&uc);
	return rc;
}

int coverage_report(const struct kernel *k, char *const *lsm_dirs,
		    const char *const *lsms, size_t n, const char *out,
		    struct lcov *l, struct coverage_hooks *hooks, struct err *e)
{
	const char *tail = "/arch/x86/boot/bzImage";
	size_t il = strlen(k->image), tl = strlen(tail), i, j, b, boots = 0;
	char *objdir, *tree, *log, *work, *merged, *text = NULL, err[256];
	char *infos[MAX_BOOTS], *argv[6 + 2 * MAX_BOOTS + 3];
	size_t argc = 0, len;
	int rc = 0;

	memset(l, 0, sizeof(*l));
	if (!k->spec.coverage || il <= tl || strcmp(k->image + il - tl, tail))
		return err_set(e,
			       "%s: not a coverage build (build:...,coverage)",
			       k->spec.text);
	objdir = xstrndup(k->image, il - tl);
	tree = xstrndup(objdir, strrchr(objdir, '/') - objdir);
	log = xasprintf("%s/lcov.log", out);
	work = xasprintf("%s/capture", out);
	merged = xasprintf("%s/coverage.info", out);
	if (mkdir_p(out))
		rc = err_set(e, "cannot create %s", out);
	argv[argc++] = "lcov";
	argv[argc++] = "--quiet";
	argv[argc++] = "--rc";
	argv[argc++] = "lcov_branch_coverage=1";
	for (i = 0; !rc && i < n; i++) {
		for (j = 0; !rc && j < ARRAY_SIZE(boot_globs); j++) {
			char *pattern = xasprintf(boot_globs[j], lsm_dirs[i]);
			glob_t g;

			if (!glob(pattern, 0, NULL, &g)) {
				for (b = 0; !rc && b < g.gl_pathc; b++) {
					if (boots == MAX_BOOTS) {
						rc = err_set(
							e,
							"more than %d boots' counters",
							MAX_BOOTS);
						break;
					}
					infos[boots] =
						xasprintf("%s/boot-%zu.info",
							  out, boots + 1);
					argv[argc++] = "--add-tracefile";
					argv[argc++] = infos[boots];
					rc = capture_boot(g.gl_pathv[b], objdir,
							  work, infos[boots++],
							  log, e);
				}
				globfree(&g);
			}
			free(pattern);
		}
	}
	remove_tree(work);
	if (!rc && !boots)
		rc = err_set(
			e,
			"%s: no boot sent its gcov counters (a boot that ends in a crash loses them)",
			k->spec.text);
	if (!rc) {
		argv[argc++] = "--output-file";
		argv[argc++] = merged;
		argv[argc] = NULL;
		rc = run_lcov(argv, log, e);
	}
	if (!rc) {
		char *html = xasprintf("%s/html", out);

		remove_tree(html);
		rc = run_lcov((char *[]){ "genhtml", "--quiet",
					  "--branch-coverage", "--prefix", tree,
					  "--title", (char *)k->spec.text,
					  "--output-directory", html, merged,
					  NULL },
			      log, e);
		free(html);
	}
	if (!rc && read_file(merged, &text, &len))
		rc = err_set(e, "cannot read %s", merged);
	if (!rc && lcov_parse(text, len, l, err, sizeof(err)))
		rc = err_set(e, "%s: %s", merged, err);
	if (!rc) {
		char *tsv = xasprintf("%s/coverage.tsv", out);

		rc = write_summary(l, tree, tsv, e);
		free(tsv);
	}
	if (!rc)
		rc = write_hooks(l, tree, lsm_dirs, lsms, n, out, hooks, e);
	free(text);
	for (i = 0; i < boots; i++)
		free(infos[i]);
	free(merged);
	free(work);
	free(log);
	free(objdir);
	free(tree);
	return rc;
}
