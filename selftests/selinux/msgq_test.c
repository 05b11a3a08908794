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
#include "sel.h"
#include "../lsmconf/judge.h"

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

struct qmsg {
	long mtype;
	char text[64];
};

struct receiver_report {
	int err;
	key_t key;
};

/* Receiver: creates a fresh queue, reports, then reads when told to. */
static void receiver_main(const char *type, int cmd, int rep)
{
	struct receiver_report r = { .err = NOT_RUN };
	struct qmsg m;
	char c = 0;
	int id = -1, i, err;

	if (sel_enter(type, LEVEL))
		_exit(2);
	for (i = 0; i < 64; i++) {
		r.key = (key_t)(0x4c530000 | ((getpid() + i * 7919) & 0xffff));
		id = msgget(r.key, IPC_CREAT | IPC_EXCL | 0600);
		r.err = sys_ret(id);
		if (r.err != -EEXIST)
			break;
	}
	if (pipe_write(rep, &r, sizeof(r)) || r.err)
		_exit(r.err ? 0 : 3);
	if (pipe_read(cmd, &c, 1, PEER_WAIT_MS))
		c = 'q';
	err = NOT_RUN;
	if (c == 'r') {
		ssize_t n = msgrcv(id, &m, sizeof(m.text), 0, IPC_NOWAIT);

		err = n < 0 ? -errno : 0;
		/* A message that is not what was sent is no success. */
		if (!err && (n != sizeof(MSG_TEXT) || strcmp(m.text, MSG_TEXT)))
			err = -EBADMSG;
	}
	pipe_write(rep, &err, sizeof(err));
	msgctl(id, IPC_RMID, NULL);
	_exit(0);
}

/* Sender: opens the receiver's queue and sends one message. */
static void sender_main(const char *type, key_t key, int rep)
{
	int err[2] = { NOT_RUN, NOT_RUN }, id;
	struct qmsg m = { .mtype = 1, .text = MSG_TEXT };

	if (sel_enter(type, LEVEL))
		_exit(2);
	id = msgget(key, 0);
	err[0] = sys_ret(id);
	if (!err[0])
		err[1] = sys_ret(msgsnd(id, &m, sizeof(MSG_TEXT), IPC_NOWAIT));
	pipe_write(rep, err, sizeof(err));
	_exit(0);
}

/*
 * Runs one pair; @observed gets every step's outcome. Returns 0, or -1
 * when a peer could not be run at all (that is a harness failure).
 */
static int run_pair(const char *sender, const char *receiver,
		    int observed[N_OPS])
{
	struct receiver_report rr;
	int cmd[2], rep[2], srep[2], serr[2], i, ret = 0;
	pid_t rpid, spid;
	char c;

	for (i = 0; i < N_OPS; i++)
		observed[i] = NOT_RUN;
	if (pipe2(cmd, O_CLOEXEC) || pipe2(rep, O_CLOEXEC) ||
	    pipe2(srep, O_CLOEXEC))
		return -1;
	rpid = peer_fork();
	if (rpid == 0)
		receiver_main(receiver, cmd[0], rep[1]);
	if (rpid < 0 || pipe_read(rep[0], &rr, sizeof(rr), PEER_WAIT_MS)) {
		ret = -1;
		goto reap;
	}
	observed[OP_CREATE] = rr.err;
	if (rr.err)
		goto reap;
	spid = peer_fork();
	if (spid == 0)
		sender_main(sender, rr.key, srep[1]);
	if (spid < 0 || pipe_read(srep[0], serr, sizeof(serr), PEER_WAIT_MS))
		ret = -1;
	else {
		observed[OP_MSGGET] = serr[0];
		observed[OP_MSGSND] = serr[1];
	}
	if (spid > 0 && peer_reap(spid))
		ret = -1;
	/* Only a sent message can be received. */
	c = !ret && !observed[OP_MSGSND] ? 'r' : 'q';
	if (pipe_write(cmd[1], &c, 1) ||
	    pipe_read(rep[0], &observed[OP_MSGRCV], sizeof(int), PEER_WAIT_MS))
		ret = -1;
reap:
	if (rpid > 0 && peer_reap(rpid))
		ret = -1;
	/* A receiver that died keeps its queue: remove it here. */
	if (!observed[OP_CREATE]) {
		int id = msgget(rr.key, 0);

		if (id >= 0)
			msgctl(id, IPC_RMID, NULL);
	}
	close(cmd[0]);
	close(cmd[1]);
	close(rep[0]);
	close(rep[1]);
	close(srep[0]);
	close(srep[1]);
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
#define MSGQ_PAIR(NAME, n, s, r)                               \
	enum { NAME##__variant = 1 };                          \
	_Static_assert(c##n##_##s##_to_##r##__variant,         \
		       #NAME " is not c" #n "_" #s "_to_" #r); \
	FIXTURE_VARIANT_ADD(msgq, NAME)                        \
	{                                                      \
		.cats = n, .sender = "lsmconf_" #s "_t",       \
		.receiver = "lsmconf_" #r "_t",                \
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
	const char *why = sel_unusable();

	if (why)
		SKIP(return, "%s", why);
	SEL_NEED(variant->cats);
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
	ASSERT_LE(0, read_text("/proc/sys/kernel/printk_ratelimit",
			       self->ratelimit, sizeof(self->ratelimit)));
	ASSERT_EQ(0, write_text("/proc/sys/kernel/printk_ratelimit", "0"));
	self->kmsg = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, self->kmsg);
	ASSERT_LE(0, lseek(self->kmsg, 0, SEEK_END));
	ASSERT_EQ(0, sel_set_enforcing(0));
}

FIXTURE_TEARDOWN(permissive)
{
	if (self->kmsg >= 0)
		close(self->kmsg);
	if (self->ratelimit[0])
		write_text("/proc/sys/kernel/printk_ratelimit",
			   self->ratelimit);
	if (!sel_unusable())
		EXPECT_EQ(0, sel_set_enforcing(1));
}

/* Waits (bounded) for a kernel log record containing all of @words. */
static bool kmsg_wait(int fd, const char *const *words, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char rec[8192];

	for (;;) {
		ssize_t n = read(fd, rec, sizeof(rec) - 1);
		int i;

		if (n < 0 && errno == EPIPE)
			continue; /* overwritten records: go on reading */
		if (n < 0 && errno == EAGAIN) {
			/* The audit thread prints later: wait for it. */
			if (poll(&pfd, 1, ms) <= 0)
				return false;
			continue;
		}
		if (n <= 0)
			return false;
		rec[n] = '\0';
		for (i = 0; words[i] && strstr(rec, words[i]); i++)
			;
		if (!words[i])
			return true;
	}
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
	EXPECT_TRUE(kmsg_wait(self->kmsg, words, PEER_WAIT_MS))
	{
		TH_LOG("no AVC denial for { send } with permissive=1 in the kernel log");
	}
}

TEST_HARNESS_MAIN
