// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux AF_UNIX between domains: a client reaches a server's abstract
 * socket over a stream (connectto), a connected datagram socket or an
 * unconnected one (sendto). Each client lacks at most one permission, and
 * the outcome of every step is derived from which one it needs.
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
#define MSG_TEXT "lsmconf unix payload"

enum { OP_CONNECT, OP_SEND, OP_RECV, N_OPS };

static const char *const op_names[N_OPS] = { "connect", "send", "recv" };

enum mode { STREAM, DGRAM_CONNECTED, DGRAM_UNCONNECTED };

/*
 * The one permission a client needs, checked against the server's socket
 * (which carries the server's type) in security/selinux/hooks.c:
 *   stream connect():        unix_stream_socket connectto
 *                            (selinux_socket_unix_stream_connect)
 *   datagram connect():      unix_dgram_socket sendto (unix_may_send)
 *   datagram sendto():       unix_dgram_socket sendto (unix_may_send)
 * send and receive on an established stream, and the server's receive,
 * need only permissions this policy leaves undefined (so allowed).
 * An unconnected datagram has no connect step: its "send" is the sendto.
 */
static void expect_case(enum mode mode, const char *client, int expected[N_OPS])
{
	char missing[64];
	const char *needs = mode == STREAM ? "connectto" : "sendto";
	int first = mode == DGRAM_UNCONNECTED ? OP_SEND : OP_CONNECT, op;

	sel_lacks(client, missing, sizeof(missing));
	for (op = 0; op < N_OPS; op++) {
		if (op < first)
			expected[op] = NOT_RUN;
		else if (op == first)
			expected[op] = strcmp(missing, needs) ? 0 : -EACCES;
		else
			expected[op] = expected[op - 1] ? NOT_RUN : 0;
	}
}

/*
 * A peer in its domain, driven by the test (worker.h): 'e' enters the
 * domain; the server's 'b' binds (and listens) at the address of its pid,
 * 'r' receives one message (accepting it first on a stream); the client's
 * 'o' opens its socket, 'c' connects to @server's address and 's' sends one
 * message (there, on an unconnected datagram socket).
 */
struct u_req {
	char op;
	pid_t server;
};

struct u_peer {
	enum mode mode;
	const char *type;
	int fd;
};

static int u_receive(const struct u_peer *p)
{
	int conn = p->fd, err = wait_readable(p->fd);
	char buf[64];
	ssize_t n;

	if (!err && p->mode == STREAM) {
		conn = accept4(p->fd, NULL, NULL, SOCK_CLOEXEC);
		err = sys_ret(conn);
		if (!err)
			err = wait_readable(conn);
	}
	if (err)
		return err;
	n = recv(conn, buf, sizeof(buf), MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	return n != sizeof(MSG_TEXT) || memcmp(buf, MSG_TEXT, n) ? -EBADMSG : 0;
}

static void u_serve(const void *request, void *reply, void *state)
{
	int type = ((struct u_peer *)state)->mode == STREAM ? SOCK_STREAM :
							      SOCK_DGRAM;
	const struct u_req *q = request;
	struct u_peer *p = state;
	struct sockaddr_un a;
	socklen_t len;
	int *err = reply;

	switch (q->op) {
	case 'e':
		*err = sel_enter(p->type, LEVEL);
		return;
	case 'b':
		len = sel_abstract_addr(&a, "lsmconf-selinux-%d", getpid());
		break;
	default:
		len = sel_abstract_addr(&a, "lsmconf-selinux-%d", q->server);
	}
	if (q->op == 'b' || q->op == 'o') {
		p->fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
		*err = sys_ret(p->fd);
		if (*err)
			return;
	}
	if (q->op == 'b') {
		*err = sys_ret(bind(p->fd, (struct sockaddr *)&a, len));
		if (!*err && p->mode == STREAM)
			*err = sys_ret(listen(p->fd, 1));
	} else if (q->op == 'c') {
		*err = sys_ret(connect(p->fd, (struct sockaddr *)&a, len));
	} else if (q->op == 's' && p->mode == DGRAM_UNCONNECTED) {
		*err = sys_ret(sendto(p->fd, MSG_TEXT, sizeof(MSG_TEXT),
				      MSG_DONTWAIT, (struct sockaddr *)&a,
				      len));
	} else if (q->op == 's') {
		*err = sys_ret(
			send(p->fd, MSG_TEXT, sizeof(MSG_TEXT), MSG_DONTWAIT));
	} else if (q->op == 'r') {
		*err = u_receive(p);
	} else if (q->op != 'o') {
		*err = -EINVAL;
	}
}

/* One request; a peer that does not answer is a harness failure (-1). */
static int u_do(struct worker *w, char op, pid_t server, int *err)
{
	struct u_req q = { .op = op, .server = server };

	return worker_run(w, &q, err) ? -1 : 0;
}

/* Runs one case; -1 when a peer could not run (a harness failure). */
static int run_case(enum mode mode, const char *client, int observed[N_OPS])
{
	struct u_peer sp = { mode, SERVER, -1 }, cp = { mode, client, -1 };
	struct worker sw = { 0 }, cw = { 0 };
	int i, err, ret = -1;

	for (i = 0; i < N_OPS; i++)
		observed[i] = NOT_RUN;
	if (worker_start(&sw, sizeof(struct u_req), sizeof(int), u_serve,
			 &sp) ||
	    worker_start(&cw, sizeof(struct u_req), sizeof(int), u_serve,
			 &cp) ||
	    u_do(&sw, 'e', 0, &err) || err || u_do(&cw, 'e', 0, &err) || err ||
	    u_do(&sw, 'b', 0, &err) || err || u_do(&cw, 'o', 0, &err) || err)
		goto out;
	/* An unconnected datagram has no connect step. */
	if (mode != DGRAM_UNCONNECTED &&
	    (u_do(&cw, 'c', sw.pid, &observed[OP_CONNECT]) ||
	     observed[OP_CONNECT]))
		goto done;
	if (u_do(&cw, 's', sw.pid, &observed[OP_SEND]))
		goto out;
	/* Only a sent message can be received. */
	if (!observed[OP_SEND] && u_do(&sw, 'r', 0, &observed[OP_RECV]))
		goto out;
done:
	ret = 0;
out:
	worker_stop(&cw);
	worker_stop(&sw);
	return ret;
}

FIXTURE(unix_pair)
{
	int unused;
};

FIXTURE_VARIANT(unix_pair)
{
	int cats;
	enum mode mode;
	const char *client;
};

/*
 * One named variant: client domain lsmconf_<C>_t reaching the server in
 * mode M (m, as the name spells it) on the policy with N categories. NAME
 * is written out so that a printed case name greps to its line; the build
 * fails when it is not c<N>_<m>_<C>.
 */
#define UNIX_CASE(NAME, N, m, M, C)                                 \
	enum { NAME##__variant = 1 };                               \
	static_assert(c##N##_##m##_##C##__variant,                  \
		      #NAME " is not c" #N "_" #m "_" #C);          \
	FIXTURE_VARIANT_ADD(unix_pair, NAME)                        \
	{                                                           \
		.cats = N, .mode = M, .client = "lsmconf_" #C "_t", \
	}

/* Each client, in each mode, on a policy with few and with all categories. */
/* clang-format off */
UNIX_CASE(c4_stream_c_ok, 4, stream, STREAM, c_ok);
UNIX_CASE(c4_stream_c_no_connectto, 4, stream, STREAM, c_no_connectto);
UNIX_CASE(c4_stream_c_no_sendto, 4, stream, STREAM, c_no_sendto);
UNIX_CASE(c4_dgram_connected_c_ok, 4, dgram_connected, DGRAM_CONNECTED, c_ok);
UNIX_CASE(c4_dgram_connected_c_no_connectto, 4, dgram_connected, DGRAM_CONNECTED, c_no_connectto);
UNIX_CASE(c4_dgram_connected_c_no_sendto, 4, dgram_connected, DGRAM_CONNECTED, c_no_sendto);
UNIX_CASE(c4_dgram_unconnected_c_ok, 4, dgram_unconnected, DGRAM_UNCONNECTED, c_ok);
UNIX_CASE(c4_dgram_unconnected_c_no_connectto,
	  4, dgram_unconnected, DGRAM_UNCONNECTED, c_no_connectto);
UNIX_CASE(c4_dgram_unconnected_c_no_sendto, 4, dgram_unconnected, DGRAM_UNCONNECTED, c_no_sendto);
UNIX_CASE(c1024_stream_c_ok, 1024, stream, STREAM, c_ok);
UNIX_CASE(c1024_stream_c_no_connectto, 1024, stream, STREAM, c_no_connectto);
UNIX_CASE(c1024_stream_c_no_sendto, 1024, stream, STREAM, c_no_sendto);
UNIX_CASE(c1024_dgram_connected_c_ok, 1024, dgram_connected, DGRAM_CONNECTED, c_ok);
UNIX_CASE(c1024_dgram_connected_c_no_connectto,
	  1024, dgram_connected, DGRAM_CONNECTED, c_no_connectto);
UNIX_CASE(c1024_dgram_connected_c_no_sendto, 1024, dgram_connected, DGRAM_CONNECTED, c_no_sendto);
UNIX_CASE(c1024_dgram_unconnected_c_ok, 1024, dgram_unconnected, DGRAM_UNCONNECTED, c_ok);
UNIX_CASE(c1024_dgram_unconnected_c_no_connectto,
	  1024, dgram_unconnected, DGRAM_UNCONNECTED, c_no_connectto);
UNIX_CASE(c1024_dgram_unconnected_c_no_sendto,
	  1024, dgram_unconnected, DGRAM_UNCONNECTED, c_no_sendto);
/* clang-format on */

FIXTURE_SETUP(unix_pair)
{
	SEL_SETUP(variant->cats);
}

FIXTURE_TEARDOWN(unix_pair)
{
}

TEST_F(unix_pair, reach_server)
{
	int expected[N_OPS], observed[N_OPS], op;
	char abi[32];

	expect_case(variant->mode, variant->client, expected);
	ASSERT_EQ(0, run_case(variant->mode, variant->client, observed));
	snprintf(abi, sizeof(abi), "selinux-c%d", variant->cats);
	for (op = 0; op < N_OPS; op++) {
		struct record rec = {
			.abi = abi,
			.subject = variant->client,
			.object = SERVER,
			.class = variant->mode == STREAM ? "stream" : "dgram",
			.detail = "abstract",
			.op = op_names[op],
			.expected = expected[op],
			.observed = observed[op],
		};

		JUDGE(&rec);
	}
}

LSM_HARNESS_MAIN
