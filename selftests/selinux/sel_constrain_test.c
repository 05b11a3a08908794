// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: SELinux constraints and what else the security server decides
 * from whole contexts (issue 40): constrain and mlsconstrain in each of
 * their forms, validatetrans and mlsvalidatetrans, a transition whose
 * result no role may hold, and typebounds (policy/lsmconf-constrain.cil).
 *
 *   access     /sys/fs/selinux/access for every pair of the contexts
 *              below, class lsmconf_cn: one permission per constraint
 *              form, all granted by the allow rules, so a permission is
 *              allowed exactly when its constraint holds
 *              (context_struct_compute_av(): a constraint whose
 *              expression is false takes its permissions away; the
 *              expression is constraint_expr_eval()'s). Decisions
 *              access/TARGET.PERM: allow or EACCES.
 *   validate   /sys/fs/selinux/validatetrans for every old and new
 *              context, as a task in a and in b, class lsmconf_vt
 *              (security_validate_transition_user(): every validatetrans
 *              of the class must hold, else EPERM). The rules: the task
 *              is lsmconf_cn_a_t, or the user and the role stay; and the
 *              old high level dominates the new low one. Decisions
 *              validate/TASK.OLD.NEW.
 *   create     /sys/fs/selinux/create, class process: a -> b is
 *              lsmconf_cn_ok_t in the source's user, role and range
 *              (security_compute_sid(): a process keeps its user and role
 *              and copies its range); b -> a is lsmconf_cn_bad_t, which
 *              lsmconf_r does not hold: an invalid context, EACCES while
 *              enforcing (compute_sid_handle_invalid_context()).
 *   relabel    setxattr(security.selinux) of a file of a tmpfs, as the
 *              harness's domain: into lsmconf_cn_vt_t only with the same
 *              user (validatetrans on class file;
 *              security_validate_transition(), else EPERM).
 *   bounded    setcon() (selinux_lsm_setattr()) from lsmconf_cn_a_t: with
 *              one thread, only process dyntransition is asked; with two,
 *              the new type must be bounded by the old
 *              (security_bounded_transition(): lsmconf_cn_child_t is,
 *              lsmconf_cn_b_t is not: EPERM).
 *
 * The model of a constraint form (cn_holds()), with s the source and t the
 * target context: u, r, t compare users, roles, types; a role dominates
 * itself only (CIL has no dominance statement: each role's dominates map
 * holds its own bit), so dom and domby are eq, incomp is ne; names compare
 * one side with a name; and, or, not as written; levels are sets of
 * categories of the one sensitivity s0: dom is a superset, incomp
 * neither.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/mount.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"

#define CATS 4
#define TXT_MAX 256

struct cn_ctx {
	const char *name;
	struct sel_ctx c;
};

static const struct cn_ctx ctxs[] = {
	{ "base", { "lsmconf_u", "lsmconf_r", "lsmconf_cn_a_t", 0, 0 } },
	{ "role", { "lsmconf_u", "lsmconf_ar_r", "lsmconf_cn_a_t", 0, 0 } },
	{ "user", { "lsmconf_mls_u", "lsmconf_r", "lsmconf_cn_b_t", 1, 1 } },
	{ "range", { "lsmconf_u", "lsmconf_r", "lsmconf_cn_b_t", 0, 3 } },
	{ "c1", { "lsmconf_u", "lsmconf_ar_r", "lsmconf_cn_b_t", 2, 2 } },
};

enum { C_BASE, C_ROLE, C_USER, C_RANGE, C_C1 };

static bool same(const char *a, const char *b)
{
	return !strcmp(a, b);
}

/* Whether constraint form @perm holds from @s to @t. */
static bool cn_holds(const char *perm, const struct cn_ctx *s,
		     const struct cn_ctx *t)
{
	bool u = same(s->c.user, t->c.user), r = same(s->c.role, t->c.role);

	if (same(perm, "u_eq"))
		return u;
	if (same(perm, "u_ne"))
		return !u;
	if (same(perm, "r_eq") || same(perm, "r_dom") || same(perm, "r_domby"))
		return r;
	if (same(perm, "r_ne") || same(perm, "r_incomp"))
		return !r;
	if (same(perm, "t_eq"))
		return same(s->c.type, t->c.type);
	if (same(perm, "t_ne") || same(perm, "not_t"))
		return !same(s->c.type, t->c.type);
	if (same(perm, "u1_name"))
		return same(s->c.user, "lsmconf_mls_u");
	if (same(perm, "u2_name"))
		return same(t->c.user, "lsmconf_mls_u");
	if (same(perm, "r1_name"))
		return same(s->c.role, "lsmconf_ar_r");
	if (same(perm, "r2_name"))
		return same(t->c.role, "lsmconf_ar_r");
	if (same(perm, "t1_name"))
		return same(s->c.type, "lsmconf_cn_a_t");
	if (same(perm, "t2_name"))
		return !same(t->c.type, "lsmconf_cn_a_t");
	if (same(perm, "and_u_r"))
		return u && r;
	if (same(perm, "or_u_r"))
		return u || r;
	if (same(perm, "l1l2_eq"))
		return s->c.low == t->c.low;
	if (same(perm, "l1l2_ne"))
		return s->c.low != t->c.low;
	if (same(perm, "l1l2_dom"))
		return sel_dom(s->c.low, t->c.low);
	if (same(perm, "l1l2_domby"))
		return sel_dom(t->c.low, s->c.low);
	if (same(perm, "l1l2_incomp"))
		return !sel_dom(s->c.low, t->c.low) &&
		       !sel_dom(t->c.low, s->c.low);
	if (same(perm, "l1h2_dom"))
		return sel_dom(s->c.low, t->c.high);
	if (same(perm, "h1l2_dom"))
		return sel_dom(s->c.high, t->c.low);
	if (same(perm, "h1h2_eq"))
		return s->c.high == t->c.high;
	if (same(perm, "l1h1_eq"))
		return s->c.low == s->c.high;
	return t->c.low == t->c.high; /* l2h2_eq */
}

/* validatetrans and mlsvalidatetrans of lsmconf_vt (policy). */
static bool vt_holds(const struct cn_ctx *old, const struct cn_ctx *new,
		     const struct cn_ctx *task)
{
	bool keep = same(old->c.user, new->c.user) &&
		    same(old->c.role, new->c.role);

	return (same(task->c.type, "lsmconf_cn_a_t") || keep) &&
	       sel_dom(old->c.high, new->c.low);
}

/* The policy's number of @class (class/NAME/index) into @out. */
static int class_index(const char *class, char *out, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), SEL_FS "/class/%s/index", class);
	return sel_read_attr(path, out, size);
}

/* The bit of @perm in lsmconf_cn's vector, or 0. */
static unsigned int perm_bit(const char *perm)
{
	char path[PATH_MAX], text[16];
	int v;

	snprintf(path, sizeof(path), SEL_FS "/class/lsmconf_cn/perms/%s", perm);
	if (sel_read_attr(path, text, sizeof(text)) ||
	    sscanf(text, "%d", &v) != 1 || v < 1 || v > 32)
		return 0;
	return 1u << (v - 1);
}

static const char *const cn_perms[] = {
	"u_eq",	    "u_ne",	  "r_eq",	 "r_ne",     "r_dom",
	"r_domby",  "r_incomp",	  "t_eq",	 "t_ne",     "u1_name",
	"u2_name",  "r1_name",	  "r2_name",	 "t1_name",  "t2_name",
	"not_t",    "and_u_r",	  "or_u_r",	 "l1l2_eq",  "l1l2_ne",
	"l1l2_dom", "l1l2_domby", "l1l2_incomp", "l1h2_dom", "h1l2_dom",
	"h1h2_eq",  "l1h1_eq",	  "l2h2_eq",
};

FIXTURE(constrain) {};

FIXTURE_VARIANT(constrain)
{
	int src; /* the source context, by index of ctxs[] */
};

FIXTURE_VARIANT_ADD(constrain, base) { C_BASE };
FIXTURE_VARIANT_ADD(constrain, role) { C_ROLE };
FIXTURE_VARIANT_ADD(constrain, user) { C_USER };
FIXTURE_VARIANT_ADD(constrain, range) { C_RANGE };
FIXTURE_VARIANT_ADD(constrain, c1) { C_C1 };

FIXTURE_SETUP(constrain)
{
	SEL_SETUP(CATS);
}

FIXTURE_TEARDOWN(constrain)
{
}

/* Every constraint form from the variant's context to each context. */
TEST_F(constrain, access)
{
	const struct cn_ctx *s = &ctxs[variant->src];
	char index[16], sctx[TXT_MAX], tctx[TXT_MAX], query[TXT_MAX * 3];
	char answer[TXT_MAX], op[64];
	size_t i, j;

	ASSERT_EQ(0, class_index("lsmconf_cn", index, sizeof(index)));
	sel_ctx_text(&s->c, sctx, sizeof(sctx));
	for (i = 0; i < ARRAY_SIZE(ctxs); i++) {
		const struct cn_ctx *t = &ctxs[i];
		unsigned int allowed, decided;
		int n;

		sel_ctx_text(&t->c, tctx, sizeof(tctx));
		snprintf(query, sizeof(query), "%s %s %s", sctx, tctx, index);
		ASSERT_EQ(0, sel_transact(SEL_FS "/access", query, answer,
					  sizeof(answer)));
		n = sscanf(answer, "%x %x", &allowed, &decided);
		ASSERT_EQ(2, n);
		for (j = 0; j < ARRAY_SIZE(cn_perms); j++) {
			unsigned int bit = perm_bit(cn_perms[j]);
			struct record rec = {
				.abi = "cil",
				.subject = sctx,
				.object = tctx,
				.class = "lsmconf_cn",
				.detail = cn_perms[j],
				.op = op,
				.depends = "-",
			};

			ASSERT_NE(0, bit);
			snprintf(op, sizeof(op), "%s.%s", t->name, cn_perms[j]);
			rec.expected =
				cn_holds(cn_perms[j], s, t) ? 0 : -EACCES;
			rec.observed = allowed & bit ? 0 : -EACCES;
			JUDGE(&rec);
		}
	}
}

/* Every old and new context, the variant's as the task's. */
TEST_F(constrain, validate)
{
	const struct cn_ctx *task = &ctxs[variant->src];
	char index[16], oc[TXT_MAX], nc[TXT_MAX], tc[TXT_MAX];
	char query[TXT_MAX * 4], op[64];
	size_t i, j;

	ASSERT_EQ(0, class_index("lsmconf_vt", index, sizeof(index)));
	sel_ctx_text(&task->c, tc, sizeof(tc));
	for (i = 0; i < ARRAY_SIZE(ctxs); i++) {
		for (j = 0; j < ARRAY_SIZE(ctxs); j++) {
			struct record rec = {
				.abi = "cil",
				.subject = tc,
				.object = nc,
				.class = "lsmconf_vt",
				.detail = oc,
				.op = op,
				.depends = "-",
			};

			sel_ctx_text(&ctxs[i].c, oc, sizeof(oc));
			sel_ctx_text(&ctxs[j].c, nc, sizeof(nc));
			/* sel_write_validatetrans(): "OLD NEW TCLASS TASK" */
			snprintf(query, sizeof(query), "%s %s %s %s", oc, nc,
				 index, tc);
			snprintf(op, sizeof(op), "%s.%s", ctxs[i].name,
				 ctxs[j].name);
			rec.expected =
				vt_holds(&ctxs[i], &ctxs[j], task) ? 0 : -EPERM;
			/* A file to write only: the write is the answer. */
			rec.observed =
				write_text(SEL_FS "/validatetrans", query);
			JUDGE(&rec);
		}
	}
}

FIXTURE(create) {};

FIXTURE_SETUP(create)
{
	SEL_SETUP(CATS);
}

FIXTURE_TEARDOWN(create)
{
}

/* One create query: the decision, and the context when allowed. */
static void create_judge(struct __test_metadata *_metadata, const char *op,
			 const struct cn_ctx *s, const struct cn_ctx *t,
			 const char *want)
{
	char sc[TXT_MAX], tc[TXT_MAX], query[TXT_MAX * 3], answer[TXT_MAX];
	char index[16], id[64];
	struct record rec = {
		.abi = "cil",
		.subject = sc,
		.object = tc,
		.class = "process",
		.detail = want ? want : "invalid",
		.op = id,
		.depends = "-",
	};

	ASSERT_EQ(0, class_index("process", index, sizeof(index)));
	sel_ctx_text(&s->c, sc, sizeof(sc));
	sel_ctx_text(&t->c, tc, sizeof(tc));
	snprintf(query, sizeof(query), "%s %s %s", sc, tc, index);
	snprintf(id, sizeof(id), "%s", op);
	rec.expected = want ? 0 : -EACCES;
	rec.observed =
		sel_transact(SEL_FS "/create", query, answer, sizeof(answer));
	JUDGE(&rec);
	if (!want || rec.observed)
		return;
	snprintf(id, sizeof(id), "%s.context", op);
	rec.expected = 0;
	rec.observed = strcmp(answer, want) ? -EPROTO : 0;
	if (rec.observed)
		TH_LOG("%s: \"%s\", the model \"%s\"", op, answer, want);
	JUDGE(&rec);
}

TEST_F(create, process)
{
	ASSERT_EQ(1, sel_enforcing());
	create_judge(_metadata, "valid", &ctxs[C_BASE], &ctxs[C_USER],
		     "lsmconf_u:lsmconf_r:lsmconf_cn_ok_t:s0");
	create_judge(_metadata, "invalid", &ctxs[C_USER], &ctxs[C_BASE], NULL);
}

FIXTURE(relabel) {};

FIXTURE_VARIANT(relabel)
{
	const char *to;
	int expect; /* validatetrans file: t2 is not vt_t, or u1 == u2 */
};

/* clang-format off */
FIXTURE_VARIANT_ADD(relabel, same_user) {
	"lsmconf_u:object_r:lsmconf_cn_vt_t:s0", 0 };
FIXTURE_VARIANT_ADD(relabel, other_user) {
	"lsmconf_mls_u:object_r:lsmconf_cn_vt_t:s0", -EPERM };
FIXTURE_VARIANT_ADD(relabel, other_user_other_type) {
	"lsmconf_mls_u:object_r:lsmconf_cn_a_t:s0", 0 };
/* clang-format on */

#define RELABEL_DIR "/tmp/lsmconf_selcn"

FIXTURE_SETUP(relabel)
{
	SEL_SETUP(CATS);
	if (mkdir(RELABEL_DIR, 0700) && errno != EEXIST)
		ASSERT_EQ(0, -errno);
}

FIXTURE_TEARDOWN(relabel)
{
	rmdir(RELABEL_DIR);
}

struct rl_report {
	int setup, result;
};

/* A tmpfs of its own (fs_use_trans: labels may be set), a file, a relabel. */
static void relabel_child(void *arg, void *reply)
{
	const FIXTURE_VARIANT(relabel) *v = arg;
	struct rl_report *r = reply;
	int fd;

	r->result = NOT_RUN;
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount("tmpfs", RELABEL_DIR, "tmpfs", 0, NULL)) {
		r->setup = -errno;
		return;
	}
	fd = open(RELABEL_DIR "/f", O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		r->setup = -errno;
		return;
	}
	close(fd);
	r->result = setfilecon_raw(RELABEL_DIR "/f", v->to) ? -errno : 0;
}

TEST_F(relabel, setxattr)
{
	struct rl_report r;
	struct record rec = {
		.abi = "cil",
		.subject = "kernel_t",
		.object = variant->to,
		.class = "file",
		.detail = "lsmconf_u:object_r:fs_t:s0",
		.op = "relabel",
		.depends = "-",
	};

	ASSERT_EQ(0, child_run(relabel_child, (void *)variant, &r, sizeof(r)));
	ASSERT_EQ(0, r.setup);
	rec.expected = variant->expect;
	rec.observed = r.result;
	JUDGE(&rec);
}

FIXTURE(bounded) {};

FIXTURE_VARIANT(bounded)
{
	bool threaded; /* a second thread lives while setcon() runs */
	const char *to;
	int expect;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(bounded, single_unbounded) {
	false, "lsmconf_cn_b_t", 0 };
FIXTURE_VARIANT_ADD(bounded, threaded_bounded) {
	true, "lsmconf_cn_child_t", 0 };
FIXTURE_VARIANT_ADD(bounded, threaded_unbounded) {
	true, "lsmconf_cn_b_t", -EPERM };
/* clang-format on */

FIXTURE_SETUP(bounded)
{
	SEL_SETUP(CATS);
}

FIXTURE_TEARDOWN(bounded)
{
}

/* The second thread: waits until its pipe closes. */
static void *idle_thread(void *arg)
{
	char c;

	pipe_read(*(int *)arg, &c, 1, PEER_WAIT_MS);
	return NULL;
}

struct bd_report {
	int enter, thread, result;
};

static void bounded_child(void *arg, void *reply)
{
	const FIXTURE_VARIANT(bounded) *v = arg;
	struct bd_report *r = reply;
	int hold[2] = { -1, -1 };
	pthread_t th;

	r->result = NOT_RUN;
	r->enter = sel_enter("lsmconf_cn_a_t", "s0");
	if (r->enter)
		return;
	if (v->threaded) {
		if (pipe2(hold, O_CLOEXEC)) {
			r->thread = -errno;
			return;
		}
		r->thread = -pthread_create(&th, NULL, idle_thread, &hold[0]);
		if (r->thread)
			return;
	}
	r->result = sel_enter(v->to, "s0");
	if (v->threaded) {
		close(hold[1]);
		pthread_join(th, NULL);
	}
}

TEST_F(bounded, setcon)
{
	struct bd_report r;
	struct record rec = {
		.abi = "cil",
		.subject = "lsmconf_cn_a_t",
		.object = variant->to,
		.class = "process",
		.detail = variant->threaded ? "threaded" : "single",
		.op = "setcon",
		.depends = "-",
	};

	ASSERT_EQ(0, child_run(bounded_child, (void *)variant, &r, sizeof(r)));
	ASSERT_EQ(0, r.enter);
	ASSERT_EQ(0, r.thread);
	rec.expected = variant->expect;
	rec.observed = r.result;
	JUDGE(&rec);
}

LSM_HARNESS_MAIN
