// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel booted with the suite, once per LSM: the plan, the boots (again
 * after a crash, for the cases still to run), the guest's results taken
 * off the data channel, every case accounted for, and the results
 * directory (records.tsv, ktap.txt, identity, problems).
 */
#define _GNU_SOURCE
#include "session.h"
#include "internal.h"
#include "vm/vm.h"
#include "provision/provision.h"
#include "results/results.h"
#include "lsmconf_record.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void add_problem(struct kernel_run *kr, const char *fmt, ...)
{
	struct sbuf sb = { .buf = kr->problems,
			   .len = kr->problems ? strlen(kr->problems) : 0,
			   .cap = kr->problems ? strlen(kr->problems) + 1 : 0 };
	va_list ap;
	char *line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		oom();
	va_end(ap);
	sbuf_printf(&sb, "%s\n", line);
	free(line);
	kr->problems = sb.buf;
}

char *guest_text(const struct kernel_run *kr, const char *name)
{
	char *path = xasprintf("%s/guest/%s", kr->dir, name), *buf;

	if (read_file(path, &buf, NULL))
		buf = NULL;
	free(path);
	return buf;
}

/*
 * The blobs each test compiled (guest/out/NAME/policy-seed/) moved into the
 * policy seed, before the results are read: they are cache, not results.
 */
static void seed_keep_all(struct kernel_run *kr)
{
	const char *seed = guest_policy_seed();
	struct err e;
	size_t i;

	for (i = 0; seed && i < kr->plan.n; i++) {
		char *from = xasprintf("%s/guest/out/%s/policy-seed", kr->dir,
				       kr->plan.items[i].name);

		if (seed_keep(seed, from, &e) < 0)
			note("policy seed: %s", e.msg);
		free(from);
	}
}

char *run_guest_file(const char *dir, const char *name, char **path)
{
	struct err e;
	char *buf;

	*path = xasprintf("%s/guest/%s", dir, name);
	/* Never waits on what a saved directory holds (a FIFO). */
	if (read_input(*path, INPUT_MAX_BIG, INPUT_TEXT, &buf, NULL, &e))
		buf = xstrdup("");
	return buf;
}

void chomp(char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

char *run_results_root(const char *base, struct err *e)
{
	char stamp[64];
	time_t now = time(NULL);
	char *dir, *latest;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	dir = xasprintf("%s/%s-%d", base, stamp, getpid());
	if (mkdir_p(dir)) {
		err_set(e, "cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	latest = xasprintf("%s/latest", base);
	unlink(latest);
	if (symlink(strrchr(dir, '/') + 1, latest))
		note("cannot update %s: %s", latest, strerror(errno));
	free(latest);
	return dir;
}

static char *lsm_tests_dir(const struct run_opts *o, const char *lsm)
{
	if (o->tests_dir)
		return xstrdup(o->tests_dir);
	const struct lsm *l = lsm_find(lsm);

	return xasprintf("%s/%s", o->tests_root, l ? l->tests : lsm);
}

/* The LSM's own boot parameters; false for an LSM this file does not know. */
static bool lsm_boot_append(const char *lsm, const char **append)
{
	const struct lsm *l = lsm_find(lsm);

	if (l)
		*append = l->boot_append;
	return l;
}

/*
 * The LSM's boot parameters, the pinned feature set (lsmconf.abi=, which
 * the guest's init hands to the tests), a coverage build's counters, then
 * the user's (the kernel takes the last).
 */
static char *lsm_append(const struct run_opts *o, const char *own,
			const char *abi, bool coverage)
{
	struct sbuf sb = { 0 };

	if (own)
		sbuf_printf(&sb, "%s", own);
	if (abi)
		sbuf_printf(&sb, "%slsmconf.abi=%s", sb.len ? " " : "", abi);
	if (coverage)
		sbuf_printf(&sb, "%s" COVERAGE_ARG, sb.len ? " " : "");
	if (o->append)
		sbuf_printf(&sb, "%s%s", sb.len ? " " : "", o->append);
	return sb.buf;
}

int run_check_cmdline(const struct run_opts *o, struct err *e)
{
	size_t i;

	for (i = 0; i < n_lsms; i++) {
		/* With a coverage build's argument: the longest it can be. */
		char *append = lsm_append(o, lsms[i].boot_append, o->abi, true);
		char *line = boot_cmdline(append);
		/* A whole-collection boot adds " " WHOLE_ARG (boots.c). */
		size_t len =
			strlen(line) + (o->whole ? 1 + strlen(WHOLE_ARG) : 0);

		free(line);
		free(append);
		if (len > BOOT_CMDLINE_MAX)
			return err_set(
				e,
				"--append: the kernel command line would be %zu characters (%zu of them --append); x86 takes at most %d",
				len, strlen(o->append), BOOT_CMDLINE_MAX);
	}
	return 0;
}

/* The --test names whose program is in @lsm's test directory. */
static size_t tests_here(const struct run_opts *o, const char *lsm, char **out,
			 size_t max)
{
	char *dir = lsm_tests_dir(o, lsm);
	size_t i, n = 0;

	for (i = 0; i < o->n_tests && n < max; i++) {
		char *path = xasprintf("%s/%s", dir, o->tests[i]);

		if (!strchr(o->tests[i], '/') && !access(path, X_OK))
			out[n++] = o->tests[i];
		free(path);
	}
	free(dir);
	return n;
}

int run_lsms(const struct run_opts *o, const char **out, size_t max,
	     struct err *e)
{
	char *list = xstrdup(o->lsms ? o->lsms : lsms[0].name);
	char *tok, *save = NULL, *only[16];
	size_t n = 0, i, j;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		const struct lsm *l = lsm_find(tok);

		if (!l) {
			err_set(e, "unknown LSM %s in --lsm (known: %s)", tok,
				lsm_names());
			free(list);
			return -1;
		}
		if (o->n_tests &&
		    !tests_here(o, l->name, only, ARRAY_SIZE(only)))
			continue;
		if (n < max)
			out[n++] = l->name;
	}
	free(list);
	/* Every named test must run somewhere. */
	for (j = 0; j < o->n_tests; j++) {
		bool found = false;

		for (i = 0; i < n && !found; i++) {
			char *dir = lsm_tests_dir(o, out[i]);
			char *path = xasprintf("%s/%s", dir, o->tests[j]);

			found = !strchr(o->tests[j], '/') &&
				!access(path, X_OK);
			free(path);
			free(dir);
		}
		if (!found)
			return err_set(e, "no test program %s for --lsm %s",
				       o->tests[j],
				       o->lsms ? o->lsms : lsms[0].name);
	}
	if (!n)
		return err_set(e, "nothing to run for --lsm %s", o->lsms);
	return n;
}

int run_kernel_lsms(const struct run_opts *o, const char *root,
		    struct kernel *k, struct kernel_boots *kb, struct err *e)
{
	struct run_opts ro = *o;
	size_t i;
	int n, ok;

	memset(kb, 0, sizeof(*kb));
	n = run_lsms(o, kb->lsm, ARRAY_SIZE(kb->lsm), e);
	if (n < 0)
		return -1;
	kb->ok = true;
	for (i = 0; i < (size_t)n; i++) {
		ro.lsm = kb->lsm[i];
		ok = run_kernel(&ro, root, k, &kb->dir[i], e);
		if (ok < 0)
			return -1;
		kb->n = i + 1;
		kb->ok &= ok;
	}
	return 0;
}

/*
 * A boot's records.tsv appended to @all (its header only when @all is
 * empty), read strictly: a missing one is a boot that recorded nothing.
 */
static int add_records(const char *dir, struct sbuf *all, struct err *e)
{
	char *path = xasprintf("%s/records.tsv", dir), *buf, msg[1200];
	struct record_set set;
	const char *body;
	size_t len;
	int ret;

	ret = read_input(path, INPUT_MAX_BIG, INPUT_TEXT, &buf, &len, e);
	if (ret) {
		free(path);
		return ret == -ENOENT ? 0 : -1;
	}
	ret = records_parse(buf, len, &set);
	if (ret)
		records_error(&set, ret, msg, sizeof(msg));
	else
		ret = records_check(&set, msg, sizeof(msg));
	records_free(&set);
	if (ret) {
		err_set(e, "%s: %s", path, msg);
	} else {
		/* Each file has its own header (checked): keep the first. */
		body = memchr(buf, '\n', len);
		body = all->len && body ? body + 1 : buf;
		sbuf_add(all, body, len - (body - buf));
	}
	free(buf);
	free(path);
	return ret ? -1 : 0;
}

/*
 * The names the known bugs list may give the kernel of @kb, from its
 * boots' kernel.txt: its release and build name, and with @crash a
 * patched build's base too (results/known.h). NULL when not recorded.
 */
static char *kernel_names(const struct kernel_boots *kb, bool crash)
{
	static const char *const keys[] = { "uname", "known_name",
					    "known_base" };
	struct sbuf sb = { 0 };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys) - !crash; i++) {
		char *v = run_kernel_value(kb, keys[i]);

		if (v)
			sbuf_printf(&sb, "%s%s", sb.len ? " " : "", v);
		free(v);
	}
	return sb.buf;
}

int run_load_records(const struct kernel_boots *kb, struct known_list *known,
		     struct record_set *set, struct err *e)
{
	struct sbuf all = { 0 };
	size_t i;
	char msg[1200], *names;
	int ret;

	memset(set, 0, sizeof(*set));
	for (i = 0; i < kb->n; i++)
		if (saved_check_files(kb->dir[i], e) ||
		    add_records(kb->dir[i], &all, e)) {
			sbuf_free(&all);
			return -1;
		}
	ret = records_parse(all.buf ? all.buf : "", all.len, set);
	sbuf_free(&all);
	if (ret) {
		records_error(set, ret, msg, sizeof(msg));
		return err_set(e, "%s: %s", kb->dir[0], msg);
	}
	/* Today's list, by the kernel's names: never a saved known.tsv. */
	names = known ? kernel_names(kb, false) : NULL;
	for (i = 0; names && i < set->n; i++) {
		const struct known_bug *b =
			known_record(known, names, &set->v[i]);

		if (b)
			set->v[i].known = xstrdup(b->name);
	}
	free(names);
	return 0;
}

char *run_known_crashes(const struct kernel_boots *kb, struct known_list *known)
{
	struct sbuf all = { 0 };
	char *names = known ? kernel_names(kb, true) : NULL;
	struct err e;
	size_t i;
	int c;

	for (i = 0; names && i < kb->n; i++)
		/* crash-N.txt, N the boot: at most the session's few. */
		for (c = 1; c <= 64; c++) {
			char *path =
				xasprintf("%s/crash-%d.txt", kb->dir[i], c);
			char *text, *name, *how, *trace, why[800];
			const struct known_bug *b;
			int boot;

			if (read_input(path, INPUT_MAX_BIG, INPUT_TEXT, &text,
				       NULL, &e)) {
				free(path);
				continue;
			}
			if (!known_crash_note(text, &name, &how, &trace,
					      &boot)) {
				b = known_crash(known, names, name, trace, how,
						why, sizeof(why));
				if (b)
					sbuf_printf(&all, "%s\t%s\tboot %d\n",
						    name, b->name, boot);
				free(name);
				free(how);
				free(trace);
			}
			free(text);
			free(path);
		}
	free(names);
	return all.buf;
}

char *run_kernel_value(const struct kernel_boots *kb, const char *key)
{
	char *value = NULL;
	struct err e;
	size_t i;

	for (i = 0; i < kb->n; i++) {
		char *path = xasprintf("%s/kernel.txt", kb->dir[i]), *text;
		char *v = NULL;

		if (!read_input(path, INPUT_MAX_LIST, INPUT_TEXT, &text, NULL,
				&e)) {
			v = saved_value(text, key);
			free(text);
		}
		free(path);
		if (!v || !strcmp(v, "-") || (value && strcmp(v, value))) {
			free(v);
			free(value);
			return NULL;
		}
		free(value);
		value = v;
	}
	return value;
}

void kernel_boots_free(struct kernel_boots *kb)
{
	size_t i;

	for (i = 0; i < kb->n; i++)
		free(kb->dir[i]);
	memset(kb, 0, sizeof(*kb));
}

static void fates_free(struct kernel_run *kr)
{
	size_t i, j;

	for (i = 0; i < kr->plan.n; i++) {
		for (j = 0; j < kr->fate[i].n_crashed; j++) {
			free(kr->fate[i].crashed[j]);
			free(kr->fate[i].traces[j]);
			free(kr->fate[i].hows[j]);
		}
		free(kr->fate[i].crashed);
		free(kr->fate[i].traces);
		free(kr->fate[i].hows);
		free(kr->fate[i].boots);
		free(kr->fate[i].live);
	}
	free(kr->fate);
}

int run_kernel(const struct run_opts *o, const char *root, struct kernel *k,
	       char **dir, struct err *e)
{
	struct kernel_run kr = { 0 };
	const char *spec = k->spec.text;
	const char *lsm = o->lsm ? o->lsm : lsms[0].name;
	char *name, *tests_dir, *append, *only[16];
	size_t i, n_only = tests_here(o, lsm, only, ARRAY_SIZE(only));
	const char *own;
	int timeout;
	bool ok = false, failed;

	kr.known = o->known;
	if (!lsm_boot_append(lsm, &own))
		return err_set(e, "unknown LSM %s (known: %s)", lsm,
			       lsm_names());

	/* The caller keeps the kernel; this run borrows it. */
	kr.k = *k;
	kr.started = time(NULL);
	kr.lsm = lsm;
	{
		char *s = o->dir_name ? xstrdup(o->dir_name) : safe_name(spec);

		name = xasprintf("%s-%s", s, lsm);
		free(s);
	}
	kr.dir = xasprintf("%s/%s", root, name);
	free(name);
	if (mkdir_p(kr.dir)) {
		err_set(e, "cannot create %s", kr.dir);
		free(kr.dir);
		return -1;
	}
	tests_dir = lsm_tests_dir(o, lsm);
	kr.tests_dir = tests_dir;
	if (o->n_tests && !n_only) {
		err_set(e, "none of the named tests is in %s", tests_dir);
		free(tests_dir);
		free(kr.dir);
		return -1;
	}
	/* --timeout, else the bound kselftest's runner applies: one number. */
	timeout = o->test_timeout_s ? o->test_timeout_s :
				      settings_dir_timeout(tests_dir, e);
	if (timeout < 0 ||
	    plan_make(&kr.plan, tests_dir, only, n_only, o->args, timeout, e)) {
		free(tests_dir);
		free(kr.dir);
		return -1;
	}
	kr.fate = xcalloc(kr.plan.n, sizeof(*kr.fate));
	kr.whole = o->whole;
	/* Only an LSM whose policy the guest compiles has a pinned ABI. */
	kr.abi = lsm_find(lsm)->pins_abi ? o->abi : NULL;
	append = lsm_append(o, own, kr.abi, k->spec.coverage);

	kr.label = strrchr(kr.dir, '/') + 1;
	timing_row(&kr.timing, kr.label, 0, k->build_log ? T_BUILD : T_FETCH,
		   NULL, k->fetch_seconds, 1);
	failed = boot_all(&kr, o, append, e);
	if (!failed) {
		double t0 = now_seconds();

		seed_keep_all(&kr);
		failed = collect(&kr, e);
		timing_guest_rows(&kr);
		timing_row(&kr.timing, kr.label, 0, T_COLLECT, NULL,
			   now_seconds() - t0, 1);
		timing_write(&kr);
	}
	if (!failed) {
		write_identity(&kr);
		write_ktap(&kr);
		ok = report(&kr);
	}

	free(tests_dir);
	free(append);
	free(kr.qemu_cmdline);
	sbuf_free(&kr.boot_log);
	sbuf_free(&kr.first_output);
	sbuf_free(&kr.timing);
	if (kr.acct)
		for (i = 0; i < kr.plan.n; i++)
			ktap_free(&kr.acct[i].doc);
	free(kr.acct);
	fates_free(&kr);
	plan_free(&kr.plan);
	free(kr.problems);
	free(kr.uname);
	free(kr.upstream);
	free(kr.crash_names);
	free(kr.names);
	free(kr.lsm_list);
	free(kr.features);
	if (failed) {
		free(kr.dir);
		return -1;
	}
	if (dir)
		*dir = kr.dir;
	else
		free(kr.dir);
	return ok ? 1 : 0;
}
