// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux MLS/MCS: levels and ranges with category sets decide AF_UNIX and
 * System V message queue permissions through the mlsconstrain rules of
 * lsmconf-mls.cil; contexts outside the policy or the user's clearance are
 * refused by setcon()/setexeccon(); and the kernel writes every context it
 * returns in one canonical form.
 *
 * The expected outcome of every call is computed here from the two
 * contexts: a small model of security/selinux/ss/mls.c (levels as category
 * bitmaps, dominance as set containment, the parser of
 * mls_context_to_sid() and the printer of mls_sid_to_context()) and one C
 * function per constraint of the policy part.
 *
 * Records: mls_test/mls_pair.NAME.decide/OP (one per call of a
 * subject/object pair), mls_test/validity.NAME.setcon_and_exec/OP (setcon,
 * setexec, execve) and mls_test/canonical.NAME.read_back/OP (the context
 * write to selinuxfs, setcon); NAME starts with cN, the policy's categories.
 */

#define _GNU_SOURCE
#include <stdint.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/statvfs.h>
#include <sys/un.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/worker.h"

#define ROLE "lsmconf_r"
/* The user cleared for every category, and the one for s0-s0:c0,c1 only. */
#define USER "lsmconf_u"
#define NARROW_USER "lsmconf_mls_u"
/* The peer of every pair; the validity cases start in CTL. */
#define PEER "lsmconf_mls_t"
#define CTL "lsmconf_mls_ctl_t"
#define NOPE "lsmconf_mls_no_t"
#define MSG_TEXT "lsmconf mls payload"
/* argv[1] of this binary run as the exec helper (see exec_helper()). */
#define EXEC_HELPER_ARG "--lsmconf-mls-exec-helper"

#define MAX_CATS 1024
#define CTX_MAX 8192

/* The model of ss/mls.c. Every policy here has the one sensitivity s0. */
struct level {
	uint64_t cats[MAX_CATS / 64];
};

struct range {
	struct level lo, hi;
};

static bool cat_get(const struct level *l, int c)
{
	return l->cats[c / 64] >> (c % 64) & 1;
}

static void cat_set(struct level *l, int c)
{
	l->cats[c / 64] |= 1ULL << (c % 64);
}

/* mls_level_dom(): same sensitivity and a superset of the categories. */
static bool dom(const struct level *a, const struct level *b)
{
	int i;

	for (i = 0; i < MAX_CATS / 64; i++)
		if ((a->cats[i] & b->cats[i]) != b->cats[i])
			return false;
	return true;
}

static bool level_eq(const struct level *a, const struct level *b)
{
	return dom(a, b) && dom(b, a);
}

/* mls_level_incomp(): neither dominates the other. */
static bool incomp(const struct level *a, const struct level *b)
{
	return !dom(a, b) && !dom(b, a);
}

/* A category name of a policy with @ncats categories: "cN", N < ncats. */
static int parse_cat(const char *s, size_t len, int ncats)
{
	char name[16];
	int c;

	if (len < 2 || len > 6 || s[0] != 'c')
		return -EINVAL;
	if (sscanf(s + 1, "%d", &c) != 1 || c < 0 || c >= ncats)
		return -EINVAL;
	snprintf(name, sizeof(name), "c%d", c);
	/* symtab_search() takes the exact name: "c01" is no category. */
	if (strlen(name) != len || strncmp(name, s, len))
		return -EINVAL;
	return c;
}

/*
 * One level "s0[:CATS]", CATS a comma-separated list of cN and cA.cB
 * (A < B), as mls_context_to_sid() reads it: a range with A >= B is
 * -EINVAL, a category twice is set once.
 */
static int parse_level(const char *s, size_t len, int ncats, struct level *l)
{
	const char *p = s, *end = s + len;

	memset(l, 0, sizeof(*l));
	if (len < 2 || strncmp(s, "s0", 2) || (len > 2 && s[2] != ':'))
		return -EINVAL;
	if (len == 2)
		return 0;
	p = s + 3;
	while (p <= end) {
		const char *comma = memchr(p, ',', end - p), *dot;
		const char *stop = comma ? comma : end;
		int a, b, c;

		dot = memchr(p, '.', stop - p);
		a = parse_cat(p, (dot ? dot : stop) - p, ncats);
		if (a < 0)
			return a;
		b = a;
		if (dot) {
			b = parse_cat(dot + 1, stop - dot - 1, ncats);
			if (b < 0 || a >= b)
				return -EINVAL;
		}
		for (c = a; c <= b; c++)
			cat_set(l, c);
		p = stop + 1;
	}
	return 0;
}

/* "LOW[-HIGH]"; without HIGH the range is the one level. */
static int parse_range(const char *s, int ncats, struct range *r)
{
	const char *dash = strchr(s, '-');
	int ret;

	ret = parse_level(s, dash ? (size_t)(dash - s) : strlen(s), ncats,
			  &r->lo);
	if (ret)
		return ret;
	if (!dash) {
		r->hi = r->lo;
		return 0;
	}
	return parse_level(dash + 1, strlen(dash + 1), ncats, &r->hi);
}

/* The range each user of the policy is cleared for (userrange). */
static void user_range(const char *user, int ncats, struct range *r)
{
	int c;

	memset(r, 0, sizeof(*r));
	for (c = 0; c < (strcmp(user, USER) ? 2 : ncats); c++)
		cat_set(&r->hi, c);
}

/*
 * 0 when @user may hold @level on a policy with @ncats categories, or
 * -EINVAL as security_context_to_sid() answers: the text must parse, the
 * high level dominate the low (mls_range_isvalid), and the user's range
 * contain both (mls_context_isvalid, for every role but object_r).
 */
static int context_valid(const char *user, const char *level, int ncats,
			 struct range *r)
{
	struct range u;

	if (parse_range(level, ncats, r) || !dom(&r->hi, &r->lo))
		return -EINVAL;
	user_range(user, ncats, &u);
	if (!dom(&r->lo, &u.lo) || !dom(&u.hi, &r->hi))
		return -EINVAL;
	return 0;
}

/*
 * mls_sid_to_context(): "s0", then the categories in increasing order, a
 * run of three or more as "cA.cB", a run of two as "cA,cB" (the '.' is
 * written only when prev - head > 1), the first after ':' and the others
 * after ','; the high level after '-' only when it differs from the low.
 */
static void print_level(const struct level *l, char **out)
{
	int i, head = -2, prev = -2;

	*out += sprintf(*out, "s0");
	for (i = 0; i < MAX_CATS; i++) {
		if (!cat_get(l, i))
			continue;
		if (i - prev > 1) {
			if (prev != head)
				*out += sprintf(*out, "%cc%d",
						prev - head > 1 ? '.' : ',',
						prev);
			*out += sprintf(*out, "%cc%d", prev < 0 ? ':' : ',', i);
			head = i;
		}
		prev = i;
	}
	if (prev != head)
		*out += sprintf(*out, "%cc%d", prev - head > 1 ? '.' : ',',
				prev);
}

static void print_context(const char *user, const char *type,
			  const struct range *r, char *out)
{
	out += sprintf(out, "%s:" ROLE ":%s:", user, type);
	print_level(&r->lo, &out);
	if (!level_eq(&r->lo, &r->hi)) {
		*out++ = '-';
		print_level(&r->hi, &out);
	}
}

/*
 * The constraints of lsmconf-mls.cil between two lsmconf_mls_t contexts
 * (s subject, o object), one function each, with the hook that asks:
 */
/* unix_stream_socket connectto: (dom h1 h2): client socket -> listener
 * (selinux_socket_unix_stream_connect).
 */
static bool may_connectto(const struct range *s, const struct range *o)
{
	return dom(&s->hi, &o->hi);
}

/* unix_dgram_socket sendto: (or (eq l1 l2) (domby h1 l2)): sending
 * socket -> receiving socket (selinux_socket_unix_may_send).
 */
static bool may_sendto(const struct range *s, const struct range *o)
{
	return level_eq(&s->lo, &o->lo) || dom(&o->lo, &s->hi);
}

/* msgq associate: (dom h1 l2): task -> queue
 * (selinux_msg_queue_associate, from msgget()).
 */
static bool may_associate(const struct range *s, const struct range *q)
{
	return dom(&s->hi, &q->lo);
}

/* msgq unix_write and write: (domby l1 h2): task -> queue
 * (ipc_has_perm from ipcperms() in do_msgsnd(), then
 * selinux_msg_queue_msgsnd).
 */
static bool may_write(const struct range *s, const struct range *q)
{
	return dom(&q->hi, &s->lo);
}

/* msgq enqueue: (not (incomp l1 l2)): message -> queue
 * (selinux_msg_queue_msgsnd).
 */
static bool may_enqueue(const struct range *m, const struct range *q)
{
	return !incomp(&m->lo, &q->lo);
}

/* msg receive: (dom l1 l2): reading task -> message
 * (selinux_msg_queue_msgrcv, called for each message by find_msg()).
 */
static bool may_receive(const struct range *r, const struct range *m)
{
	return dom(&r->lo, &m->lo);
}

/*
 * The label a message gets (selinux_msg_queue_msgsnd ->
 * security_transition_sid(sender, queue, SECCLASS_MSG)): no
 * type_transition or range_transition rule applies, so
 * security_compute_sid() keeps the queue's type and mls_compute_sid()
 * gives an object class the sender's LOW level only (mls_context_cpy_low).
 */
static void message_range(const struct range *sender, struct range *m)
{
	m->lo = sender->lo;
	m->hi = sender->lo;
}

enum { OP_CONNECT, OP_SENDTO, OP_MSGGET, OP_MSGSND, OP_MSGRCV, N_OPS };

static const char *const op_names[N_OPS] = { "connect", "sendto", "msgget",
					     "msgsnd", "msgrcv" };
/* The permissions each call needs that a constraint of ours covers. */
/* clang-format off */
static const char *const op_perms[N_OPS] = {
	[OP_CONNECT] = "connectto",
	[OP_SENDTO] = "sendto",
	[OP_MSGGET] = "associate",
	[OP_MSGSND] = "unix_write,write,enqueue",
	[OP_MSGRCV] = "receive",
};
/* clang-format on */

struct pair_model {
	int expected[N_OPS];
	/* After a connect: the peer contexts each side reads. */
	char client_peer[CTX_MAX], server_peer[CTX_MAX];
};

/*
 * Every call of a pair: the subject (client, sender) at @s, the object
 * (listener, datagram socket and queue, created by one task) at @o, whose
 * user is @ouser.
 *   connect:  connectto, then security_sid_mls_copy() labels the
 *             listener's new child socket with the listener's user, role
 *             and type and the CLIENT's range: a context that must be
 *             valid, so a listener whose user is not cleared for the
 *             client's range makes the connect fail with EINVAL (enforcing:
 *             convert_context_handle_invalid_context). The client's
 *             SO_PEERSEC then reads that child's context, the server's the
 *             client socket's.
 *   sendto:   sendto on an unconnected datagram.
 *   msgget:   associate.
 *   msgsnd:   unix_write, write, then (send is not constrained) enqueue of
 *             the message; each denial is EACCES.
 *   msgrcv:   receive (unix_read and read on its own queue always hold):
 *             find_msg() passes over a message the reader may not receive,
 *             so msgrcv(IPC_NOWAIT) finds none: ENOMSG.
 * The accepted socket's own level decides nothing further here: a
 * connected stream's send and receive ask only permissions the policy
 * does not declare (handleunknown allow).
 */
static void expect_pair(const char *suser, const struct range *s,
			const char *ouser, const struct range *o,
			struct pair_model *m)
{
	struct range child, msg, u;

	m->expected[OP_CONNECT] = may_connectto(s, o) ? 0 : -EACCES;
	child = *s;
	user_range(ouser, MAX_CATS, &u);
	if (!m->expected[OP_CONNECT] && !dom(&u.hi, &child.hi))
		m->expected[OP_CONNECT] = -EINVAL;
	print_context(ouser, PEER, &child, m->client_peer);
	print_context(suser, PEER, s, m->server_peer);

	m->expected[OP_SENDTO] = may_sendto(s, o) ? 0 : -EACCES;

	message_range(s, &msg);
	m->expected[OP_MSGGET] = may_associate(s, o) ? 0 : -EACCES;
	if (m->expected[OP_MSGGET])
		m->expected[OP_MSGSND] = NOT_RUN;
	else if (!may_write(s, o) || !may_enqueue(&msg, o))
		m->expected[OP_MSGSND] = -EACCES;
	else
		m->expected[OP_MSGSND] = 0;
	if (m->expected[OP_MSGSND])
		m->expected[OP_MSGRCV] = NOT_RUN;
	else
		m->expected[OP_MSGRCV] = may_receive(o, &msg) ? 0 : -ENOMSG;
}

static int enter(const char *user, const char *type, const char *level)
{
	char ctx[CTX_MAX];

	snprintf(ctx, sizeof(ctx), "%s:" ROLE ":%s:%s", user, type, level);
	return setcon_raw(ctx) ? -errno : 0;
}

/* 0 and the peer's context of a connected socket in @out, or -errno. */
static int peer_context(int fd, char *out, size_t size)
{
	char *con;

	if (getpeercon_raw(fd, &con))
		return -errno;
	snprintf(out, size, "%s", con);
	freecon(con);
	return 0;
}

struct object_ready {
	int err;
	key_t key;
};

struct object_result {
	int accept_err, msgrcv_err;
	char peer[CTX_MAX];
};

struct subject_result {
	int enter_err;
	int err[N_OPS];
	char peer[CTX_MAX];
};

/* A peer at a context of its own (worker.h). */
struct mls_peer {
	const char *user, *level;
	int st, id; /* the object's listener and queue */
};

/* 'o' sets the object up; 'f' finishes it; 's' runs the subject. */
struct mls_req {
	char op;
	bool accept, read; /* 'f': what the subject's calls left to do */
	pid_t object; /* 's': whose sockets and queue */
	key_t key;
};

union mls_rep {
	struct object_ready ready;
	struct object_result res;
	struct subject_result sub;
};

/*
 * The object: a listening stream socket, a datagram socket and a message
 * queue, all made by one task at the object's context.
 */
static void object_setup(struct mls_peer *p, struct object_ready *r)
{
	struct sockaddr_un a;
	socklen_t len;
	int dg, i;

	p->id = -1;
	r->err = enter(p->user, PEER, p->level);
	if (r->err)
		return;
	p->st = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	dg = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (p->st < 0 || dg < 0)
		r->err = -errno;
	len = sel_abstract_addr(&a, "lsmconf-mls-%d-%c", getpid(), 's');
	if (!r->err)
		r->err = sys_ret(bind(p->st, (struct sockaddr *)&a, len));
	if (!r->err)
		r->err = sys_ret(listen(p->st, 1));
	len = sel_abstract_addr(&a, "lsmconf-mls-%d-%c", getpid(), 'd');
	if (!r->err)
		r->err = sys_ret(bind(dg, (struct sockaddr *)&a, len));
	for (i = 0; !r->err && i < 64; i++) {
		r->key = (key_t)(0x4d4c0000 | ((getpid() + i * 7919) & 0xffff));
		p->id = msgget(r->key, IPC_CREAT | IPC_EXCL | 0600);
		if (p->id >= 0 || errno != EEXIST)
			break;
	}
	if (!r->err && p->id < 0)
		r->err = -errno;
}

/* Then, as told, it accepts the client and reads the message. */
static void object_finish(const struct mls_peer *p, const struct mls_req *q,
			  struct object_result *res)
{
	struct sel_msg m;

	res->accept_err = res->msgrcv_err = NOT_RUN;
	if (q->accept) {
		int conn = -1;

		res->accept_err = wait_readable(p->st);
		if (!res->accept_err) {
			conn = accept4(p->st, NULL, NULL, SOCK_CLOEXEC);
			res->accept_err = sys_ret(conn);
		}
		if (!res->accept_err)
			res->accept_err = peer_context(conn, res->peer,
						       sizeof(res->peer));
	}
	if (q->read) {
		ssize_t n = msgrcv(p->id, &m, sizeof(m.text), 0, IPC_NOWAIT);

		res->msgrcv_err = n < 0 ? -errno : 0;
		/* A message that is not what was sent is no success. */
		if (!res->msgrcv_err &&
		    (n != sizeof(MSG_TEXT) || strcmp(m.text, MSG_TEXT)))
			res->msgrcv_err = -EBADMSG;
	}
	msgctl(p->id, IPC_RMID, NULL);
}

/* The subject: connects, sends a datagram, opens the queue and sends. */
static void subject_run(const struct mls_peer *p, const struct mls_req *q,
			struct subject_result *r)
{
	struct sel_msg m = { .mtype = 1, .text = MSG_TEXT };
	struct sockaddr_un a;
	socklen_t len;
	int fd, id, op;

	for (op = 0; op < N_OPS; op++)
		r->err[op] = NOT_RUN;
	r->enter_err = enter(p->user, PEER, p->level);
	if (r->enter_err)
		return;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	len = sel_abstract_addr(&a, "lsmconf-mls-%d-%c", q->object, 's');
	r->err[OP_CONNECT] = sys_ret(connect(fd, (struct sockaddr *)&a, len));
	if (!r->err[OP_CONNECT] && peer_context(fd, r->peer, sizeof(r->peer)))
		snprintf(r->peer, sizeof(r->peer), "(no peer context)");
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	len = sel_abstract_addr(&a, "lsmconf-mls-%d-%c", q->object, 'd');
	r->err[OP_SENDTO] =
		sys_ret(sendto(fd, MSG_TEXT, sizeof(MSG_TEXT), MSG_DONTWAIT,
			       (struct sockaddr *)&a, len));
	id = msgget(q->key, 0);
	r->err[OP_MSGGET] = sys_ret(id);
	if (!r->err[OP_MSGGET])
		r->err[OP_MSGSND] =
			sys_ret(msgsnd(id, &m, sizeof(MSG_TEXT), IPC_NOWAIT));
}

static void mls_serve(const void *request, void *reply, void *state)
{
	const struct mls_req *q = request;
	union mls_rep *r = reply;

	if (q->op == 'o')
		object_setup(state, &r->ready);
	else if (q->op == 'f')
		object_finish(state, q, &r->res);
	else
		subject_run(state, q, &r->sub);
}

/* Runs one pair; -1 when a peer could not run (a harness failure). */
static int run_pair(const char *suser, const char *slevel, const char *ouser,
		    const char *olevel, struct subject_result *sr,
		    struct object_result *orr)
{
	struct mls_peer op = { ouser, olevel }, sp = { suser, slevel };
	struct worker ow = { 0 }, sw = { 0 };
	struct mls_req q = { .op = 'o' };
	union mls_rep r;
	int ret = -1;

	if (worker_start(&ow, sizeof(q), sizeof(r), mls_serve, &op) ||
	    worker_start(&sw, sizeof(q), sizeof(r), mls_serve, &sp) ||
	    worker_run(&ow, &q, &r) || r.ready.err)
		goto out;
	q = (struct mls_req){ .op = 's', .object = ow.pid, .key = r.ready.key };
	if (worker_run(&sw, &q, &r) || r.sub.enter_err)
		goto out;
	*sr = r.sub;
	/* Accept only a connection, read only a message that was sent. */
	q = (struct mls_req){ .op = 'f',
			      .accept = !sr->err[OP_CONNECT],
			      .read = !sr->err[OP_MSGSND] };
	if (worker_run(&ow, &q, &r))
		goto out;
	*orr = r.res;
	ret = 0;
out:
	worker_stop(&sw);
	worker_stop(&ow);
	return ret;
}

/* Writes and judges one decision of the running case. */
static void judge_op(struct __test_metadata *_metadata, int cats,
		     const char *subject, const char *object, const char *class,
		     const char *op, const char *perm, int expected,
		     int observed)
{
	struct record rec = {
		.subject = subject,
		.object = object,
		.class = class,
		.op = op,
		.depends = perm,
		.expected = expected,
		.observed = observed,
	};
	char abi[32];

	snprintf(abi, sizeof(abi), "selinux-c%d", cats);
	rec.abi = abi;
	JUDGE(&rec);
}

FIXTURE(mls_pair)
{
	int unused;
};

FIXTURE_VARIANT(mls_pair)
{
	int cats;
	const char *subject; /* the subject's level (user lsmconf_u) */
	const char *object; /* the object's level */
	const char *object_user;
};

/* One named variant: subject level S against object level O on the
 * policy with N categories, the object's user lsmconf_u.
 */
/* The same with an object (the listener) of user lsmconf_mls_u. */
/*
 * The subject dominates the object, is dominated by it, equal to it or
 * incomparable; single categories, runs (c0.c3), the full set; ranges on
 * either side. On the 1024-category policy, categories in different
 * bitmap nodes (an ebitmap node holds 384 bits: c0 and c1023 are in the
 * first and the third).
 */
/* clang-format off */
FIXTURE_VARIANT_ADD(mls_pair, c4_eq_s0) {
	.cats = 4,
	.subject = "s0",
	.object = "s0",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_eq_c1) {
	.cats = 4,
	.subject = "s0:c1",
	.object = "s0:c1",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_eq_list_vs_run) {
	.cats = 4,
	.subject = "s0:c0,c1,c2,c3",
	.object = "s0:c0.c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_dom_run_over_c1) {
	.cats = 4,
	.subject = "s0:c0.c3",
	.object = "s0:c1",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_dom_full_over_c3) {
	.cats = 4,
	.subject = "s0:c0.c3",
	.object = "s0:c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_domby_c1_under_run) {
	.cats = 4,
	.subject = "s0:c1",
	.object = "s0:c0.c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_domby_s0_under_full) {
	.cats = 4,
	.subject = "s0",
	.object = "s0:c0.c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_incomp_c0_c1) {
	.cats = 4,
	.subject = "s0:c0",
	.object = "s0:c1",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_incomp_c3_c0) {
	.cats = 4,
	.subject = "s0:c3",
	.object = "s0:c0",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_incomp_overlap) {
	.cats = 4,
	.subject = "s0:c0,c1",
	.object = "s0:c1,c2",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_range_subject) {
	.cats = 4,
	.subject = "s0-s0:c0.c3",
	.object = "s0:c1",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_range_subject_low) {
	.cats = 4,
	.subject = "s0-s0:c1",
	.object = "s0:c0.c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_range_object) {
	.cats = 4,
	.subject = "s0:c1",
	.object = "s0-s0:c0.c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_range_both_incomp_low) {
	.cats = 4,
	.subject = "s0:c1-s0:c0,c1",
	.object = "s0:c0-s0:c0.c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_narrow_listener_in_range) {
	.cats = 4,
	.subject = "s0:c1",
	.object = "s0",
	.object_user = NARROW_USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c4_narrow_listener_out_of_range) {
	.cats = 4,
	.subject = "s0:c2",
	.object = "s0",
	.object_user = NARROW_USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_eq_s0) {
	.cats = 1024,
	.subject = "s0",
	.object = "s0",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_eq_c1023) {
	.cats = 1024,
	.subject = "s0:c1023",
	.object = "s0:c1023",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_eq_list_vs_run) {
	.cats = 1024,
	.subject = "s0:c0,c1,c2,c3",
	.object = "s0:c0.c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_dom_full_over_c1023) {
	.cats = 1024,
	.subject = "s0:c0.c1023",
	.object = "s0:c1023",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_dom_far_nodes) {
	.cats = 1024,
	.subject = "s0:c0,c1023",
	.object = "s0:c1023",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_domby_c1_under_run) {
	.cats = 1024,
	.subject = "s0:c1",
	.object = "s0:c0.c3",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_domby_s0_under_full) {
	.cats = 1024,
	.subject = "s0",
	.object = "s0:c0.c1023",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_domby_c0_under_far) {
	.cats = 1024,
	.subject = "s0:c0",
	.object = "s0:c0,c1023",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_incomp_c0_c1) {
	.cats = 1024,
	.subject = "s0:c0",
	.object = "s0:c1",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_incomp_c1023_c0) {
	.cats = 1024,
	.subject = "s0:c1023",
	.object = "s0:c0",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_incomp_c383_c384) {
	.cats = 1024,
	.subject = "s0:c383",
	.object = "s0:c384",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_range_subject) {
	.cats = 1024,
	.subject = "s0-s0:c0.c1023",
	.object = "s0:c1023",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_range_object) {
	.cats = 1024,
	.subject = "s0:c1023",
	.object = "s0-s0:c0.c1023",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_range_both_incomp_low) {
	.cats = 1024,
	.subject = "s0:c1023-s0:c0,c1023",
	.object = "s0:c0-s0:c0.c1023",
	.object_user = USER,
};

FIXTURE_VARIANT_ADD(mls_pair, c1024_narrow_listener_out_of_range) {
	.cats = 1024,
	.subject = "s0:c1023",
	.object = "s0",
	.object_user = NARROW_USER,
};

/* clang-format on */

FIXTURE_SETUP(mls_pair)
{
	SEL_SETUP(variant->cats);
}

FIXTURE_TEARDOWN(mls_pair)
{
}

TEST_F(mls_pair, decide)
{
	static struct pair_model m;
	static struct subject_result sr;
	static struct object_result orr;
	struct range s, o;
	char subject[CTX_MAX], object[CTX_MAX];
	int op;

	ASSERT_EQ(0, context_valid(USER, variant->subject, variant->cats, &s));
	ASSERT_EQ(0, context_valid(variant->object_user, variant->object,
				   variant->cats, &o));
	expect_pair(USER, &s, variant->object_user, &o, &m);
	ASSERT_EQ(0, run_pair(USER, variant->subject, variant->object_user,
			      variant->object, &sr, &orr));
	snprintf(subject, sizeof(subject), USER ":" ROLE ":" PEER ":%s",
		 variant->subject);
	snprintf(object, sizeof(object), "%s:" ROLE ":" PEER ":%s",
		 variant->object_user, variant->object);
	for (op = 0; op < N_OPS; op++) {
		int observed = op == OP_MSGRCV ? orr.msgrcv_err : sr.err[op];

		judge_op(_metadata, variant->cats, subject, object,
			 op < OP_MSGGET ? "unix" : "msgq", op_names[op],
			 op_perms[op], m.expected[op], observed);
	}
	if (!sr.err[OP_CONNECT] && !m.expected[OP_CONNECT]) {
		/* The child socket: the listener's type, the client's range. */
		EXPECT_STREQ(m.client_peer, sr.peer);
		EXPECT_EQ(0, orr.accept_err);
		EXPECT_STREQ(m.server_peer, orr.peer);
	}
}

/*
 * Context validity. A task in lsmconf_mls_ctl_t (s0) asks for a context:
 *   setcon(): /proc/self/attr/current (selinux_lsm_setattr, formerly
 *     selinux_setprocattr): setcurrent on itself (held), then
 *     security_context_to_sid(): EINVAL for a context the policy cannot
 *     hold (an unknown category, a bad range, a range outside the user's
 *     clearance); then dyntransition from the current SID to the new one:
 *     EACCES. A new level alone is a new SID and needs it too.
 *   setexeccon(): /proc/self/attr/exec: setexec (undeclared, allowed), the
 *     same EINVAL; the SID is checked only at execve():
 *     selinux_bprm_creds_for_exec(): check_nnp_nosuid() first (a changing
 *     SID under no_new_privs is EPERM, from a nosuid mount EACCES: no
 *     bounded types and no nnp_nosuid_transition here), then transition
 *     from the old SID to the new: EACCES; entrypoint and the rest are
 *     undeclared.
 * ctl_t may switch and exec into lsmconf_mls_t only.
 */
static bool may_transition(const char *from, const char *to)
{
	return !strcmp(from, CTL) && !strcmp(to, PEER);
}

enum { V_SETCON, V_SETEXEC, V_EXECVE, N_VOPS };

static const char *const vop_names[N_VOPS] = { "setcon", "setexec", "execve" };
static const char *const vop_perms[N_VOPS] = { "dyntransition", "-",
					       "transition" };

/* What blocks any exec that changes the SID, whatever the policy says. */
static int exec_sid_change_blocked(void)
{
	struct statvfs sv;

	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) == 1)
		return -EPERM;
	if (!statvfs("/proc/self/exe", &sv) && (sv.f_flag & ST_NOSUID))
		return -EACCES;
	return 0;
}

static void expect_validity(int cats, const char *user, const char *type,
			    const char *level, int expected[N_VOPS],
			    char *canonical)
{
	struct range r;
	int invalid = context_valid(user, level, cats, &r);

	canonical[0] = '\0';
	if (invalid) {
		expected[V_SETCON] = invalid;
		expected[V_SETEXEC] = invalid;
		expected[V_EXECVE] = NOT_RUN;
		return;
	}
	print_context(user, type, &r, canonical);
	expected[V_SETCON] = may_transition(CTL, type) ? 0 : -EACCES;
	expected[V_SETEXEC] = 0;
	expected[V_EXECVE] = exec_sid_change_blocked();
	if (!expected[V_EXECVE] && !may_transition(CTL, type))
		expected[V_EXECVE] = -EACCES;
}

/*
 * The task's context as the kernel prints it, read from procfs
 * (selinux_getprocattr -> security_sid_to_context). Not libselinux's
 * getcon(): it answers from a per-thread copy of the last string setcon()
 * wrote, whatever the kernel made of it.
 */
static int own_context(char *out, size_t size)
{
	ssize_t n = read_text("/proc/self/attr/current", out, size);

	return n < 0 ? n : 0;
}

/*
 * This binary run as "EXEC_HELPER_ARG FD": writes its own context to FD
 * and exits, before main(). The argument comes from /proc/self/cmdline.
 */
static void __attribute__((constructor)) exec_helper(void)
{
	char args[256], con[CTX_MAX];
	ssize_t n = read_text("/proc/self/cmdline", args, sizeof(args));
	const char *arg1, *arg2;
	int fd;

	if (n <= 0)
		return;
	arg1 = args + strlen(args) + 1;
	if (arg1 >= args + n || strcmp(arg1, EXEC_HELPER_ARG))
		return;
	arg2 = arg1 + strlen(arg1) + 1;
	if (arg2 >= args + n || sscanf(arg2, "%d", &fd) != 1)
		_exit(90);
	if (own_context(con, sizeof(con)))
		_exit(91);
	_exit(pipe_write(fd, con, strlen(con) + 1) ? 92 : 0);
}

struct validity_result {
	int err[N_VOPS];
	int status; /* of the exec helper */
	char context[CTX_MAX];
};

/* In a child in ctl_t: setcon(@ctx), or setexeccon(@ctx) and exec. */
/* A setcon() to a context, by a worker (worker.h) that starts in @from. */
struct setcon_peer {
	const char *from; /* a type at s0, or NULL: the harness's own */
	const char *ctx;
};

struct setcon_rep {
	int enter_err; /* a worker that cannot start in @from decides nothing */
	struct validity_result r;
};

static void setcon_serve(const void *request, void *reply, void *state)
{
	const struct setcon_peer *p = state;
	struct setcon_rep *out = reply;
	struct validity_result *r = &out->r;

	(void)request;
	r->err[V_SETEXEC] = r->err[V_EXECVE] = NOT_RUN;
	out->enter_err = p->from ? enter(USER, p->from, "s0") : 0;
	if (out->enter_err)
		return;
	r->err[V_SETCON] = setcon_raw(p->ctx) ? -errno : 0;
	if (!r->err[V_SETCON])
		own_context(r->context, sizeof(r->context));
}

/* 0 and the outcome in @r, or -1 when the worker did not answer. */
static int run_setcon(const char *from, const char *ctx,
		      struct validity_result *r)
{
	struct setcon_peer p = { from, ctx };
	struct worker w = { 0 };
	struct setcon_rep out;
	char go = 'g';
	int ret;

	ret = worker_start(&w, 1, sizeof(out), setcon_serve, &p) ||
	      worker_run(&w, &go, &out) || out.enter_err;
	worker_stop(&w);
	*r = out.r;
	return ret ? -1 : 0;
}

static int run_validity_exec(const char *ctx, struct validity_result *r)
{
	int out[2], rep[2], status = 0;
	pid_t pid;

	if (pipe2(out, O_CLOEXEC) || pipe2(rep, O_CLOEXEC))
		return -1;
	pid = peer_fork();
	if (pid == 0) {
		struct validity_result c = { .err = { NOT_RUN, NOT_RUN,
						      NOT_RUN } };
		char fdarg[16];

		if (enter(USER, CTL, "s0"))
			_exit(2);
		c.err[V_SETEXEC] = setexeccon_raw(ctx) ? -errno : 0;
		if (!c.err[V_SETEXEC]) {
			/* The helper writes to out[1]: keep it over exec. */
			if (fcntl(out[1], F_SETFD, 0))
				_exit(4);
			snprintf(fdarg, sizeof(fdarg), "%d", out[1]);
			execl("/proc/self/exe", "mls_test", EXEC_HELPER_ARG,
			      fdarg, (char *)NULL);
			c.err[V_EXECVE] = -errno;
		}
		_exit(pipe_write(rep[1], &c, sizeof(c)) ? 3 : 0);
	}
	close(out[1]);
	close(rep[1]);
	memset(r, 0, sizeof(*r));
	r->err[V_SETCON] = r->err[V_SETEXEC] = r->err[V_EXECVE] = NOT_RUN;
	/* The helper's context, or the child's report of what failed. */
	if (pid > 0 && pipe_read(out[0], r->context, 1, PEER_WAIT_MS) == 0) {
		size_t n = 1;

		while (n < sizeof(r->context) - 1 && r->context[n - 1] &&
		       !pipe_read(out[0], r->context + n, 1, PEER_WAIT_MS))
			n++;
		r->context[n] = '\0';
		r->err[V_SETEXEC] = 0;
		r->err[V_EXECVE] = 0;
	} else if (pid > 0 && pipe_read(rep[0], r, sizeof(*r), PEER_WAIT_MS)) {
		status = -1;
	}
	if (pid < 0) {
		status = -1;
	} else {
		r->status = peer_reap(pid);
		if (r->status)
			status = -1;
	}
	close(out[0]);
	close(rep[0]);
	return status;
}

FIXTURE(validity)
{
	int unused;
};

FIXTURE_VARIANT(validity)
{
	int cats;
	const char *user, *type, *level;
};

/* One named variant: the context USER:lsmconf_r:TYPE:LEVEL asked for from
 * lsmconf_mls_ctl_t on the policy with N categories.
 */
/* The 1024-category policy first: mls_pair ends with it loaded. */
/* clang-format off */
FIXTURE_VARIANT_ADD(validity, c1024_peer_c1023) {
	.cats = 1024,
	.user = USER,
	.type = PEER,
	.level = "s0:c1023",
};

FIXTURE_VARIANT_ADD(validity, c1024_peer_c1024_beyond_policy) {
	.cats = 1024,
	.user = USER,
	.type = PEER,
	.level = "s0:c1024",
};

FIXTURE_VARIANT_ADD(validity, c1024_peer_high_below_low) {
	.cats = 1024,
	.user = USER,
	.type = PEER,
	.level = "s0:c1023-s0:c0",
};

FIXTURE_VARIANT_ADD(validity, c1024_narrow_user_c1023) {
	.cats = 1024,
	.user = NARROW_USER,
	.type = PEER,
	.level = "s0:c1023",
};

FIXTURE_VARIANT_ADD(validity, c4_peer_c1) {
	.cats = 4,
	.user = USER,
	.type = PEER,
	.level = "s0:c1",
};

FIXTURE_VARIANT_ADD(validity, c4_peer_full_range) {
	.cats = 4,
	.user = USER,
	.type = PEER,
	.level = "s0-s0:c0.c3",
};

FIXTURE_VARIANT_ADD(validity, c4_peer_c4_beyond_policy) {
	.cats = 4,
	.user = USER,
	.type = PEER,
	.level = "s0:c4",
};

FIXTURE_VARIANT_ADD(validity, c4_peer_high_below_low) {
	.cats = 4,
	.user = USER,
	.type = PEER,
	.level = "s0:c1-s0:c0",
};

FIXTURE_VARIANT_ADD(validity, c4_peer_reversed_run) {
	.cats = 4,
	.user = USER,
	.type = PEER,
	.level = "s0:c2.c1",
};

FIXTURE_VARIANT_ADD(validity, c4_narrow_user_c0c1) {
	.cats = 4,
	.user = NARROW_USER,
	.type = PEER,
	.level = "s0:c0,c1",
};

FIXTURE_VARIANT_ADD(validity, c4_narrow_user_c2) {
	.cats = 4,
	.user = NARROW_USER,
	.type = PEER,
	.level = "s0:c2",
};

FIXTURE_VARIANT_ADD(validity, c4_narrow_user_high_c0c3) {
	.cats = 4,
	.user = NARROW_USER,
	.type = PEER,
	.level = "s0-s0:c0.c3",
};

FIXTURE_VARIANT_ADD(validity, c4_no_dyntransition_valid) {
	.cats = 4,
	.user = USER,
	.type = NOPE,
	.level = "s0",
};

FIXTURE_VARIANT_ADD(validity, c4_no_dyntransition_invalid) {
	.cats = 4,
	.user = USER,
	.type = NOPE,
	.level = "s0:c4",
};

FIXTURE_VARIANT_ADD(validity, c4_ctl_new_level_only) {
	.cats = 4,
	.user = USER,
	.type = CTL,
	.level = "s0:c1",
};

/* clang-format on */

FIXTURE_SETUP(validity)
{
	SEL_SETUP(variant->cats);
}

FIXTURE_TEARDOWN(validity)
{
}

TEST_F(validity, setcon_and_exec)
{
	static struct validity_result got_set, got_exec;
	int expected[N_VOPS], observed[N_VOPS], op;
	char ctx[CTX_MAX], canonical[CTX_MAX];

	snprintf(ctx, sizeof(ctx), "%s:" ROLE ":%s:%s", variant->user,
		 variant->type, variant->level);
	expect_validity(variant->cats, variant->user, variant->type,
			variant->level, expected, canonical);

	ASSERT_EQ(0, run_setcon(CTL, ctx, &got_set));
	EXPECT_EQ(0, run_validity_exec(ctx, &got_exec))
	{
		TH_LOG("exec helper: status 0x%x", got_exec.status);
	}

	observed[V_SETCON] = got_set.err[V_SETCON];
	observed[V_SETEXEC] = got_exec.err[V_SETEXEC];
	observed[V_EXECVE] = got_exec.err[V_EXECVE];
	for (op = 0; op < N_VOPS; op++) {
		judge_op(_metadata, variant->cats, CTL, ctx, "process",
			 vop_names[op], vop_perms[op], expected[op],
			 observed[op]);
	}
	/* The context the kernel reports back is the canonical one. */
	if (!expected[V_SETCON] && !observed[V_SETCON])
		EXPECT_STREQ(canonical, got_set.context);
	if (!expected[V_EXECVE] && !observed[V_EXECVE])
		EXPECT_STREQ(canonical, got_exec.context);
}

/*
 * Canonical form. The kernel turns a context into a SID and back
 * (security_context_to_sid, then security_sid_to_context ->
 * mls_sid_to_context) when it is written to /sys/fs/selinux/context
 * (sel_write_context: the reply is the canonical text with its NUL) and
 * when a task reads its own after setcon() (procfs, see own_context()).
 * The expected text is print_context() of the parsed input.
 */
FIXTURE(canonical)
{
	int unused;
};

FIXTURE_VARIANT(canonical)
{
	int cats;
	const char *level;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(canonical, c4_out_of_order) {
	.cats = 4,
	.level = "s0:c3,c1,c0,c2",
};

FIXTURE_VARIANT_ADD(canonical, c4_list_of_four) {
	.cats = 4,
	.level = "s0:c0,c1,c2,c3",
};

FIXTURE_VARIANT_ADD(canonical, c4_run_of_four) {
	.cats = 4,
	.level = "s0:c0.c3",
};

FIXTURE_VARIANT_ADD(canonical, c4_s0_s0) {
	.cats = 4,
	.level = "s0-s0",
};

FIXTURE_VARIANT_ADD(canonical, c4_duplicate) {
	.cats = 4,
	.level = "s0:c1,c1",
};

FIXTURE_VARIANT_ADD(canonical, c4_run_of_two) {
	.cats = 4,
	.level = "s0:c1.c2",
};

FIXTURE_VARIANT_ADD(canonical, c4_list_of_two) {
	.cats = 4,
	.level = "s0:c2,c1",
};

FIXTURE_VARIANT_ADD(canonical, c4_run_and_single) {
	.cats = 4,
	.level = "s0:c0.c1,c3",
};

FIXTURE_VARIANT_ADD(canonical, c4_gap) {
	.cats = 4,
	.level = "s0:c3,c0,c2",
};

FIXTURE_VARIANT_ADD(canonical, c4_overlapping_runs) {
	.cats = 4,
	.level = "s0:c0.c2,c1.c3",
};

FIXTURE_VARIANT_ADD(canonical, c4_range) {
	.cats = 4,
	.level = "s0:c0-s0:c0,c3,c2,c1",
};

FIXTURE_VARIANT_ADD(canonical, c4_equal_range) {
	.cats = 4,
	.level = "s0:c0.c3-s0:c3,c2,c1,c0",
};

FIXTURE_VARIANT_ADD(canonical, c4_reversed_run) {
	.cats = 4,
	.level = "s0:c2.c1",
};

FIXTURE_VARIANT_ADD(canonical, c4_beyond_policy) {
	.cats = 4,
	.level = "s0:c4",
};

FIXTURE_VARIANT_ADD(canonical, c1024_full) {
	.cats = 1024,
	.level = "s0-s0:c0.c1023",
};

FIXTURE_VARIANT_ADD(canonical, c1024_node_edges) {
	.cats = 1024,
	.level = "s0:c1023,c0,c385,c383,c384",
};

FIXTURE_VARIANT_ADD(canonical, c1024_runs_across_nodes) {
	.cats = 1024,
	.level = "s0:c380.c390,c767,c768,c1022,c1023",
};

FIXTURE_VARIANT_ADD(canonical, c1024_beyond_policy) {
	.cats = 1024,
	.level = "s0:c1024",
};

/* clang-format on */

FIXTURE_SETUP(canonical)
{
	SEL_SETUP(variant->cats);
}

FIXTURE_TEARDOWN(canonical)
{
}

/* Writes @ctx to selinuxfs' context file; the kernel's text in @out. */
static int canonicalize(const char *ctx, char *out, size_t size)
{
	int fd = open(SEL_FS "/context", O_RDWR | O_CLOEXEC), ret;
	ssize_t n;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, ctx, strlen(ctx) + 1);
	if (!ret) {
		n = read(fd, out, size - 1);
		ret = n < 0 ? -errno : 0;
		if (!ret)
			out[n] = '\0';
	}
	close(fd);
	return ret;
}

TEST_F(canonical, read_back)
{
	static struct validity_result got;
	static char ctx[CTX_MAX], canonical[CTX_MAX], written[CTX_MAX];
	struct range r;
	int expected, observed;

	snprintf(ctx, sizeof(ctx), USER ":" ROLE ":" PEER ":%s",
		 variant->level);
	expected = context_valid(USER, variant->level, variant->cats, &r);
	canonical[0] = '\0';
	if (!expected)
		print_context(USER, PEER, &r, canonical);

	observed = canonicalize(ctx, written, sizeof(written));
	judge_op(_metadata, variant->cats, ctx, "-", "context", "context_write",
		 "-", expected, observed);
	TH_LOG("%s -> expected %s \"%s\", observed %s \"%s\"", ctx,
	       outcome_name(expected), canonical, outcome_name(observed),
	       observed ? "" : written);
	if (!expected && !observed)
		EXPECT_STREQ(canonical, written);

	/* setcon() from the harness (kernel_t may enter lsmconf_mls_t). */
	ASSERT_EQ(0, run_setcon(NULL, ctx, &got));
	judge_op(_metadata, variant->cats, ctx, "-", "process", "setcon",
		 "dyntransition", expected, got.err[V_SETCON]);
	TH_LOG("after setcon: \"%s\"", got.context);
	if (!expected && !got.err[V_SETCON])
		EXPECT_STREQ(canonical, got.context);
}

LSM_HARNESS_MAIN
