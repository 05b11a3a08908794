// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/lib.h"
#include "work/work.h"

/* compare A B's shape: two provisions, two boots each. */
static void compare_like(struct unit_plan *p, const char *spec_b)
{
	size_t pa = unit_add(p, UNIT_PROVISION, "spec debian:trixie", NULL, 0,
			     "provision debian:trixie");
	size_t pb = unit_add(p, UNIT_BUILD, spec_b, NULL, 0, "build B");

	unit_add(p, UNIT_BOOT, "boot A apparmor", &pa, 1, "boot A apparmor");
	unit_add(p, UNIT_BOOT, "boot A selinux", &pa, 1, "boot A selinux");
	unit_add(p, UNIT_BOOT, "boot B apparmor", &pb, 1, "boot B apparmor");
	unit_add(p, UNIT_BOOT, "boot B selinux", &pb, 1, "boot B selinux");
}

START_TEST(test_ids)
{
	struct unit_plan p = { 0 }, q = { 0 };
	size_t i;

	compare_like(&p, "spec build:x");
	compare_like(&q, "spec build:y");
	ck_assert_uint_eq(p.n, 6);
	for (i = 0; i < p.n; i++) {
		ck_assert_uint_eq(strlen(p.v[i].id), UNIT_ID_LEN);
		ck_assert_uint_eq(strspn(p.v[i].id, "0123456789abcdef"),
				  UNIT_ID_LEN);
	}
	/* Same inputs, same id: provision A is in both plans. */
	ck_assert_str_eq(p.v[0].id, q.v[0].id);
	ck_assert_str_eq(p.v[2].id, q.v[2].id);
	/* B's build differs, and so does every unit depending on it. */
	ck_assert_str_ne(p.v[1].id, q.v[1].id);
	ck_assert_str_ne(p.v[4].id, q.v[4].id);
	/* The same unit twice is one unit. */
	ck_assert_uint_eq(unit_add(&p, UNIT_BOOT, "boot A apparmor",
				   (size_t[]){ 0 }, 1, "again"),
			  2);
	ck_assert_uint_eq(p.n, 6);
	/* The kind is an input too. */
	ck_assert_str_ne(p.v[0].id,
			 unit_add(&p, UNIT_BUILD, "spec debian:trixie", NULL, 0,
				  "x") == 6 ?
				 p.v[6].id :
				 "");
	unit_plan_free(&p);
	unit_plan_free(&q);
}
END_TEST

START_TEST(test_order)
{
	struct unit_plan p = { 0 };
	size_t i, j;

	compare_like(&p, "spec build:x");
	unit_plan_order(&p);
	/* Level 0 first, the build before the provision; boots after. */
	ck_assert_str_eq(p.v[0].desc, "build B");
	ck_assert_str_eq(p.v[1].desc, "provision debian:trixie");
	ck_assert_str_eq(p.v[2].desc, "boot A apparmor");
	ck_assert_str_eq(p.v[5].desc, "boot B selinux");
	for (i = 0; i < p.n; i++)
		for (j = 0; j < p.v[i].n_deps; j++)
			ck_assert(unit_find(&p, p.v[i].deps[j]) < &p.v[i]);
	unit_plan_free(&p);
}
END_TEST

START_TEST(test_format_parse)
{
	struct unit_plan p = { 0 }, q;
	struct sbuf a = { 0 }, b = { 0 };
	struct err e;
	char *line;

	compare_like(&p, "spec build:x");
	unit_plan_order(&p);
	unit_plan_format(&p, &a);
	line = xasprintf("%s boot %s -- boot A apparmor\n", p.v[2].id,
			 p.v[1].id);
	ck_assert_ptr_nonnull(strstr(a.buf, line));
	free(line);
	ck_assert_int_eq(unit_plan_parse(a.buf, &q, &e), 0);
	unit_plan_format(&q, &b);
	ck_assert_str_eq(a.buf, b.buf);
	ck_assert_int_eq(q.v[2].level, 1);
	unit_plan_free(&q);
	ck_assert_int_eq(
		unit_plan_parse("0123456789abcdef boot -- x\n", &q, &e), 0);
	unit_plan_free(&q);
	ck_assert_int_eq(unit_plan_parse("0123456789abcdef boot x\n", &q, &e),
			 -1);
	ck_assert_str_eq(e.msg,
			 "plan line 1: no \" -- \" before the description");
	ck_assert_int_eq(
		unit_plan_parse("0123456789abcdef reboot -- x\n", &q, &e), -1);
	ck_assert_str_eq(e.msg, "plan line 1: unknown kind reboot");
	ck_assert_int_eq(unit_plan_parse("0123456789abcdef boot "
					 "fedcba9876543210 -- x\n",
					 &q, &e),
			 -1);
	ck_assert_str_eq(
		e.msg,
		"plan line 1: dependency fedcba9876543210 is not planned before it");
	ck_assert_int_eq(unit_plan_parse("0123 boot -- x\n", &q, &e), -1);
	ck_assert_str_eq(e.msg, "plan line 1: not a unit id: 0123");
	ck_assert_int_eq(unit_plan_parse("0123456789abcdef boot -- x", &q, &e),
			 -1);
	ck_assert_str_eq(e.msg, "plan line 1: cut short (no newline)");
	sbuf_free(&a);
	sbuf_free(&b);
	unit_plan_free(&p);
}
END_TEST

START_TEST(test_steps)
{
	struct unit_plan p = { 0 };
	struct unit_step s[8];

	compare_like(&p, "spec build:x");
	unit_plan_order(&p);
	ck_assert_uint_eq(unit_steps(&p, s, 8), 3);
	ck_assert(s[0].exclusive);
	ck_assert_uint_eq(s[0].first, 0);
	ck_assert_uint_eq(s[0].last, 0);
	ck_assert(!s[1].exclusive);
	ck_assert_uint_eq(s[1].first, 1);
	ck_assert_uint_eq(s[1].last, 1);
	ck_assert_uint_eq(s[2].first, 2);
	ck_assert_uint_eq(s[2].last, 5);
	unit_plan_free(&p);
}
END_TEST

START_TEST(test_slots)
{
	/* This machine: 2 CPUs, plenty of memory, 512 MB guests. */
	ck_assert_int_eq(pool_slots(2, 23000, 512), 2);
	/* Memory bounds it: 2000 MB hold two guests of 512 MB and QEMU. */
	ck_assert_int_eq(pool_slots(16, 2000, 512), 2);
	ck_assert_int_eq(pool_slots(16, 100, 512), 1);
	ck_assert_int_eq(pool_slots(0, 100000, 512), 1);
	ck_assert_int_eq(pool_slots(1000, 10000000, 512), 32);
}
END_TEST

START_TEST(test_pick)
{
	struct unit_plan p = { 0 };
	enum pool_state st[6] = { 0 };

	compare_like(&p, "spec build:x");
	unit_plan_order(&p);
	/* Order: build B (0), provision A (1), A's boots, B's boots. */
	ck_assert_int_eq(p.v[0].kind, UNIT_BUILD);
	/* What runs beside others before the build that runs alone. */
	ck_assert_int_eq(pool_pick(&p, st, 2), 1);
	st[1] = POOL_RUNNING;
	/* The build waits for an idle machine; A's boots for A. */
	ck_assert_int_eq(pool_pick(&p, st, 2), -1);
	st[1] = POOL_DONE;
	ck_assert_int_eq(pool_pick(&p, st, 2), 2);
	st[2] = POOL_RUNNING;
	ck_assert_int_eq(pool_pick(&p, st, 2), 3);
	st[3] = POOL_RUNNING;
	ck_assert_int_eq(pool_pick(&p, st, 2), -1);
	st[2] = POOL_DONE;
	/* A slot is free, but a build runs alone. */
	ck_assert_int_eq(pool_pick(&p, st, 2), -1);
	st[3] = POOL_DONE;
	ck_assert_int_eq(pool_pick(&p, st, 2), 0);
	st[0] = POOL_RUNNING;
	/* Nothing beside a running build. */
	ck_assert_int_eq(pool_pick(&p, st, 3), -1);
	/* A failed dependency fails its dependents. */
	st[0] = POOL_FAILED;
	ck_assert_int_eq(pool_pick(&p, st, 2), -1);
	ck_assert_int_eq(st[4], POOL_FAILED);
	ck_assert_int_eq(st[5], POOL_FAILED);
	unit_plan_free(&p);
}
END_TEST

/* Four mutants' builds (exclusive) then boots; estimates by kind. */
START_TEST(test_eta)
{
	struct unit_plan p = { 0 };
	enum pool_state st[8];
	double took[8], ran[8] = { 0 };
	size_t i;

	for (i = 0; i < 4; i++) {
		char key[16];
		size_t b;

		snprintf(key, sizeof(key), "build%zu", i);
		b = unit_add(&p, UNIT_BUILD, key, NULL, 0, key);
		snprintf(key, sizeof(key), "boot%zu", i);
		unit_add(&p, UNIT_BOOT, key, &b, 1, key);
	}
	for (i = 0; i < 8; i++) {
		st[i] = POOL_WAIT;
		took[i] = -1;
	}
	/* Nothing finished: no estimate. */
	ck_assert_double_eq(pool_eta(&p, st, took, ran, 2), -1);
	/* A build of 50 s finished: every unit left costs 50 s (no boot
	 * measured); 3 builds alone, 4 boots 2 at a time. */
	st[0] = POOL_DONE;
	took[0] = 50;
	ck_assert_double_eq_tol(pool_eta(&p, st, took, ran, 2),
				3 * 50 + 4 * 50 / 2.0, 1e-9);
	/* A boot of 80 s measured; one running for 30 s of its 80. */
	st[1] = POOL_DONE;
	took[1] = 80;
	st[3] = POOL_RUNNING;
	ran[3] = 30;
	ck_assert_double_eq_tol(pool_eta(&p, st, took, ran, 2),
				3 * 50 + (50 + 80 + 80) / 2.0, 1e-9);
	/* A unit running longer than the mean costs nothing more. */
	ran[3] = 500;
	ck_assert_double_eq_tol(pool_eta(&p, st, took, ran, 1),
				3 * 50 + 80 + 80, 1e-9);
	/* Done before this run (not measured) and failed units cost 0. */
	for (i = 2; i < 8; i++)
		st[i] = i % 2 ? POOL_FAILED : POOL_DONE;
	ck_assert_double_eq(pool_eta(&p, st, took, ran, 2), 0);
	unit_plan_free(&p);
}
END_TEST

START_TEST(test_pick_build_waits)
{
	struct unit_plan p = { 0 };
	enum pool_state st[3] = { POOL_DONE, POOL_RUNNING, POOL_WAIT };
	size_t a = unit_add(&p, UNIT_PROVISION, "a", NULL, 0, "a");

	unit_add(&p, UNIT_BOOT, "boot", &a, 1, "boot");
	unit_add(&p, UNIT_BUILD, "build", &a, 1, "build");
	/* Never a build beside a boot, nor a bench boot beside anything. */
	ck_assert(unit_kind_exclusive(UNIT_BUILD));
	ck_assert(unit_kind_exclusive(UNIT_BENCH));
	/* Counted in instructions (icount): others do not disturb it. */
	ck_assert(!unit_kind_exclusive(UNIT_COUNT));
	ck_assert(unit_kind_bench(UNIT_COUNT) && unit_kind_bench(UNIT_BENCH));
	ck_assert(!unit_kind_bench(UNIT_BOOT));
	ck_assert_int_eq(unit_kind_parse("count"), UNIT_COUNT);
	ck_assert(!unit_kind_exclusive(UNIT_BOOT));
	ck_assert(!unit_kind_exclusive(UNIT_PROVISION));
	ck_assert_int_eq(pool_pick(&p, st, 8), -1);
	st[1] = POOL_DONE;
	ck_assert_int_eq(pool_pick(&p, st, 8), 2);
	unit_plan_free(&p);
}
END_TEST

static char *new_store(void)
{
	char tmpl[] = "/tmp/test_units.XXXXXX";

	ck_assert_ptr_nonnull(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static size_t entries(const char *dir)
{
	char *cmd = xasprintf("ls -A %s | wc -l", dir), buf[32] = "";
	FILE *f = popen(cmd, "r");

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), f));
	pclose(f);
	free(cmd);
	return strtoul(buf, NULL, 10);
}

/* A racer: takes the lock, runs the unit unless done, commits. */
static void racer(const char *store, const char *name, int locked_fd, int go_fd)
{
	struct err e;
	char c = 'x', *tmp;
	int fd = store_lock(store, "0123456789abcdef", &e);

	if (fd < 0)
		_exit(10);
	/* Tell the parent we hold it; wait until it says go on. */
	if (write(locked_fd, &c, 1) != 1 || read(go_fd, &c, 1) != 1)
		_exit(11);
	if (store_done(store, "0123456789abcdef"))
		_exit(0);
	tmp = store_begin(store, "0123456789abcdef", &e);
	if (!tmp || write_file_at(tmp, "result", name, strlen(name)) ||
	    store_commit(store, "0123456789abcdef", tmp, "seconds 1\n", &e))
		_exit(12);
	store_unlock(fd);
	_exit(0);
}

START_TEST(test_store_race)
{
	char *store = new_store(), *units, *result, c = 'g';
	int locked[2], go[2], st1, st2;
	pid_t a, b;

	ck_assert_int_eq(pipe(locked), 0);
	ck_assert_int_eq(pipe(go), 0);
	a = fork();
	if (!a)
		racer(store, "first", locked[1], go[0]);
	/* A holds the lock before B starts. */
	ck_assert_int_eq(read(locked[0], &c, 1), 1);
	b = fork();
	if (!b)
		racer(store, "second", locked[1], go[0]);
	/* B waits on the lock: the only "go" A can read is this one. */
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(waitpid(a, &st1, 0), a);
	/* Now B has the lock and the done unit. */
	ck_assert_int_eq(read(locked[0], &c, 1), 1);
	ck_assert_int_eq(write(go[1], "g", 1), 1);
	ck_assert_int_eq(waitpid(b, &st2, 0), b);
	ck_assert(WIFEXITED(st1) && WEXITSTATUS(st1) == 0);
	ck_assert(WIFEXITED(st2) && WEXITSTATUS(st2) == 0);
	units = xasprintf("%s/units", store);
	/* One result, no attempt left over. */
	ck_assert_uint_eq(entries(units), 1);
	result = xasprintf("%s/0123456789abcdef/result", units);
	ck_assert_int_eq(read_file(result, &result, NULL), 0);
	ck_assert_str_eq(result, "first");
	ck_assert(store_done(store, "0123456789abcdef"));
	remove_tree(store);
	free(units);
}
END_TEST

START_TEST(test_store_rename_wins)
{
	char *store = new_store(), *t1, *t2, *text, *path;
	struct err e;

	/* No lock (a file system without flock): the first rename wins. */
	t1 = store_begin(store, "0123456789abcdef", &e);
	ck_assert_ptr_nonnull(t1);
	/* A second attempt of the same process would remove the first. */
	t2 = xasprintf("%s/units/.0123456789abcdef.other.1.tmp", store);
	ck_assert_int_eq(mkdir_p(t2), 0);
	write_file_at(t1, "result", "one", 3);
	write_file_at(t2, "result", "two", 3);
	ck_assert(!store_done(store, "0123456789abcdef"));
	ck_assert_int_eq(store_commit(store, "0123456789abcdef", t1, "d\n", &e),
			 0);
	ck_assert_int_eq(store_commit(store, "0123456789abcdef", t2, "d\n", &e),
			 0);
	ck_assert(!path_exists(t2));
	path = xasprintf("%s/units/0123456789abcdef/result", store);
	ck_assert_int_eq(read_file(path, &text, NULL), 0);
	ck_assert_str_eq(text, "one");
	free(text);
	free(path);
	free(t1);
	free(t2);
	remove_tree(store);
}
END_TEST

START_TEST(test_store_save_load)
{
	char *store = new_store(), *block, *cwd, **argv, *plan;
	char *words[] = { "compare", "--lsm", "apparmor", "A", "B" };
	char *other[] = { "compare", "A", "C" };
	struct err e;
	int argc;

	ck_assert_int_eq(store_save(store, "/x", words, 5, "plan\n", &e), 0);
	/* The same command from elsewhere: no change. */
	ck_assert_int_eq(store_save(store, "/y", words, 5, "plan\n", &e), 0);
	ck_assert_int_eq(store_save(store, "/x", other, 3, "plan\n", &e), -1);
	ck_assert_ptr_nonnull(strstr(
		e.msg, "already holds the plan of another command (compare)"));
	ck_assert_int_eq(
		store_load(store, &block, &cwd, &argv, &argc, &plan, &e), 0);
	ck_assert_str_eq(cwd, "/x");
	ck_assert_int_eq(argc, 5);
	ck_assert_str_eq(argv[0], "compare");
	ck_assert_str_eq(argv[4], "B");
	ck_assert_ptr_null(argv[5]);
	ck_assert_str_eq(plan, "plan\n");
	free(block);
	free(argv);
	free(plan);
	remove_tree(store);
	ck_assert_int_eq(
		store_load(store, &block, &cwd, &argv, &argc, &plan, &e), -1);
}
END_TEST

/* Writes @text to @store/units/@id/@name, directories made. */
static void put(const char *store, const char *id, const char *name,
		const char *text)
{
	char *path = xasprintf("%s/units/%s/%s", store, id, name);
	char *dir = xstrndup(path, strrchr(path, '/') - path);

	ck_assert_int_eq(mkdir_p(dir), 0);
	ck_assert_int_eq(write_file(path, text, strlen(text)), 0);
	free(dir);
	free(path);
}

/* A boot directory as run_kernel() leaves it: @decisions recorded. */
static void put_boot(const char *store, const char *id, const char *dir,
		     int decisions)
{
	char *name = xasprintf("%s/kernel.txt", dir), *text;

	text = xasprintf("spec\tbuild:x\ndecisions\t%d\nqemu\tqemu -m 512\n"
			 "verdict\tPASS\n",
			 decisions);
	put(store, id, name, text);
	free(text);
	free(name);
	name = xasprintf("%s/ktap.txt", dir);
	put(store, id, name, "TAP version 13\n1..1\n");
	free(name);
	if (decisions) {
		name = xasprintf("%s/records.tsv", dir);
		put(store, id, name, "id\texpected\tobserved\n");
		free(name);
	}
}

/* What unit @u of @store lacks, as store_unit_lacks() says it. */
static char *lacks_of(const char *store, const struct unit *u,
		      const char *const *lsms, size_t n_lsms, size_t *n)
{
	struct unit_boots b = { lsms, n_lsms, false, "insns.tsv" };
	struct sbuf sb = { 0 };

	*n = store_unit_lacks(store, u, &b, &sb);
	return sb.buf ? sb.buf : xstrdup("");
}

START_TEST(test_store_lacks)
{
	static const char *const two[] = { "apparmor", "selinux" };
	char *store = new_store(), *text, *path;
	struct unit b = { .id = "0123456789abcdef", .kind = UNIT_BUILD };
	struct unit boot = { .id = "1123456789abcdef",
			     .kind = UNIT_BOOT,
			     .name = "base" };
	struct unit m = { .id = "2123456789abcdef", .kind = UNIT_BOOT };
	struct unit cost = { .id = "3123456789abcdef",
			     .kind = UNIT_COUNT,
			     .name = "original-cost-A" };
	size_t n;

	/* A build: kernel.tsv with its status, whatever the status. */
	text = lacks_of(store, &b, NULL, 0, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(text, "kernel.tsv");
	free(text);
	put(store, b.id, "kernel.tsv", "spec build:x\n");
	text = lacks_of(store, &b, NULL, 0, &n);
	ck_assert_str_eq(text, "kernel.tsv's status line");
	free(text);
	put(store, b.id, "kernel.tsv", "status failed\nerror x\n");
	text = lacks_of(store, &b, NULL, 0, &n);
	ck_assert_uint_eq(n, 0);
	free(text);

	/* A boot: its verdict and a directory per LSM, whole. */
	text = lacks_of(store, &boot, two, 2, &n);
	ck_assert_str_eq(text, "verdict");
	free(text);
	put(store, boot.id, "verdict", "PASS\n");
	put_boot(store, boot.id, "base-apparmor", 12);
	text = lacks_of(store, &boot, two, 2, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(text, "base-selinux/");
	free(text);
	put_boot(store, boot.id, "base-selinux", 0);
	text = lacks_of(store, &boot, two, 2, &n);
	ck_assert_uint_eq(n, 0);
	free(text);
	/* Decisions counted, their records gone; ktap.txt gone. */
	path = xasprintf("%s/units/%s/base-apparmor/records.tsv", store,
			 boot.id);
	unlink(path);
	free(path);
	path = xasprintf("%s/units/%s/base-selinux/ktap.txt", store, boot.id);
	unlink(path);
	free(path);
	text = lacks_of(store, &boot, two, 2, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(text,
			 "base-apparmor/records.tsv, base-selinux/ktap.txt");
	free(text);
	/* A kernel that did not build boots nothing. */
	put(store, boot.id, "verdict", "NOBUILD\n");
	text = lacks_of(store, &boot, two, 2, &n);
	ck_assert_uint_eq(n, 0);
	free(text);
	put(store, boot.id, "verdict", "maybe\n");
	text = lacks_of(store, &boot, two, 2, &n);
	ck_assert_str_eq(text, "verdict (neither PASS, FAIL nor NOBUILD)");
	free(text);

	/* A mutant's boot unit: each run's directories. */
	put(store, m.id, "runs", "mutant-x PASS\nmutant-x-again FAIL\n");
	put_boot(store, m.id, "mutant-x-apparmor", 3);
	text = lacks_of(store, &m, two, 1, &n);
	ck_assert_str_eq(text, "mutant-x-again-apparmor/");
	free(text);
	put_boot(store, m.id, "mutant-x-again-apparmor", 3);
	text = lacks_of(store, &m, two, 1, &n);
	ck_assert_uint_eq(n, 0);
	free(text);
	/* Stillborn: no run at all. */
	put(store, m.id, "runs", "");
	text = lacks_of(store, &m, two, 1, &n);
	ck_assert_uint_eq(n, 0);
	free(text);
	put(store, m.id, "runs", "mutant-x PASS");
	text = lacks_of(store, &m, two, 1, &n);
	ck_assert_str_eq(text, "runs (its last line cut short)");
	free(text);
	/* Which LSMs held the --test not known here: one of them at least. */
	{
		struct unit_boots some = { two, 2, true, NULL };
		struct sbuf sb = { 0 };

		put(store, m.id, "runs", "mutant-x PASS\nmutant-y FAIL\n");
		ck_assert_uint_eq(store_unit_lacks(store, &m, &some, &sb), 1);
		ck_assert_str_eq(sb.buf,
				 "mutant-y-apparmor/ or mutant-y-selinux/");
		sbuf_free(&sb);
	}

	/* A bench boot that passed: its samples; with the plugin, its
	 * profile too. */
	put(store, cost.id, "verdict", "PASS\n");
	put_boot(store, cost.id, "original-cost-A-apparmor", 0);
	text = lacks_of(store, &cost, two, 1, &n);
	ck_assert_str_eq(text, "original-cost-A-apparmor/guest/samples.tsv");
	free(text);
	put(store, cost.id, "original-cost-A-apparmor/guest/samples.tsv",
	    "x\n");
	put(store, cost.id, "original-cost-A-apparmor/kernel.txt",
	    "decisions\t0\nqemu\tqemu -plugin p.so,out=/t/insns.tsv -m 1\n");
	text = lacks_of(store, &cost, two, 1, &n);
	ck_assert_str_eq(text, "original-cost-A-apparmor/insns.tsv");
	free(text);
	put(store, cost.id, "original-cost-A-apparmor/insns.tsv", "x\n");
	text = lacks_of(store, &cost, two, 1, &n);
	ck_assert_uint_eq(n, 0);
	free(text);
	/* One that failed is a result as it is. */
	put(store, cost.id, "verdict", "FAIL\n");
	path = xasprintf("%s/units/%s/original-cost-A-apparmor/insns.tsv",
			 store, cost.id);
	unlink(path);
	free(path);
	text = lacks_of(store, &cost, two, 1, &n);
	ck_assert_uint_eq(n, 0);
	free(text);
	remove_tree(store);
	free(store);
}
END_TEST

int main(void)
{
	return CHECK_RUN("units", test_ids, test_order, test_format_parse,
			 test_steps, test_slots, test_pick,
			 test_pick_build_waits, test_eta, test_store_race,
			 test_store_rename_wins, test_store_save_load,
			 test_store_lacks);
}
