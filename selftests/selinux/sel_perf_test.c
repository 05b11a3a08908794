// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux perf events: a root task in a test domain opens a software
 * event counting itself, one that counts the kernel too, one counting a
 * CPU, and reads and enables an event of its own. Each actor lacks at
 * most one permission of class perf_event on itself (policy part
 * lsmconf-perf.cil).
 *
 * The model (perf_expect(); security/selinux/hooks.c, and the perf core
 * that calls it, kernel/events/core.c): each call asks a chain of checks,
 * from the task to itself, in order, and the first the actor lacks
 * refuses it with -EACCES:
 *
 *   open     perf_event_open(2), every event (selinux_perf_event_open,
 *            PERF_SECURITY_OPEN), after perf_paranoid_any()'s
 *            CAP_SYS_ADMIN (class capability: the actors hold it)
 *   kernel   then an event that does not exclude the kernel
 *            (perf_allow_kernel, PERF_SECURITY_KERNEL), after
 *            perfmon_capable() (capability2, undeclared: allowed)
 *   cpu      then an event on a CPU rather than a task (find_get_context
 *            -> perf_allow_cpu, PERF_SECURITY_CPU)
 *   read     read(2) of an event (perf_read ->
 *            selinux_perf_event_read), on the event's label: its
 *            creator's (selinux_perf_event_alloc), here the task itself
 *   write    an ioctl(2) of an event, PERF_EVENT_IOC_ENABLE here
 *            (perf_ioctl -> selinux_perf_event_write)
 *
 * Each refusal is one AVC record (avc_log.h): "avc:  denied  { PERM }",
 * scontext and tcontext the actor's, tclass=perf_event, permissive=0. An
 * allowed call logs none.
 */

#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "avc_log.h"
#include "../lsmconf/judge.h"

#define LEVEL "s0"
#define CATS 4
#define MAX_CHECKS 3

enum pf_op {
	OP_OPEN_SELF,
	OP_OPEN_SELF_KERNEL,
	OP_OPEN_CPU,
	OP_READ,
	OP_IOCTL_ENABLE,
	N_OPS
};

static const struct {
	const char *name;
	const char *checks[MAX_CHECKS]; /* perf_event, in the order asked */
} ops[N_OPS] = {
	[OP_OPEN_SELF] = { "open_self", { "open" } },
	[OP_OPEN_SELF_KERNEL] = { "open_self_kernel", { "open", "kernel" } },
	[OP_OPEN_CPU] = { "open_cpu0", { "open", "cpu" } },
	[OP_READ] = { "read", { "open", "read" } },
	[OP_IOCTL_ENABLE] = { "ioctl_enable", { "open", "write" } },
};

FIXTURE(perf)
{
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(perf)
{
	const char *actor;
	const char *lacks; /* NULL: nothing */
};

/* Each actor, named after the permission it lacks (none: ok). */
/* clang-format off */
#define ACTOR(p) { .actor = "lsmconf_pf_no_" #p "_t", .lacks = #p }
FIXTURE_VARIANT_ADD(perf, ok) { .actor = "lsmconf_pf_ok_t" };
FIXTURE_VARIANT_ADD(perf, no_open) ACTOR(open);
FIXTURE_VARIANT_ADD(perf, no_kernel) ACTOR(kernel);
FIXTURE_VARIANT_ADD(perf, no_cpu) ACTOR(cpu);
FIXTURE_VARIANT_ADD(perf, no_read) ACTOR(read);
FIXTURE_VARIANT_ADD(perf, no_write) ACTOR(write);
/* clang-format on */

/* The permission of @op the actor lacks, the first asked, or NULL. */
static const char *perf_denial(const FIXTURE_VARIANT(perf) * v, enum pf_op op)
{
	return avc_chain_refused(ops[op].checks, MAX_CHECKS, v->lacks);
}

/* The rule: -EACCES at the first check the actor lacks, else allowed. */
static int perf_expect(const FIXTURE_VARIANT(perf) * v, enum pf_op op)
{
	return perf_denial(v, op) ? -EACCES : 0;
}

/*
 * A software clock event of the caller (@cpu -1) or of CPU @cpu (@pid
 * -1), counting the kernel too when @kernel: its descriptor or -errno.
 */
static int perf_open(pid_t pid, int cpu, bool kernel)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.exclude_kernel = !kernel,
		.exclude_hv = 1,
	};
	long fd = syscall(SYS_perf_event_open, &attr, pid, cpu, -1,
			  PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

/* The call itself, in the actor's domain: 0 or -errno. */
static int perf_run(enum pf_op op)
{
	uint64_t count;
	int fd, ret = 0;

	switch (op) {
	case OP_OPEN_SELF:
	case OP_READ:
	case OP_IOCTL_ENABLE:
		fd = perf_open(0, -1, false);
		break;
	case OP_OPEN_SELF_KERNEL:
		fd = perf_open(0, -1, true);
		break;
	case OP_OPEN_CPU:
		fd = perf_open(-1, 0, false);
		break;
	default:
		return -EINVAL;
	}
	if (fd < 0)
		return fd;
	if (op == OP_READ)
		ret = read(fd, &count, sizeof(count)) < 0 ? -errno : 0;
	else if (op == OP_IOCTL_ENABLE)
		ret = sys_ret(ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	close(fd);
	return ret;
}

struct pf_case {
	const char *actor;
	enum pf_op op;
};

struct pf_report {
	int setup; /* entering the domain */
	int result;
};

/* The child (child_run()): enters the actor, makes the call. */
static void perf_child(void *arg, void *reply)
{
	const struct pf_case *k = arg;
	struct pf_report *r = reply;

	r->result = NOT_RUN;
	r->setup = sel_enter(k->actor, LEVEL);
	if (!r->setup)
		r->result = perf_run(k->op);
}

/*
 * The record of @op by the actor against the model's: 0, -EBADMSG when it
 * differs or more than one came, NOT_RUN when none did.
 */
static int judge_avc(struct __test_metadata *_metadata,
		     const FIXTURE_VARIANT(perf) * v, enum pf_op op,
		     const struct avcs *got)
{
	return avc_judge_one(_metadata, ops[op].name, got, perf_denial(v, op),
			     v->actor, "perf_event");
}

FIXTURE_SETUP(perf)
{
	int fd;

	SEL_SETUP(CATS);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	/* As the harness's domain: a kernel without perf events skips. */
	fd = perf_open(0, -1, false);
	if (fd == -ENOSYS || fd == -ENOENT)
		SKIP(return, "perf_event_open: %s (CONFIG_PERF_EVENTS)",
			   strerror(-fd));
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
}

FIXTURE_TEARDOWN(perf)
{
	if (self->ratelimit[0])
		EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

TEST_F(perf, use)
{
	struct record rec = {
		.abi = "selinux-c4",
		.subject = variant->actor,
		.object = variant->actor,
		.class = "perf_event",
	};
	char id[96];
	int op;

	for (op = 0; op < N_OPS; op++) {
		struct pf_case k = { variant->actor, op };
		const char *const *last = ops[op].checks;
		struct pf_report r;
		struct avcs got;

		ASSERT_EQ(0, avc_call_logged(_metadata, ops[op].name, "pf", op,
					     variant->actor, perf_child, &k, &r,
					     sizeof(r), &got));
		ASSERT_EQ(0, r.setup)
		{
			TH_LOG("%s: no domain", ops[op].name);
		}
		/* Named after the last permission it asks. */
		while (last + 1 < ops[op].checks + MAX_CHECKS && last[1])
			last++;
		rec.detail = *last;
		rec.op = ops[op].name;
		rec.expected = perf_expect(variant, op);
		rec.observed = r.result;
		JUDGE(&rec);
		/* The record a refusal logs, or proven absent by the marker. */
		JUDGE_LOG(&rec, id, ops[op].name, perf_denial(variant, op),
			  got.n, judge_avc(_metadata, variant, op, &got));
	}
}

LSM_HARNESS_MAIN
