// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor capability rules (issue 40): a root task in a label
 * uses three capabilities, each by one system call that needs it and
 * nothing else AppArmor mediates: sethostname() (CAP_SYS_ADMIN), fchown()
 * of its own file to another owner (CAP_CHOWN), and setpriority() below
 * nice 0 (CAP_SYS_NICE). The labels: unconfined; no capability rule;
 * `capability sys_admin,`; `capability,`; `capability,` beside
 * `deny capability chown,`; `audit capability sys_nice,`; complain mode;
 * and `capability,` stacked with `capability sys_admin,`.
 *
 * Each use runs in a child that enters the label (aa_change_profile, then
 * aa_stack_profile for a stack's second) and reports -errno over a pipe.
 *
 * The model (cap_expect(); each rule names the kernel function):
 *
 *   hook      apparmor_capable (lsm.c) -> aa_capable (capability.c): an
 *             unconfined label asks nothing; else every profile of the
 *             label must allow (fn_for_each_confined keeps the last
 *             error).
 *   rules     profile_capable: a capability rule allows it, `capability,`
 *             allows all, a deny rule takes one back; else -EPERM, which
 *             the call passes on but for setpriority() (set_one_prio:
 *             -EACCES when can_nice() fails).
 *   complain  a complain-mode profile allows what it would refuse.
 *
 * The audit records (log.record, log.fields; cap_logs()), read from
 * /dev/kmsg up to a marker record (kmsg_audit.h): each profile that
 * refuses logs apparmor="DENIED" ("ALLOWED" in complain mode), one that
 * allows by an `audit` rule logs apparmor="AUDIT", with
 * operation="capable", the profile and capname= the capability
 * (audit_caps() or aa_check_perms(), audit_cb); what a deny rule refuses
 * is quiet, and an allowed use without `audit` logs nothing. Each use is
 * a new child, so a new cred: audit_caps()' once-a-second dedup of one
 * cred's capability does not hide a record, and no profile refuses one
 * capability twice in a run (6.1's cache is by profile).
 */

#define _GNU_SOURCE
#include <sys/resource.h>

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "kmsg_audit.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define FILE_DIR "/tmp/lsmconf_cap"

/* The profiles, by tag (the name is AA_TEST_PREFIX tag). */
enum cap_prof {
	C_NONE,
	C_SYS_ADMIN,
	C_ALL,
	C_DENY_CHOWN,
	C_AUDIT_NICE,
	C_COMPLAIN,
	C_STACK_SYS_ADMIN,
	NPROF
};

/* The uses: the capability each needs and the call that needs it. */
enum cap_use { U_SYS_ADMIN, U_CHOWN, U_SYS_NICE, NUSE };

static const char *const use_cap[NUSE] = { "sys_admin", "chown", "sys_nice" };
static const char *const use_op[NUSE] = { "sethostname", "fchown",
					  "setpriority" };
/*
 * The errno of each call when the capability is refused: its own, not
 * AppArmor's (set_one_prio() answers a failed can_nice() with -EACCES).
 */
static const int use_refused[NUSE] = { -EPERM, -EPERM, -EACCES };

static const struct {
	const char *tag;
	unsigned int allow; /* the uses its rules allow (1 << use) */
	unsigned int deny; /* the uses a deny rule takes back */
	unsigned int audit; /* the uses an audit rule allows */
	bool complain;
} cap_profiles[NPROF] = {
	[C_NONE] = { "cap" },
	[C_SYS_ADMIN] = { "cap_sys_admin", 1 << U_SYS_ADMIN },
	[C_ALL] = { "cap_all", 7 },
	[C_DENY_CHOWN] = { "cap_deny_chown", 7 & ~(1 << U_CHOWN),
			   1 << U_CHOWN },
	[C_AUDIT_NICE] = { "cap_audit_nice", 1 << U_SYS_NICE, 0,
			   1 << U_SYS_NICE },
	[C_COMPLAIN] = { "cap_complain", 0, 0, 0, true },
	[C_STACK_SYS_ADMIN] = { "cap_stack_sys_admin", 1 << U_SYS_ADMIN },
};

FIXTURE(cap)
{
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(cap)
{
	int n; /* profiles in the label: 0 is unconfined */
	enum cap_prof p[2];
};

/* clang-format off */
FIXTURE_VARIANT_ADD(cap, unconfined) { .n = 0 };
FIXTURE_VARIANT_ADD(cap, no_rule) { .n = 1, .p = { C_NONE } };
FIXTURE_VARIANT_ADD(cap, sys_admin) { .n = 1, .p = { C_SYS_ADMIN } };
FIXTURE_VARIANT_ADD(cap, all) { .n = 1, .p = { C_ALL } };
FIXTURE_VARIANT_ADD(cap, all_deny_chown) { .n = 1, .p = { C_DENY_CHOWN } };
FIXTURE_VARIANT_ADD(cap, audit_sys_nice) { .n = 1, .p = { C_AUDIT_NICE } };
FIXTURE_VARIANT_ADD(cap, complain) { .n = 1, .p = { C_COMPLAIN } };
FIXTURE_VARIANT_ADD(cap, all_stack_sys_admin) {
	.n = 2, .p = { C_ALL, C_STACK_SYS_ADMIN } };
/* clang-format on */

static int cap_expect(const FIXTURE_VARIANT(cap) * v, enum cap_use u)
{
	int i;

	for (i = 0; i < v->n; i++) {
		enum cap_prof p = v->p[i];

		if (!(cap_profiles[p].allow & (1 << u)) &&
		    !cap_profiles[p].complain)
			return use_refused[u];
	}
	return 0;
}

/* What profile @p logs for use @u: NULL nothing, else its audit type. */
static const char *cap_log_type(enum cap_prof p, enum cap_use u)
{
	if (cap_profiles[p].allow & (1 << u))
		return cap_profiles[p].audit & (1 << u) ? "AUDIT" : NULL;
	if (cap_profiles[p].deny & (1 << u))
		return NULL; /* refused, and quiet */
	return cap_profiles[p].complain ? "ALLOWED" : "DENIED";
}

/*
 * The records use @u logs: how many, and the last one's profile tag and
 * audit type in @tag and @type.
 */
static int cap_logs(const FIXTURE_VARIANT(cap) * v, enum cap_use u,
		    const char **tag, const char **type)
{
	int i, n = 0;

	for (i = 0; i < v->n; i++) {
		const char *t = cap_log_type(v->p[i], u);

		if (t) {
			n++;
			*tag = cap_profiles[v->p[i]].tag;
			*type = t;
		}
	}
	return n;
}

struct cap_case {
	const FIXTURE_VARIANT(cap) * v;
	enum cap_use u;
};

/* The use itself, in the label: 0 or -errno. */
static int use_capability(enum cap_use u, int fd)
{
	char host[256];

	switch (u) {
	case U_SYS_ADMIN:
		if (gethostname(host, sizeof(host)))
			return -errno;
		return sys_ret(sethostname(host, strlen(host)));
	case U_CHOWN:
		return sys_ret(fchown(fd, 1, -1));
	default:
		return sys_ret(setpriority(PRIO_PROCESS, 0, -1));
	}
}

/*
 * The child (child_run()): makes its own file unconfined (its owner
 * root, so giving it away needs CAP_CHOWN), enters the label, uses the
 * capability.
 */
static void cap_child(void *arg, void *reply)
{
	const struct cap_case *k = arg;
	struct aa_child_report *c = reply;
	const char *tags[2] = { cap_profiles[k->v->p[0]].tag,
				cap_profiles[k->v->p[1]].tag };
	char path[128];
	int fd;

	c->pre = NOT_RUN;
	c->result = NOT_RUN;
	snprintf(path, sizeof(path), FILE_DIR "/f.%d", (int)getpid());
	fd = open(path, O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
	c->setup = fd < 0 ? -errno : 0;
	if (fd < 0)
		return;
	c->enter = aa_enter_tags(tags, k->v->n, NULL, 0);
	if (!c->enter)
		c->result = use_capability(k->u, fd);
	close(fd);
	/* Every profile but the marker has `file,`: gone in any label. */
	unlink(path);
}

FIXTURE_SETUP(cap)
{
	struct aa_policy p;
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
	ASSERT_EQ(0, mkdir(FILE_DIR, 0755) && errno != EEXIST ? -errno : 0);
	/* Unconfined too: its marker proves its uses quiet. */
	ret = aa_policy_share(_metadata, &p, "capability", ABI, NULL, "cap",
			      NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(cap)
{
	rmdir(FILE_DIR);
	EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

TEST_F(cap, use)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->n ? cap_profiles[variant->p[0]].tag :
					"unconfined",
		.detail =
			variant->n == 2 ? cap_profiles[variant->p[1]].tag : "-",
		.depends = "-",
	};
	char op[64], prof[160];
	int u;

	for (u = 0; u < NUSE; u++) {
		struct cap_case k = { variant, u };
		const char *tag = NULL, *type = NULL;
		struct aa_child_report r;
		struct records got;
		int fd = kmsg_open_end(), want;

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, child_run(cap_child, &k, &r, sizeof(r)));
		ASSERT_CHILD_READY(&r, use_op[u]);
		ASSERT_EQ(0, aa_log_mark("cap"));
		ASSERT_EQ(0, log_collect_by(fd, "capname", use_cap[u],
					    AA_TEST_PREFIX "cap_marker", &got))
		{
			TH_LOG("%s: no marker record in the log", use_op[u]);
		}
		close(fd);
		rec.object = use_cap[u];
		rec.class = "capability";
		rec.op = use_op[u];
		rec.expected = cap_expect(variant, u);
		rec.observed = r.result;
		JUDGE(&rec);
		/* The records the use logs, or proven quiet by the marker. */
		want = cap_logs(variant, u, &tag, &type);
		snprintf(prof, sizeof(prof), AA_TEST_PREFIX "%s", tag ?: "-");
		{
			const struct log_field fields[] = {
				{ "apparmor", type },
				{ "profile", prof },
				{ "capname", use_cap[u] },
			};

			JUDGE_LOG(&rec, op, use_op[u], want, got.n,
				  judge_records(_metadata, use_op[u], &got,
						want, fields,
						ARRAY_SIZE(fields)));
		}
	}
}

AA_HARNESS_MAIN
