// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux labels that change while an AF_UNIX socket lives: a client
 * switches its domain with setcon() after socket() or after connect(), or
 * the policy is reloaded without the client's rule while its socket is
 * open. The client then uses its existing socket ("existing") and makes a
 * new one ("new"); every step is compared with the model below and
 * written as a decision record (ids
 * lifecycle_test/sel_lifecycle.TYPE.SCENARIO/OP).
 *
 * The model, from security/selinux/hooks.c:
 * - selinux_socket_unix_stream_connect() checks connectto from the SID
 *   STORED on the connecting socket (sksec->sid, set at creation by
 *   selinux_socket_post_create() from the creating task's SID) to the
 *   listener's: the task's current domain does not take part.
 * - selinux_socket_unix_may_send() (a datagram connect() and every
 *   datagram sent, connected or not: unix_dgram_sendmsg) checks sendto
 *   from the sending socket's STORED SID to the receiving socket's.
 * - a connected stream is not checked per message by any unix hook; the
 *   generic selinux_socket_sendmsg() asks the current task for "write" on
 *   the socket, which this policy leaves undefined (handleunknown allow).
 * - every check asks the policy in force: a reload flushes the AVC
 *   (avc_ss_reset), so a removed rule stops allowing at once.
 */

#define _GNU_SOURCE
#include <sys/socket.h>
#include <sys/un.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/worker.h"

#define LEVEL "s0"
#define SERVER "lsmconf_srv_t"
#define LC_OK "lsmconf_lc_ok_t"
#define LC_NO "lsmconf_lc_no_t"
#define REVOKED "lsmconf-c4-revoked.bin"
#define MSG_TEXT "lsmconf lifecycle"

/* What the client did, step by step (an op is "existing.client.send"). */
struct lc_report {
	int n_ops;
	struct {
		char op[32];
		int err; /* 0, -errno or NOT_RUN */
	} ops[16];
	int label_err; /* setcon(): 0 or -errno */
};

static void report_op(struct lc_report *r, const char *op, int err)
{
	if (r->n_ops >= (int)ARRAY_SIZE(r->ops))
		return;
	snprintf(r->ops[r->n_ops].op, sizeof(r->ops[0].op), "%s", op);
	r->ops[r->n_ops++].err = err;
}

static int report_find(const struct lc_report *r, const char *op)
{
	int i;

	for (i = 0; i < r->n_ops; i++)
		if (!strcmp(r->ops[i].op, op))
			return r->ops[i].err;
	return NOT_RUN;
}

/*
 * The client's script, one letter a step: o enter lsmconf_lc_ok_t,
 * x switch to lsmconf_lc_no_t (setcon), s socket(), c connect(), n send(),
 * t sendto() (unconnected datagram), w the test reloads the policy
 * without the client's rule here, 0 and 1 the phase (existing, new).
 */
struct scenario {
	const char *name;
	const char *script[2]; /* dgram, stream */
};

struct model {
	bool stream, revoked;
	const char *domain; /* the task's current domain */
	const char *stored[2]; /* the domain stored on each phase's socket */
	bool ok[2];
};

/* Does @domain hold the client's rule in the policy in force? */
static bool may_reach(const struct model *m, const char *domain)
{
	return !m->revoked && domain && !strcmp(domain, LC_OK);
}

static int model_step(struct model *m, int ph, char c)
{
	int e;

	if (c != 's' && !m->ok[ph])
		return NOT_RUN;
	switch (c) {
	case 's':
		/* socket create is not defined here: allowed; SID stored. */
		m->stored[ph] = m->domain;
		m->ok[ph] = true;
		return 0;
	case 'c':
		/*
		 * stream: selinux_socket_unix_stream_connect, connectto from
		 * the socket's stored SID; datagram: unix_dgram_connect ->
		 * selinux_socket_unix_may_send, sendto from the stored SID.
		 */
		e = may_reach(m, m->stored[ph]) ? 0 : -EACCES;
		m->ok[ph] = !e;
		return e;
	case 'n':
	case 't':
		/*
		 * stream: no unix hook per message (allowed); datagram:
		 * selinux_socket_unix_may_send for every message, from the
		 * socket's stored SID, under the policy in force.
		 */
		if (m->stream)
			return 0;
		return may_reach(m, m->stored[ph]) ? 0 : -EACCES;
	}
	return NOT_RUN;
}

static const char *step_name(char c)
{
	switch (c) {
	case 's':
		return "socket";
	case 'c':
		return "connect";
	case 'n':
		return "send";
	case 't':
		return "sendto";
	}
	return "?";
}

static socklen_t server_addr(struct sockaddr_un *a, pid_t server, int ph)
{
	return sel_abstract_addr(a, "lsmconf-sel-lc-%d-%d", server, ph);
}

/* The server (worker.h): enters SERVER, binds one socket per phase. */
static void server_serve(const void *request, void *reply, void *state)
{
	const int *type = state;
	struct sockaddr_un a;
	int fd, *err = reply, ph;

	(void)request;
	*err = sel_enter(SERVER, LEVEL);
	for (ph = 0; ph < 2 && !*err; ph++) {
		socklen_t len = server_addr(&a, getpid(), ph);

		fd = socket(AF_UNIX, *type | SOCK_CLOEXEC, 0);
		*err = sys_ret(fd);
		if (!*err)
			*err = sys_ret(bind(fd, (void *)&a, len));
		if (!*err && *type == SOCK_STREAM)
			*err = sys_ret(listen(fd, 8));
	}
}

/* The client (worker.h): where it is in its script, and what it did. */
struct lc_client {
	const char *script;
	int type;
	pid_t server;
	int fd[2], ph;
	bool ok[2];
	struct lc_report r;
};

struct lc_reply {
	bool paused; /* at a 'w': the test reloads, then says go on */
	struct lc_report r;
};

/* Runs the script on, up to its next 'w' or its end. */
static void client_serve(const void *request, void *reply, void *state)
{
	struct lc_client *cl = state;
	struct lc_reply *out = reply;
	struct sockaddr_un a;
	char op[32];
	int err;

	(void)request;
	for (; *cl->script; cl->script++) {
		char c = *cl->script;
		int ph = cl->ph;
		socklen_t len = server_addr(&a, cl->server, ph);

		switch (c) {
		case '0':
		case '1':
			cl->ph = c - '0';
			continue;
		case 'o':
		case 'x':
			if (!cl->r.label_err)
				cl->r.label_err = sel_enter(
					c == 'o' ? LC_OK : LC_NO, LEVEL);
			continue;
		case 'w':
			cl->script++;
			out->paused = true;
			out->r = cl->r;
			return;
		}
		if (c != 's' && !cl->ok[ph]) {
			err = NOT_RUN;
		} else if (c == 's') {
			cl->fd[ph] =
				socket(AF_UNIX, cl->type | SOCK_CLOEXEC, 0);
			err = sys_ret(cl->fd[ph]);
		} else if (c == 'c') {
			err = sys_ret(connect(cl->fd[ph], (void *)&a, len));
		} else if (c == 't') {
			err = sys_ret(sendto(cl->fd[ph], MSG_TEXT,
					     sizeof(MSG_TEXT), MSG_DONTWAIT,
					     (void *)&a, len));
		} else {
			err = sys_ret(send(cl->fd[ph], MSG_TEXT,
					   sizeof(MSG_TEXT), MSG_DONTWAIT));
		}
		if (err && strchr("sc", c))
			cl->ok[ph] = false;
		snprintf(op, sizeof(op), "%s.client.%s",
			 ph ? "new" : "existing", step_name(c));
		report_op(&cl->r, op, err);
	}
	out->r = cl->r;
}

FIXTURE(sel_lifecycle)
{
	int unused;
};

FIXTURE_VARIANT(sel_lifecycle)
{
	int type;
	const char *type_id;
};

FIXTURE_VARIANT_ADD(sel_lifecycle, dgram) {
	.type = SOCK_DGRAM,
	.type_id = "dgram",
};

FIXTURE_VARIANT_ADD(sel_lifecycle, stream) {
	.type = SOCK_STREAM,
	.type_id = "stream",
};

FIXTURE_SETUP(sel_lifecycle)
{
	SEL_SETUP(4);
}

FIXTURE_TEARDOWN(sel_lifecycle)
{
	/* The reload scenarios restore the policy; make sure of it. */
	if (!sel_unusable()) {
		long long ms;

		EXPECT_LE(0, sel_need(4, &ms));
	}
}

static void run(struct __test_metadata *_metadata,
		const FIXTURE_VARIANT(sel_lifecycle) * v,
		const struct scenario *sc)
{
	const char *script = sc->script[v->type == SOCK_STREAM];
	struct model m = { .stream = v->type == SOCK_STREAM };
	struct lc_report want = { 0 }, got = { 0 };
	struct lc_client cl = {
		.script = script,
		.type = v->type,
		.fd = { -1, -1 },
		.ok = { true, true },
	};
	struct worker sw = { 0 }, cw = { 0 };
	int type = v->type, err, ph = 0, i;
	struct lc_reply out = { 0 };
	const char *p;
	char op[32];

	/* The model first, over the same script. */
	m.domain = "kernel_t";
	for (p = script; *p; p++) {
		if (*p == '0' || *p == '1')
			ph = *p - '0';
		else if (*p == 'o' || *p == 'x')
			m.domain = *p == 'o' ? LC_OK : LC_NO;
		else if (*p == 'w')
			m.revoked = true;
		else {
			snprintf(op, sizeof(op), "%s.client.%s",
				 ph ? "new" : "existing", step_name(*p));
			report_op(&want, op, model_step(&m, ph, *p));
		}
	}

	ASSERT_EQ(0, worker_start(&sw, 1, sizeof(int), server_serve, &type));
	ASSERT_EQ(0, worker_run(&sw, "g", &err));
	ASSERT_EQ(0, err);
	cl.server = sw.pid;
	ASSERT_EQ(0, worker_start(&cw, 1, sizeof(out), client_serve, &cl));
	ASSERT_EQ(0, worker_run(&cw, "g", &out));
	if (out.paused) {
		/* The client's socket is open: the rule goes away. */
		ASSERT_EQ(0, sel_load_named(REVOKED));
		ASSERT_EQ(0, worker_run(&cw, "g", &out));
	}
	EXPECT_FALSE(out.paused);
	got = out.r;
	worker_stop(&cw);
	worker_stop(&sw);
	if (strchr(script, 'w'))
		EXPECT_EQ(0, sel_load(4));
	EXPECT_EQ(0, got.label_err);

	for (i = 0; i < want.n_ops; i++) {
		struct record rec = {
			.abi = "selinux-c4",
			.subject = LC_OK,
			.object = SERVER,
			.class = v->type_id,
			.detail = "abstract",
			.op = want.ops[i].op,
			.expected = want.ops[i].err,
			.observed = report_find(&got, want.ops[i].op),
		};

		JUDGE(&rec);
	}
	EXPECT_EQ(want.n_ops, got.n_ops);
}

/* setcon() to a domain without the rule after socket(), then connect. */
TEST_F(sel_lifecycle, setcon_after_socket)
{
	const struct scenario sc = {
		.name = "setcon_after_socket",
		.script = { "o0sx0t1s1t", "o0sx0cn1s1cn" },
	};

	run(_metadata, variant, &sc);
}

/* setcon() after the connection exists, then send on it. */
TEST_F(sel_lifecycle, setcon_after_connect)
{
	const struct scenario sc = {
		.name = "setcon_after_connect",
		.script = { "o0scx0n1s1cn", "o0scx0n1s1cn" },
	};

	run(_metadata, variant, &sc);
}

/* The policy loses the client's rule while its socket is unconnected. */
TEST_F(sel_lifecycle, reload_after_socket)
{
	const struct scenario sc = {
		.name = "reload_after_socket",
		.script = { "o0sw0t1s1t", "o0sw0cn1s1cn" },
	};

	run(_metadata, variant, &sc);
}

/* The policy loses the client's rule while its connection exists. */
TEST_F(sel_lifecycle, reload_after_connect)
{
	const struct scenario sc = {
		.name = "reload_after_connect",
		.script = { "o0scw0n1s1cn", "o0scw0n1s1cn" },
	};

	run(_metadata, variant, &sc);
}

LSM_HARNESS_MAIN
