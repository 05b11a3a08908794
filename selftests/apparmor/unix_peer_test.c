// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor AF_UNIX decisions between two peer processes, across
 * policy ABIs, socket types, address kinds and peer labels.
 *
 * Each variant is one pair of peers. Both enter their labels before they
 * create their sockets, then run a fixed sequence of operations; every
 * operation's outcome is compared with the one the model below computes
 * from the variant and the kernel's advertised features, and written as a
 * decision record.
 */

#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "harness_main.h"
#include "peer.h"
#include "steps.h"
#include "variants.h"

enum addr_kind { ADDR_ABSTRACT, ADDR_PATHNAME, ADDR_SOCKETPAIR, ADDR_AUTOBIND };

/* clang-format off */
static const struct label_kind L_unconfined = { .id = "unconfined" };
/* A socketpair's receiver: forked by the sender, it keeps the sender's label. */
static const struct label_kind L_inherit = { .id = "inherit", .inherit = true };
static const struct label_kind L_allow = { .id = "allow", .change = "allow" };
static const struct label_kind L_unconfined_flag = {
	.id = "unconfined_flag", .change = "unconfined_flag",
	.deny = DENY_SEND, .unconfined_mode = true,
};
static const struct label_kind L_send_deny = {
	.id = "send_deny", .change = "send_deny", .deny = DENY_SEND,
};
static const struct label_kind L_connect_deny = {
	.id = "connect_deny", .change = "connect_deny", .deny = DENY_CONNECT,
};
static const struct label_kind L_receive_deny = {
	.id = "receive_deny", .change = "receive_deny", .deny = DENY_RECEIVE,
};
static const struct label_kind L_accept_deny = {
	.id = "accept_deny", .change = "accept_deny", .deny = DENY_ACCEPT,
};
static const struct label_kind L_file_write_deny = {
	.id = "file_write_deny", .change = "file_write_deny",
	.deny = DENY_FILE_WRITE,
};
static const struct label_kind L_file_read_deny = {
	.id = "file_read_deny", .change = "file_read_deny",
	.deny = DENY_FILE_READ,
};
/* Stacked labels: a permission is granted only if every profile grants it. */
static const struct label_kind L_allow_and_send_deny = {
	.id = "allow//&send_deny", .change = "allow", .stack = "send_deny",
	.deny = DENY_SEND,
};
static const struct label_kind L_send_deny_and_allow = {
	.id = "send_deny//&allow", .change = "send_deny", .stack = "allow",
	.deny = DENY_SEND,
};
static const struct label_kind L_unconfined_and_send_deny = {
	.id = "unconfined//&send_deny", .stack = "send_deny",
	.deny = DENY_SEND,
};
static const struct label_kind L_allow_and_receive_deny = {
	.id = "allow//&receive_deny", .change = "allow",
	.stack = "receive_deny", .deny = DENY_RECEIVE,
};

/*
 * The missing-permission sweep: unix_perms.profile granting every unix
 * permission but one (variants.h's ALL_PERMS). setattr is in the sweep
 * although no AF_UNIX call here requests it: dropping it must change
 * nothing.
 */
/* clang-format on */

/*
 * SWEEP(perm, bit): the label L_no_<perm>, id "no_<perm>", denying @bit;
 * its @PERMS@ are ALL_PERMS without <perm> (filled in at start-up).
 */
/* clang-format off */
#define SWEEP(perm, bit) \
static char perms_no_##perm[sizeof(ALL_PERMS)]; \
static const struct label_kind L_no_##perm = { \
	.id = "no_" #perm, .change = "unix_perms", \
	.perms = perms_no_##perm, .deny = bit, \
}; \
static void __attribute__((constructor)) sweep_no_##perm(void) \
{ \
	perms_without(perms_no_##perm, sizeof(perms_no_##perm), #perm); \
}
SWEEP(create, DENY_CREATE)
SWEEP(bind, DENY_BIND)
SWEEP(listen, DENY_LISTEN)
SWEEP(accept, DENY_ACCEPT)
SWEEP(connect, DENY_CONNECT)
SWEEP(send, DENY_SEND)
SWEEP(receive, DENY_RECEIVE)
SWEEP(getattr, DENY_GETATTR)
SWEEP(setattr, DENY_SETATTR)
SWEEP(getopt, DENY_GETOPT)
SWEEP(setopt, DENY_SETOPT)
SWEEP(shutdown, DENY_SHUTDOWN)
/* The control: every permission granted, nothing denied. */
static const struct label_kind L_all_perms = {
	.id = "all_perms", .change = "unix_perms", .perms = ALL_PERMS,
};
/* clang-format on */

FIXTURE(unix_peer)
{
	struct aa_policy policy[4];
	int n_policy;
	bool k9; /* kernel advertises network_v9/af_unix */
	bool p9; /* and the policy is compiled with it (not so under --abi) */
	char dir[64]; /* pathname sockets live here */
};

FIXTURE_VARIANT(unix_peer)
{
	const char *abi;
	int type;
	const char *type_id;
	enum addr_kind addr;
	const char *addr_id;
	const struct label_kind *sender;
	const struct label_kind *receiver;
};

#define TYPE_dgram SOCK_DGRAM
#define TYPE_stream SOCK_STREAM
#define TYPE_seqpacket SOCK_SEQPACKET
#define ADDRK_abstract ADDR_ABSTRACT
#define ADDRK_pathname ADDR_PATHNAME
#define ADDRK_socketpair ADDR_SOCKETPAIR
#define ADDRK_autobind ADDR_AUTOBIND

/*
 * The matrix (policy ABI x socket type x address x labels) and the sweep
 * (each permission missing once on each side, ABI 5.0 only), in
 * unix_peer_variants.h.
 */

/*
 * One named variant: NAME is abi__type__addr__sender__receiver, written
 * out in full in unix_peer_variants.h so that a printed case name greps to
 * its line; the build fails when NAME is not those five pasted together.
 */
#define CELL(NAME, A, T, D, S, R)                                           \
	enum { NAME##__variant = 1 };                                       \
	static_assert(CELL_IS(A, T, D, S, R),                               \
		      #NAME " is not " #A "__" #T "__" #D "__" #S "__" #R); \
	FIXTURE_VARIANT_ADD(unix_peer, NAME)                                \
	{                                                                   \
		.abi = ABI_##A, .type = TYPE_##T, .type_id = #T,            \
		.addr = ADDRK_##D, .addr_id = #D, .sender = &L_##S,         \
		.receiver = &L_##R,                                         \
	}

#include "unix_peer_variants.h" /* the matrix and the sweep */

/* ---- the expectation model ------------------------------------------- */

/*
 * How the kernel mediates AF_UNIX for this variant:
 * - fine: the kernel advertises network_v9/af_unix and the policy is ABI
 *   5.0: unix rules are enforced, with peer checks (af_unix.c).
 * - coarse: ABI 5.0 policy on a kernel without it: the parser downgrades
 *   unix allow rules to per-socket network permissions and drops unix
 *   deny rules (they cannot be downgraded without denying more). Each
 *   socket call is checked against the caller's own label only.
 * - coarse at the peers: the same downgraded policy (compiled for a pinned
 *   feature set without network_v9/af_unix, lsmconf run --abi) on a
 *   kernel that has af_unix.c's mediation. For AF_UNIX that kernel's
 *   socket_sendmsg/recvmsg/connect hooks check nothing (lsm.c,
 *   aa_sock_msg_perm(), apparmor_socket_connect(): "PF_UNIX goes through
 *   unix_may_send"); the peer hooks do, and a profile without v9 rules
 *   (RULE_MEDIATES_v9NET() is 0) falls back in profile_peer_perm() to
 *   aa_profile_af_sk_perm() of each side's own per-socket permissions,
 *   with the peer request: a datagram (apparmor_unix_may_send()) needs
 *   send of the sender and receive of the receiving socket's label, a
 *   stream connect (unix_connect_perm()) connect, send, receive of the
 *   connecting label and accept, send, receive of the listener's. So the
 *   checks fall where fine mediation puts them, with coarse permissions,
 *   and a pathname socket gets no file check (that is inside the v9
 *   branch).
 * - neither: older ABIs carry no unix rules; "network," allows all.
 */
struct model {
	bool fine, coarse;
	bool peer_coarse; /* coarse permissions at fine mediation's places */
	unsigned int ds; /* sender's denials */
	unsigned int dr; /* receiver task's denials */
	unsigned int dp; /* denials of the label on the receiving socket */
	bool pathname, pair, dgram;
};

static unsigned int denials(const struct label_kind *k, const struct model *m)
{
	/* Unconfined mode never enforces. */
	if (k->unconfined_mode)
		return 0;
	if (m->fine)
		return k->deny;
	/* Downgraded: only a permission missing from an allow list counts. */
	if (m->coarse && k->perms)
		return k->deny;
	return 0;
}

static void model_init(struct model *m, const FIXTURE_VARIANT(unix_peer) * v,
		       bool k9, bool p9)
{
	bool abi5 = !strcmp(v->abi, "5.0");

	memset(m, 0, sizeof(*m));
	/* The parser writes unix rules only if its compile features have them. */
	m->fine = k9 && p9 && abi5;
	m->coarse = !m->fine && abi5;
	m->peer_coarse = m->coarse && k9;
	m->pathname = v->addr == ADDR_PATHNAME;
	m->pair = v->addr == ADDR_SOCKETPAIR;
	m->dgram = v->type == SOCK_DGRAM;
	m->ds = denials(v->sender, m);
	/* A socketpair's receiver is forked by the sender and keeps its label. */
	m->dr = m->pair ? m->ds : denials(v->receiver, m);
	/* A socketpair's ends both carry the label of the task creating it. */
	m->dp = m->pair ? m->ds : m->dr;
}

static int deny_if(bool denied)
{
	return denied ? -EACCES : 0;
}

/*
 * fine: a datagram reaches its peer only if the sender may send to it and
 * the receiving socket's label may receive from the sender. On a pathname
 * socket both checks are file checks on its path (send = write,
 * receive = read); a unix rule does not apply there.
 * coarse: the sender's own send permission; coarse at the peers: the
 * sender's send and the receiving socket label's receive, per socket.
 */
static int expect_dgram_send(const struct model *m)
{
	if (m->peer_coarse)
		return deny_if(m->ds & DENY_SEND || m->dp & DENY_RECEIVE);
	if (m->coarse)
		return deny_if(m->ds & DENY_SEND);
	if (m->pathname)
		return deny_if(m->ds & DENY_FILE_WRITE ||
			       m->dp & DENY_FILE_READ);
	return deny_if(m->ds & DENY_SEND || m->dp & DENY_RECEIVE);
}

/* fine: a datagram connect() is the same peer check as a send; coarse: connect. */
static int expect_dgram_connect(const struct model *m)
{
	/* Coarse at the peers: connect() is unix_may_send() too. */
	if (m->coarse && !m->peer_coarse)
		return deny_if(m->ds & DENY_CONNECT);
	return expect_dgram_send(m);
}

/*
 * fine: a stream connection needs connect, send and receive from the
 * connecting label, and accept, send and receive from the listening
 * socket's label. To a pathname socket it is a file check on the path
 * (write and read) by the connecting label only.
 * coarse: the connecting label's own connect permission; coarse at the
 * peers: the same six permissions as fine, per socket, on any address.
 */
static int expect_stream_connect(const struct model *m)
{
	if (m->peer_coarse)
		return deny_if(
			m->ds & (DENY_CONNECT | DENY_SEND | DENY_RECEIVE) ||
			m->dp & (DENY_ACCEPT | DENY_SEND | DENY_RECEIVE));
	if (m->coarse)
		return deny_if(m->ds & DENY_CONNECT);
	if (m->pathname)
		return deny_if(m->ds & (DENY_FILE_WRITE | DENY_FILE_READ));
	return deny_if(m->ds & (DENY_CONNECT | DENY_SEND | DENY_RECEIVE) ||
		       m->dp & (DENY_ACCEPT | DENY_SEND | DENY_RECEIVE));
}

/*
 * Sending on a connected stream, or on a socketpair: fine mediation checks
 * nothing per message except datagrams on a socketpair (the pair's one
 * label must send and receive); coarse checks the sender's send.
 */
static int expect_connected_send(const struct model *m)
{
	if (m->coarse && !m->peer_coarse)
		return deny_if(m->ds & DENY_SEND);
	if (m->pair && m->dgram)
		return deny_if(m->ds & DENY_SEND || m->dp & DENY_RECEIVE);
	return 0;
}

/*
 * Every variant of a kind records the same operations, so a case id
 * exists on every kernel: what a failed step prevents is "not-run".
 */
static const char *const sender_ops_dgram[] = {
	"socket",   "setsockopt", "getsockopt", "sendto",   "sendmsg",
	"sendmmsg", "connect",	  "send",	"shutdown", NULL,
};
static const char *const sender_ops_stream[] = {
	"socket", "setsockopt", "getsockopt", "connect",
	"send",	  "shutdown",	NULL,
};
static const char *const sender_ops_pair[] = {
	"socketpair", "setsockopt", "getsockopt", "send", "shutdown", NULL,
};
static const char *const receiver_ops_dgram[] = {
	"socket",      "setsockopt", "getsockopt", "bind",
	"getsockname", "receive",    NULL,
};
static const char *const receiver_ops_stream[] = {
	"socket",      "setsockopt", "getsockopt", "bind", "listen",
	"getsockname", "accept",     "receive",	   NULL,
};
static const char *const receiver_ops_pair[] = { "receive", NULL };

/* The expected sequence of operations and outcomes of one variant. */
struct plan {
	struct peer_report s, r;
	int delivered;
};

static void plan_make(struct plan *p, const struct model *m)
{
	bool reachable = true, listening = false, connected = false;
	int e, sent = 0;

	memset(p, 0, sizeof(*p));
	/* Receiver: its own socket operations need its own permissions. */
	if (!m->pair) {
		e = deny_if(m->dr & DENY_CREATE);
		report_op(&p->r, "socket", e);
		if (e) {
			reachable = false;
		} else {
			report_op(&p->r, "setsockopt",
				  deny_if(m->dr & DENY_SETOPT));
			report_op(&p->r, "getsockopt",
				  deny_if(m->dr & DENY_GETOPT));
			/* A fine pathname bind is a file create, not a unix bind. */
			e = deny_if(!(m->fine && m->pathname) &&
				    m->dr & DENY_BIND);
			report_op(&p->r, "bind", e);
			reachable = !e;
			if (!m->dgram) {
				/*
				 * Listen on a pathname socket is no file
				 * perm; AppArmor decides before AF_UNIX, which
				 * refuses to listen without an address.
				 */
				e = deny_if(!(m->fine && m->pathname) &&
					    m->dr & DENY_LISTEN);
				if (!e && !reachable)
					e = -EINVAL;
				report_op(&p->r, "listen", e);
				listening = !e;
				reachable = reachable && !e;
			}
			/* On a fine pathname socket getattr is the file's. */
			report_op(&p->r, "getsockname",
				  deny_if(!(m->fine && m->pathname) &&
					  m->dr & DENY_GETATTR));
		}
	}

	/* Sender. */
	e = deny_if(m->ds & DENY_CREATE);
	report_op(&p->s, m->pair ? "socketpair" : "socket", e);
	if (e)
		goto receiver_end;
	report_op(&p->s, "setsockopt", deny_if(m->ds & DENY_SETOPT));
	report_op(&p->s, "getsockopt", deny_if(m->ds & DENY_GETOPT));
	if (m->pair) {
		e = expect_connected_send(m);
		report_op(&p->s, "send", e);
		sent += !e;
	} else if (m->dgram) {
		/* Nothing bound there: the address is refused. */
		e = reachable ? expect_dgram_send(m) : -ECONNREFUSED;
		report_op(&p->s, "sendto", e);
		report_op(&p->s, "sendmsg", e);
		report_op(&p->s, "sendmmsg", e);
		sent += e ? 0 : 4;
		e = reachable ? expect_dgram_connect(m) : -ECONNREFUSED;
		report_op(&p->s, "connect", e);
		if (!e) {
			e = expect_dgram_send(m);
			report_op(&p->s, "send", e);
			sent += !e;
		}
	} else {
		e = reachable ? expect_stream_connect(m) : -ECONNREFUSED;
		report_op(&p->s, "connect", e);
		connected = !e;
		if (connected) {
			e = expect_connected_send(m);
			report_op(&p->s, "send", e);
			sent += !e;
		}
	}
	report_op(&p->s, "shutdown", deny_if(m->ds & DENY_SHUTDOWN));

receiver_end:
	if (!m->pair && report_find(&p->r, "socket"))
		return;
	if (!m->pair && !m->dgram) {
		/*
		 * accept() is checked against the listening socket's label
		 * before the queue is looked at (under fine mediation not for
		 * a pathname socket: accept is no file permission); only a
		 * listening socket accepts, and only an allowed connection.
		 */
		e = deny_if(!(m->fine && m->pathname) && m->dr & DENY_ACCEPT);
		if (!e && !listening)
			e = -EINVAL;
		report_op(&p->r, "accept", e ? e : connected ? 0 : -EAGAIN);
		if (e || !connected)
			return;
	}
	/*
	 * Coarse mediation checks the receiver's own receive, first. Then a
	 * stream whose sender shut down reads data or end-of-file; an empty
	 * datagram queue has nothing to give.
	 */
	e = m->coarse && !m->peer_coarse ? deny_if(m->dr & DENY_RECEIVE) : 0;
	if (!e && !sent && m->dgram)
		e = -EAGAIN;
	report_op(&p->r, "receive", e);
	p->delivered = e ? 0 : sent;
}

static void plan_all(struct plan *p, const struct model *m)
{
	plan_make(p, m);
	report_complete(&p->s, m->pair	? sender_ops_pair :
			       m->dgram ? sender_ops_dgram :
					  sender_ops_stream);
	report_complete(&p->r, m->pair	? receiver_ops_pair :
			       m->dgram ? receiver_ops_dgram :
					  receiver_ops_stream);
}

/* ---- the peers ------------------------------------------------------ */

struct peer_ctx {
	const FIXTURE_VARIANT(unix_peer) * v;
	const char *dir;
	int cmd[2]; /* test -> peer */
	int rep[2]; /* peer -> test */
};

static void peer_label(const struct peer_ctx *c, const struct label_kind *k,
		       struct peer_report *r)
{
	r->label_err =
		label_enter(k, c->v->abi, r->context, sizeof(r->context));
}

static void make_addr(const struct peer_ctx *c, struct sockaddr_un *sun,
		      socklen_t *len)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	switch (c->v->addr) {
	case ADDR_ABSTRACT:
		/* Collision-free: the test's pid names it. */
		snprintf(sun->sun_path + 1, sizeof(sun->sun_path) - 1,
			 "lsmconf-%d", getppid());
		*len = offsetof(struct sockaddr_un, sun_path) + 1 +
		       strlen(sun->sun_path + 1);
		break;
	case ADDR_PATHNAME:
		snprintf(sun->sun_path, sizeof(sun->sun_path), "%s/sock",
			 c->dir);
		*len = sizeof(*sun);
		break;
	default:
		/* Autobind: the family alone asks the kernel for a name. */
		*len = offsetof(struct sockaddr_un, sun_path);
		break;
	}
}

/* Receives on @fd once the test says the sender is done. */
static void receive_phase(const struct peer_ctx *c, int fd,
			  struct peer_report *r)
{
	char go;
	int conn, ret;

	if (pipe_read(c->cmd[0], &go, 1, PEER_WAIT_MS))
		return;
	if (c->v->type != SOCK_DGRAM && c->v->addr != ADDR_SOCKETPAIR) {
		/* Take what is queued now; never wait for more. */
		fcntl(fd, F_SETFL, O_NONBLOCK);
		conn = accept4(fd, NULL, NULL, SOCK_NONBLOCK);
		report_op(r, "accept", sys_ret(conn));
		if (conn < 0)
			return;
		fd = conn;
	}
	ret = drain(fd, c->v->type, &r->delivered, &r->corrupt);
	report_op(r, "receive", r->delivered ? 0 : ret);
}

static void receiver_main(const struct peer_ctx *c)
{
	struct peer_report r = { 0 };
	struct sockaddr_un sun;
	socklen_t len;
	int fd = -1;

	peer_label(c, c->v->receiver, &r);
	if (r.label_err)
		goto ready;
	fd = socket(AF_UNIX, c->v->type, 0);
	report_op(&r, "socket", sys_ret(fd));
	if (fd < 0)
		goto ready;
	report_op(&r, "setsockopt", set_timeouts(fd));
	report_op(&r, "getsockopt", get_type(fd));
	make_addr(c, &sun, &len);
	report_op(&r, "bind", sys_ret(bind(fd, (void *)&sun, len)));
	if (c->v->type != SOCK_DGRAM)
		report_op(&r, "listen", sys_ret(listen(fd, 8)));
	/* The address actually bound (autobind picks one). */
	r.addrlen = sizeof(r.addr);
	if (getsockname(fd, (void *)&r.addr, &r.addrlen)) {
		report_op(&r, "getsockname", -errno);
		/* Fall back on the name it asked for. */
		r.addr = sun;
		r.addrlen = len;
	} else {
		report_op(&r, "getsockname", 0);
	}
	if (report_find(&r, "bind"))
		r.addrlen = 0;
ready:
	pipe_write(c->rep[1], &r, sizeof(r));
	if (r.label_err || report_find(&r, "socket"))
		_exit(0);
	receive_phase(c, fd, &r);
	pipe_write(c->rep[1], &r, sizeof(r));
	_exit(0);
}

static int send_one(int fd, const char *how, const struct sockaddr_un *to,
		    socklen_t tolen, unsigned int seq)
{
	struct payload p[2];
	struct iovec iov[2];
	struct mmsghdr mm[2];
	struct msghdr mh;
	int i;

	payload_make(&p[0], seq);
	payload_make(&p[1], seq + 1);
	if (!strcmp(how, "sendto"))
		return sys_ret(sendto(fd, &p[0], sizeof(p[0]), MSG_DONTWAIT,
				      (void *)to, tolen));
	if (!strcmp(how, "send"))
		return sys_ret(send(fd, &p[0], sizeof(p[0]), MSG_DONTWAIT));
	memset(&mh, 0, sizeof(mh));
	memset(mm, 0, sizeof(mm));
	for (i = 0; i < 2; i++) {
		iov[i].iov_base = &p[i];
		iov[i].iov_len = sizeof(p[i]);
		mm[i].msg_hdr.msg_name = (void *)to;
		mm[i].msg_hdr.msg_namelen = tolen;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	if (!strcmp(how, "sendmsg"))
		return sys_ret(sendmsg(fd, &mm[0].msg_hdr, MSG_DONTWAIT));
	/* sendmmsg: both messages or it counts as failed. */
	i = sendmmsg(fd, mm, 2, MSG_DONTWAIT);
	if (i < 0)
		return -errno;
	return i == 2 ? 0 : -EMSGSIZE;
}

static void sender_main(const struct peer_ctx *c, const struct peer_report *rr)
{
	static const struct sockaddr_un nowhere = {
		.sun_family = AF_UNIX,
		.sun_path = "\0lsmconf-nowhere",
	};
	const struct sockaddr_un *to = &rr->addr;
	socklen_t tolen = rr->addrlen;
	struct peer_report r = { 0 };
	int fd, e;

	peer_label(c, c->v->sender, &r);
	if (r.label_err)
		goto out;
	/* A receiver that could not bind: aim at a name nobody holds. */
	if (!tolen) {
		to = &nowhere;
		tolen = offsetof(struct sockaddr_un, sun_path) + 17;
	}
	fd = socket(AF_UNIX, c->v->type, 0);
	report_op(&r, "socket", sys_ret(fd));
	if (fd < 0)
		goto out;
	report_op(&r, "setsockopt", set_timeouts(fd));
	report_op(&r, "getsockopt", get_type(fd));
	if (c->v->type == SOCK_DGRAM) {
		report_op(&r, "sendto", send_one(fd, "sendto", to, tolen, 0));
		report_op(&r, "sendmsg", send_one(fd, "sendmsg", to, tolen, 1));
		report_op(&r, "sendmmsg",
			  send_one(fd, "sendmmsg", to, tolen, 2));
		e = sys_ret(connect(fd, (void *)to, tolen));
		report_op(&r, "connect", e);
		if (!e)
			report_op(&r, "send", send_one(fd, "send", NULL, 0, 4));
	} else {
		e = sys_ret(connect(fd, (void *)to, tolen));
		report_op(&r, "connect", e);
		if (!e)
			report_op(&r, "send", send_one(fd, "send", NULL, 0, 0));
	}
	report_op(&r, "shutdown", sys_ret(shutdown(fd, SHUT_WR)));
out:
	pipe_write(c->rep[1], &r, sizeof(r));
	_exit(0);
}

/* Socketpair: the sender creates both ends and hands one to the receiver. */
static void pair_main(const struct peer_ctx *c, int rrep)
{
	struct peer_report r = { 0 }, rr = { 0 };
	int sv[2], ret;
	pid_t child;

	peer_label(c, c->v->sender, &r);
	if (r.label_err)
		goto out;
	ret = socketpair(AF_UNIX, c->v->type, 0, sv);
	report_op(&r, "socketpair", sys_ret(ret));
	if (ret)
		goto out;
	child = peer_fork();
	if (child == 0) {
		struct peer_ctx rc = *c;

		close(sv[0]);
		rc.rep[1] = rrep;
		/* The receiver holds its end before it enters its label. */
		peer_label(&rc, c->v->receiver, &rr);
		pipe_write(rrep, &rr, sizeof(rr));
		if (!rr.label_err)
			receive_phase(&rc, sv[1], &rr);
		pipe_write(rrep, &rr, sizeof(rr));
		_exit(0);
	}
	close(sv[1]);
	report_op(&r, "setsockopt", set_timeouts(sv[0]));
	report_op(&r, "getsockopt", get_type(sv[0]));
	report_op(&r, "send", send_one(sv[0], "send", NULL, 0, 0));
	report_op(&r, "shutdown", sys_ret(shutdown(sv[0], SHUT_WR)));
	pipe_write(c->rep[1], &r, sizeof(r));
	if (child > 0)
		peer_reap(child);
	_exit(0);
out:
	/* No receiver will come: say so in its place. */
	rr.label_err = -ECHILD;
	pipe_write(rrep, &rr, sizeof(rr));
	pipe_write(c->rep[1], &r, sizeof(r));
	_exit(0);
}

/* ---- fixture -------------------------------------------------------- */

static int load_label(struct __test_metadata *_metadata,
		      FIXTURE_DATA(unix_peer) * self,
		      const struct label_kind *k, const char *abi)
{
	const char *tmpls[2] = { k->change, k->stack };
	char tag[160];
	int i, ret;

	for (i = 0; i < 2; i++) {
		struct aa_policy *p;

		if (!tmpls[i])
			continue;
		p = &self->policy[self->n_policy];
		label_tag(k, tmpls[i], abi, tag, sizeof(tag));
		ret = aa_policy_build(p, tmpls[i], abi, k->perms, tag);
		if (ret) {
			TH_LOG("compiling %s failed (%s); parser output in %s",
			       tag, strerror(-ret), p->log);
			return ret;
		}
		ret = aa_policy_load_shared(p);
		if (ret)
			return ret;
		self->n_policy++;
	}
	return 0;
}

FIXTURE_SETUP(unix_peer)
{
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	self->k9 = aa_feature("network_v9/af_unix") == 1;
	/* A pinned set without it (--abi) gets downgraded policy. */
	self->p9 = aa_policy_feature("network_v9/af_unix") == 1;
	snprintf(self->dir, sizeof(self->dir), "/tmp/lsmconf-fs-%d", getpid());
	ASSERT_EQ(0, mkdir(self->dir, 0755));

	ret = load_label(_metadata, self, variant->sender, variant->abi);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	/* A label both peers use is loaded once. */
	if (variant->receiver != variant->sender)
		ASSERT_EQ(0, load_label(_metadata, self, variant->receiver,
					variant->abi));
}

/*
 * The labels stay loaded for the next cases; the binary removes them at
 * its end and checks the policy is as it found it (harness_main.h).
 */
FIXTURE_TEARDOWN(unix_peer)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/sock", self->dir);
	unlink(path);
	rmdir(self->dir);
}

/* Compares what the peers did with the plan: op SIDE.OP, unique in the case. */
static void judge(struct __test_metadata *_metadata,
		  const FIXTURE_VARIANT(unix_peer) * v, bool k9,
		  const struct plan *p, const struct peer_report *sr,
		  const struct peer_report *rr)
{
	char depends[64];
	struct record base = {
		.abi = v->abi,
		.subject = v->sender->id,
		.object = v->receiver->id,
		.class = v->type_id,
		.detail = v->addr_id,
		.depends = depends,
	};

	/* Only a 5.0 policy's outcome depends on what the kernel advertises. */
	if (!strcmp(v->abi, "5.0"))
		snprintf(depends, sizeof(depends), "network_v9/af_unix=%s",
			 k9 ? "yes" : "no");
	else
		snprintf(depends, sizeof(depends), "-");
	judge_report(_metadata, &base, "sender", &p->s, sr);
	judge_report(_metadata, &base, "receiver", &p->r, rr);
}

TEST_F_TIMEOUT(unix_peer, decisions, 60)
{
	struct peer_report sr = { 0 }, rr = { 0 }, rready = { 0 };
	struct peer_ctx sc = { .v = variant, .dir = self->dir };
	struct peer_ctx rc = { .v = variant, .dir = self->dir };
	pid_t spid, rpid = -1;
	struct model m;
	struct plan p;
	char go = 'g';

	model_init(&m, variant, self->k9, self->p9);
	plan_all(&p, &m);
	ASSERT_EQ(0, pipe2(sc.cmd, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(sc.rep, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(rc.cmd, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(rc.rep, O_CLOEXEC));

	if (variant->addr == ADDR_SOCKETPAIR) {
		spid = peer_fork();
		ASSERT_LE(0, spid);
		if (spid == 0) {
			sc.cmd[0] = rc.cmd[0];
			pair_main(&sc, rc.rep[1]);
		}
		/* The pair's receiver says it is ready once it has its label. */
		ASSERT_EQ(0, pipe_read(rc.rep[0], &rready, sizeof(rready),
				       PEER_WAIT_MS));
		ASSERT_EQ(0,
			  pipe_read(sc.rep[0], &sr, sizeof(sr), PEER_WAIT_MS));
	} else {
		rpid = peer_fork();
		ASSERT_LE(0, rpid);
		if (rpid == 0)
			receiver_main(&rc);
		ASSERT_EQ(0, pipe_read(rc.rep[0], &rready, sizeof(rready),
				       PEER_WAIT_MS));
		spid = peer_fork();
		ASSERT_LE(0, spid);
		if (spid == 0)
			sender_main(&sc, &rready);
		ASSERT_EQ(0,
			  pipe_read(sc.rep[0], &sr, sizeof(sr), PEER_WAIT_MS));
	}
	ASSERT_EQ(0, sr.label_err)
	{
		TH_LOG("sender could not enter %s (context \"%s\")",
		       variant->sender->id, sr.context);
	}
	ASSERT_EQ(0, rready.label_err)
	{
		TH_LOG("receiver could not enter %s (context \"%s\")",
		       variant->receiver->id, rready.context);
	}
	rr = rready;
	if (report_find(&rready, "socket") == 0 ||
	    variant->addr == ADDR_SOCKETPAIR) {
		/* The sender is done: let the receiver take what arrived. */
		ASSERT_EQ(0, pipe_write(rc.cmd[1], &go, 1));
		ASSERT_EQ(0,
			  pipe_read(rc.rep[0], &rr, sizeof(rr), PEER_WAIT_MS));
	}
	peer_reap(spid);
	if (rpid > 0)
		peer_reap(rpid);

	judge(_metadata, variant, self->k9, &p, &sr, &rr);
	/* Every allowed message arrived intact, and nothing else did. */
	EXPECT_EQ(0, rr.corrupt);
	EXPECT_EQ(p.delivered, rr.delivered);
}

AA_HARNESS_MAIN
