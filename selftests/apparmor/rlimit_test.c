// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor rlimit rules (issue 40): `set rlimit nofile <= 64,`
 * against setrlimit(2) of the task's own limit and prlimit(2) of another
 * task's, with and without `capability sys_resource,`.
 *
 * Each case is a profile (rl_profiles below, in profiles/rlimit.profile)
 * and six operations, each run by its own child: it sets its
 * RLIMIT_NOFILE to {256, 256} (or {32, 32} before a raise) unconfined,
 * forks an unconfined target for the prlimit operations, enters the
 * profile (aa_change_profile) and makes one call; its -errno comes back
 * over a pipe.
 *
 *   set_64          setrlimit(NOFILE, {64, 64}): lowered to the limit
 *   set_128         setrlimit(NOFILE, {128, 128}): lowered, above it
 *   raise_512       setrlimit(NOFILE, {512, 512}) from 256: raised
 *   raise_48        setrlimit(NOFILE, {48, 48}) from 32: raised, within
 *   prlimit_64      prlimit(target, NOFILE, {64, 64})
 *   prlimit_128     prlimit(target, NOFILE, {128, 128})
 *
 * The model (rlimit_expect(); each rule names the kernel function):
 *
 *   order     do_prlimit (kernel/sys.c): a hard limit raised above the
 *             current one needs capable(CAP_SYS_RESOURCE) first
 *             (apparmor_capable: no "capability sys_resource," is
 *             -EPERM), then security_task_setrlimit asks AppArmor.
 *   own       apparmor_task_setrlimit -> aa_task_setrlimit (resource.c):
 *             the task's own limit (its label is the target's) is
 *             profile_setrlimit: a profile with an rlimit rule for the
 *             resource refuses a hard limit above the rule's: -EACCES;
 *             a profile without one allows any.
 *   other     another task's limit, the target's label not the
 *             subject's: allowed only with CAP_SYS_RESOURCE by the
 *             subject's profile (aa_capable, not audited), then
 *             profile_setrlimit of the subject's rules; without it
 *             -EACCES ("cap_sys_resource"), whatever the rlimit rules.
 *   unconfined  nothing is asked of AppArmor.
 *   features  features/rlimit absent: the case skips.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/resource.h>

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define RULE_LIMIT 64 /* set rlimit nofile <= 64 */
#define START 256 /* the child's limit before the operation */

enum opn {
	O_SET_64,
	O_SET_128,
	O_RAISE_512,
	O_RAISE_48,
	O_PRLIMIT_64,
	O_PRLIMIT_128,
	NOPS,
};

struct rl_op {
	const char *name;
	rlim_t from, to; /* the hard (and soft) limit before, after */
	bool other; /* another task's limit (prlimit) */
};

static const struct rl_op ops[NOPS] = {
	[O_SET_64] = { "set_64", START, 64, false },
	[O_SET_128] = { "set_128", START, 128, false },
	[O_RAISE_512] = { "raise_512", START, 512, false },
	[O_RAISE_48] = { "raise_48", 32, 48, false },
	[O_PRLIMIT_64] = { "prlimit_64", START, 64, true },
	[O_PRLIMIT_128] = { "prlimit_128", START, 128, true },
};

struct rl_profile {
	const char *tag; /* AA_TEST_PREFIX "rl_" tag */
	bool cap; /* capability sys_resource, */
	bool nofile; /* set rlimit nofile <= RULE_LIMIT, */
	const char *rules;
};

enum prof { PR_NONE, PR_NOFILE, PR_NOFILE_CAP, PR_NPROC, NPROF };
#define PR_UNCONFINED NPROF

/* clang-format off */
static const struct rl_profile rl_profiles[NPROF] = {
	[PR_NONE] = { "none", false, false, "" },
	[PR_NOFILE] = { "nofile", false, true,
			"set rlimit nofile <= 64,\n" },
	[PR_NOFILE_CAP] = { "nofile_cap", true, true,
			    "capability sys_resource,\n"
			    "  set rlimit nofile <= 64,\n" },
	[PR_NPROC] = { "nproc", false, false, "set rlimit nproc <= 64,\n" },
};
/* clang-format on */

/* profile_setrlimit: the rule's limit on the hard limit. */
static int rule_allows(const struct rl_profile *p, rlim_t hard)
{
	return p->nofile && hard > RULE_LIMIT ? -EACCES : 0;
}

static int rlimit_expect(int pi, const struct rl_op *o)
{
	const struct rl_profile *p;

	if (pi == PR_UNCONFINED)
		return 0;
	p = &rl_profiles[pi];
	if (o->other) /* aa_task_setrlimit: label != peer */
		return p->cap ? rule_allows(p, o->to) : -EACCES;
	if (o->to > o->from && !p->cap) /* do_prlimit: raising */
		return -EPERM;
	return rule_allows(p, o->to);
}

static int set_nofile(pid_t pid, rlim_t lim)
{
	struct rlimit r = { lim, lim };

	return prlimit(pid, RLIMIT_NOFILE, &r, NULL) ? -errno : 0;
}

struct rl_case {
	int pi;
	enum opn op;
};

/* The child (child_run()): its limits, a target, the profile, one call. */
static void rl_child(void *arg, void *reply)
{
	const struct rl_case *k = arg;
	const struct rl_op *o = &ops[k->op];
	struct aa_child_report *c = reply;
	int hold[2] = { -1, -1 };
	pid_t target = 0;
	char b;

	c->setup = set_nofile(0, o->from);
	if (!c->setup && o->other) {
		/* The target: unconfined, until this child ends. */
		if (pipe(hold)) {
			c->setup = -errno;
		} else {
			target = fork();
			if (target == 0) {
				close(hold[1]);
				_exit(read(hold[0], &b, 1) < 0);
			}
			if (target < 0)
				c->setup = -errno;
			close(hold[0]);
		}
	}
	if (!c->setup && k->pi != PR_UNCONFINED)
		c->enter = aa_enter_test_profile("rl", rl_profiles[k->pi].tag);
	if (!c->setup && !c->enter)
		c->result = set_nofile(o->other ? target : 0, o->to);
}

static int rl_run(int pi, enum opn op, struct aa_child_report *r)
{
	struct rl_case k = { pi, op };

	return child_run(rl_child, &k, r, sizeof(*r));
}

FIXTURE(rlimits) {};

FIXTURE_VARIANT(rlimits)
{
	int prof;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(rlimits, unconfined) { .prof = PR_UNCONFINED };
FIXTURE_VARIANT_ADD(rlimits, no_rules) { .prof = PR_NONE };
FIXTURE_VARIANT_ADD(rlimits, nofile_le_64) { .prof = PR_NOFILE };
FIXTURE_VARIANT_ADD(rlimits, nofile_le_64_cap) { .prof = PR_NOFILE_CAP };
FIXTURE_VARIANT_ADD(rlimits, nproc_le_64) { .prof = PR_NPROC };
/* clang-format on */

FIXTURE_SETUP(rlimits)
{
	struct aa_policy p;
	char tag[64];
	int ret;

	/* The unconfined variant too: it is the matrix's baseline, as root. */
	REQUIRE_APPARMOR(_metadata, true);
	if (aa_feature("rlimit") != 1)
		SKIP(return, "the kernel does not advertise features/rlimit");
	if (variant->prof == PR_UNCONFINED)
		return;
	snprintf(tag, sizeof(tag), "rl_%s", rl_profiles[variant->prof].tag);
	ret = aa_policy_share(_metadata, &p, "rlimit", ABI,
			      rl_profiles[variant->prof].rules, tag, NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(rlimits)
{
}

TEST_F_TIMEOUT(rlimits, decisions, 60)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->prof == PR_UNCONFINED ?
				   "unconfined" :
				   rl_profiles[variant->prof].tag,
		.class = "rlimit",
		.depends = "rlimit=yes",
	};
	char detail[NOPS][32];
	int i;

	for (i = 0; i < NOPS; i++) {
		struct aa_child_report r;

		ASSERT_EQ(0, rl_run(variant->prof, i, &r));
		ASSERT_CHILD_READY(&r, ops[i].name);
		snprintf(detail[i], sizeof(detail[i]), "nofile:%lu->%lu",
			 (unsigned long)ops[i].from, (unsigned long)ops[i].to);
		rec.object = ops[i].other ? "other_task" : "self";
		rec.detail = detail[i];
		rec.op = ops[i].name;
		rec.expected = rlimit_expect(variant->prof, &ops[i]);
		rec.observed = r.result;
		JUDGE(&rec);
	}
}

AA_HARNESS_MAIN
