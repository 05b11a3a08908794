// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: old-ABI coarse network rules on AF_UNIX sockets.
 *
 * Profiles pinned to ABI 3.0, 4.0 and kernel-5.4-vanilla hold the rules
 * old policies write: "network unix,", "network unix stream,", "network
 * unix dgram,", their deny forms beside "network,", deny rules with one
 * permission ("deny network (send) unix dgram,"), and "network unix," with
 * file rules that do not name the pathname sockets. One variant is one
 * ABI (one compile, one load of profiles/coarse.profile); for each rule it
 * runs both socket types on abstract, pathname and autobind addresses
 * with the confined task on each side, a socketpair, and sockets the task
 * made before it entered the profile (inherited). Every operation's
 * outcome is compared with what the model below computes and written as a
 * decision record, id
 * unix_coarse_test/unix_coarse.ABI_VARIANT.decisions/RULE/TYPE/ADDRESS/CASE/SIDE.OP.
 *
 * Two processes (coarse.h workers) serve a rule and type: one enters the
 * profile and stays in it, one stays unconfined.
 */

#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "coarse.h"
#include "steps.h"

/*
 * A rule of profiles/coarse.profile: what it denies on each socket type
 * when the policy carries network rules (every ABI here but
 * kernel-5.4-vanilla). An allow-only profile denies what it does not
 * allow; "deny network unix X," beside "network," denies all of type X; a
 * deny with permissions denies every request holding one of them
 * (aa_check_perms: denied = request & (~allow | deny)).
 * @nofile: the profile's file rules leave out /tmp, where the pathname
 * sockets live (the old policy that granted "network unix," and never
 * named its socket paths).
 */
struct coarse_rule {
	const char *id; /* the profile's suffix */
	unsigned int deny_stream, deny_dgram;
	bool nofile;
};

/* clang-format off */
static const struct coarse_rule R_unix = { "unix", 0, 0 };
static const struct coarse_rule R_unix_stream = { "unix_stream", 0, ALL_NET };
static const struct coarse_rule R_unix_dgram = { "unix_dgram", ALL_NET, 0 };
static const struct coarse_rule R_deny_unix = {
	"deny_unix", ALL_NET, ALL_NET,
};
static const struct coarse_rule R_deny_stream = {
	"deny_stream", ALL_NET, 0,
};
static const struct coarse_rule R_deny_dgram = { "deny_dgram", 0, ALL_NET };
static const struct coarse_rule R_deny_dgram_send = {
	"deny_dgram_send", 0, DENY_SEND,
};
static const struct coarse_rule R_deny_dgram_receive = {
	"deny_dgram_receive", 0, DENY_RECEIVE,
};
static const struct coarse_rule R_deny_stream_send = {
	"deny_stream_send", DENY_SEND, 0,
};
static const struct coarse_rule R_unix_nofile = { "unix_nofile", 0, 0, true };
static const struct coarse_rule R_deny_bind = {
	"deny_bind", DENY_BIND, DENY_BIND,
};
static const struct coarse_rule R_deny_stream_listen = {
	"deny_stream_listen", DENY_LISTEN | DENY_ACCEPT, 0,
};
static const struct coarse_rule R_deny_getattr = {
	"deny_getattr", DENY_GETATTR, DENY_GETATTR,
};
/* clang-format on */

static const struct coarse_rule *const all_rules[] = {
	&R_unix,
	&R_unix_stream,
	&R_unix_dgram,
	&R_deny_unix,
	&R_deny_stream,
	&R_deny_dgram,
	&R_deny_dgram_send,
	&R_deny_dgram_receive,
	&R_deny_stream_send,
	&R_unix_nofile,
	&R_deny_bind,
	&R_deny_stream_listen,
	&R_deny_getattr,
};

FIXTURE(unix_coarse)
{
	long long t0; /* setup's start, for the time the case took */
	char before[65536];
	struct aa_policy policy;
	bool k9; /* the kernel's AppArmor has AF_UNIX hooks (af_unix.c) */
	char dir[64]; /* pathname sockets live here */
	struct worker conf, unconf;
	int serial; /* makes each address unique */
};

FIXTURE_VARIANT(unix_coarse)
{
	const char *abi;
};

#define ABI_VANILLA "kernel-5.4-vanilla"

/* One variant per policy ABI; each runs every rule of coarse.profile. */
/* clang-format off */
FIXTURE_VARIANT_ADD(unix_coarse, abi_3_0) { .abi = "3.0" };
FIXTURE_VARIANT_ADD(unix_coarse, abi_4_0) { .abi = "4.0" };
FIXTURE_VARIANT_ADD(unix_coarse, abi_vanilla) { .abi = ABI_VANILLA };
/* clang-format on */

/* ---- the expectation model ------------------------------------------- */

/*
 * What the confined label denies on this case's socket type. ABIs 3.0 and
 * 4.0 compile network rules into the old network class (AA_CLASS_NET) and
 * no AF_UNIX class (AA_CLASS_NETV9): their rules reach the kernel's
 * generic family/type/protocol check, aa_profile_af_perm() (net.c), on
 * every kernel. kernel-5.4-vanilla declares no network mediation: the
 * parser drops every network rule, RULE_MEDIATES_NET() finds no class and
 * aa_profile_af_perm() allows everything.
 *
 * Which operations are checked, and against which label, depends on the
 * kernel:
 * - k9 (7.2, advertises network_v9/af_unix): AppArmor's AF_UNIX hooks in
 *   af_unix.c and lsm.c handle every AF_UNIX operation; with no
 *   AA_CLASS_NETV9 in the profile each of them falls back to
 *   aa_profile_af_sk_perm() / aa_profile_af_perm() with its own request.
 *   The peer checks (apparmor_unix_may_send, apparmor_unix_stream_connect)
 *   also check the label stored on the peer's socket.
 * - legacy (6.12, 6.1): apparmor_socket_* hooks check every call with
 *   aa_sk_perm() against the calling task's label, the peer never.
 */
struct model {
	bool k9;
	unsigned int deny; /* the confined label's denials on this type */
	bool dgram;
	bool nofile; /* file rules do not cover the pathname sockets */
};

static void model_init(struct model *m, const char *abi,
		       const struct coarse_rule *rule, bool k9, int type)
{
	bool mediated = strcmp(abi, ABI_VANILLA);

	m->k9 = k9;
	m->dgram = type == SOCK_DGRAM;
	m->nofile = rule->nofile;
	m->deny = !mediated ? 0 :
		  m->dgram  ? rule->deny_dgram :
			      rule->deny_stream;
}

/*
 * A label: the confined one or unconfined, which nothing checks. A
 * socket carries the label of the task that made it
 * (apparmor_socket_post_create, apparmor_socket_socketpair).
 */
static int need(const struct model *m, bool confined, unsigned int perms)
{
	return confined && (m->deny & perms) ? -EACCES : 0;
}

/*
 * A check on the task's own socket: create (apparmor_socket_create ->
 * aa_unix_create_perm on k9), setopt/getopt (aa_unix_opt_perm), bind
 * (aa_unix_bind_perm), listen (aa_unix_listen_perm), getattr
 * (aa_unix_sock_perm), accept (aa_unix_accept_perm), shutdown
 * (aa_unix_sock_perm); each falls back to aa_profile_af_sk_perm(). On
 * legacy kernels the same apparmor_socket_* hooks call aa_sk_perm().
 */
static int own(const struct model *m, bool task, unsigned int perm)
{
	return need(m, task, perm);
}

/*
 * Binding a pathname makes the socket's inode: apparmor_path_mknod()
 * checks the file rules' create on the path, on every kernel and ABI (a
 * file rule, not a network one). The address check (own() above) comes
 * first, in apparmor_socket_bind().
 */
static int fs_create(const struct model *m, bool task, bool pathname)
{
	return task && pathname && m->nofile ? -EACCES : 0;
}

/*
 * A datagram sendto()/send(), and a datagram connect(): k9 checks in
 * apparmor_unix_may_send() the task's send and the receiving socket's
 * label's receive (aa_unix_peer_perm -> profile_peer_perm -> fallback
 * aa_profile_af_sk_perm); unix_dgram_connect() calls the same hook.
 * Legacy: apparmor_socket_sendmsg() checks the task's send,
 * apparmor_socket_connect() its connect.
 */
static int dgram_send(const struct model *m, bool task, bool peer_sock)
{
	if (m->k9)
		return need(m, task, DENY_SEND) ?:
			       need(m, peer_sock, DENY_RECEIVE);
	return need(m, task, DENY_SEND);
}

static int dgram_connect(const struct model *m, bool task, bool peer_sock)
{
	if (m->k9)
		return dgram_send(m, task, peer_sock);
	return need(m, task, DENY_CONNECT);
}

/*
 * A stream connect(): k9 checks in unix_connect_perm() the task's
 * connect, send and receive, and, unless the listener is a pathname
 * socket, the listening socket's label's accept, send and receive.
 * Legacy: apparmor_socket_connect() checks the task's connect.
 */
static int stream_connect(const struct model *m, bool task, bool peer_sock,
			  bool pathname)
{
	if (m->k9)
		return need(m, task, DENY_CONNECT | DENY_SEND | DENY_RECEIVE) ?:
			       need(m, peer_sock && !pathname,
				    DENY_ACCEPT | DENY_SEND | DENY_RECEIVE);
	return need(m, task, DENY_CONNECT);
}

/*
 * Sending on a connected stream: k9 checks nothing per message
 * (apparmor_socket_sendmsg returns 0 for PF_UNIX: "right to send on
 * stream done at connect"); legacy checks the task's send.
 */
static int stream_send(const struct model *m, bool task)
{
	return m->k9 ? 0 : need(m, task, DENY_SEND);
}

/*
 * Receiving: k9 checks nothing (apparmor_socket_recvmsg ->
 * aa_sock_msg_perm returns 0 for PF_UNIX; the receive check moved to the
 * sender's apparmor_unix_may_send); legacy checks the task's receive.
 * Then: payloads taken, or end-of-file on a stream whose peer shut down,
 * or nothing queued (EAGAIN: the worker never waits).
 */
static int receive(const struct model *m, bool task, int queued, bool eof)
{
	int e = m->k9 ? 0 : need(m, task, DENY_RECEIVE);

	if (e)
		return e;
	return queued || eof ? 0 : -EAGAIN;
}

/* ---- the cases --------------------------------------------------------- */

enum addr_kind { ADDR_ABSTRACT, ADDR_PATHNAME, ADDR_AUTOBIND };

static const char *const addr_ids[] = { "abstract", "pathname", "autobind" };

struct plan {
	struct wbatch b;
	struct step s[W_BATCH];
};

/*
 * Adds an operation to @p; when the operation it needs is expected to
 * fail, it is expected not to run.
 */
static int add(struct plan *p, const char *name, enum wop op, int slot,
	       int slot2, int type, int needs, int want)
{
	struct wcmd *c = &p->b.c[p->b.n];

	memset(c, 0, sizeof(*c));
	c->op = op;
	c->slot = slot;
	c->slot2 = slot2;
	c->type = type;
	c->needs = needs;
	step_set(p->s, p->b.n, name, needs, false, op == W_RECV, want);
	return p->b.n++;
}

static void set_addr(struct plan *p, int i, const struct sockaddr_un *a,
		     socklen_t len)
{
	p->b.c[i].addr = *a;
	p->b.c[i].len = len;
}

/* Where a case's receiver binds. */
static void case_addr(FIXTURE_DATA(unix_coarse) * self, enum addr_kind k,
		      int type, struct sockaddr_un *sun, socklen_t *len)
{
	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	self->serial++;
	switch (k) {
	case ADDR_ABSTRACT:
		snprintf(sun->sun_path + 1, sizeof(sun->sun_path) - 1,
			 "lsmconf-coarse-%d-%d-%d", getpid(), type,
			 self->serial);
		*len = offsetof(struct sockaddr_un, sun_path) + 1 +
		       strlen(sun->sun_path + 1);
		break;
	case ADDR_PATHNAME:
		snprintf(sun->sun_path, sizeof(sun->sun_path), "%s/s%d",
			 self->dir, self->serial);
		*len = sizeof(*sun);
		break;
	case ADDR_AUTOBIND:
		/* The family alone asks the kernel for a name. */
		*len = offsetof(struct sockaddr_un, sun_path);
		break;
	}
}

/* A name nobody holds, for a sender whose receiver could not bind. */
static const struct sockaddr_un nowhere = {
	.sun_family = AF_UNIX,
	.sun_path = "\0lsmconf-coarse-nowhere",
};

#define NOWHERE_LEN (offsetof(struct sockaddr_un, sun_path) + 23)

struct ctx {
	struct __test_metadata *md;
	FIXTURE_DATA(unix_coarse) * self;
	const char *abi;
	const struct coarse_rule *rule;
	struct model m;
	const char *type_id, *addr_id, *kase;
	const char *sender, *receiver; /* labels, for the records */
	int type;
	struct tally t;
};

/*
 * Runs @p on @w, compares and records every outcome. One KTAP case (an
 * ABI) decides the whole matrix: the op names the point,
 * RULE/TYPE/ADDRESS/CASE/SIDE.OP.
 */
static int play(struct ctx *c, struct worker *w, struct plan *p,
		const char *side, struct wreply *r)
{
	char point[128], depends[64];
	struct record base = {
		.abi = c->abi,
		.subject = c->sender,
		.object = c->receiver,
		.class = c->type_id,
		.detail = c->addr_id,
		.depends = depends,
	};
	int ret;

	ret = worker_run(w, &p->b, r);
	if (ret)
		return ret;
	/* The outcome depends on the kernel's hooks unless nothing is mediated. */
	if (strcmp(c->abi, ABI_VANILLA))
		snprintf(depends, sizeof(depends), "network_v9/af_unix=%s",
			 c->m.k9 ? "yes" : "no");
	else
		snprintf(depends, sizeof(depends), "-");
	snprintf(point, sizeof(point), "%s/%s/%s/%s/", c->rule->id, c->type_id,
		 c->addr_id, c->kase);
	judge_steps(c->md, &base, point, side, p->s, p->b.n, r->err, r->count,
		    &c->t);
	return 0;
}

static int reset(struct worker *w)
{
	struct wbatch b = { .n = 1, .c[0] = { .op = W_RESET, .needs = -1 } };
	struct wreply r;

	return worker_run(w, &b, &r);
}

/*
 * A receiver: socket, options, bind, listen (stream), getsockname, on
 * behalf of @confined or not. Returns the plan; what the sender aims at
 * comes from the reply.
 */
static void plan_receiver(struct ctx *c, struct plan *p, bool confined,
			  const struct sockaddr_un *a, socklen_t len)
{
	const struct model *m = &c->m;
	int s, b, l = -1;

	memset(p, 0, sizeof(*p));
	s = add(p, "socket", W_SOCKET, 0, 0, c->type, -1,
		own(m, confined, DENY_CREATE));
	/* Only the confined side's options can be denied. */
	if (confined) {
		add(p, "setsockopt", W_SETOPT, 0, 0, c->type, s,
		    own(m, confined, DENY_SETOPT));
		add(p, "getsockopt", W_GETOPT, 0, 0, c->type, s,
		    own(m, confined, DENY_GETOPT));
	}
	b = add(p, "bind", W_BIND, 0, 0, c->type, s,
		own(m, confined, DENY_BIND) ?:
			fs_create(m, confined, a->sun_path[0] != 0));
	set_addr(p, b, a, len);
	if (!m->dgram)
		l = add(p, "listen", W_LISTEN, 0, 0, c->type, b,
			own(m, confined, DENY_LISTEN));
	add(p, "getsockname", W_GETNAME, 0, 0, c->type, l >= 0 ? l : b,
	    own(m, confined, DENY_GETATTR));
}

/* Did the receiver's plan (as observed) leave an address to aim at? */
static bool reachable(const struct plan *p, const struct wreply *r)
{
	return errs_ok(r->err, p->b.n) && r->namelen > 0;
}

/* Expected the same, by the model. */
static bool want_reachable(const struct plan *p)
{
	return steps_ok(p->s, p->b.n);
}

/*
 * The receiver's socket listens when its listen step is expected to
 * succeed, even where a later step (getsockname) is refused and leaves the
 * sender nothing to aim at.
 */
static bool want_listening(const struct plan *p)
{
	int i;

	for (i = 0; i < p->b.n; i++)
		if (p->b.c[i].op == W_LISTEN)
			return !p->s[i].want;
	return false;
}

/*
 * A sender on socket slot 0 (made here unless @inherited: then it exists
 * since before the task entered its label), aiming at @to.
 * @peer_sock: the receiving socket carries the confined label.
 * @up: the model expects the receiver to be reachable.
 * Returns the number of payloads the model expects to arrive, and whether
 * the sender is expected to shut down a connected stream (@eof).
 */
static int plan_sender(struct ctx *c, struct plan *p, bool confined,
		       bool inherited, bool peer_sock, bool pathname, bool up,
		       const struct sockaddr_un *to, socklen_t tolen, bool *eof)
{
	const struct model *m = &c->m;
	int s = -1, i, e, sent = 0;

	memset(p, 0, sizeof(*p));
	*eof = false;
	if (!inherited)
		s = add(p, "socket", W_SOCKET, 0, 0, c->type, -1,
			own(m, confined, DENY_CREATE));
	/* Only the confined side's options can be denied. */
	if (confined) {
		add(p, "setsockopt", W_SETOPT, 0, 0, c->type, s,
		    own(m, confined, DENY_SETOPT));
		add(p, "getsockopt", W_GETOPT, 0, 0, c->type, s,
		    own(m, confined, DENY_GETOPT));
	}
	if (m->dgram) {
		/*
		 * Nobody bound there: the LSM hook of a legacy kernel runs
		 * before AF_UNIX looks the name up; on k9 the peer hook
		 * needs the peer, so the name is refused first.
		 */
		e = dgram_send(m, confined, peer_sock);
		if (!up)
			e = m->k9			 ? -ECONNREFUSED :
			    need(m, confined, DENY_SEND) ?:
							   -ECONNREFUSED;
		i = add(p, "sendto", W_SENDTO, 0, 0, c->type, s, e);
		set_addr(p, i, to, tolen);
		sent += !p->s[i].want;
		e = dgram_connect(m, confined, peer_sock);
		if (!up)
			e = m->k9			    ? -ECONNREFUSED :
			    need(m, confined, DENY_CONNECT) ?:
							      -ECONNREFUSED;
		i = add(p, "connect", W_CONNECT, 0, 0, c->type, s, e);
		set_addr(p, i, to, tolen);
		i = add(p, "send", W_SEND, 0, 0, c->type, i,
			dgram_send(m, confined, peer_sock));
		sent += !p->s[i].want;
	} else {
		e = stream_connect(m, confined, peer_sock, pathname);
		if (!up)
			e = m->k9			    ? -ECONNREFUSED :
			    need(m, confined, DENY_CONNECT) ?:
							      -ECONNREFUSED;
		i = add(p, "connect", W_CONNECT, 0, 0, c->type, s, e);
		set_addr(p, i, to, tolen);
		e = add(p, "send", W_SEND, 0, 0, c->type, i,
			stream_send(m, confined));
		sent += !p->s[e].want;
		e = add(p, "shutdown", W_SHUTDOWN, 0, 0, c->type, i,
			own(m, confined, DENY_SHUTDOWN));
		*eof = !p->s[e].want;
		return sent;
	}
	add(p, "shutdown", W_SHUTDOWN, 0, 0, c->type, s,
	    own(m, confined, DENY_SHUTDOWN));
	return sent;
}

/*
 * The receiver takes what arrived on socket slot 0 (a stream: on the
 * connection it accepts into slot 1).
 */
static void plan_take(struct ctx *c, struct plan *p, bool confined,
		      bool listening, bool connected, int sent, bool eof)
{
	const struct model *m = &c->m;
	int a = -1, slot = 0, i;

	memset(p, 0, sizeof(*p));
	if (!m->dgram) {
		int e = own(m, confined, DENY_ACCEPT);

		/*
		 * A socket that was made but never listened (its bind was
		 * refused): unix_accept() refuses it after the LSM check.
		 */
		if (!e && !listening)
			e = -EINVAL;
		else if (!e && !connected)
			e = -EAGAIN;
		a = add(p, "accept", W_ACCEPT, 0, 1, c->type, -1, e);
		slot = 1;
	}
	i = add(p, "receive", W_RECV, slot, 0, c->type, a,
		receive(m, confined, sent, eof));
	p->s[i].want_count = sent;
}

/* A batch that did not run (a worker died or hung) ends the case. */
#define PLAY(c, w, p, side, r) ASSERT_EQ(0, play(c, w, p, side, r))

/*
 * One address kind and direction: @conf_sends (the confined worker
 * sends to the unconfined one) or the reverse.
 */
static void run_direction(struct ctx *c, enum addr_kind k, bool conf_sends)
{
	struct __test_metadata *_metadata = c->md;
	FIXTURE_DATA(unix_coarse) *self = c->self;
	struct worker *rw = conf_sends ? &self->unconf : &self->conf;
	struct worker *sw = conf_sends ? &self->conf : &self->unconf;
	struct plan pr, ps, pt;
	struct wreply rr, rs, rt;
	struct sockaddr_un a;
	socklen_t len;
	bool up, eof, listening, connected;
	int sent;

	c->addr_id = addr_ids[k];
	c->kase = conf_sends ? "confined_sender" : "confined_receiver";
	c->sender = conf_sends ? c->rule->id : "unconfined";
	c->receiver = conf_sends ? "unconfined" : c->rule->id;
	case_addr(self, k, c->type, &a, &len);
	plan_receiver(c, &pr, !conf_sends, &a, len);
	PLAY(c, rw, &pr, "receiver", &rr);
	up = want_reachable(&pr);
	sent = plan_sender(
		c, &ps, conf_sends, false, !conf_sends, k == ADDR_PATHNAME, up,
		reachable(&pr, &rr) ? &rr.name : &nowhere,
		reachable(&pr, &rr) ? rr.namelen : NOWHERE_LEN, &eof);
	PLAY(c, sw, &ps, "sender", &rs);
	listening = !c->m.dgram && want_listening(&pr);
	connected = !c->m.dgram && !ps.s[ps.b.n - 3].want;
	plan_take(c, &pt, !conf_sends, listening, connected, sent, eof);
	/* Nothing to take from a socket that was never made. */
	if (!pr.s[0].want)
		PLAY(c, rw, &pt, "receiver", &rt);
	ASSERT_EQ(0, reset(rw));
	ASSERT_EQ(0, reset(sw));
	if (k == ADDR_PATHNAME)
		unlink(a.sun_path);
}

/* A socketpair made by the confined task: both ends carry its label. */
static void run_pair(struct ctx *c)
{
	struct __test_metadata *_metadata = c->md;
	const struct model *m = &c->m;
	struct plan p;
	struct wreply r;
	int s, i, e, sent = 0;
	bool eof = false;

	c->addr_id = "socketpair";
	c->kase = "confined_pair";
	c->sender = c->receiver = c->rule->id;
	memset(&p, 0, sizeof(p));
	s = add(&p, "socketpair", W_PAIR, 0, 1, c->type, -1,
		own(m, true, DENY_CREATE));
	add(&p, "setsockopt", W_SETOPT, 0, 0, c->type, s,
	    own(m, true, DENY_SETOPT));
	add(&p, "getsockopt", W_GETOPT, 0, 0, c->type, s,
	    own(m, true, DENY_GETOPT));
	/* A pair's datagram goes through apparmor_unix_may_send too (k9). */
	e = m->dgram ? dgram_send(m, true, true) : stream_send(m, true);
	i = add(&p, "send", W_SEND, 0, 0, c->type, s, e);
	sent = !p.s[i].want;
	i = add(&p, "shutdown", W_SHUTDOWN, 0, 0, c->type, s,
		own(m, true, DENY_SHUTDOWN));
	eof = !m->dgram && !p.s[i].want;
	i = add(&p, "receive", W_RECV, 1, 0, c->type, s,
		receive(m, true, sent, eof));
	p.s[i].want_count = sent;
	PLAY(c, &c->self->conf, &p, "pair", &r);
	ASSERT_EQ(0, reset(&c->self->conf));
}

/*
 * Sockets the confined task made before it entered its label (slots 2:
 * a sender, 3: a bound receiver on an abstract name, listening when a
 * stream): they carry the unconfined label, the task's checks use its
 * current one.
 */
static void run_inherited(struct ctx *c, const struct sockaddr_un *inh,
			  socklen_t inh_len)
{
	struct __test_metadata *_metadata = c->md;
	FIXTURE_DATA(unix_coarse) *self = c->self;
	struct plan pr, ps, pt;
	struct wreply rr, rs, rt;
	struct sockaddr_un a;
	socklen_t len;
	bool eof, connected;
	int sent, i;

	/* The inherited sender, to an unconfined receiver. */
	c->addr_id = "abstract";
	c->kase = "inherited_sender";
	c->sender = c->rule->id;
	c->receiver = "unconfined";
	case_addr(self, ADDR_ABSTRACT, c->type, &a, &len);
	plan_receiver(c, &pr, false, &a, len);
	PLAY(c, &self->unconf, &pr, "receiver", &rr);
	ASSERT_TRUE(reachable(&pr, &rr));
	sent = plan_sender(c, &ps, true, true, false, false, true, &rr.name,
			   rr.namelen, &eof);
	/* The inherited socket is slot 2. */
	for (i = 0; i < ps.b.n; i++)
		ps.b.c[i].slot = 2;
	PLAY(c, &self->conf, &ps, "sender", &rs);
	connected = !c->m.dgram && !ps.s[ps.b.n - 3].want;
	plan_take(c, &pt, false, !c->m.dgram, connected, sent, eof);
	PLAY(c, &self->unconf, &pt, "receiver", &rt);
	ASSERT_EQ(0, reset(&self->unconf));

	/* The inherited receiver, from an unconfined sender. */
	c->kase = "inherited_receiver";
	c->sender = "unconfined";
	c->receiver = c->rule->id;
	memset(&pr, 0, sizeof(pr));
	add(&pr, "getsockname", W_GETNAME, 3, 0, c->type, -1,
	    own(&c->m, true, DENY_GETATTR));
	PLAY(c, &self->conf, &pr, "receiver", &rr);
	/* Its socket's label is unconfined: no peer check can deny. */
	sent = plan_sender(c, &ps, false, false, false, false, true, inh,
			   inh_len, &eof);
	PLAY(c, &self->unconf, &ps, "sender", &rs);
	connected = !c->m.dgram && !ps.s[ps.b.n - 3].want;
	plan_take(c, &pt, true, !c->m.dgram, connected, sent, eof);
	for (i = 0; i < pt.b.n; i++) {
		/* slot 3 listens; an accepted connection goes to slot 4. */
		pt.b.c[i].slot = pt.b.c[i].op == W_RECV && !c->m.dgram ? 4 : 3;
		pt.b.c[i].slot2 = 4;
	}
	PLAY(c, &self->conf, &pt, "receiver", &rt);
	ASSERT_EQ(0, reset(&self->unconf));
}

/* ---- fixture ---------------------------------------------------------- */

static void profile_name(const char *abi, const struct coarse_rule *r,
			 char *buf, size_t size)
{
	snprintf(buf, size, AA_TEST_PREFIX "coarse_%s_%s", abi, r->id);
}

FIXTURE_SETUP(unix_coarse)
{
	char tag[64];
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	ASSERT_LE(0, aa_remove_leftovers());
	ASSERT_LE(0, aa_profile_list(self->before, sizeof(self->before)));
	self->k9 = aa_feature("network_v9/af_unix") == 1;
	snprintf(self->dir, sizeof(self->dir), "/tmp/lsmconf-coarse-%d",
		 getpid());
	ASSERT_EQ(0, mkdir(self->dir, 0755));

	self->t0 = now_ns();

	/* Every rule of one ABI in one file: one compile per ABI and boot. */
	snprintf(tag, sizeof(tag), "coarse_%s", variant->abi);
	ret = aa_policy_build(&self->policy, "coarse", variant->abi, NULL, tag);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("compiling %s failed; parser output in %s", tag,
		       self->policy.log);
	}
	ASSERT_EQ(0, aa_policy_load(&self->policy));
}

FIXTURE_TEARDOWN(unix_coarse)
{
	char name[160];
	size_t i;

	worker_stop(&self->conf);
	worker_stop(&self->unconf);
	if (self->policy.loaded) {
		for (i = 0; i < ARRAY_SIZE(all_rules); i++) {
			profile_name(variant->abi, all_rules[i], name,
				     sizeof(name));
			EXPECT_EQ(0, aa_profile_remove(name));
		}
	}
	rmdir(self->dir);
	/* The test leaves the kernel's policy exactly as it found it. */
	if (self->before[0] || self->policy.loaded)
		EXPECT_PROFILES_AS_BEFORE(self->before);
	/* Guest time, compile and load included. */
	TH_LOG("%s: %lld ms", variant->abi, (now_ns() - self->t0) / 1000000);
}

/*
 * The confined worker makes, for each type, an inherited sender (slot 2)
 * and a bound, maybe listening, inherited receiver (slot 3) before it
 * enters the profile. Slots per type are kept apart by running the types
 * one after the other, each with its own inherited pair.
 */
static void prepare_inherited(struct ctx *c, struct sockaddr_un *a,
			      socklen_t *len)
{
	struct __test_metadata *_metadata = c->md;
	struct wbatch b = { 0 };
	struct wreply r;
	int i;

	case_addr(c->self, ADDR_ABSTRACT, c->type, a, len);
	b.c[b.n++] = (struct wcmd){
		.op = W_SOCKET, .slot = 2, .type = c->type, .needs = -1
	};
	b.c[b.n++] = (struct wcmd){
		.op = W_SOCKET, .slot = 3, .type = c->type, .needs = -1
	};
	b.c[b.n++] = (struct wcmd){
		.op = W_BIND, .slot = 3, .needs = 1, .addr = *a, .len = *len
	};
	if (c->type != SOCK_DGRAM)
		b.c[b.n++] =
			(struct wcmd){ .op = W_LISTEN, .slot = 3, .needs = 2 };
	ASSERT_EQ(0, worker_run(&c->self->conf, &b, &r));
	for (i = 0; i < b.n; i++)
		ASSERT_EQ(0, r.err[i]);
}

static void enter(struct ctx *c)
{
	struct __test_metadata *_metadata = c->md;
	struct wbatch b = { .n = 1, .c[0] = { .op = W_ENTER, .needs = -1 } };
	struct wreply r;

	profile_name(c->abi, c->rule, b.label, sizeof(b.label));
	ASSERT_EQ(0, worker_run(&c->self->conf, &b, &r));
	ASSERT_EQ(0, r.err[0])
	{
		TH_LOG("the worker could not enter %s: %s", b.label,
		       strerror(-r.err[0]));
	}
}

TEST_F_TIMEOUT(unix_coarse, decisions, 60)
{
	static const int types[] = { SOCK_DGRAM, SOCK_STREAM };
	struct ctx c = { .md = _metadata, .self = self, .abi = variant->abi };
	struct sockaddr_un inh;
	socklen_t inh_len;
	size_t r;
	int t, k;

	ASSERT_EQ(0, sock_worker_start(&self->unconf));
	for (r = 0; r < ARRAY_SIZE(all_rules); r++) {
		c.rule = all_rules[r];
		/*
		 * One confined worker per rule and type: it makes its
		 * inherited sockets, then enters the profile for good.
		 */
		for (t = 0; t < 2; t++) {
			c.type = types[t];
			c.type_id = c.type == SOCK_DGRAM ? "dgram" : "stream";
			model_init(&c.m, c.abi, c.rule, self->k9, c.type);
			ASSERT_EQ(0, sock_worker_start(&self->conf));
			prepare_inherited(&c, &inh, &inh_len);
			enter(&c);
			/* First: every later case resets the worker's sockets. */
			run_inherited(&c, &inh, inh_len);
			for (k = ADDR_ABSTRACT; k <= ADDR_AUTOBIND; k++) {
				run_direction(&c, k, true);
				run_direction(&c, k, false);
			}
			run_pair(&c);
			worker_stop(&self->conf);
		}
	}
	TH_LOG("%d decisions, %d not as expected", c.t.decisions, c.t.wrong);
}

LSM_HARNESS_MAIN
