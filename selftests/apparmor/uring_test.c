// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor io_uring rules (issue 40): creating an io_uring whose
 * submission queue a kernel thread polls (io_uring_setup() with
 * IORING_SETUP_SQPOLL) under profiles with and without `io_uring,`, with
 * `io_uring sqpoll,` and with `io_uring override_creds,` only, beside
 * `deny io_uring sqpoll,`, in complain mode, compiled for an ABI without
 * the io_uring class, and stacked.
 *
 * Each case is a label (the profiles of profiles/uring.profile, ABI 5.0,
 * and profiles/uring_old.profile, ABI 3.0): a child enters it
 * (aa_change_profile, then aa_stack_profile for a stack's second) and
 * calls io_uring_setup(); its -errno comes back over a pipe.
 *
 * The model (uring_expect(); each rule names the kernel function):
 *
 *   hook      apparmor_uring_sqpoll (lsm.c), from io_sq_offload_create:
 *             every profile of the label must allow (fn_for_each ->
 *             profile_uring); an unconfined profile's rules mediate
 *             nothing.
 *   mediates  profile_uring allows when the profile's rules do not
 *             mediate the io_uring class (RULE_MEDIATES): the parser
 *             writes the class only for an ABI that has it (5.0 here,
 *             not 3.0), and only when the kernel advertises it in
 *             features/io_uring/mask (6.12 and 7.2, not 6.1, which has
 *             no such hook).
 *   rules     `io_uring,` and `io_uring sqpoll,` allow; a profile with
 *             neither (`io_uring override_creds,` alone among them), or
 *             with `deny io_uring sqpoll,` beside `io_uring,`, refuses:
 *             aa_check_perms' -EACCES.
 *   complain  a complain-mode profile allows what it would refuse.
 *
 * The audit records (log.record, log.fields; uring_log_expect()), read
 * from /dev/kmsg up to a marker record (kmsg_audit.h): each profile of
 * the label that refuses logs apparmor="DENIED" ("ALLOWED" in complain
 * mode) with operation="uring_sqpoll", the refusing profile, and
 * requested= and denied= "sqpoll" (audit_uring_cb); what a deny rule
 * refuses is quiet, and an allowed ring logs nothing.
 */

#define _GNU_SOURCE
#include <linux/io_uring.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "kmsg_audit.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define ABI_OLD "3.0"
#define FEATURE "io_uring/mask/sqpoll"

/* The profiles, by tag (the name is AA_TEST_PREFIX tag). */
enum ur_prof {
	R_NONE,
	R_ALL,
	R_SQPOLL,
	R_OVERRIDE,
	R_DENY,
	R_COMPLAIN,
	R_OLD,
	NPROF
};

static const struct {
	const char *tag;
	bool old_abi; /* compiled for ABI_OLD: no io_uring class */
	bool allows; /* a rule allows sqpoll, no deny rule takes it */
	bool denies; /* a deny rule refuses it: quiet */
	bool complain;
} ur_profiles[NPROF] = {
	[R_NONE] = { "uring" },
	[R_ALL] = { "uring_all", false, true },
	[R_SQPOLL] = { "uring_sqpoll", false, true },
	[R_OVERRIDE] = { "uring_override" },
	[R_DENY] = { "uring_deny", false, false, true },
	[R_COMPLAIN] = { "uring_complain", false, false, false, true },
	[R_OLD] = { "uring_old", true },
};

FIXTURE(uring)
{
	int mediated; /* sqpoll in features/io_uring/mask, 1 or 0 */
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
FIXTURE_VARIANT_ADD(uring, deny_sqpoll) { .n = 1, .p = { R_DENY } };
FIXTURE_VARIANT_ADD(uring, complain) { .n = 1, .p = { R_COMPLAIN } };
FIXTURE_VARIANT_ADD(uring, old_abi) { .n = 1, .p = { R_OLD } };
FIXTURE_VARIANT_ADD(uring, io_uring_stack_no_rule) {
	.n = 2, .p = { R_ALL, R_NONE } };
/* clang-format on */

/* Whether profile @p refuses an SQPOLL ring (RULE_MEDIATES, its rules). */
static bool ur_refuses(enum ur_prof p, int mediated)
{
	return mediated && !ur_profiles[p].old_abi && !ur_profiles[p].allows;
}

static int uring_expect(const FIXTURE_VARIANT(uring) * v, int mediated)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (ur_refuses(v->p[i], mediated) &&
		    !ur_profiles[v->p[i]].complain)
			return -EACCES;
	return 0;
}

/*
 * The records a ring logs: how many, and the last one's profile tag and
 * audit type in @tag and @type.
 */
static int uring_log_expect(const FIXTURE_VARIANT(uring) * v, int mediated,
			    const char **tag, const char **type)
{
	int i, n = 0;

	for (i = 0; i < v->n; i++) {
		enum ur_prof p = v->p[i];

		if (!ur_refuses(p, mediated) || ur_profiles[p].denies)
			continue; /* allowed, or refused and quiet */
		n++;
		*tag = ur_profiles[p].tag;
		*type = ur_profiles[p].complain ? "ALLOWED" : "DENIED";
	}
	return n;
}

/* An SQPOLL ring of 4 entries, closed at once: 0 or -errno. */
static int sqpoll_ring(void)
{
	struct io_uring_params params = { .flags = IORING_SETUP_SQPOLL };
	long fd = syscall(__NR_io_uring_setup, 4, &params);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The child (child_run()): enters the label, sets up the ring. */
static void uring_child(void *arg, void *reply)
{
	const FIXTURE_VARIANT(uring) *v = arg;
	struct aa_child_report *c = reply;
	const char *tags[2] = { ur_profiles[v->p[0]].tag,
				ur_profiles[v->p[1]].tag };

	c->pre = NOT_RUN;
	c->result = NOT_RUN;
	c->enter = aa_enter_tags(tags, v->n, NULL, 0);
	if (c->enter)
		return;
	c->result = sqpoll_ring();
}

FIXTURE_SETUP(uring)
{
	struct aa_policy p, old;
	int ret, unconfined;

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
	self->mediated = aa_policy_feature(FEATURE);
	ASSERT_LE(0, self->mediated);
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

TEST_F(uring, sqpoll_ring)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->n ? ur_profiles[variant->p[0]].tag :
					"unconfined",
		.object = "-",
		.class = "io_uring",
		.detail =
			variant->n == 2 ? ur_profiles[variant->p[1]].tag : "-",
		.op = "sqpoll",
		.depends = self->mediated ? FEATURE "=yes" : FEATURE "=no",
	};
	const char *tag = NULL, *type = NULL;
	char prof[160], op[64];
	struct aa_child_report r;
	struct records got;
	int fd = kmsg_open_end(), want;

	ASSERT_LE(0, fd);
	ASSERT_EQ(0, child_run(uring_child, (void *)variant, &r, sizeof(r)));
	ASSERT_CHILD_READY(&r, "sqpoll");
	ASSERT_EQ(0, aa_log_mark("uring"));
	ASSERT_EQ(0, log_collect_by(fd, "operation", "uring_sqpoll",
				    AA_TEST_PREFIX "uring_marker", &got))
	{
		TH_LOG("no marker record in the log");
	}
	close(fd);
	rec.expected = uring_expect(variant, self->mediated);
	rec.observed = r.result;
	JUDGE(&rec);
	/* The records the ring logs, or proven quiet by the marker. */
	want = uring_log_expect(variant, self->mediated, &tag, &type);
	snprintf(prof, sizeof(prof), AA_TEST_PREFIX "%s", tag ?: "-");
	{
		const struct log_field fields[] = {
			{ "apparmor", type },
			{ "profile", prof },
			{ "requested", "sqpoll" },
			{ "denied", "sqpoll" },
		};

		JUDGE_LOG(&rec, op, "sqpoll", want, got.n,
			  judge_records(_metadata, "uring", &got, want, fields,
					ARRAY_SIZE(fields)));
	}
}

AA_HARNESS_MAIN
