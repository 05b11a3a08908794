// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux io_uring: a root task in a test domain sets up a ring and an
 * SQPOLL ring, submits a request with a personality that holds the
 * harness's own credentials, and sends a command to a socket through a
 * ring. Each actor lacks at most one io_uring permission, or anon_inode
 * create (policy part lsmconf-uring.cil).
 *
 * The model (uring_expect(); security/selinux/hooks.c):
 *
 *   allowed         io_uring_setup(2), with or without SQPOLL, on a kernel
 *                   that has the hook (selinux_uring_allowed in
 *                   /proc/kallsyms; the record's depends column):
 *                   io_uring_allowed() -> selinux_uring_allowed, allowed
 *                   from the task to itself, before anything else
 *   anon_inode      io_uring_setup(2): the ring's file is a secure anonymous
 *   create          inode (io_uring_get_file -> anon_inode_*_secure ->
 *                   selinux_inode_init_security_anon): labelled by
 *                   type_transition from the task to itself for
 *                   "[io_uring]", none here, so the task's own type; then
 *                   create of class anon_inode on that label
 *   sqpoll          io_uring_setup(IORING_SETUP_SQPOLL):
 *                   selinux_uring_sqpoll, sqpoll from the task to itself,
 *                   before the file (io_sq_offload_create, then
 *                   io_uring_get_file): then anon_inode create
 *   override_creds  a no-op request with a personality registered before
 *                   the task entered its domain (kernel_t's credentials):
 *                   io_init_req -> selinux_uring_override_creds,
 *                   override_creds from the task to kernel_t; the
 *                   request's completion carries the refusal
 *   cmd             IORING_OP_URING_CMD, SOCKET_URING_OP_SIOCINQ, on a UDP
 *                   socket the task made: io_uring_cmd ->
 *                   selinux_uring_cmd, cmd from the task to the socket's
 *                   inode (labelled as its maker); a kernel whose sockets
 *                   take no ring commands (before 6.7: no
 *                   f_op->uring_cmd) answers -EOPNOTSUPP first, which the
 *                   harness's own domain finds out in the setup (the
 *                   record's depends column)
 *
 * A refusal is -EACCES and one AVC record (avc_log.h): "{ PERM }",
 * tcontext the task's type (kernel_t for override_creds), tclass io_uring
 * or anon_inode, permissive=0. An allowed call logs none.
 */

#define _GNU_SOURCE
#include <sys/socket.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "avc_log.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/uring.h"

#define LEVEL "s0"
#define CATS 4
#define HARNESS "kernel_t" /* the personality's credentials */
#ifndef SOCKET_URING_OP_SIOCINQ
#define SOCKET_URING_OP_SIOCINQ 0
#endif

enum ur_op { OP_SETUP, OP_SQPOLL, OP_OVERRIDE_CREDS, OP_CMD, N_OPS };

/* One permission a call asks. */
struct ur_check {
	const char *class;
	const char *perm;
};

/* clang-format off */
#define URING(p) { "io_uring", p }
#define ANON_CREATE { "anon_inode", "create" }
/* clang-format on */

static const struct {
	const char *name; /* the record's op */
	struct ur_check checks[2]; /* in the order they are asked */
	bool on_harness; /* asked on the personality's type, not the task's */
	bool setup; /* io_uring_setup() by the task: allowed first */
} ops[N_OPS] = {
	[OP_SETUP] = { "ring_setup", { ANON_CREATE }, false, true },
	[OP_SQPOLL] = { "sqpoll_ring",
			{ URING("sqpoll"), ANON_CREATE },
			false,
			true },
	/* the ring made by the harness's domain, before the task entered */
	[OP_OVERRIDE_CREDS] = { "override_creds",
				{ URING("override_creds") },
				true },
	[OP_CMD] = { "socket_cmd_siocinq", { URING("cmd") } },
};

/* io_uring_setup()'s own check, where the kernel has it. */
static const struct ur_check allowed_check = URING("allowed");

FIXTURE(uring)
{
	char ratelimit[32]; /* printk_ratelimit as found */
	bool socket_cmd; /* the kernel's sockets take ring commands */
	bool asks_allowed; /* the kernel has selinux_uring_allowed() */
};

FIXTURE_VARIANT(uring)
{
	const char *actor;
	struct ur_check lacks; /* .perm NULL: nothing */
};

/* Each actor, named after the permission it lacks (none: ok). */
/* clang-format off */
FIXTURE_VARIANT_ADD(uring, ok) { .actor = "lsmconf_ur_ok_t" };
FIXTURE_VARIANT_ADD(uring, no_sqpoll) {
	.actor = "lsmconf_ur_no_sqpoll_t", .lacks = URING("sqpoll") };
FIXTURE_VARIANT_ADD(uring, no_override_creds) {
	.actor = "lsmconf_ur_no_override_creds_t",
	.lacks = URING("override_creds") };
FIXTURE_VARIANT_ADD(uring, no_cmd) {
	.actor = "lsmconf_ur_no_cmd_t", .lacks = URING("cmd") };
FIXTURE_VARIANT_ADD(uring, no_anon_inode_create) {
	.actor = "lsmconf_ur_no_anon_inode_create_t", .lacks = ANON_CREATE };
FIXTURE_VARIANT_ADD(uring, no_allowed) {
	.actor = "lsmconf_ur_no_allowed_t", .lacks = URING("allowed") };
/* clang-format on */

/* The check of @op the actor lacks, the first asked, or NULL. */
static const struct ur_check *uring_refused(const FIXTURE_VARIANT(uring) * v,
					    enum ur_op op, bool socket_cmd,
					    bool asks_allowed)
{
	const struct ur_check *c = ops[op].checks;
	size_t i;

	if (op == OP_CMD && !socket_cmd)
		return NULL; /* -EOPNOTSUPP before the hook */
	if (ops[op].setup && asks_allowed && v->lacks.perm &&
	    !strcmp(v->lacks.class, allowed_check.class) &&
	    !strcmp(v->lacks.perm, allowed_check.perm))
		return &allowed_check;
	for (i = 0; v->lacks.perm && i < ARRAY_SIZE(ops[op].checks); i++)
		if (c[i].perm && !strcmp(c[i].class, v->lacks.class) &&
		    !strcmp(c[i].perm, v->lacks.perm))
			return &c[i];
	return NULL;
}

static int uring_expect(const FIXTURE_VARIANT(uring) * v, enum ur_op op,
			bool socket_cmd, bool asks_allowed)
{
	if (uring_refused(v, op, socket_cmd, asks_allowed))
		return -EACCES;
	return op == OP_CMD && !socket_cmd ? -EOPNOTSUPP : 0;
}

/* SIOCINQ of a new UDP socket through ring @r: 0 or -errno. */
static int socket_cmd(struct ring *r)
{
	struct io_uring_sqe sqe = { .opcode = IORING_OP_URING_CMD,
				    .cmd_op = SOCKET_URING_OP_SIOCINQ,
				    .user_data = 1 };
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret;

	if (s < 0)
		return -errno;
	sqe.fd = s;
	ret = ring_submit(r, &sqe);
	close(s);
	return ret < 0 ? ret : 0; /* else the bytes queued: none */
}

struct ur_case {
	const char *actor; /* NULL: the harness's own domain */
	enum ur_op op;
};

struct ur_report {
	int setup; /* the ring and the personality, then the domain */
	int result;
};

/* The child (child_run()): its ring, the domain, the call. */
static void uring_child(void *arg, void *reply)
{
	const struct ur_case *k = arg;
	struct ur_report *c = reply;
	struct ring r = { .fd = -1 };
	int personality = 0;

	c->result = NOT_RUN;
	if (k->op != OP_SQPOLL && k->op != OP_SETUP) {
		c->setup = ring_open(&r);
		if (!c->setup && k->op == OP_OVERRIDE_CREDS) {
			personality = ring_personality(&r);
			c->setup = personality < 0 ? personality : 0;
		}
	}
	if (!c->setup && k->actor)
		c->setup = sel_enter(k->actor, LEVEL);
	if (!c->setup) {
		if (k->op == OP_SETUP)
			c->result = ring_open(&r);
		else if (k->op == OP_SQPOLL)
			c->result = sqpoll_ring();
		else if (k->op == OP_OVERRIDE_CREDS)
			c->result = ring_nop(&r, personality);
		else
			c->result = socket_cmd(&r);
	}
	ring_close(&r);
}

/*
 * The record of @op by the actor against the model's: 0, -EBADMSG when it
 * differs or more than one came, NOT_RUN when none did.
 */
static int judge_avc(struct __test_metadata *_metadata,
		     const FIXTURE_VARIANT(uring) * v, enum ur_op op,
		     bool socket_cmd, bool asks_allowed, const struct avcs *got)
{
	const struct ur_check *want =
		uring_refused(v, op, socket_cmd, asks_allowed);

	return avc_judge_one(_metadata, ops[op].name, got,
			     want ? want->perm : NULL,
			     ops[op].on_harness ? HARNESS : v->actor,
			     want ? want->class : NULL);
}

/* Whether the kernel's symbols hold function @name (names only: no address). */
static bool kallsyms_has(const char *name)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], sym[256];
	bool found = false;

	while (f && !found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%*s %*s %255s", sym) == 1 &&
			!strcmp(sym, name);
	if (f)
		fclose(f);
	return found;
}

FIXTURE_SETUP(uring)
{
	struct ur_case k = { NULL, OP_CMD };
	struct ur_report r;

	SEL_SETUP(CATS);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	/* Unconfined first: a ring the kernel refuses to anyone skips. */
	r.result = sqpoll_ring();
	if (r.result == -ENOSYS || r.result == -EPERM)
		SKIP(return,
			   "io_uring_setup: %s (CONFIG_IO_URING, kernel.io_uring_disabled)",
			   strerror(-r.result));
	ASSERT_EQ(0, r.result);
	/* Whether sockets take ring commands, asked by the harness's domain. */
	ASSERT_EQ(0, child_run(uring_child, &k, &r, sizeof(r)));
	ASSERT_EQ(0, r.setup);
	ASSERT_TRUE(r.result == 0 || r.result == -EOPNOTSUPP)
	{
		TH_LOG("SIOCINQ through a ring: %s", strerror(-r.result));
	}
	self->socket_cmd = r.result == 0;
	self->asks_allowed = kallsyms_has("selinux_uring_allowed");
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
}

FIXTURE_TEARDOWN(uring)
{
	if (self->ratelimit[0])
		EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

TEST_F(uring, use)
{
	struct record rec = {
		.abi = "selinux-c4",
		.subject = variant->actor,
	};
	char id[96];
	int op;

	for (op = 0; op < N_OPS; op++) {
		struct ur_case k = { variant->actor, op };
		bool denied = uring_refused(variant, op, self->socket_cmd,
					    self->asks_allowed);
		struct ur_report r;
		struct avcs got;

		ASSERT_EQ(0, avc_call_logged(_metadata, ops[op].name, "ur", op,
					     variant->actor, uring_child, &k,
					     &r, sizeof(r), &got));
		ASSERT_EQ(0, r.setup)
		{
			TH_LOG("%s: no setup or no domain", ops[op].name);
		}
		rec.object = ops[op].on_harness ? HARNESS : variant->actor;
		/* named after its first check */
		rec.class = ops[op].checks[0].class;
		rec.detail = ops[op].checks[0].perm;
		rec.op = ops[op].name;
		if (op == OP_CMD)
			rec.depends = self->socket_cmd ?
					      "io_uring/socket_cmd=yes" :
					      "io_uring/socket_cmd=no";
		else if (ops[op].setup)
			rec.depends = self->asks_allowed ?
					      "selinux_uring_allowed=yes" :
					      "selinux_uring_allowed=no";
		else
			rec.depends = "-";
		rec.expected = uring_expect(variant, op, self->socket_cmd,
					    self->asks_allowed);
		rec.observed = r.result;
		JUDGE(&rec);
		/* The record a refusal logs, or proven absent by the marker. */
		JUDGE_LOG(&rec, id, ops[op].name, denied, got.n,
			  judge_avc(_metadata, variant, op, self->socket_cmd,
				    self->asks_allowed, &got));
	}
}

LSM_HARNESS_MAIN
