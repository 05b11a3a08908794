// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor userns rules (issue 40): creating a user namespace
 * (unshare(CLONE_NEWUSER)) under profiles with and without `userns,`,
 * with `userns create,`, beside `deny userns create,`, in complain mode,
 * compiled for an ABI without the namespaces class, and stacked.
 *
 * Each case is a label (the profiles of profiles/userns.profile, ABI 5.0,
 * and profiles/userns_old.profile, ABI 3.0): a child enters it
 * (aa_change_profile, then aa_stack_profile for a stack's second) and
 * calls unshare(CLONE_NEWUSER); its -errno comes back over a pipe.
 *
 * The model (userns_expect(); each rule names the kernel function):
 *
 *   hook      apparmor_userns_create (lsm.c): an unconfined label asks
 *             nothing; else every profile of the label must allow
 *             (fn_for_each -> aa_profile_ns_perm, task.c).
 *   mediates  aa_profile_ns_perm allows when the profile's rules do not
 *             mediate the namespaces class (RULE_MEDIATES): the parser
 *             writes the class only for an ABI that has it (5.0 here,
 *             not 3.0), and only when the kernel advertises
 *             userns_create in features/namespaces/mask (6.12 and 7.2, not 6.1,
 *             which has no such hook); the pinned feature set too when
 *             the policy is compiled for one.
 *   rules     `userns,` and `userns create,` allow; a profile with
 *             neither, or with `deny userns create,` beside `userns,`,
 *             refuses: aa_check_perms' -EACCES.
 *   complain  a complain-mode profile allows what it would refuse
 *             (aa_apply_modes_to_perms, then the audit only).
 * Root passes the capability checks of create_user_ns() first.
 *
 * The audit records (log.record, log.fields; userns_log_expect()), read
 * from /dev/kmsg up to a marker record (kmsg_audit.h):
 *
 *   each     every profile of the label is asked (fn_for_each keeps the
 *            last error), so each that refuses logs its own record.
 *   logs     aa_check_perms: a refusal logs apparmor="DENIED", or
 *            "ALLOWED" in complain mode, with operation="userns_create",
 *            the refusing profile, and requested= and denied=
 *            "userns_create" (audit_ns_cb, task.c); what a deny rule
 *            refuses is quiet (its perms' quiet mask: a deny rule not
 *            marked audit), and an allowed create logs nothing.
 */

#define _GNU_SOURCE
#include <sched.h>

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "kmsg_audit.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define ABI_OLD "3.0"

/* The profiles, by tag (the name is AA_TEST_PREFIX tag). */
enum us_prof { U_NONE, U_USERNS, U_CREATE, U_DENY, U_COMPLAIN, U_OLD, NPROF };

static const struct {
	const char *tag;
	bool old_abi; /* compiled for ABI_OLD: no namespaces class */
	bool allows; /* a rule allows create, no deny rule takes it */
	bool complain;
} us_profiles[NPROF] = {
	[U_NONE] = { "userns" },
	[U_USERNS] = { "userns_userns", false, true },
	[U_CREATE] = { "userns_create", false, true },
	[U_DENY] = { "userns_deny" },
	[U_COMPLAIN] = { "userns_complain", false, false, true },
	[U_OLD] = { "userns_old", true },
};

FIXTURE(userns)
{
	int mediated; /* userns_create in features/namespaces/mask, 1 or 0 */
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(userns)
{
	int n; /* profiles in the label: 0 is unconfined */
	enum us_prof p[2];
};

/* clang-format off */
FIXTURE_VARIANT_ADD(userns, unconfined) { .n = 0 };
FIXTURE_VARIANT_ADD(userns, no_rule) { .n = 1, .p = { U_NONE } };
FIXTURE_VARIANT_ADD(userns, userns) { .n = 1, .p = { U_USERNS } };
FIXTURE_VARIANT_ADD(userns, userns_create) { .n = 1, .p = { U_CREATE } };
FIXTURE_VARIANT_ADD(userns, deny_create) { .n = 1, .p = { U_DENY } };
FIXTURE_VARIANT_ADD(userns, complain) { .n = 1, .p = { U_COMPLAIN } };
FIXTURE_VARIANT_ADD(userns, old_abi) { .n = 1, .p = { U_OLD } };
FIXTURE_VARIANT_ADD(userns, userns_stack_no_rule) {
	.n = 2, .p = { U_USERNS, U_NONE } };
FIXTURE_VARIANT_ADD(userns, userns_stack_old_abi) {
	.n = 2, .p = { U_USERNS, U_OLD } };
/* clang-format on */

static int userns_expect(const FIXTURE_VARIANT(userns) * v, int mediated)
{
	int i;

	for (i = 0; i < v->n; i++) {
		enum us_prof p = v->p[i];

		if (!mediated || us_profiles[p].old_abi)
			continue; /* RULE_MEDIATES: not the class */
		if (!us_profiles[p].allows && !us_profiles[p].complain)
			return -EACCES;
	}
	return 0;
}

/* What a profile of the label logs: 0 nothing, else its audit type. */
static const char *userns_logs(enum us_prof p, int mediated)
{
	if (!mediated || us_profiles[p].old_abi || us_profiles[p].allows)
		return NULL;
	if (p == U_DENY)
		return NULL; /* refused, and quiet */
	return us_profiles[p].complain ? "ALLOWED" : "DENIED";
}

/*
 * The records a create logs: how many, and the last one's profile tag
 * and audit type in @tag and @type.
 */
static int userns_log_expect(const FIXTURE_VARIANT(userns) * v, int mediated,
			     const char **tag, const char **type)
{
	int i, n = 0;

	for (i = 0; i < v->n; i++) {
		const char *t = userns_logs(v->p[i], mediated);

		if (t) {
			n++;
			*tag = us_profiles[v->p[i]].tag;
			*type = t;
		}
	}
	return n;
}

/* The child (child_run()): enters the label, creates a user namespace. */
static void userns_child(void *arg, void *reply)
{
	const FIXTURE_VARIANT(userns) *v = arg;
	struct aa_child_report *c = reply;
	const char *tags[2] = { us_profiles[v->p[0]].tag,
				us_profiles[v->p[1]].tag };

	c->pre = NOT_RUN;
	c->result = NOT_RUN;
	c->enter = aa_enter_tags(tags, v->n, NULL, 0);
	if (c->enter)
		return;
	c->result = sys_ret(unshare(CLONE_NEWUSER));
}

FIXTURE_SETUP(userns)
{
	struct aa_policy p, old;
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	self->mediated = aa_policy_feature("namespaces/mask/userns_create");
	ASSERT_LE(0, self->mediated);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
	/* Unconfined too: its marker proves its create quiet. */
	ret = aa_policy_share(_metadata, &p, "userns", ABI, NULL, "userns",
			      NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, aa_policy_share(_metadata, &old, "userns_old", ABI_OLD,
				     NULL, "userns_old", NULL));
}

FIXTURE_TEARDOWN(userns)
{
	EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

TEST_F(userns, create)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->n ? us_profiles[variant->p[0]].tag :
					"unconfined",
		.object = "-",
		.class = "userns",
		.detail =
			variant->n == 2 ? us_profiles[variant->p[1]].tag : "-",
		.op = "unshare_newuser",
		.depends = self->mediated ?
				   "namespaces/mask/userns_create=yes" :
				   "namespaces/mask/userns_create=no",
	};
	const char *tag = NULL, *type = NULL;
	char prof[160], op[64];
	struct aa_child_report r;
	struct records got;
	int fd = kmsg_open_end(), want;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, child_run(userns_child, (void *)variant, &r, sizeof(r)));
	ASSERT_CHILD_READY(&r, "unshare_newuser");
	ASSERT_EQ(0, aa_log_mark("userns"));
	ASSERT_EQ(0, log_collect_by(fd, "operation", "userns_create",
				    AA_TEST_PREFIX "userns_marker", &got))
	{
		TH_LOG("no marker record in the log");
	}
	close(fd);
	rec.expected = userns_expect(variant, self->mediated);
	rec.observed = r.result;
	JUDGE(&rec);
	/* The records the create logs, or proven quiet by the marker. */
	want = userns_log_expect(variant, self->mediated, &tag, &type);
	snprintf(prof, sizeof(prof), AA_TEST_PREFIX "%s", tag ?: "-");
	{
		const struct log_field fields[] = {
			{ "apparmor", type },
			{ "profile", prof },
			{ "requested", "userns_create" },
			{ "denied", "userns_create" },
		};

		JUDGE_LOG(&rec, op, "unshare_newuser", want, got.n,
			  judge_records(_metadata, "userns", &got, want, fields,
					ARRAY_SIZE(fields)));
	}
}

/*
 * Without user namespaces (CONFIG_USER_NS, in this directory's config)
 * there is nothing to decide: the whole program skips.
 */
int main(int argc, char **argv)
{
	if (access("/proc/self/ns/user", F_OK)) {
		ksft_print_header();
		ksft_exit_skip(
			"the kernel has no user namespaces (CONFIG_USER_NS)\n");
	}
	return aa_harness_main(argc, argv);
}
