/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: the one way a binary's cases share loaded
 * labels: aa_policy_share() loads each once, the harness's main
 * (AA_HARNESS_MAIN, in place of TEST_HARNESS_MAIN) removes them after the
 * cases. Include it after kselftest_harness.h.
 */
#ifndef LSMCONF_APPARMOR_HARNESS_MAIN_H
#define LSMCONF_APPARMOR_HARNESS_MAIN_H

#include "common.h"
#include "../lsmconf/kmsg_mark.h"

/*
 * A label the binary's cases share: compiled (cached per boot) and loaded
 * by the first case that needs it, found loaded by the next; main removes
 * it after the last case (below). 0 or -errno; a parser refusal names
 * its log.
 */
static inline int aa_policy_share(struct __test_metadata *_metadata,
				  struct aa_policy *p, const char *tmpl,
				  const char *abi, const char *perms,
				  const char *tag, const char *name)
{
	int ret = aa_policy_build_as(p, tmpl, abi, perms, tag, name);

	if (ret) {
		TH_LOG("compiling %s failed (%s); parser output in %s", tag,
		       strerror(-ret), p->log);
		return ret;
	}
	return aa_policy_load_shared(p);
}

/*
 * The report of a one-shot child (child_run()) that prepares unconfined,
 * enters a test profile and makes one operation: -errno of each step,
 * @pre a step the operation needs first (NOT_RUN where it has none).
 */
struct aa_child_report {
	int setup, enter, pre, result;
};

/* Enters the test profile AA_TEST_PREFIX<@group>_<@tag>: 0 or -errno. */
static inline int aa_enter_test_profile(const char *group, const char *tag)
{
	char name[160];

	snprintf(name, sizeof(name), AA_TEST_PREFIX "%s_%s", group, tag);
	return aa_change_profile(name) ? -errno : 0;
}

/* A child's setup and entering worked, or the case fails naming @op. */
#define ASSERT_CHILD_READY(r, op)                                           \
	do {                                                                \
		ASSERT_EQ(0, (r)->setup)                                    \
		{                                                           \
			TH_LOG("%s: setup: %s", op, strerror(-(r)->setup)); \
		}                                                           \
		ASSERT_EQ(0, (r)->enter)                                    \
		{                                                           \
			TH_LOG("%s: entering the profile: %s", op,          \
			       strerror(-(r)->enter));                      \
		}                                                           \
	} while (0)

/* What the profile list was before the cases, and whose list it is. */
static char aa_list_before[65536];
static pid_t aa_main_pid;

/*
 * After the cases (at exit: test_harness_run() ends in ksft_exit(), never
 * returning): every test profile is removed and the kernel's profile list
 * must be what it was before, else the program fails (the suite never
 * leaves policy loaded). Only in main's process: a test's own children
 * that exit() run it too.
 */
static void aa_harness_clean(void)
{
	static char after[65536];

	if (getpid() != aa_main_pid)
		return;
	if (aa_remove_leftovers() < 0 ||
	    aa_profile_list(after, sizeof(after)) < 0 ||
	    strcmp(aa_list_before, after)) {
		printf("# test policy left loaded: %s\n",
		       "the profile list differs from the one before the cases");
		fflush(stdout);
		_exit(KSFT_FAIL);
	}
}

/*
 * The harness's main for tests that share loaded labels: test profiles a
 * crashed run left are removed first, and aa_harness_clean() runs after
 * the cases. Without AppArmor or without leave to load policy there is
 * nothing to clean.
 */
static inline int aa_harness_main(int argc, char **argv)
{
	if (!policy_load_refusal() && lsm_is_active("apparmor") == 1 &&
	    aa_remove_leftovers() == 0 &&
	    aa_profile_list(aa_list_before, sizeof(aa_list_before)) >= 0) {
		aa_main_pid = getpid();
		atexit(aa_harness_clean);
	}
	return lsm_harness_run(argc, argv);
}

#define AA_HARNESS_MAIN                             \
	int main(int argc, char **argv)             \
	{                                           \
		return aa_harness_main(argc, argv); \
	}

#endif /* LSMCONF_APPARMOR_HARNESS_MAIN_H */
