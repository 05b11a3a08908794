// SPDX-License-Identifier: GPL-2.0
/*
 * What came back: the frames of each boot, the records, and every planned
 * case accounted for (known kernel bugs included).
 */
#define _GNU_SOURCE
#include "internal.h"
#include "vm/vm.h"
#include "provision/provision.h"
#include "results/results.h"
#include "lsmconf_record.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * The guest's decision records, checked and written to the results
 * directory sorted by id (so two kernels' files diff line by line).
 */
static int collect_records(struct kernel_run *kr, struct err *e)
{
	char *path = xasprintf("%s/guest/records.tsv", kr->dir), *buf;
	struct record_set set;
	struct sbuf out = { 0 }, known = { 0 };
	size_t len, i;
	int c, ret;

	if (read_file(path, &buf, &len)) {
		free(path);
		return 0;
	}
	free(path);
	ret = records_parse(buf, len, &set);
	if (ret) {
		char msg[1200];

		records_error(&set, ret, msg, sizeof(msg));
		records_free(&set);
		free(buf);
		return err_set(e, "%s/guest/records.tsv: %s", kr->dir, msg);
	}
	free(buf);
	if (set.malformed) {
		char first[256];

		records_bad_line(&set, first, sizeof(first));
		add_problem(kr, "records.tsv: %zu malformed lines (first: %s)",
			    set.malformed, first);
	}
	if (set.duplicates) {
		char first[1200];

		records_first_duplicate(&set, first, sizeof(first));
		add_problem(
			kr,
			"records.tsv: %zu case ids recorded twice (first: %s)",
			set.duplicates, first);
	}
	kr->decisions = set.n;
	kr->mismatches = set.mismatches;
	for (i = 0; kr->known && i < set.n; i++) {
		const struct known_bug *b =
			known_record(kr->known, kr->names, &set.v[i]);

		if (!b)
			continue;
		kr->mismatches--;
		kr->known_decisions++;
		sbuf_printf(&known, "%s\t%s\n", set.v[i].col[REC_ID], b->name);
	}
	if (known.len)
		write_file_at(kr->dir, "known.tsv", known.buf, known.len);
	sbuf_free(&known);
	sbuf_printf(&out, "%s", RECORD_HEADER);
	for (i = 0; i < set.n; i++)
		for (c = 0; c < REC_N_COLS; c++)
			sbuf_printf(&out, "%s%c", set.v[i].col[c],
				    c == REC_N_COLS - 1 ? '\n' : '\t');
	path = xasprintf("%s/records.tsv", kr->dir);
	if (write_file(path, out.buf, out.len))
		ret = err_set(e, "cannot write %s", path);
	free(path);
	sbuf_free(&out);
	records_free(&set);
	return ret;
}

/* The per-test files the guest sent, merged as one set in plan order. */
static void merge_outputs(struct kernel_run *kr, const char *file)
{
	struct sbuf all = { 0 };
	char *path, *buf;
	size_t i, len;

	for (i = 0; i < kr->plan.n; i++) {
		path = xasprintf("%s/guest/out/%s/%s", kr->dir,
				 kr->plan.items[i].name, file);
		if (!read_file(path, &buf, &len)) {
			sbuf_add(&all, buf, len);
			free(buf);
		}
		free(path);
	}
	if (all.len) {
		path = xasprintf("%s/guest/%s", kr->dir, file);
		write_file(path, all.buf, all.len);
		free(path);
	}
	sbuf_free(&all);
}

/*
 * Unpacks every whole frame of a boot's data channel into guest/; the
 * tests whose results arrived are marked. Returns whether the last frame
 * (sent after the tests) arrived.
 */
/* Whether @names (one a line, as xfer_untar_names() gives) holds @name. */
static bool has_name(const char *names, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = names; p && *p; p += strcspn(p, "\n") + 1) {
		if (!strncmp(p, "./", 2))
			p += 2;
		if (!strncmp(p, name, n) && p[n] == '\n')
			return true;
		if (!p[strcspn(p, "\n")])
			break;
	}
	return false;
}

/*
 * Output of run_kselftest.sh -c (@text, @len bytes) as the per-test mode
 * leaves it: each program's part as tests/NAME.ktap, the exit status the
 * runner's result line stands for as tests/NAME.rc, and the records of
 * its "# record: " diagnostics as out/NAME/records.tsv. A planned program
 * whose result line is there counts as arrived (framed); with
 * @finished_only, only those are kept. Returns how many arrived.
 */
size_t split_whole(struct kernel_run *kr, int boot, const char *text,
		   size_t len, bool finished_only)
{
	char *inner, *out, name[256];
	const char *part;
	size_t plen, pos = 0, n, i, got = 0;
	struct ksft_run run;

	out = xasprintf("%s/guest/tests", kr->dir);
	mkdir_p(out);
	free(out);
	while (ksft_next(text, len, &pos, &part, &plen, name, sizeof(name))) {
		for (i = 0; i < kr->plan.n; i++)
			if (!strcmp(kr->plan.items[i].name, name))
				break;
		if (i == kr->plan.n) {
			add_problem(
				kr,
				"boot %d: run_kselftest.sh ran %s, which was not planned",
				boot, name);
			continue;
		}
		if (ksft_unwrap(part, plen, &inner, &n, &run) < 0)
			oom();
		if (finished_only && !run.finished) {
			free(inner);
			continue;
		}
		out = xasprintf("%s/guest/tests/%s.ktap", kr->dir, name);
		write_file(out, part, plen);
		free(out);
		if (run.finished) {
			char *rc = xasprintf("%d\n", run.rc), *dir, *recs;
			size_t count, h = strlen(RECORD_HEADER);

			out = xasprintf("%s/guest/tests/%s.rc", kr->dir, name);
			write_file(out, rc, strlen(rc));
			free(out);
			free(rc);
			/* As the tests write them: the lines, no header. */
			recs = records_from_diag(inner, n, &count);
			dir = xasprintf("%s/guest/out/%s", kr->dir, name);
			mkdir_p(dir);
			if (count)
				write_file_at(dir, "records.tsv", recs + h,
					      strlen(recs + h));
			free(dir);
			free(recs);
			kr->fate[i].framed = true;
			kr->fate[i].boot = boot;
			got++;
		}
		free(inner);
	}
	return got;
}

/* guest/whole.ktap, the frame of a whole-collection boot, split. */
static void take_whole(struct kernel_run *kr, int boot)
{
	char *path = xasprintf("%s/guest/whole.ktap", kr->dir), *buf;
	size_t len;

	if (read_file(path, &buf, &len)) {
		add_problem(kr, "boot %d: %s is missing", boot, path);
	} else {
		split_whole(kr, boot, buf, len, false);
		free(buf);
	}
	free(path);
}

/*
 * A coverage build's gcov counters (guest/gcov/, the tree under the
 * guest's debugfs) kept as this boot's, coverage/boot-N/: each boot's
 * count from zero, and the report adds them up (lsmconf coverage).
 */
static void take_counters(struct kernel_run *kr, const char *gdir, int boot)
{
	char *from = xasprintf("%s/gcov", gdir), *to;

	if (!path_exists(from)) {
		free(from);
		return;
	}
	to = xasprintf("%s/coverage/boot-%d", kr->dir, boot);
	remove_tree(to);
	if (mkdir_p(to) || rmdir(to) || rename(from, to))
		add_problem(kr, "boot %d: cannot keep its gcov counters in %s",
			    boot, to);
	free(to);
	free(from);
}

bool take_frames(struct kernel_run *kr, const char *bdir, int boot,
		 bool *identity)
{
	char *path = xasprintf("%s/data.bin", bdir), *gdir, err[256];
	char *buf = NULL;
	const char *payload;
	size_t len = 0, plen, pos = 0, i;
	bool last = false;
	int ret;

	*identity = false;
	if (read_file(path, &buf, &len))
		len = 0;
	gdir = xasprintf("%s/guest", kr->dir);
	mkdir_p(gdir);
	while (!(ret = xfer_next(buf ? buf : "", len, &pos, &payload, &plen,
				 err, sizeof(err)))) {
		struct sbuf names = { 0 };

		/* What the frame holds says which part of the run it is. */
		if (xfer_untar_names(payload, plen, gdir, &names, err,
				     sizeof(err)) < 0) {
			add_problem(kr, "boot %d: %s", boot, err);
		} else {
			*identity |= has_name(names.buf, "uname");
			/* This boot's, before a later boot's frames replace them. */
			timing_boot_rows(kr, boot,
					 has_name(names.buf, "uptime.start"),
					 has_name(names.buf, "transfer.time"));
			if (has_name(names.buf, "whole.rc"))
				take_whole(kr, boot);
			last |= has_name(names.buf, "dmesg.txt");
			for (i = 0; i < kr->plan.n; i++) {
				char *rc = xasprintf("tests/%s.rc",
						     kr->plan.items[i].name);

				if (has_name(names.buf, rc)) {
					kr->fate[i].framed = true;
					kr->fate[i].boot = boot;
				}
				free(rc);
			}
		}
		sbuf_free(&names);
	}
	/* A frame cut short is how a boot that died mid-transfer looks. */
	if (ret < 0 && pos < len)
		add_problem(kr, "boot %d: %s", boot, err);
	take_counters(kr, gdir, boot);
	free(gdir);
	free(buf);
	free(path);
	return last;
}

/* The case list of test @name from the harness itself ("-l"). */
int list_cases(const struct kernel_run *kr, const char *name, char ***cases)
{
	char *prog = xasprintf("%s/%s", kr->tests_dir, name), *out, *err;
	char *argv[] = { prog, "-l", NULL };
	int ret, n = -1;

	ret = spawn_capture(
		argv, &(struct spawn_opts){ .stdin_fd = -1, .timeout_s = 30 },
		&out, NULL, &err);
	/* The harness lists on stderr (and exits with KSFT_SKIP). */
	if (ret >= 0 && ret < 128)
		n = crash_list_cases(err, cases);
	free(out);
	free(err);
	free(prog);
	return n;
}

/* The guest seconds test @name took (its start and end uptimes), or -1. */
static double test_seconds(const struct kernel_run *kr, const char *name)
{
	char *path = xasprintf("tests/%s.time", name), *text;
	double t0, t1, s = -1;

	text = guest_text(kr, path);
	if (text && sscanf(text, "%lf %lf", &t0, &t1) == 2 && t1 >= t0)
		s = t1 - t0;
	free(text);
	free(path);
	return s;
}

/*
 * The decisions test @name recorded (its own records.tsv); none, and a
 * problem of the run, when the file cannot be read as records.
 */
static void test_records(struct kernel_run *kr, const char *name,
			 struct record_set *set)
{
	char *path = xasprintf("%s/guest/out/%s/records.tsv", kr->dir, name);
	char *buf, msg[1200];
	size_t len;
	int ret;

	if (read_file(path, &buf, &len)) {
		buf = NULL;
		len = 0;
	}
	ret = records_parse(buf ? buf : "", len, set);
	if (ret) {
		records_error(set, ret, msg, sizeof(msg));
		add_problem(kr, "%s: %s", path, msg);
		records_free(set);
		memset(set, 0, sizeof(*set));
	}
	free(buf);
	free(path);
}

/*
 * How many of @t's failed cases are a known kernel bug of this kernel: a
 * listed case whose test recorded the listed wrong decision. A listed
 * case that failed otherwise stays a failure, named as such.
 */
static size_t known_cases(struct kernel_run *kr, const struct test_account *t)
{
	struct record_set recs;
	size_t i, n = 0;
	char why[600];

	if (!kr->known)
		return 0;
	test_records(kr, t->name, &recs);
	for (i = 0; i < t->doc.n_results; i++) {
		const struct ktap_result *r = &t->doc.results[i];
		char *name = xasprintf("%s/%s", t->name, r->name);

		if (known_case(kr->known, kr->names, name,
			       r->status == KTAP_FAIL, &recs, why, sizeof(why)))
			n++;
		else if (why[0])
			add_problem(kr, "%s", why);
		free(name);
	}
	records_free(&recs);
	return n;
}

/*
 * The cases of @t that brought the kernel down: a known kernel bug's, when
 * the kernel's report is its signature, count as that bug (and are kept
 * in known-crashes.tsv, for compare), the others as failures
 * (account_crash()), named.
 */
static void account_crashes(struct kernel_run *kr, struct test_account *t,
			    const struct test_fate *f, struct sbuf *crashes)
{
	char **other = xcalloc(f->n_crashed + 1, sizeof(*other));
	size_t j, n_other = 0, n_known = 0;
	char why[800];

	for (j = 0; j < f->n_crashed; j++) {
		char *name = xasprintf("%s/%s", t->name, f->crashed[j]);
		const struct known_bug *b =
			kr->known ? known_crash(kr->known, kr->crash_names,
						name, f->traces[j], f->hows[j],
						why, sizeof(why)) :
				    NULL;

		if (b) {
			n_known++;
			sbuf_printf(crashes, "%s\t%s\tboot %d\n", name, b->name,
				    f->boots[j]);
		} else {
			other[n_other++] = f->crashed[j];
			if (kr->known && why[0])
				add_problem(kr, "boot %d: %s", f->boots[j],
					    why);
		}
		free(name);
	}
	account_crash(t, f->framed, other, n_other, f->crash_boot,
		      n_known && !n_other ? "" : f->why);
	account_known_crash(t, f->framed, n_known);
	free(other);
}

/*
 * Whether test @name left anything else in its results directory (a
 * capture such as abi_capture's features/, which records no decision).
 */
static bool test_left_other(const struct kernel_run *kr, const char *name)
{
	char *path = xasprintf("%s/guest/out/%s", kr->dir, name);
	DIR *d = opendir(path);
	struct dirent *de;
	bool other = false;

	while (d && (de = readdir(d)) && !other)
		other = de->d_name[0] != '.' &&
			strcmp(de->d_name, "records.tsv") &&
			strcmp(de->d_name, "samples.tsv") &&
			strcmp(de->d_name, "msgcost.tsv") &&
			strcmp(de->d_name, "probe.tsv") &&
			strcmp(de->d_name, "ksyms.txt") &&
			/* timing.tsv's, not a result (timing_rows.c) */
			strcmp(de->d_name, "output.time") &&
			strcmp(de->d_name, "policy.time") &&
			/* the policy seed's, kept apart (vm/seed.h) */
			strcmp(de->d_name, "policy-seed");
	if (d)
		closedir(d);
	free(path);
	return other;
}

/*
 * Lines test @name wrote to its own records.tsv, samples.tsv and
 * msgcost.tsv (decisions and measurements); absent files hold none. A
 * test that wrote none of them but left another result (a capture)
 * counts one.
 */
static size_t test_output_lines(const struct kernel_run *kr, const char *name)
{
	static const char *const files[] = { "records.tsv", "samples.tsv",
					     "msgcost.tsv" };
	size_t n = 0, len, i, j;
	char *path, *buf;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		path = xasprintf("%s/guest/out/%s/%s", kr->dir, name, files[i]);
		if (!read_file(path, &buf, &len)) {
			for (j = 0; j < len; j++)
				n += buf[j] == '\n';
			free(buf);
		}
		free(path);
	}
	return n ? n : test_left_other(kr, name);
}

/*
 * A program's output: as run_kselftest.sh printed it (its own KTAP inside
 * the runner's, whose result line says how it ended: its exit status, or
 * killed at the settings timeout) or as the program printed it (a case
 * rerun after a crash runs the program itself).
 */
static void parse_output(struct test_account *t, const char *buf, size_t len)
{
	struct ksft_run run;
	char *inner;
	size_t n;
	int wrapped = ksft_unwrap(buf, len, &inner, &n, &run);

	if (wrapped < 0 ||
	    ktap_parse(wrapped ? inner : buf, wrapped ? n : len, &t->doc))
		oom();
	t->have_ktap = true;
	if (wrapped && run.finished) {
		t->rc = run.rc;
		if (run.timed_out)
			t->timeout_s = run.timeout_s;
	}
	free(inner);
}

int collect(struct kernel_run *kr, struct err *e)
{
	struct sbuf crashes = { 0 };
	char *path, *buf;
	size_t len, i;

	merge_outputs(kr, "records.tsv");
	merge_outputs(kr, "samples.tsv");
	merge_outputs(kr, "msgcost.tsv");
	/* The bench's path evidence (path_probe.h). */
	merge_outputs(kr, "probe.tsv");
	/* The kernel's symbols for the bench's instruction profile. */
	merge_outputs(kr, "ksyms.txt");
	/* The release first: known kernel bugs are listed per kernel. */
	kr->uname = guest_text(kr, "uname");
	chomp(kr->uname);
	kr->names = xasprintf("%s%s%s", kr->uname ? kr->uname : "",
			      kr->k.known_name ? " " : "",
			      kr->k.known_name ? kr->k.known_name : "");
	kr->crash_names =
		xasprintf("%s%s%s", kr->names, kr->k.known_base ? " " : "",
			  kr->k.known_base ? kr->k.known_base : "");
	{
		char *proc = guest_text(kr, "version"), v[64];

		if (!identity_upstream(proc, v, sizeof(v)))
			kr->upstream = xstrdup(v);
		else if (kr->k.tree_version)
			kr->upstream = xstrdup(kr->k.tree_version);
		free(proc);
	}
	if (kr->known)
		known_reset(kr->known);
	if (collect_records(kr, e))
		return -1;
	{
		char *t0 = guest_text(kr, "uptime.start");
		char *t1 = guest_text(kr, "uptime.end");

		if (t0)
			kr->guest_boot_s = atof(t0);
		if (t0 && t1)
			kr->guest_suite_s = atof(t1) - atof(t0);
		free(t0);
		free(t1);
	}
	kr->lsm_list = guest_text(kr, "lsm");
	chomp(kr->lsm_list);
	path = xasprintf("%s/guest/features.tsv", kr->dir);
	if (read_file(path, &kr->features, NULL))
		kr->features = NULL;
	free(path);

	kr->skip_why = skip_expected(kr->lsm_list, kr->lsm, kr->qemu_cmdline);

	kr->acct = xcalloc(kr->plan.n, sizeof(*kr->acct));
	for (i = 0; i < kr->plan.n; i++) {
		struct test_account *t = &kr->acct[i];
		char *rc;

		t->name = kr->plan.items[i].name;
		t->timeout_s = kr->plan.items[i].timeout_s;
		path = xasprintf("tests/%s.rc", t->name);
		rc = guest_text(kr, path);
		t->rc = rc ? atoi(rc) : RC_NEVER;
		free(rc);
		free(path);
		t->seconds = test_seconds(kr, t->name);
		path = xasprintf("%s/guest/tests/%s.ktap", kr->dir, t->name);
		if (!read_file(path, &buf, &len)) {
			parse_output(t, buf, len);
			free(buf);
		}
		free(path);
		if (!t->have_ktap && kr->fate[i].live)
			parse_output(t, kr->fate[i].live,
				     strlen(kr->fate[i].live));
		if (t->have_ktap)
			t->known = known_cases(kr, t);
		/* Counted where its results arrived: a planned test records. */
		t->counted = kr->fate[i].framed;
		if (t->counted)
			t->records = test_output_lines(kr, t->name);
		t->skip_expected = kr->skip_why != NULL;
		account_test(t);
		account_crashes(kr, t, &kr->fate[i], &crashes);
		totals_add(&kr->totals, t);
	}
	if (crashes.len)
		write_file_at(kr->dir, "known-crashes.tsv", crashes.buf,
			      crashes.len);
	sbuf_free(&crashes);
	if (kr->known && !kr->skip_why) {
		const struct known_bug *b =
			known_unreproduced(kr->known, kr->names);

		if (b)
			add_problem(
				kr,
				"known kernel bug %s no longer shows on %s (a listed case or decision behaves otherwise now): update the known bugs list",
				b->name, kr->uname);
	}
	return 0;
}
