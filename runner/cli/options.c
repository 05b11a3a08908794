// SPDX-License-Identifier: GPL-2.0
/* What the subcommands' option parsers share: checked values, specs. */
#define _GNU_SOURCE
#include "cli.h"
#include "provision/provision.h"
#include "results/results.h"
#include "lib/lib.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int opt_positive(const char *opt, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v <= 0 || v > 1000000)
		die("%s: not a positive number: %s", opt, arg);
	return v;
}

int opt_nonnegative(const char *opt, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 0 || v > 1000000)
		die("%s: not a number from 0 to 1000000: %s", opt, arg);
	return v;
}

double opt_positive_real(const char *opt, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !isfinite(v) || v <= 0)
		die("%s: not a positive number: %s", opt, arg);
	return v;
}

/*
 * --memory: at least what a kernel can decompress into (a guest with less
 * is still booted, and fails, as the e2e check of too little memory
 * shows), at most this host's memory.
 */
#define MEMORY_MIN_MB 32
static int opt_memory(const char *arg)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
	long long max = pages > 0 && page > 0 ?
				(long long)pages * page / (1024 * 1024) :
				1000000;
	char *end;
	long long v;

	errno = 0;
	v = strtoll(arg, &end, 10);
	if (end == arg || *end || errno)
		die("--memory: not a number of MB: %s", arg);
	if (v < MEMORY_MIN_MB || v > max)
		die("--memory: %s MB is out of range (%d to %lld MB, this host's memory)",
		    arg, MEMORY_MIN_MB, max);
	return v;
}

/*
 * --cpus: QEMU's pc machine (i440fx), the one lsmconf boots, takes at most
 * 255 vCPUs ("The max CPUs supported by machine ... is 255").
 */
#define CPUS_MAX 255
static int opt_cpus(const char *arg)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < 1 || v > CPUS_MAX)
		die("--cpus: not a number from 1 to %d (QEMU's pc machine): %s",
		    CPUS_MAX, arg);
	return v;
}

/* The value of a bench, msgcost or mutate option: the next argument. */
const char *opt_value(const char *opt, const char *v)
{
	if (!v || !strncmp(v, "--", 2))
		die("%s needs a value (see lsmconf --help)", opt);
	return v;
}

/*
 * Every spec as `kernel` checks it (kernel_check_spec()), before anything
 * is fetched, built or booted.
 */
void specs_check(char *const *specs, int n)
{
	struct err e;
	int i;

	for (i = 0; i < n; i++)
		if (kernel_check_spec(specs[i], &e))
			die("%s", e.msg);
}

int own_options(int argc, char **argv,
		bool (*take)(void *ctx, const char *opt, const char *v),
		void *ctx)
{
	int i, kept = 1;

	for (i = 1; i < argc; i++) {
		if (take(ctx, argv[i], i + 1 < argc ? argv[i + 1] : NULL))
			i++;
		else
			argv[kept++] = argv[i];
	}
	return kept;
}

void note_malformed(const char *path, size_t n)
{
	if (n)
		note("%s: %zu malformed lines", path, n);
}

void boots_records(const struct kernel_boots *kb, struct known_list *known,
		   struct record_set *set)
{
	struct err e;

	if (run_load_records(kb, known, set, &e))
		die("%s", e.msg);
}

char *results_root(const char *base)
{
	struct err e;
	char *root = run_results_root(base, &e);

	if (!root)
		die("%s", e.msg);
	return root;
}

/* The known kernel bugs list, checked before anything starts. */
static struct known_list *load_known(const char *path)
{
	static struct known_list list;
	struct err e;
	size_t len;
	char *buf;

	if (read_input(path, INPUT_MAX_LIST, INPUT_TEXT, &buf, &len, &e))
		die("--known-bugs: %s", e.msg);
	if (known_parse(buf, len, &list, &e))
		die("%s: %s", path, e.msg);
	free(buf);
	return &list;
}

/*
 * --lsm LIST: every name one the suite knows, none empty, none twice;
 * checked by every command, those that boot nothing (compare --saved)
 * too.
 */
static void lsms_check(const char *list)
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	const char *seen[16];
	size_t n = 0, i;

	if (!*list || *list == ',' || list[strlen(list) - 1] == ',' ||
	    strstr(list, ",,"))
		die("--lsm: an empty name in \"%s\" (known: %s)", list,
		    lsm_names());
	for (tok = strtok_r(copy, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		if (!lsm_find(tok))
			die("--lsm: unknown LSM %s (known: %s)", tok,
			    lsm_names());
		for (i = 0; i < n; i++)
			if (!strcmp(seen[i], tok))
				die("--lsm: %s named twice", tok);
		if (n < ARRAY_SIZE(seen))
			seen[n++] = lsm_find(tok)->name;
	}
	free(copy);
}

/*
 * --abi NAME: a pinned set the AppArmor tests' directory holds (abi/,
 * installed beside them), checked before anything is fetched or booted.
 */
static void abi_check(const struct run_opts *o)
{
	char *dir = o->tests_dir ? xstrdup(o->tests_dir) :
				   xasprintf("%s/%s", o->tests_root,
					     lsm_pinning()->tests);
	char *path = xasprintf("%s/abi/%s", dir, o->abi);

	if (!abi_name_ok(o->abi))
		die("--abi: not a feature set name: %s", o->abi);
	if (!path_exists(path))
		die("--abi: no pinned feature set %s (no %s; see lsmconf abi)",
		    o->abi, path);
	free(path);
	free(dir);
}

/* Parses the options run and compare share; returns the first spec's index. */
int run_options(int argc, char **argv, struct run_opts *o)
{
	static const struct option opts[] = {
		{ "test", required_argument, NULL, 't' },
		{ "args", required_argument, NULL, 'a' },
		{ "timeout", required_argument, NULL, 'T' },
		{ "boot-timeout", required_argument, NULL, 'B' },
		{ "memory", required_argument, NULL, 'm' },
		{ "cpus", required_argument, NULL, 'c' },
		{ "append", required_argument, NULL, 'A' },
		{ "results", required_argument, NULL, 'r' },
		{ "tests-dir", required_argument, NULL, 'd' },
		{ "lsm", required_argument, NULL, 'L' },
		{ "refresh", no_argument, NULL, 'R' },
		{ "known-bugs", required_argument, NULL, 'K' },
		{ "abi", required_argument, NULL, 'F' },
		{ "collection", no_argument, NULL, 'W' },
		{ "jobs", required_argument, NULL, 'j' },
		{ NULL, 0, NULL, 0 },
	};
	const char *known = LSMCONF_ROOT "/fixtures/known-kernel-bugs";
	struct err e;
	int c;

	/* Our own messages, one line each (":": a missing value is ':'). */
	opterr = 0;
	/* From the first word again, should a command parse twice. */
	optind = 0;
	*o = (struct run_opts){
		.results = "results",
		.tests_root = LSMCONF_ROOT "/build/kselftest",
		.lsms = lsm_all(),
		.memory_mb = 512,
		.cpus = 2,
	};
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (!optarg[strspn(optarg, " \t")])
				die("--test: empty test name");
			o->tests = xrealloc(o->tests,
					    (o->n_tests + 1) * sizeof(char *));
			o->tests[o->n_tests++] = optarg;
			break;
		case 'a':
			o->args = optarg;
			break;
		case 'T':
			o->test_timeout_s = opt_positive("--timeout", optarg);
			break;
		case 'B':
			o->boot_timeout_s =
				opt_positive("--boot-timeout", optarg);
			break;
		case 'm':
			o->memory_mb = opt_memory(optarg);
			break;
		case 'c':
			o->cpus = opt_cpus(optarg);
			break;
		case 'A':
			o->append = optarg;
			break;
		case 'r':
			o->results = optarg;
			break;
		case 'd':
			o->tests_dir = optarg;
			break;
		case 'L':
			o->lsms = optarg;
			break;
		case 'R':
			o->refresh = true;
			break;
		case 'K':
			known = optarg;
			break;
		case 'F':
			o->abi = optarg;
			break;
		case 'W':
			o->whole = true;
			break;
		case 'j':
			o->jobs = opt_positive("--jobs", optarg);
			break;
		case ':':
			die("%s needs a value (see lsmconf --help)",
			    argv[optind - 1]);
		default:
			die("unknown option %s (see lsmconf --help)",
			    argv[optind - 1]);
		}
	}
	/* run_kselftest.sh passes a program no arguments. */
	if (o->whole && o->args)
		die("--collection runs run_kselftest.sh -c, which passes no --args");
	lsms_check(o->lsms);
	if (run_check_cmdline(o, &e))
		die("%s", e.msg);
	o->known = load_known(known);
	o->known_path = known;
	if (o->abi)
		abi_check(o);
	return optind;
}
