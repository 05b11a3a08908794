// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor network rules on inet and inet6 sockets (TCP, UDP and
 * raw) between two peer processes over loopback.
 *
 * Each variant is one pair of peers, a client and a server, in the labels
 * the variant names. Each peer is a worker process (one per side) that
 * enters its label before it makes any socket, then runs the operations
 * the test sends it in batches; every operation's outcome is compared
 * with the one the model below computes from the variant and the
 * kernel's advertised features, and written as a decision record, id
 * inet_test/inet.ABI__FAMILY__TYPE__CLIENT__SERVER.decisions/SIDE.OP.
 *
 * Labels: unconfined; allow ("network,"); "network," with one deny rule,
 * "deny network (PERM) FAMILY TYPE," for each permission or "deny
 * network FAMILY TYPE," (deny_all), naming the variant's family and type
 * or another one (other_family, other_type); stacks; and the
 * missing-permission sweep (every network permission on inet and inet6
 * but one).
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>

#include "../kselftest_harness.h"
#include "../lsmconf/peersec.h"
#include "../lsmconf/worker.h"
#include "harness_main.h"
#include "peer.h"
#include "steps.h"
#include "variants.h"

/* The protocol of the raw sockets: 253 is reserved for experiments. */
#define RAW_PROTO 253

enum inet_kind {
	K_UNCONFINED,
	K_ALLOW, /* network, */
	K_DENY, /* network, + deny network [(perm)] family type, */
	K_SWEEP, /* network (ALL_PERMS but perm) inet/inet6, */
	K_ALL_PERMS, /* network (ALL_PERMS) inet/inet6, */
	K_STACK, /* base//&top (base NULL: stacked on unconfined) */
};

/* Which family and type a K_DENY rule names, relative to the variant's. */
enum cross { X_SAME, X_FAMILY, X_TYPE };

struct inet_label {
	const char *id;
	enum inet_kind kind;
	/* K_DENY: NULL denies all; K_SWEEP: the missing one */
	const char *perm;
	unsigned int bits; /* @perm as DENY_ bits */
	enum cross cross;
	const struct inet_label *base, *top;
};

/* clang-format off */
static const struct inet_label L_unconfined = { "unconfined", K_UNCONFINED };
static const struct inet_label L_allow = { "allow", K_ALLOW };
static const struct inet_label L_all_perms = { "all_perms", K_ALL_PERMS };
static const struct inet_label L_deny_all = {
	"deny_all", K_DENY, NULL, ALL_NET, X_SAME,
};
static const struct inet_label L_other_family = {
	"other_family", K_DENY, NULL, ALL_NET, X_FAMILY,
};
static const struct inet_label L_other_type = {
	"other_type", K_DENY, NULL, ALL_NET, X_TYPE,
};
static const struct inet_label L_deny_create = {
	"deny_create", K_DENY, "create", DENY_CREATE, X_SAME,
};
static const struct inet_label L_no_create = {
	"no_create", K_SWEEP, "create", DENY_CREATE, X_SAME,
};
static const struct inet_label L_deny_bind = {
	"deny_bind", K_DENY, "bind", DENY_BIND, X_SAME,
};
static const struct inet_label L_no_bind = {
	"no_bind", K_SWEEP, "bind", DENY_BIND, X_SAME,
};
static const struct inet_label L_deny_listen = {
	"deny_listen", K_DENY, "listen", DENY_LISTEN, X_SAME,
};
static const struct inet_label L_no_listen = {
	"no_listen", K_SWEEP, "listen", DENY_LISTEN, X_SAME,
};
static const struct inet_label L_deny_accept = {
	"deny_accept", K_DENY, "accept", DENY_ACCEPT, X_SAME,
};
static const struct inet_label L_no_accept = {
	"no_accept", K_SWEEP, "accept", DENY_ACCEPT, X_SAME,
};
static const struct inet_label L_deny_connect = {
	"deny_connect", K_DENY, "connect", DENY_CONNECT, X_SAME,
};
static const struct inet_label L_no_connect = {
	"no_connect", K_SWEEP, "connect", DENY_CONNECT, X_SAME,
};
static const struct inet_label L_deny_send = {
	"deny_send", K_DENY, "send", DENY_SEND, X_SAME,
};
static const struct inet_label L_no_send = {
	"no_send", K_SWEEP, "send", DENY_SEND, X_SAME,
};
static const struct inet_label L_deny_receive = {
	"deny_receive", K_DENY, "receive", DENY_RECEIVE, X_SAME,
};
static const struct inet_label L_no_receive = {
	"no_receive", K_SWEEP, "receive", DENY_RECEIVE, X_SAME,
};
static const struct inet_label L_deny_getattr = {
	"deny_getattr", K_DENY, "getattr", DENY_GETATTR, X_SAME,
};
static const struct inet_label L_no_getattr = {
	"no_getattr", K_SWEEP, "getattr", DENY_GETATTR, X_SAME,
};
static const struct inet_label L_deny_getopt = {
	"deny_getopt", K_DENY, "getopt", DENY_GETOPT, X_SAME,
};
static const struct inet_label L_no_getopt = {
	"no_getopt", K_SWEEP, "getopt", DENY_GETOPT, X_SAME,
};
static const struct inet_label L_deny_setopt = {
	"deny_setopt", K_DENY, "setopt", DENY_SETOPT, X_SAME,
};
static const struct inet_label L_no_setopt = {
	"no_setopt", K_SWEEP, "setopt", DENY_SETOPT, X_SAME,
};
static const struct inet_label L_deny_shutdown = {
	"deny_shutdown", K_DENY, "shutdown", DENY_SHUTDOWN, X_SAME,
};
static const struct inet_label L_no_shutdown = {
	"no_shutdown", K_SWEEP, "shutdown", DENY_SHUTDOWN, X_SAME,
};
static const struct inet_label L_no_setattr = {
	"no_setattr", K_SWEEP, "setattr", DENY_SETATTR, X_SAME,
};

static const struct inet_label L_allow_and_deny_send = {
	"allow//&deny_send", K_STACK, .base = &L_allow, .top = &L_deny_send,
};
static const struct inet_label L_deny_send_and_allow = {
	"deny_send//&allow", K_STACK, .base = &L_deny_send, .top = &L_allow,
};
static const struct inet_label L_unconfined_and_deny_send = {
	"unconfined//&deny_send", K_STACK, .top = &L_deny_send,
};
static const struct inet_label L_allow_and_deny_receive = {
	"allow//&deny_receive", K_STACK, .base = &L_allow,
	.top = &L_deny_receive,
};
/* clang-format on */

FIXTURE(inet)
{
	bool tfo; /* the kernel checks fastopen's implicit connect */
	int tfo_saved; /* net.ipv4.tcp_fastopen to restore, or -1 */
	int nowhere; /* an unconfined socket nobody connects to */
	struct sockaddr_storage nowhere_addr;
	socklen_t nowhere_len;
};

FIXTURE_VARIANT(inet)
{
	const char *abi;
	int family;
	const char *family_id;
	int type;
	const char *type_id;
	const struct inet_label *client, *server;
};

#define FAM_inet AF_INET
#define FAM_inet6 AF_INET6
#define TYPE_stream SOCK_STREAM
#define TYPE_dgram SOCK_DGRAM
#define TYPE_raw SOCK_RAW

/*
 * One named variant: NAME is abi__family__type__client__server, written
 * out in full in inet_variants.h so that a printed case name greps to its
 * line; the build fails when NAME is not those five pasted together.
 */
#define CELL(NAME, A, F, T, C, S)                                           \
	enum { NAME##__variant = 1 };                                       \
	static_assert(CELL_IS(A, F, T, C, S),                               \
		      #NAME " is not " #A "__" #F "__" #T "__" #C "__" #S); \
	FIXTURE_VARIANT_ADD(inet, NAME)                                     \
	{                                                                   \
		.abi = ABI_##A, .family = FAM_##F, .family_id = #F,         \
		.type = TYPE_##T, .type_id = #T, .client = &L_##C,          \
		.server = &L_##S,                                           \
	}

#include "inet_variants.h"

/* ---- the labels' profiles ---------------------------------------------- */

static const char *family_name(int family)
{
	return family == AF_INET ? "inet" : "inet6";
}

static const char *type_name(int type)
{
	return type == SOCK_STREAM ? "stream" :
	       type == SOCK_DGRAM  ? "dgram" :
				     "raw";
}

/* The family and type a K_DENY rule of @l names for a variant's @fam/@type. */
static void rule_target(const struct inet_label *l, int *fam, int *type)
{
	if (l->cross == X_FAMILY)
		*fam = *fam == AF_INET ? AF_INET6 : AF_INET;
	/* Raw's other type is dgram: both are datagram services. */
	if (l->cross == X_TYPE)
		*type = *type == SOCK_STREAM ? SOCK_DGRAM :
			*type == SOCK_DGRAM  ? SOCK_STREAM :
					       SOCK_DGRAM;
}

/*
 * The tag (so the profile name) and the @RULES@ of simple label @l (not a
 * stack, not unconfined) for a variant's family and type under @abi. The
 * tag names the rule's content, so labels with the same rule share a
 * profile (other_family of inet is deny_all of inet6).
 */
static void rule_text(const struct inet_label *l, const char *abi, int fam,
		      int type, char *tag, size_t tsize, char *rules,
		      size_t rsize)
{
	char perms[160];

	switch (l->kind) {
	case K_ALLOW:
		snprintf(tag, tsize, "inet_allow_%s", abi);
		snprintf(rules, rsize, "network,");
		return;
	case K_DENY:
		rule_target(l, &fam, &type);
		snprintf(tag, tsize, "inet_deny_%s_%s_%s_%s",
			 l->perm ? l->perm : "all", family_name(fam),
			 type_name(type), abi);
		if (l->perm)
			snprintf(rules, rsize,
				 "network,\n  deny network (%s) %s %s,",
				 l->perm, family_name(fam), type_name(type));
		else
			snprintf(rules, rsize,
				 "network,\n  deny network %s %s,",
				 family_name(fam), type_name(type));
		return;
	case K_SWEEP:
	case K_ALL_PERMS:
		perms_without(perms, sizeof(perms),
			      l->kind == K_SWEEP ? l->perm : NULL);
		snprintf(tag, tsize, "inet_%s_%s", l->id, abi);
		snprintf(rules, rsize,
			 "network (%s) inet,\n  network (%s) inet6,", perms,
			 perms);
		return;
	default:
		tag[0] = rules[0] = '\0';
	}
}

/* ---- the expectation model ------------------------------------------- */

/*
 * What label @l denies on a socket of @fam/@type, as DENY_ bits.
 *
 * Every inet check is made against the calling task's own label
 * (apparmor_socket_* in lsm.c -> aa_sk_perm() or, for socket(),
 * aa_af_perm() -> aa_profile_af_perm() in net.c): the rules of its
 * profiles matched on family, type and protocol, each profile of a stack
 * on its own (fn_for_each_confined: one profile's denial denies). There is
 * no peer check for inet: what the other side's label says never decides
 * here.
 *
 * ABIs 3.0 and 4.0, and 5.0 on a kernel without network_v9, compile
 * network rules into the old network class (AA_CLASS_NET); 5.0 on a
 * kernel with network_v9 into AA_CLASS_NETV9. The kernel matches either
 * the same way (RULE_MEDIATES_NET: v9 first, else the old class), and the
 * parser keeps a permission-qualified rule's permissions exactly (no
 * widening for inet): the same denials at every ABI but
 * kernel-5.4-vanilla, which declares no network mediation, so the parser
 * drops every network rule and RULE_MEDIATES_NET() finds no class: nothing
 * is denied.
 *
 * A deny rule denies every request holding one of its permissions
 * (aa_check_perms: denied = request & (~allow | deny)); "deny network F
 * T," all of them; a rule naming another family or type nothing. The
 * sweep's allow list denies what it leaves out, on every inet and inet6
 * type.
 */
static unsigned int denies(const struct inet_label *l, const char *abi, int fam,
			   int type)
{
	int rfam = fam, rtype = type;

	if (!strcmp(abi, ABI_abi_vanilla))
		return 0;
	switch (l->kind) {
	case K_DENY:
		rule_target(l, &rfam, &rtype);
		return rfam == fam && rtype == type ? l->bits : 0;
	case K_SWEEP:
		return l->bits;
	case K_STACK:
		return (l->base ? denies(l->base, abi, fam, type) : 0) |
		       denies(l->top, abi, fam, type);
	default:
		return 0;
	}
}

static int need(unsigned int deny, unsigned int bit)
{
	return deny & bit ? -EACCES : 0;
}

/* ---- the peers ---------------------------------------------------------- */

enum wop {
	W_SOCKET, /* fds[slot] = socket(family, type, proto) */
	W_SETOPT, /* SO_RCVTIMEO and SO_SNDTIMEO */
	W_GETOPT, /* SO_TYPE */
	W_BIND, /* to loopback, port 0 */
	W_GETNAME, /* getsockname(), the name goes to the reply */
	W_LISTEN,
	W_CONNECT, /* to addr */
	W_GETPEER, /* getpeername() */
	W_SEND, /* one payload to the connected peer */
	W_FASTOPEN, /* sendto(MSG_FASTOPEN) of one payload to addr */
	W_ACCEPT, /* fds[slot2] = accept(fds[slot]) */
	W_RECV, /* takes every payload queued */
	W_SHUTDOWN, /* SHUT_WR */
	W_ENTER, /* change to, then stack, the batch's profiles */
};

#define W_SLOTS 4
#define W_BATCH 10

struct wcmd {
	enum wop op;
	int slot, slot2;
	/* Done only if command @needs of the batch succeeded (-1: always). */
	int needs;
	bool skip; /* an earlier batch's step it needs was expected to fail */
	/* W_ACCEPT, W_RECV: wait (poll, bounded) for what the model expects. */
	bool wait;
	int family, type, proto;
	struct sockaddr_storage addr;
	socklen_t len;
};

struct wbatch {
	int n;
	struct wcmd c[W_BATCH];
	char change[160], stack[160]; /* W_ENTER */
};

struct wreply {
	int err[W_BATCH]; /* 0, -errno or NOT_RUN */
	int count[W_BATCH]; /* W_RECV: payloads taken */
	struct sockaddr_storage name; /* the last W_GETNAME */
	struct sockaddr_storage peer; /* the last W_GETPEER */
	socklen_t peerlen;
	socklen_t namelen;
	char context[256]; /* W_ENTER: aa_getcon() */
};

static const char payload[] = "lsmconf-inet-payload";

static void loopback(int family, struct sockaddr_storage *ss, socklen_t *len)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)ss;

		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(*in);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_addr = in6addr_loopback;
		*len = sizeof(*in6);
	}
}

/*
 * Takes everything queued without waiting; counts the payloads (a raw
 * IPv4 socket receives the IP header too: the payload is searched for).
 * 0 when something was taken or the stream ended, else the first error.
 */
static int w_recv(int fd, int *count)
{
	char buf[2048];
	int ret = 0;

	*count = 0;
	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		char *p = buf;

		if (n < 0) {
			if (!*count)
				ret = -errno;
			break;
		}
		if (n == 0) {
			ret = 0;
			break;
		}
		while ((p = memmem(p, n - (p - buf), payload,
				   sizeof(payload)))) {
			(*count)++;
			p += sizeof(payload);
		}
	}
	return ret;
}

static int w_enter(const struct wbatch *b, struct wreply *r)
{
	char *con = NULL, *mode = NULL;
	int ret = 0;

	if (b->change[0] && aa_change_profile(b->change))
		return -errno;
	if (b->stack[0] && aa_stack_profile(b->stack))
		return -errno;
	if (aa_getcon(&con, &mode) < 0)
		return -errno;
	snprintf(r->context, sizeof(r->context), "%s", con);
	/* Each profile entered is in the context, or the case is void. */
	if ((b->change[0] && !strstr(con, b->change)) ||
	    (b->stack[0] && !strstr(con, b->stack)) ||
	    (!b->change[0] && !b->stack[0] && strcmp(con, "unconfined")))
		ret = -ESRCH;
	free(con);
	return ret;
}

static int w_do(int *fds, const struct wcmd *c, const struct wbatch *b,
		struct wreply *r, int *count)
{
	struct sockaddr_storage ss;
	int fd = fds[c->slot];
	socklen_t len;

	switch (c->op) {
	case W_SOCKET:
		fds[c->slot] =
			socket(c->family, c->type | SOCK_CLOEXEC, c->proto);
		return fds[c->slot] < 0 ? -errno : 0;
	case W_SETOPT:
		return set_timeouts(fd);
	case W_GETOPT:
		return get_type(fd);
	case W_BIND:
		loopback(c->family, &ss, &len);
		return sys_ret(bind(fd, (struct sockaddr *)&ss, len));
	case W_GETNAME:
		r->namelen = sizeof(r->name);
		if (getsockname(fd, (struct sockaddr *)&r->name, &r->namelen)) {
			r->namelen = 0;
			return -errno;
		}
		return 0;
	case W_LISTEN:
		/* accept() never blocks: the worker polls when told to. */
		fcntl(fd, F_SETFL, O_NONBLOCK);
		return sys_ret(listen(fd, 8));
	case W_CONNECT:
		return sys_ret(
			connect(fd, (const struct sockaddr *)&c->addr, c->len));
	case W_GETPEER:
		r->peerlen = sizeof(r->peer);
		return sys_ret(getpeername(fd, (struct sockaddr *)&r->peer,
					   &r->peerlen));
	case W_SEND:
		return sys_ret(send(fd, payload, sizeof(payload),
				    MSG_NOSIGNAL | MSG_DONTWAIT));
	case W_FASTOPEN:
		/* Blocking: the implicit connect completes (SO_SNDTIMEO). */
		return sys_ret(sendto(fd, payload, sizeof(payload),
				      MSG_FASTOPEN | MSG_NOSIGNAL,
				      (const struct sockaddr *)&c->addr,
				      c->len));
	case W_ACCEPT:
		if (c->wait)
			wait_readable(fd);
		fds[c->slot2] = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
		return fds[c->slot2] < 0 ? -errno : 0;
	case W_RECV:
		if (c->wait)
			wait_readable(fd);
		return w_recv(fd, count);
	case W_SHUTDOWN:
		return sys_ret(shutdown(fd, SHUT_WR));
	case W_ENTER:
		return w_enter(b, r);
	}
	return -EINVAL;
}

/* A worker's sockets, kept between batches (its copy, after the fork). */
struct wstate {
	int fds[W_SLOTS];
};

/* One batch: each command in turn, unless a step it needs failed. */
static void w_serve(const void *req, void *rep, void *state)
{
	const struct wbatch *b = req;
	struct wreply *r = rep;
	struct wstate *st = state;
	int i;

	for (i = 0; i < b->n && i < W_BATCH; i++) {
		const struct wcmd *c = &b->c[i];

		if (c->skip || (c->needs >= 0 && r->err[c->needs])) {
			r->err[i] = NOT_RUN;
			continue;
		}
		r->err[i] = w_do(st->fds, c, b, r, &r->count[i]);
	}
}

/* A peer: lsmconf/worker.h's, holding no other worker's pipe nor socket. */
static int inet_worker_start(struct worker *w)
{
	struct wstate st;
	int i;

	for (i = 0; i < W_SLOTS; i++)
		st.fds[i] = -1;
	return worker_start(w, sizeof(struct wbatch), sizeof(struct wreply),
			    w_serve, &st);
}

/*
 * One batch: a batch may wait (bounded) for an accept, a receive and a
 * fastopen's connect in turn, so its reply is given longer.
 */
static int inet_worker_run(const struct worker *w, const struct wbatch *b,
			   struct wreply *r)
{
	return worker_run_within(w, b, r, PEER_WAIT_MS * 3);
}

/* ---- plans ------------------------------------------------------------ */

struct plan {
	struct wbatch b;
	struct step s[W_BATCH];
};

/*
 * Adds an operation to @p; when the operation it needs (@needs in this
 * batch, or an earlier batch's, @skip) is expected to fail, it is
 * expected not to run.
 */
static int add(struct plan *p, const char *name, enum wop op, int slot,
	       int needs, bool skip, int want)
{
	struct wcmd *c = &p->b.c[p->b.n];

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->slot = slot;
	c->needs = needs;
	c->skip = skip;
	step_set(p->s, p->b.n, name, needs, skip, op == W_RECV, want);
	return p->b.n++;
}

struct ctx {
	struct __test_metadata *md;
	const FIXTURE_VARIANT(inet) * v;
	FIXTURE_DATA(inet) * self;
	unsigned int cdeny, sdeny; /* what each side's label denies */
	int proto; /* the socket()'s protocol argument */
	bool tcp;
	/*
	 * The depends column of the steps whose outcome the kernel's
	 * tcp-fast-open mediation decides, "-" for the others.
	 */
	const char *tfo_dep;
	struct tally t;
};

/* Runs @p on @w, compares and records every outcome (op SIDE.OP). */
static int play(struct ctx *c, struct worker *w, struct plan *p,
		const char *side, struct wreply *r)
{
	const FIXTURE_VARIANT(inet) *v = c->v;
	struct record base = {
		.abi = v->abi,
		.subject = v->client->id,
		.object = v->server->id,
		.class = v->type_id,
		.detail = v->family_id,
		.depends = "-",
	};
	int i, ret;

	for (i = 0; i < p->b.n; i++) {
		p->b.c[i].family = v->family;
		p->b.c[i].type = v->type;
		p->b.c[i].proto = c->proto;
	}
	ret = inet_worker_run(w, &p->b, r);
	if (ret)
		return ret;
	judge_steps(c->md, &base, "", side, p->s, p->b.n, r->err, r->count,
		    &c->t);
	return 0;
}

#define PLAY(c, w, p, side, r) ASSERT_EQ(0, play(c, w, p, side, r))

/*
 * The server's first batch: socket, options, bind to loopback port 0,
 * getsockname (the port the client aims at), and listen on a stream.
 * Each is checked by its hook against the server's own label:
 * socket: apparmor_socket_create -> aa_af_perm(AA_MAY_CREATE);
 * setsockopt/getsockopt: apparmor_socket_{set,get}sockopt ->
 * aa_sock_opt_perm -> aa_sk_perm(AA_MAY_SETOPT / AA_MAY_GETOPT);
 * bind: apparmor_socket_bind -> aa_sk_perm(AA_MAY_BIND); getsockname:
 * apparmor_socket_getsockname -> aa_sock_perm(AA_MAY_GETATTR); listen:
 * apparmor_socket_listen -> aa_sk_perm(AA_MAY_LISTEN).
 */
static void plan_server(const struct ctx *c, struct plan *p)
{
	unsigned int d = c->sdeny;
	int s, b;

	memset(p, 0, sizeof(*p));
	s = add(p, "socket", W_SOCKET, 0, -1, false, need(d, DENY_CREATE));
	add(p, "setsockopt", W_SETOPT, 0, s, false, need(d, DENY_SETOPT));
	add(p, "getsockopt", W_GETOPT, 0, s, false, need(d, DENY_GETOPT));
	b = add(p, "bind", W_BIND, 0, s, false, need(d, DENY_BIND));
	add(p, "getsockname", W_GETNAME, 0, b, false, need(d, DENY_GETATTR));
	if (c->tcp)
		add(p, "listen", W_LISTEN, 0, b, false, need(d, DENY_LISTEN));
}

/* What the client's plan leaves for the server to take. */
struct conn {
	bool sent; /* a payload on it */
	bool eof; /* the client shut its side down */
};

/*
 * The client: socket and options as the server's; connect
 * (apparmor_socket_connect -> aa_sk_perm(AA_MAY_CONNECT)), send
 * (apparmor_socket_sendmsg -> aa_sock_msg_perm(AA_MAY_SEND)) and shutdown
 * (apparmor_socket_shutdown -> aa_sock_perm(AA_MAY_SHUTDOWN)); on TCP a
 * second socket sends with MSG_FASTOPEN, whose implicit connect
 * apparmor_socket_sendmsg checks (AA_MAY_CONNECT after AA_MAY_SEND) on
 * kernels that advertise tcp-fast-open; older ones check the send only
 * (6.1.176: a label without connect still opens TCP connections that
 * way).
 *
 * When allowed, the transport decides: a TCP connect to a server that is
 * not listening is refused (the client then aims at the test's bound,
 * not listening socket: ECONNREFUSED); a UDP or raw connect only sets the
 * destination; shutdown of a socket that is not connected is ENOTCONN
 * (inet_shutdown). @up: the model expects the server to listen (TCP), be
 * bound (UDP) or exist (raw). Fills @conns, in the order the server's accept() gets
 * them (TCP), and returns their number; for UDP and raw @conns[0] says
 * whether a datagram was sent.
 */
static int plan_client(const struct ctx *c, struct plan *p, bool up,
		       struct conn *conns)
{
	unsigned int d = c->cdeny;
	int s, k, snd, sh, f, fo, n = 0;
	bool connected;

	memset(p, 0, sizeof(*p));
	s = add(p, "socket", W_SOCKET, 0, -1, false, need(d, DENY_CREATE));
	add(p, "setsockopt", W_SETOPT, 0, s, false, need(d, DENY_SETOPT));
	add(p, "getsockopt", W_GETOPT, 0, s, false, need(d, DENY_GETOPT));
	k = add(p, "connect", W_CONNECT, 0, s, false,
		need(d, DENY_CONNECT) ?: (c->tcp && !up ? -ECONNREFUSED : 0));
	connected = !p->s[k].want;
	/*
	 * getpeername: apparmor_socket_getpeername -> aa_sock_perm(
	 * AA_MAY_GETATTR) before the transport's ->getname, which refuses a
	 * peer without a port (inet_getname, inet6_getname: ENOTCONN): the
	 * raw client's connect names loopback with port 0.
	 */
	add(p, "getpeername", W_GETPEER, 0, k, false,
	    need(d, DENY_GETATTR) ?: (c->v->type == SOCK_RAW ? -ENOTCONN : 0));
	snd = add(p, "send", W_SEND, 0, k, false, need(d, DENY_SEND));
	sh = add(p, "shutdown", W_SHUTDOWN, 0, s, false,
		 need(d, DENY_SHUTDOWN) ?: (connected ? 0 : -ENOTCONN));
	if (!c->tcp) {
		conns[0].sent = !p->s[snd].want;
		return 0;
	}
	if (connected)
		conns[n++] = (struct conn){ .sent = !p->s[snd].want,
					    .eof = !p->s[sh].want };
	f = add(p, "fastopen_socket", W_SOCKET, 1, -1, false,
		need(d, DENY_CREATE));
	fo = add(p, "fastopen_sendto", W_FASTOPEN, 1, f, false,
		 need(d, DENY_SEND)				    ?:
			 (c->self->tfo ? need(d, DENY_CONNECT) : 0) ?:
			 (up ? 0 : -ECONNREFUSED));
	p->s[fo].depends = c->tfo_dep;
	if (!p->s[fo].want)
		conns[n++] = (struct conn){ .sent = true };
	return n;
}

/*
 * The server's second batch. TCP: accept each connection the client made
 * (apparmor_socket_accept -> aa_sk_perm(AA_MAY_ACCEPT) on the listening
 * socket, before the queue is looked at: denied even when nothing waits),
 * receive on it (apparmor_socket_recvmsg -> aa_sock_msg_perm(
 * AA_MAY_RECEIVE), checked before the queue is looked at), shut the first
 * down. UDP and raw: receive on the bound socket, then shut down (not
 * connected: ENOTCONN once allowed). An accept or receive with nothing
 * queued is EAGAIN: the worker waits only for what the model expects.
 */
static void plan_take(const struct ctx *c, struct plan *p,
		      const struct plan *ps, const struct conn *conns,
		      int nconn, bool delivered)
{
	unsigned int d = c->sdeny;
	/* TCP: listen is the server's last step (it needs socket, bind). */
	bool listening = c->tcp && !ps->s[ps->b.n - 1].want;
	bool made = !ps->s[0].want;
	int i, a, r;

	memset(p, 0, sizeof(*p));
	if (!c->tcp) {
		r = add(p, "receive", W_RECV, 0, -1, !made,
			need(d, DENY_RECEIVE) ?: (delivered ? 0 : -EAGAIN));
		p->s[r].want_count = delivered;
		p->b.c[r].wait = delivered;
		add(p, "shutdown", W_SHUTDOWN, 0, -1, !made,
		    need(d, DENY_SHUTDOWN) ?: -ENOTCONN);
		return;
	}
	for (i = 0; i < 2; i++) {
		static const char *const names[2][2] = {
			{ "accept", "receive" },
			{ "accept_fastopen", "receive_fastopen" },
		};
		const struct conn *cn = i < nconn ? &conns[i] : NULL;

		a = add(p, names[i][0], W_ACCEPT, 0, -1, !listening,
			need(d, DENY_ACCEPT) ?: (cn ? 0 : -EAGAIN));
		p->b.c[a].slot2 = 2 + i;
		p->b.c[a].wait = cn;
		r = add(p, names[i][1], W_RECV, 2 + i, a, false,
			need(d, DENY_RECEIVE) ?:
				(cn && (cn->sent || cn->eof) ? 0 : -EAGAIN));
		p->s[r].want_count = cn && cn->sent;
		p->b.c[r].wait = cn && (cn->sent || cn->eof);
		if (!i)
			add(p, "shutdown", W_SHUTDOWN, 2, a, false,
			    need(d, DENY_SHUTDOWN));
	}
	/* Which connections wait depends on the fastopen's outcome. */
	for (i = 0; i < p->b.n; i++)
		p->s[i].depends = c->tfo_dep;
}

/* ---- fixture ---------------------------------------------------------- */

#define TFO_SYSCTL "/proc/sys/net/ipv4/tcp_fastopen"
/* TFO_CLIENT_ENABLE: clients may send with MSG_FASTOPEN. */
#define TFO_CLIENT 1

/* The simple labels (one profile each) label @l is made of. */
static int label_parts(const struct inet_label *l,
		       const struct inet_label **parts)
{
	int n = 0;

	if (l->kind == K_STACK) {
		if (l->base)
			parts[n++] = l->base;
		parts[n++] = l->top;
	} else if (l->kind != K_UNCONFINED) {
		parts[n++] = l;
	}
	return n;
}

/*
 * Compiles every profile the variants of @abi use (the harness's list of
 * them), in one parser run per 64 profiles (its start-up, not the
 * compilation, costs most under emulation) at the ABI's first case.
 * Returns 0 or -errno.
 */
static int build_abi(const char *abi)
{
	static char tags[160][96], rules[160][256];
	static struct aa_policy_src src[160];
	const struct __fixture_variant_metadata *vm;
	int n = 0, ret = 0, k, i, j;

	/* The harness's list of this fixture's variants. */
	for (vm = _inet_fixture_object.variant; vm; vm = vm->next) {
		const FIXTURE_VARIANT(inet) *v = vm->data;
		const struct inet_label *parts[4];
		int np;

		if (strcmp(v->abi, abi))
			continue;
		np = label_parts(v->client, parts);
		np += label_parts(v->server, parts + np);
		for (i = 0; i < np && n < 160; i++) {
			rule_text(parts[i], abi, v->family, v->type, tags[n],
				  sizeof(tags[n]), rules[n], sizeof(rules[n]));
			for (j = 0; j < n; j++)
				if (!strcmp(tags[j], tags[n]))
					break;
			if (j == n)
				n++;
		}
	}
	for (k = 0; k < n; k++)
		src[k] = (struct aa_policy_src){ "inet", rules[k], tags[k] };
	for (k = 0; k < n && !ret; k += 64)
		ret = aa_policy_build_all(abi, src + k,
					  n - k < 64 ? n - k : 64);
	return ret;
}

/* Compiles (cached) and loads the profile of simple label @l. */
static int load_one(struct __test_metadata *_metadata,
		    const struct inet_label *l, const char *abi, int fam,
		    int type, char *name, size_t size)
{
	char tag[96], rules[256];
	struct aa_policy p;
	int ret;

	rule_text(l, abi, fam, type, tag, sizeof(tag), rules, sizeof(rules));
	ret = aa_policy_build(&p, "inet", abi, rules, tag);
	if (ret) {
		TH_LOG("compiling %s failed (%s); parser output in %s", tag,
		       strerror(-ret), p.log);
		return ret;
	}
	snprintf(name, size, "%s", p.name);
	return aa_policy_load_shared(&p);
}

/*
 * Loads label @l's profiles and writes the W_ENTER batch that enters it:
 * change to the first, stack the second.
 */
static int load_label(struct __test_metadata *_metadata,
		      const FIXTURE_VARIANT(inet) * v,
		      const struct inet_label *l, struct wbatch *b)
{
	const struct inet_label *parts[2];
	int n = label_parts(l, parts), ret = 0, i;

	memset(b, 0, sizeof(*b));
	b->n = 1;
	b->c[0] = (struct wcmd){ .op = W_ENTER, .needs = -1 };
	/* A stack on unconfined has no first profile to change to. */
	for (i = 0; i < n && !ret; i++) {
		bool stacked = l->kind == K_STACK && (i || !l->base);

		ret = load_one(_metadata, parts[i], v->abi, v->family, v->type,
			       stacked ? b->stack : b->change,
			       sizeof(b->change));
	}
	return ret;
}

FIXTURE_SETUP(inet)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char val[32];
	int fd, ret;

	self->tfo_saved = -1;
	self->nowhere = -1;
	REQUIRE_APPARMOR(_metadata, true);
	fd = socket(variant->family, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0 && errno == EAFNOSUPPORT)
		SKIP(return, "the kernel has no %s (socket(): EAFNOSUPPORT)",
			   variant->family_id);
	ASSERT_LE(0, fd);
	close(fd);
	ASSERT_EQ(0, loopback_up());
	/*
	 * Fastopen's implicit connect is mediated where the kernel says
	 * so: net.c advertises tcp-fast-open beside network_v8's af_mask
	 * (and network_v9's) since the check was added.
	 */
	self->tfo = aa_feature("network_v8/tcp-fast-open") == 1;
	if (variant->type == SOCK_STREAM) {
		ASSERT_LT(0, read_text(TFO_SYSCTL, val, sizeof(val)));
		if (!(atoi(val) & TFO_CLIENT)) {
			self->tfo_saved = atoi(val);
			snprintf(val, sizeof(val), "%d",
				 self->tfo_saved | TFO_CLIENT);
			ASSERT_EQ(0, write_text(TFO_SYSCTL, val));
		}
	}

	/*
	 * Every profile of the ABI in one parser run: at the ABI's first
	 * case; later cases find the blobs in this boot's cache.
	 */
	ret = build_abi(variant->abi);
	AA_REQUIRE_BUILT(_metadata, ret);
	if (ret)
		TH_LOG("compiling ABI %s's profiles in one run failed (%s): each is compiled alone",
		       variant->abi, strerror(-ret));

	/*
	 * Where a client aims when the server has no address: a socket of
	 * the test's, bound and never listening (TCP: refused) or never read
	 * (UDP).
	 */
	if (variant->type != SOCK_RAW) {
		self->nowhere = socket(variant->family,
				       variant->type | SOCK_CLOEXEC, 0);
		ASSERT_LE(0, self->nowhere);
		loopback(variant->family, &ss, &len);
		ASSERT_EQ(0, bind(self->nowhere, (struct sockaddr *)&ss, len));
	} else {
		loopback(variant->family, &ss, &len);
		self->nowhere_addr = ss;
		self->nowhere_len = len;
	}
	if (self->nowhere >= 0) {
		self->nowhere_len = sizeof(self->nowhere_addr);
		ASSERT_EQ(0, getsockname(self->nowhere,
					 (struct sockaddr *)&self->nowhere_addr,
					 &self->nowhere_len));
	}
}

/*
 * The labels stay loaded for the next cases; the binary removes them at
 * its end and checks the policy is as it found it (harness_main.h).
 */
FIXTURE_TEARDOWN(inet)
{
	char val[32];

	if (self->nowhere >= 0)
		close(self->nowhere);
	if (self->tfo_saved >= 0) {
		snprintf(val, sizeof(val), "%d", self->tfo_saved);
		EXPECT_EQ(0, write_text(TFO_SYSCTL, val));
	}
}

static void enter(struct ctx *c, struct worker *w, const struct wbatch *b,
		  const struct inet_label *l)
{
	struct __test_metadata *_metadata = c->md;
	struct wreply r;

	ASSERT_EQ(0, inet_worker_run(w, b, &r));
	ASSERT_EQ(0, r.err[0])
	{
		TH_LOG("the worker could not enter %s (context \"%s\"): %s",
		       l->id, r.context, strerror(-r.err[0]));
	}
}

TEST_F_TIMEOUT(inet, decisions, 30)
{
	struct ctx c = { .md = _metadata, .v = variant, .self = self };
	struct wbatch eclient, eserver;
	struct worker client = { 0 }, server = { 0 };
	struct plan ps, pc, pt;
	struct wreply rs, rc, rt;
	struct conn conns[2] = { 0 };
	int nconn, ret, i;
	bool up;

	ret = load_label(_metadata, variant, variant->client, &eclient);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, load_label(_metadata, variant, variant->server, &eserver));
	c.cdeny = denies(variant->client, variant->abi, variant->family,
			 variant->type);
	c.sdeny = denies(variant->server, variant->abi, variant->family,
			 variant->type);
	c.tcp = variant->type == SOCK_STREAM;
	/*
	 * A client that may make sockets and send but not connect: whether
	 * its fastopen connects (and so what the server takes) is decided
	 * by the kernel's tcp-fast-open mediation.
	 */
	if (c.tcp && (c.cdeny & DENY_CONNECT) &&
	    !(c.cdeny & (DENY_CREATE | DENY_SEND)))
		c.tfo_dep = self->tfo ? "network_v8/tcp-fast-open=yes" :
					"network_v8/tcp-fast-open=no";
	else
		c.tfo_dep = "-";
	c.proto = variant->type == SOCK_RAW ? RAW_PROTO : 0;

	ASSERT_EQ(0, inet_worker_start(&server));
	ASSERT_EQ(0, inet_worker_start(&client));
	enter(&c, &server, &eserver, variant->server);
	enter(&c, &client, &eclient, variant->client);

	plan_server(&c, &ps);
	PLAY(&c, &server, &ps, "server", &rs);
	/*
	 * Reachable: TCP listening, UDP bound at a known port; a raw
	 * socket receives its protocol's datagrams to loopback once made,
	 * bound or not.
	 */
	up = variant->type == SOCK_RAW ? !ps.s[0].want : steps_ok(ps.s, ps.b.n);

	nconn = plan_client(&c, &pc, up, conns);
	for (i = 0; i < pc.b.n; i++) {
		struct wcmd *w = &pc.b.c[i];

		if (w->op != W_CONNECT && w->op != W_FASTOPEN)
			continue;
		if (variant->type != SOCK_RAW && errs_ok(rs.err, ps.b.n)) {
			w->addr = rs.name;
			w->len = rs.namelen;
		} else {
			w->addr = self->nowhere_addr;
			w->len = self->nowhere_len;
		}
	}
	PLAY(&c, &client, &pc, "client", &rc);

	plan_take(&c, &pt, &ps, conns, nconn,
		  up && !ps.s[0].want && conns[0].sent);
	PLAY(&c, &server, &pt, "server", &rt);

	worker_stop(&client);
	worker_stop(&server);
	if (c.t.wrong)
		TH_LOG("%d decisions, %d not as expected", c.t.decisions,
		       c.t.wrong);
}

AA_HARNESS_MAIN
