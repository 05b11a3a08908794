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
#include "sel.h"
#include "../lsmconf/judge.h"

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

/* Server: binds, reports, and receives one message when told to. */
static void server_main(enum mode mode, int cmd, int rep)
{
	int type = mode == STREAM ? SOCK_STREAM : SOCK_DGRAM;
	struct sockaddr_un a;
	socklen_t len = sel_abstract_addr(&a, "lsmconf-selinux-%d", getpid());
	int fd, conn, err;
	char c = 'q', buf[64];

	if (sel_enter(SERVER, LEVEL))
		_exit(2);
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	err = sys_ret(fd);
	if (!err)
		err = sys_ret(bind(fd, (struct sockaddr *)&a, len));
	if (!err && mode == STREAM)
		err = sys_ret(listen(fd, 1));
	if (pipe_write(rep, &err, sizeof(err)) || err)
		_exit(0);
	pipe_read(cmd, &c, 1, PEER_WAIT_MS);
	err = NOT_RUN;
	if (c == 'r') {
		conn = fd;
		err = wait_readable(fd);
		if (!err && mode == STREAM) {
			conn = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
			err = sys_ret(conn);
			if (!err)
				err = wait_readable(conn);
		}
		if (!err) {
			ssize_t n = recv(conn, buf, sizeof(buf), MSG_DONTWAIT);

			err = n < 0 ? -errno : 0;
			if (!err &&
			    (n != sizeof(MSG_TEXT) || memcmp(buf, MSG_TEXT, n)))
				err = -EBADMSG;
		}
	}
	pipe_write(rep, &err, sizeof(err));
	_exit(0);
}

/* Client: reaches the server as the mode says; reports connect and send. */
static void client_main(enum mode mode, const char *client, pid_t server,
			int rep)
{
	int type = mode == STREAM ? SOCK_STREAM : SOCK_DGRAM;
	int err[2] = { NOT_RUN, NOT_RUN }, fd;
	struct sockaddr_un a;
	socklen_t len = sel_abstract_addr(&a, "lsmconf-selinux-%d", server);

	if (sel_enter(client, LEVEL))
		_exit(2);
	fd = socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		_exit(3);
	if (mode == DGRAM_UNCONNECTED) {
		err[1] = sys_ret(sendto(fd, MSG_TEXT, sizeof(MSG_TEXT),
					MSG_DONTWAIT, (struct sockaddr *)&a,
					len));
	} else {
		err[0] = sys_ret(connect(fd, (struct sockaddr *)&a, len));
		if (!err[0])
			err[1] = sys_ret(send(fd, MSG_TEXT, sizeof(MSG_TEXT),
					      MSG_DONTWAIT));
	}
	pipe_write(rep, err, sizeof(err));
	_exit(0);
}

/* Runs one case; -1 when a peer could not run (a harness failure). */
static int run_case(enum mode mode, const char *client, int observed[N_OPS])
{
	int cmd[2], rep[2], crep[2], cerr[2], serr, i, ret = 0;
	pid_t spid, cpid;
	char c;

	for (i = 0; i < N_OPS; i++)
		observed[i] = NOT_RUN;
	if (pipe2(cmd, O_CLOEXEC) || pipe2(rep, O_CLOEXEC) ||
	    pipe2(crep, O_CLOEXEC))
		return -1;
	spid = peer_fork();
	if (spid == 0)
		server_main(mode, cmd[0], rep[1]);
	if (spid < 0 || pipe_read(rep[0], &serr, sizeof(serr), PEER_WAIT_MS) ||
	    serr) {
		ret = -1;
		goto reap;
	}
	cpid = peer_fork();
	if (cpid == 0)
		client_main(mode, client, spid, crep[1]);
	if (cpid < 0 || pipe_read(crep[0], cerr, sizeof(cerr), PEER_WAIT_MS)) {
		ret = -1;
	} else {
		observed[OP_CONNECT] = cerr[0];
		observed[OP_SEND] = cerr[1];
	}
	if (cpid > 0 && peer_reap(cpid))
		ret = -1;
	/* Only a sent message can be received. */
	c = !ret && !observed[OP_SEND] ? 'r' : 'q';
	if (pipe_write(cmd[1], &c, 1) ||
	    pipe_read(rep[0], &observed[OP_RECV], sizeof(int), PEER_WAIT_MS))
		ret = -1;
reap:
	if (spid > 0 && peer_reap(spid))
		ret = -1;
	close(cmd[0]);
	close(cmd[1]);
	close(rep[0]);
	close(rep[1]);
	close(crep[0]);
	close(crep[1]);
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
	_Static_assert(c##N##_##m##_##C##__variant,                 \
		       #NAME " is not c" #N "_" #m "_" #C);         \
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
UNIX_CASE(c4_dgram_unconnected_c_no_connectto, 4, dgram_unconnected, DGRAM_UNCONNECTED, c_no_connectto);
UNIX_CASE(c4_dgram_unconnected_c_no_sendto, 4, dgram_unconnected, DGRAM_UNCONNECTED, c_no_sendto);
UNIX_CASE(c1024_stream_c_ok, 1024, stream, STREAM, c_ok);
UNIX_CASE(c1024_stream_c_no_connectto, 1024, stream, STREAM, c_no_connectto);
UNIX_CASE(c1024_stream_c_no_sendto, 1024, stream, STREAM, c_no_sendto);
UNIX_CASE(c1024_dgram_connected_c_ok, 1024, dgram_connected, DGRAM_CONNECTED, c_ok);
UNIX_CASE(c1024_dgram_connected_c_no_connectto, 1024, dgram_connected, DGRAM_CONNECTED, c_no_connectto);
UNIX_CASE(c1024_dgram_connected_c_no_sendto, 1024, dgram_connected, DGRAM_CONNECTED, c_no_sendto);
UNIX_CASE(c1024_dgram_unconnected_c_ok, 1024, dgram_unconnected, DGRAM_UNCONNECTED, c_ok);
UNIX_CASE(c1024_dgram_unconnected_c_no_connectto, 1024, dgram_unconnected, DGRAM_UNCONNECTED, c_no_connectto);
UNIX_CASE(c1024_dgram_unconnected_c_no_sendto, 1024, dgram_unconnected, DGRAM_UNCONNECTED, c_no_sendto);
/* clang-format on */

FIXTURE_SETUP(unix_pair)
{
	const char *why = sel_unusable();

	if (why)
		SKIP(return, "%s", why);
	SEL_NEED(variant->cats);
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

TEST_HARNESS_MAIN
