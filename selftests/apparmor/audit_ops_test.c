// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: what AppArmor logs outside the sockets, and what complain and
 * kill mode do. A signal, a ptrace and an exec from a confined task under
 * each of the qualifiers (none, "audit deny", "deny", "audit") and the
 * modes (enforce, complain, kill; complain's exec left out), a
 * change_profile and a change_onexec without a rule under each mode, and
 * the policy operations (profile_load, profile_replace, profile_remove).
 * Each case records the operation's outcome, whether the task was killed,
 * whether its profile logged a record, and whether that record has every
 * field the model predicts.
 *
 * The records are read from /dev/kmsg up to a marker record
 * (kmsg_audit.h): the marker is an audited signal of the marker profile.
 */

#define _GNU_SOURCE
#include <signal.h>
#include <sys/ptrace.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "harness_main.h"
#include "kmsg_audit.h"

#define ABI "5.0"
#define TAG "audit_ops"
#define EXEC_PATH "/bin/busybox" /* static: an exec needs no library */

/* The profiles of audit_ops.profile and audit_ops_kill.profile. */
enum mode { M_ENFORCE, M_AUDIT_DENY, M_DENY, M_AUDIT, M_COMPLAIN, M_KILL };

static const char *const mode_ids[] = { "enforce", "audit_deny", "deny",
					"audit",   "complain",	 "kill" };

enum what { W_SIGNAL, W_PTRACE, W_EXEC, W_CHPROF, W_ONEXEC };

/* Each one's operation= as the kernel names it (include/audit.h). */
static const char *const what_ids[] = { "signal", "ptrace", "exec",
					"change_profile", "change_onexec" };

/* ---- the expectation model ------------------------------------------- */

/* What one case expects. */
struct expect {
	int op; /* the task's outcome: 0, -errno, NOT_RUN (killed first) */
	bool killed; /* the task ended by SIGKILL */
	bool logged;
	const char *apparmor; /* DENIED, AUDIT, ALLOWED, KILLED */
	const char *requested, *denied; /* denied NULL: no denied_mask */
};

/*
 * The rules, from security/apparmor:
 * - a signal is asked by aa_may_signal() (ipc.c): the sender's profile
 *   for "send" (MAY_WRITE) to the target's label, through
 *   profile_signal_perm() -> aa_check_perms() (lib.c); the target here is
 *   unconfined and asks nothing. The record (audit_signal_cb) has
 *   operation="signal", requested_mask/denied_mask in signal words
 *   ("send"), signal=<name> and peer=<target label>.
 * - an exec is asked by profile_transition() (domain.c) through
 *   aa_audit_file() (file.c): operation="exec", name=<path>, the masks in
 *   file letters ("x").
 * - denial: both log it unless quiet; an explicit "deny" rule without
 *   "audit" sets the quiet bits (aa_check_perms: denied &= ~quiet;
 *   aa_audit_file: request &= ~quiet). "audit deny" logs DENIED.
 * - allowed: logged only for the audit bits ("audit" rules), as AUDIT,
 *   requested_mask showing just them, no denied_mask.
 * - complain mode (aa_apply_modes_to_perms sets perms.complain): a signal
 *   is logged as ALLOWED and allowed (aa_check_perms returns 0 for
 *   AUDIT_APPARMOR_ALLOWED). The complain exec makes a learning profile
 *   (aa_new_learning_profile): not run here.
 * - a ptrace (PTRACE_SEIZE of an unconfined child) is asked by
 *   aa_may_ptrace() (task.c): the tracer's profile for "trace"
 *   (profile_tracer_perm -> profile_ptrace_perm -> aa_check_perms), as a
 *   signal; the record (audit_ptrace_cb) has requested_mask/denied_mask
 *   in ptrace words and peer=.
 * - a change_profile or change_onexec (to the marker profile, no rule
 *   allowing it) is asked by aa_change_profile() (domain.c):
 *   change_profile_perms_wrapper() -> aa_audit_file() with the request
 *   AA_MAY_CHANGE_PROFILE or AA_MAY_ONEXEC, which are outside
 *   AA_AUDIT_FILE_MASK: no requested_mask or denied_mask; name= and
 *   target= the target. aa_audit() turns the denial of a complain
 *   profile into ALLOWED (complain_error: allowed, the change made) and
 *   of a kill profile into KILLED.
 * - kill mode (aa_apply_modes_to_perms sets perms.kill): a denial kills
 *   the task, and the record says KILLED. aa_audit() (audit.c) sends the
 *   profile's kill signal (SIGKILL unless the profile names another)
 *   after aa_audit_msg() when the record's type is KILLED: the exec,
 *   change_profile and change_onexec (through aa_audit_file()) are
 *   denied and the task killed before it sees the error. The signal and
 *   the ptrace are judged by aa_check_perms() (lib.c), which makes the
 *   same KILLED record but calls aa_audit_msg() alone and never sends the
 *   signal: the task lives on with EACCES after a record that says it was
 *   killed. The model keeps the rule the record states; the kernels'
 *   outcome is the known kernel bug apparmor-kill-mode-ipc-not-killed,
 *   in its own case (ops.kill_ipc).
 */
static void model(enum mode m, enum what w, struct expect *e)
{
	static const char *const masks[] = { "send", "trace", "x", NULL, NULL };
	const char *mask = masks[w];

	memset(e, 0, sizeof(*e));
	e->requested = mask;
	switch (m) {
	case M_ENFORCE:
	case M_AUDIT_DENY:
		e->op = -EACCES;
		e->logged = true;
		e->apparmor = "DENIED";
		e->denied = mask;
		break;
	case M_DENY:
		e->op = -EACCES;
		break;
	case M_AUDIT:
		e->logged = true;
		e->apparmor = "AUDIT";
		break;
	case M_COMPLAIN:
		e->logged = true;
		e->apparmor = "ALLOWED";
		e->denied = mask;
		break;
	case M_KILL:
		e->killed = true;
		e->op = NOT_RUN;
		e->logged = true;
		e->apparmor = "KILLED";
		e->denied = mask;
		break;
	}
}

/* ---- fixture -------------------------------------------------------- */

FIXTURE(ops)
{
	char ratelimit[32]; /* printk_ratelimit as found */
	struct aa_policy base, kill, pol[2];
	int kill_built; /* 0 or the build's -errno */
	bool kill_mode; /* the kernel lists the kill profile as "(kill)" */
	char kill_line[200]; /* as it lists it */
};

/* A profile's name; the marker's is the tag's alone. */
static void name_of(const char *suffix, char *buf, size_t size)
{
	if (!strcmp(suffix, "marker"))
		snprintf(buf, size, AA_TEST_PREFIX TAG);
	else
		snprintf(buf, size, AA_TEST_PREFIX TAG "_%s", suffix);
}

FIXTURE_SETUP(ops)
{
	char list[65536], want[160];
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	if (aa_feature("signal") != 1)
		SKIP(return, "the kernel has no signal mediation");
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));

	ret = aa_policy_share(_metadata, &self->base, TAG, ABI, NULL, TAG,
			      NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	/* A parser without the kill mode refuses this file only. */
	self->kill_built = aa_policy_share(_metadata, &self->kill, TAG "_kill",
					   ABI, NULL, TAG "_kill", NULL);
	if (!self->kill_built) {
		name_of("kill (kill)", want, sizeof(want));
		ASSERT_LE(0, aa_profile_list(list, sizeof(list)));
		self->kill_mode = strstr(list, want) != NULL;
		name_of("kill (", want, sizeof(want));
		if (strstr(list, want))
			snprintf(self->kill_line, sizeof(self->kill_line),
				 "%.*s", (int)strcspn(strstr(list, want), "\n"),
				 strstr(list, want));
	}
}

FIXTURE_TEARDOWN(ops)
{
	EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

/* ---- the operations -------------------------------------------------- */

/*
 * Runs @w in a child that first enters profile @prof. The child reports
 * the operation's outcome over a pipe (an exec that succeeds closes it,
 * O_CLOEXEC); @op gets 0, -errno, or NOT_RUN when the child ended before
 * it could say; @status the child's wait status. 0 or -errno.
 */
static int in_profile(const char *prof, enum what w, int *op, int *status)
{
	int fds[2], ret, err;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = peer_fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (pid == 0) {
		char *argv[] = { "true", NULL }, marker[160];
		pid_t tracee = -1;
		int hold[2];

		close(fds[0]);
		name_of("marker", marker, sizeof(marker));
		/*
		 * The tracee: an unconfined child (a descendant, as Yama's
		 * ptrace_scope 1 wants), waiting on a pipe only this process
		 * writes to: it ends when this process does. Not peer_fork():
		 * the parent-death signal is sent as this process
		 * (forget_original_parent -> group_send_sig_info), and
		 * AppArmor asks this profile for it, a second record.
		 */
		if (w == W_PTRACE && !pipe(hold)) {
			tracee = fork();
			if (tracee == 0) {
				close(hold[1]);
				_exit(read(hold[0], &err, 1) < 0);
			}
			close(hold[0]);
		}
		if (w == W_PTRACE && tracee < 0) {
			err = -errno - 1000;
		} else if (aa_change_profile(prof)) {
			err = -errno - 1000; /* not the case's operation */
		} else if (w == W_SIGNAL) {
			/* The test process, unconfined: it asks nothing. */
			err = kill(getppid(), SIGCONT) ? -errno : 0;
		} else if (w == W_PTRACE) {
			/* SEIZE: the tracee is not stopped. */
			err = ptrace(PTRACE_SEIZE, tracee, 0, 0) ? -errno : 0;
		} else if (w == W_CHPROF) {
			err = aa_change_profile(marker) ? -errno : 0;
		} else if (w == W_ONEXEC) {
			err = aa_change_onexec(marker) ? -errno : 0;
		} else {
			execv(EXEC_PATH, argv);
			err = -errno;
		}
		_exit(pipe_write(fds[1], &err, sizeof(err)) ? 2 : 0);
	}
	close(fds[1]);
	ret = pipe_read(fds[0], &err, sizeof(err), PEER_WAIT_MS);
	close(fds[0]);
	*status = peer_reap(pid);
	if (*status < 0)
		return *status;
	if (ret == -EPIPE) {
		/* No report: the exec ran, or the child was killed first. */
		*op = WIFEXITED(*status) && !WEXITSTATUS(*status) ? 0 : NOT_RUN;
		return 0;
	}
	if (ret)
		return ret;
	if (err <= -1000)
		return err + 1000;
	*op = err;
	return 0;
}

/* The marker: an audited signal of the marker profile. */
static int mark(void)
{
	char prof[160];
	int op = 0, status, ret;

	name_of("marker", prof, sizeof(prof));
	ret = in_profile(prof, W_SIGNAL, &op, &status);
	return ret ? ret : op;
}

/* ---- judging -------------------------------------------------------- */

/*
 * The fields as one decision: 0 when the one record has every field the
 * model predicts, -EBADMSG when not, NOT_RUN when nothing was logged.
 */
static int fields_outcome(const struct records *got, int bad)
{
	return !got->n ? NOT_RUN : got->n != 1 || bad ? -EBADMSG : 0;
}

/* "logged", "killed" as outcomes: allow when it happened, ENOENT not. */
#define HAPPENED(x) ((x) ? 0 : -ENOENT)

static void judge_op(struct __test_metadata *_metadata, const char *subject,
		     const char *object, const char *class, const char *op,
		     int want, int got)
{
	struct record rec = {
		.abi = ABI,
		.subject = subject,
		.object = object,
		.class = class,
		.detail = "-",
		.op = op,
		.depends = "-",
		.expected = want,
		.observed = got,
	};

	JUDGE(&rec);
}

/*
 * Which decisions a case records: all of them, or a part, so that a case
 * listed as a known kernel bug holds only the decisions that show it.
 */
#define R_OUTCOME 1 /* task.<what>: allow, -errno, not-run when killed */
#define R_KILLED 2 /* task.killed */
#define R_LOG 4 /* log.record and log.fields */
#define R_ALL (R_OUTCOME | R_KILLED | R_LOG)

/* One signal or exec case: its ops are "<mode>/<what>/<decision>". */
static void run_part(struct __test_metadata *_metadata, enum mode m,
		     enum what w, int part)
{
	const char *wid = what_ids[w];
	char prof[160], marker[160], id[96], op_id[128];
	const char *object = w == W_EXEC		    ? EXEC_PATH :
			     w == W_CHPROF || w == W_ONEXEC ? marker :
							      "unconfined";
	struct records got;
	struct expect e;
	int fd, op = 0, status = 0, i, bad = 0;

	model(m, w, &e);
	name_of(mode_ids[m], prof, sizeof(prof));
	name_of("marker", marker, sizeof(marker));
	snprintf(id, sizeof(id), "%s/%s", mode_ids[m], wid);

	fd = kmsg_open_end();
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, in_profile(prof, w, &op, &status));
	ASSERT_EQ(0, mark());
	ASSERT_EQ(0, log_collect(fd, prof, marker, &got))
	{
		TH_LOG("%s: no marker record in the log", id);
	}
	close(fd);

	snprintf(op_id, sizeof(op_id), "%s/task.%s", id, wid);
	if (part & R_OUTCOME)
		judge_op(_metadata, prof, object, wid, op_id, e.op, op);
	snprintf(op_id, sizeof(op_id), "%s/task.killed", id);
	if (part & R_KILLED)
		judge_op(_metadata, prof, object, wid, op_id,
			 HAPPENED(e.killed),
			 HAPPENED(WIFSIGNALED(status) &&
				  WTERMSIG(status) == SIGKILL));
	if (!(part & R_LOG))
		return;
	snprintf(op_id, sizeof(op_id), "%s/log.record", id);
	judge_op(_metadata, prof, object, wid, op_id, HAPPENED(e.logged),
		 HAPPENED(got.n));
	/* Exactly one record: two would pass as "logged" above. */
	EXPECT_EQ(e.logged ? 1 : 0, got.n)
	{
		for (i = 0; i < got.n; i++)
			TH_LOG("%s: logged %s", id, got.rec[i]);
	}
	if (e.logged && got.n == 1) {
		bad |= judge_field(_metadata, id, got.rec[0], "apparmor",
				   e.apparmor);
		bad |= judge_field(_metadata, id, got.rec[0], "operation", wid);
		bad |= judge_field(_metadata, id, got.rec[0], "profile", prof);
		bad |= judge_field(_metadata, id, got.rec[0], "requested_mask",
				   e.requested);
		bad |= judge_field(_metadata, id, got.rec[0], "denied_mask",
				   e.denied);
		if (w == W_SIGNAL)
			bad |= judge_field(_metadata, id, got.rec[0], "signal",
					   "cont");
		if (w == W_SIGNAL || w == W_PTRACE)
			bad |= judge_field(_metadata, id, got.rec[0], "peer",
					   "unconfined");
		if (w == W_EXEC)
			bad |= judge_field(_metadata, id, got.rec[0], "name",
					   EXEC_PATH);
		if (w == W_CHPROF || w == W_ONEXEC) {
			bad |= judge_field(_metadata, id, got.rec[0], "name",
					   marker);
			bad |= judge_field(_metadata, id, got.rec[0], "target",
					   marker);
		}
	}
	snprintf(op_id, sizeof(op_id), "%s/log.fields", id);
	judge_op(_metadata, prof, object, wid, op_id, e.logged ? 0 : NOT_RUN,
		 fields_outcome(&got, bad));
}

static void run_case(struct __test_metadata *_metadata, enum mode m,
		     enum what w)
{
	run_part(_metadata, m, w, R_ALL);
}

/* ---- the cases ------------------------------------------------------ */

TEST_F_TIMEOUT(ops, signal, 60)
{
	int m;

	for (m = M_ENFORCE; m <= M_COMPLAIN; m++)
		run_case(_metadata, m, W_SIGNAL);
}

TEST_F_TIMEOUT(ops, ptrace, 60)
{
	int m;

	if (aa_feature("ptrace") != 1)
		SKIP(return, "the kernel has no ptrace mediation");
	for (m = M_ENFORCE; m <= M_COMPLAIN; m++)
		run_case(_metadata, m, W_PTRACE);
}

/* No rule allows them: enforce and complain mode (kill below). */
TEST_F_TIMEOUT(ops, change_profile, 60)
{
	run_case(_metadata, M_ENFORCE, W_CHPROF);
	run_case(_metadata, M_COMPLAIN, W_CHPROF);
	run_case(_metadata, M_ENFORCE, W_ONEXEC);
	run_case(_metadata, M_COMPLAIN, W_ONEXEC);
}

TEST_F_TIMEOUT(ops, exec, 60)
{
	int m;

	/* Complain mode's exec makes a learning profile: not here. */
	for (m = M_ENFORCE; m <= M_AUDIT; m++)
		run_case(_metadata, m, W_EXEC);
}

/*
 * Kill mode: flags=(kill), compiled by parsers that know it and listed by
 * the kernel as "(kill)" when it unpacked the mode (PACKED_MODE_KILL in
 * unpack_profile, policy_unpack.c).
 */
#define NEED_KILL_MODE()                                                     \
	do {                                                                 \
		if (self->kill_built == -ENOEXEC)                            \
			SKIP(return, "the parser refuses flags=(kill)");     \
		ASSERT_EQ(0, self->kill_built);                              \
		if (!self->kill_mode)                                        \
			SKIP(return, "the kernel does not list the profile " \
				     "in kill mode");                        \
	} while (0)

/* Denials that aa_audit() judges: exec, change_profile, change_onexec. */
TEST_F_TIMEOUT(ops, kill, 60)
{
	int w;

	NEED_KILL_MODE();
	for (w = W_EXEC; w <= W_ONEXEC; w++)
		run_case(_metadata, M_KILL, w);
}

/*
 * Denials that aa_check_perms() judges: signal and ptrace. Their outcome
 * (the task killed: not-run) is the known kernel bug
 * apparmor-kill-mode-ipc-not-killed, so it is a case of its own; what
 * they log is in kill_ipc_log. A task that lives on reports its errno.
 */
TEST_F_TIMEOUT(ops, kill_ipc, 60)
{
	NEED_KILL_MODE();
	run_part(_metadata, M_KILL, W_SIGNAL, R_OUTCOME);
	if (aa_feature("ptrace") == 1)
		run_part(_metadata, M_KILL, W_PTRACE, R_OUTCOME);
}

TEST_F_TIMEOUT(ops, kill_ipc_log, 60)
{
	NEED_KILL_MODE();
	run_part(_metadata, M_KILL, W_SIGNAL, R_LOG);
	if (aa_feature("ptrace") == 1)
		run_part(_metadata, M_KILL, W_PTRACE, R_LOG);
}

/*
 * The policy operations: aa_replace_profiles() logs profile_load for a
 * new profile and profile_replace for one of the same name (a different
 * blob: the same one would be logged with "same as current profile,
 * skipping"), aa_remove_profiles() profile_remove; all through
 * audit_policy() (policy.c) as apparmor="STATUS", whatever the audit
 * qualifiers, with profile= the loader's label and name= the profile.
 */
TEST_F_TIMEOUT(ops, policy, 60)
{
	static const char *const ops[] = { "profile_load", "profile_replace",
					   "profile_remove" };
	char name[160], marker[160], op_id[128];
	struct records got;
	int i, fd, bad, ret = 0;

	name_of("pol", name, sizeof(name));
	name_of("marker", marker, sizeof(marker));
	ret = aa_policy_build_as(&self->pol[0], TAG "_pol", ABI, "",
				 TAG "_pol_a", TAG "_pol");
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, aa_policy_build_as(&self->pol[1], TAG "_pol", ABI,
					"signal,", TAG "_pol_b", TAG "_pol"));
	for (i = 0; i < 3; i++) {
		fd = kmsg_open_end();
		ASSERT_LE(0, fd);
		ret = i < 2 ? aa_policy_load(&self->pol[i]) :
			      aa_profile_remove(name);
		/* A profile left loaded is removed by AA_HARNESS_MAIN. */
		ASSERT_EQ(0, mark());
		ASSERT_EQ(0, log_collect_by(fd, "name", name, marker, &got))
		{
			TH_LOG("%s: no marker record", ops[i]);
		}
		close(fd);
		snprintf(op_id, sizeof(op_id), "%s/policy.op", ops[i]);
		judge_op(_metadata, "unconfined", name, "policy", op_id, 0,
			 ret);
		snprintf(op_id, sizeof(op_id), "%s/log.record", ops[i]);
		judge_op(_metadata, "unconfined", name, "policy", op_id, 0,
			 HAPPENED(got.n));
		EXPECT_EQ(1, got.n)
		{
			int j;

			for (j = 0; j < got.n; j++)
				TH_LOG("%s: logged %s", ops[i], got.rec[j]);
		}
		bad = 0;
		if (got.n == 1) {
			bad |= judge_field(_metadata, ops[i], got.rec[0],
					   "apparmor", "STATUS");
			bad |= judge_field(_metadata, ops[i], got.rec[0],
					   "operation", ops[i]);
			bad |= judge_field(_metadata, ops[i], got.rec[0],
					   "profile", "unconfined");
			bad |= judge_field(_metadata, ops[i], got.rec[0],
					   "name", name);
			bad |= judge_field(_metadata, ops[i], got.rec[0],
					   "info", NULL);
		}
		snprintf(op_id, sizeof(op_id), "%s/log.fields", ops[i]);
		judge_op(_metadata, "unconfined", name, "policy", op_id, 0,
			 fields_outcome(&got, bad));
	}
}

AA_HARNESS_MAIN
