// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor audit filter rules (issue 40): auditctl's
 * -F subj_role=LABEL, the one field AppArmor reads, against tasks in the
 * labels of a variant: unconfined, AA_TEST_PREFIX "ar_a", "ar_b" and
 * their stack (profiles/audit_rule.profile).
 *
 * Each rule is one probe (../lsmconf/audit_rule.h): an exit rule on
 * getpgid() made by the probe's child alone, with the rule's field; three
 * decisions a rule:
 *   RULE/add          the rule's AUDIT_ADD_RULE: 0 or -errno
 *   RULE/log.invalid  allow when the kernel logged the field's text as
 *                     invalid, ENOENT when not
 *   RULE/kept         allow when the call's record was kept, ENOENT when
 *                     the rule let it go or there is no rule
 *
 * The model (security/apparmor/audit.c, label.c; kernel/auditfilter.c;
 * 6.1 to 7.2 alike):
 *   field   aa_audit_rule_init() takes subj_role only, with eq or ne;
 *           any other LSM field is -EINVAL, which audit_data_to_entry()
 *           keeps as a rule with no LSM rule behind it: logged as invalid,
 *           it never matches.
 *   parse   the text is a label (aa_label_parse() from the root
 *           namespace): a component that names no loaded profile (nor
 *           "unconfined") is -ENOENT, and the rule is refused with it.
 *           A stack's order does not matter (a label's profiles are
 *           sorted).
 *   match   aa_audit_rule_match(): aa_label_is_subset(task, rule), every
 *           profile of the rule's label is in the task's; eq keeps the
 *           record then, ne when not.
 *   replace profiles are compared by name (profile_cmp()): a rule made
 *           before its profile is replaced decides as before.
 *
 * Decision ids: audit_rule_test/audit_rule.SUBJECT.TEST/RULE/WHAT, RULE as
 * FIELD.OP.TEXT (a stack's "//&" written "+").
 */
#define _GNU_SOURCE

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/audit_rule.h"

#define ABI "5.0"
#define PROF_A AA_TEST_PREFIX "ar_a"
#define PROF_B AA_TEST_PREFIX "ar_b"
/* The audited call: nothing the child does on its way calls it. */
#define AR_NR SYS_getpgid

/* A label as a set of the profiles above (and unconfined). */
enum { L_A = 1, L_B = 2, L_UNCONFINED = 4 };

/* A rule's text, its name in the record, and what the model reads in it. */
struct ar_text {
	const char *text, *name;
	int label; /* the profiles it names */
	bool unknown; /* names a profile that is not loaded */
};

static const struct ar_text texts[] = {
	{ PROF_A, "a", L_A },
	{ PROF_B, "b", L_B },
	{ PROF_A "//&" PROF_B, "a+b", L_A | L_B },
	{ PROF_B "//&" PROF_A, "b+a", L_A | L_B },
	{ "unconfined", "unconfined", L_UNCONFINED },
	{ AA_TEST_PREFIX "ar_nosuch", "nosuch", 0, true },
};

struct ar_form {
	__u32 field, op;
	const char *name;
};

static const struct ar_form forms[] = {
	{ AUDIT_SUBJ_ROLE, AUDIT_EQUAL, "subj_role.eq" },
	{ AUDIT_SUBJ_ROLE, AUDIT_NOT_EQUAL, "subj_role.ne" },
	{ AUDIT_SUBJ_TYPE, AUDIT_EQUAL, "subj_type.eq" },
	{ AUDIT_OBJ_USER, AUDIT_EQUAL, "obj_user.eq" },
};

/* aa_audit_rule_init() of @f and @t: 0, -EINVAL or -ENOENT. */
static int init_of(const struct ar_form *f, const struct ar_text *t)
{
	if (f->field != AUDIT_SUBJ_ROLE)
		return -EINVAL;
	return t->unknown ? -ENOENT : 0;
}

/* The record kept: a rule in force that matches the task's @label. */
static bool kept(const struct ar_form *f, const struct ar_text *t, int label)
{
	bool subset = (t->label & label) == t->label;

	if (init_of(f, t))
		return false;
	return f->op == AUDIT_EQUAL ? subset : !subset;
}

FIXTURE(audit_rule)
{
	struct ar_session audit;
	struct aa_policy a; /* replaced by after_replace */
};

FIXTURE_VARIANT(audit_rule)
{
	int n; /* profiles entered: 0 stays unconfined */
	const char *tags[2];
	int label; /* the task's label, for the model */
};

/* clang-format off */
FIXTURE_VARIANT_ADD(audit_rule, unconfined) {
	.n = 0, .label = L_UNCONFINED };
FIXTURE_VARIANT_ADD(audit_rule, a) {
	.n = 1, .tags = { "ar_a" }, .label = L_A };
FIXTURE_VARIANT_ADD(audit_rule, b) {
	.n = 1, .tags = { "ar_b" }, .label = L_B };
FIXTURE_VARIANT_ADD(audit_rule, a_b) {
	.n = 2, .tags = { "ar_a", "ar_b" }, .label = L_A | L_B };
/* clang-format on */

/* A probe's argument: the variant's label, the profile to replace. */
struct ar_arg {
	const FIXTURE_VARIANT(audit_rule) * v;
	struct aa_policy *replace;
};

static int enter_label(const void *arg)
{
	const struct ar_arg *a = arg;

	return aa_enter_tags(a->v->tags, a->v->n, NULL, 0);
}

static int act(const void *arg)
{
	return syscall(AR_NR, 0) < 0 ? -errno : 0;
}

static int replace(const void *arg)
{
	const struct ar_arg *a = arg;

	return aa_policy_load(a->replace);
}

FIXTURE_SETUP(audit_rule)
{
	struct aa_policy b;
	const char *why;
	int ret;

	self->audit.nl = -1;
	self->audit.was_enabled = -1;
	self->audit.ratelimit[0] = '\0';
	REQUIRE_APPARMOR(_metadata, true);
	ret = aa_policy_share(_metadata, &self->a, "audit_rule", ABI, NULL,
			      "ar_a", NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ret = aa_policy_share(_metadata, &b, "audit_rule", ABI, NULL, "ar_b",
			      NULL);
	ASSERT_EQ(0, ret);
	why = ar_begin(&self->audit, &ret);
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(audit_rule)
{
	EXPECT_EQ(0, ar_end(&self->audit));
}

/* Every form with every text, probed by @p. */
static void judge_all(struct __test_metadata *_metadata, int nl,
		      const FIXTURE_VARIANT(audit_rule) * v,
		      const struct ar_probe *p)
{
	char subject[160], id[160];
	size_t i, j;

	snprintf(subject, sizeof(subject), "%s%s%s",
		 v->n ? AA_TEST_PREFIX : "unconfined", v->n ? v->tags[0] : "",
		 v->n > 1 ? "//&" AA_TEST_PREFIX "ar_b" : "");
	for (i = 0; i < ARRAY_SIZE(forms); i++) {
		for (j = 0; j < ARRAY_SIZE(texts); j++) {
			const struct ar_form *f = &forms[i];
			const struct ar_text *t = &texts[j];
			struct ar_field field = { f->field, f->op, t->text };
			struct record rec = {
				.abi = ABI,
				.subject = subject,
				.object = "-",
				.class = "audit_rule",
				.detail = t->text,
				.op = id,
				.depends = "-",
			};
			struct ar_result res;
			char rule[64];

			snprintf(rule, sizeof(rule), "%s.%s", f->name, t->name);
			ASSERT_EQ(0, ar_run(nl, &field, p, &res))
			{
				TH_LOG("%s: the probe failed", rule);
			}
			ASSERT_EQ(0, res.child.enter);
			ASSERT_EQ(0, res.child.act);
			snprintf(id, sizeof(id), "%s/add", rule);
			rec.expected = init_of(f, t) == -ENOENT ? -ENOENT : 0;
			rec.observed = res.add;
			JUDGE(&rec);
			snprintf(id, sizeof(id), "%s/log.invalid", rule);
			rec.expected = init_of(f, t) == -EINVAL ? 0 : -ENOENT;
			rec.observed = res.warned ? 0 : -ENOENT;
			JUDGE(&rec);
			snprintf(id, sizeof(id), "%s/kept", rule);
			rec.expected = kept(f, t, v->label) ? 0 : -ENOENT;
			rec.observed = res.kept ? 0 : -ENOENT;
			JUDGE(&rec);
		}
	}
}

TEST_F_TIMEOUT(audit_rule, subject, 120)
{
	struct ar_arg a = { variant, NULL };
	struct ar_probe p = { enter_label, act, NULL, NULL, &a, AR_NR };

	judge_all(_metadata, self->audit.nl, variant, &p);
}

/* The same rules, profile ar_a replaced between rule and call. */
TEST_F_TIMEOUT(audit_rule, after_replace, 120)
{
	struct ar_arg a = { variant, &self->a };
	struct ar_probe p = { enter_label, act, NULL, replace, &a, AR_NR };

	judge_all(_metadata, self->audit.nl, variant, &p);
}

AA_HARNESS_MAIN
