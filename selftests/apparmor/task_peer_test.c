// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor signal and ptrace rules with peer= against stacked
 * targets (issue #23).
 *
 * Each case is a subject label (unconfined, S, or the stack S//&A) acting
 * on a target label (unconfined, T, the stacks T//&U and U//&T entered in
 * either order, T//&V and T//&W where only one component's rules allow,
 * X and the stacks T//&X and X//&T where S may read X but not trace it).
 * The subject process forks the target first (so it is the target's
 * parent: Yama's relational scope allows its attach), the target enters
 * its label and ignores SIGUSR1/SIGUSR2, then the subject enters its own
 * and makes four decisions:
 *
 *   kill_usr1   kill(target, SIGUSR1)               signal, send/receive
 *   kill_usr2   kill(target, SIGUSR2)               signal, send/receive
 *               (its own KTAP case, other_signal: a signal S's rules
 *               do not name; the rest are the case "decisions")
 *   exe_readlink readlink("/proc/TARGET/exe")       ptrace read/readby
 *   seize       ptrace(PTRACE_SEIZE, target)        ptrace trace/tracedby
 *   traceme     a second child in the target's label ptrace trace/tracedby
 *               calls ptrace(PTRACE_TRACEME): its parent, the subject,
 *               is the tracer
 *
 * The profiles (tp_rules[] below, in profiles/task_peer.profile):
 *   S  signal (send) set=(usr1) peer=T|U|V|X;  ptrace (read, trace)
 *      peer=T|U|V;  ptrace (read) peer=X
 *   A  signal, ptrace,  (everything, with any peer)
 *   T, U, W, X  signal (receive) peer=S;  ptrace (readby, tracedby) peer=S
 *   V  signal (receive) and ptrace (readby, tracedby) for peer=tp_nobody
 *      only: it mediates both classes and allows S nothing
 * The model's tables (may_send, may_recv, may_trace, may_traced) are these
 * rules written out; every other cell is a denial.
 *
 * The model (every rule names the kernel function that implements it):
 *
 *   signal    apparmor_task_kill -> aa_may_signal (ipc.c): xcheck_labels
 *             (perms.h): EVERY profile of the sender's label must allow
 *             send of the signal to the target's label, and EVERY profile
 *             of the target's label must allow receive of it from the
 *             sender's label; either refusal is the call's -EACCES
 *             (aa_check_perms, enforce mode). profile_signal_perm: an
 *             unconfined profile allows anything (it contributes nothing),
 *             but an unconfined PEER is matched by its name "unconfined"
 *             (aa_label_match over every profile of the peer label), so a
 *             confined side must name it. The signal is mediated by number
 *             (map_signal_num: SIGUSR1 and SIGUSR2 are distinct, the
 *             rule's set=(usr1) does not cover usr2); kill() runs the
 *             check before an ignored signal is discarded
 *             (check_kill_permission before do_send_sig_info).
 *   ptrace    apparmor_ptrace_access_check -> aa_may_ptrace (task.c):
 *             PTRACE_MODE_READ asks AA_PTRACE_READ, ATTACH asks
 *             AA_PTRACE_TRACE; the tracee's side asks the same shifted
 *             (readby, tracedby). xcheck_labels again: every tracer
 *             profile (profile_tracer_perm: unconfined allows; a profile
 *             mediating ptrace must allow the request to every profile of
 *             the tracee label, aa_profile_match_label: when no rule
 *             names the whole label, label_components_match() intersects
 *             the perms each component's rules grant in the label's
 *             order, by name whatever the order entered (T before X: X
 *             is named to come last), so S may read T//&X but not trace
 *             it) and every tracee
 *             profile (profile_tracee_perm: allows when the tracee
 *             profile is unconfined, does not mediate ptrace, or when the
 *             TRACER's label is unconfined - an unconfined tracer is never
 *             checked by the tracee's rules, unlike a signal sender).
 *             readlink(/proc/PID/exe) is proc_pid_readlink ->
 *             call_proc_get_link -> ptrace_may_access(
 *             PTRACE_MODE_READ_FSCREDS): a refusal is -EACCES (not
 *             /proc/PID/environ: mm_access lets a perfmon_capable() root
 *             read past a refusal on 7.2, may_access_mm);
 *             PTRACE_SEIZE is ptrace_attach -> __ptrace_may_access(
 *             PTRACE_MODE_ATTACH_REALCREDS), the hook's -EACCES.
 *             PTRACE_TRACEME is apparmor_ptrace_traceme: aa_may_ptrace
 *             with the parent's label as the tracer and the caller's as
 *             the tracee, AA_PTRACE_TRACE: the seize's rule, asked from
 *             the other end.
 *   Yama      yama_ptrace_access_check runs before AppArmor for ATTACH
 *             only: scope 0 allows, 1 allows a descendant (the target is
 *             the subject's child), 2 needs CAP_SYS_PTRACE (root; every
 *             subject profile has "capability,"), 3 refuses every attach:
 *             the seize is then not run (logged). yama_ptrace_traceme
 *             alike: scope 2 asks the parent's CAP_SYS_PTRACE, 3 refuses,
 *             so traceme runs where the seize does. The scope is in the
 *             depends of both.
 *   features  features/signal and features/ptrace: a kernel without one
 *             mediates nothing of it; its ops are not run (logged) and
 *             the depends say which.
 */

#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <sys/ptrace.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "harness_main.h"

#define ABI "5.0"

/* The profiles, named AA_TEST_PREFIX "tp_" and a letter. */
enum prof { P_S, P_A, P_T, P_U, P_V, P_W, P_X, NPROF, P_UNCONF = NPROF };

static const char *const tp_tags[NPROF] = { "tp_s", "tp_a", "tp_t", "tp_u",
					    "tp_v", "tp_w", "tp_x" };

#define N(x) AA_TEST_PREFIX "tp_" x
/* clang-format off */
static const char *const tp_rules[NPROF] = {
	[P_S] = "signal (send) set=(usr1) peer=" N("t") ",\n"
		"  signal (send) set=(usr1) peer=" N("u") ",\n"
		"  signal (send) set=(usr1) peer=" N("v") ",\n"
		"  signal (send) set=(usr1) peer=" N("x") ",\n"
		"  ptrace (read, trace) peer=" N("t") ",\n"
		"  ptrace (read, trace) peer=" N("u") ",\n"
		"  ptrace (read, trace) peer=" N("v") ",\n"
		"  ptrace (read) peer=" N("x") ",\n",
	[P_A] = "signal,\n  ptrace,\n",
	[P_T] = "signal (receive) peer=" N("s") ",\n"
		"  ptrace (readby, tracedby) peer=" N("s") ",\n",
	[P_U] = "signal (receive) peer=" N("s") ",\n"
		"  ptrace (readby, tracedby) peer=" N("s") ",\n",
	[P_V] = "signal (receive) peer=" N("nobody") ",\n"
		"  ptrace (readby, tracedby) peer=" N("nobody") ",\n",
	[P_W] = "signal (receive) peer=" N("s") ",\n"
		"  ptrace (readby, tracedby) peer=" N("s") ",\n",
	[P_X] = "signal (receive) peer=" N("s") ",\n"
		"  ptrace (readby, tracedby) peer=" N("s") ",\n",
};
/* clang-format on */

/*
 * The rules above as tables, [profile][peer profile] (P_UNCONF: the peer
 * is unconfined). A profile's rules only: whether a side is checked at
 * all is the model's (unconfined profiles, unconfined tracers).
 */
enum sigk { SIG_U1, SIG_U2 };

static bool may_send(int p, int q, enum sigk s)
{
	if (p == P_A)
		return true; /* signal, */
	if (p == P_S) /* send set=(usr1) to T, U, V, X */
		return s == SIG_U1 &&
		       (q == P_T || q == P_U || q == P_V || q == P_X);
	return false; /* T U V W have receive rules only */
}

static bool may_recv(int q, int p)
{
	if (q == P_A)
		return true;
	if (q == P_T || q == P_U || q == P_W || q == P_X)
		return p == P_S; /* receive peer=S, any signal */
	return false; /* S has send rules only; V names tp_nobody */
}

/* ptrace read (@trace false) or trace of a @q by a @p. */
static bool may_trace(int p, int q, bool trace)
{
	if (p == P_A)
		return true;
	if (p == P_S)
		return q == P_T || q == P_U || q == P_V || (q == P_X && !trace);
	return false;
}

static bool may_traced(int q, int p) /* readby and tracedby alike */
{
	if (q == P_A)
		return true;
	if (q == P_T || q == P_U || q == P_W || q == P_X)
		return p == P_S;
	return false;
}

/* A label: entered by changing to p[0], then stacking p[1]. */
struct tp_label {
	const char *id;
	int n;
	int p[2];
};

FIXTURE(task_peer)
{
	int sig; /* features/signal */
	int ptr; /* features/ptrace */
	int yama; /* kernel.yama.ptrace_scope, -1 without Yama */
};

/* The labels of the cases: subjects and targets. */
enum lab {
	L_UNC,
	L_S,
	L_SA,
	L_T,
	L_TU,
	L_UT,
	L_TV,
	L_TW,
	L_X,
	L_TX,
	L_XT,
	NLAB
};

static const struct tp_label labels[NLAB] = {
	[L_UNC] = { "unconfined", 0, { 0, 0 } },
	[L_S] = { "S", 1, { P_S, 0 } },
	[L_SA] = { "S//&A", 2, { P_S, P_A } },
	[L_T] = { "T", 1, { P_T, 0 } },
	[L_TU] = { "T//&U", 2, { P_T, P_U } },
	[L_UT] = { "U//&T", 2, { P_U, P_T } },
	[L_TV] = { "T//&V", 2, { P_T, P_V } },
	[L_TW] = { "T//&W", 2, { P_T, P_W } },
	[L_X] = { "X", 1, { P_X, 0 } },
	[L_TX] = { "T//&X", 2, { P_T, P_X } },
	[L_XT] = { "X//&T", 2, { P_X, P_T } },
};

FIXTURE_VARIANT(task_peer)
{
	enum lab subj, targ;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(task_peer, unconfined_to_unconfined) {
	.subj = L_UNC,
	.targ = L_UNC,
};

FIXTURE_VARIANT_ADD(task_peer, unconfined_to_t) {
	.subj = L_UNC,
	.targ = L_T,
};

FIXTURE_VARIANT_ADD(task_peer, unconfined_to_t_u) {
	.subj = L_UNC,
	.targ = L_TU,
};

FIXTURE_VARIANT_ADD(task_peer, unconfined_to_u_t) {
	.subj = L_UNC,
	.targ = L_UT,
};

FIXTURE_VARIANT_ADD(task_peer, unconfined_to_t_v) {
	.subj = L_UNC,
	.targ = L_TV,
};

FIXTURE_VARIANT_ADD(task_peer, unconfined_to_t_w) {
	.subj = L_UNC,
	.targ = L_TW,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_unconfined) {
	.subj = L_S,
	.targ = L_UNC,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_t) {
	.subj = L_S,
	.targ = L_T,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_t_u) {
	.subj = L_S,
	.targ = L_TU,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_u_t) {
	.subj = L_S,
	.targ = L_UT,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_t_v) {
	.subj = L_S,
	.targ = L_TV,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_t_w) {
	.subj = L_S,
	.targ = L_TW,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_x) {
	.subj = L_S,
	.targ = L_X,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_t_x) {
	.subj = L_S,
	.targ = L_TX,
};

FIXTURE_VARIANT_ADD(task_peer, s_to_x_t) {
	.subj = L_S,
	.targ = L_XT,
};

FIXTURE_VARIANT_ADD(task_peer, s_stack_a_to_unconfined) {
	.subj = L_SA,
	.targ = L_UNC,
};

FIXTURE_VARIANT_ADD(task_peer, s_stack_a_to_t) {
	.subj = L_SA,
	.targ = L_T,
};

FIXTURE_VARIANT_ADD(task_peer, s_stack_a_to_t_u) {
	.subj = L_SA,
	.targ = L_TU,
};

FIXTURE_VARIANT_ADD(task_peer, s_stack_a_to_u_t) {
	.subj = L_SA,
	.targ = L_UT,
};

FIXTURE_VARIANT_ADD(task_peer, s_stack_a_to_t_v) {
	.subj = L_SA,
	.targ = L_TV,
};

FIXTURE_VARIANT_ADD(task_peer, s_stack_a_to_t_w) {
	.subj = L_SA,
	.targ = L_TW,
};

FIXTURE_VARIANT_ADD(task_peer, s_stack_a_to_t_x) {
	.subj = L_SA,
	.targ = L_TX,
};
/* clang-format on */

static int yama_scope(void)
{
	char buf[16];

	if (read_text("/proc/sys/kernel/yama/ptrace_scope", buf, sizeof(buf)) <
	    0)
		return -1;
	return atoi(buf);
}

FIXTURE_SETUP(task_peer)
{
	struct aa_policy_src src[NPROF];
	struct aa_policy p;
	int i, ret;

	REQUIRE_APPARMOR(_metadata, true);
	for (i = 0; i < NPROF; i++)
		src[i] = (struct aa_policy_src){ "task_peer", tp_rules[i],
						 tp_tags[i] };
	/* One parser run for all seven; a failure compiles each below. */
	if (!pinned_features())
		aa_policy_build_all(ABI, src, NPROF);
	for (i = 0; i < NPROF; i++) {
		ret = aa_policy_share(_metadata, &p, "task_peer", ABI,
				      tp_rules[i], tp_tags[i], NULL);
		AA_REQUIRE_BUILT(_metadata, ret);
		ASSERT_EQ(0, ret);
	}
	self->sig = aa_policy_feature("signal");
	self->ptr = aa_policy_feature("ptrace");
	self->yama = yama_scope();
}

FIXTURE_TEARDOWN(task_peer)
{
}

/*
 * Enters @l and proves it: every profile entered is in the context read
 * back (aa_getcon), an unconfined label reads "unconfined". 0 or -errno.
 */
static int tp_enter(const struct tp_label *l, char *ctx, size_t size)
{
	const char *tags[2] = { tp_tags[l->p[0]], tp_tags[l->p[1]] };

	return aa_enter_tags(tags, l->n, ctx, size);
}

enum tp_op { OP_USR1, OP_USR2, OP_EXE, OP_SEIZE, OP_TRACEME, NOPS };

static const char *const op_names[NOPS] = { "kill_usr1", "kill_usr2",
					    "exe_readlink", "seize",
					    "traceme" };

struct tp_report {
	int subj_err, targ_err;
	char subj_ctx[256], targ_ctx[256];
	int res[NOPS]; /* 0, -errno or NOT_RUN */
};

/* The target: enters @l, reports, stays until its parent closes @go. */
static void target_run(const struct tp_label *l, int rdy, int go)
{
	struct tp_report r = { 0 };
	char c;

	signal(SIGUSR1, SIG_IGN);
	signal(SIGUSR2, SIG_IGN);
	r.targ_err = tp_enter(l, r.targ_ctx, sizeof(r.targ_ctx));
	if (write_all(rdy, (const char *)&r, sizeof(r)))
		_exit(3);
	/* EOF when the subject closes its end or ends. */
	if (!wait_readable(go))
		(void)!read(go, &c, 1);
	_exit(0);
}

/*
 * The traceme child: enters @l, reports on @rdy; then, on a byte on @go
 * (its parent, the subject, has entered its own label), asks to be
 * traced and reports that too. EOF on @go: nothing to do.
 */
static void traceme_run(const struct tp_label *l, int rdy, int go)
{
	struct tp_report r = { 0 };
	char c;

	r.targ_err = tp_enter(l, r.targ_ctx, sizeof(r.targ_ctx));
	if (write_all(rdy, (const char *)&r, sizeof(r)))
		_exit(3);
	if (r.targ_err || wait_readable(go) || read(go, &c, 1) != 1)
		_exit(0);
	r.res[OP_TRACEME] = sys_ret(ptrace(PTRACE_TRACEME, 0, 0, 0));
	if (write_all(rdy, (const char *)&r, sizeof(r)))
		_exit(3);
	_exit(0);
}

/* A child of the subject in @l, forked before the subject enters its own. */
struct tp_child {
	pid_t pid;
	int rdy, go; /* its reports; the subject's go-ahead or EOF */
};

/* Starts @run in a child, reads its first report into @r. 0 or -1. */
static int child_start(void (*run)(const struct tp_label *, int, int),
		       const struct tp_label *l, struct tp_child *c,
		       struct tp_report *r)
{
	int rdy[2], go[2];

	if (pipe2(rdy, O_CLOEXEC))
		return -1;
	if (pipe2(go, O_CLOEXEC)) {
		close(rdy[0]);
		close(rdy[1]);
		return -1;
	}
	c->pid = peer_fork();
	if (c->pid == 0) {
		close(rdy[0]);
		close(go[1]);
		run(l, rdy[1], go[0]);
	}
	close(rdy[1]);
	close(go[0]);
	c->rdy = rdy[0];
	c->go = go[1];
	if (c->pid < 0)
		return -1;
	if (!wait_readable(c->rdy) && read(c->rdy, r, sizeof(*r)) == sizeof(*r))
		return 0;
	r->targ_err = -ECHILD;
	return 0;
}

/* Closes the child's go-ahead (it ends) and reaps it. */
static void child_end(struct tp_child *c)
{
	close(c->go);
	if (c->pid > 0)
		peer_reap(c->pid);
	close(c->rdy);
}

/* The subject: forks the target, enters its label, acts, reports. */
static void subject_run(const FIXTURE_VARIANT(task_peer) * v, bool usr2,
			bool run_sig, bool run_ptr, bool run_seize, int rep)
{
	struct tp_child targ, tme = { .pid = -1, .rdy = -1, .go = -1 };
	bool run_tme = run_ptr && run_seize && !usr2;
	struct tp_report r, t, tm;
	char path[64], c = 1;
	char link[PATH_MAX];
	int i;

	for (i = 0; i < NOPS; i++)
		r.res[i] = NOT_RUN;
	r.subj_ctx[0] = '\0';
	r.subj_err = -ECHILD;
	if (child_start(target_run, &labels[v->targ], &targ, &t))
		_exit(2);
	r.targ_err = t.targ_err;
	memcpy(r.targ_ctx, t.targ_ctx, sizeof(r.targ_ctx));
	/* Forked now: it could not enter the target's label from ours. */
	if (run_tme && child_start(traceme_run, &labels[v->targ], &tme, &tm))
		_exit(2);
	if (run_tme && tm.targ_err && !r.targ_err) {
		r.targ_err = tm.targ_err;
		memcpy(r.targ_ctx, tm.targ_ctx, sizeof(r.targ_ctx));
	}
	r.subj_err = tp_enter(&labels[v->subj], r.subj_ctx, sizeof(r.subj_ctx));
	if (!r.subj_err && !r.targ_err) {
		pid_t pid = targ.pid;

		if (run_sig && usr2)
			r.res[OP_USR2] = sys_ret(kill(pid, SIGUSR2));
		if (run_sig && !usr2)
			r.res[OP_USR1] = sys_ret(kill(pid, SIGUSR1));
		if (run_ptr && !usr2) {
			snprintf(path, sizeof(path), "/proc/%d/exe", pid);
			r.res[OP_EXE] = readlink(path, link, sizeof(link)) < 0 ?
						-errno :
						0;
		}
		/* Last: a traced target would stop on a later signal. */
		if (run_ptr && run_seize && !usr2)
			r.res[OP_SEIZE] =
				sys_ret(ptrace(PTRACE_SEIZE, pid, 0, 0));
		if (run_tme && write_all(tme.go, &c, 1) == 0 &&
		    !wait_readable(tme.rdy) &&
		    read(tme.rdy, &tm, sizeof(tm)) == sizeof(tm))
			r.res[OP_TRACEME] = tm.res[OP_TRACEME];
		else if (run_tme)
			r.res[OP_TRACEME] = -ECHILD;
	}
	child_end(&targ);
	if (run_tme)
		child_end(&tme);
	if (write_all(rep, (const char *)&r, sizeof(r)))
		_exit(3);
	_exit(0);
}

/* The profile list of label @l for the model: P_UNCONF when unconfined. */
static int prof_list(const struct tp_label *l, int out[2])
{
	if (!l->n) {
		out[0] = P_UNCONF;
		return 1;
	}
	out[0] = l->p[0];
	out[1] = l->p[1];
	return l->n;
}

/*
 * aa_may_signal: every confined sender profile allows send to every
 * profile of the target label (profile_signal_perm -> aa_label_match),
 * and every confined target profile allows receive from every profile of
 * the sender label; an unconfined profile on either side allows.
 */
static int model_signal(const struct tp_label *s, const struct tp_label *t,
			enum sigk sig)
{
	int sp[2], tp[2], ns = prof_list(s, sp), nt = prof_list(t, tp), i, j;

	for (i = 0; i < ns; i++)
		for (j = 0; j < nt; j++) {
			if (sp[i] != P_UNCONF && !may_send(sp[i], tp[j], sig))
				return -EACCES;
			if (tp[j] != P_UNCONF && !may_recv(tp[j], sp[i]))
				return -EACCES;
		}
	return 0;
}

/*
 * aa_may_ptrace: profile_tracer_perm for every confined tracer profile
 * (all of ours mediate ptrace) against every tracee profile;
 * profile_tracee_perm for every confined tracee profile, skipped
 * altogether when the tracer's label is unconfined. @trace: AA_PTRACE_TRACE
 * (seize, traceme), else AA_PTRACE_READ (exe_readlink).
 */
static int model_ptrace(const struct tp_label *s, const struct tp_label *t,
			bool trace)
{
	int sp[2], tp[2], ns = prof_list(s, sp), nt = prof_list(t, tp), i, j;

	for (i = 0; i < ns; i++)
		for (j = 0; j < nt; j++) {
			if (sp[i] != P_UNCONF &&
			    !may_trace(sp[i], tp[j], trace))
				return -EACCES;
			if (s->n && tp[j] != P_UNCONF &&
			    !may_traced(tp[j], sp[i]))
				return -EACCES;
		}
	return 0;
}

/*
 * One case: the decisions of @usr2 (kill_usr2 alone, a signal no rule of
 * S names) or of the rules (kill_usr1, exe_readlink, seize). Two KTAP
 * cases per variant, so a case's decisions all rest on the same rules.
 */
static void tp_case(struct __test_metadata *_metadata,
		    FIXTURE_DATA(task_peer) * self,
		    const FIXTURE_VARIANT(task_peer) * variant, bool usr2)
{
	char dep_seize[64];
	struct tp_report r;
	struct record rec = {
		.abi = ABI,
		.subject = labels[variant->subj].id,
		.object = labels[variant->targ].id,
	};
	bool run_sig = self->sig == 1, run_ptr = self->ptr == 1;
	/* Yama scope 3 refuses every attach before AppArmor is asked. */
	bool run_seize = self->yama != 3;
	int rep[2], i, st;
	pid_t pid;

	if (!run_sig && !run_ptr)
		SKIP(return,
			   "the kernel advertises neither features/signal nor features/ptrace");
	if (usr2 && !run_sig)
		SKIP(return, "the kernel does not advertise features/signal");
	if (!run_sig)
		TH_LOG("features/signal absent: the kill decisions are not run");
	if (!run_ptr)
		TH_LOG("features/ptrace absent: the ptrace decisions are not run");
	if (!run_seize)
		TH_LOG("yama ptrace_scope 3 refuses every attach: the seize is not run");
	snprintf(dep_seize, sizeof(dep_seize), "ptrace+yama_scope=yes+%d",
		 self->yama);
	ASSERT_EQ(0, pipe2(rep, O_CLOEXEC));
	pid = peer_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(rep[0]);
		subject_run(variant, usr2, run_sig, run_ptr, run_seize, rep[1]);
	}
	close(rep[1]);
	ASSERT_EQ(0, wait_readable(rep[0]));
	ASSERT_EQ(sizeof(r), read(rep[0], &r, sizeof(r)));
	close(rep[0]);
	st = peer_reap(pid);
	EXPECT_EQ(0, st);
	ASSERT_EQ(0, r.targ_err)
	{
		TH_LOG("target entering %s: %s (context %s)",
		       labels[variant->targ].id, strerror(-r.targ_err),
		       r.targ_ctx);
	}
	ASSERT_EQ(0, r.subj_err)
	{
		TH_LOG("subject entering %s: %s (context %s)",
		       labels[variant->subj].id, strerror(-r.subj_err),
		       r.subj_ctx);
	}
	for (i = 0; i < NOPS; i++) {
		bool sig = i == OP_USR1 || i == OP_USR2;

		if (r.res[i] == NOT_RUN)
			continue;
		rec.class = sig ? "signal" : "ptrace";
		rec.detail = i == OP_USR1 ? "usr1" :
			     i == OP_USR2 ? "usr2" :
			     i == OP_EXE  ? "read" :
					    "trace";
		rec.op = op_names[i];
		rec.depends = sig	  ? "signal=yes" :
			      i == OP_EXE ? "ptrace=yes" :
					    dep_seize; /* seize, traceme */
		rec.expected =
			sig ? model_signal(&labels[variant->subj],
					   &labels[variant->targ],
					   i == OP_USR1 ? SIG_U1 : SIG_U2) :
			      model_ptrace(&labels[variant->subj],
					   &labels[variant->targ], i != OP_EXE);
		rec.observed = r.res[i];
		JUDGE(&rec);
	}
}

TEST_F_TIMEOUT(task_peer, decisions, 60)
{
	tp_case(_metadata, self, variant, false);
}

TEST_F_TIMEOUT(task_peer, other_signal, 60)
{
	tp_case(_metadata, self, variant, true);
}

AA_HARNESS_MAIN
