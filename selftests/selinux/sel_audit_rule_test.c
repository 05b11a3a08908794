// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: SELinux audit filter rules (issue 40): the fields auditctl
 * writes as -F subj_user=, subj_role=, subj_type=, subj_sen=, subj_clr=,
 * obj_user=, obj_role=, obj_type=, obj_lev_low= and obj_lev_high=, each
 * with the operators the kernel takes for it, against a task and a
 * message queue whose contexts the case sets (policy/lsmconf-audit.cil).
 *
 * A variant is the subject's context. Each rule is one probe
 * (../lsmconf/audit_rule.h): an exit rule on msgctl(IPC_STAT) made by the
 * probe's child alone, with the rule's field; three decisions a rule:
 *   RULE/add          the rule's AUDIT_ADD_RULE: 0 (an LSM field the LSM
 *                     cannot parse is kept all the same, below)
 *   RULE/log.invalid  allow when the kernel logged the field's text as
 *                     invalid, ENOENT when not
 *   RULE/kept         allow when the call's record was kept, ENOENT when
 *                     the rule let it go
 *
 * The model (security/selinux/ss/services.c, kernel/auditfilter.c and
 * auditsc.c; 6.1 to 7.2 alike):
 *   parse   selinux_audit_rule_init(): a user, role or type name the
 *           policy does not hold, a level with a range ('-') or one the
 *           policy cannot read is -EINVAL; audit_data_to_entry() keeps
 *           such a rule and logs "audit rule for LSM '...' is invalid",
 *           and a rule with no LSM rule behind its field never matches
 *           (audit_filter_rules()).
 *   names   eq: the context's user, role or type is the rule's; ne: not.
 *   levels  subj_sen and obj_lev_low compare the low level, subj_clr and
 *           obj_lev_high the high one, with the rule's level R:
 *           eq L == R, ne L != R, lt R dom L and L != R, le R dom L,
 *           gt L dom R and L != R, ge L dom R (one sensitivity here, so
 *           dom is a superset of categories).
 *   subject the task's own context after setcon(); object: a message
 *           queue's context, its creator's (ctx->ipc.oprop, set by
 *           msgctl_stat()'s audit_ipc_obj()).
 *   change  a policy change (a boolean commit) parses every rule again
 *           (selinux_audit_rule_avc_callback(), audit_update_lsm_rules()):
 *           each rule then decides as before.
 *
 * Decision ids: sel_audit_rule_test/audit_rule.SUBJECT.TEST/RULE/WHAT,
 * RULE as FIELD.OP.TEXT.
 */
#define _GNU_SOURCE
#include <sys/msg.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/audit_rule.h"

#define CATS 4
/* The harness's context: the kernel initial SID (policy/lsmconf.cil). */
#define HARNESS_CTX "lsmconf_u:lsmconf_r:kernel_t:s0-s0:c0.c3"
#define BOOL_NAME "lsmconf_ar_flag"
/* The audited call (an architecture with only ipc(2) has none). */
#ifdef SYS_msgctl
#define AR_NR SYS_msgctl
#else
#define AR_NR -1
#endif

static const struct sel_ctx harness = { "lsmconf_u", "lsmconf_r", "kernel_t", 0,
					0xf };

/* The names the policy holds (an unknown one is -EINVAL). */
static const char *const policy_names[] = {
	"lsmconf_u",	  "lsmconf_mls_u",  "lsmconf_r", "lsmconf_ar_r",
	"lsmconf_ar_a_t", "lsmconf_ar_b_t", "kernel_t",
};

struct ar_op {
	__u32 op;
	const char *name;
};

static const struct ar_op name_ops[] = { { AUDIT_EQUAL, "eq" },
					 { AUDIT_NOT_EQUAL, "ne" } };
static const struct ar_op level_ops[] = {
	{ AUDIT_EQUAL, "eq" },	      { AUDIT_NOT_EQUAL, "ne" },
	{ AUDIT_LESS_THAN, "lt" },    { AUDIT_LESS_THAN_OR_EQUAL, "le" },
	{ AUDIT_GREATER_THAN, "gt" }, { AUDIT_GREATER_THAN_OR_EQUAL, "ge" },
};

/* A field, its name for the record, and the texts it is tried with. */
struct ar_form {
	__u32 field;
	const char *name;
	const char *texts[4];
};

static const struct ar_form subj_forms[] = {
	{ AUDIT_SUBJ_USER, "subj_user", { "lsmconf_u", "lsmconf_nosuch_u" } },
	{ AUDIT_SUBJ_ROLE, "subj_role", { "lsmconf_ar_r", "lsmconf_r" } },
	{ AUDIT_SUBJ_TYPE,
	  "subj_type",
	  { "lsmconf_ar_a_t", "lsmconf_nosuch_t" } },
	{ AUDIT_SUBJ_SEN, "subj_sen", { "s0:c0", "s0-s0:c0" } },
	{ AUDIT_SUBJ_CLR, "subj_clr", { "s0:c0", "s0:c0,c1" } },
};

static const struct ar_form obj_forms[] = {
	{ AUDIT_OBJ_USER, "obj_user", { "lsmconf_mls_u" } },
	{ AUDIT_OBJ_ROLE, "obj_role", { "lsmconf_r" } },
	{ AUDIT_OBJ_TYPE, "obj_type", { "lsmconf_ar_a_t", "kernel_t" } },
	{ AUDIT_OBJ_LEV_LOW, "obj_lev_low", { "s0:c0" } },
	{ AUDIT_OBJ_LEV_HIGH, "obj_lev_high", { "s0:c0", "s0:c9" } },
};

static bool is_level(__u32 field)
{
	return field == AUDIT_SUBJ_SEN || field == AUDIT_SUBJ_CLR ||
	       field == AUDIT_OBJ_LEV_LOW || field == AUDIT_OBJ_LEV_HIGH;
}

/*
 * A level's text ("s0", "s0:c0,c1") as a category set, or -EINVAL when the
 * policy cannot read it (a range, a category past c@CATMAX@).
 */
static int level_of(const char *text)
{
	const char *p = text + 2;
	int set = 0;

	if (strncmp(text, "s0", 2) || strchr(text, '-'))
		return -EINVAL;
	if (!*p)
		return 0;
	if (*p++ != ':')
		return -EINVAL;
	while (*p) {
		char *end;
		long c;

		if (*p++ != 'c')
			return -EINVAL;
		c = strtol(p, &end, 10);
		if (end == p || c < 0 || c >= CATS)
			return -EINVAL;
		set |= 1 << c;
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -EINVAL;
	}
	return set;
}

/* selinux_audit_rule_init(): does the policy read the field's text? */
static bool parses(const struct ar_form *f, const char *text)
{
	size_t i;

	if (is_level(f->field))
		return level_of(text) >= 0;
	for (i = 0; i < ARRAY_SIZE(policy_names); i++)
		if (!strcmp(text, policy_names[i]))
			return true;
	return false;
}

/* selinux_audit_rule_match() of context @c. */
static bool matches(const struct ar_form *f, __u32 op, const char *text,
		    const struct sel_ctx *c)
{
	const char *name;
	unsigned int r, l;

	if (!parses(f, text))
		return false; /* no LSM rule: audit_filter_rules() */
	switch (f->field) {
	case AUDIT_SUBJ_USER:
	case AUDIT_OBJ_USER:
		name = c->user;
		break;
	case AUDIT_SUBJ_ROLE:
	case AUDIT_OBJ_ROLE:
		name = c->role;
		break;
	case AUDIT_SUBJ_TYPE:
	case AUDIT_OBJ_TYPE:
		name = c->type;
		break;
	default:
		r = level_of(text);
		l = f->field == AUDIT_SUBJ_SEN ||
				    f->field == AUDIT_OBJ_LEV_LOW ?
			    c->low :
			    c->high;
		switch (op) {
		case AUDIT_EQUAL:
			return l == r;
		case AUDIT_NOT_EQUAL:
			return l != r;
		case AUDIT_LESS_THAN:
			return sel_dom(r, l) && l != r;
		case AUDIT_LESS_THAN_OR_EQUAL:
			return sel_dom(r, l);
		case AUDIT_GREATER_THAN:
			return sel_dom(l, r) && l != r;
		default:
			return sel_dom(l, r);
		}
	}
	return (op == AUDIT_EQUAL) == !strcmp(name, text);
}

/* The child's side of a probe. */
struct ar_arg {
	const struct sel_ctx *subject;
	int queue; /* the harness's, or -1: the child makes its own */
};

static int own_queue = -1;

static int enter_subject(const void *arg)
{
	const struct ar_arg *a = arg;
	char ctx[256];

	sel_ctx_text(a->subject, ctx, sizeof(ctx));
	return setcon(ctx) ? -errno : 0;
}

/* msgctl(IPC_STAT): the queue becomes the syscall's IPC object. */
static int stat_queue(const void *arg)
{
	const struct ar_arg *a = arg;
	struct msqid_ds ds;
	int q = a->queue;

	if (q < 0) {
		q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
		if (q < 0)
			return -errno;
		own_queue = q;
	}
	return msgctl(q, IPC_STAT, &ds) ? -errno : 0;
}

static void drop_own_queue(const void *arg)
{
	if (own_queue >= 0)
		msgctl(own_queue, IPC_RMID, NULL);
}

static int commit_flag(const void *arg)
{
	if (security_set_boolean(BOOL_NAME, 1) ||
	    security_commit_booleans() < 0)
		return -errno;
	return 0;
}

FIXTURE(audit_rule)
{
	struct ar_session audit;
	int queue;
};

FIXTURE_VARIANT(audit_rule)
{
	struct sel_ctx subject;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(audit_rule, a) {
	{ "lsmconf_u", "lsmconf_r", "lsmconf_ar_a_t", 0, 0 } };
FIXTURE_VARIANT_ADD(audit_rule, b) {
	{ "lsmconf_u", "lsmconf_r", "lsmconf_ar_b_t", 0, 0 } };
FIXTURE_VARIANT_ADD(audit_rule, role) {
	{ "lsmconf_u", "lsmconf_ar_r", "lsmconf_ar_a_t", 0, 0 } };
FIXTURE_VARIANT_ADD(audit_rule, user) {
	{ "lsmconf_mls_u", "lsmconf_r", "lsmconf_ar_a_t", 0, 0 } };
FIXTURE_VARIANT_ADD(audit_rule, c0) {
	{ "lsmconf_u", "lsmconf_r", "lsmconf_ar_a_t", 0x1, 0x1 } };
FIXTURE_VARIANT_ADD(audit_rule, c1) {
	{ "lsmconf_u", "lsmconf_r", "lsmconf_ar_a_t", 0x2, 0x2 } };
FIXTURE_VARIANT_ADD(audit_rule, c01) {
	{ "lsmconf_u", "lsmconf_r", "lsmconf_ar_a_t", 0x3, 0x3 } };
FIXTURE_VARIANT_ADD(audit_rule, range) {
	{ "lsmconf_u", "lsmconf_r", "lsmconf_ar_a_t", 0x0, 0x3 } };
/* clang-format on */

FIXTURE_SETUP(audit_rule)
{
	const char *why;
	char *con = NULL;
	int ret;

	self->audit.nl = -1;
	self->audit.was_enabled = -1;
	self->audit.ratelimit[0] = '\0';
	self->queue = -1;
	SEL_SETUP(CATS);
	if (AR_NR < 0)
		SKIP(return, "no msgctl system call on this architecture");
	ASSERT_EQ(0, getcon(&con));
	ASSERT_STREQ(HARNESS_CTX, con);
	freecon(con);
	why = ar_begin(&self->audit, &ret);
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, ret);
	self->queue = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	ASSERT_LE(0, self->queue);
}

FIXTURE_TEARDOWN(audit_rule)
{
	if (self->queue >= 0)
		EXPECT_EQ(0, msgctl(self->queue, IPC_RMID, NULL));
	EXPECT_EQ(0, ar_end(&self->audit));
}

/*
 * One rule's three decisions against @obj (the context the field reads:
 * the subject's or the queue's), probed by @p.
 */
static void judge_rule(struct __test_metadata *_metadata, int nl,
		       const struct ar_form *f, const struct ar_op *op,
		       const char *text, const struct sel_ctx *subject,
		       const struct sel_ctx *obj, const struct ar_probe *p)
{
	struct ar_field field = { f->field, op->op, text };
	char rule[128], id[192], subj[256], objc[256];
	struct record rec = {
		.abi = "cil",
		.subject = subj,
		.object = objc,
		.class = "audit_rule",
		.detail = text,
		.op = id,
		.depends = parses(f, text) ? "parsed" : "invalid",
	};
	struct ar_result res;

	sel_ctx_text(subject, subj, sizeof(subj));
	sel_ctx_text(obj, objc, sizeof(objc));
	snprintf(rule, sizeof(rule), "%s.%s.%s", f->name, op->name, text);
	ASSERT_EQ(0, ar_run(nl, &field, p, &res))
	{
		TH_LOG("%s: the probe failed", rule);
	}
	ASSERT_EQ(0, res.child.enter);
	ASSERT_EQ(0, res.child.act);
	snprintf(id, sizeof(id), "%s/add", rule);
	rec.expected = 0;
	rec.observed = res.add;
	JUDGE(&rec);
	snprintf(id, sizeof(id), "%s/log.invalid", rule);
	rec.expected = parses(f, text) ? -ENOENT : 0;
	rec.observed = res.warned ? 0 : -ENOENT;
	JUDGE(&rec);
	snprintf(id, sizeof(id), "%s/kept", rule);
	rec.expected = matches(f, op->op, text, obj) ? 0 : -ENOENT;
	rec.observed = res.kept ? 0 : -ENOENT;
	JUDGE(&rec);
}

/* Every form of @forms, with each operator its field takes. */
static void judge_forms(struct __test_metadata *_metadata, int nl,
			const struct ar_form *forms, size_t n,
			const struct sel_ctx *subject,
			const struct sel_ctx *obj, const struct ar_probe *p)
{
	size_t i, j, k;

	for (i = 0; i < n; i++) {
		const struct ar_form *f = &forms[i];
		const struct ar_op *ops =
			is_level(f->field) ? level_ops : name_ops;
		size_t nops = is_level(f->field) ? ARRAY_SIZE(level_ops) :
						   ARRAY_SIZE(name_ops);

		for (j = 0; j < ARRAY_SIZE(f->texts) && f->texts[j]; j++)
			for (k = 0; k < nops; k++)
				judge_rule(_metadata, nl, f, &ops[k],
					   f->texts[j], subject, obj, p);
	}
}

/* The task's own context. */
TEST_F_TIMEOUT(audit_rule, subject, 120)
{
	struct ar_arg a = { &variant->subject, self->queue };
	struct ar_probe p = {
		enter_subject, stat_queue, NULL, NULL, &a, AR_NR
	};

	judge_forms(_metadata, self->audit.nl, subj_forms,
		    ARRAY_SIZE(subj_forms), &variant->subject,
		    &variant->subject, &p);
}

/* A queue the harness made: its context is the harness's. */
TEST_F_TIMEOUT(audit_rule, object_harness, 120)
{
	struct ar_arg a = { &variant->subject, self->queue };
	struct ar_probe p = {
		enter_subject, stat_queue, NULL, NULL, &a, AR_NR
	};

	judge_forms(_metadata, self->audit.nl, obj_forms, ARRAY_SIZE(obj_forms),
		    &variant->subject, &harness, &p);
}

/* A queue the task made: its context is the task's. */
TEST_F_TIMEOUT(audit_rule, object_own, 120)
{
	struct ar_arg a = { &variant->subject, -1 };
	struct ar_probe p = { enter_subject, stat_queue, drop_own_queue,
			      NULL,	     &a,	 AR_NR };

	judge_forms(_metadata, self->audit.nl, obj_forms, ARRAY_SIZE(obj_forms),
		    &variant->subject, &variant->subject, &p);
}

/* The subject's type rules again, a policy change between rule and call. */
TEST_F_TIMEOUT(audit_rule, after_policy_change, 120)
{
	static const struct ar_form type_form = {
		AUDIT_SUBJ_TYPE,
		"subj_type",
		{ "lsmconf_ar_a_t", "lsmconf_ar_b_t", "lsmconf_nosuch_t" },
	};
	struct ar_arg a = { &variant->subject, self->queue };
	struct ar_probe p = { enter_subject, stat_queue, NULL,
			      commit_flag,   &a,	 AR_NR };
	int was = security_get_boolean_active(BOOL_NAME);

	ASSERT_LE(0, was);
	judge_forms(_metadata, self->audit.nl, &type_form, 1, &variant->subject,
		    &variant->subject, &p);
	ASSERT_EQ(0, security_set_boolean(BOOL_NAME, was));
	ASSERT_LE(0, security_commit_booleans());
}

LSM_HARNESS_MAIN
