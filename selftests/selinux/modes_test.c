// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux modes, booleans and reloads (policy part lsmconf-modes.cil):
 * - enforcing and permissive, globally and for one permissive domain
 *   (typepermissive): the decision on a permission the policy denies, and
 *   the AVC record the kernel logs for it (permissive=0/1);
 * - a boolean guarding a conditional rule: pending, committed, and kept
 *   across a policy reload;
 * - a reload that takes a sender's rule away while its message queue is
 *   open, with messages in it.
 * Every decision is computed by the model below and written as a record
 * modes_test/FIXTURE.VARIANT.TEST/OP (a bools case: OP is STEP/WHAT).
 *
 * The guest has no auditd: kauditd prints every AVC record to the kernel
 * log (kauditd_hold_skb -> kauditd_printk_skb), read here from /dev/kmsg.
 * Each access is made by a task whose comm is a fresh marker, and the
 * records are read up to a sentinel (an access that is always logged, made
 * after the others): the audit queue is printed in order, so a marker
 * without a record before the sentinel was not logged.
 */

#define _GNU_SOURCE
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_log.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/worker.h"

#define LEVEL "s0"
#define MSG_TEXT "lsmconf modes payload"
#define QUEUE "lsmconf_md_q_t"
#define MD_OK "lsmconf_md_ok_t"
#define MD_PLAIN "lsmconf_md_plain_t"
#define MD_PERM "lsmconf_md_perm_t"
#define MD_BOOL "lsmconf_md_bool_t"
#define MD_DROP "lsmconf_md_drop_t"
#define BOOL_GRANT "lsmconf_md_grant"
#define BOOL_GONE "lsmconf_md_gone"
#define BASE "lsmconf-c4.bin"
#define VARIANT "lsmconf-c4-modes.bin"
#define ABI "selinux-c4"
/* In the AVC record of an op: no record at all. */
#define NO_RECORD (-ENODATA)

/*
 * The booleans and their defaults in lsmconf-modes.cil. The kernel keeps a
 * boolean's value across a reload (security_preserve_bools), so every case
 * that changes one sets it back to this: the next test binary loads the
 * same policy and would find the value.
 */
static const struct {
	const char *name;
	int def;
} bools[] = { { BOOL_GRANT, 0 }, { BOOL_GONE, 0 } };

/* @name (BASE or VARIANT) in place: 0 or -errno. */
static int policy_need(const char *name)
{
	long long ms;
	int ret = sel_need_named(name, &ms);

	return ret < 0 ? ret : 0;
}

/* Sets a boolean and commits it: 0 or -errno. */
static int bool_set(const char *name, int value)
{
	if (security_set_boolean(name, value) || security_commit_booleans())
		return -errno;
	return 0;
}

/* Puts every boolean of this part back to its default (see bools[]). */
static int bools_reset(void)
{
	int i, ret = 0;

	for (i = 0; i < (int)ARRAY_SIZE(bools); i++) {
		char path[128];
		struct stat st;

		/* A policy without it (VARIANT) has nothing to set. */
		snprintf(path, sizeof(path), SEL_FS "/booleans/%s",
			 bools[i].name);
		if (stat(path, &st))
			continue;
		if (security_set_boolean(bools[i].name, bools[i].def))
			ret = -errno;
	}
	if (security_commit_booleans())
		ret = -errno;
	return ret;
}

/*
 * The active value of a boolean (0/1), its pending one in *pending, or
 * -errno (-ENOENT when the policy has no such boolean).
 */
static int bool_get(const char *name, int *pending)
{
	char path[128], val[16];
	int cur, pend;
	ssize_t ret;

	snprintf(path, sizeof(path), SEL_FS "/booleans/%s", name);
	ret = read_text(path, val, sizeof(val));
	if (ret < 0)
		return ret;
	/* sel_read_bool(): "<active> <pending>" */
	if (sscanf(val, "%d %d", &cur, &pend) != 2)
		return -EINVAL;
	if (pending)
		*pending = pend;
	return cur;
}

/* The test's AF_UNIX sockets, made by this task as QUEUE. */
struct servers {
	int dgram, stream;
	struct sockaddr_un dg_addr, st_addr;
	socklen_t dg_len, st_len;
};

/*
 * socket() labels the socket with the task's sockcreate context when it
 * has one (selinux_socket_create -> socket_sockcreate_sid), so these carry
 * QUEUE. process setsockcreate is not in the policy: allowed.
 */
static int servers_open(struct servers *s)
{
	int ret = 0;

	s->dgram = s->stream = -1;
	if (setsockcreatecon(SEL_USER_ROLE QUEUE ":" LEVEL))
		return -errno;
	s->dg_len = sel_abstract_addr(&s->dg_addr, "lsmconf-sel-md-dgram-%d",
				      getpid());
	s->st_len = sel_abstract_addr(&s->st_addr, "lsmconf-sel-md-stream-%d",
				      getpid());
	s->dgram = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	s->stream = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s->dgram < 0 || s->stream < 0 ||
	    bind(s->dgram, (void *)&s->dg_addr, s->dg_len) ||
	    bind(s->stream, (void *)&s->st_addr, s->st_len) ||
	    listen(s->stream, 16))
		ret = -errno;
	if (setsockcreatecon(NULL) && !ret)
		ret = -errno;
	return ret;
}

static void servers_close(struct servers *s)
{
	if (s->dgram >= 0)
		close(s->dgram);
	if (s->stream >= 0)
		close(s->stream);
}

/*
 * An actor: a child in one domain that does what it is told, one command
 * at a time, under the comm (task name) it is given, and answers with the
 * outcome (0 or -errno).
 *   e  enter the actor's domain (its first command)
 *   k  create the queue with key (msgget IPC_CREAT|IPC_EXCL)
 *   g  open it (msgget)
 *   q  msgsnd one message of type mtype (1 when 0) on the open queue
 *   r  msgrcv the first message (IPC_NOWAIT), which must be MSG_TEXT of
 *      type mtype (any when 0)
 *   d  sendto() the dgram server from a new unconnected socket
 *   c  connect() a new stream socket to the stream server
 */
struct cmd {
	char op;
	key_t key;
	long mtype;
	char comm[16];
};

/* An actor is a worker (worker.h) with this state in its child. */
struct actor {
	struct worker w;
	const char *domain;
	const struct servers *s;
	int id; /* the queue it opened, in the child */
};

static int actor_step(const struct cmd *c, const struct servers *s, int *id)
{
	struct sel_msg m = { .mtype = c->mtype ? c->mtype : 1,
			     .text = MSG_TEXT };
	int fd, err;
	ssize_t n;

	switch (c->op) {
	case 'k':
	case 'g':
		*id = msgget(c->key,
			     c->op == 'k' ? IPC_CREAT | IPC_EXCL | 0600 : 0);
		return sys_ret(*id);
	case 'q':
		return sys_ret(msgsnd(*id, &m, sizeof(MSG_TEXT), IPC_NOWAIT));
	case 'r':
		memset(m.text, 0, sizeof(m.text));
		n = msgrcv(*id, &m, sizeof(m.text), 0, IPC_NOWAIT);
		if (n < 0)
			return -errno;
		/* A message that is not what was sent is no success. */
		if (n != sizeof(MSG_TEXT) || strcmp(m.text, MSG_TEXT) ||
		    (c->mtype && m.mtype != c->mtype))
			return -EBADMSG;
		return 0;
	case 'd':
	case 'c':
		fd = socket(AF_UNIX,
			    (c->op == 'd' ? SOCK_DGRAM : SOCK_STREAM) |
				    SOCK_CLOEXEC,
			    0);
		if (fd < 0)
			return -errno;
		if (c->op == 'd')
			err = sys_ret(sendto(fd, MSG_TEXT, sizeof(MSG_TEXT),
					     MSG_DONTWAIT, (void *)&s->dg_addr,
					     s->dg_len));
		else
			err = sys_ret(
				connect(fd, (void *)&s->st_addr, s->st_len));
		close(fd);
		return err;
	}
	return -EINVAL;
}

/* 'e' enters the actor's domain; any other op is a step under its comm. */
static void actor_serve(const void *request, void *reply, void *state)
{
	const struct cmd *c = request;
	struct actor *a = state;
	int *err = reply;

	if (c->op == 'e') {
		*err = sel_enter(a->domain, LEVEL);
		return;
	}
	if (c->comm[0])
		prctl(PR_SET_NAME, c->comm);
	*err = actor_step(c, a->s, &a->id);
}

/* One command; the outcome, or -ETIMEDOUT when the actor did not answer. */
static int actor_do_type(struct actor *a, char op, key_t key, long mtype,
			 const char *comm)
{
	struct cmd c = { .op = op, .key = key, .mtype = mtype };
	int err;

	if (comm)
		snprintf(c.comm, sizeof(c.comm), "%s", comm);
	if (worker_run(&a->w, &c, &err))
		return -ETIMEDOUT;
	return err;
}

static int actor_do(struct actor *a, char op, key_t key, const char *comm)
{
	return actor_do_type(a, op, key, 0, comm);
}

/* Starts an actor in @domain: 0 once it is there, or -errno. */
static int actor_start(struct actor *a, const char *domain,
		       const struct servers *s)
{
	int err;

	a->w.pid = 0; /* nothing to stop until the worker runs */
	a->domain = domain;
	a->s = s;
	a->id = -1;
	err = worker_start(&a->w, sizeof(struct cmd), sizeof(int), actor_serve,
			   a);
	return err ? err : actor_do(a, 'e', 0, NULL);
}

static void actor_stop(struct actor *a)
{
	worker_stop(&a->w);
}

/* A queue owned by QUEUE: its key, or -errno. */
static key_t queue_create(const struct servers *s)
{
	struct actor q;
	key_t key = -EEXIST;
	int i, err = -EEXIST;

	if (actor_start(&q, QUEUE, s))
		return -ESRCH;
	for (i = 0; i < 64 && err == -EEXIST; i++) {
		key = (key_t)(0x4d440000 | ((getpid() + i * 7919) & 0xffff));
		err = actor_do(&q, 'k', key, NULL);
	}
	actor_stop(&q);
	return err ? err : key;
}

static void queue_remove(key_t key)
{
	int id = key > 0 ? msgget(key, 0) : -1;

	if (id >= 0)
		msgctl(id, IPC_RMID, NULL);
}

/* A comm no other task has: "md" pid "x" sequence number. */
static void marker(char comm[16], int *seq)
{
	snprintf(comm, 16, "md%05dx%02d", getpid() % 100000, (*seq)++ % 100);
}

/*
 * Reads the kernel log (from where @fd is) up to the AVC record of
 * @sentinel and sets, for each of the @n markers, what its record said:
 * 0 permissive=1, -EACCES permissive=0, NO_RECORD none, -EEXIST more than
 * one. Returns 0, or -ETIMEDOUT when the sentinel's record did not come.
 */
static int kmsg_collect(int fd, const char *sentinel, char (*marks)[16], int n,
			int *seen)
{
	char rec[8192], want[32];
	int i;

	for (i = 0; i < n; i++)
		seen[i] = NO_RECORD;
	for (;;) {
		int len = kmsg_next(fd, rec, sizeof(rec), KMSG_WAIT_MS);
		const char *p;

		if (len < 0)
			return len;
		if (!strstr(rec, "avc:  denied"))
			continue;
		snprintf(want, sizeof(want), "comm=\"%s\"", sentinel);
		if (strstr(rec, want))
			return 0;
		for (i = 0; i < n; i++) {
			snprintf(want, sizeof(want), "comm=\"%s\"", marks[i]);
			if (!strstr(rec, want))
				continue;
			p = strstr(rec, " permissive=");
			if (seen[i] != NO_RECORD)
				seen[i] = -EEXIST;
			else if (p)
				seen[i] = p[12] == '1' ? 0 : -EACCES;
			else
				seen[i] = -EINVAL;
		}
	}
}

/*
 * The sentinel: lsmconf_md_plain_t sends to the dgram server while the
 * system enforces. A denial in enforcing mode for a domain that is not
 * permissive is never turned into a grant in the AVC (avc_denied returns
 * -EACCES before avc_update_node), so it is logged every time.
 */
static int sentinel(const struct servers *s, const char *comm)
{
	struct actor a;
	int err = actor_start(&a, MD_PLAIN, s);

	if (!err)
		err = actor_do(&a, 'd', 0, comm);
	actor_stop(&a);
	return err == -EACCES ? 0 : -EPROTO;
}

/* The kernel log, read from its end; printk's rate limit off. */
struct klog {
	int fd;
	char ratelimit[32];
};

static int klog_open(struct klog *k)
{
	int ret = kmsg_unlimit(k->ratelimit, sizeof(k->ratelimit));

	k->fd = ret ? -1 : kmsg_open_end();
	return ret ?: k->fd < 0 ? k->fd : 0;
}

static void klog_close(struct klog *k)
{
	if (k->fd >= 0)
		close(k->fd);
	kmsg_relimit(k->ratelimit);
}

/*
 * Empties the AVC: switching to enforcing flushes it (sel_write_enforce
 * -> avc_ss_reset, only on a change), so a grant an earlier case left in
 * it (see the model) does not hide this case's first denial.
 */
static int avc_flush(void)
{
	int ret = sel_set_enforcing(0);

	return ret ? ret : sel_set_enforcing(1);
}

/*
 * Modes. What the policy holds (lsmconf-modes.cil), per sender domain and
 * the permission it asks for on QUEUE's queue or socket:
 *   msgsnd   msg send (selinux_msg_queue_msgsnd; msgq write and the
 *            queue's enqueue are held by all)
 *   sendto   unix_dgram_socket sendto, from the sending socket to the
 *            server's (selinux_socket_unix_may_send)
 *   connect  unix_stream_socket connectto (selinux_socket_unix_stream_connect)
 * ok holds all three; plain and perm none; perm is a permissive domain.
 *
 * The decision (avc_has_perm -> avc_denied): a permission the policy
 * holds is allowed; one it lacks is denied when the system enforces and
 * the domain is not permissive (AVD_FLAGS_PERMISSIVE, set by
 * context_struct_compute_av for a typepermissive source type), allowed
 * otherwise.
 *
 * The AVC record (avc_audit -> slow_avc_audit): every denial the policy
 * makes is logged, with permissive=0 when it was enforced and
 * permissive=1 when not. But a denial that is not enforced is also
 * written into the AVC as a grant (avc_denied -> avc_update_node
 * (AVC_CALLBACK_GRANT)): the same access again (same source, target,
 * class) is found allowed in the cache and not logged, until the AVC is
 * flushed (policy load, setenforce 1). An enforced denial stays a denial
 * and is logged every time. (The AVC could also drop the node to reclaim
 * memory, avc_reclaim_node past avc_cache_threshold; a case makes four
 * accesses in an idle guest, far below the threshold of 512.)
 */
enum { ACCESS_1, ACCESS_2, N_ACCESS };

struct mode_case {
	bool enforcing;
	const char *domain;
	char op; /* 'q' msgsnd, 'd' sendto, 'c' connect */
};

static const char *access_name(char op)
{
	return op == 'q' ? "msgsnd" : op == 'd' ? "sendto" : "connect";
}

static const char *access_perm(char op)
{
	return op == 'q' ? "msg:send" :
	       op == 'd' ? "unix_dgram_socket:sendto" :
			   "unix_stream_socket:connectto";
}

static void mode_model(const struct mode_case *c, int decision[N_ACCESS],
		       int avc[N_ACCESS])
{
	bool held = !strcmp(c->domain, MD_OK);
	bool permissive = !c->enforcing || !strcmp(c->domain, MD_PERM);
	bool granted_in_avc = false;
	int i;

	for (i = 0; i < N_ACCESS; i++) {
		if (held || granted_in_avc) {
			decision[i] = 0;
			avc[i] = NO_RECORD;
			continue;
		}
		decision[i] = permissive ? 0 : -EACCES;
		/* permissive=1 reads as "let through": 0; permissive=0 EACCES */
		avc[i] = decision[i];
		granted_in_avc = permissive;
	}
}

FIXTURE(modes)
{
	struct servers srv;
	struct klog klog;
	key_t key;
	bool mode_changed;
};

FIXTURE_VARIANT(modes)
{
	struct mode_case c;
};

/*
 * One named variant: the mode (enforcing, permissive), the sender domain
 * lsmconf_md_<d>_t and the access. NAME is written out so that a printed
 * case name greps to its line; the build fails when it is not
 * <mode>_<d>_<access>.
 */
#define MODE_CASE(NAME, mode, d, access, enf, op_)                \
	enum { NAME##__variant = 1 };                             \
	static_assert(mode##_##d##_##access##__variant,           \
		      #NAME " is not " #mode "_" #d "_" #access); \
	FIXTURE_VARIANT_ADD(modes, NAME)                          \
	{                                                         \
		.c = { .enforcing = enf,                          \
		       .domain = "lsmconf_md_" #d "_t",           \
		       .op = op_ },                               \
	}

/* clang-format off */
MODE_CASE(enforcing_ok_msgsnd, enforcing, ok, msgsnd, true, 'q');
MODE_CASE(enforcing_plain_msgsnd, enforcing, plain, msgsnd, true, 'q');
MODE_CASE(enforcing_perm_msgsnd, enforcing, perm, msgsnd, true, 'q');
MODE_CASE(permissive_ok_msgsnd, permissive, ok, msgsnd, false, 'q');
MODE_CASE(permissive_plain_msgsnd, permissive, plain, msgsnd, false, 'q');
MODE_CASE(permissive_perm_msgsnd, permissive, perm, msgsnd, false, 'q');
MODE_CASE(enforcing_ok_sendto, enforcing, ok, sendto, true, 'd');
MODE_CASE(enforcing_plain_sendto, enforcing, plain, sendto, true, 'd');
MODE_CASE(enforcing_perm_sendto, enforcing, perm, sendto, true, 'd');
MODE_CASE(permissive_ok_sendto, permissive, ok, sendto, false, 'd');
MODE_CASE(permissive_plain_sendto, permissive, plain, sendto, false, 'd');
MODE_CASE(permissive_perm_sendto, permissive, perm, sendto, false, 'd');
MODE_CASE(enforcing_ok_connect, enforcing, ok, connect, true, 'c');
MODE_CASE(enforcing_plain_connect, enforcing, plain, connect, true, 'c');
MODE_CASE(enforcing_perm_connect, enforcing, perm, connect, true, 'c');
MODE_CASE(permissive_ok_connect, permissive, ok, connect, false, 'c');
MODE_CASE(permissive_plain_connect, permissive, plain, connect, false, 'c');
MODE_CASE(permissive_perm_connect, permissive, perm, connect, false, 'c');
/* clang-format on */

FIXTURE_SETUP(modes)
{
	const char *why = sel_unusable();

	self->srv.dgram = self->srv.stream = self->klog.fd = -1;
	self->key = -1;
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, policy_need(BASE));
	ASSERT_EQ(0, servers_open(&self->srv));
	self->key = queue_create(&self->srv);
	ASSERT_LT(0, self->key);
	ASSERT_EQ(0, klog_open(&self->klog));
	ASSERT_EQ(0, avc_flush());
	/* Last: the teardown must find the mode to restore. */
	self->mode_changed = true;
	ASSERT_EQ(0, sel_set_enforcing(variant->c.enforcing));
}

FIXTURE_TEARDOWN(modes)
{
	/* Enforcing again, whatever happened in the case. */
	if (self->mode_changed)
		EXPECT_EQ(0, sel_set_enforcing(1));
	klog_close(&self->klog);
	servers_close(&self->srv);
	queue_remove(self->key);
}

TEST_F(modes, twice)
{
	const struct mode_case *c = &variant->c;
	int decision[N_ACCESS], avc[N_ACCESS], got[N_ACCESS], seen[N_ACCESS];
	char marks[N_ACCESS][16], end[16], op[32];
	struct record rec = {
		.abi = ABI,
		.subject = c->domain,
		.object = QUEUE,
		.class = "mode",
	};
	struct actor a;
	int seq = 0, i, err, opened = 0;

	mode_model(c, decision, avc);
	ASSERT_EQ(c->enforcing, sel_enforcing());
	ASSERT_EQ(0, actor_start(&a, c->domain, &self->srv));
	/* msgsnd needs the queue open (msgq associate: held by all). */
	if (c->op == 'q')
		opened = actor_do(&a, 'g', self->key, NULL);
	for (i = 0; i < N_ACCESS; i++) {
		marker(marks[i], &seq);
		got[i] = opened ? NOT_RUN :
				  actor_do(&a, c->op, self->key, marks[i]);
	}
	actor_stop(&a);
	/* The sentinel needs enforcing: the case is over, restore it. */
	ASSERT_EQ(0, sel_set_enforcing(1));
	marker(end, &seq);
	ASSERT_EQ(0, sentinel(&self->srv, end));
	err = kmsg_collect(self->klog.fd, end, marks, N_ACCESS, seen);
	EXPECT_EQ(0, err)
	{
		TH_LOG("no AVC record for the sentinel %s in the kernel log",
		       end);
	}

	if (c->op == 'q') {
		rec.op = "msgget";
		rec.depends = "msgq:associate";
		rec.expected = 0;
		rec.observed = opened;
		JUDGE(&rec);
	}
	for (i = 0; i < N_ACCESS; i++) {
		snprintf(op, sizeof(op), "%s%d", access_name(c->op), i + 1);
		rec.class = "mode";
		rec.op = op;
		rec.depends = access_perm(c->op);
		rec.expected = decision[i];
		rec.observed = got[i];
		JUDGE(&rec);
		/*
		 * The record of the access's AVC line: allow = logged with
		 * permissive=1, EACCES = permissive=0, ENODATA = none. The
		 * record says not-run when the log could not be read; the
		 * verdict still compares what was seen.
		 */
		snprintf(op, sizeof(op), "avc.%s%d", access_name(c->op), i + 1);
		rec.class = "avc";
		rec.expected = avc[i];
		rec.observed = err ? NOT_RUN : seen[i];
		EXPECT_EQ(0, record_put(case_name(_metadata), &rec));
		EXPECT_EQ(avc[i], seen[i])
		{
			TH_LOG("%s (comm %s): expected %s, observed %s", op,
			       marks[i], outcome_name(avc[i]),
			       outcome_name(seen[i]));
		}
	}
}

/*
 * Booleans. lsmconf_md_bool_t may send to QUEUE's queue while
 * BOOL_GRANT is true (a booleanif rule), sendto QUEUE's dgram socket while
 * BOOL_GONE is true; both are false by default.
 *
 * From security/selinux/selinuxfs.c and ss/services.c:
 * - writing booleans/NAME only sets the pending value (sel_write_bool ->
 *   bool_pending_values); decisions change on a write to
 *   commit_pending_bools (security_set_bools, which re-evaluates the
 *   conditional rules, evaluate_cond_nodes, and resets the AVC);
 * - a policy load keeps the active value of every boolean the new policy
 *   still has, by name (security_preserve_bools); a boolean the new policy
 *   lacks is gone, and comes back at its default with a later policy that
 *   has it;
 * - a load rebuilds booleans/ from the new policy's active values
 *   (sel_make_bools): a pending value not committed is dropped.
 */
struct bool_state {
	int grant, gone; /* active: 0/1; gone -ENOENT when not in policy */
	int grant_pending;
};

FIXTURE(bools)
{
	struct servers srv;
	key_t key;
	struct actor a;
	int seq;
	bool changed;
};

FIXTURE_SETUP(bools)
{
	const char *why = sel_unusable();

	self->srv.dgram = self->srv.stream = -1;
	self->key = -1;
	self->a.w.pid = 0;
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, policy_need(BASE));
	ASSERT_EQ(1, sel_enforcing());
	ASSERT_EQ(0, servers_open(&self->srv));
	self->key = queue_create(&self->srv);
	ASSERT_LT(0, self->key);
	self->changed = true;
	/* Defaults, whatever an earlier run left. */
	ASSERT_EQ(0, bools_reset());
	ASSERT_EQ(0, actor_start(&self->a, MD_BOOL, &self->srv));
	/* The queue stays open in the actor through the whole case. */
	ASSERT_EQ(0, actor_do(&self->a, 'g', self->key, NULL));
}

FIXTURE_TEARDOWN(bools)
{
	actor_stop(&self->a);
	if (self->changed) {
		/* The base policy at the defaults, for the next binary. */
		EXPECT_EQ(0, policy_need(BASE));
		EXPECT_EQ(0, bools_reset());
	}
	servers_close(&self->srv);
	queue_remove(self->key);
}

/* A boolean's value as an outcome: allow = true, EPERM = false, -errno. */
static int bool_outcome(int v)
{
	return v == 1 ? 0 : v == 0 ? -EPERM : v;
}

/* One decision of a boolean step: the op names the step (one case, many). */
static void bool_judge(struct __test_metadata *_metadata, const char *step,
		       const char *what, const char *object,
		       const char *depends, int expected, int observed)
{
	char op[64];
	struct record rec = {
		.abi = ABI,
		.subject = MD_BOOL,
		.object = object,
		.class = "bool",
		.op = op,
		.depends = depends,
		.expected = expected,
		.observed = observed,
	};

	snprintf(op, sizeof(op), "%s/%s", step, what);
	JUDGE(&rec);
}

/*
 * One step of a boolean case: reads the booleans back and makes the two
 * accesses they guard; records and checks each against @want.
 */
static void bool_step(struct __test_metadata *_metadata,
		      FIXTURE_DATA(bools) * self, const char *step,
		      const struct bool_state *want)
{
	struct bool_state got = { 0 };
	int want_q = want->grant == 1 ? 0 : -EACCES;
	int want_d = want->gone == 1 ? 0 : -EACCES;
	int got_q, got_d;
	char comm[16];

	got.grant = bool_get(BOOL_GRANT, &got.grant_pending);
	got.gone = bool_get(BOOL_GONE, NULL);
	marker(comm, &self->seq);
	got_q = actor_do(&self->a, 'q', 0, comm);
	marker(comm, &self->seq);
	got_d = actor_do(&self->a, 'd', 0, comm);

	bool_judge(_metadata, step, "active", BOOL_GRANT, "-",
		   bool_outcome(want->grant), bool_outcome(got.grant));
	bool_judge(_metadata, step, "pending", BOOL_GRANT, "-",
		   bool_outcome(want->grant_pending),
		   bool_outcome(got.grant_pending));
	bool_judge(_metadata, step, "gone.active", BOOL_GONE, "-",
		   bool_outcome(want->gone), bool_outcome(got.gone));
	bool_judge(_metadata, step, "msgsnd", QUEUE, "msg:send", want_q, got_q);
	bool_judge(_metadata, step, "sendto", QUEUE, "unix_dgram_socket:sendto",
		   want_d, got_d);
}

/* Set, read back, commit, set back: run time only, no reload. */
TEST_F(bools, runtime)
{
	struct bool_state s = { 0 };

	bool_step(_metadata, self, "default", &s);
	/* Pending only: reads back as pending, decides nothing. */
	ASSERT_EQ(0, security_set_boolean(BOOL_GRANT, 1));
	s.grant_pending = 1;
	bool_step(_metadata, self, "pending", &s);
	ASSERT_EQ(0, security_commit_booleans());
	s.grant = 1;
	bool_step(_metadata, self, "committed", &s);
	ASSERT_EQ(0, bool_set(BOOL_GONE, 1));
	s.gone = 1;
	bool_step(_metadata, self, "both", &s);
	ASSERT_EQ(0, bool_set(BOOL_GRANT, 0));
	s.grant = s.grant_pending = 0;
	bool_step(_metadata, self, "grant_back", &s);
	ASSERT_EQ(0, bool_set(BOOL_GONE, 0));
	s.gone = 0;
	bool_step(_metadata, self, "gone_back", &s);
}

/*
 * Across reloads, the queue and the dgram server open all the while:
 * both booleans true, the base policy loaded again (both kept); the
 * variant (BOOL_GRANT kept, BOOL_GONE gone, with its rule); the base
 * again (BOOL_GONE back at its default, false). Then a pending value
 * not committed when a policy is loaded: dropped.
 */
TEST_F(bools, reload)
{
	struct bool_state s = { 0 };

	ASSERT_EQ(0, bool_set(BOOL_GRANT, 1));
	ASSERT_EQ(0, bool_set(BOOL_GONE, 1));
	s.grant = s.grant_pending = s.gone = 1;
	bool_step(_metadata, self, "set", &s);
	ASSERT_EQ(0, sel_load_named(BASE));
	bool_step(_metadata, self, "base_again", &s);
	ASSERT_EQ(0, sel_load_named(VARIANT));
	s.gone = -ENOENT;
	bool_step(_metadata, self, "variant", &s);
	ASSERT_EQ(0, sel_load_named(BASE));
	s.gone = 0;
	bool_step(_metadata, self, "base_back", &s);
	/* Pending false, not committed, then a load: still true. */
	ASSERT_EQ(0, security_set_boolean(BOOL_GRANT, 0));
	s.grant_pending = 0;
	bool_step(_metadata, self, "pending", &s);
	ASSERT_EQ(0, sel_load_named(BASE));
	s.grant_pending = 1;
	bool_step(_metadata, self, "pending_dropped", &s);
	ASSERT_EQ(0, bool_set(BOOL_GRANT, 0));
	s.grant = s.grant_pending = 0;
	bool_step(_metadata, self, "set_back", &s);
}

/*
 * A reload that takes lsmconf_md_drop_t's "msg send" away (VARIANT)
 * while its queue is open and holds a message it sent. SysV IPC keeps no
 * decision on an open queue: every msgsnd asks the policy in force
 * (selinux_msg_queue_msgsnd -> avc_has_perm; the load reset the AVC,
 * avc_ss_reset), so the existing queue and a new one are both refused;
 * opening (msgq associate, selinux_msg_queue_associate) is still held.
 * The message already in the queue is labelled (QUEUE's type,
 * selinux_msg_queue_msgsnd -> security_transition_sid) and read with
 * QUEUE's own msgq read / msg receive (selinux_msg_queue_msgrcv), which
 * the variant keeps: it is still received; nothing else is there.
 * lsmconf_md_ok_t's send is in both policies: still sent.
 * The socket side (a connected dgram whose sendto goes away) is
 * lifecycle_test's reload_after_connect.
 */
FIXTURE(reload)
{
	struct servers srv;
	key_t key, key2;
	bool changed;
};

FIXTURE_SETUP(reload)
{
	const char *why = sel_unusable();

	self->srv.dgram = self->srv.stream = -1;
	self->key = self->key2 = -1;
	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, policy_need(BASE));
	ASSERT_EQ(1, sel_enforcing());
	ASSERT_EQ(0, servers_open(&self->srv));
	self->key = queue_create(&self->srv);
	ASSERT_LT(0, self->key);
	self->changed = true;
}

FIXTURE_TEARDOWN(reload)
{
	if (self->changed)
		EXPECT_EQ(0, policy_need(BASE));
	servers_close(&self->srv);
	queue_remove(self->key);
	queue_remove(self->key2);
}

TEST_F(reload, queue_send_dropped)
{
	static const struct {
		char who; /* d drop sender, o ok sender, q queue owner */
		char op;
		long mtype; /* drop's messages are type 2, ok's 3 */
		const char *name;
		int want;
	} steps[] = {
		/* Before: the base policy holds drop's send. */
		{ 'd', 'g', 0, "existing.drop.msgget", 0 },
		{ 'd', 'q', 2, "existing.drop.msgsnd", 0 },
		{ 'w' },
		/* After the load of VARIANT: */
		{ 'd', 'q', 2, "existing.drop.msgsnd_after", -EACCES },
		{ 'o', 'g', 0, "existing.ok.msgget", 0 },
		{ 'o', 'q', 3, "existing.ok.msgsnd_after", 0 },
		/* The first message is drop's, sent before the load. */
		{ 'q', 'g', 0, "existing.owner.msgget", 0 },
		{ 'q', 'r', 2, "existing.owner.msgrcv_before", 0 },
		{ 'q', 'r', 3, "existing.owner.msgrcv_ok", 0 },
		{ 'q', 'r', 0, "existing.owner.msgrcv_empty", -ENOMSG },
		{ 'n' },
		{ 'd', 'g', 0, "new.drop.msgget", 0 },
		{ 'd', 'q', 2, "new.drop.msgsnd", -EACCES },
	};
	static const char who[] = "doq";
	static const char *const domain[] = { MD_DROP, MD_OK, QUEUE };
	int i, w, got, opened[3] = { NOT_RUN, NOT_RUN, NOT_RUN };
	struct record rec = { .abi = ABI, .object = QUEUE, .class = "msgq" };
	struct actor act[3];

	for (w = 0; w < 3; w++)
		ASSERT_EQ(0, actor_start(&act[w], domain[w], &self->srv));
	for (i = 0; i < (int)ARRAY_SIZE(steps); i++) {
		key_t key = self->key;
		const char *perm;

		if (steps[i].who == 'w') {
			ASSERT_EQ(0, sel_load_named(VARIANT));
			continue;
		}
		if (steps[i].who == 'n') {
			/* A queue made under the variant. */
			self->key2 = queue_create(&self->srv);
			ASSERT_LT(0, self->key2);
			continue;
		}
		if (self->key2 > 0 && !strncmp(steps[i].name, "new.", 4))
			key = self->key2;
		w = strchr(who, steps[i].who) - who;
		/* Each step after msgget needs the queue it opened. */
		if (steps[i].op != 'g' && opened[w])
			got = NOT_RUN;
		else
			got = actor_do_type(&act[w], steps[i].op, key,
					    steps[i].mtype, NULL);
		if (steps[i].op == 'g')
			opened[w] = got;
		perm = steps[i].op == 'g' ? "msgq:associate" :
		       steps[i].op == 'q' ? "msg:send" :
					    "msg:receive";
		rec.subject = domain[w];
		rec.op = steps[i].name;
		rec.depends = perm;
		rec.expected = steps[i].want;
		rec.observed = got;
		JUDGE(&rec);
	}
	for (w = 0; w < 3; w++)
		actor_stop(&act[w]);
}

LSM_HARNESS_MAIN
