// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf plan`, `lsmconf unit` and `lsmconf merge`: a command cut into
 * units of work (work/units.h) that any engine runs, and the serial
 * commands as "every unit here, then merge" (units_here()), so that both
 * take one code path. What each command's units are and do is in its own
 * file (compare.c, mutate.c: struct unit_cmd).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "provision/provision.h"
#include "lib/lib.h"
#include "work/work.h"
#include "vm/vm.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

bool replanning;

/* Where plan, unit and merge keep the store without --store. */
#define STORE_DEFAULT "results/store"

static const struct unit_cmd *const unit_cmds[] = { &compare_units,
						    &mutate_units, &bench_units,
						    &series_units,
						    &coverage_units };

static const struct unit_cmd *unit_cmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(unit_cmds); i++)
		if (!strcmp(unit_cmds[i]->name, name))
			return unit_cmds[i];
	if (!strcmp(name, "msgcost") || !strcmp(name, "run"))
		die("plan: %s is not cut into units yet (run lsmconf %s here; see docs/runner-units.md)",
		    name, name);
	die("plan: cannot plan %s (compare, mutate, bench, series or coverage)",
	    name);
}

/*
 * The file @name of unit @id's result, malloc'd, or NULL when there is
 * none; one that is not a readable text file (a store copied in part, a
 * FIFO) is a one-line death.
 */
char *unit_file(const char *store, const char *id, const char *name)
{
	char *path = xasprintf("%s/units/%s/%s", store, id, name), *text;
	struct err e;
	int ret = read_input(path, INPUT_MAX_BIG, INPUT_TEXT, &text, NULL, &e);

	if (ret == -ENOENT)
		text = NULL;
	else if (ret)
		die("%s", e.msg);
	free(path);
	return text;
}

double unit_seconds(const char *store, const char *id)
{
	char *done = unit_file(store, id, "done");
	double s = 0;

	if (done && !strncmp(done, "seconds ", 8))
		s = strtod(done + 8, NULL);
	free(done);
	return s;
}

void unit_print_output(const char *store, const char *id, const char *root)
{
	char *text = unit_file(store, id, "output.txt");
	char *done = unit_file(store, id, "done");
	char *tmp = done ? unit_value(done, "attempt") : NULL;
	const char *p = text, *at;

	/* Its paths named the attempt's directory: now the results'. */
	while (p && tmp && *tmp && (at = strstr(p, tmp))) {
		fwrite(p, 1, at - p, stdout);
		fputs(root, stdout);
		p = at + strlen(tmp);
	}
	if (p)
		fputs(p, stdout);
	fflush(stdout);
	free(text);
	free(done);
	free(tmp);
}

char *unit_link(const char *store, const char *id, const char *name,
		const char *root)
{
	char *link = xasprintf("%s/%s", root, name), *target;
	size_t len = strlen(root);

	/* Inside the results directory (the serial commands): relative. */
	if (!strncmp(store, root, len) && store[len] == '/')
		target = xasprintf("%s/units/%s/%s", store + len + 1, id, name);
	else
		target = xasprintf("%s/units/%s/%s", store, id, name);
	unlink(link);
	if (symlink(target, link))
		die("cannot link %s to %s: %s", link, target, strerror(errno));
	free(target);
	return link;
}

char *unit_value(const char *text, const char *key)
{
	size_t len = strlen(key);
	const char *p;

	for (p = text; p && *p; p += strcspn(p, "\n"), p += *p == '\n')
		if (!strncmp(p, key, len) && p[len] == ' ')
			return xstrndup(p + len + 1,
					strcspn(p + len + 1, "\n"));
	return NULL;
}

bool unit_passed(const char *store, const char *id)
{
	char *v = unit_file(store, id, "verdict");
	bool ok = v && !strcmp(v, "PASS\n");

	free(v);
	return ok;
}

/*
 * The boots each run of unit @u left (into @b, @l its LSMs): a bench
 * boot boots the run's first LSM; a boot its own list (a compare's or an
 * original's LSM, a mutant's) or the run's (a series kernel's suites),
 * those that hold a --test, or some of them when the tests are not here.
 */
static void unit_boots(const struct run_opts *o, const struct unit *u,
		       const char **l, size_t max, struct unit_boots *b)
{
	struct run_opts ro = *o;
	char *list, *tok, *save = NULL;
	struct err e;
	int n;

	memset(b, 0, sizeof(*b));
	b->lsms = l;
	b->profile = INSN_PROFILE;
	if (unit_kind_bench(u->kind)) {
		l[b->n_lsms++] = o->lsm ? o->lsm : lsms[0].name;
		return;
	}
	if (u->lsm)
		ro.lsms = u->lsm;
	n = run_lsms(&ro, l, max, &e);
	if (n >= 0) {
		b->n_lsms = n;
		return;
	}
	/* The LSMs named (they were checked where the plan was made). */
	list = xstrdup(ro.lsms ? ro.lsms : lsms[0].name);
	for (tok = strtok_r(list, ",", &save); tok && b->n_lsms < max;
	     tok = strtok_r(NULL, ",", &save))
		if (lsm_find(tok))
			l[b->n_lsms++] = lsm_find(tok)->name;
	free(list);
	b->some = true;
}

/*
 * Refuses @store when a unit of @p that it holds as done lacks the
 * results of its kind (store_unit_lacks()): one line naming each, what
 * it lacks and how to run it again, exit 2 (as for units not done).
 */
static void refuse_partial(const char *cmd, const struct run_opts *o,
			   const struct unit_plan *p, const char *store)
{
	struct sbuf all = { 0 }, one = { 0 };
	const struct unit *last = NULL;
	size_t i, n = 0;

	for (i = 0; i < p->n; i++) {
		const struct unit *u = &p->v[i];
		struct unit_boots b = { 0 };
		const char *l[8];

		if (!store_done(store, u->id))
			continue;
		if (u->kind != UNIT_PROVISION && u->kind != UNIT_BUILD)
			unit_boots(o, u, l, ARRAY_SIZE(l), &b);
		if (!store_unit_lacks(store, u, &b, &one))
			continue;
		sbuf_printf(&all, "%s%s (%s) lacks %s", n++ ? "; " : "", u->id,
			    u->desc, one.buf);
		sbuf_free(&one);
		last = u;
	}
	if (!n)
		return;
	if (n == 1)
		fprintf(stderr,
			"lsmconf: %s: a unit done in %s lacks its results (a partial copy?): %s; remove %s/units/%s and run it again (lsmconf unit --store %s %s)\n",
			cmd, store, all.buf, store, last->id, store, last->id);
	else
		fprintf(stderr,
			"lsmconf: %s: %zu units done in %s lack their results (a partial copy?): %s; remove each one's %s/units/ID and run it again (lsmconf unit --store %s ID)\n",
			cmd, n, store, all.buf, store, store);
	exit(2);
}

/* lsmconf's own program, for the units it starts. */
static char *self_exe(void)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		die("cannot find lsmconf's own program: %s", strerror(errno));
	buf[n] = '\0';
	return xstrdup(buf);
}

/* A copy of @argv: option parsing moves and edits its words. */
static char **argv_copy(int argc, char **argv)
{
	char **v = xcalloc(argc + 1, sizeof(char *));
	int i;

	for (i = 0; i < argc; i++)
		v[i] = argv[i];
	return v;
}

static char *cwd_now(void)
{
	char *cwd = getcwd(NULL, 0);

	if (!cwd)
		die("cannot read the working directory: %s", strerror(errno));
	return cwd;
}

/* Plans @argv and saves it in @store; returns the plan's text. */
static char *plan_save(const struct unit_cmd *c, int argc, char **argv,
		       const char *store, struct unit_plan *p, void **ctx,
		       const struct run_opts **o)
{
	char **copy = argv_copy(argc, argv), *cwd = cwd_now();
	struct sbuf text = { 0 };
	struct err e;

	*ctx = c->plan(argc, copy, p, o);
	if (c->extend)
		c->extend(*ctx, p, store);
	unit_plan_format(p, &text);
	if (store_save(store, cwd, argv, argc, text.buf ? text.buf : "", &e) ||
	    (c->extend &&
	     store_plan_write(store, text.buf ? text.buf : "", &e)))
		die("%s", e.msg);
	free(cwd);
	return text.buf ? text.buf : xstrdup("");
}

int units_here(const struct unit_cmd *c, int argc, char **argv)
{
	struct unit_plan p = { 0 };
	const struct run_opts *o;
	char *root, *store, *self = self_exe(), *cwd;
	char **copy = argv_copy(argc, argv);
	struct sbuf text = { 0 };
	struct err e;
	size_t failed;
	void *ctx;
	int slots, status;

	/* Planned first: bad arguments stop before a directory is made. */
	ctx = c->plan(argc, copy, &p, &o);
	root = results_root(o->results);
	store = xasprintf("%s/store", root);
	if (c->extend)
		c->extend(ctx, &p, store);
	unit_plan_format(&p, &text);
	cwd = cwd_now();
	if (store_save(store, cwd, argv, argc, text.buf ? text.buf : "", &e))
		die("%s", e.msg);
	sbuf_free(&text);
	free(cwd);
	slots = o->jobs ? o->jobs : pool_slots_here(o->memory_mb);
	/* A plan that grows with its results: run, extend, until whole. */
	for (;;) {
		failed = pool_run(&p, store, self, slots);
		if (failed)
			die("%zu of %zu units not done (above); the finished ones stay in %s: lsmconf unit --store %s ID runs one again, lsmconf merge --store %s reports",
			    failed, p.n, store, store, store);
		if (!c->extend || !c->extend(ctx, &p, store))
			break;
		unit_plan_format(&p, &text);
		if (store_plan_write(store, text.buf, &e))
			die("%s", e.msg);
		sbuf_free(&text);
	}
	refuse_partial(argv[0], o, &p, store);
	status = c->merge(ctx, &p, store, root);
	unit_plan_free(&p);
	free(store);
	free(root);
	free(self);
	free(copy);
	return status;
}

/* --store DIR, as the first arguments of plan, unit and merge. */
static int take_store(int argc, char **argv, int i, const char **store)
{
	if (i < argc && !strcmp(argv[i], "--store")) {
		if (i + 1 >= argc || !argv[i + 1][0])
			die("--store needs a directory");
		*store = argv[i + 1];
		return i + 2;
	}
	if (i < argc && !strncmp(argv[i], "--store=", 8)) {
		*store = argv[i] + 8;
		return i + 1;
	}
	return i;
}

/* A store path that stays right after chdir() to the saved directory. */
static char *store_abs(const char *store)
{
	char *abs = realpath(store, NULL);

	if (!abs)
		die("the store %s: %s", store, strerror(errno));
	return abs;
}

/* Every unit of @p is in the saved plan @text (which may have grown). */
static bool plan_within(const struct unit_plan *p, const char *text)
{
	struct unit_plan saved = { 0 };
	struct err e;
	bool all = true;
	size_t i;

	if (unit_plan_parse(text, &saved, &e))
		return false;
	for (i = 0; i < p->n && all; i++)
		all = unit_find(&saved, p->v[i].id) != NULL;
	unit_plan_free(&saved);
	return all;
}

/*
 * The saved command of @store planned again (in its directory): the
 * plan must be the saved one, else this lsmconf is not the planner's.
 */
static const struct unit_cmd *replan(const char *who, const char *store,
				     struct unit_plan *p, void **ctx,
				     const struct run_opts **o)
{
	char *block, *cwd, **argv, *saved;
	struct sbuf text = { 0 };
	const struct unit_cmd *c;
	struct err e;
	int argc;

	if (store_load(store, &block, &cwd, &argv, &argc, &saved, &e))
		die("%s", e.msg);
	if (chdir(cwd))
		note("cannot enter %s (%s): relative paths of the planned command are read from %s",
		     cwd, strerror(errno), "here");
	c = unit_cmd_find(argv[0]);
	replanning = true;
	*ctx = c->plan(argc, argv, p, o);
	/*
	 * A plan that grows: what it is before any result (NULL: no store)
	 * must be in the saved one; what the store calls for now may hold
	 * more, or less when a unit's result was removed to run it again.
	 */
	if (c->extend)
		c->extend(*ctx, p, NULL);
	unit_plan_format(p, &text);
	if (c->extend ? !plan_within(p, saved) :
			strcmp(text.buf ? text.buf : "", saved))
		die("%s/plan.tsv is not what this lsmconf plans for its command (another lsmconf, or its inputs changed): plan again into a new --store",
		    store);
	/*
	 * Nothing is read from a unit that lacks its results: the units
	 * planned before any result first (a plan that grows reads the
	 * results of its store next), then every unit.
	 */
	refuse_partial(who, *o, p, store);
	/* Grown with the results: the engines read the new units there. */
	if (c->extend) {
		c->extend(*ctx, p, store);
		refuse_partial(who, *o, p, store);
		sbuf_free(&text);
		unit_plan_format(p, &text);
	}
	if (c->extend && strcmp(text.buf ? text.buf : "", saved) &&
	    store_plan_write(store, text.buf, &e))
		die("%s", e.msg);
	sbuf_free(&text);
	free(saved);
	/* The words stay in use by the context: block and argv are kept. */
	return c;
}

/*
 * `plan --ready`: the saved command planned again from the store (a
 * series grows by its results), then the ids of the units not done whose
 * dependencies are, one a line: what an engine may start now. Nothing
 * once every unit is done (or waits on one that failed): merge then.
 */
static int plan_ready(const char *store_arg)
{
	char *store = store_abs(store_arg);
	struct unit_plan p = { 0 };
	const struct run_opts *o;
	size_t i, j;
	void *ctx;

	replan("plan --ready", store, &p, &ctx, &o);
	for (i = 0; i < p.n; i++) {
		const struct unit *u = &p.v[i];
		bool ready = !store_done(store, u->id);

		for (j = 0; ready && j < u->n_deps; j++)
			ready = store_done(store, u->deps[j]);
		if (ready)
			printf("%s\n", u->id);
	}
	unit_plan_free(&p);
	free(store);
	return 0;
}

/* `lsmconf plan [--store DIR] (CMD ARGS... | --steps | --step N | --ready)` */
int cmd_plan(int argc, char **argv)
{
	const char *store = STORE_DEFAULT;
	struct unit_plan p = { 0 };
	struct unit_step steps[256];
	const struct run_opts *o;
	char *text, *block, *cwd, **sargv;
	size_t n, i;
	struct err e;
	void *ctx;
	int first = take_store(argc, argv, 1, &store), sargc;

	if (first >= argc)
		die("plan: want a command to plan (compare, mutate, bench or series, with its arguments), --steps, --step N or --ready");
	if (!strcmp(argv[first], "--ready")) {
		if (first + 1 != argc)
			die("plan --ready takes no argument");
		return plan_ready(store);
	}
	if (!strcmp(argv[first], "--steps") || !strcmp(argv[first], "--step")) {
		bool all = !strcmp(argv[first], "--steps");
		long want = -1;

		if (!all) {
			if (first + 1 >= argc)
				die("plan --step needs a step number (see plan --steps)");
			want = opt_nonnegative("--step", argv[first + 1]);
		}
		if (store_load(store, &block, &cwd, &sargv, &sargc, &text, &e))
			die("%s", e.msg);
		if (unit_plan_parse(text, &p, &e))
			die("%s/plan.tsv: %s", store, e.msg);
		n = unit_steps(&p, steps, ARRAY_SIZE(steps));
		if (n > ARRAY_SIZE(steps))
			die("%s: more than %zu steps", store,
			    ARRAY_SIZE(steps));
		if (!all && (size_t)want >= n)
			die("plan --step %ld: the plan has %zu steps (0 to %zu)",
			    want, n, n - 1);
		for (i = 0; i < n; i++) {
			struct unit_plan one = { p.v + steps[i].first,
						 steps[i].last -
							 steps[i].first + 1 };
			struct sbuf sb = { 0 };

			if (all) {
				printf("%zu %zu %zu %s\n", i, steps[i].first,
				       steps[i].last,
				       steps[i].exclusive ? "exclusive" :
							    "shared");
				continue;
			}
			if ((long)i != want)
				continue;
			unit_plan_format(&one, &sb);
			fputs(sb.buf, stdout);
			sbuf_free(&sb);
		}
		unit_plan_free(&p);
		free(text);
		free(sargv);
		free(block);
		return 0;
	}
	text = plan_save(unit_cmd_find(argv[first]), argc - first, argv + first,
			 store, &p, &ctx, &o);
	fputs(text, stdout);
	free(text);
	unit_plan_free(&p);
	return 0;
}

/* `lsmconf unit [--store DIR] (ID | --index N)` */
int cmd_unit(int argc, char **argv)
{
	const char *store_arg = STORE_DEFAULT, *want = NULL;
	struct unit_plan p = { 0 };
	const struct run_opts *o;
	const struct unit_cmd *c;
	struct sbuf missing = { 0 };
	const struct unit *u = NULL;
	char *store, *tmp, *out, *done, host[256] = "?";
	int first = take_store(argc, argv, 1, &store_arg), fd, saved, lock;
	long index = -1;
	double t0;
	struct err e;
	size_t i;
	void *ctx;

	if (first < argc && !strcmp(argv[first], "--index")) {
		if (first + 1 >= argc)
			die("unit --index needs a number (the unit's place in the plan, from 0)");
		index = opt_nonnegative("--index", argv[first + 1]);
		first += 2;
	} else if (first < argc) {
		want = argv[first++];
	}
	if (first != argc || (index < 0 && !want))
		die("unit: want [--store DIR] ID, or --index N");
	store = store_abs(store_arg);
	c = replan("unit", store, &p, &ctx, &o);
	if (index >= 0) {
		if ((size_t)index >= p.n)
			die("unit --index %ld: the plan of %s has %zu units (0 to %zu)",
			    index, store, p.n, p.n - 1);
		u = &p.v[index];
	} else {
		u = unit_find(&p, want);
		if (!u)
			die("unit %s: not in the plan of %s", want, store);
	}
	for (i = 0; i < u->n_deps; i++)
		if (!store_done(store, u->deps[i]))
			sbuf_printf(&missing, " %s (%s)", u->deps[i],
				    unit_find(&p, u->deps[i])->desc);
	if (missing.len) {
		fprintf(stderr,
			"lsmconf: unit %s: its dependencies are not done:%s\n",
			u->id, missing.buf);
		return 2;
	}
	lock = store_lock(store, u->id, &e);
	if (lock < 0)
		die("%s", e.msg);
	if (store_done(store, u->id)) {
		printf("unit %s %s: done already (%s)\n", u->id,
		       unit_kind_name(u->kind), u->desc);
		store_unlock(lock);
		return 0;
	}
	tmp = store_begin(store, u->id, &e);
	if (!tmp)
		die("%s", e.msg);
	/* Its report goes with its results; merge prints it. */
	out = xasprintf("%s/output.txt", tmp);
	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || saved < 0 || dup2(fd, STDOUT_FILENO) < 0)
		die("cannot write %s: %s", out, strerror(errno));
	close(fd);
	t0 = now_seconds();
	if (c->run(ctx, &p, u, store, tmp, &e)) {
		fflush(stdout);
		dup2(saved, STDOUT_FILENO);
		remove_tree(tmp);
		die("unit %s (%s): %s", u->id, u->desc, e.msg);
	}
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	gethostname(host, sizeof(host) - 1);
	done = xasprintf("seconds %.1f\nhost %s\nattempt %s\n",
			 now_seconds() - t0, host, tmp);
	if (store_commit(store, u->id, tmp, done, &e))
		die("%s", e.msg);
	store_unlock(lock);
	printf("unit %s %s: done in %.1f s (%s)\n", u->id,
	       unit_kind_name(u->kind), now_seconds() - t0, u->desc);
	free(done);
	free(out);
	free(tmp);
	free(store);
	unit_plan_free(&p);
	return 0;
}

/* `lsmconf merge [--store DIR]` */
int cmd_merge(int argc, char **argv)
{
	const char *store_arg = STORE_DEFAULT;
	struct unit_plan p = { 0 };
	struct sbuf missing = { 0 };
	const struct run_opts *o;
	const struct unit_cmd *c;
	int first = take_store(argc, argv, 1, &store_arg), status;
	bool partial = first < argc && !strcmp(argv[first], "--partial");
	size_t i, n = 0;
	char *store, *root;
	void *ctx;

	first += partial;
	if (first != argc)
		die("merge: want [--store DIR] [--partial] only");
	store = store_abs(store_arg);
	c = replan("merge", store, &p, &ctx, &o);
	if (partial && !c->merge_partial)
		die("merge --partial: %s's report needs every unit done",
		    c->name);
	for (i = 0; i < p.n; i++)
		if (!store_done(store, p.v[i].id) && n++ < 5)
			sbuf_printf(&missing, " %s (%s)", p.v[i].id,
				    p.v[i].desc);
	if (n && !partial) {
		fprintf(stderr,
			"lsmconf: merge: %zu of %zu units are not done:%s%s\n",
			n, p.n, missing.buf, n > 5 ? " ..." : "");
		return 2;
	}
	root = results_root(o->results);
	status = (n ? c->merge_partial : c->merge)(ctx, &p, store, root);
	sbuf_free(&missing);
	unit_plan_free(&p);
	free(root);
	free(store);
	return status;
}
