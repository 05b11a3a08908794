// SPDX-License-Identifier: GPL-2.0
/* lsmconf: the host side of the suite. One subcommand per file. */
#define _GNU_SOURCE
#include "analysis/bench.h"
#include "bench.h"
#include "compare.h"
#include "msgcost.h"
#include "mutate.h"
#include "analysis/msgcost.h"
#include "provision/kernel.h"
#include "provision/ksrc.h"
#include "session/session.h"
#include "lib/spawn.h"
#include "provision/spec.h"
#include "lib/util.h"

#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LSMCONF_ROOT
#define LSMCONF_ROOT "."
#endif

static const char usage[] =
	"usage: lsmconf run [options] SPEC...   boot each kernel, run the suite\n"
	"       lsmconf compare [options] A B   run both, compare decision by decision\n"
	"       lsmconf bench [options] A B     send cost, boots A -> B -> A2\n"
	"       lsmconf msgcost [options] SPEC... SELinux msgq cost vs category count\n"
	"       lsmconf mutate [options]        build each mutant, run, compare with the original\n"
	"       lsmconf kernel [--refresh] SPEC... provision kernels, print identities\n"
	"       lsmconf ksrc [--ksrc DIR]        print the kselftest harness tree\n"
	"\n"
	"SPEC: debian:SUITE (bookworm, bookworm-backports, trixie, sid),\n"
	"      debian:VERSION (e.g. 7.2.13+deb14), file:PATH[,modules=DIR][,config=FILE],\n"
	"      deb:PATH (a kernel image .deb),\n"
	"      build:SOURCE[+PATCH...] (SOURCE: a kernel tree or debian-source:X.Y)\n"
	"\n"
	"run and compare options:\n"
	"  --test NAME       only this test binary (repeatable)\n"
	"  --args ARGS       arguments for the test binaries, e.g. \"-r fixture.variant.test\"\n"
	"  --timeout S       per-test bound in seconds (default 120)\n"
	"  --boot-timeout S  whole-boot bound (default 90 + the per-test bounds)\n"
	"  --memory MB       guest memory (default 512)\n"
	"  --cpus N          guest CPUs (default 2)\n"
	"  --append ARGS     extra kernel command line\n"
	"  --results DIR     results root (default ./results)\n"
	"  --lsm LIST        boot once per LSM of LIST (default apparmor,selinux);\n"
	"                    with --test, only the LSMs that have the test\n"
	"  --tests-dir DIR   the tests to run (default build/kselftest/<lsm>)\n"
	"  --refresh         refresh the private package lists first\n"
	"bench options: --points \"WORKLOAD:CONFINEMENT ...\" (socketpair, twoproc,\n"
	"  uring : none, sender, receiver, both, stacked), --invocations N (3),\n"
	"  --warmup N (3), --rounds N (15), --messages N (65536)\n"
	"msgcost options: --points \"CATS:LEVEL ...\" (CATS: 4, 256, 1024;\n"
	"  LEVEL: none, high, low), --warmup N (3), --rounds N (10),\n"
	"  --iterations N (2000), --limit X (instructions per category, 0.5),\n"
	"  --limit-carried X (the same for level low, whose messages carry them, 8)\n"
	"mutate options: --mutants DIR (fixtures/mutants), --mutant NAME (repeatable),\n"
	"  --source SOURCE (debian-source:7.2); --lsm defaults to apparmor\n";

static int positive(const char *opt, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (*end || v <= 0 || v > 1000000)
		die("%s: not a positive number: %s", opt, arg);
	return v;
}

static int nonnegative(const char *opt, const char *arg)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (end == arg || *end || v < 0 || v > 1000000)
		die("%s: not a number from 0 to 1000000: %s", opt, arg);
	return v;
}

static double positive_real(const char *opt, const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !isfinite(v) || v <= 0)
		die("%s: not a positive number: %s", opt, arg);
	return v;
}

/* The value of a bench, msgcost or mutate option: the next argument. */
static const char *value(const char *opt, const char *v)
{
	if (!v || !strncmp(v, "--", 2))
		die("%s needs a value (see lsmconf --help)", opt);
	return v;
}

/* Every spec's syntax, before anything is fetched, built or booted. */
static void specs_check(char *const *specs, int n)
{
	char err[512];
	int i;

	for (i = 0; i < n; i++) {
		struct kspec s;

		if (kspec_parse(specs[i], &s, err, sizeof(err)))
			die("%s", err);
		kspec_free(&s);
	}
}

/* Parses the options run and compare share; returns the first spec's index. */
static int run_options(int argc, char **argv, struct run_opts *o)
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
		{ NULL, 0, NULL, 0 },
	};
	int c;

	/* Our own messages, one line each (":": a missing value is ':'). */
	opterr = 0;
	*o = (struct run_opts){
		.results = "results",
		.tests_root = LSMCONF_ROOT "/build/kselftest",
		.lsms = "apparmor,selinux",
		.test_timeout_s = 120,
		.memory_mb = 512,
		.cpus = 2,
	};
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			o->tests = xrealloc(o->tests,
					    (o->n_tests + 1) * sizeof(char *));
			o->tests[o->n_tests++] = optarg;
			break;
		case 'a':
			o->args = optarg;
			break;
		case 'T':
			o->test_timeout_s = positive("--timeout", optarg);
			break;
		case 'B':
			o->boot_timeout_s = positive("--boot-timeout", optarg);
			break;
		case 'm':
			o->memory_mb = positive("--memory", optarg);
			break;
		case 'c':
			o->cpus = positive("--cpus", optarg);
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
		case ':':
			die("%s needs a value (see lsmconf --help)",
			    argv[optind - 1]);
		default:
			die("unknown option %s (see lsmconf --help)",
			    argv[optind - 1]);
		}
	}
	return optind;
}

static int cmd_run(int argc, char **argv)
{
	struct run_opts o;
	int first = run_options(argc, argv, &o);

	if (first >= argc)
		die("run: no kernel spec given (e.g. debian:sid)");
	specs_check(argv + first, argc - first);
	return run_main(&o, argv + first, argc - first);
}

static int cmd_bench(int argc, char **argv)
{
	struct bench_opts b = {
		.points = "socketpair:none twoproc:none twoproc:sender "
			  "twoproc:receiver twoproc:both twoproc:stacked "
			  "uring:none",
		.invocations = 3,
		.warmup = 3,
		.rounds = 15,
		.messages = 65536,
	};
	struct run_opts o;
	int first, i, kept = 1;
	char err[512];

	/* Bench options first, then the shared ones. */
	for (i = 1; i < argc; i++) {
		const char *opt = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--points"))
			b.points = value(opt, v);
		else if (!strcmp(opt, "--invocations"))
			b.invocations = positive(opt, value(opt, v));
		else if (!strcmp(opt, "--warmup"))
			b.warmup = nonnegative(opt, value(opt, v));
		else if (!strcmp(opt, "--rounds"))
			b.rounds = positive(opt, value(opt, v));
		else if (!strcmp(opt, "--messages"))
			b.messages = positive(opt, value(opt, v));
		else {
			argv[kept++] = argv[i];
			continue;
		}
		i++;
	}
	argc = kept;
	first = run_options(argc, argv, &o);
	if (argc - first != 2)
		die("bench: want exactly two kernel specs (A B)");
	if (bench_points_check(b.points, err, sizeof(err)))
		die("--points: %s", err);
	specs_check(argv + first, 2);
	if (o.test_timeout_s == 120)
		o.test_timeout_s = 3600;
	return bench_main(&o, &b, argv[first], argv[first + 1]);
}

static int cmd_msgcost(int argc, char **argv)
{
	struct msgcost_opts m = {
		.points = "4:none 4:high 4:low 256:none 256:high 256:low "
			  "1024:none 1024:high 1024:low",
		.warmup = 3,
		.rounds = 10,
		.iterations = 2000,
		.limit = MSGCOST_MAX_PER_CATEGORY,
		.limit_carried = MSGCOST_MAX_PER_CARRIED_CATEGORY,
	};
	struct run_opts o;
	int first, i, kept = 1;
	char err[512];

	/* msgcost options first, then the shared ones. */
	for (i = 1; i < argc; i++) {
		const char *opt = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--points"))
			m.points = value(opt, v);
		else if (!strcmp(opt, "--warmup"))
			m.warmup = nonnegative(opt, value(opt, v));
		else if (!strcmp(opt, "--rounds"))
			m.rounds = positive(opt, value(opt, v));
		else if (!strcmp(opt, "--iterations"))
			m.iterations = positive(opt, value(opt, v));
		else if (!strcmp(opt, "--limit"))
			m.limit = positive_real(opt, value(opt, v));
		else if (!strcmp(opt, "--limit-carried"))
			m.limit_carried = positive_real(opt, value(opt, v));
		else {
			argv[kept++] = argv[i];
			continue;
		}
		i++;
	}
	argc = kept;
	first = run_options(argc, argv, &o);
	if (first >= argc)
		die("msgcost: no kernel spec given (e.g. debian:sid)");
	if (m.rounds < 2)
		die("msgcost: --rounds must be at least 2");
	if (msgcost_points_check(m.points, err, sizeof(err)))
		die("--points: %s", err);
	specs_check(argv + first, argc - first);
	if (o.test_timeout_s == 120)
		o.test_timeout_s = 1800;
	return msgcost_main(&o, &m, argv + first, argc - first);
}

static int cmd_mutate(int argc, char **argv)
{
	struct mutate_opts m = {
		.dir = LSMCONF_ROOT "/fixtures/mutants",
		.source = "debian-source:7.2",
	};
	struct run_opts o;
	int first, i, kept = 1;
	bool lsm_given = false;

	/* mutate options first, then the shared ones. */
	for (i = 1; i < argc; i++) {
		const char *opt = argv[i];
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(opt, "--lsm") || !strncmp(opt, "--lsm=", 6))
			lsm_given = true;
		if (!strcmp(opt, "--mutants")) {
			m.dir = value(opt, v);
		} else if (!strcmp(opt, "--mutant")) {
			value(opt, v);
			m.only = xrealloc(m.only,
					  (m.n_only + 1) * sizeof(char *));
			m.only[m.n_only++] = argv[i + 1];
		} else if (!strcmp(opt, "--source")) {
			m.source = value(opt, v);
		} else {
			argv[kept++] = argv[i];
			continue;
		}
		i++;
	}
	argc = kept;
	first = run_options(argc, argv, &o);
	if (first != argc)
		die("mutate: no kernel specs: mutants are built from --source");
	{
		char *spec = xasprintf("build:%s", m.source);

		specs_check(&spec, 1);
		free(spec);
	}
	/* The mutants patch AppArmor: its suite is what must kill them. */
	if (!lsm_given)
		o.lsms = "apparmor";
	return mutate_main(&o, &m);
}

static int cmd_compare(int argc, char **argv)
{
	struct run_opts o;
	int first = run_options(argc, argv, &o);

	if (argc - first != 2)
		die("compare: want exactly two kernel specs (A B)");
	specs_check(argv + first, 2);
	return compare_main(&o, argv[first], argv[first + 1]);
}

static int cmd_kernel(int argc, char **argv)
{
	bool refresh = false;
	int i;

	for (i = 1; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "--refresh"))
			refresh = true;
		else
			die("kernel: unknown option %s", argv[i]);
	}
	if (i >= argc)
		die("kernel: no kernel spec given (e.g. debian:sid)");
	for (; i < argc; i++) {
		struct kernel k;
		char *id;

		kernel_provision(argv[i], &k, refresh);
		id = kernel_identity(&k);
		printf("%s\n", id);
		free(id);
		kernel_free(&k);
	}
	return 0;
}

static int cmd_ksrc(int argc, char **argv)
{
	const char *ksrc = getenv("KSRC");
	char *dir;

	if (argc == 3 && !strcmp(argv[1], "--ksrc"))
		ksrc = argv[2];
	else if (argc != 1)
		die("ksrc: usage: lsmconf ksrc [--ksrc DIR]");
	dir = ksrc_dir(ksrc);
	printf("%s\n", dir);
	free(dir);
	return 0;
}

int main(int argc, char **argv)
{
	/* Ctrl-C, timeout(1) or a hangup end every QEMU and build first. */
	spawn_guard();
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "bench"))
		return cmd_bench(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "msgcost"))
		return cmd_msgcost(argc - 1, argv + 1);
	if (!strcmp(argv[1], "mutate"))
		return cmd_mutate(argc - 1, argv + 1);
	if (!strcmp(argv[1], "kernel"))
		return cmd_kernel(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ksrc"))
		return cmd_ksrc(argc - 1, argv + 1);
	die("unknown command %s (see lsmconf --help)", argv[1]);
}
