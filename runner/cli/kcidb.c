// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf kcidb RESULTS [--origin NAME] [--run ID] [--known-bugs FILE]
 * [-o FILE]`:
 * one KCIDB v5.3 submission (results/kcidb.h) for a results directory of
 * any command (a boot's, or a run's with one directory per boot), by
 * default RESULTS/kcidb.json. Submitting it is kcidb's own kcidb-submit:
 * lsmconf makes no network call.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "results/results.h"
#include "provision/provision.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct kboot {
	char *dir, *name, *kernel_txt, *ktap, *known_crashes;
	char **crashes; /* its crash-N.txt files */
	char **time_names, **times; /* its guest/tests/NAME.time files */
	size_t ktap_len, n_crashes, n_times;
	struct record_set recs;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kboot *)a)->name,
		      ((const struct kboot *)b)->name);
}

/*
 * @dir's file @name, or NULL when there is none; one that is not a
 * readable text file within its limit is a one-line death.
 */
static char *maybe_read(const char *dir, const char *name, size_t *len)
{
	char *path = xasprintf("%s/%s", dir, name), *buf;
	struct err e;
	int ret = read_input(path, INPUT_MAX_BIG, INPUT_TEXT, &buf, len, &e);

	if (ret == -ENOENT)
		buf = NULL;
	else if (ret)
		die("kcidb: %s", e.msg);
	free(path);
	return buf;
}

/* The guest/tests/NAME.time files of boot directory @dir. */
static void load_times(struct kboot *b, const char *dir)
{
	char *tests = xasprintf("%s/guest/tests", dir);
	struct dirent *de;
	DIR *d = opendir(tests);

	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char *text;

		if (n <= 5 || strcmp(de->d_name + n - 5, ".time"))
			continue;
		text = maybe_read(tests, de->d_name, NULL);
		if (!text)
			continue;
		b->times =
			xrealloc(b->times, (b->n_times + 1) * sizeof(char *));
		b->time_names = xrealloc(b->time_names,
					 (b->n_times + 1) * sizeof(char *));
		b->time_names[b->n_times] = xstrndup(de->d_name, n - 5);
		b->times[b->n_times++] = text;
	}
	if (d)
		closedir(d);
	free(tests);
}

/* The crash-N.txt files of boot directory @dir. */
static void load_crashes(struct kboot *b, const char *dir)
{
	struct dirent *de;
	DIR *d = opendir(dir);
	unsigned int n;
	char end;

	while (d && (de = readdir(d))) {
		char *text;

		if (sscanf(de->d_name, "crash-%u.tx%c", &n, &end) != 2 ||
		    end != 't' || strcmp(strrchr(de->d_name, '.'), ".txt"))
			continue;
		text = maybe_read(dir, de->d_name, NULL);
		if (!text)
			continue;
		b->crashes = xrealloc(b->crashes,
				      (b->n_crashes + 1) * sizeof(*b->crashes));
		b->crashes[b->n_crashes++] = text;
	}
	if (d)
		closedir(d);
}

static void load_boot(struct kboot *b, const char *dir, const char *name)
{
	char *recs, *known, msg[512];
	size_t len = 0;
	struct err e;
	int ret;

	b->dir = xstrdup(dir);
	b->name = xstrdup(name);
	/* Every file a saved boot hands over, as lsmconf wrote it. */
	if (saved_check_files(dir, &e) || saved_check_records(dir, &e))
		die("kcidb: %s", e.msg);
	b->kernel_txt = maybe_read(dir, "kernel.txt", &len);
	if (b->kernel_txt &&
	    saved_kernel_txt_check(b->kernel_txt, len, "kernel.txt", &e))
		die("kcidb: %s/%s", dir, e.msg);
	b->ktap = maybe_read(dir, "ktap.txt", &b->ktap_len);
	if (!b->ktap)
		die("kcidb: %s: no ktap.txt (not a finished boot's results)",
		    dir);
	b->known_crashes = maybe_read(dir, "known-crashes.tsv", NULL);
	load_crashes(b, dir);
	load_times(b, dir);
	recs = maybe_read(dir, "records.tsv", &len);
	ret = records_parse(recs ? recs : "", recs ? len : 0, &b->recs);
	if (ret) {
		records_error(&b->recs, ret, msg, sizeof(msg));
		die("kcidb: %s/records.tsv: %s", dir, msg);
	}
	if (b->recs.malformed)
		die("kcidb: %s/records.tsv: %zu malformed lines from line %u (cut short?)",
		    dir, b->recs.malformed, b->recs.first_bad_line);
	records_sort(&b->recs);
	known = maybe_read(dir, "known.tsv", NULL);
	if (known)
		records_mark_known(&b->recs, known);
	free(known);
	free(recs);
}

/* The boots of @root: itself when it holds kernel.txt, else its subdirectories that do. */
static struct kboot *find_boots(const char *root, size_t *n)
{
	struct kboot *v = NULL;
	struct dirent *de;
	struct stat st;
	char *path = xasprintf("%s/kernel.txt", root);
	DIR *d;

	*n = 0;
	if (stat(root, &st))
		die("kcidb: %s: %s", root, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		die("kcidb: %s: not a directory", root);
	if (path_exists(path)) {
		const char *base = strrchr(root, '/');

		free(path);
		v = xcalloc(1, sizeof(*v));
		load_boot(v, root, base && base[1] ? base + 1 : root);
		*n = 1;
		return v;
	}
	free(path);
	d = opendir(root);
	if (!d)
		die("kcidb: %s: %s", root, strerror(errno));
	while ((de = readdir(d))) {
		char *dir;

		if (de->d_name[0] == '.')
			continue;
		dir = xasprintf("%s/%s", root, de->d_name);
		path = xasprintf("%s/kernel.txt", dir);
		if (path_exists(path)) {
			v = xrealloc(v, (*n + 1) * sizeof(*v));
			memset(&v[*n], 0, sizeof(*v));
			v[(*n)++].name = xstrdup(de->d_name);
			v[*n - 1].dir = dir;
			dir = NULL;
		}
		free(path);
		free(dir);
	}
	closedir(d);
	if (!*n)
		die("kcidb: %s: not a results directory of lsmconf (no kernel.txt in it or its subdirectories)",
		    root);
	qsort(v, *n, sizeof(*v), by_name);
	for (size_t i = 0; i < *n; i++) {
		char *dir = v[i].dir, *name = v[i].name;

		load_boot(&v[i], dir, name);
		free(dir);
		free(name);
	}
	return v;
}

/*
 * The patches of a build:SOURCE+PATCH... spec (file names into @names)
 * and their patchset hash into @hex; false when a patch cannot be read
 * where the spec says nor in RESULTS/patches/ (a series keeps them).
 */
static bool patchset(const char *spec, const char *root, char ***names,
		     size_t *n, char hex[65])
{
	char *copy, *tok, *save = NULL, **sums = NULL, err[256];
	struct kspec ks;
	bool ok = true;
	size_t i;

	*names = NULL;
	*n = 0;
	if (kspec_parse(spec, &ks, err, sizeof(err)) ||
	    ks.kind != KSPEC_BUILD) {
		kspec_free(&ks); /* a refused spec is left empty */
		hex[0] = '\0';
		return true;
	}
	/* SOURCE+PATCH...: the spec's value, its options (",coverage") aside. */
	copy = xstrdup(ks.value);
	kspec_free(&ks);
	strtok_r(copy, "+", &save);
	while ((tok = strtok_r(NULL, "+", &save))) {
		const char *base = strrchr(tok, '/');
		char sum[65], *alt;

		base = base ? base + 1 : tok;
		alt = xasprintf("%s/patches/%s", root, base);
		if (sha256_file(tok, sum) && sha256_file(alt, sum))
			ok = false;
		free(alt);
		*names = xrealloc(*names, (*n + 1) * sizeof(**names));
		sums = xrealloc(sums, (*n + 1) * sizeof(*sums));
		(*names)[*n] = xstrdup(base);
		sums[(*n)++] = xstrdup(sum);
	}
	if (*n)
		kcidb_patchset_hash(sums, *n, hex);
	else
		hex[0] = '\0';
	for (i = 0; i < *n; i++)
		free(sums[i]);
	free(sums);
	free(copy);
	return ok;
}

/* "1-A-debian-trixie-apparmor" -> "A": a bench boot's role, or NULL. */
static char *bench_role(const char *name)
{
	size_t d = strspn(name, "0123456789"), r;

	if (!d || name[d] != '-')
		return NULL;
	r = strcspn(name + d + 1, "-");
	return r && name[d + 1 + r] == '-' ? xstrndup(name + d + 1, r) : NULL;
}

/* "mutant-NAME-LSM" -> "NAME": a mutate boot's mutant, or NULL. */
static char *mutant_of(const struct kboot *b)
{
	char *lsm = saved_value(b->kernel_txt, "suite"), *name = NULL;
	size_t n = strlen(b->name), l = lsm ? strlen(lsm) : 0;

	if (lsm && !strncmp(b->name, "mutant-", 7) && n > 7 + l + 1 &&
	    b->name[n - l - 1] == '-' && !strcmp(b->name + n - l, lsm))
		name = xstrndup(b->name + 7, n - 7 - l - 1);
	free(lsm);
	return name;
}

static void add_extras(struct kcidb *k, const char *root,
		       const struct kboot *boots, size_t n)
{
	char *text, **a = xcalloc(n + 1, sizeof(*a)),
		    **dirs = xcalloc(n + 1, sizeof(*dirs));
	size_t i, m = 0;
	struct err e;

	text = maybe_read(root, "summary.tsv", NULL);
	for (i = 0; text && i < n; i++) {
		char *role = bench_role(boots[i].name);

		if (role) {
			a[m] = role;
			dirs[m++] = boots[i].name;
		}
	}
	if (text && m && kcidb_add_bench(k, text, a, dirs, m, &e))
		die("kcidb: %s/%s", root, e.msg);
	free(text);
	for (i = 0; i < m; i++)
		free(a[i]);
	m = 0;
	text = maybe_read(root, "mutants.tsv", NULL);
	for (i = 0; text && i < n; i++) {
		char *name = mutant_of(&boots[i]);

		if (name) {
			a[m] = name;
			dirs[m++] = boots[i].name;
		}
	}
	if (text && kcidb_add_mutants(k, text, a, dirs, m, &e))
		die("kcidb: %s/%s", root, e.msg);
	free(text);
	for (i = 0; i < m; i++)
		free(a[i]);
	/* Every boot by its spec, for the comparison and the series. */
	for (m = 0; m < n; m++) {
		a[m] = saved_value(boots[m].kernel_txt, "spec") ?: xstrdup("");
		dirs[m] = boots[m].name;
	}
	text = maybe_read(root, "compare.tsv", NULL);
	if (text && kcidb_add_compare(k, text, a, dirs, m, &e))
		die("kcidb: %s/%s", root, e.msg);
	free(text);
	text = maybe_read(root, "series.tsv", NULL);
	if (text && kcidb_add_series(k, text, a, dirs, n, &e))
		die("kcidb: %s/%s", root, e.msg);
	free(text);
	for (i = 0; i < m; i++)
		free(a[i]);
	free(a);
	free(dirs);
}

int cmd_kcidb(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "origin", required_argument, NULL, 'g' },
		{ "run", required_argument, NULL, 'u' },
		{ "known-bugs", required_argument, NULL, 'K' },
		{ "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *origin = "lsmconf", *out = NULL, *run = NULL;
	const char *known_path = LSMCONF_ROOT "/fixtures/known-kernel-bugs";
	struct known_list known = { 0 };
	struct kcidb k;
	struct kboot *boots;
	struct err e;
	char *text, *json, *dflt = NULL;
	size_t n, i, len;
	json_t *doc;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:", opts, NULL)) != -1) {
		switch (c) {
		case 'g':
			origin = optarg;
			break;
		case 'u':
			run = optarg;
			break;
		case 'K':
			known_path = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case ':':
			die("kcidb: %s needs a value", argv[optind - 1]);
		default:
			die("kcidb: unknown option %s (lsmconf kcidb RESULTS [--origin NAME] [--run ID] [--known-bugs FILE] [-o FILE])",
			    argv[optind - 1]);
		}
	}
	if (argc - optind != 1)
		die("kcidb: one RESULTS directory wanted (lsmconf kcidb RESULTS [--origin NAME] [-o FILE])");
	if (kcidb_init(&k, origin, run, &e))
		die("kcidb: %s", e.msg);
	if (read_input(known_path, INPUT_MAX_LIST, INPUT_TEXT, &text, &len, &e))
		die("kcidb: --known-bugs: %s", e.msg);
	if (known_parse(text, len, &known, &e))
		die("kcidb: %s: %s", known_path, e.msg);
	free(text);

	boots = find_boots(argv[optind], &n);
	for (i = 0; i < n; i++) {
		struct kboot *b = &boots[i];
		char *spec =
			saved_value(b->kernel_txt ? b->kernel_txt : "", "spec");
		char **names = NULL, hex[65];
		size_t np = 0, j;
		bool ok =
			spec && patchset(spec, argv[optind], &names, &np, hex);
		struct kcidb_boot kb = {
			.dir_name = b->name,
			.kernel_txt = b->kernel_txt ? b->kernel_txt : "",
			.ktap = b->ktap,
			.ktap_len = b->ktap_len,
			.recs = &b->recs,
			.known_crashes = b->known_crashes,
			.crashes = b->crashes,
			.n_crashes = b->n_crashes,
			.time_names = b->time_names,
			.times = b->times,
			.n_times = b->n_times,
			.patchset_hash = ok ? hex : NULL,
			.patches = names,
			.n_patches = np,
		};

		if (kcidb_add_boot(&k, &kb, &e))
			die("kcidb: %s", e.msg);
		for (j = 0; j < np; j++)
			free(names[j]);
		free(names);
		free(spec);
	}
	add_extras(&k, argv[optind], boots, n);
	kcidb_add_issues(&k, &known);

	doc = kcidb_doc(&k);
	json = json_dumps(doc, JSON_INDENT(1) | JSON_SORT_KEYS |
				       JSON_REAL_PRECISION(12));
	if (!json)
		die("kcidb: out of memory");
	if (!out)
		out = dflt = xasprintf("%s/kcidb.json", argv[optind]);
	text = xasprintf("%s\n", json);
	if (write_file(out, text, strlen(text)))
		die("kcidb: cannot write %s: %s", out, strerror(errno));
	printf("lsmconf: kcidb: %zu checkouts, %zu builds, %zu tests (%zu PASS, %zu FAIL, %zu SKIP, %zu MISS, %zu ERROR, %zu DONE), %zu issues, %zu incidents -> %s\n",
	       json_array_size(k.checkouts), json_array_size(k.builds),
	       json_array_size(k.tests), k.count[KCIDB_PASS],
	       k.count[KCIDB_FAIL], k.count[KCIDB_SKIP], k.count[KCIDB_MISS],
	       k.count[KCIDB_ERROR], k.count[KCIDB_DONE],
	       json_array_size(k.issues), json_array_size(k.incidents), out);
	free(text);
	free(json);
	json_decref(doc);
	for (i = 0; i < n; i++) {
		free(boots[i].dir);
		free(boots[i].name);
		free(boots[i].kernel_txt);
		free(boots[i].ktap);
		free(boots[i].known_crashes);
		for (size_t j = 0; j < boots[i].n_crashes; j++)
			free(boots[i].crashes[j]);
		free(boots[i].crashes);
		for (size_t j = 0; j < boots[i].n_times; j++) {
			free(boots[i].times[j]);
			free(boots[i].time_names[j]);
		}
		free(boots[i].times);
		free(boots[i].time_names);
		records_free(&boots[i].recs);
	}
	free(boots);
	free(dflt);
	known_free(&known);
	kcidb_free(&k);
	return 0;
}
