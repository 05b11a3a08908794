// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux: one process acting on another. An actor in its domain signals
 * a target, reads and sets its scheduling, its process group, session and
 * resource limits, and traces it (attaching, and as the parent of a child
 * that asks to be traced). Each actor lacks at most one process permission
 * (lsmconf_tsk_no_PERM_t), and the outcome of every operation is derived
 * from the permission security/selinux/hooks.c checks for it.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "avc_log.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/worker.h"

#define LEVEL "s0"
#define TARGET "lsmconf_tsk_tgt_t"
#define CATS 4

/*
 * The operations, each with the process permission it needs from the
 * actor to the target (hooks.c):
 *   kill(2)                 selinux_task_kill: signal_to_av(), SIGKILL
 *                           sigkill, SIGSTOP sigstop, SIGCHLD sigchld,
 *                           0 signull, any other signal: signal
 *   setpriority(2)          selinux_task_setnice: setsched
 *   sched_setscheduler(2),  selinux_task_setscheduler: setsched
 *   sched_setaffinity(2)
 *   sched_getscheduler(2),  selinux_task_getscheduler: getsched
 *   sched_getaffinity(2)
 *   getpgid(2)              selinux_task_getpgid: getpgid
 *   setpgid(2) of itself,   selinux_task_setpgid: setpgid on itself (the
 *   to its own group        caller or a child not yet exec'd is all
 *                           setpgid(2) moves; the group stays the same)
 *   getsid(2)               selinux_task_getsid: getsession
 *   read(2) of              selinux_getprocattr -> selinux_lsm_getattr:
 *   /proc/PID/attr/current  getattr (another task's only)
 *   prlimit(2) reading      selinux_task_prlimit: getrlimit
 *   prlimit(2) writing      selinux_task_prlimit: setrlimit, then, when
 *                           the hard limit changes, selinux_task_setrlimit:
 *                           setrlimit again
 *   ptrace(PTRACE_ATTACH)   selinux_ptrace_access_check: ptrace
 *   ptrace(PTRACE_TRACEME)  selinux_ptrace_traceme: ptrace, from the
 *                           parent (the actor) to the child (the target)
 *   SIGIO to the target as  selinux_file_send_sigiotask: signal, from the
 *   owner of a pipe made    task that set the owner (F_SETOWN,
 *   O_ASYNC by the actor    selinux_file_set_fowner) to the target, when
 *                           the actor writes to the pipe (kill_fasync ->
 *                           send_sigio); a refusal sends nothing and
 *                           fails no call: the target's pending SIGIO
 *                           is the outcome, its absence recorded as
 *                           -EACCES
 * and on the actor itself: prlimit() on its own pid is no prlimit check
 * (the hook is skipped for the caller's own credentials), and a new hard
 * limit is checked by selinux_task_setrlimit against the actor itself,
 * a soft limit alone by nothing; its own affinity, set or read, is
 * checked as any other task's (setsched, getsched on itself). Root
 * passes every capability and DAC check first, so a denial is SELinux's
 * -EACCES.
 *
 * Each denial is also one AVC record (avc_audit -> slow_avc_audit: the
 * policy audits every denial, no dontaudit rule here), read from
 * /dev/kmsg up to a marker's: "avc:  denied  { PERM }", scontext the
 * actor's, tcontext the target's (the actor's own for the self cases;
 * for PTRACE_TRACEME the check is from the parent, the actor, to the
 * child), tclass=process, permissive=0. An allowed operation logs none.
 */
enum task_op {
	OP_KILL_SIGNAL,
	OP_KILL_SIGKILL,
	OP_KILL_SIGSTOP,
	OP_KILL_SIGCHLD,
	OP_KILL_SIGNULL,
	OP_SETPRIORITY,
	OP_SCHED_SETSCHEDULER,
	OP_SCHED_SETAFFINITY,
	OP_SCHED_GETSCHEDULER,
	OP_SCHED_GETAFFINITY,
	OP_GETPGID,
	OP_GETSID,
	OP_PROC_ATTR_CURRENT,
	OP_PRLIMIT_READ,
	OP_PRLIMIT_SOFT,
	OP_PRLIMIT_HARD,
	OP_PTRACE_ATTACH,
	OP_PTRACE_TRACEME,
	OP_SIGIO,
	OP_SELF_SOFT,
	OP_SELF_HARD,
	OP_SELF_SETAFFINITY,
	OP_SELF_GETAFFINITY,
	OP_SELF_SETPGID,
	N_OPS
};

static const struct {
	const char *name;
	const char *perm; /* NULL: no permission checked */
	bool on_self;
} ops[N_OPS] = {
	[OP_KILL_SIGNAL] = { "kill.sigusr1", "signal" },
	[OP_KILL_SIGKILL] = { "kill.sigkill", "sigkill" },
	[OP_KILL_SIGSTOP] = { "kill.sigstop", "sigstop" },
	[OP_KILL_SIGCHLD] = { "kill.sigchld", "sigchld" },
	[OP_KILL_SIGNULL] = { "kill.signull", "signull" },
	[OP_SETPRIORITY] = { "setpriority", "setsched" },
	[OP_SCHED_SETSCHEDULER] = { "sched_setscheduler", "setsched" },
	[OP_SCHED_SETAFFINITY] = { "sched_setaffinity", "setsched" },
	[OP_SCHED_GETSCHEDULER] = { "sched_getscheduler", "getsched" },
	[OP_SCHED_GETAFFINITY] = { "sched_getaffinity", "getsched" },
	[OP_GETPGID] = { "getpgid", "getpgid" },
	[OP_GETSID] = { "getsid", "getsession" },
	[OP_PROC_ATTR_CURRENT] = { "proc_attr_current", "getattr" },
	[OP_PRLIMIT_READ] = { "prlimit.read", "getrlimit" },
	[OP_PRLIMIT_SOFT] = { "prlimit.soft", "setrlimit" },
	[OP_PRLIMIT_HARD] = { "prlimit.hard", "setrlimit" },
	[OP_PTRACE_ATTACH] = { "ptrace.attach", "ptrace" },
	[OP_PTRACE_TRACEME] = { "ptrace.traceme", "ptrace" },
	[OP_SIGIO] = { "sigio", "signal" },
	[OP_SELF_SOFT] = { "self.prlimit.soft", NULL, true },
	[OP_SELF_HARD] = { "self.prlimit.hard", "setrlimit", true },
	[OP_SELF_SETAFFINITY] = { "self.sched_setaffinity", "setsched", true },
	[OP_SELF_GETAFFINITY] = { "self.sched_getaffinity", "getsched", true },
	[OP_SELF_SETPGID] = { "self.setpgid", "setpgid", true },
};

/* The rule: -EACCES when the actor lacks the permission, else allowed. */
static int expect_op(const char *actor, enum task_op op)
{
	if (!ops[op].perm)
		return 0;
	return sel_domain_lacks(actor, ops[op].perm) ? -EACCES : 0;
}

/*
 * A request to a peer: 'e' enter @type, 'o' run @op against @target, 'p'
 * (the target) say whether SIGIO is pending.
 */
struct t_req {
	char op;
	enum task_op what;
	pid_t target;
	char type[64];
};

/*
 * The target: enters its domain and blocks every signal it can, so that
 * a delivered one stays pending and only SIGKILL and SIGSTOP act on it.
 */
static void t_target(const void *request, void *reply, void *state)
{
	const struct t_req *q = request;
	int *err = reply;
	sigset_t all;

	(void)state;
	if (q->op == 'p') {
		*err = sigpending(&all) ? -errno : sigismember(&all, SIGIO);
		return;
	}
	sigfillset(&all);
	if (q->op != 'e' || sigprocmask(SIG_BLOCK, &all, NULL)) {
		*err = q->op != 'e' ? -EINVAL : -errno;
		return;
	}
	*err = sel_enter(q->type, LEVEL);
}

/*
 * Lowers the soft (@hard false) or hard limit of open files of @pid from
 * the caller's own, which a target forked beside it shares: reading the
 * target's would be a getrlimit check of its own.
 */
static int lower_nofile(pid_t pid, bool hard)
{
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r))
		return -EIO;
	if (hard)
		r.rlim_max--;
	else
		r.rlim_cur--;
	if (r.rlim_cur > r.rlim_max)
		r.rlim_cur = r.rlim_max;
	return sys_ret(prlimit(pid, RLIMIT_NOFILE, &r, NULL));
}

/* Attaches to @pid, waits for its stop, detaches: 0 or -errno. */
static int trace_attach(pid_t pid)
{
	int status, err;

	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL))
		return -errno;
	err = sys_ret(waitpid(pid, &status, __WALL));
	if (ptrace(PTRACE_DETACH, pid, NULL, NULL) && !err)
		err = -errno;
	return err;
}

/*
 * A child that enters the target's domain and asks its parent, the
 * actor, to trace it; its answer comes back over a pipe.
 */
static int trace_me(void)
{
	int fds[2], err = -EIO;
	pid_t pid;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = peer_fork();
	if (pid < 0) {
		err = -errno;
	} else if (!pid) {
		close(fds[0]);
		err = sel_enter(TARGET, LEVEL);
		if (!err)
			err = sys_ret(ptrace(PTRACE_TRACEME, 0, NULL, NULL));
		pipe_write(fds[1], &err, sizeof(err));
		_exit(0);
	}
	close(fds[1]);
	if (pid > 0) {
		if (pipe_read(fds[0], &err, sizeof(err), PEER_WAIT_MS))
			err = -EIO;
		peer_reap(pid);
	}
	close(fds[0]);
	return err;
}

/*
 * A pipe whose I/O signals go to @pid (F_SETOWN, O_ASYNC), then a byte
 * written to it, which sends them: 0 or -errno of the calls.
 */
static int sigio_to(pid_t pid)
{
	int fds[2], err = 0;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	if (fcntl(fds[0], F_SETOWN, pid) ||
	    fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_ASYNC) ||
	    write(fds[1], "x", 1) != 1)
		err = -errno;
	close(fds[0]);
	close(fds[1]);
	return err;
}

/*
 * Every online CPU, without reading the caller's own affinity: that is a
 * getsched check of its own.
 */
static void every_cpu(cpu_set_t *cpus)
{
	long i, n = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(cpus);
	for (i = 0; i < n && i < CPU_SETSIZE; i++)
		CPU_SET(i, cpus);
}

/* Reads /proc/@pid/attr/current: 0 or -errno. */
static int read_proc_attr(pid_t pid)
{
	char path[64], buf[256];
	int fd, ret = 0;

	snprintf(path, sizeof(path), "/proc/%d/attr/current", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (read(fd, buf, sizeof(buf)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static int run_op(enum task_op op, pid_t t)
{
	struct sched_param sp = { 0 };
	cpu_set_t cpus;

	switch (op) {
	case OP_KILL_SIGNAL:
		return sys_ret(kill(t, SIGUSR1));
	case OP_KILL_SIGKILL:
		return sys_ret(kill(t, SIGKILL));
	case OP_KILL_SIGSTOP:
		return sys_ret(kill(t, SIGSTOP));
	case OP_KILL_SIGCHLD:
		return sys_ret(kill(t, SIGCHLD));
	case OP_KILL_SIGNULL:
		return sys_ret(kill(t, 0));
	case OP_SETPRIORITY:
		return sys_ret(setpriority(PRIO_PROCESS, t, 5));
	case OP_SCHED_SETSCHEDULER:
		return sys_ret(sched_setscheduler(t, SCHED_OTHER, &sp));
	case OP_SCHED_SETAFFINITY:
		every_cpu(&cpus);
		return sys_ret(sched_setaffinity(t, sizeof(cpus), &cpus));
	case OP_SCHED_GETSCHEDULER:
		return sched_getscheduler(t) < 0 ? -errno : 0;
	case OP_SCHED_GETAFFINITY:
		return sys_ret(sched_getaffinity(t, sizeof(cpus), &cpus));
	case OP_GETPGID:
		return getpgid(t) < 0 ? -errno : 0;
	case OP_GETSID:
		return getsid(t) < 0 ? -errno : 0;
	case OP_PROC_ATTR_CURRENT:
		return read_proc_attr(t);
	case OP_PRLIMIT_READ: {
		struct rlimit r;

		return sys_ret(prlimit(t, RLIMIT_NOFILE, NULL, &r));
	}
	case OP_PRLIMIT_SOFT:
		return lower_nofile(t, false);
	case OP_PRLIMIT_HARD:
		return lower_nofile(t, true);
	case OP_PTRACE_ATTACH:
		return trace_attach(t);
	case OP_PTRACE_TRACEME:
		return trace_me();
	case OP_SIGIO:
		return sigio_to(t);
	case OP_SELF_SOFT:
		return lower_nofile(getpid(), false);
	case OP_SELF_HARD:
		return lower_nofile(getpid(), true);
	case OP_SELF_SETAFFINITY:
		every_cpu(&cpus);
		return sys_ret(sched_setaffinity(0, sizeof(cpus), &cpus));
	case OP_SELF_GETAFFINITY:
		return sys_ret(sched_getaffinity(0, sizeof(cpus), &cpus));
	case OP_SELF_SETPGID:
		return sys_ret(setpgid(0, getpgrp()));
	default:
		return -EINVAL;
	}
}

static void t_actor(const void *request, void *reply, void *state)
{
	const struct t_req *q = request;
	int *err = reply;

	(void)state;
	if (q->op == 'e')
		*err = sel_enter(q->type, LEVEL);
	else if (q->op == 'o')
		*err = run_op(q->what, q->target);
	else
		*err = -EINVAL;
}

/* One request; a peer that does not answer is a harness failure (-1). */
static int t_do(struct worker *w, const struct t_req *q, int *err)
{
	return worker_run(w, q, err) ? -1 : 0;
}

/*
 * Runs @op by @actor (entered already, @aw) against a fresh target (a
 * signal or a trace changes it); -1 when a peer could not run.
 */
static int run_case(struct worker *aw, enum task_op op, int *observed)
{
	struct t_req q = { .op = 'e' };
	struct worker tw = { 0 };
	int err, ret = -1;

	snprintf(q.type, sizeof(q.type), "%s", TARGET);
	if (!ops[op].on_self && op != OP_PTRACE_TRACEME &&
	    (worker_start(&tw, sizeof(q), sizeof(int), t_target, NULL) ||
	     t_do(&tw, &q, &err) || err))
		goto out;
	q = (struct t_req){ .op = 'o', .what = op, .target = tw.pid };
	if (t_do(aw, &q, observed))
		goto out;
	/* SIGIO: whether it came, once the calls that send it succeeded. */
	if (op == OP_SIGIO && !*observed) {
		q = (struct t_req){ .op = 'p' };
		if (t_do(&tw, &q, &err) || err < 0)
			goto out;
		*observed = err ? 0 : -EACCES;
	}
	ret = 0;
out:
	/* A stopped or traced target ends only by SIGKILL. */
	if (tw.pid > 0)
		kill(tw.pid, SIGKILL);
	worker_stop(&tw);
	return ret;
}

/*
 * The one record of @op by @actor against the model's: 0, -EBADMSG when
 * a field differs or more than one came, NOT_RUN when none did.
 */
static int judge_avc(struct __test_metadata *_metadata, const char *actor,
		     enum task_op op, const struct avcs *got)
{
	const char *rec = got->rec[0];
	int bad = 0, i;

	if (!got->n)
		return NOT_RUN;
	if (got->n > 1 || expect_op(actor, op) != -EACCES) {
		for (i = 0; i < got->n; i++)
			TH_LOG("%s: logged %s", ops[op].name, got->rec[i]);
		return -EBADMSG;
	}
	bad = avc_expect_denial(_metadata, ops[op].name, rec, ops[op].perm,
				ops[op].on_self ? actor : TARGET, "process");
	return bad;
}

FIXTURE(task)
{
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(task)
{
	const char *actor;
};

/* Each actor, named after the permission it lacks (none: ok). */
FIXTURE_VARIANT_ADD(task, ok) {
	.actor = "lsmconf_tsk_ok_t",
};

FIXTURE_VARIANT_ADD(task, no_signal) {
	.actor = "lsmconf_tsk_no_signal_t",
};

FIXTURE_VARIANT_ADD(task, no_sigkill) {
	.actor = "lsmconf_tsk_no_sigkill_t",
};

FIXTURE_VARIANT_ADD(task, no_sigstop) {
	.actor = "lsmconf_tsk_no_sigstop_t",
};

FIXTURE_VARIANT_ADD(task, no_sigchld) {
	.actor = "lsmconf_tsk_no_sigchld_t",
};

FIXTURE_VARIANT_ADD(task, no_signull) {
	.actor = "lsmconf_tsk_no_signull_t",
};

FIXTURE_VARIANT_ADD(task, no_setsched) {
	.actor = "lsmconf_tsk_no_setsched_t",
};

FIXTURE_VARIANT_ADD(task, no_getsched) {
	.actor = "lsmconf_tsk_no_getsched_t",
};

FIXTURE_VARIANT_ADD(task, no_getsession) {
	.actor = "lsmconf_tsk_no_getsession_t",
};

FIXTURE_VARIANT_ADD(task, no_getpgid) {
	.actor = "lsmconf_tsk_no_getpgid_t",
};

FIXTURE_VARIANT_ADD(task, no_setpgid) {
	.actor = "lsmconf_tsk_no_setpgid_t",
};

FIXTURE_VARIANT_ADD(task, no_getattr) {
	.actor = "lsmconf_tsk_no_getattr_t",
};

FIXTURE_VARIANT_ADD(task, no_setrlimit) {
	.actor = "lsmconf_tsk_no_setrlimit_t",
};

FIXTURE_VARIANT_ADD(task, no_getrlimit) {
	.actor = "lsmconf_tsk_no_getrlimit_t",
};

FIXTURE_VARIANT_ADD(task, no_ptrace) {
	.actor = "lsmconf_tsk_no_ptrace_t",
};

FIXTURE_SETUP(task)
{
	SEL_SETUP(CATS);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
}

FIXTURE_TEARDOWN(task)
{
	EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

/*
 * Runs every operation by @actor; what each logged into @logged (a record
 * or -ENOENT) and @fields (judge_avc()). 0, or -1 when a peer or the
 * marker failed.
 */
static int run_all(struct __test_metadata *_metadata, const char *actor,
		   int *observed, int *logged, int *fields)
{
	struct t_req q = { .op = 'e' };
	struct worker aw = { 0 };
	int err, op, ret = 0;

	snprintf(q.type, sizeof(q.type), "%s", actor);
	if (worker_start(&aw, sizeof(q), sizeof(int), t_actor, NULL))
		return -1;
	if (t_do(&aw, &q, &err) || err)
		ret = -1;
	for (op = 0; !ret && op < N_OPS; op++) {
		char comm[16];
		struct avcs got;
		int fd = kmsg_open_end();

		snprintf(comm, sizeof(comm), "tskmk%05d.%02d",
			 getpid() % 100000, op);
		if (fd < 0 || run_case(&aw, op, &observed[op]) ||
		    avc_mark(comm) || avc_collect(fd, actor, comm, &got)) {
			TH_LOG("%s: no run or no marker record", ops[op].name);
			ret = -1;
		} else {
			logged[op] = got.n ? 0 : -ENOENT;
			fields[op] = judge_avc(_metadata, actor, op, &got);
		}
		if (fd >= 0)
			close(fd);
	}
	worker_stop(&aw);
	return ret;
}

TEST_F(task, act_on_target)
{
	int observed[N_OPS], logged[N_OPS], fields[N_OPS], op;
	const char *actor = variant->actor;
	char abi[32], id[96];

	for (op = 0; op < N_OPS; op++) {
		observed[op] = NOT_RUN;
		logged[op] = NOT_RUN;
		fields[op] = NOT_RUN;
	}
	ASSERT_EQ(0, run_all(_metadata, actor, observed, logged, fields));
	snprintf(abi, sizeof(abi), "selinux-c%d", CATS);
	for (op = 0; op < N_OPS; op++) {
		bool denied = expect_op(actor, op) == -EACCES;
		struct record rec = {
			.abi = abi,
			.subject = actor,
			.object = ops[op].on_self ? actor : TARGET,
			.class = "process",
			.detail = ops[op].perm ? ops[op].perm : "none",
			.op = ops[op].name,
			.expected = expect_op(actor, op),
			.observed = observed[op],
		};

		JUDGE(&rec);
		/* The AVC record a denial logs, or proven absent by the marker. */
		snprintf(id, sizeof(id), "%s/log.record", ops[op].name);
		rec.op = id;
		rec.expected = denied ? 0 : -ENOENT;
		rec.observed = logged[op];
		JUDGE(&rec);
		snprintf(id, sizeof(id), "%s/log.fields", ops[op].name);
		rec.expected = denied ? 0 : NOT_RUN;
		rec.observed = fields[op];
		JUDGE(&rec);
	}
}

LSM_HARNESS_MAIN
