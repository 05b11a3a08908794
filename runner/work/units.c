// SPDX-License-Identifier: GPL-2.0
/* Units of work, their plan and their store (units.h). */
#define _GNU_SOURCE
#include "units.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const kind_names[UNIT_N_KINDS] = { "provision", "build",
						      "boot", "bench",
						      "count" };

const char *unit_kind_name(enum unit_kind k)
{
	return k < UNIT_N_KINDS ? kind_names[k] : "?";
}

int unit_kind_parse(const char *s)
{
	int k;

	for (k = 0; k < UNIT_N_KINDS; k++)
		if (!strcmp(s, kind_names[k]))
			return k;
	return -1;
}

bool unit_kind_exclusive(enum unit_kind k)
{
	/* A timed bench boot measures: nothing beside it (wall time). */
	return k == UNIT_BUILD || k == UNIT_BENCH;
}

bool unit_kind_bench(enum unit_kind k)
{
	return k == UNIT_BENCH || k == UNIT_COUNT;
}

struct unit *unit_find(const struct unit_plan *p, const char *id)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].id, id))
			return &p->v[i];
	return NULL;
}

/* 1 + the deepest dependency's level; 0 without one. */
static int dep_level(const struct unit_plan *p, const struct unit *u)
{
	int level = 0;
	size_t i;

	for (i = 0; i < u->n_deps; i++) {
		const struct unit *d = unit_find(p, u->deps[i]);

		if (d && d->level + 1 > level)
			level = d->level + 1;
	}
	return level;
}

size_t unit_add(struct unit_plan *p, enum unit_kind kind, const char *key,
		const size_t *deps, size_t n_deps, const char *desc)
{
	struct sbuf sb = { 0 };
	struct unit *u;
	char hex[65];
	size_t i;

	if (n_deps > UNIT_MAX_DEPS)
		bug("a unit with %zu dependencies (at most %d)", n_deps,
		    UNIT_MAX_DEPS);
	/* A versioned input: another scheme must never reuse an id. */
	sbuf_printf(&sb, "lsmconf-unit-1\n%s\n%s\n", unit_kind_name(kind), key);
	for (i = 0; i < n_deps; i++)
		sbuf_printf(&sb, "dep %s\n", p->v[deps[i]].id);
	sha256_buf(sb.buf, sb.len, hex);
	sbuf_free(&sb);
	for (i = 0; i < p->n; i++)
		if (!strncmp(p->v[i].id, hex, UNIT_ID_LEN))
			return i;
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	u = &p->v[p->n];
	memset(u, 0, sizeof(*u));
	memcpy(u->id, hex, UNIT_ID_LEN);
	u->kind = kind;
	for (i = 0; i < n_deps; i++)
		memcpy(u->deps[i], p->v[deps[i]].id, UNIT_ID_LEN + 1);
	u->n_deps = n_deps;
	u->desc = xstrdup(desc);
	u->level = dep_level(p, u);
	return p->n++;
}

static int unit_cmp(const void *x, const void *y)
{
	const struct unit *a = x, *b = y;

	if (a->level != b->level)
		return a->level - b->level;
	return (int)unit_kind_exclusive(b->kind) -
	       (int)unit_kind_exclusive(a->kind);
}

void unit_plan_order(struct unit_plan *p)
{
	struct unit tmp;
	size_t i, j;

	/* Insertion sort: stable, so the planner's order stays in a step. */
	for (i = 1; i < p->n; i++) {
		tmp = p->v[i];
		for (j = i; j > 0 && unit_cmp(&p->v[j - 1], &tmp) > 0; j--)
			p->v[j] = p->v[j - 1];
		p->v[j] = tmp;
	}
}

void unit_plan_free(struct unit_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		free(p->v[i].desc);
		free(p->v[i].spec);
		free(p->v[i].lsm);
		free(p->v[i].name);
	}
	free(p->v);
	memset(p, 0, sizeof(*p));
}

void unit_plan_format(const struct unit_plan *p, struct sbuf *out)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		sbuf_printf(out, "%s %s", p->v[i].id,
			    unit_kind_name(p->v[i].kind));
		for (j = 0; j < p->v[i].n_deps; j++)
			sbuf_printf(out, " %s", p->v[i].deps[j]);
		sbuf_printf(out, " -- %s\n", p->v[i].desc);
	}
}

static bool is_id(const char *s, size_t len)
{
	return len == UNIT_ID_LEN &&
	       strspn(s, "0123456789abcdef") >= UNIT_ID_LEN;
}

/* One plan line into a new unit of @p; 0, or -1 and @e. */
static int parse_line(char *line, size_t no, struct unit_plan *p, struct err *e)
{
	char *sep = strstr(line, " -- "), *tok, *save = NULL;
	struct unit u = { 0 };
	int kind, field = 0;

	if (!sep)
		return err_set(
			e, "plan line %zu: no \" -- \" before the description",
			no);
	*sep = '\0';
	for (tok = strtok_r(line, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), field++) {
		if (field == 0) {
			if (!is_id(tok, strlen(tok)))
				return err_set(
					e, "plan line %zu: not a unit id: %s",
					no, tok);
			memcpy(u.id, tok, UNIT_ID_LEN + 1);
		} else if (field == 1) {
			kind = unit_kind_parse(tok);
			if (kind < 0)
				return err_set(e,
					       "plan line %zu: unknown kind %s",
					       no, tok);
			u.kind = kind;
		} else {
			if (!is_id(tok, strlen(tok)))
				return err_set(
					e, "plan line %zu: not a unit id: %s",
					no, tok);
			if (!unit_find(p, tok))
				return err_set(
					e,
					"plan line %zu: dependency %s is not planned before it",
					no, tok);
			if (u.n_deps == UNIT_MAX_DEPS)
				return err_set(
					e,
					"plan line %zu: more than %d dependencies",
					no, UNIT_MAX_DEPS);
			memcpy(u.deps[u.n_deps++], tok, UNIT_ID_LEN + 1);
		}
	}
	if (field < 2)
		return err_set(
			e,
			"plan line %zu: want ID KIND [DEP...] -- DESCRIPTION",
			no);
	if (unit_find(p, u.id))
		return err_set(e, "plan line %zu: unit %s planned twice", no,
			       u.id);
	u.desc = xstrdup(sep + 4);
	u.level = dep_level(p, &u);
	p->v = xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
	p->v[p->n++] = u;
	return 0;
}

int unit_plan_parse(const char *text, struct unit_plan *p, struct err *e)
{
	const char *at = text;
	size_t no = 0;
	bool cut = false;
	char *line;

	memset(p, 0, sizeof(*p));
	while ((line = next_line(&at, &cut))) {
		int ret = parse_line(line, ++no, p, e);

		free(line);
		if (ret) {
			unit_plan_free(p);
			return -1;
		}
	}
	if (cut) {
		unit_plan_free(p);
		return err_set(e, "plan line %zu: cut short (no newline)",
			       no + 1);
	}
	return 0;
}

size_t unit_steps(const struct unit_plan *p, struct unit_step *out, size_t max)
{
	size_t i, n = 0;

	for (i = 0; i < p->n; i++) {
		bool ex = unit_kind_exclusive(p->v[i].kind);

		if (n && n <= max &&
		    p->v[out[n - 1].first].level == p->v[i].level &&
		    out[n - 1].exclusive == ex) {
			out[n - 1].last = i;
			continue;
		}
		if (n < max)
			out[n] = (struct unit_step){ i, i, ex };
		n++;
	}
	return n;
}

char *store_unit_dir(const char *store, const char *id)
{
	return xasprintf("%s/units/%s", store, id);
}

bool store_done(const char *store, const char *id)
{
	char *path = xasprintf("%s/units/%s/done", store, id);
	bool done = path_exists(path);

	free(path);
	return done;
}

/* Records @what as lacking in @out; counts it in *@n. */
static void lacks(struct sbuf *out, size_t *n, const char *what)
{
	sbuf_printf(out, "%s%s", *n ? ", " : "", what);
	(*n)++;
}

/* The value of "KEY\tVALUE" in @text (kernel.txt), malloc'd, or NULL. */
static char *tab_value(const char *text, const char *key)
{
	size_t len = strlen(key);
	const char *p;

	for (p = text; p && *p; p += strcspn(p, "\n"), p += *p == '\n')
		if (!strncmp(p, key, len) && p[len] == '\t')
			return xstrndup(p + len + 1,
					strcspn(p + len + 1, "\n"));
	return NULL;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Whether @dir/@name is there; else it is named in @out. */
static bool need(const char *unit, const char *dir, const char *name,
		 struct sbuf *out, size_t *n)
{
	char *path = xasprintf("%s/%s/%s", unit, dir, name), *rel;
	bool there = path_exists(path);

	if (!there) {
		rel = xasprintf("%s/%s", dir, name);
		lacks(out, n, rel);
		free(rel);
	}
	free(path);
	return there;
}

/* Boot directory @dir of the unit directory @unit (see store_unit_lacks). */
static void boot_lacks(const char *unit, const char *dir, bool bench,
		       bool passed, const char *profile, struct sbuf *out,
		       size_t *n)
{
	char *path = xasprintf("%s/%s", unit, dir), *kernel = NULL,
	     *ktap = NULL;
	char *decisions, *qemu, *rel;
	bool records;

	if (!is_dir(path)) {
		rel = xasprintf("%s/", dir);
		lacks(out, n, rel);
		free(rel);
		free(path);
		return;
	}
	free(path);
	if (need(unit, dir, "kernel.txt", out, n)) {
		path = xasprintf("%s/%s/kernel.txt", unit, dir);
		if (read_file(path, &kernel, NULL))
			kernel = NULL;
		free(path);
	}
	if (need(unit, dir, "ktap.txt", out, n)) {
		path = xasprintf("%s/%s/ktap.txt", unit, dir);
		if (read_file(path, &ktap, NULL))
			ktap = NULL;
		free(path);
	}
	decisions = kernel ? tab_value(kernel, "decisions") : NULL;
	if (decisions) {
		records = strtoul(decisions, NULL, 10) > 0;
	} else {
		/* Written before kernel.txt counted them: the guest's file. */
		path = xasprintf("%s/%s/guest/records.tsv", unit, dir);
		records = path_exists(path);
		free(path);
	}
	if (records)
		need(unit, dir, "records.tsv", out, n);
	if (bench && passed && !(ktap && strstr(ktap, " # SKIP")))
		need(unit, dir, "guest/samples.tsv", out, n);
	qemu = kernel ? tab_value(kernel, "qemu") : NULL;
	if (bench && passed && profile && qemu && strstr(qemu, "-plugin "))
		need(unit, dir, profile, out, n);
	free(qemu);
	free(decisions);
	free(kernel);
	free(ktap);
}

/* A run's boot directories NAME-LSM, as @b says. */
static void run_lacks(const char *unit, const char *name, bool bench,
		      bool passed, const struct unit_boots *b, struct sbuf *out,
		      size_t *n)
{
	char *dir, *path;
	size_t i, there = 0;

	for (i = 0; b->some && i < b->n_lsms; i++) {
		path = xasprintf("%s/%s-%s", unit, name, b->lsms[i]);
		there += is_dir(path);
		free(path);
	}
	if (b->some && !there) {
		struct sbuf any = { 0 };

		for (i = 0; i < b->n_lsms; i++)
			sbuf_printf(&any, "%s%s-%s/", i ? " or " : "", name,
				    b->lsms[i]);
		lacks(out, n, any.buf ? any.buf : "?");
		sbuf_free(&any);
		return;
	}
	for (i = 0; i < b->n_lsms; i++) {
		dir = xasprintf("%s-%s", name, b->lsms[i]);
		path = xasprintf("%s/%s", unit, dir);
		if (!b->some || is_dir(path))
			boot_lacks(unit, dir, bench, passed, b->profile, out,
				   n);
		free(path);
		free(dir);
	}
}

size_t store_unit_lacks(const char *store, const struct unit *u,
			const struct unit_boots *b, struct sbuf *out)
{
	char *unit = store_unit_dir(store, u->id), *path, *text = NULL;
	bool bench = unit_kind_bench(u->kind);
	size_t n = 0;

	if (u->kind == UNIT_PROVISION || u->kind == UNIT_BUILD) {
		path = xasprintf("%s/kernel.tsv", unit);
		if (read_file(path, &text, NULL))
			lacks(out, &n, "kernel.tsv");
		else if (strncmp(text, "status ", 7) &&
			 !strstr(text, "\nstatus "))
			lacks(out, &n, "kernel.tsv's status line");
		goto out;
	}
	path = xasprintf("%s/runs", unit);
	if (u->kind == UNIT_BOOT && !read_file(path, &text, NULL)) {
		/* A mutant's boot unit: a line a run. */
		const char *at = text;
		bool cut;
		char *line;

		while ((line = next_line(&at, &cut))) {
			char *sp = strchr(line, ' ');

			if (sp) {
				*sp = '\0';
				run_lacks(unit, line, false, false, b, out, &n);
			} else {
				lacks(out, &n,
				      "runs (a line without its verdict)");
			}
			free(line);
		}
		if (cut)
			lacks(out, &n, "runs (its last line cut short)");
		goto out;
	}
	free(path);
	path = xasprintf("%s/verdict", unit);
	if (read_file(path, &text, NULL)) {
		text = NULL;
		lacks(out, &n, "verdict");
	} else if (!strcmp(text, "PASS\n") || !strcmp(text, "FAIL\n")) {
		run_lacks(unit, u->name ? u->name : "?", bench,
			  !strcmp(text, "PASS\n"), b, out, &n);
	} else if (strcmp(text, "NOBUILD\n")) {
		lacks(out, &n, "verdict (neither PASS, FAIL nor NOBUILD)");
	}
out:
	free(path);
	free(text);
	free(unit);
	return n;
}

int store_lock(const char *store, const char *id, struct err *e)
{
	char *dir = xasprintf("%s/locks", store);
	char *path = xasprintf("%s/%s", dir, id);
	int fd = -1;

	if (mkdir_p(dir)) {
		err_set(e, "cannot create %s: %s", dir, strerror(errno));
		goto out;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0) {
		err_set(e, "cannot open %s: %s", path, strerror(errno));
		goto out;
	}
	/* Waits while another process runs the unit: it ends bounded. */
	while (flock(fd, LOCK_EX)) {
		if (errno == EINTR)
			continue;
		err_set(e, "cannot lock %s: %s", path, strerror(errno));
		close(fd);
		fd = -1;
		break;
	}
out:
	free(path);
	free(dir);
	return fd;
}

void store_unlock(int fd)
{
	if (fd >= 0)
		close(fd);
}

/* Removes STORE/units/.ID.*.tmp: attempts that died before renaming. */
static void remove_attempts(const char *units, const char *id)
{
	char *prefix = xasprintf(".%s.", id);
	struct dirent *d;
	DIR *dir = opendir(units);

	while (dir && (d = readdir(dir))) {
		if (strncmp(d->d_name, prefix, strlen(prefix)))
			continue;
		char *path = xasprintf("%s/%s", units, d->d_name);

		remove_tree(path);
		free(path);
	}
	if (dir)
		closedir(dir);
	free(prefix);
}

char *store_begin(const char *store, const char *id, struct err *e)
{
	char *units = xasprintf("%s/units", store), host[256] = "host";
	char *tmp;

	if (mkdir_p(units)) {
		err_set(e, "cannot create %s: %s", units, strerror(errno));
		free(units);
		return NULL;
	}
	remove_attempts(units, id);
	gethostname(host, sizeof(host) - 1);
	host[strcspn(host, "/")] = '\0';
	tmp = xasprintf("%s/.%s.%s.%d.tmp", units, id, host, (int)getpid());
	free(units);
	if (mkdir(tmp, 0755)) {
		err_set(e, "cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		return NULL;
	}
	return tmp;
}

int store_commit(const char *store, const char *id, const char *tmp,
		 const char *done, struct err *e)
{
	char *final = store_unit_dir(store, id);
	int ret = 0;

	if (write_file_at(tmp, "done", done, strlen(done))) {
		ret = err_set(e, "cannot write %s/done: %s", tmp,
			      strerror(errno));
	} else if (rename(tmp, final)) {
		/* The rename that came first wins: its result stays. */
		if ((errno == ENOTEMPTY || errno == EEXIST) &&
		    store_done(store, id))
			remove_tree(tmp);
		else
			ret = err_set(e, "cannot rename %s to %s: %s", tmp,
				      final, strerror(errno));
	}
	free(final);
	return ret;
}

int store_save(const char *store, const char *cwd, char *const *argv, int argc,
	       const char *plan, struct err *e)
{
	struct sbuf cmd = { 0 };
	char *path, *old;
	size_t len;
	int i, ret = 0;

	sbuf_add(&cmd, cwd, strlen(cwd) + 1);
	for (i = 0; i < argc; i++)
		sbuf_add(&cmd, argv[i], strlen(argv[i]) + 1);
	if (mkdir_p(store)) {
		sbuf_free(&cmd);
		return err_set(e, "cannot create the store %s: %s", store,
			       strerror(errno));
	}
	path = xasprintf("%s/command", store);
	ret = read_input(path, INPUT_MAX_SMALL, 0, &old, &len, e);
	if (ret && ret != -ENOENT) {
		ret = -1;
	} else if (!ret && (!len || old[len - 1] || strlen(old) + 1 == len)) {
		/* Its words each end in a NUL, and there is one at least. */
		ret = err_set(e, "%s: not a saved command", path);
		free(old);
	} else if (!ret) {
		/* The same command again (from any directory) is no change. */
		size_t skip = strlen(old) + 1, own = strlen(cwd) + 1;
		bool same = len - skip == cmd.len - own &&
			    !memcmp(old + skip, cmd.buf + own, len - skip);

		if (!same)
			ret = err_set(
				e,
				"the store %s already holds the plan of another command (%s): name a new --store",
				store, old + skip);
		free(old);
	} else if (write_file(path, cmd.buf, cmd.len) ||
		   write_file_at(store, "plan.tsv", plan, strlen(plan))) {
		ret = err_set(e, "cannot write the plan into %s: %s", store,
			      strerror(errno));
	} else {
		ret = 0;
	}
	free(path);
	sbuf_free(&cmd);
	return ret;
}

int store_plan_write(const char *store, const char *plan, struct err *e)
{
	char host[64] = "?";
	char *tmp, *path = xasprintf("%s/plan.tsv", store);
	int ret = 0;

	gethostname(host, sizeof(host) - 1);
	tmp = xasprintf("%s/.plan.%s.%d.tmp", store, host, (int)getpid());
	if (write_file(tmp, plan, strlen(plan)) || rename(tmp, path)) {
		ret = err_set(e, "cannot write %s: %s", path, strerror(errno));
		unlink(tmp);
	}
	free(tmp);
	free(path);
	return ret;
}

int store_load(const char *store, char **block, char **cwd, char ***argv,
	       int *argc, char **plan, struct err *e)
{
	char *path = xasprintf("%s/command", store), *p;
	size_t len, n = 0, i;
	int ret;

	/* NUL-separated words: not a text file. */
	ret = read_input(path, INPUT_MAX_SMALL, 0, block, &len, e);
	if (ret == -ENOENT)
		err_set(e,
			"%s: no plan in this store (%s): run lsmconf plan --store %s first",
			store, strerror(-ret), store);
	if (ret) {
		free(path);
		return -1;
	}
	free(path);
	for (i = 0; i < len; i++)
		n += !(*block)[i];
	if (n < 2 || (*block)[len - 1]) {
		free(*block);
		return err_set(e, "%s/command: not a saved command", store);
	}
	*cwd = *block;
	*argv = xcalloc(n, sizeof(char *));
	*argc = 0;
	for (p = *block + strlen(*block) + 1; p < *block + len;
	     p += strlen(p) + 1)
		(*argv)[(*argc)++] = p;
	path = xasprintf("%s/plan.tsv", store);
	if (read_input(path, INPUT_MAX_LIST, INPUT_TEXT, plan, NULL, e)) {
		free(path);
		free(*argv);
		free(*block);
		return -1;
	}
	free(path);
	return 0;
}
