// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: the host side of the suite. This file only dispatches: each
 * subcommand, its options and its driver are in cli/<subcommand>.c.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
	"usage: lsmconf run [options] SPEC...   boot each kernel, run the suite\n"
	"       lsmconf compare [options] A B   run both, compare decision by decision\n"
	"       lsmconf compare --saved A B     the same from saved results directories, no boot\n"
	"       lsmconf bench [options] A B     send cost, boots A -> B -> A2\n"
	"       lsmconf msgcost [options] SPEC... SELinux msgq cost vs category count\n"
	"       lsmconf mutate [options]        build each mutant, run, compare with the original\n"
	"       lsmconf coverage [options] SPEC... build each build: kernel with gcov in the\n"
	"                                        LSMs' code, run, report line, branch and\n"
	"                                        function coverage (lcov, genhtml)\n"
	"       lsmconf series [options] SOURCE SERIES  build base and tip of a patch\n"
	"                                        series, bisect what changed, report it\n"
	"       lsmconf plan [--store DIR] CMD ARGS...  the units of compare, mutate,\n"
	"                                        bench, series or coverage\n"
	"                                        (ID KIND DEPENDS... -- what), saved in DIR;\n"
	"                                        --steps, --step N: the saved plan's steps\n"
	"       lsmconf unit [--store DIR] ID|--index N  run one unit of the saved plan\n"
	"       lsmconf merge [--store DIR] [--partial]\n"
	"                                        the command's report from its finished units\n"
	"                                        (--partial: mutate's so far, the rest pending)\n"
	"       lsmconf abi [--out DIR] SPEC...  pin each kernel's AppArmor features in abi/\n"
	"       lsmconf kernel [--refresh] SPEC... provision kernels, print identities\n"
	"       lsmconf ksrc [--ksrc DIR]        print the kselftest harness tree\n"
	"       lsmconf table [--out FILE] RESULTS... the revocation table (markdown);\n"
	"                                        RESULTS may be a run_kselftest.sh log\n"
	"       lsmconf report-bug NAME [--known-bugs FILE] [--ksrc DIR] [--out FILE]\n"
	"                                        a known kernel bug as a mail for the\n"
	"                                        kernel's lists, reproducer and fix inline\n"
	"       lsmconf kcidb [--origin NAME] [--run ID] [-o FILE] RESULTS  a KCIDB v5.3\n"
	"                                        submission of a results directory\n"
	"                                        (RESULTS/kcidb.json)\n"
	"       lsmconf selftests-series [--out DIR] KSRC  git format-patch series adding\n"
	"                                        the selftests to the kernel tree KSRC\n"
	"\n"
	"SPEC: debian:SUITE (bookworm, bookworm-backports, trixie, sid),\n"
	"      debian:VERSION (e.g. 7.2.13+deb14), file:PATH[,modules=DIR][,config=FILE],\n"
	"      deb:PATH (a kernel image .deb),\n"
	"      build:SOURCE[+PATCH...][,coverage] (SOURCE: a kernel tree or\n"
	"      debian-source:X.Y; coverage: gcov counters in the LSMs' code)\n"
	"\n"
	"run and compare options:\n"
	"  --test NAME       only this test binary (repeatable)\n"
	"  --args ARGS       arguments for the test binaries, e.g. \"-r fixture.variant.test\"\n"
	"  --timeout S       per-test bound in seconds (default: timeout= of the\n"
	"                    tests directory's settings file, else 45)\n"
	"  --boot-timeout S  whole-boot bound (default 90 + the per-test bounds)\n"
	"  --memory MB       guest memory (default 512)\n"
	"  --cpus N          guest CPUs (default 2)\n"
	"  --append ARGS     extra kernel command line; the guest init reads\n"
	"                    lsmconf.user=UID (the tests as that user) and\n"
	"                    lsmconf.hide=PROG[,PROG] (PROG removed first)\n"
	"  --results DIR     results root (default ./results)\n"
	"  --lsm LIST        boot once per LSM of LIST (default apparmor,selinux);\n"
	"                    with --test, only the LSMs that have the test\n"
	"  --tests-dir DIR   the tests to run (default build/kselftest/<lsm>)\n"
	"  --refresh         refresh the private package lists first\n"
	"  --known-bugs FILE known kernel bugs (default fixtures/known-kernel-bugs)\n"
	"  --abi NAME        compile AppArmor policy against the pinned feature set\n"
	"                    abi/NAME (e.g. 6.12) instead of the running kernel's\n"
	"  --collection      the guest runs ./run_kselftest.sh -c COLLECTION once,\n"
	"                    records as KTAP diagnostics (after a crash: per test)\n"
	"  --jobs N          compare and mutate: units at once here (default: a\n"
	"                    guest per CPU that memory holds; a build runs alone)\n"
	"plan, unit, merge: --store DIR (default results/store) is the shared store\n"
	"abi options: --out DIR (abi/): where the sets and SOURCES go; the run\n"
	"  options above apply (--memory, --results, --refresh...)\n"
	"bench options: --points \"WORKLOAD:CONFINEMENT ...\" (socketpair, twoproc,\n"
	"  uring, stream, streamcred, tcpSIZE, udpSIZE with SIZE 64 to 16384 :\n"
	"  none, sender, receiver, both, stacked, inet for tcp and udp),\n"
	"  --invocations N (3), --warmup N (3), --rounds N (15), --messages N (65536),\n"
	"  --probe-messages N (path probe after each point, 1024; 0: none),\n"
	"  --probe-instructions on|off (off; on: the probe also times each function),\n"
	"  --profile on|off (off; on, under TCG: a QEMU plugin counts every kernel\n"
	"  function's instructions in the measured rounds)\n"
	"msgcost options: --points \"CATS:LEVEL ...\" (CATS: 4, 256, 1024;\n"
	"  LEVEL: none, high, low), --warmup N (3), --rounds N (10),\n"
	"  --iterations N (2000), --limit X (instructions per category, 0.5),\n"
	"  --limit-carried X (the same for level low, whose messages carry them, 8)\n"
	"mutate options: --mutants DIR (fixtures/mutants), --mutant NAME (repeatable),\n"
	"  --source SOURCE (debian-source:7.2), --cost \"POINT ...\" (bench points:\n"
	"  a mutant whose cost per message changes is killed by cost); without\n"
	"  --lsm every mutant runs, each judged by its own LSM's suite;\n"
	"  --generate N [--seed S] [--files GLOB]: N mutants drawn by the seed\n"
	"  (printed; chosen when not given) from every site of simple operators\n"
	"  in each LSM's C files of --source (or in GLOB, repeatable);\n"
	"  --coverage FILE: the original's coverage.info (lsmconf coverage):\n"
	"  each generated survivor a reach gap or an oracle gap; --evidence:\n"
	"  each generated mutant's equivalence checked by a cost boot\n"
	"series options: --git-dir DIR (SERIES is BASE..TIP of that tree; else an\n"
	"  mbox or a directory of numbered patches), --cost \"POINT ...\"\n"
	"  (socketpair:none; \"\": no cost boots), --allow-gaps (patches numbered\n"
	"  with gaps, 1 3 6, taken in order; refused without it); the run\n"
	"  options above apply\n";

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
	if (!strcmp(argv[1], "coverage"))
		return cmd_coverage(argc - 1, argv + 1);
	if (!strcmp(argv[1], "series"))
		return cmd_series(argc - 1, argv + 1);
	if (!strcmp(argv[1], "plan"))
		return cmd_plan(argc - 1, argv + 1);
	if (!strcmp(argv[1], "unit"))
		return cmd_unit(argc - 1, argv + 1);
	if (!strcmp(argv[1], "merge"))
		return cmd_merge(argc - 1, argv + 1);
	if (!strcmp(argv[1], "abi"))
		return cmd_abi(argc - 1, argv + 1);
	if (!strcmp(argv[1], "kernel"))
		return cmd_kernel(argc - 1, argv + 1);
	if (!strcmp(argv[1], "ksrc"))
		return cmd_ksrc(argc - 1, argv + 1);
	if (!strcmp(argv[1], "table"))
		return cmd_table(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report-bug"))
		return cmd_report_bug(argc - 1, argv + 1);
	if (!strcmp(argv[1], "kcidb"))
		return cmd_kcidb(argc - 1, argv + 1);
	if (!strcmp(argv[1], "selftests-series"))
		return cmd_selftests_series(argc - 1, argv + 1);
	die("unknown command %s (see lsmconf --help)", argv[1]);
}
