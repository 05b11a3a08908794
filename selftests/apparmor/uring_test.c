// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor io_uring rules (issue 40), the two io_uring
 * permissions under profiles with and without `io_uring,`, with
 * `io_uring sqpoll,`, with `io_uring override_creds,` (any label, the
 * target's label, another label), beside a deny rule of either, in
 * complain mode, compiled for an ABI without the io_uring class, and
 * stacked:
 *
 *   sqpoll          creating a ring whose submission queue a kernel
 *                   thread polls (io_uring_setup() with
 *                   IORING_SETUP_SQPOLL);
 *   override_creds  submitting a request with a personality registered
 *                   while unconfined (IORING_REGISTER_PERSONALITY), so
 *                   that it runs with the unconfined credentials: the
 *                   request's completion carries the decision.
 *
 * Each case is a label (the profiles of profiles/uring.profile, ABI 5.0,
 * and profiles/uring_old.profile, ABI 3.0): a child enters it
 * (aa_change_profile, then aa_stack_profile for a stack's second) and
 * makes the call; its -errno comes back over a pipe.
 *
 * The model (uring_expect(); each rule names the kernel function):
 *
 *   hooks     apparmor_uring_sqpoll (lsm.c), from io_sq_offload_create,
 *             and apparmor_uring_override_creds, from io_init_req with
 *             the personality's credentials as the target: every
 *             profile of the label must allow (fn_for_each ->
 *             profile_uring); an unconfined profile's rules mediate
 *             nothing.
 *   mediates  profile_uring allows when the profile's rules do not
 *             mediate the io_uring class (RULE_MEDIATES): the parser
 *             writes the class only for an ABI that has it (5.0 here,
 *             not 3.0), and only when the kernel advertises it in
 *             features/io_uring/mask (6.12 and 7.2, not 6.1, which has
 *             no such hook).
 *   rules     `io_uring,` allows both; `io_uring sqpoll,` and
 *             `io_uring override_creds,` one each; an override_creds
 *             rule with `label=` allows only when the target's label
 *             matches (aa_label_match); a deny rule takes its
 *             permission back. Else aa_check_perms' -EACCES.
 *   complain  a complain-mode profile allows what it would refuse.
 *
 * The audit records (log.record, log.fields; uring_log_expect()), read
 * from /dev/kmsg up to a marker record (kmsg_audit.h): each profile of
 * the label that refuses logs apparmor="DENIED" ("ALLOWED" in complain
 * mode) with operation="uring_sqpoll" or "uring_override", the refusing
 * profile, requested= and denied= the permission, and for an override
 * tcontext= the target's label (audit_uring_cb); what a deny rule
 * refuses is quiet, and an allowed call logs nothing.
 */

#define _GNU_SOURCE

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "kmsg_audit.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/uring.h"

#define ABI "5.0"
#define ABI_OLD "3.0"
#define FEATURE_DIR "io_uring/mask/"
/* The personality's label: the child registers it before it enters. */
#define TARGET "unconfined"

/* The profiles, by tag (the name is AA_TEST_PREFIX tag). */
enum ur_prof {
	R_NONE,
	R_ALL,
	R_SQPOLL,
	R_OVERRIDE,
	R_OVERRIDE_TARGET,
	R_OVERRIDE_OTHER,
	R_DENY,
	R_DENY_OVERRIDE,
	R_COMPLAIN,
	R_OLD,
	NPROF
};

/* The io_uring permissions, as the records and rules name them. */
enum ur_perm { U_SQPOLL, U_OVERRIDE, NPERM };

#define ALL_PERMS ((1 << U_SQPOLL) | (1 << U_OVERRIDE))

static const struct {
	const char *name; /* requested= and denied=, the feature's word */
	const char *op; /* operation= */
} ur_perms[NPERM] = {
	[U_SQPOLL] = { "sqpoll", "uring_sqpoll" },
	[U_OVERRIDE] = { "override_creds", "uring_override" },
};

static const struct {
	const char *tag;
	bool old_abi; /* compiled for ABI_OLD: no io_uring class */
	unsigned int
		allows; /* for TARGET, no deny rule taking it (1 << perm) */
	unsigned int denies; /* a deny rule refuses it: quiet */
	bool complain;
} ur_profiles[NPROF] = {
	[R_NONE] = { "uring" },
	[R_ALL] = { "uring_all", false, ALL_PERMS },
	[R_SQPOLL] = { "uring_sqpoll", false, 1 << U_SQPOLL },
	[R_OVERRIDE] = { "uring_override", false, 1 << U_OVERRIDE },
	[R_OVERRIDE_TARGET] = { "uring_override_target", false,
				1 << U_OVERRIDE },
	/* its rule's label= names another label than TARGET */
	[R_OVERRIDE_OTHER] = { "uring_override_other" },
	[R_DENY] = { "uring_deny", false, 1 << U_OVERRIDE, 1 << U_SQPOLL },
	[R_DENY_OVERRIDE] = { "uring_deny_override", false, 1 << U_SQPOLL,
			      1 << U_OVERRIDE },
	[R_COMPLAIN] = { "uring_complain", false, 0, 0, true },
	[R_OLD] = { "uring_old", true },
};

FIXTURE(uring)
{
	int mediated[NPERM]; /* in features/io_uring/mask, 1 or 0 */
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(uring)
{
	int n; /* profiles in the label: 0 is unconfined */
	enum ur_prof p[2];
};

/* clang-format off */
FIXTURE_VARIANT_ADD(uring, unconfined) { .n = 0 };
FIXTURE_VARIANT_ADD(uring, no_rule) { .n = 1, .p = { R_NONE } };
FIXTURE_VARIANT_ADD(uring, io_uring) { .n = 1, .p = { R_ALL } };
FIXTURE_VARIANT_ADD(uring, sqpoll) { .n = 1, .p = { R_SQPOLL } };
FIXTURE_VARIANT_ADD(uring, override_creds_only) { .n = 1, .p = { R_OVERRIDE } };
FIXTURE_VARIANT_ADD(uring, override_creds_target) {
	.n = 1, .p = { R_OVERRIDE_TARGET } };
FIXTURE_VARIANT_ADD(uring, override_creds_other) {
	.n = 1, .p = { R_OVERRIDE_OTHER } };
FIXTURE_VARIANT_ADD(uring, deny_sqpoll) { .n = 1, .p = { R_DENY } };
FIXTURE_VARIANT_ADD(uring, deny_override_creds) {
	.n = 1, .p = { R_DENY_OVERRIDE } };
FIXTURE_VARIANT_ADD(uring, complain) { .n = 1, .p = { R_COMPLAIN } };
FIXTURE_VARIANT_ADD(uring, old_abi) { .n = 1, .p = { R_OLD } };
FIXTURE_VARIANT_ADD(uring, io_uring_stack_no_rule) {
	.n = 2, .p = { R_ALL, R_NONE } };
/* clang-format on */

/* Whether profile @p refuses @u (RULE_MEDIATES, its rules). */
static bool ur_refuses(enum ur_prof p, enum ur_perm u, int mediated)
{
	return mediated && !ur_profiles[p].old_abi &&
	       !(ur_profiles[p].allows & (1 << u));
}

static int uring_expect(const FIXTURE_VARIANT(uring) * v, enum ur_perm u,
			int mediated)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (ur_refuses(v->p[i], u, mediated) &&
		    !ur_profiles[v->p[i]].complain)
			return -EACCES;
	return 0;
}

/*
 * The records @u logs: how many, and the last one's profile tag and
 * audit type in @tag and @type.
 */
static int uring_log_expect(const FIXTURE_VARIANT(uring) * v, enum ur_perm u,
			    int mediated, const char **tag, const char **type)
{
	int i, n = 0;

	for (i = 0; i < v->n; i++) {
		enum ur_prof p = v->p[i];

		if (!ur_refuses(p, u, mediated) ||
		    (ur_profiles[p].denies & (1 << u)))
			continue; /* allowed, or refused and quiet */
		n++;
		*tag = ur_profiles[p].tag;
		*type = ur_profiles[p].complain ? "ALLOWED" : "DENIED";
	}
	return n;
}

/* The child (child_run()): sets up what the call needs, enters, calls. */
struct uring_case {
	const FIXTURE_VARIANT(uring) * v;
	enum ur_perm u;
};

static void uring_child(void *arg, void *reply)
{
	const struct uring_case *k = arg;
	struct aa_child_report *c = reply;
	const char *tags[2] = { ur_profiles[k->v->p[0]].tag,
				ur_profiles[k->v->p[1]].tag };
	struct ring r = { .fd = -1 };
	int personality = 0;

	c->pre = NOT_RUN;
	c->result = NOT_RUN;
	if (k->u == U_OVERRIDE) {
		/* The personality: this task's credentials, unconfined. */
		c->setup = ring_open(&r);
		if (!c->setup) {
			personality = ring_personality(&r);
			c->setup = personality < 0 ? personality : 0;
		}
		if (c->setup)
			goto out;
	}
	c->enter = aa_enter_tags(tags, k->v->n, NULL, 0);
	if (c->enter)
		goto out;
	c->result =
		k->u == U_OVERRIDE ? ring_nop(&r, personality) : sqpoll_ring();
out:
	ring_close(&r);
}

FIXTURE_SETUP(uring)
{
	struct aa_policy p, old;
	struct ring r;
	int ret, unconfined, u;

	REQUIRE_APPARMOR(_metadata, true);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	/* Unconfined first: a ring the kernel refuses to anyone skips. */
	unconfined = sqpoll_ring();
	if (unconfined == -ENOSYS || unconfined == -EPERM)
		SKIP(return,
			   "io_uring_setup: %s (CONFIG_IO_URING, kernel.io_uring_disabled)",
			   strerror(-unconfined));
	ASSERT_EQ(0, unconfined);
	ret = ring_open(&r);
	if (!ret)
		ret = ring_nop(&r, 0);
	ring_close(&r);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("an unconfined no-op request: %s", strerror(-ret));
	}
	for (u = 0; u < NPERM; u++) {
		char feature[64];

		snprintf(feature, sizeof(feature), FEATURE_DIR "%s",
			 ur_perms[u].name);
		self->mediated[u] = aa_policy_feature(feature);
		ASSERT_LE(0, self->mediated[u]);
	}
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
	/* Unconfined too: its marker proves its ring quiet. */
	ret = aa_policy_share(_metadata, &p, "uring", ABI, NULL, "uring", NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, aa_policy_share(_metadata, &old, "uring_old", ABI_OLD,
				     NULL, "uring_old", NULL));
}

FIXTURE_TEARDOWN(uring)
{
	if (self->ratelimit[0])
		EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

/* The call of @u in the variant's label, judged with its records. */
static void uring_case(struct __test_metadata *_metadata,
		       FIXTURE_DATA(uring) * self,
		       const FIXTURE_VARIANT(uring) * variant, enum ur_perm u)
{
	const char *name = ur_perms[u].name;
	char depends[64], prof[160], op[64];
	struct record rec = {
		.abi = ABI,
		.subject = variant->n ? ur_profiles[variant->p[0]].tag :
					"unconfined",
		.object = u == U_OVERRIDE ? TARGET : "-",
		.class = "io_uring",
		.detail =
			variant->n == 2 ? ur_profiles[variant->p[1]].tag : "-",
		.op = name,
		.depends = depends,
	};
	struct uring_case k = { variant, u };
	const char *tag = NULL, *type = NULL;
	struct aa_child_report r;
	struct records got;
	int fd = kmsg_open_end(), want;

	snprintf(depends, sizeof(depends), FEATURE_DIR "%s=%s", name,
		 self->mediated[u] ? "yes" : "no");
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, child_run(uring_child, &k, &r, sizeof(r)));
	ASSERT_CHILD_READY(&r, name);
	ASSERT_EQ(0, aa_log_mark("uring"));
	ASSERT_EQ(0, log_collect_by(fd, "operation", ur_perms[u].op,
				    AA_TEST_PREFIX "uring_marker", &got))
	{
		TH_LOG("no marker record in the log");
	}
	close(fd);
	rec.expected = uring_expect(variant, u, self->mediated[u]);
	rec.observed = r.result;
	JUDGE(&rec);
	/* The records the call logs, or proven quiet by the marker. */
	want = uring_log_expect(variant, u, self->mediated[u], &tag, &type);
	snprintf(prof, sizeof(prof), AA_TEST_PREFIX "%s", tag ?: "-");
	{
		const struct log_field fields[] = {
			{ "apparmor", type },
			{ "profile", prof },
			{ "requested", name },
			{ "denied", name },
			/* audit_uring_cb: an override's target */
			{ "tcontext", u == U_OVERRIDE ? TARGET : NULL },
		};

		JUDGE_LOG(&rec, op, name, want, got.n,
			  judge_records(_metadata, "uring", &got, want, fields,
					ARRAY_SIZE(fields)));
	}
}

TEST_F(uring, sqpoll_ring)
{
	uring_case(_metadata, self, variant, U_SQPOLL);
}

TEST_F(uring, override_creds)
{
	uring_case(_metadata, self, variant, U_OVERRIDE);
}

AA_HARNESS_MAIN
