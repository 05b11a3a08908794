// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/mutate.h"
#include "analysis/path.h"
#include "lib/util.h"

START_TEST(test_header)
{
	char *desc, *eq;

	ck_assert_int_eq(mutant_header("listen check skipped\n\nWhy.\n\n"
				       "--- a/f.c\n+++ b/f.c\n",
				       &desc, &eq),
			 0);
	ck_assert_str_eq(desc, "listen check skipped");
	ck_assert_ptr_null(eq);
	free(desc);
	ck_assert_int_eq(mutant_header("a renamed local\n"
				       "Equivalent: only a name changes\n"
				       "--- a/f.c\n+++ b/f.c\n",
				       &desc, &eq),
			 0);
	ck_assert_str_eq(eq, "only a name changes");
	free(desc);
	free(eq);
	/* An "Equivalent:" line inside the diff does not count. */
	ck_assert_int_eq(mutant_header("bug\n--- a/f.c\n+++ b/f.c\n"
				       "+Equivalent: no\n",
				       &desc, &eq),
			 0);
	ck_assert_ptr_null(eq);
	free(desc);
	/* No description, or no diff. */
	ck_assert_int_eq(mutant_header("--- a/f.c\n+++ b/f.c\n", &desc, &eq),
			 -1);
	ck_assert_int_eq(mutant_header("\n--- a/f.c\n", &desc, &eq), -1);
	ck_assert_int_eq(mutant_header("just words\n", &desc, &eq), -1);
}
END_TEST

/* Runs to judge: decisions and failures as the cli builds them. */
static const struct mutant_diff d_eperm = { "c1", "EACCES", "EPERM" };
static const struct mutant_diff d_eperm2 = { "c1", "EACCES", "EPERM" };
static const struct mutant_diff d_allow = { "c1", "EACCES", "allow" };
static const struct mutant_diff d_lost = { "c2", "allow", "-" };
static const struct mutant_diff d_lost2 = { "c2", "allow", "-" };
static const struct mutant_diff d_other_lost = { "c3", "allow", "-" };
static struct mutant_fail f_case = { "t/c1", NULL };
static struct mutant_fail f_case2 = { "t/c1", NULL };
static struct mutant_fail f_crash = { "t/c2", "BUG: oops" };
static struct mutant_fail f_crash2 = { "t/c2", "BUG: oops again" };
static struct mutant_fail f_timeout = { "t", NULL };

START_TEST(test_judge_one_run)
{
	struct mutant_run clean = { .reached = true, .ok = true };
	struct mutant_run changed = { .reached = true,
				      .ok = false,
				      .diffs = &d_eperm,
				      .n_diffs = 1,
				      .fails = &f_case,
				      .n_fails = 1 };
	struct mutant_judgement j;

	/* Does not apply or build: nothing else is looked at. */
	mutant_judge(false, NULL, NULL, &j);
	ck_assert_int_eq(j.verdict, MUTANT_STILLBORN);
	ck_assert_ptr_nonnull(j.why);
	mutant_judgement_free(&j);

	/* Nothing changed in a complete run: survived, no second run. */
	ck_assert_ptr_null(mutant_rerun_reason(&clean));
	mutant_judge(true, &clean, NULL, &j);
	ck_assert_int_eq(j.verdict, MUTANT_SURVIVED);
	ck_assert_uint_eq(j.ways, 0);
	mutant_judgement_free(&j);

	/* A decision changed, every record on both sides: killed at once,
	 * by that decision; its failure alone would need a repeat. */
	ck_assert_ptr_null(mutant_rerun_reason(&changed));
	mutant_judge(true, &changed, NULL, &j);
	ck_assert_int_eq(j.verdict, MUTANT_KILLED);
	ck_assert_uint_eq(j.ways, MUTANT_BY_DECISION);
	ck_assert_uint_eq(j.n_diffs, 1);
	ck_assert_ptr_eq(j.diffs[0], &d_eperm);
	ck_assert_uint_eq(j.n_fails, 0);
	mutant_judgement_free(&j);
	/* The same with the run passing (the test took the new errno). */
	changed.ok = true;
	mutant_judge(true, &changed, NULL, &j);
	ck_assert_int_eq(j.verdict, MUTANT_KILLED);
	mutant_judgement_free(&j);

	/* A first run that must be repeated and was not: no verdict. */
	changed.diffs = &d_lost;
	ck_assert_str_eq(mutant_rerun_reason(&changed),
			 "a decision is recorded on one side only");
	mutant_judge(true, &changed, NULL, &j);
	ck_assert_int_eq(j.verdict, MUTANT_INCONCLUSIVE);
	mutant_judgement_free(&j);
}
END_TEST

START_TEST(test_judge_rerun)
{
	struct mutant_run dead = { .reached = false, .ok = false };
	struct mutant_run clean = { .reached = true, .ok = true };
	struct mutant_run failed = {
		.reached = true, .ok = false, .fails = &f_case, .n_fails = 1
	};
	struct mutant_run failed2 = {
		.reached = true, .ok = false, .fails = &f_case2, .n_fails = 1
	};
	struct mutant_run timeout = {
		.reached = true, .ok = false, .fails = &f_timeout, .n_fails = 1
	};
	struct mutant_fail crash_fails[] = { f_crash, f_case };
	struct mutant_fail crash2_fails[] = { f_crash2 };
	struct mutant_diff lost_diffs[] = { d_eperm, d_lost };
	struct mutant_run crashed = { .reached = true,
				      .ok = false,
				      .diffs = lost_diffs,
				      .n_diffs = 2,
				      .fails = crash_fails,
				      .n_fails = 2 };
	struct mutant_run crashed2 = { .reached = true,
				       .ok = false,
				       .diffs = &d_lost2,
				       .n_diffs = 1,
				       .fails = crash2_fails,
				       .n_fails = 1 };
	struct mutant_run lost_other = { .reached = true,
					 .ok = true,
					 .diffs = &d_other_lost,
					 .n_diffs = 1 };
	struct mutant_run changed = {
		.reached = true, .ok = true, .diffs = &d_allow, .n_diffs = 1
	};
	struct mutant_run eperm_lost = {
		.reached = true, .ok = true, .diffs = lost_diffs, .n_diffs = 2
	};
	struct mutant_run eperm_other = {
		.reached = true,
		.ok = true,
		.diffs = (const struct mutant_diff[]){ d_eperm2, d_other_lost },
		.n_diffs = 2
	};
	struct mutant_judgement j;

	ck_assert_str_eq(mutant_rerun_reason(&dead),
			 "the guest never reached its tests");
	ck_assert_str_eq(mutant_rerun_reason(&failed),
			 "it failed with every decision as the original's");

	/* Never reached its tests twice: stillborn. */
	mutant_judge(true, &dead, &dead, &j);
	ck_assert_int_eq(j.verdict, MUTANT_STILLBORN);
	ck_assert_str_eq(j.why,
			 "the guest never reached its tests, in two runs");
	mutant_judgement_free(&j);
	/* Once only, then clean: a failure that did not repeat. */
	mutant_judge(true, &dead, &clean, &j);
	ck_assert_int_eq(j.verdict, MUTANT_INCONCLUSIVE);
	ck_assert_str_eq(j.why,
			 "the guest reached its tests in one run of two");
	mutant_judgement_free(&j);
	/* Once only, then a complete run that changes a decision: killed. */
	mutant_judge(true, &dead, &changed, &j);
	ck_assert_int_eq(j.verdict, MUTANT_KILLED);
	ck_assert_uint_eq(j.ways, MUTANT_BY_DECISION);
	ck_assert_ptr_eq(j.diffs[0], &d_allow);
	mutant_judgement_free(&j);
	/* Reached, then not: the first run's failure did not repeat. */
	mutant_judge(true, &failed, &dead, &j);
	ck_assert_int_eq(j.verdict, MUTANT_INCONCLUSIVE);
	mutant_judgement_free(&j);

	/* The same case failed twice (by name, not by pointer): killed. */
	mutant_judge(true, &failed, &failed2, &j);
	ck_assert_int_eq(j.verdict, MUTANT_KILLED);
	ck_assert_uint_eq(j.ways, MUTANT_BY_FAILURE);
	ck_assert_uint_eq(j.n_fails, 1);
	ck_assert_str_eq(j.fails[0]->name, "t/c1");
	mutant_judgement_free(&j);
	/* A failure, then a clean run: inconclusive. */
	mutant_judge(true, &failed, &clean, &j);
	ck_assert_int_eq(j.verdict, MUTANT_INCONCLUSIVE);
	ck_assert_str_eq(j.why, "a failure of the first run did not repeat");
	mutant_judgement_free(&j);
	/* Two failures, not the same one (a case, then a test's timeout). */
	mutant_judge(true, &failed, &timeout, &j);
	ck_assert_int_eq(j.verdict, MUTANT_INCONCLUSIVE);
	mutant_judgement_free(&j);

	/*
	 * A crash in c2 (its record lost) and a changed decision c1 in the
	 * first run; the second crashes in c2 again but c1 is as the
	 * original's: killed by the lost record that repeated and by the
	 * crash, not by c1.
	 */
	ck_assert_ptr_nonnull(mutant_rerun_reason(&crashed));
	mutant_judge(true, &crashed, &crashed2, &j);
	ck_assert_int_eq(j.verdict, MUTANT_KILLED);
	ck_assert_uint_eq(j.ways, MUTANT_BY_DECISION | MUTANT_BY_CRASH);
	ck_assert_uint_eq(j.n_diffs, 1);
	ck_assert_str_eq(j.diffs[0]->id, "c2");
	ck_assert_uint_eq(j.n_fails, 1);
	ck_assert_str_eq(j.fails[0]->trace, "BUG: oops");
	ck_assert(j.crashed[0]);
	mutant_judgement_free(&j);
	/* A crash in one run and a plain failure of that case in the other
	 * is a repeated failure, not a repeated crash. */
	{
		struct mutant_fail plain = { "t/c2", NULL };
		struct mutant_run r2 = { .reached = true,
					 .ok = false,
					 .fails = &plain,
					 .n_fails = 1 };

		mutant_judge(true, &crashed, &r2, &j);
		ck_assert_int_eq(j.verdict, MUTANT_KILLED);
		ck_assert_uint_eq(j.ways, MUTANT_BY_FAILURE);
		ck_assert(!j.crashed[0]);
		mutant_judgement_free(&j);
	}
	/* Lost records, another one lost the second time: inconclusive. */
	mutant_judge(true, &crashed2, &lost_other, &j);
	ck_assert_int_eq(j.verdict, MUTANT_INCONCLUSIVE);
	ck_assert_str_eq(j.why,
			 "a decision missing on one side did not repeat");
	mutant_judgement_free(&j);
	/*
	 * A record lost both times but another: only the shared decision
	 * (c1 EACCES -> EPERM, equal by value) kills.
	 */
	mutant_judge(true, &eperm_lost, &eperm_other, &j);
	ck_assert_int_eq(j.verdict, MUTANT_KILLED);
	ck_assert_uint_eq(j.n_diffs, 1);
	ck_assert_str_eq(j.diffs[0]->b, "EPERM");
	mutant_judgement_free(&j);
	/*
	 * A failure of its own with a record lost, then again, in boots that
	 * pass (a list names the mutant's kernel): the failures decide, not
	 * the boots' verdicts, and it repeats.
	 */
	{
		struct mutant_run r1 = { .reached = true,
					 .ok = true,
					 .diffs = &d_lost,
					 .n_diffs = 1,
					 .fails = &f_case,
					 .n_fails = 1 };
		struct mutant_run r2 = r1;

		r2.diffs = &d_other_lost;
		mutant_judge(true, &r1, &r2, &j);
		ck_assert_int_eq(j.verdict, MUTANT_KILLED);
		ck_assert_uint_eq(j.ways, MUTANT_BY_FAILURE);
		mutant_judgement_free(&j);
	}
	/*
	 * A boot that failed only by failures the original shows alike (a
	 * known bug listed for the original alone): it decides alone.
	 */
	{
		struct mutant_run alike = { .reached = true, .n_alike = 2 };

		ck_assert_ptr_null(mutant_rerun_reason(&alike));
		mutant_judge(true, &alike, NULL, &j);
		ck_assert_int_eq(j.verdict, MUTANT_SURVIVED);
		mutant_judgement_free(&j);
	}

	ck_assert_str_eq(mutant_verdict_name(MUTANT_KILLED), "killed");
	ck_assert_str_eq(mutant_verdict_name(MUTANT_INCONCLUSIVE),
			 "inconclusive");
	ck_assert_str_eq(mutant_ways_name(0), "-");
	ck_assert_str_eq(mutant_ways_name(MUTANT_BY_DECISION | MUTANT_BY_CRASH),
			 "decision+crash");
	ck_assert_str_eq(mutant_ways_name(MUTANT_BY_FAILURE | MUTANT_BY_COST),
			 "failure+cost");
	ck_assert_str_eq(mutant_ways_name(MUTANT_BY_COST), "cost");
	ck_assert(mutant_diff_missing(&d_lost));
	ck_assert(!mutant_diff_missing(&d_eperm));
}
END_TEST

START_TEST(test_judge_cost)
{
	struct mutant_judgement j = { 0 };

	/* A survivor whose cost changed is killed by cost alone. */
	j.verdict = MUTANT_SURVIVED;
	mutant_judge_cost(&j, 1);
	ck_assert_int_eq(j.verdict, MUTANT_KILLED);
	ck_assert_uint_eq(j.ways, MUTANT_BY_COST);
	/* A killed one gains the way. */
	j = (struct mutant_judgement){ .verdict = MUTANT_KILLED,
				       .ways = MUTANT_BY_DECISION };
	mutant_judge_cost(&j, 1);
	ck_assert_uint_eq(j.ways, MUTANT_BY_DECISION | MUTANT_BY_COST);
	/* Same cost: nothing changes. */
	j = (struct mutant_judgement){ .verdict = MUTANT_SURVIVED };
	mutant_judge_cost(&j, 0);
	ck_assert_int_eq(j.verdict, MUTANT_SURVIVED);
	/* Cost not measured: a survivor is not proved to cost the same. */
	mutant_judge_cost(&j, -1);
	ck_assert_int_eq(j.verdict, MUTANT_INCONCLUSIVE);
	ck_assert_ptr_nonnull(j.why);
	/* Stillborn stays stillborn, whatever a cost boot said. */
	j = (struct mutant_judgement){ .verdict = MUTANT_STILLBORN };
	mutant_judge_cost(&j, 1);
	ck_assert_int_eq(j.verdict, MUTANT_STILLBORN);
	ck_assert_uint_eq(j.ways, 0);
}
END_TEST

START_TEST(test_ktap_failures)
{
	/* As report.c writes it: each program's output nested once. */
	static const char ktap[] =
		"TAP version 13\n1..4\n"
		"# boot problem: boot 3: the results sent after the last test never arrived\n"
		"# boot problem: boot 2: kernel WARNING in test live_test, case global.a at console line 412: WARNING: CPU: 0 PID: 91 at fs/x.c:7\n"
		"# boot problem: boot 2: frame 3 cut short\n"
		"# boot problem: the guest died before its tests in 2 boots: the guest printed nothing within 10 s\n"
		"# selftests: apparmor: unix_peer_test\n"
		"# TAP version 13\n# 1..3\n"
		"# ok 1 global.a\n"
		"# not ok 2 global.b\n"
		"# not ok 0 global.c # brought the kernel down in boot 2\n"
		"not ok 1 selftests: apparmor: unix_peer_test # 2 cases lost\n"
		"# selftests: apparmor: features_test\n"
		"ok 2 selftests: apparmor: features_test\n"
		"# selftests: apparmor: live_test\n"
		"# ok 1 global.a\n"
		"not ok 3 selftests: apparmor: live_test # timed out after 60 s\n"
		/* Under run_kselftest.sh: the cases twice nested, the
		 * runner's own line for the program once (not a case), and
		 * the harness's diagnostics thrice. */
		"# selftests: apparmor: audit_ops_test\n"
		"# # selftests: apparmor: audit_ops_test\n"
		"# # TAP version 13\n# # 1..2\n"
		"# # # kill_ipc: Test failed\n"
		"# # #          FAIL  ops.kill_ipc\n"
		"# # not ok 6 ops.kill_ipc\n"
		"# # ok 7 ops.kill_ipc_log\n"
		"# not ok 1 selftests: apparmor: audit_ops_test # exit=1\n"
		"ok 4 selftests: apparmor: audit_ops_test\n";
	struct mutant_fail *v = NULL;
	size_t n = 0;
	char *name, *line;

	mutant_ktap_failures(ktap, &v, &n);
	ck_assert_uint_eq(n, 6);
	/*
	 * Only the kernel's own report among the boot problems, numbers
	 * squashed: boot 3 in one run is boot 2 in the other.
	 */
	ck_assert_str_eq(
		v[0].name,
		"boot: boot N: kernel WARNING in test live_test, case global.a at console line N: WARNING: CPU: N PID: N at fs/x.c:N");
	ck_assert_ptr_null(v[0].trace);
	ck_assert_str_eq(v[1].name, "unix_peer_test/global.b");
	ck_assert_ptr_null(v[1].trace);
	ck_assert_str_eq(v[2].name, "unix_peer_test/global.c");
	ck_assert_ptr_nonnull(v[2].trace); /* a crash, line to fill */
	/* Named beside its failed cases: it lost cases too. */
	ck_assert_str_eq(v[3].name, "unix_peer_test # N cases lost");
	ck_assert_str_eq(v[4].name, "live_test # timed out after N s");
	ck_assert_ptr_null(v[4].trace);
	/* A KTAP case name, never "audit_ops_test/selftests:". */
	ck_assert_str_eq(v[5].name, "audit_ops_test/ops.kill_ipc");
	mutant_fails_free(v, n);
	v = NULL;
	n = 0;
	mutant_ktap_failures("TAP version 13\n1..0\n", &v, &n);
	ck_assert_uint_eq(n, 0);

	ck_assert_int_eq(
		mutant_crash_note(
			"boot 1 ended in test unix_peer_test, case global.c\n"
			"kernel oops; QEMU exited\n\n"
			"[   48.492534] BUG: kernel NULL pointer dereference, address: 0000000000000010\n"
			"#PF: supervisor read access\n",
			&name, &line),
		0);
	ck_assert_str_eq(name, "unix_peer_test/global.c");
	ck_assert_str_eq(
		line,
		"BUG: kernel NULL pointer dereference, address: 0000000000000010");
	free(name);
	free(line);
	/* No report on the console: the reason is the line. */
	ck_assert_int_eq(
		mutant_crash_note("boot 2 ended in test t, case c\n"
				  "the test hung\n\n"
				  "(no kernel report on the console)\n",
				  &name, &line),
		0);
	ck_assert_str_eq(line, "the test hung");
	free(name);
	free(line);
	ck_assert_int_eq(mutant_crash_note("not a crash note\n", &name, &line),
			 -1);
	ck_assert_ptr_null(name);
	ck_assert_int_eq(
		mutant_crash_note("boot 1 ended in test t\n", &name, &line),
		-1);
}
END_TEST

/*
 * Two runs that failed the same way by the host's doing (results lost,
 * a boot that died before its tests) kill nothing: those boot problems
 * are no failures, and a failed run with none is inconclusive.
 */
START_TEST(test_host_problems_never_kill)
{
	static const char ktap[] =
		"TAP version 13\n1..1\n"
		"# boot problem: boot 1: the results sent after the last test never arrived\n"
		"# boot problem: boot 2: frame 2 cut short\n"
		"# selftests: apparmor: features_test\n"
		"ok 1 selftests: apparmor: features_test\n";
	struct mutant_fail *v1 = NULL, *v2 = NULL;
	size_t n1 = 0, n2 = 0;
	struct mutant_judgement j;

	mutant_ktap_failures(ktap, &v1, &n1);
	mutant_ktap_failures(ktap, &v2, &n2);
	ck_assert_uint_eq(n1, 0);
	{
		struct mutant_run r1 = { .reached = true, .fails = v1 };
		struct mutant_run r2 = { .reached = true, .fails = v2 };

		ck_assert_ptr_nonnull(mutant_rerun_reason(&r1));
		mutant_judge(true, &r1, &r2, &j);
		ck_assert_int_eq(j.verdict, MUTANT_INCONCLUSIVE);
		ck_assert_uint_eq(j.ways, 0);
		mutant_judgement_free(&j);
	}
	mutant_fails_free(v1, n1);
	mutant_fails_free(v2, n2);
}
END_TEST

static void put(const char *dir, const char *name, const char *text)
{
	char *path = xasprintf("%s/%s", dir, name);

	ck_assert_int_eq(write_file(path, text, strlen(text)), 0);
	free(path);
}

/* A profile row: @insns instructions of @fn over @msgs messages. */
static void prof_row(struct path_set *set, const char *point, const char *fn,
		     double insns)
{
	struct path_row *r;

	set->v = xrealloc(set->v, (set->n + 1) * sizeof(*set->v));
	r = &set->v[set->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->point, sizeof(r->point), "%s", point);
	snprintf(r->function, sizeof(r->function), "%s", fn);
	r->status = PATH_COUNTED;
	r->calls = -1;
	r->messages = 1000;
	r->instructions = insns;
}

/*
 * The original's A and A2 and the mutant's B on socketpair:none:
 * aa_unix_peer_perm the same in A and A2 (86 per message), [user]
 * 120.0 and 120.4 (the seeds' spread).
 */
static void profiles(struct path_set prof[3], double peer_b, double user_b)
{
	memset(prof, 0, 3 * sizeof(*prof));
	prof_row(&prof[0], "socketpair:none", "aa_unix_peer_perm", 86000);
	prof_row(&prof[0], "socketpair:none", "[user]", 120000);
	prof_row(&prof[2], "socketpair:none", "aa_unix_peer_perm", 86000);
	prof_row(&prof[2], "socketpair:none", "[user]", 120400);
	prof_row(&prof[1], "socketpair:none", "aa_unix_peer_perm", peer_b);
	prof_row(&prof[1], "socketpair:none", "[user]", user_b);
}

static void profiles_free(struct path_set prof[3])
{
	int b;

	for (b = 0; b < 3; b++)
		path_free(&prof[b]);
}

START_TEST(test_equivalence)
{
	struct mutant_run clean = { .reached = true, .ok = true };
	struct mutant_judgement j = { .verdict = MUTANT_SURVIVED };
	struct mutant_diff d = { "live/x", "EACCES", "allow" };
	struct mutant_run changed = {
		.reached = true, .ok = true, .diffs = &d, .n_diffs = 1
	};
	struct path_set prof[3];
	char *why;

	/* Holds: records the same, each function within A -> A2. */
	profiles(prof, 86000, 120300);
	ck_assert_ptr_null(mutant_equivalence_refused(&j, &clean,
						      "socketpair:none", prof));

	/* Refused by a decision: killed, or a difference in its run. */
	j = (struct mutant_judgement){ .verdict = MUTANT_KILLED,
				       .ways = MUTANT_BY_DECISION };
	why = mutant_equivalence_refused(&j, &changed, "socketpair:none", prof);
	ck_assert_str_eq(why, "it is killed by decision");
	free(why);
	j = (struct mutant_judgement){ .verdict = MUTANT_SURVIVED };
	why = mutant_equivalence_refused(&j, &changed, "socketpair:none", prof);
	ck_assert_str_eq(why, "1 decisions differ from the original's");
	free(why);
	j = (struct mutant_judgement){ .verdict = MUTANT_INCONCLUSIVE,
				       .why = "a failure did not repeat" };
	why = mutant_equivalence_refused(&j, &clean, "socketpair:none", prof);
	ck_assert_str_eq(why, "it is inconclusive (a failure did not repeat)");
	free(why);
	profiles_free(prof);

	/* Refused by its profile: one instruction more where A = A2. */
	j = (struct mutant_judgement){ .verdict = MUTANT_SURVIVED };
	profiles(prof, 86001, 120000);
	why = mutant_equivalence_refused(&j, &clean, "socketpair:none", prof);
	ck_assert_str_eq(
		why,
		"instructions per message differ at socketpair:none: aa_unix_peer_perm 86.00 -> 86.00 (+0.001/msg, A2 86.00)");
	free(why);
	profiles_free(prof);
	/* Beyond the seeds' spread; a function of its own. */
	profiles(prof, 86000, 120500);
	prof_row(&prof[1], "socketpair:none", "aa_sunaddr", 16000);
	why = mutant_equivalence_refused(&j, &clean, "socketpair:none", prof);
	ck_assert_str_eq(
		why,
		"instructions per message differ at socketpair:none: [user] 120.00 -> 120.50 (+0.5/msg, A2 120.40), aa_sunaddr 0.00 -> 16.00 (+16/msg, A2 0.00)");
	free(why);
	profiles_free(prof);

	/* Refused: no profile measured (the mutant's, or at a point). */
	profiles(prof, 86000, 120000);
	path_free(&prof[1]);
	why = mutant_equivalence_refused(&j, &clean, "socketpair:none", prof);
	ck_assert_str_eq(
		why,
		"no instruction profile at socketpair:none in the mutant's cost boot");
	free(why);
	profiles_free(prof);
	profiles(prof, 86000, 120000);
	why = mutant_equivalence_refused(&j, &clean,
					 "socketpair:none twoproc:both", prof);
	ck_assert_str_eq(
		why,
		"no instruction profile at twoproc:both in the original's A");
	free(why);
	why = mutant_equivalence_refused(&j, &clean, "", prof);
	ck_assert_str_eq(why, "no cost point was profiled");
	free(why);
	profiles_free(prof);
}
END_TEST

/* The test mutants claiming equivalence: the claim is read. */
START_TEST(test_list_claims)
{
	struct mutant *m;
	struct err e;
	size_t n;

	ck_assert_int_eq(
		mutants_list(LSMCONF_ROOT
			     "/runner/tests/fixtures/mutants-equivalent",
			     NULL, 0, &m, &n, &e),
		0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(
		m[0].equivalent,
		"only a comment changes; the compiled code is the same");
	ck_assert_str_eq(m[1].equivalent,
			 "listen is checked again at accept (it is not)");
	ck_assert_str_eq(m[0].lsm, "apparmor");
	mutants_free(m, n);
}
END_TEST
/* The smallest diff a mutant may carry. */
#define DIFF "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"

START_TEST(test_list)
{
	char dir[] = "/tmp/lsmconf-mutants.XXXXXX";
	char *only[] = { "02-b" }, *nope[] = { "03-c" };
	struct mutant *m;
	struct err e;
	size_t n;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	put(dir, "02-b.patch", "second\n" DIFF);
	put(dir, "01-a.patch", "first\n" DIFF);
	put(dir, "README", "not a patch\n");
	ck_assert_int_eq(mutants_list(dir, NULL, 0, &m, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(m[0].name, "01-a");
	ck_assert_str_eq(m[1].desc, "second");
	ck_assert(!m[0].cost_only);
	mutants_free(m, n);
	/* "Cost-only:" counts in the header only, not in the diff. */
	ck_assert(mutant_cost_only("x\n\nCost-only: an extra read\n--- a/x\n"));
	ck_assert(!mutant_cost_only("x\n--- a/x\n+++ b/x\n+\nCost-only: no\n"));
	ck_assert_int_eq(mutants_list(dir, only, 1, &m, &n, &e), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(m[0].name, "02-b");
	mutants_free(m, n);
	/* An unknown name is an error value, not the end of the program. */
	ck_assert_int_eq(mutants_list(dir, nope, 1, &m, &n, &e), -1);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(m);
	ck_assert(strstr(e.msg, "no mutant 03-c in ") == e.msg);
	for (n = 0; n < 3; n++) {
		static const char *const files[] = { "01-a.patch", "02-b.patch",
						     "README" };
		char *path = xasprintf("%s/%s", dir, files[n]);

		ck_assert_int_eq(unlink(path), 0);
		free(path);
	}
	/* No diff, garbage hunks, no description: each its own reason. */
	put(dir, "01-a.patch", "A mutant with no diff\n\nJust words.\n");
	ck_assert_int_eq(mutants_list(dir, NULL, 0, &m, &n, &e), -1);
	ck_assert_ptr_nonnull(strstr(e.msg, "01-a.patch: no diff in it"));
	put(dir, "01-a.patch",
	    "garbage\n--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\nzzz\n");
	ck_assert_int_eq(mutants_list(dir, NULL, 0, &m, &n, &e), -1);
	ck_assert_ptr_nonnull(strstr(
		e.msg,
		"01-a.patch: line 5: the hunk of line 4 (file b/x) ends early"));
	put(dir, "01-a.patch", DIFF);
	ck_assert_int_eq(mutants_list(dir, NULL, 0, &m, &n, &e), -1);
	ck_assert_ptr_nonnull(strstr(
		e.msg, "01-a.patch: no one-line description before the diff"));
	{
		char *path = xasprintf("%s/01-a.patch", dir);

		ck_assert_int_eq(unlink(path), 0);
		free(path);
	}
	ck_assert_int_eq(rmdir(dir), 0);
	ck_assert_int_eq(mutants_list(dir, NULL, 0, &m, &n, &e), -1);
	ck_assert(strstr(e.msg, "cannot read the mutants directory ") == e.msg);
}
END_TEST

START_TEST(test_lsm)
{
	/* The LSM is the one directory of security/ every file is under. */
	ck_assert_str_eq(mutant_lsm("bug\n\n--- a/security/selinux/hooks.c\n"
				    "+++ b/security/selinux/hooks.c\n@@\n"
				    "--- a/security/selinux/ss/mls.c\n"
				    "+++ b/security/selinux/ss/mls.c\n"),
			 "selinux");
	ck_assert_str_eq(mutant_lsm("bug\n--- a/security/apparmor/net.c\n"
				    "+++ b/security/apparmor/net.c\n"),
			 "apparmor");
	/* Both LSMs, another directory, a prefix that only looks alike. */
	ck_assert_ptr_null(mutant_lsm("b\n+++ b/security/apparmor/lsm.c\n"
				      "+++ b/security/selinux/avc.c\n"));
	ck_assert_ptr_null(mutant_lsm("b\n+++ b/net/unix/af_unix.c\n"));
	ck_assert_ptr_null(mutant_lsm("b\n+++ b/security/selinuxfs.c\n"));
	ck_assert_ptr_null(mutant_lsm("no diff at all\n"));
}
END_TEST

int main(void)
{
	return CHECK_RUN("mutate", test_header, test_judge_one_run,
			 test_host_problems_never_kill, test_judge_rerun,
			 test_ktap_failures, test_list, test_lsm,
			 test_judge_cost, test_equivalence, test_list_claims);
}
