// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor labels that change while an AF_UNIX socket lives.
 *
 * A task enters (aa_change_profile) or stacks (aa_stack_profile) a label
 * that lacks one unix permission at some point of a socket's life (after
 * socket(), bind(), listen(), connect(), before accept()), then uses the
 * socket; a socket is inherited over an exec into such a label, or passed
 * to a task in it with SCM_RIGHTS. Every operation is compared with the
 * outcome the model below computes and written as a decision record, in
 * two phases: "existing" (the socket made before the label changed) and
 * "new" (the same steps on a socket made after it).
 *
 * The question the records answer: which label decides each operation,
 * the label stored on the socket when it was made, or the task's current
 * one? Each model rule names the kernel function that decides.
 */

#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/unix_addr.h"
#include "../lsmconf/worker.h"
#include "harness_main.h"
#include "peer.h"

#define ABI "5.0"
#define ALL_BUT(p)                                              \
	"create, bind, listen, accept, connect, " p "getattr, " \
	"setattr, getopt, setopt, shutdown"

/* The labels a task changes to: unix_perms.profile lacking one permission. */
struct lc_label {
	const char *id; /* profile name after AA_TEST_PREFIX */
	const char *tmpl;
	const char *perms;
	unsigned int deny;
};

/* clang-format off */
static const struct lc_label LC_no_send = {
	.id = "lc_no_send", .tmpl = "unix_perms",
	.perms = ALL_BUT("receive, "), .deny = DENY_SEND,
};
static const struct lc_label LC_no_receive = {
	.id = "lc_no_receive", .tmpl = "unix_perms",
	.perms = ALL_BUT("send, "), .deny = DENY_RECEIVE,
};
static const struct lc_label LC_no_accept = {
	.id = "lc_no_accept", .tmpl = "unix_perms",
	.perms =
		"create, bind, listen, connect, send, receive, getattr, setattr, getopt, setopt, shutdown",
	.deny = DENY_ACCEPT,
};
/* A confined label that allows everything: the creator of passed sockets. */
static const struct lc_label LC_allow = { .id = "lc_allow", .tmpl = "allow" };
/* clang-format on */

static const struct lc_label *const lc_labels[] = {
	&LC_no_send,
	&LC_no_receive,
	&LC_no_accept,
	&LC_allow,
};

/*
 * How the running kernel mediates ABI 5.0 unix rules:
 * - FINE: it advertises network_v9/af_unix; af_unix.c decides, with peer
 *   checks (apparmor_unix_may_send, apparmor_unix_stream_connect).
 * - COARSE: only the older network mediation; the parser turns the unix
 *   allow rules into per-socket network permissions, and every socket
 *   call is checked against the calling task's current label alone
 *   (aa_sk_perm from the socket_* hooks).
 * - NONE: no network mediation at all: everything allowed.
 */
enum mediation { MED_FINE, MED_COARSE, MED_NONE };

static const char *const med_names[] = { "fine", "coarse", "none" };

FIXTURE(lifecycle)
{
	char before[65536];
	enum mediation med;
	struct sockaddr_un saddr[2], caddr[2];
	socklen_t slen[2], clen[2];
};

/* How the task takes its new label: change to it, or stack it. */
FIXTURE_VARIANT(lifecycle)
{
	int type;
	const char *type_id;
	bool stack;
	const char *enter_id;
};

FIXTURE_VARIANT_ADD(lifecycle, dgram_change) {
	.type = SOCK_DGRAM,
	.type_id = "dgram",
	.stack = false,
	.enter_id = "change",
};

FIXTURE_VARIANT_ADD(lifecycle, dgram_stack) {
	.type = SOCK_DGRAM,
	.type_id = "dgram",
	.stack = true,
	.enter_id = "stack",
};

FIXTURE_VARIANT_ADD(lifecycle, stream_change) {
	.type = SOCK_STREAM,
	.type_id = "stream",
	.stack = false,
	.enter_id = "change",
};

FIXTURE_VARIANT_ADD(lifecycle, stream_stack) {
	.type = SOCK_STREAM,
	.type_id = "stream",
	.stack = true,
	.enter_id = "stack",
};

static void abstract_addr(struct sockaddr_un *a, socklen_t *len,
			  const char *what, int phase)
{
	*len = unix_abstract(a, "lsmconf-lc-%s%d-%d", what, phase, getpid());
}

/* The helper mode's environment variable: see exec_helper(). */
#define HELPER_ENV "LSMCONF_LC_HELPER"

/*
 * The labels are loaded once per run: the first case loads them, the
 * next find them (aa_policy_load_shared()); the binary's main removes
 * them after the last case and checks the profile list is as it found it
 * (harness_main.h). The compiled blobs are cached per boot.
 */
static int lc_load_labels(struct __test_metadata *_metadata)
{
	const struct lc_label *l;
	struct aa_policy p;
	int i, ret;

	for (i = 0; i < (int)ARRAY_SIZE(lc_labels); i++) {
		l = lc_labels[i];
		ret = aa_policy_share(_metadata, &p, l->tmpl, ABI, l->perms,
				      l->id, l->id);
		if (ret)
			return ret;
	}
	return 0;
}

FIXTURE_SETUP(lifecycle)
{
	int i;

	REQUIRE_APPARMOR(_metadata, true);
	/* Before the list is taken: the labels outlive the case. */
	ASSERT_EQ(0, lc_load_labels(_metadata));
	ASSERT_LE(0, aa_profile_list(self->before, sizeof(self->before)));
	if (aa_feature("network_v9/af_unix") == 1)
		self->med = MED_FINE;
	else if (aa_feature("network_v8") == 1 || aa_feature("network") == 1)
		self->med = MED_COARSE;
	else
		self->med = MED_NONE;
	for (i = 0; i < 2; i++) {
		abstract_addr(&self->saddr[i], &self->slen[i], "s", i);
		abstract_addr(&self->caddr[i], &self->clen[i], "c", i);
	}
}

FIXTURE_TEARDOWN(lifecycle)
{
	static char after[65536];

	/* A case leaves the profile list as it found it. */
	if (self->before[0]) {
		EXPECT_LE(0, aa_profile_list(after, sizeof(after)));
		EXPECT_STREQ(self->before, after);
	}
}

/* Enters @l by changing to it, or by stacking it on the current label. */
static int lc_enter(const struct lc_label *l, bool stack)
{
	char name[160];

	snprintf(name, sizeof(name), AA_TEST_PREFIX "%s", l->id);
	if (stack ? aa_stack_profile(name) : aa_change_profile(name))
		return -errno;
	return 0;
}

/* ---- scripts: one role's socket steps, run for real or by the model --- */

/*
 * A role runs a script of one-letter steps on its socket:
 *   s socket()   b bind() its address   l listen()   c connect() to the
 *   server   a accept()   t sendto() the server   n send()   W write()
 *   r recv()
 *   e enter the label   w sync point   0, 1 the phase the next steps are
 *   in (0: "existing", 1: "new"; each phase has its own socket)
 * The server role binds saddr[phase]; the client binds caddr[phase] and
 * connects or sends to saddr[phase]. Nothing blocks: accept and recv are
 * non-blocking, and a peer's step always ends before the sync point the
 * other side waits at, so what it queued is there (AF_UNIX queues
 * synchronously).
 */
enum role { SERVER, CLIENT };

static const char *const role_names[] = { "server", "client" };

/* One role's model state in one phase. */
struct model_sock {
	bool ok; /* every setup step so far succeeded */
	unsigned int stored; /* denials of the label stored on the socket */
	bool listening, connected, accepted;
	int pending; /* server: connections waiting in accept() */
	int queued; /* messages waiting on the server's socket */
};

struct model {
	enum mediation med;
	int type;
	unsigned int deny[2]; /* current label denials, per role */
	struct model_sock sk[2][2]; /* [phase][role] */
};

static int deny_if(bool denied)
{
	return denied ? -EACCES : 0;
}

/*
 * The expected outcome of step @c of role @r in @phase, updating the
 * model. D is the task's current label's denials, P those stored on the
 * server's socket (the listener, or the datagram server).
 */
static int model_step(struct model *m, int phase, enum role r, char c)
{
	struct model_sock *me = &m->sk[phase][r], *srv = &m->sk[phase][SERVER];
	unsigned int D = m->deny[r], P = srv->stored;
	bool fine = m->med == MED_FINE, coarse = m->med == MED_COARSE;
	bool dgram = m->type == SOCK_DGRAM;
	int e;

	if (c != 's' && !me->ok)
		return NOT_RUN;
	switch (c) {
	case 's':
		/*
		 * aa_unix_create_perm (fine) / aa_af_perm (coarse) in
		 * apparmor_socket_create: the task's current label. The new
		 * socket stores that label (apparmor_socket_post_create).
		 */
		e = deny_if((fine || coarse) && D & DENY_CREATE);
		me->ok = !e;
		me->stored = D;
		return e;
	case 'b':
		/* aa_unix_bind_perm / aa_sk_perm: the task's current label. */
		e = deny_if((fine || coarse) && D & DENY_BIND);
		break;
	case 'l':
		/* aa_unix_listen_perm / aa_sk_perm: the current label. */
		e = deny_if((fine || coarse) && D & DENY_LISTEN);
		me->listening = !e;
		break;
	case 'a':
		/*
		 * aa_unix_accept_perm (fine) / aa_sk_perm (coarse) from
		 * apparmor_socket_accept, before the queue is looked at: the
		 * accepting task's current label, never the listener's stored
		 * one.
		 */
		e = deny_if((fine || coarse) && D & DENY_ACCEPT);
		if (!e && !me->pending)
			e = -EAGAIN;
		if (!e) {
			me->pending--;
			me->accepted = true;
		}
		break;
	case 'c':
		if (dgram) {
			/*
			 * fine: unix_dgram_connect calls
			 * apparmor_unix_may_send: the connecting task's
			 * current label needs send, the server socket's
			 * STORED label needs receive. coarse: aa_sk_perm
			 * (connect) on the current label only.
			 */
			e = fine ? deny_if(D & DENY_SEND || P & DENY_RECEIVE) :
				   deny_if(coarse && D & DENY_CONNECT);
		} else {
			/*
			 * fine: apparmor_unix_stream_connect ->
			 * unix_connect_perm: the connecting task's current
			 * label needs connect, send and receive; the
			 * listener's STORED label needs accept, send and
			 * receive. coarse: aa_sk_perm (connect), current
			 * label. A listener that is not listening refuses
			 * first (unix_stream_connect).
			 */
			if (!srv->listening)
				e = -ECONNREFUSED;
			else if (fine)
				e = deny_if(D & (DENY_CONNECT | DENY_SEND |
						 DENY_RECEIVE) ||
					    P & (DENY_ACCEPT | DENY_SEND |
						 DENY_RECEIVE));
			else
				e = deny_if(coarse && D & DENY_CONNECT);
			if (!e)
				srv->pending++;
		}
		me->connected = !e;
		break;
	case 't':
	case 'n':
		/*
		 * Datagrams, connected or not: unix_dgram_sendmsg calls
		 * apparmor_unix_may_send for every message: the sending
		 * task's CURRENT label needs send, the receiving socket's
		 * STORED label needs receive. A connected stream (fine) is
		 * checked at connect only: no hook per message
		 * (aa_sock_msg_perm returns 0 for PF_UNIX). coarse:
		 * apparmor_socket_sendmsg -> aa_sk_perm (send) on the
		 * sending task's current label, for every message.
		 */
		if (coarse)
			e = deny_if(D & DENY_SEND);
		else if (fine && dgram)
			e = deny_if(D & DENY_SEND || P & DENY_RECEIVE);
		else
			e = 0;
		if (!e)
			srv->queued++;
		return e;
	case 'W':
		/*
		 * write() is send() behind one more hook: file_permission ->
		 * aa_file_perm() with the task's current label against the
		 * label cached on the socket's file (the label of the task
		 * that made it). The scripts write only where the writer
		 * made the socket in its current label: the cache does not
		 * cover write yet (fctx->allow starts empty), so the socket
		 * is revalidated: fine, aa_unix_file_perm() checks the
		 * current label against the connected peer (send and
		 * receive); coarse, aa_label_sk_perm() checks send. Then
		 * the message goes the way of send().
		 */
		if (fine)
			e = deny_if(D & (DENY_SEND | DENY_RECEIVE));
		else
			e = deny_if(coarse && D & DENY_SEND);
		if (e)
			return e;
		return model_step(m, phase, r, 'n');
	case 'r':
		/*
		 * fine: no hook on receive (aa_sock_msg_perm returns 0 for
		 * PF_UNIX): what was queued arrives. coarse:
		 * apparmor_socket_recvmsg -> aa_sk_perm (receive) on the
		 * receiving task's current label, before the queue.
		 */
		e = deny_if(coarse && D & DENY_RECEIVE);
		if (!e && !me->queued)
			e = -EAGAIN;
		if (!e)
			me->queued--;
		return e;
	default:
		return NOT_RUN;
	}
	if (e)
		me->ok = false;
	return e;
}

/* The real step: 0, -errno. @fd and @dfd (the data socket) are updated. */
static int real_step(FIXTURE_DATA(lifecycle) * self, int type, int phase,
		     enum role r, char c, int *fd, int *dfd)
{
	const struct sockaddr_un *own =
		r == SERVER ? &self->saddr[phase] : &self->caddr[phase];
	socklen_t own_len = r == SERVER ? self->slen[phase] : self->clen[phase];
	struct payload p;
	int ret;

	payload_make(&p, phase);
	switch (c) {
	case 's':
		/* Non-blocking: accept() with nothing queued is EAGAIN. */
		*fd = socket(AF_UNIX, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
		*dfd = *fd;
		return *fd < 0 ? -errno : 0;
	case 'b':
		return sys_ret(bind(*fd, (void *)own, own_len));
	case 'l':
		return sys_ret(listen(*fd, 8));
	case 'a':
		ret = accept4(*fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (ret < 0)
			return -errno;
		*dfd = ret;
		return 0;
	case 'c':
		return sys_ret(connect(*fd, (void *)&self->saddr[phase],
				       self->slen[phase]));
	case 't':
		return sys_ret(sendto(*fd, &p, sizeof(p), MSG_DONTWAIT,
				      (void *)&self->saddr[phase],
				      self->slen[phase]));
	case 'n':
		return sys_ret(send(*dfd, &p, sizeof(p), MSG_DONTWAIT));
	case 'W':
		ret = write(*dfd, &p, sizeof(p));
		return ret < 0 ? -errno : 0;
	case 'r':
		ret = recv(*dfd, &p, sizeof(p), MSG_DONTWAIT);
		if (ret < 0)
			return -errno;
		return ret == sizeof(p) && payload_ok(&p) ? 0 : -EBADMSG;
	}
	return -EINVAL;
}

static const char *step_name(char c)
{
	switch (c) {
	case 's':
		return "socket";
	case 'b':
		return "bind";
	case 'l':
		return "listen";
	case 'a':
		return "accept";
	case 'c':
		return "connect";
	case 't':
		return "sendto";
	case 'n':
		return "send";
	case 'W':
		return "write";
	case 'r':
		return "recv";
	}
	return "?";
}

/* A role's position in its script, and what it did. */
struct runner {
	const char *script;
	int pos, phase;
	int fd[2], dfd[2];
	bool ok[2];
	struct peer_report rep;
};

static void runner_init(struct runner *ru, const char *script)
{
	memset(ru, 0, sizeof(*ru));
	ru->script = script;
	ru->fd[0] = ru->fd[1] = ru->dfd[0] = ru->dfd[1] = -1;
	ru->ok[0] = ru->ok[1] = true;
}

static void runner_close(struct runner *ru)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (ru->dfd[i] >= 0 && ru->dfd[i] != ru->fd[i])
			close(ru->dfd[i]);
		if (ru->fd[i] >= 0)
			close(ru->fd[i]);
	}
}

/* Names an op "PHASE.ROLE.STEP": existing.client.send. */
static void op_name(char *buf, size_t size, int phase, const char *role,
		    const char *step)
{
	snprintf(buf, size, "%s.%s.%s", phase ? "new" : "existing", role, step);
}

struct scenario {
	const char *name;
	/* The role that changes its label (the other stays unconfined). */
	enum role mover;
	const struct lc_label *label;
	/* Scripts per type (DGRAM, STREAM); NULL: not for that type. */
	const char *server[2], *client[2];
	/* Which role runs in the child; the test process runs the other. */
	enum role child;
};

#define DGRAM 0
#define STREAM 1

/*
 * Runs @ru until its next sync point ('w') or its end; returns false at
 * the end. With @m, the model decides; without, the kernel does.
 */
static bool run_until_sync(FIXTURE_DATA(lifecycle) * self,
			   const FIXTURE_VARIANT(lifecycle) * v,
			   const struct scenario *sc, enum role r,
			   struct runner *ru, struct model *m)
{
	char op[32];
	int err, ph;

	for (; ru->script[ru->pos]; ru->pos++) {
		char c = ru->script[ru->pos];

		ph = ru->phase;
		if (c == 'w') {
			ru->pos++;
			return true;
		}
		if (c == '0' || c == '1') {
			ru->phase = c - '0';
			continue;
		}
		if (c == 'e') {
			/* Entering is no socket decision: it must work. */
			if (m)
				m->deny[r] = m->med == MED_NONE ?
						     0 :
						     sc->label->deny;
			else if (!ru->rep.label_err)
				ru->rep.label_err =
					lc_enter(sc->label, v->stack);
			continue;
		}
		op_name(op, sizeof(op), ph, role_names[r], step_name(c));
		if (m)
			err = model_step(m, ph, r, c);
		else if (c != 's' && !ru->ok[ph])
			err = NOT_RUN;
		else
			err = real_step(self, v->type, ph, r, c, &ru->fd[ph],
					&ru->dfd[ph]);
		if (!m && err && strchr("sblca", c))
			ru->ok[ph] = false;
		report_op(&ru->rep, op, err);
	}
	return false;
}

/*
 * The order both runs follow: the test process's role up to its first
 * sync point (before the child exists), then the child's role and the
 * test process's in turns, one sync point at a time. The model runs the
 * same order in one process.
 */
static void model_run(FIXTURE_DATA(lifecycle) * self,
		      const FIXTURE_VARIANT(lifecycle) * v,
		      const struct scenario *sc, struct runner *parent,
		      struct runner *child)
{
	struct model m = { .med = self->med, .type = v->type };
	enum role pr = !sc->child, cr = sc->child;
	bool pmore, cmore = true;

	pmore = run_until_sync(self, v, sc, pr, parent, &m);
	while (cmore || pmore) {
		if (cmore)
			cmore = run_until_sync(self, v, sc, cr, child, &m);
		if (pmore)
			pmore = run_until_sync(self, v, sc, pr, parent, &m);
	}
}

/* "unconfined->lsmconf_t_lc_no_send" for the role that moves. */
static const char *role_label(const struct lc_label *l, bool moves, bool stack,
			      char *buf, size_t size)
{
	if (!moves)
		return "unconfined";
	snprintf(buf, size, "unconfined->%s" AA_TEST_PREFIX "%s",
		 stack ? "unconfined//&" : "", l->id);
	return buf;
}

/* One record per op the model planned; each compared with the kernel's. */
static void lc_record(struct __test_metadata *_metadata,
		      FIXTURE_DATA(lifecycle) * self,
		      const FIXTURE_VARIANT(lifecycle) * v,
		      const char *scenario, const char *sender,
		      const char *receiver, const struct peer_report *want,
		      const struct peer_report *got)
{
	char depends[64];
	struct record rec = {
		.abi = ABI,
		.subject = sender,
		.object = receiver,
		.class = v->type_id,
		.detail = "abstract",
		.depends = depends,
	};
	int i;

	snprintf(depends, sizeof(depends), "network_v9/af_unix=%s",
		 self->med == MED_FINE ? "yes" : "no");
	for (i = 0; i < want->n_ops; i++) {
		rec.op = want->ops[i].op;
		rec.expected = want->ops[i].err;
		rec.observed = report_find(got, rec.op);
		JUDGE(&rec);
		if (rec.expected != rec.observed)
			TH_LOG("%s: %s mediation", scenario,
			       med_names[self->med]);
	}
	EXPECT_EQ(want->n_ops, got->n_ops);
}

/* The child's role, served one stretch (up to a sync point) per request. */
struct lc_child {
	FIXTURE_DATA(lifecycle) * self;
	const FIXTURE_VARIANT(lifecycle) * v;
	const struct scenario *sc;
	struct runner ru;
};

struct lc_stretch {
	bool more; /* stopped at a sync point; false: the role is done */
	struct peer_report rep;
};

/*
 * The child's sockets stay open after its last stretch, until the test
 * is done with its part and stops the worker (a closed stream would read
 * as end of file).
 */
static void lc_child_serve(const void *req, void *rep, void *state)
{
	struct lc_child *c = state;
	struct lc_stretch *out = rep;

	(void)req;
	out->more = run_until_sync(c->self, c->v, c->sc, c->sc->child, &c->ru,
				   NULL);
	out->rep = c->ru.rep;
}

static void run_scenario(struct __test_metadata *_metadata,
			 FIXTURE_DATA(lifecycle) * self,
			 const FIXTURE_VARIANT(lifecycle) * v,
			 const struct scenario *sc)
{
	int t = v->type == SOCK_STREAM ? STREAM : DGRAM;
	const char *srv = sc->server[t], *cli = sc->client[t];
	const char *pscript = sc->child == SERVER ? cli : srv;
	const char *cscript = sc->child == SERVER ? srv : cli;
	struct lc_child child = { .self = self, .v = v, .sc = sc };
	struct runner mp, mc, rp;
	char sbuf[160], rbuf[160];
	const struct peer_report *want[2], *got[2];
	struct worker w = { 0 };
	struct lc_stretch st;
	bool pmore, cmore = true;
	int i;

	if (!srv)
		SKIP(return, "%s: accept() exists for stream sockets only",
			   sc->name);
	runner_init(&mp, pscript);
	runner_init(&mc, cscript);
	model_run(self, v, sc, &mp, &mc);

	runner_init(&rp, pscript);
	runner_init(&child.ru, cscript);
	pmore = run_until_sync(self, v, sc, !sc->child, &rp, NULL);
	/* It inherits the test's sockets, as a forked peer does. */
	ASSERT_EQ(0, worker_start_fds(&w, 1, sizeof(st), lc_child_serve, &child,
				      true));
	/* The order of model_run(): after the child's end, all the rest. */
	while (cmore) {
		ASSERT_EQ(0, worker_run(&w, "g", &st));
		cmore = st.more;
		do
			pmore = pmore && run_until_sync(self, v, sc, !sc->child,
							&rp, NULL);
		while (!cmore && pmore);
	}
	worker_stop(&w);
	EXPECT_EQ(0, st.rep.label_err);
	EXPECT_EQ(0, rp.rep.label_err);
	runner_close(&rp);
	want[0] = &mp.rep;
	want[1] = &mc.rep;
	got[0] = &rp.rep;
	got[1] = &st.rep;
	for (i = 0; i < 2; i++)
		lc_record(_metadata, self, v, sc->name,
			  role_label(sc->label, sc->mover == CLIENT, v->stack,
				     sbuf, sizeof(sbuf)),
			  role_label(sc->label, sc->mover == SERVER, v->stack,
				     rbuf, sizeof(rbuf)),
			  want[i], got[i]);
}

/*
 * The client changes to lc_no_send at a point of its socket's life; the
 * server (the test process, unconfined) made both phases' sockets first
 * and receives when the client is done. Phase 1 repeats the client's
 * steps on a socket made after the change.
 */
#define CLIENT_SERVER                            \
	{                                        \
		"0sb1sbw0r1r", "0sbl1sblw0ar1ar" \
	}

TEST_F(lifecycle, client_after_socket)
{
	const struct scenario sc = {
		.name = "client_after_socket",
		.mover = CLIENT,
		.label = &LC_no_send,
		.child = CLIENT,
		.server = CLIENT_SERVER,
		.client = { "0set1st", "0secn1scn" },
	};

	run_scenario(_metadata, self, variant, &sc);
}

TEST_F(lifecycle, client_after_bind)
{
	const struct scenario sc = {
		.name = "client_after_bind",
		.mover = CLIENT,
		.label = &LC_no_send,
		.child = CLIENT,
		.server = CLIENT_SERVER,
		.client = { "0sbet1sbt", "0sbecn1sbcn" },
	};

	run_scenario(_metadata, self, variant, &sc);
}

/* The connection exists (a connected datagram socket, or a stream). */
TEST_F(lifecycle, client_after_connect)
{
	const struct scenario sc = {
		.name = "client_after_connect",
		.mover = CLIENT,
		.label = &LC_no_send,
		.child = CLIENT,
		.server = CLIENT_SERVER,
		.client = { "0scen1scn", "0scen1scn" },
	};

	run_scenario(_metadata, self, variant, &sc);
}

/*
 * The server (a child) changes to lc_no_receive after socket() or after
 * bind(); the client (the test process, unconfined) then connects and
 * sends to both phases' sockets, and the server receives.
 */
#define SERVER_CLIENT                    \
	{                                \
		"w0st1stw", "w0scn1scnw" \
	}

TEST_F(lifecycle, server_after_socket)
{
	const struct scenario sc = {
		.name = "server_after_socket",
		.mover = SERVER,
		.label = &LC_no_receive,
		.child = SERVER,
		.server = { "0seb1sbw0r1r", "0sebl1sblw0ar1ar" },
		.client = SERVER_CLIENT,
	};

	run_scenario(_metadata, self, variant, &sc);
}

TEST_F(lifecycle, server_after_bind)
{
	const struct scenario sc = {
		.name = "server_after_bind",
		.mover = SERVER,
		.label = &LC_no_receive,
		.child = SERVER,
		.server = { "0sbe1sbw0r1r", "0sbel1sblw0ar1ar" },
		.client = SERVER_CLIENT,
	};

	run_scenario(_metadata, self, variant, &sc);
}

/* A listening socket whose task changes to lc_no_accept, then accepts. */
TEST_F(lifecycle, server_after_listen)
{
	const struct scenario sc = {
		.name = "server_after_listen",
		.mover = SERVER,
		.label = &LC_no_accept,
		.child = SERVER,
		.server = { NULL, "0sble1sblw0ar1ar" },
		.client = SERVER_CLIENT,
	};

	run_scenario(_metadata, self, variant, &sc);
}

/* The same, with the connection already queued when the label changes. */
TEST_F(lifecycle, server_before_accept)
{
	const struct scenario sc = {
		.name = "server_before_accept",
		.mover = SERVER,
		.label = &LC_no_accept,
		.child = SERVER,
		.server = { NULL, "0sblwe0ar1sblw1ar" },
		.client = { NULL, "w0scnw1scnw" },
	};

	run_scenario(_metadata, self, variant, &sc);
}

/*
 * The peer's label changes after the connection exists: the server
 * accepted (stream) or the client connected (datagram), then the server
 * changes to lc_no_receive, then the client sends on the connection.
 */
TEST_F(lifecycle, peer_after_connect)
{
	const struct scenario sc = {
		.name = "peer_after_connect",
		.mover = SERVER,
		.label = &LC_no_receive,
		.child = SERVER,
		.server = { "0sbw0ew0r1sbw1r", "0sblw0aew0r1sblw1ar" },
		.client = { "w0scw0nw1scnw", "w0scw0nw1scnw" },
	};

	run_scenario(_metadata, self, variant, &sc);
}

/*
 * A socket made by a confined task: its checks depend on the creator's
 * label and on the label using the socket, not on how the user entered
 * it: the change variants cover it (each case oopses Debian's 7.2.13 on
 * datagrams, a known kernel bug: one boot each).
 */
#define CONFINED_CREATOR_ONCE(v)                                               \
	do {                                                                   \
		if ((v)->stack)                                                \
			SKIP(return, "a confined creator: the change variant " \
				     "covers it");                             \
	} while (0)

/*
 * Control for the hand-over cases: a task confined in lc_allow makes and
 * connects its socket, then write()s on it (file_permission revalidates
 * the socket's file: see 'W' in model_step). Nothing is denied.
 */
TEST_F(lifecycle, confined_write)
{
	const struct scenario sc = {
		.name = "confined_write",
		.mover = CLIENT,
		.label = &LC_allow,
		.child = CLIENT,
		.server = CLIENT_SERVER,
		.client = { "e0scW1scW", "e0scW1scW" },
	};

	CONFINED_CREATOR_ONCE(variant);
	run_scenario(_metadata, self, variant, &sc);
}

/* ---- a socket handed over: SCM_RIGHTS and exec ------------------------ */

/*
 * A connected socket made by a creator (unconfined, or confined in
 * lc_allow) reaches a task in lc_no_send: by SCM_RIGHTS (file_receive)
 * or by inheritance over an exec into lc_no_send (aa_change_onexec or
 * aa_stack_onexec). Both paths end in aa_file_perm() with the file's
 * open mode (read and write) and the receiving task's new label:
 * - a socket made by an unconfined task is delegated: aa_file_perm's
 *   fast path (__file_is_delegated(flabel)) allows without a check, on
 *   every kernel;
 * - a socket made in another confined label is revalidated: fine,
 *   aa_unix_file_perm() checks the receiving label against the socket's
 *   peer (send and receive: lc_no_send lacks send, so EACCES); coarse,
 *   aa_sock_file_perm() -> aa_label_sk_perm() checks read and write
 *   (= receive and send) on the socket: EACCES.
 * A refused file_receive drops the file from the message and sets
 * MSG_CTRUNC (scm_detach_fds); a refused inheritance replaces the fd by
 * AppArmor's null file (aa_inherit_files). Both are recorded as EACCES.
 */
static int expect_handover(enum mediation med, bool confined_creator)
{
	if (med == MED_NONE || !confined_creator)
		return 0;
	return -EACCES;
}

/*
 * What the task in lc_no_send does with the socket it got (@fd, or -1
 * when it was refused) and with a new one; the expected outcomes come
 * from model_step() for a client whose current label is lc_no_send.
 */
static void handover_use(struct peer_report *rep, const char *role, int fd,
			 int type, const struct sockaddr_un *to, socklen_t len)
{
	struct payload p;
	char op[32];
	int nfd, err;

	payload_make(&p, 0);
	op_name(op, sizeof(op), 0, role, "send");
	report_op(rep, op,
		  fd < 0 ? NOT_RUN :
			   sys_ret(send(fd, &p, sizeof(p), MSG_DONTWAIT)));
	nfd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	op_name(op, sizeof(op), 1, role, "socket");
	report_op(rep, op, nfd < 0 ? -errno : 0);
	err = nfd < 0 ? NOT_RUN : sys_ret(connect(nfd, (void *)to, len));
	op_name(op, sizeof(op), 1, role, "connect");
	report_op(rep, op, err);
	op_name(op, sizeof(op), 1, role, "send");
	report_op(rep, op,
		  err ? NOT_RUN :
			sys_ret(send(nfd, &p, sizeof(p), MSG_DONTWAIT)));
	if (nfd >= 0)
		close(nfd);
}

static void handover_model(struct peer_report *rep, const char *role,
			   const char *first, enum mediation med, int type,
			   bool confined_creator)
{
	struct model m = { .med = med, .type = type };
	const char *steps = "scn";
	char op[32];
	int got, i;

	/* The server (unconfined) listens or is bound in both phases. */
	for (i = 0; i < 2; i++) {
		m.sk[i][SERVER].ok = true;
		m.sk[i][SERVER].listening = true;
		m.sk[i][CLIENT].ok = true;
	}
	/* Phase 0: the creator made and connected the socket, unconfined. */
	m.sk[0][CLIENT].connected = true;
	got = expect_handover(med, confined_creator);
	op_name(op, sizeof(op), 0, role, first);
	report_op(rep, op, got);
	m.deny[CLIENT] = med == MED_NONE ? 0 : LC_no_send.deny;
	m.sk[0][CLIENT].ok = !got;
	op_name(op, sizeof(op), 0, role, "send");
	report_op(rep, op, model_step(&m, 0, CLIENT, 'n'));
	for (i = 0; steps[i]; i++) {
		op_name(op, sizeof(op), 1, role, step_name(steps[i]));
		report_op(rep, op, model_step(&m, 1, CLIENT, steps[i]));
	}
}

/* The server the handed-over socket is connected to (phase 0 and 1). */
static int handover_server(FIXTURE_DATA(lifecycle) * self, int type, int *fds)
{
	int i;

	for (i = 0; i < 2; i++) {
		fds[i] = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
		if (fds[i] < 0)
			return -errno;
		if (bind(fds[i], (void *)&self->saddr[i], self->slen[i]))
			return -errno;
		if (type == SOCK_STREAM && listen(fds[i], 8))
			return -errno;
	}
	return 0;
}

/* The creator: a socket connected to the server, made in @creator. */
static int creator_socket(FIXTURE_DATA(lifecycle) * self, int type,
			  const struct lc_label *creator, int flags)
{
	int fd;

	if (creator && lc_enter(creator, false))
		return -errno;
	fd = socket(AF_UNIX, type | flags, 0);
	if (fd < 0)
		return -errno;
	/* Bounded: a full backlog is EAGAIN after PEER_WAIT_MS. */
	if (set_timeouts(fd) ||
	    connect(fd, (void *)&self->saddr[0], self->slen[0])) {
		int err = -errno;

		close(fd);
		return err;
	}
	return fd;
}

static void handover_record(struct __test_metadata *_metadata,
			    FIXTURE_DATA(lifecycle) * self,
			    const FIXTURE_VARIANT(lifecycle) * v,
			    const char *scenario, const char *creator,
			    const struct peer_report *want,
			    const struct peer_report *got)
{
	char who[160];

	role_label(&LC_no_send, true, v->stack, who, sizeof(who));
	lc_record(_metadata, self, v, scenario, creator, who, want, got);
}

static void scm_rights(struct __test_metadata *_metadata,
		       FIXTURE_DATA(lifecycle) * self,
		       const FIXTURE_VARIANT(lifecycle) * v,
		       const char *scenario, const struct lc_label *creator)
{
	struct peer_report want = { 0 }, got = { 0 };
	int srv[2], pair[2], out[2];
	pid_t rpid, cpid;

	if (creator)
		CONFINED_CREATOR_ONCE(v);

	ASSERT_EQ(0, handover_server(self, v->type, srv));
	/* The pair the file travels through is the test's (unconfined). */
	ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, pair));
	ASSERT_EQ(0, pipe2(out, O_CLOEXEC));
	handover_model(&want, "receiver", "scm_receive", self->med, v->type,
		       creator);
	rpid = peer_fork();
	ASSERT_LE(0, rpid);
	if (rpid == 0) {
		char op[32];
		int fd;

		got.label_err = lc_enter(&LC_no_send, v->stack);
		fd = recv_fd(pair[1]);
		op_name(op, sizeof(op), 0, "receiver", "scm_receive");
		report_op(&got, op, fd < 0 ? fd : 0);
		handover_use(&got, "receiver", fd, v->type, &self->saddr[1],
			     self->slen[1]);
		pipe_write(out[1], &got, sizeof(got));
		_exit(0);
	}
	cpid = peer_fork();
	ASSERT_LE(0, cpid);
	if (cpid == 0) {
		int fd = creator_socket(self, v->type, creator, SOCK_CLOEXEC);

		_exit(fd < 0 ? 1 : send_fd(pair[0], fd) ? 2 : 0);
	}
	EXPECT_EQ(0, peer_reap(cpid));
	ASSERT_EQ(0, pipe_read(out[0], &got, sizeof(got), PEER_WAIT_MS));
	EXPECT_EQ(0, peer_reap(rpid));
	EXPECT_EQ(0, got.label_err);
	handover_record(_metadata, self, v, scenario,
			creator ? AA_TEST_PREFIX "lc_allow" : "unconfined",
			&want, &got);
	close(pair[0]);
	close(pair[1]);
	close(out[0]);
	close(out[1]);
	close(srv[0]);
	close(srv[1]);
}

/* SCM_RIGHTS from an unconfined creator: delegated. */
TEST_F(lifecycle, scm_rights_from_unconfined)
{
	scm_rights(_metadata, self, variant, "scm_rights_from_unconfined",
		   NULL);
}

/* SCM_RIGHTS from a creator in another confined label: revalidated. */
TEST_F(lifecycle, scm_rights_from_confined)
{
	scm_rights(_metadata, self, variant, "scm_rights_from_confined",
		   &LC_allow);
}

/*
 * After the exec into lc_no_send (this binary again, in helper mode):
 * HELPER_ENV is "FD,TYPE,OUT,NAME": the inherited socket, its type, the
 * pipe to report on, and the abstract name of the phase-1 server. Runs
 * before main() and never returns.
 */
static void __attribute__((constructor)) exec_helper(void)
{
	const char *env = getenv(HELPER_ENV);
	struct peer_report rep = { 0 };
	struct sockaddr_un to = { .sun_family = AF_UNIX };
	char name[80] = "", op[32];
	int fd, type, out;
	struct stat st;
	socklen_t len;

	if (!env)
		return;
	/* The exec into a new label cleared peer_fork()'s death signal. */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (sscanf(env, "%d,%d,%d,%79s", &fd, &type, &out, name) != 4)
		_exit(90);
	/* A refused inheritance leaves AppArmor's null file in its place. */
	op_name(op, sizeof(op), 0, "exec", "inherit");
	if (fstat(fd, &st) || !S_ISSOCK(st.st_mode)) {
		report_op(&rep, op, -EACCES);
		fd = -1;
	} else {
		report_op(&rep, op, 0);
	}
	len = unix_abstract(&to, "%s", name);
	handover_use(&rep, "exec", fd, type, &to, len);
	_exit(pipe_write(out, &rep, sizeof(rep)) ? 91 : 0);
}

static void exec_inherit(struct __test_metadata *_metadata,
			 FIXTURE_DATA(lifecycle) * self,
			 const FIXTURE_VARIANT(lifecycle) * v,
			 const char *scenario, const struct lc_label *creator)
{
	struct peer_report want = { 0 }, got = { 0 };
	int srv[2], out[2];
	pid_t pid;

	if (creator)
		CONFINED_CREATOR_ONCE(v);

	ASSERT_EQ(0, handover_server(self, v->type, srv));
	ASSERT_EQ(0, pipe2(out, O_CLOEXEC));
	handover_model(&want, "exec", "inherit", self->med, v->type, creator);
	pid = peer_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char env[160], name[160];
		char *argv[] = { "unix_lifecycle_helper", NULL };
		char *envp[] = { env, NULL };
		int fd = creator_socket(self, v->type, creator, 0);

		snprintf(name, sizeof(name), AA_TEST_PREFIX "%s",
			 LC_no_send.id);
		if (fd < 0)
			_exit(80);
		/* The report pipe survives the exec; its file is delegated. */
		if (fcntl(out[1], F_SETFD, 0))
			_exit(81);
		snprintf(env, sizeof(env), HELPER_ENV "=%d,%d,%d,%s", fd,
			 v->type, out[1], self->saddr[1].sun_path + 1);
		if (v->stack ? aa_stack_onexec(name) : aa_change_onexec(name))
			_exit(82);
		execve("/proc/self/exe", argv, envp);
		_exit(83);
	}
	close(out[1]);
	ASSERT_EQ(0, pipe_read(out[0], &got, sizeof(got), PEER_WAIT_MS));
	EXPECT_EQ(0, peer_reap(pid));
	handover_record(_metadata, self, v, scenario,
			creator ? AA_TEST_PREFIX "lc_allow" : "unconfined",
			&want, &got);
	close(out[0]);
	close(srv[0]);
	close(srv[1]);
}

/* Exec with an inherited socket made unconfined: delegated. */
TEST_F(lifecycle, exec_from_unconfined)
{
	exec_inherit(_metadata, self, variant, "exec_from_unconfined", NULL);
}

/* Exec with an inherited socket made in lc_allow: revalidated. */
TEST_F(lifecycle, exec_from_confined)
{
	exec_inherit(_metadata, self, variant, "exec_from_confined", &LC_allow);
}

AA_HARNESS_MAIN
