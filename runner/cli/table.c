// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf table [--out FILE] RESULTS...`: the revocation table
 * (results/table.h) of one or more results directories, as markdown.
 * RESULTS is a kernel's results directory (it holds records.tsv), a
 * run's directory (each of its subdirectories that holds one is a
 * column group, in name order), or the log of a plain kselftest run
 * (run_kselftest.sh's output: its "# record: " diagnostics).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "results/results.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct table_in {
	struct table_col *cols;
	struct record_set *sets;
	size_t n;
};

/* "SPEC RELEASE LSM" from @dir's kernel.txt, else the directory's name. */
static char *column_name(const char *dir)
{
	char *path = xasprintf("%s/kernel.txt", dir), *text = NULL, *name;
	char *spec, *release, *suite;
	const char *base = strrchr(dir, '/');

	struct err e;
	int ret =
		read_input(path, INPUT_MAX_SMALL, INPUT_TEXT, &text, NULL, &e);

	/* None, or @dir is a plain kselftest log: its own name. */
	if (ret == -ENOENT || ret == -ENOTDIR) {
		free(path);
		return xstrdup(base ? base + 1 : dir);
	}
	if (ret)
		die("table: %s", e.msg);
	free(path);
	spec = saved_value(text, "spec");
	release = saved_value(text, "release");
	suite = saved_value(text, "suite");
	name = xasprintf("%s %s %s", spec ? spec : "?", release ? release : "?",
			 suite ? suite : "?");
	free(spec);
	free(release);
	free(suite);
	free(text);
	return name;
}

static void add_kernel_dir(struct table_in *in, const char *dir, bool log)
{
	char *path = log ? xstrdup(dir) : xasprintf("%s/records.tsv", dir);
	struct record_set *set;
	size_t len, count;
	char *buf, msg[1200];
	struct err e;
	int ret;

	if (read_input(path, INPUT_MAX_BIG, INPUT_TEXT, &buf, &len, &e))
		die("table: %s", e.msg);
	if (log) {
		char *tsv = records_from_diag(buf, len, &count);

		free(buf);
		buf = tsv;
		len = strlen(tsv);
		if (!count)
			die("table: %s holds no \"# record: \" lines (not a kselftest log of these tests?)",
			    path);
	}
	in->sets = xrealloc(in->sets, (in->n + 1) * sizeof(*in->sets));
	in->cols = xrealloc(in->cols, (in->n + 1) * sizeof(*in->cols));
	set = &in->sets[in->n];
	ret = records_parse(buf, len, set);
	if (ret) {
		records_error(set, ret, msg, sizeof(msg));
		die("table: %s: %s", path, msg);
	}
	/* A saved records.tsv is lsmconf's own: read strictly. */
	if (!log && records_check(set, msg, sizeof(msg)))
		die("table: %s: %s", path, msg);
	if (set->malformed) {
		records_bad_line(set, msg, sizeof(msg));
		note("table: %s: %zu malformed lines (first: %s)", path,
		     set->malformed, msg);
	}
	in->cols[in->n].name = column_name(dir);
	in->n++;
	free(buf);
	free(path);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void add_results(struct table_in *in, const char *dir)
{
	char *path = xasprintf("%s/records.tsv", dir), **names = NULL;
	struct dirent *d;
	struct stat st;
	size_t n = 0, i;
	DIR *dp;

	if (!stat(dir, &st) && S_ISREG(st.st_mode)) {
		free(path);
		add_kernel_dir(in, dir, true);
		return;
	}
	if (path_exists(path)) {
		free(path);
		add_kernel_dir(in, dir, false);
		return;
	}
	free(path);
	dp = opendir(dir);
	if (!dp)
		die("table: cannot open %s: %s", dir, strerror(errno));
	while ((d = readdir(dp))) {
		char *sub = xasprintf("%s/%s/records.tsv", dir, d->d_name);

		if (d->d_name[0] != '.' && path_exists(sub)) {
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xasprintf("%s/%s", dir, d->d_name);
		}
		free(sub);
	}
	closedir(dp);
	if (!n)
		die("table: %s holds no records.tsv (a kernel's results directory or a run's)",
		    dir);
	qsort(names, n, sizeof(*names), name_cmp);
	for (i = 0; i < n; i++) {
		add_kernel_dir(in, names[i], false);
		free(names[i]);
	}
	free(names);
}

int cmd_table(int argc, char **argv)
{
	struct table_in in = { 0 };
	const char *out = NULL;
	char *md;
	size_t i;
	int a;

	for (a = 1; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "--out"))
			out = opt_value("--out", argv[++a]);
		else
			die("table: unknown option %s", argv[a]);
	}
	if (a >= argc)
		die("table: no results directory given");
	for (; a < argc; a++)
		add_results(&in, argv[a]);
	/* The sets moved while they grew: point at them now. */
	for (i = 0; i < in.n; i++)
		in.cols[i].recs = &in.sets[i];
	md = table_markdown(in.cols, in.n);
	if (out) {
		if (write_file(out, md, strlen(md)))
			die("table: cannot write %s", out);
	} else {
		fputs(md, stdout);
	}
	free(md);
	for (i = 0; i < in.n; i++) {
		records_free(&in.sets[i]);
		free((char *)in.cols[i].name);
	}
	free(in.sets);
	free(in.cols);
	return 0;
}
