// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux System V message queues between two domains: a receiver creates
 * a queue, a sender opens it and sends, the receiver reads. Every pair
 * holds every permission but (at most) one, and each operation's outcome is
 * derived from which permissions it needs (hooks.c), so a denial must show
 * up on exactly the call that needs the missing permission.
 */

#define _GNU_SOURCE
#include <sys/ipc.h>
#include <sys/msg.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_log.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/worker.h"

#define LEVEL "s0"
#define MSG_TEXT "lsmconf msgq payload"

enum { OP_CREATE, OP_MSGGET, OP_MSGSND, OP_MSGRCV, N_OPS };

static const char *const op_names[N_OPS] = { "create", "msgget", "msgsnd",
					     "msgrcv" };

/*
 * Who must hold what for each operation (security/selinux/hooks.c). The
 * queue, and every message in it, carries the receiver's type:
 *   create: receiver: msgq create on its new queue (msg_queue_alloc)
 *   msgget: sender: msgq associate on the existing queue (msg_queue_associate)
 *   msgsnd: sender: msgq unix_write (ipc_permission), msgq write, msg send;
 *           the queue: msgq enqueue of the new message (msg_queue_msgsnd)
 *   msgrcv: receiver: msgq unix_read (ipc_permission), then msgq read and
 *           msg receive per message (msg_queue_msgrcv)
 * The receiver's "enqueue" is checked with the queue's type as subject, so a
 * receiver lacking it makes the sender's msgsnd fail.
 *
 * msgrcv's per-message check does not fail the call: ipc/msg.c find_msg()
 * passes over a message the LSM refuses, as if it were of another type, so
 * msgrcv(IPC_NOWAIT) finds nothing: ENOMSG, where unix_read gives EACCES.
 */
static const struct {
	char who; /* 's' sender, 'r' receiver (or the queue it owns) */
	const char *perms[4];
} rules[N_OPS] = {
	[OP_CREATE] = { 'r', { "create" } },
	[OP_MSGGET] = { 's', { "associate" } },
	[OP_MSGSND] = { 's', { "unix_write", "write", "send" } },
	[OP_MSGRCV] = { 'r', { "unix_read", "read", "receive" } },
};

/* The errno a missing permission gives, see find_msg() above. */
static int denial(int op, const char *perm)
{
	if (op == OP_MSGRCV && strcmp(perm, "unix_read"))
		return -ENOMSG;
	return -EACCES;
}

/*
 * The expected outcome of every step: EACCES when a needed permission is
 * missing (enforcing only), NOT_RUN after a failed step (each needs the one
 * before it: the queue, the opened queue, a message to read).
 */
static void expect_pair(const char *sender, const char *receiver,
			bool enforcing, int expected[N_OPS])
{
	int op, i;

	for (op = 0; op < N_OPS; op++) {
		const char *subject = rules[op].who == 's' ? sender : receiver;

		expected[op] = 0;
		if (op > 0 && expected[op - 1]) {
			expected[op] = NOT_RUN;
			continue;
		}
		for (i = 0; rules[op].perms[i]; i++)
			if (enforcing &&
			    sel_domain_lacks(subject, rules[op].perms[i]))
				expected[op] = denial(op, rules[op].perms[i]);
		if (op == OP_MSGSND && enforcing &&
		    sel_domain_lacks(receiver, "enqueue"))
			expected[op] = -EACCES;
	}
}

/*
 * A peer in its domain, driven by the test (worker.h): 'e' enters the
 * domain, 'c' creates a fresh queue, 'g' opens @key's, 's' sends one
 * message, 'r' reads one (IPC_NOWAIT), 'd' removes the queue it made.
 */
struct q_req {
	char op;
	key_t key;
};

struct q_rep {
	int err;
	key_t key;
};

struct q_peer {
	const char *type;
	int id;
};

static void q_serve(const void *request, void *reply, void *state)
{
	const struct q_req *q = request;
	struct sel_msg m = { .mtype = 1, .text = MSG_TEXT };
	struct q_peer *p = state;
	struct q_rep *r = reply;
	ssize_t n;
	int i;

	switch (q->op) {
	case 'e':
		r->err = sel_enter(p->type, LEVEL);
		break;
	case 'c':
		for (i = 0; i < 64; i++) {
			r->key = (key_t)(0x4c530000 |
					 ((getpid() + i * 7919) & 0xffff));
			p->id = msgget(r->key, IPC_CREAT | IPC_EXCL | 0600);
			r->err = sys_ret(p->id);
			if (r->err != -EEXIST)
				break;
		}
		break;
	case 'g':
		p->id = msgget(q->key, 0);
		r->err = sys_ret(p->id);
		break;
	case 's':
		r->err = sys_ret(
			msgsnd(p->id, &m, sizeof(MSG_TEXT), IPC_NOWAIT));
		break;
	case 'r':
		memset(&m, 0, sizeof(m));
		n = msgrcv(p->id, &m, sizeof(m.text), 0, IPC_NOWAIT);
		r->err = n < 0 ? -errno : 0;
		/* A message that is not what was sent is no success. */
		if (!r->err &&
		    (n != sizeof(MSG_TEXT) || strcmp(m.text, MSG_TEXT)))
			r->err = -EBADMSG;
		break;
	case 'd':
		r->err = sys_ret(msgctl(p->id, IPC_RMID, NULL));
		break;
	default:
		r->err = -EINVAL;
	}
}

/* One request; a peer that does not answer is a harness failure (-1). */
static int q_do(struct worker *w, char op, key_t key, struct q_rep *r)
{
	struct q_req q = { .op = op, .key = key };

	return worker_run(w, &q, r) ? -1 : 0;
}

/*
 * Runs one pair: the receiver creates a queue, the sender opens it and
 * sends, the receiver reads; @observed gets every step's outcome. Returns
 * 0, or -1 when a peer could not be run at all (a harness failure).
 */
static int run_pair(const char *sender, const char *receiver,
		    int observed[N_OPS])
{
	struct q_peer rp = { .type = receiver }, sp = { .type = sender };
	struct worker rw = { 0 }, sw = { 0 };
	struct q_rep r, created = { .err = NOT_RUN };
	int i, ret = -1;

	for (i = 0; i < N_OPS; i++)
		observed[i] = NOT_RUN;
	if (worker_start(&rw, sizeof(struct q_req), sizeof(struct q_rep),
			 q_serve, &rp) ||
	    worker_start(&sw, sizeof(struct q_req), sizeof(struct q_rep),
			 q_serve, &sp))
		goto out;
	if (q_do(&rw, 'e', 0, &r) || r.err || q_do(&sw, 'e', 0, &r) || r.err ||
	    q_do(&rw, 'c', 0, &created))
		goto out;
	observed[OP_CREATE] = created.err;
	ret = 0;
	if (created.err)
		goto out;
	if (q_do(&sw, 'g', created.key, &r))
		goto fail;
	observed[OP_MSGGET] = r.err;
	if (!r.err) {
		if (q_do(&sw, 's', 0, &r))
			goto fail;
		observed[OP_MSGSND] = r.err;
	}
	/* Only a sent message can be received. */
	if (!observed[OP_MSGSND]) {
		if (q_do(&rw, 'r', 0, &r))
			goto fail;
		observed[OP_MSGRCV] = r.err;
	}
	goto out;
fail:
	ret = -1;
out:
	/* The owner removes its queue; the harness, what a dead one left. */
	if (!created.err && !q_do(&rw, 'd', 0, &r) && !r.err)
		created.err = NOT_RUN;
	worker_stop(&sw);
	worker_stop(&rw);
	if (!created.err) {
		int id = msgget(created.key, 0);

		if (id >= 0)
			msgctl(id, IPC_RMID, NULL);
	}
	return ret;
}

/* Writes and judges the pair's decisions, one per step. */
static void judge_pair(struct __test_metadata *_metadata, int cats,
		       const char *sender, const char *receiver,
		       const int expected[N_OPS], const int observed[N_OPS])
{
	char abi[32];
	int op;

	snprintf(abi, sizeof(abi), "selinux-c%d", cats);
	for (op = 0; op < N_OPS; op++) {
		struct record rec = {
			.abi = abi,
			.subject = sender,
			.object = receiver,
			.class = "msgq",
			.op = op_names[op],
			.expected = expected[op],
			.observed = observed[op],
		};

		JUDGE(&rec);
	}
}

FIXTURE(msgq)
{
	int unused;
};

FIXTURE_VARIANT(msgq)
{
	int cats;
	const char *sender;
	const char *receiver;
};

/*
 * One named variant: the sender's and the receiver's domain,
 * lsmconf_<s>_t and lsmconf_<r>_t, on the policy with @n categories. NAME
 * is written out so that a printed case name greps to its line; the build
 * fails when it is not c<n>_<s>_to_<r>.
 */
#define MSGQ_PAIR(NAME, n, s, r)                              \
	enum { NAME##__variant = 1 };                         \
	static_assert(c##n##_##s##_to_##r##__variant,         \
		      #NAME " is not c" #n "_" #s "_to_" #r); \
	FIXTURE_VARIANT_ADD(msgq, NAME)                       \
	{                                                     \
		.cats = n, .sender = "lsmconf_" #s "_t",      \
		.receiver = "lsmconf_" #r "_t",               \
	}

/*
 * The allowed pair, each sender lacking one thing, each receiver too; on
 * a policy with few categories and one with all of c0..c1023.
 */
/* clang-format off */
MSGQ_PAIR(c4_s_ok_to_r_ok, 4, s_ok, r_ok);
MSGQ_PAIR(c4_s_no_associate_to_r_ok, 4, s_no_associate, r_ok);
MSGQ_PAIR(c4_s_no_unix_write_to_r_ok, 4, s_no_unix_write, r_ok);
MSGQ_PAIR(c4_s_no_write_to_r_ok, 4, s_no_write, r_ok);
MSGQ_PAIR(c4_s_no_send_to_r_ok, 4, s_no_send, r_ok);
MSGQ_PAIR(c4_s_ok_to_r_no_create, 4, s_ok, r_no_create);
MSGQ_PAIR(c4_s_ok_to_r_no_enqueue, 4, s_ok, r_no_enqueue);
MSGQ_PAIR(c4_s_ok_to_r_no_unix_read, 4, s_ok, r_no_unix_read);
MSGQ_PAIR(c4_s_ok_to_r_no_read, 4, s_ok, r_no_read);
MSGQ_PAIR(c4_s_ok_to_r_no_receive, 4, s_ok, r_no_receive);
MSGQ_PAIR(c1024_s_ok_to_r_ok, 1024, s_ok, r_ok);
MSGQ_PAIR(c1024_s_no_associate_to_r_ok, 1024, s_no_associate, r_ok);
MSGQ_PAIR(c1024_s_no_unix_write_to_r_ok, 1024, s_no_unix_write, r_ok);
MSGQ_PAIR(c1024_s_no_write_to_r_ok, 1024, s_no_write, r_ok);
MSGQ_PAIR(c1024_s_no_send_to_r_ok, 1024, s_no_send, r_ok);
MSGQ_PAIR(c1024_s_ok_to_r_no_create, 1024, s_ok, r_no_create);
MSGQ_PAIR(c1024_s_ok_to_r_no_enqueue, 1024, s_ok, r_no_enqueue);
MSGQ_PAIR(c1024_s_ok_to_r_no_unix_read, 1024, s_ok, r_no_unix_read);
MSGQ_PAIR(c1024_s_ok_to_r_no_read, 1024, s_ok, r_no_read);
MSGQ_PAIR(c1024_s_ok_to_r_no_receive, 1024, s_ok, r_no_receive);
/* clang-format on */

FIXTURE_SETUP(msgq)
{
	SEL_SETUP(variant->cats);
}

FIXTURE_TEARDOWN(msgq)
{
}

TEST_F(msgq, pair)
{
	int expected[N_OPS], observed[N_OPS];

	expect_pair(variant->sender, variant->receiver, true, expected);
	ASSERT_EQ(0, run_pair(variant->sender, variant->receiver, observed));
	judge_pair(_metadata, variant->cats, variant->sender, variant->receiver,
		   expected, observed);
}

/*
 * Permissive mode decides as enforcing does but enforces nothing: the pair
 * that lacks "send" succeeds, and the denial is logged with permissive=1.
 */
FIXTURE(permissive)
{
	int kmsg;
	char ratelimit[32];
};

FIXTURE_SETUP(permissive)
{
	const char *why = sel_unusable();

	self->kmsg = -1;
	if (why)
		SKIP(return, "%s", why);
	SEL_NEED(1024);
	/* The log line must not be lost to printk's rate limit. */
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
	self->kmsg = kmsg_open_end();
	ASSERT_LE(0, self->kmsg);
	ASSERT_EQ(0, sel_set_enforcing(0));
}

FIXTURE_TEARDOWN(permissive)
{
	if (self->kmsg >= 0)
		close(self->kmsg);
	kmsg_relimit(self->ratelimit);
	if (!sel_unusable())
		EXPECT_EQ(0, sel_set_enforcing(1));
}

/* Waits (bounded) for a kernel log record containing all of @words. */
static bool kmsg_wait(int fd, const char *const *words, int ms)
{
	char rec[8192];
	int i;

	while (kmsg_next(fd, rec, sizeof(rec), ms) >= 0) {
		for (i = 0; words[i] && strstr(rec, words[i]); i++)
			;
		if (!words[i])
			return true;
	}
	return false;
}

TEST_F(permissive, denied_send_allowed_and_logged)
{
	const char *sender = "lsmconf_s_no_send_t";
	const char *receiver = "lsmconf_r_ok_t";
	const char *const words[] = { "avc:  denied  { send }", sender,
				      "permissive=1", NULL };
	int expected[N_OPS], observed[N_OPS];

	ASSERT_EQ(0, sel_enforcing());
	expect_pair(sender, receiver, false, expected);
	ASSERT_EQ(0, run_pair(sender, receiver, observed));
	judge_pair(_metadata, 1024, sender, receiver, expected, observed);
	EXPECT_TRUE(kmsg_wait(self->kmsg, words, KMSG_WAIT_MS))
	{
		TH_LOG("no AVC denial for { send } with permissive=1 in the kernel log");
	}
}

LSM_HARNESS_MAIN
