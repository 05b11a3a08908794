// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux AF_UNIX sockets in depth: a client and a server, each in a domain
 * of lsmconf-socket.cil (lsmconf_sk_t holds every permission, each
 * lsmconf_sk_no_PERM_t lacks exactly PERM), talk over a stream, datagram
 * or seqpacket socket at an abstract or a pathname address; every call
 * either side makes is compared with the model below and written as a
 * decision record (ids socket_test/sk_pair.VARIANT.talk/SIDE.OP).
 * A second fixture passes a socket with SCM_RIGHTS to another domain,
 * which then uses it (ids socket_test/sk_fd.to_RECEIVER.pass_and_use/OP).
 *
 * Every case runs at level s0 on the 4-category policy, loaded once per
 * binary (the first case loads it, the others find it loaded).
 *
 * The model (security/selinux/hooks.c unless named otherwise). Permissions
 * are of the socket's class: unix_stream_socket for SOCK_STREAM and
 * SOCK_SEQPACKET, unix_dgram_socket for SOCK_DGRAM
 * (socket_type_to_security_class()); "sf_" ones are of class sock_file.
 *
 *   call            permission(s)               hook
 *   socket()        create                      selinux_socket_create
 *   bind()          bind                        selinux_socket_bind
 *     pathname      + sf_create                 selinux_inode_mknod ->
 *                                               may_create (the new file)
 *   listen()        listen                      selinux_socket_listen
 *   connect()       connect                     selinux_socket_connect
 *     pathname      + sf_write                  unix_find_bsd ->
 *                                               path_permission ->
 *                                               selinux_inode_permission
 *     stream        + connectto (socket->peer)  selinux_socket_unix_stream_connect
 *     dgram         + sendto (socket->peer)     selinux_socket_unix_may_send
 *   accept()        accept (on the listener)    selinux_socket_accept
 *   send(), write() write                       selinux_socket_sendmsg
 *     dgram         + sendto (socket->peer)     unix_dgram_sendmsg ->
 *                                               selinux_socket_unix_may_send
 *                                               (not for seqpacket, which
 *                                               shares unix_dgram_sendmsg
 *                                               but skips the hook)
 *     sendto(addr)  + sf_write when pathname    unix_find_bsd
 *   recv(), read()  read                        selinux_socket_recvmsg
 *   getsockopt()    getopt                      selinux_socket_getsockopt
 *   setsockopt()    setopt                      selinux_socket_setsockopt
 *   getsockname(),  getattr                     selinux_socket_getsockname,
 *   getpeername()                               selinux_socket_getpeername
 *   SO_PEERSEC      getopt, then the peer SID   selinux_socket_getpeersec_stream
 *   fgetfilecon()   getattr (socket inode)      selinux_inode_getxattr
 *   ioctl(SIOCOUTQ) ioctl                       selinux_file_ioctl ->
 *                                               ioctl_has_perm
 *   shutdown()      shutdown                    selinux_socket_shutdown
 *
 * Subject is the calling task, object the socket's SID (sock_has_perm),
 * except connectto and sendto, which are checked from the SENDING SOCKET's
 * SID to the receiving socket's, and sf_* (the task on the socket file).
 * A write() or read() on a socket the task opened itself does not reach
 * file_has_perm: selinux_file_permission() sees the same SID and policy.
 *
 * Labels: selinux_socket_unix_stream_connect() gives the server's new
 * socket the listener's SID with the client's MLS level
 * (security_sid_mls_copy) and records each end's peer: the client's
 * SO_PEERSEC is that new socket's SID, the accepted socket's is the
 * client socket's. At s0 both levels are equal, so the client sees the
 * server's context and the server the client's. The accepted socket's
 * inode first takes the listener's inode SID (selinux_socket_accept), then
 * unix_accept() grafts the new sock on it and selinux_sock_graft() gives
 * the inode that sock's SID (the listener's type, the client's level):
 * what fgetfilecon() reads, and what every later check on the accepted
 * socket is made against (sock_has_perm uses the sock's SID; ioctl and
 * getxattr the inode's). A datagram socket has no peer SID: SO_PEERSEC is
 * ENOPROTOOPT (only the stream classes keep one). A context that differs
 * from the model is recorded as EBADMSG.
 *
 * Order: the server creates, binds (and listens); the client creates
 * (datagram: binds, so that the server can answer), connects, sends one
 * message with send() and one with write(); the server accepts, receives
 * both (recv(), read()), answers with send() and write() (datagram: a
 * sendto() to the client's address, then connect() to it and write());
 * the client receives both; then each side runs getsockopt, setsockopt,
 * getsockname, getpeername, SO_PEERSEC, fgetfilecon, ioctl and shutdown
 * on its connected socket (the server: the accepted one; datagram: its
 * bound one). A call whose prerequisite failed, on its own side or the
 * peer's, is NOT_RUN: a server that could not set up stops the case; a
 * failed connect() or accept() stops that side's data and socket calls;
 * a message that was not sent is not awaited. The calls after the data
 * (getsockopt ... shutdown) do not depend on each other and all run.
 * The datagram server's getpeername() is ENOTCONN when its connect()
 * failed (unix_getname: no peer), after the getattr check.
 */

#define _GNU_SOURCE
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/worker.h"

#define LEVEL "s0"
#define SK_FULL "lsmconf_sk_t"
#define MSG_LEN 16
static const char msg_a[MSG_LEN] = "lsmconf-sk-send";
static const char msg_b[MSG_LEN] = "lsmconf-sk-write";

/* An op that is not part of the case: never run, never recorded. */
#define NA 2

enum sk_type { STREAM, DGRAM, SEQPACKET };
enum sk_addr { ABSTRACT, PATHNAME };
enum side { CLIENT, SERVER };

static const char *const type_names[] = { "stream", "dgram", "seqpacket" };
static const char *const addr_names[] = { "abstract", "pathname" };
static const char *const side_names[] = { "client", "server" };

enum op {
	OP_SOCKET,
	OP_BIND,
	OP_LISTEN,
	OP_CONNECT,
	OP_ACCEPT,
	OP_SEND,
	OP_WRITE,
	OP_RECV,
	OP_READ,
	OP_GETSOCKOPT,
	OP_SETSOCKOPT,
	OP_GETSOCKNAME,
	OP_GETPEERNAME,
	OP_PEERSEC,
	OP_FILECON,
	OP_IOCTL,
	OP_SHUTDOWN,
	N_OPS
};

static const char *const op_names[N_OPS] = {
	"socket",     "bind",	     "listen",	    "connect", "accept",
	"send",	      "write",	     "recv",	    "read",    "getsockopt",
	"setsockopt", "getsockname", "getpeername", "peersec", "filecon",
	"ioctl",      "shutdown",
};

/* What one side did: every op's outcome, and the contexts it read. */
struct sk_report {
	int r[N_OPS];
	char peersec[256];
	char filecon[256];
};

static void report_init(struct sk_report *r)
{
	int op;

	memset(r, 0, sizeof(*r));
	for (op = 0; op < N_OPS; op++)
		r->r[op] = NA;
}

static int sock_type(enum sk_type t)
{
	return t == STREAM ? SOCK_STREAM :
	       t == DGRAM  ? SOCK_DGRAM :
			     SOCK_SEQPACKET;
}

static void context_of(const char *type, char *ctx, size_t size)
{
	snprintf(ctx, size, SEL_USER_ROLE "%s:%s", type, LEVEL);
}

/* ---------------------------------------------------------------- model */

struct sk_case {
	enum sk_type type;
	enum sk_addr addr;
	const char *dom[2]; /* client, server */
};

struct sk_model {
	const struct sk_case *k;
	char lack[2][32];
	int e[2][N_OPS];
	char perms[2][N_OPS][48];
};

/*
 * The outcome of a call by @who needing every permission of @perms
 * (space-separated, kept for the record): -EACCES when its domain lacks
 * one of them. Each domain lacks at most one permission, so the order in
 * which the kernel checks them does not decide the errno.
 */
static int need(struct sk_model *m, enum side who, enum op op,
		const char *perms)
{
	char list[64], *tok, *save;
	int ret = 0;

	snprintf(m->perms[who][op], sizeof(m->perms[0][0]), "%s", perms);
	snprintf(list, sizeof(list), "%s", perms);
	for (tok = strtok_r(list, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, m->lack[who]))
			ret = -EACCES;
	return ret;
}

static void set(struct sk_model *m, enum side who, enum op op, bool reached,
		const char *perms)
{
	int e = need(m, who, op, perms);

	m->e[who][op] = reached ? e : NOT_RUN;
}

static bool ok(const struct sk_model *m, enum side who, enum op op)
{
	return m->e[who][op] == 0;
}

/* The calls each side makes on its connected socket, after the data. */
static void model_socket_calls(struct sk_model *m, enum side who, bool run)
{
	bool dgram = m->k->type == DGRAM;

	set(m, who, OP_GETSOCKOPT, run,
	    "getopt"); /* selinux_socket_getsockopt */
	set(m, who, OP_SETSOCKOPT, run,
	    "setopt"); /* selinux_socket_setsockopt */
	/* selinux_socket_getsockname, selinux_socket_getpeername */
	set(m, who, OP_GETSOCKNAME, run, "getattr");
	set(m, who, OP_GETPEERNAME, run, "getattr");
	/* The datagram server is connected only by its own connect(). */
	if (!m->e[who][OP_GETPEERNAME] && dgram && who == SERVER &&
	    !ok(m, SERVER, OP_CONNECT))
		m->e[who][OP_GETPEERNAME] = -ENOTCONN;
	/*
	 * selinux_socket_getsockopt first (do_sock_getsockopt), then
	 * selinux_socket_getpeersec_stream: no peer SID on a datagram.
	 */
	set(m, who, OP_PEERSEC, run, "getopt");
	if (!m->e[who][OP_PEERSEC] && dgram)
		m->e[who][OP_PEERSEC] = -ENOPROTOOPT;
	set(m, who, OP_FILECON, run, "getattr"); /* selinux_inode_getxattr */
	set(m, who, OP_IOCTL, run, "ioctl"); /* selinux_file_ioctl */
	set(m, who, OP_SHUTDOWN, run, "shutdown"); /* selinux_socket_shutdown */
}

static void model_case(const struct sk_case *k, struct sk_model *m)
{
	bool dgram = k->type == DGRAM, path = k->addr == PATHNAME;
	bool ready, client_base, server_conn;
	int who, op;

	memset(m, 0, sizeof(*m));
	m->k = k;
	for (who = 0; who < 2; who++) {
		sel_lacks(k->dom[who], m->lack[who], sizeof(m->lack[0]));
		for (op = 0; op < N_OPS; op++)
			m->e[who][op] = NA;
	}

	/* The server sets up; the case stops when it cannot. */
	/* selinux_socket_create */
	set(m, SERVER, OP_SOCKET, true, "create");
	/* selinux_socket_bind; pathname: may_create (selinux_inode_mknod) */
	set(m, SERVER, OP_BIND, ok(m, SERVER, OP_SOCKET),
	    path ? "bind sf_create" : "bind");
	/* selinux_socket_listen */
	if (!dgram)
		set(m, SERVER, OP_LISTEN, ok(m, SERVER, OP_BIND), "listen");
	ready = ok(m, SERVER, OP_BIND) && (dgram || ok(m, SERVER, OP_LISTEN));

	/* The client connects and sends twice. */
	set(m, CLIENT, OP_SOCKET, ready, "create");
	if (dgram)
		set(m, CLIENT, OP_BIND, ok(m, CLIENT, OP_SOCKET),
		    path ? "bind sf_create" : "bind");
	client_base = dgram ? ok(m, CLIENT, OP_BIND) : ok(m, CLIENT, OP_SOCKET);
	/*
	 * selinux_socket_connect; pathname: unix_find_bsd ->
	 * selinux_inode_permission; stream and seqpacket:
	 * selinux_socket_unix_stream_connect; dgram: unix_dgram_connect ->
	 * selinux_socket_unix_may_send.
	 */
	set(m, CLIENT, OP_CONNECT, client_base,
	    dgram ? (path ? "connect sf_write sendto" : "connect sendto") :
		    (path ? "connect sf_write connectto" :
			    "connect connectto"));
	/*
	 * selinux_socket_sendmsg; dgram: unix_dgram_sendmsg ->
	 * selinux_socket_unix_may_send (seqpacket skips it).
	 */
	set(m, CLIENT, OP_SEND, ok(m, CLIENT, OP_CONNECT),
	    dgram ? "write sendto" : "write");
	set(m, CLIENT, OP_WRITE, ok(m, CLIENT, OP_CONNECT),
	    dgram ? "write sendto" : "write");

	/* The server accepts, receives and answers. */
	/* selinux_socket_accept, on the listener */
	if (!dgram)
		set(m, SERVER, OP_ACCEPT, ok(m, CLIENT, OP_CONNECT), "accept");
	server_conn = dgram ? ready : ok(m, SERVER, OP_ACCEPT);
	/* selinux_socket_recvmsg (the accepted socket: the server's type) */
	set(m, SERVER, OP_RECV, server_conn && ok(m, CLIENT, OP_SEND), "read");
	set(m, SERVER, OP_READ, server_conn && ok(m, CLIENT, OP_WRITE), "read");
	if (dgram) {
		/*
		 * sendto(client): selinux_socket_sendmsg, unix_find_bsd,
		 * selinux_socket_unix_may_send; connect(client) as the
		 * client's; write() on it: sendmsg and may_send.
		 */
		bool bound = ready && ok(m, CLIENT, OP_BIND);

		set(m, SERVER, OP_SEND, bound,
		    path ? "write sf_write sendto" : "write sendto");
		set(m, SERVER, OP_CONNECT, bound,
		    path ? "connect sf_write sendto" : "connect sendto");
		set(m, SERVER, OP_WRITE, ok(m, SERVER, OP_CONNECT),
		    "write sendto");
	} else {
		/* selinux_socket_sendmsg (no unix hook on a stream) */
		set(m, SERVER, OP_SEND, server_conn, "write");
		set(m, SERVER, OP_WRITE, server_conn, "write");
	}

	/* The client receives the answers: selinux_socket_recvmsg. */
	set(m, CLIENT, OP_RECV,
	    ok(m, CLIENT, OP_CONNECT) && ok(m, SERVER, OP_SEND), "read");
	set(m, CLIENT, OP_READ,
	    ok(m, CLIENT, OP_CONNECT) && ok(m, SERVER, OP_WRITE), "read");

	model_socket_calls(m, CLIENT, ok(m, CLIENT, OP_CONNECT));
	model_socket_calls(m, SERVER, server_conn);
}

/* ---------------------------------------------------------------- peers */

struct sk_addrs {
	struct sockaddr_un a[2]; /* client, server */
	socklen_t len[2];
};

static void make_addrs(struct sk_addrs *s, enum sk_addr addr, const char *dir)
{
	int who, n;

	memset(s, 0, sizeof(*s));
	for (who = 0; who < 2; who++) {
		struct sockaddr_un *a = &s->a[who];

		a->sun_family = AF_UNIX;
		if (addr == ABSTRACT) {
			s->len[who] =
				sel_abstract_addr(a, "lsmconf-sk-%d-%s",
						  getpid(), side_names[who]);
		} else {
			n = snprintf(a->sun_path, sizeof(a->sun_path), "%s/%s",
				     dir, side_names[who]);
			s->len[who] =
				offsetof(struct sockaddr_un, sun_path) + n + 1;
		}
	}
}

/* Receives one message with recv() or read(); -EBADMSG when it is not @want. */
static int recv_check(int fd, const char *want, bool use_read)
{
	char buf[MSG_LEN * 2];
	ssize_t n;
	int err = wait_readable(fd);

	if (err)
		return err;
	n = use_read ? read(fd, buf, MSG_LEN) :
		       recv(fd, buf, MSG_LEN, MSG_DONTWAIT);
	if (n < 0)
		return -errno;
	return n == MSG_LEN && !memcmp(buf, want, MSG_LEN) ? 0 : -EBADMSG;
}

/* The socket calls after the data (see the model), on @fd. */
static void socket_calls(struct sk_report *r, int fd, bool run)
{
	struct sockaddr_un a;
	socklen_t len;
	char *ctx;
	int v;

	if (!run) {
		for (v = OP_GETSOCKOPT; v <= OP_SHUTDOWN; v++)
			r->r[v] = NOT_RUN;
		return;
	}
	len = sizeof(v);
	r->r[OP_GETSOCKOPT] =
		sys_ret(getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &len));
	v = 65536;
	r->r[OP_SETSOCKOPT] =
		sys_ret(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)));
	len = sizeof(a);
	r->r[OP_GETSOCKNAME] = sys_ret(getsockname(fd, (void *)&a, &len));
	len = sizeof(a);
	r->r[OP_GETPEERNAME] = sys_ret(getpeername(fd, (void *)&a, &len));
	len = sizeof(r->peersec) - 1;
	r->r[OP_PEERSEC] = sys_ret(
		getsockopt(fd, SOL_SOCKET, SO_PEERSEC, r->peersec, &len));
	if (!r->r[OP_PEERSEC])
		r->peersec[len < sizeof(r->peersec) ? len : 0] = '\0';
	r->r[OP_FILECON] = fgetfilecon(fd, &ctx) < 0 ? -errno : 0;
	if (!r->r[OP_FILECON]) {
		snprintf(r->filecon, sizeof(r->filecon), "%s", ctx);
		freecon(ctx);
	}
	r->r[OP_IOCTL] = sys_ret(ioctl(fd, SIOCOUTQ, &v));
	r->r[OP_SHUTDOWN] = sys_ret(shutdown(fd, SHUT_WR));
}

/* Status bits the test hands from one side to the other. */
#define C_BOUND 1
#define C_CONNECTED 2
#define C_SENT 4
#define C_WRITTEN 8
#define S_SENT 1
#define S_WRITTEN 2

/*
 * One side (worker.h), driven phase by phase by the test: the server sets
 * up (phase 0), the client connects and sends (0), the server accepts,
 * receives and answers (1), the client receives and runs its socket
 * calls (1), the server its own (2). A phase's request carries the other
 * side's status, its reply the side's own and its report so far.
 */
struct sk_side {
	const struct sk_case *k;
	const struct sk_addrs *ad;
	int fd, conn;
	struct sk_report rep;
};

struct sk_req {
	int phase, status;
};

struct sk_rep {
	int status;
	struct sk_report rep;
};

/* Phase 0: enters the domain; 1 when the server is ready, else 0. */
static int server_setup(struct sk_side *sd)
{
	const struct sk_case *k = sd->k;
	bool dgram = k->type == DGRAM;
	int *r = sd->rep.r, op, ready;

	sd->fd = socket(AF_UNIX,
			sock_type(k->type) | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	r[OP_SOCKET] = sys_ret(sd->fd);
	r[OP_BIND] = r[OP_SOCKET] ?
			     NOT_RUN :
			     sys_ret(bind(sd->fd, (void *)&sd->ad->a[SERVER],
					  sd->ad->len[SERVER]));
	if (!dgram)
		r[OP_LISTEN] =
			r[OP_BIND] ? NOT_RUN : sys_ret(listen(sd->fd, 4));
	ready = !r[OP_BIND] && (dgram || !r[OP_LISTEN]);
	if (!ready)
		/* Every later server op of the case is NOT_RUN. */
		for (op = OP_LISTEN; op < N_OPS; op++)
			if (r[op] == NA &&
			    (dgram ? op != OP_LISTEN && op != OP_ACCEPT :
				     op != OP_CONNECT))
				r[op] = NOT_RUN;
	return ready;
}

/* Phase 1: accepts, receives what @cst says was sent, answers. */
static int server_talk(struct sk_side *sd, int cst)
{
	const struct sk_addrs *ad = sd->ad;
	bool dgram = sd->k->type == DGRAM;
	int *r = sd->rep.r, fd = sd->fd, conn = -1;

	if (dgram) {
		conn = fd;
	} else if (cst & C_CONNECTED) {
		r[OP_ACCEPT] = wait_readable(fd);
		if (!r[OP_ACCEPT]) {
			conn = accept4(fd, NULL, NULL,
				       SOCK_CLOEXEC | SOCK_NONBLOCK);
			r[OP_ACCEPT] = sys_ret(conn);
		}
	} else {
		r[OP_ACCEPT] = NOT_RUN;
	}
	sd->conn = conn;
	r[OP_RECV] = conn >= 0 && (cst & C_SENT) ?
			     recv_check(conn, msg_a, false) :
			     NOT_RUN;
	r[OP_READ] = conn >= 0 && (cst & C_WRITTEN) ?
			     recv_check(conn, msg_b, true) :
			     NOT_RUN;
	if (dgram && (cst & C_BOUND)) {
		r[OP_SEND] = sys_ret(sendto(fd, msg_a, MSG_LEN, MSG_DONTWAIT,
					    (void *)&ad->a[CLIENT],
					    ad->len[CLIENT]));
		r[OP_CONNECT] = sys_ret(
			connect(fd, (void *)&ad->a[CLIENT], ad->len[CLIENT]));
		r[OP_WRITE] = r[OP_CONNECT] ?
				      NOT_RUN :
				      sys_ret(write(fd, msg_b, MSG_LEN));
	} else if (dgram) {
		r[OP_SEND] = r[OP_CONNECT] = r[OP_WRITE] = NOT_RUN;
	} else if (conn >= 0) {
		r[OP_SEND] = sys_ret(send(conn, msg_a, MSG_LEN, MSG_DONTWAIT));
		r[OP_WRITE] = sys_ret(write(conn, msg_b, MSG_LEN));
	} else {
		r[OP_SEND] = r[OP_WRITE] = NOT_RUN;
	}
	return (!r[OP_SEND] ? S_SENT : 0) | (!r[OP_WRITE] ? S_WRITTEN : 0);
}

/* Phase 0 of the client: connects and sends; its status (C_*). */
static int client_send(struct sk_side *sd)
{
	const struct sk_addrs *ad = sd->ad;
	bool dgram = sd->k->type == DGRAM;
	int *r = sd->rep.r, fd;
	bool base;

	fd = sd->fd = socket(
		AF_UNIX, sock_type(sd->k->type) | SOCK_CLOEXEC | SOCK_NONBLOCK,
		0);
	r[OP_SOCKET] = sys_ret(fd);
	base = !r[OP_SOCKET];
	if (dgram) {
		r[OP_BIND] = base ? sys_ret(bind(fd, (void *)&ad->a[CLIENT],
						 ad->len[CLIENT])) :
				    NOT_RUN;
		base = !r[OP_BIND];
	}
	r[OP_CONNECT] = base ? sys_ret(connect(fd, (void *)&ad->a[SERVER],
					       ad->len[SERVER])) :
			       NOT_RUN;
	if (!r[OP_CONNECT]) {
		r[OP_SEND] = sys_ret(send(fd, msg_a, MSG_LEN, MSG_DONTWAIT));
		r[OP_WRITE] = sys_ret(write(fd, msg_b, MSG_LEN));
	} else {
		r[OP_SEND] = r[OP_WRITE] = NOT_RUN;
	}
	return (dgram && !r[OP_BIND] ? C_BOUND : 0) |
	       (!r[OP_CONNECT] ? C_CONNECTED : 0) | (!r[OP_SEND] ? C_SENT : 0) |
	       (!r[OP_WRITE] ? C_WRITTEN : 0);
}

/* Phase 1 of the client: receives what @sst says was sent; its calls. */
static void client_receive(struct sk_side *sd, int sst)
{
	int *r = sd->rep.r;

	r[OP_RECV] = !r[OP_CONNECT] && (sst & S_SENT) ?
			     recv_check(sd->fd, msg_a, false) :
			     NOT_RUN;
	r[OP_READ] = !r[OP_CONNECT] && (sst & S_WRITTEN) ?
			     recv_check(sd->fd, msg_b, true) :
			     NOT_RUN;
	socket_calls(&sd->rep, sd->fd, !r[OP_CONNECT]);
}

#define SK_ENTER -1

static void server_serve(const void *request, void *reply, void *state)
{
	const struct sk_req *q = request;
	struct sk_side *sd = state;
	struct sk_rep *out = reply;

	if (q->phase == SK_ENTER)
		out->status = sel_enter(sd->k->dom[SERVER], LEVEL);
	else if (q->phase == 0)
		out->status = server_setup(sd);
	else if (q->phase == 1)
		out->status = server_talk(sd, q->status);
	else
		socket_calls(&sd->rep, sd->conn, sd->conn >= 0);
	out->rep = sd->rep;
}

static void client_serve(const void *request, void *reply, void *state)
{
	const struct sk_req *q = request;
	struct sk_side *sd = state;
	struct sk_rep *out = reply;

	if (q->phase == SK_ENTER)
		out->status = sel_enter(sd->k->dom[CLIENT], LEVEL);
	else if (q->phase == 0)
		out->status = client_send(sd);
	else
		client_receive(sd, q->status);
	out->rep = sd->rep;
}

/* One phase of one side; -1 when the side did not answer. */
static int sk_do(struct worker *w, int phase, int status, struct sk_rep *out)
{
	struct sk_req q = { .phase = phase, .status = status };

	return worker_run(w, &q, out) ? -1 : 0;
}

/* Runs one case: both reports, or -1 when a peer could not run. */
static int run_case(const struct sk_case *k, const char *dir,
		    struct sk_report rep[2])
{
	struct sk_side sd[2] = { { .k = k, .fd = -1, .conn = -1 },
				 { .k = k, .fd = -1, .conn = -1 } };
	worker_serve_fn serve[2] = { client_serve, server_serve };
	struct worker w[2] = { 0 };
	struct sk_rep out[2];
	struct sk_addrs ad;
	int who, ret = -1;

	make_addrs(&ad, k->addr, dir);
	for (who = 0; who < 2; who++) {
		sd[who].ad = &ad;
		report_init(&sd[who].rep);
	}
	for (who = 0; who < 2; who++)
		if (worker_start(&w[who], sizeof(struct sk_req),
				 sizeof(struct sk_rep), serve[who], &sd[who]) ||
		    sk_do(&w[who], SK_ENTER, 0, &out[who]) || out[who].status)
			goto out;
	if (sk_do(&w[SERVER], 0, 0, &out[SERVER]))
		goto out;
	if (!out[SERVER].status) {
		/* Every client op of the case is NOT_RUN (none is NA). */
		int *r = sd[CLIENT].rep.r;

		r[OP_SOCKET] = r[OP_CONNECT] = r[OP_SEND] = NOT_RUN;
		r[OP_WRITE] = r[OP_RECV] = r[OP_READ] = NOT_RUN;
		if (k->type == DGRAM)
			r[OP_BIND] = NOT_RUN;
		socket_calls(&sd[CLIENT].rep, -1, false);
		rep[CLIENT] = sd[CLIENT].rep;
		rep[SERVER] = out[SERVER].rep;
		ret = 0;
		goto out;
	}
	if (sk_do(&w[CLIENT], 0, 0, &out[CLIENT]) ||
	    sk_do(&w[SERVER], 1, out[CLIENT].status, &out[SERVER]) ||
	    sk_do(&w[CLIENT], 1, out[SERVER].status, &out[CLIENT]) ||
	    sk_do(&w[SERVER], 2, 0, &out[SERVER]))
		goto out;
	rep[CLIENT] = out[CLIENT].rep;
	rep[SERVER] = out[SERVER].rep;
	ret = 0;
out:
	for (who = 0; who < 2; who++)
		worker_stop(&w[who]);
	return ret;
}

FIXTURE(sk_pair)
{
	char dir[64];
};

FIXTURE_VARIANT(sk_pair)
{
	enum sk_type type;
	enum sk_addr addr;
	const char *client, *server;
};

/*
 * One named variant: a TYPE socket at an ADDR address between a client in
 * lsmconf_<C>_t and a server in lsmconf_<S>_t. The name says which side
 * lacks what: <type>_<addr>_ok (both hold everything), ..._c_no_PERM (the
 * client lacks PERM), ..._s_no_PERM (the server does).
 */
/* clang-format off */
FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_ok) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_create) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_bind) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_bind_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_connect) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_connect_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_listen) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_listen_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_accept) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_accept_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_read) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_read_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_write) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_getopt) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_getopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_setopt) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_setopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_getattr) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_getattr_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_shutdown) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_shutdown_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_ioctl) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_ioctl_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_connectto) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_connectto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_sendto) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sendto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_sf_create) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sf_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_sf_write) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sf_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_c_no_fd_use) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_fd_use_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_create) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_bind) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_bind_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_connect) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connect_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_listen) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_listen_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_accept) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_accept_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_read) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_read_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_write) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_getopt) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_setopt) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_setopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_getattr) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getattr_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_shutdown) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_ioctl) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_ioctl_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_connectto) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connectto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_sendto) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sendto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_sf_create) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_sf_write) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_abstract_s_no_fd_use) {
	.type = STREAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_fd_use_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_ok) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_create) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_bind) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_bind_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_connect) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_connect_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_listen) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_listen_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_accept) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_accept_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_read) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_read_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_write) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_getopt) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_getopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_setopt) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_setopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_getattr) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_getattr_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_shutdown) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_shutdown_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_ioctl) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_ioctl_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_connectto) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_connectto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_sendto) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sendto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_sf_create) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sf_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_sf_write) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sf_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_c_no_fd_use) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_fd_use_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_create) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_bind) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_bind_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_connect) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connect_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_listen) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_listen_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_accept) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_accept_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_read) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_read_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_write) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_getopt) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_setopt) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_setopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_getattr) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getattr_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_shutdown) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_ioctl) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_ioctl_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_connectto) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connectto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_sendto) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sendto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_sf_create) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_sf_write) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, stream_pathname_s_no_fd_use) {
	.type = STREAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_fd_use_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_ok) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_create) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_bind) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_bind_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_connect) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_connect_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_listen) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_listen_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_accept) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_accept_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_read) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_read_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_write) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_getopt) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_getopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_setopt) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_setopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_getattr) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_getattr_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_shutdown) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_shutdown_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_ioctl) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_ioctl_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_connectto) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_connectto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_sendto) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sendto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_sf_create) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sf_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_sf_write) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sf_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_c_no_fd_use) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_fd_use_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_create) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_bind) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_bind_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_connect) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connect_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_listen) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_listen_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_accept) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_accept_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_read) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_read_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_write) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_getopt) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_setopt) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_setopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_getattr) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getattr_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_shutdown) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_ioctl) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_ioctl_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_connectto) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connectto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_sendto) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sendto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_sf_create) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_sf_write) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_abstract_s_no_fd_use) {
	.type = DGRAM,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_fd_use_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_ok) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_create) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_bind) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_bind_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_connect) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_connect_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_listen) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_listen_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_accept) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_accept_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_read) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_read_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_write) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_getopt) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_getopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_setopt) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_setopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_getattr) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_getattr_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_shutdown) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_shutdown_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_ioctl) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_ioctl_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_connectto) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_connectto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_sendto) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sendto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_sf_create) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sf_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_sf_write) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sf_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_c_no_fd_use) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_fd_use_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_create) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_bind) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_bind_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_connect) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connect_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_listen) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_listen_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_accept) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_accept_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_read) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_read_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_write) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_getopt) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_setopt) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_setopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_getattr) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getattr_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_shutdown) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_ioctl) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_ioctl_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_connectto) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connectto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_sendto) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sendto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_sf_create) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_sf_write) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, dgram_pathname_s_no_fd_use) {
	.type = DGRAM,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_fd_use_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_ok) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_create) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_bind) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_bind_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_connect) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_connect_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_listen) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_listen_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_accept) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_accept_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_read) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_read_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_write) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_getopt) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_getopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_setopt) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_setopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_getattr) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_getattr_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_shutdown) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_shutdown_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_ioctl) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_ioctl_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_connectto) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_connectto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_sendto) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sendto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_sf_create) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sf_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_sf_write) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_sf_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_c_no_fd_use) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_no_fd_use_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_create) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_bind) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_bind_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_connect) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connect_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_listen) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_listen_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_accept) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_accept_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_read) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_read_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_write) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_getopt) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_setopt) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_setopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_getattr) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getattr_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_shutdown) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_ioctl) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_ioctl_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_connectto) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connectto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_sendto) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sendto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_sf_create) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_sf_write) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_abstract_s_no_fd_use) {
	.type = SEQPACKET,
	.addr = ABSTRACT,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_fd_use_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_ok) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_create) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_bind) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_bind_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_connect) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_connect_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_listen) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_listen_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_accept) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_accept_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_read) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_read_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_write) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_getopt) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_getopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_setopt) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_setopt_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_getattr) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_getattr_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_shutdown) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_shutdown_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_ioctl) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_ioctl_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_connectto) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_connectto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_sendto) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sendto_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_sf_create) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sf_create_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_sf_write) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_sf_write_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_c_no_fd_use) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_no_fd_use_t",
	.server = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_create) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_bind) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_bind_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_connect) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connect_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_listen) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_listen_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_accept) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_accept_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_read) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_read_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_write) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_getopt) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_setopt) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_setopt_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_getattr) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_getattr_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_shutdown) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_ioctl) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_ioctl_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_connectto) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_connectto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_sendto) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sendto_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_sf_create) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_create_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_sf_write) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_sf_write_t",
};

FIXTURE_VARIANT_ADD(sk_pair, seqpacket_pathname_s_no_fd_use) {
	.type = SEQPACKET,
	.addr = PATHNAME,
	.client = "lsmconf_sk_t",
	.server = "lsmconf_sk_no_fd_use_t",
};

/* clang-format on */

FIXTURE_SETUP(sk_pair)
{
	SEL_SETUP(4);
	snprintf(self->dir, sizeof(self->dir), "/tmp/lsmconf-sk-XXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
}

FIXTURE_TEARDOWN(sk_pair)
{
	char path[128];
	int who;

	if (!self->dir[0] || self->dir[0] != '/')
		return;
	for (who = 0; who < 2; who++) {
		snprintf(path, sizeof(path), "%s/%s", self->dir,
			 side_names[who]);
		unlink(path);
	}
	rmdir(self->dir);
}

/* The context a call that read one should have returned, or NULL. */
static const char *want_context(const struct sk_case *k, enum side who,
				enum op op, char *buf, size_t size)
{
	if (op == OP_PEERSEC)
		/* The peer's: mls_copy of the listener (server) for the
		 * client; the client socket's for the accepted socket.
		 */
		context_of(k->dom[!who], buf, size);
	else if (op == OP_FILECON)
		/*
		 * Its own socket's inode: for the accepted one, the new
		 * sock's SID (selinux_sock_graft): the listener's type at
		 * the client's level, at s0 the server's own context.
		 */
		context_of(k->dom[who], buf, size);
	else
		return NULL;
	return buf;
}

TEST_F(sk_pair, talk)
{
	struct sk_case k = {
		.type = variant->type,
		.addr = variant->addr,
		.dom = { variant->client, variant->server },
	};
	struct record rec = {
		.abi = "selinux-c4",
		.subject = variant->client,
		.object = variant->server,
		.class = type_names[variant->type],
		.detail = addr_names[variant->addr],
	};
	struct sk_report rep[2];
	struct sk_model m;
	char ctx[256], opname[48];
	int who, op;

	model_case(&k, &m);
	ASSERT_EQ(0, run_case(&k, self->dir, rep));
	for (who = 0; who < 2; who++) {
		for (op = 0; op < N_OPS; op++) {
			int want = m.e[who][op], got = rep[who].r[op];
			const char *val = op == OP_PEERSEC ? rep[who].peersec :
							     rep[who].filecon;

			if (want == NA) {
				EXPECT_EQ(NA, got);
				continue;
			}
			if (!got &&
			    want_context(&k, who, op, ctx, sizeof(ctx)) &&
			    strcmp(val, ctx)) {
				TH_LOG("%s %s: context %s, expected %s",
				       side_names[who], op_names[op], val, ctx);
				got = -EBADMSG;
			}
			snprintf(opname, sizeof(opname), "%s.%s",
				 side_names[who], op_names[op]);
			rec.op = opname;
			rec.depends = m.perms[who][op];
			rec.expected = want;
			rec.observed = got;
			JUDGE(&rec);
		}
	}
}

/* ------------------------------------------------------- SCM_RIGHTS */

/*
 * A sender in lsmconf_sk_t makes a stream socketpair, writes two messages
 * into one end and passes the other end with SCM_RIGHTS over a carrier
 * socketpair the test made before forking (its sockets carry the test's
 * SID, the kernel's initial SID, which sock_has_perm skips:
 * sock_skip_has_perm). The receiver, in the variant's domain, takes the
 * descriptor and uses it. Its checks, the object being the sender's
 * socket (class unix_stream_socket, type lsmconf_sk_t):
 *
 *   call            permission(s)               hook
 *   sendmsg(fd)     none (carrier skipped)      unix_attach_fds has no hook
 *   recvmsg(fd)     fd_use + read + write       selinux_file_receive ->
 *                                               file_has_perm (the file's
 *                                               mode: read and write)
 *     a refused descriptor is dropped, recvmsg() still succeeds with
 *     MSG_CTRUNC (scm_detach_fds stops at the first receive_fd error):
 *     recorded as EACCES, the error receive_fd() got.
 *   write()         fd_use + write, then write  selinux_file_permission ->
 *                                               selinux_revalidate_file_permission
 *                                               (the task is not the
 *                                               file's opener), then
 *                                               selinux_socket_sendmsg
 *   send()          write                       selinux_socket_sendmsg only
 *   read()          fd_use + read, then read    as write()
 *   recv()          read                        selinux_socket_recvmsg only
 *   getsockname()   getattr                     selinux_socket_getsockname
 *   getsockopt()    getopt                      selinux_socket_getsockopt
 *   ioctl(SIOCOUTQ) fd_use + ioctl              ioctl_has_perm
 *   ioctl(FIONREAD) fd_use + getattr            selinux_file_ioctl
 *   shutdown()      shutdown                    selinux_socket_shutdown
 *
 * Every call after recvmsg runs only when the descriptor arrived.
 */
enum fd_op {
	FD_SENDFD,
	FD_RECVFD,
	FD_WRITE,
	FD_SEND,
	FD_READ,
	FD_RECV,
	FD_GETSOCKNAME,
	FD_GETSOCKOPT,
	FD_IOCTL,
	FD_FIONREAD,
	FD_SHUTDOWN,
	N_FD_OPS
};

/* What each call needs of the receiver, on the sender's socket. */
static const struct {
	const char *name, *perms;
} fd_ops[N_FD_OPS] = {
	/* unix_attach_fds: no hook; the carrier's SID is skipped */
	[FD_SENDFD] = { "sender.sendfd", "" },
	/* selinux_file_receive -> file_has_perm(file_to_av) */
	[FD_RECVFD] = { "receiver.recvfd", "fd_use read write" },
	/* selinux_file_permission -> file_has_perm; selinux_socket_sendmsg */
	[FD_WRITE] = { "receiver.write", "fd_use write" },
	/* selinux_socket_sendmsg */
	[FD_SEND] = { "receiver.send", "write" },
	/* selinux_file_permission -> file_has_perm; selinux_socket_recvmsg */
	[FD_READ] = { "receiver.read", "fd_use read" },
	/* selinux_socket_recvmsg */
	[FD_RECV] = { "receiver.recv", "read" },
	/* selinux_socket_getsockname */
	[FD_GETSOCKNAME] = { "receiver.getsockname", "getattr" },
	/* selinux_socket_getsockopt */
	[FD_GETSOCKOPT] = { "receiver.getsockopt", "getopt" },
	/* selinux_file_ioctl -> ioctl_has_perm */
	[FD_IOCTL] = { "receiver.ioctl", "fd_use ioctl" },
	/* selinux_file_ioctl: FIONREAD -> file_has_perm(getattr) */
	[FD_FIONREAD] = { "receiver.fionread", "fd_use getattr" },
	/* selinux_socket_shutdown */
	[FD_SHUTDOWN] = { "receiver.shutdown", "shutdown" },
};

static void model_fd(const char *receiver, int e[N_FD_OPS])
{
	char lack[32], list[32], *tok, *save;
	int op;

	sel_lacks(receiver, lack, sizeof(lack));
	for (op = 0; op < N_FD_OPS; op++) {
		e[op] = 0;
		snprintf(list, sizeof(list), "%s", fd_ops[op].perms);
		for (tok = strtok_r(list, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save))
			if (!strcmp(tok, lack))
				e[op] = -EACCES;
		if (op > FD_RECVFD && e[FD_RECVFD])
			e[op] = NOT_RUN;
	}
}

/* A side of the descriptor passing (worker.h), on the carrier's end. */
struct fd_side {
	const char *dom;
	int carrier;
	int pair[2]; /* the sender's socketpair */
};

enum { FD_DO_ENTER, FD_DO_SEND, FD_DO_USE };

/*
 * The sender makes a stream socketpair, writes two messages into one end
 * and passes the other; the receiver takes it and uses it. The sender's
 * end stays open until the worker stops, after the receiver is done.
 */
static void fd_serve(const void *request, void *reply, void *state)
{
	struct fd_side *sd = state;
	int *out = reply, fd = -1, op, v;
	struct sockaddr_un a;
	socklen_t len;

	switch (*(const int *)request) {
	case FD_DO_ENTER:
		out[0] = sel_enter(sd->dom, LEVEL);
		return;
	case FD_DO_SEND:
		if (socketpair(AF_UNIX,
			       SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0,
			       sd->pair) ||
		    write(sd->pair[1], msg_a, MSG_LEN) != MSG_LEN ||
		    write(sd->pair[1], msg_b, MSG_LEN) != MSG_LEN) {
			out[0] = -EIO; /* no case of the model: a failure */
			return;
		}
		out[0] = send_fd(sd->carrier, sd->pair[0]);
		close(sd->pair[0]);
		return;
	}
	/* FD_DO_USE: out[0] is FD_RECVFD's outcome, then the calls after it. */
#define r(op) out[(op)-FD_RECVFD]
	for (op = FD_RECVFD; op < N_FD_OPS; op++)
		r(op) = NOT_RUN;
	fd = recv_fd(sd->carrier);
	r(FD_RECVFD) = fd < 0 ? fd : 0;
	if (r(FD_RECVFD))
		return;
	r(FD_WRITE) = write(fd, msg_a, MSG_LEN) == MSG_LEN ? 0 : -errno;
	r(FD_SEND) = sys_ret(send(fd, msg_b, MSG_LEN, MSG_DONTWAIT));
	r(FD_READ) = recv_check(fd, msg_a, true);
	r(FD_RECV) = recv_check(fd, msg_b, false);
	len = sizeof(a);
	r(FD_GETSOCKNAME) = sys_ret(getsockname(fd, (void *)&a, &len));
	len = sizeof(v);
	r(FD_GETSOCKOPT) =
		sys_ret(getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &len));
	r(FD_IOCTL) = sys_ret(ioctl(fd, SIOCOUTQ, &v));
	r(FD_FIONREAD) = sys_ret(ioctl(fd, FIONREAD, &v));
	r(FD_SHUTDOWN) = sys_ret(shutdown(fd, SHUT_WR));
	close(fd);
#undef r
}

/* Starts a side in @dom on @carrier (kept: the worker serves on it). */
static int fd_start(struct worker *w, struct fd_side *sd, const char *dom,
		    int carrier)
{
	int what = FD_DO_ENTER, err[N_FD_OPS - 1];

	sd->dom = dom;
	sd->carrier = carrier;
	if (worker_start_fds(w, sizeof(int), sizeof(int) * (N_FD_OPS - 1),
			     fd_serve, sd, true) ||
	    worker_run(w, &what, err))
		return -1;
	return err[0];
}

FIXTURE(sk_fd)
{
	int unused;
};

FIXTURE_VARIANT(sk_fd)
{
	const char *receiver;
};

/* One named variant: the descriptor goes to a receiver in lsmconf_<R>_t. */
/* clang-format off */
FIXTURE_VARIANT_ADD(sk_fd, to_sk) {
	.receiver = "lsmconf_sk_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_create) {
	.receiver = "lsmconf_sk_no_create_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_bind) {
	.receiver = "lsmconf_sk_no_bind_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_connect) {
	.receiver = "lsmconf_sk_no_connect_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_listen) {
	.receiver = "lsmconf_sk_no_listen_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_accept) {
	.receiver = "lsmconf_sk_no_accept_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_read) {
	.receiver = "lsmconf_sk_no_read_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_write) {
	.receiver = "lsmconf_sk_no_write_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_getopt) {
	.receiver = "lsmconf_sk_no_getopt_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_setopt) {
	.receiver = "lsmconf_sk_no_setopt_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_getattr) {
	.receiver = "lsmconf_sk_no_getattr_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_shutdown) {
	.receiver = "lsmconf_sk_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_ioctl) {
	.receiver = "lsmconf_sk_no_ioctl_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_connectto) {
	.receiver = "lsmconf_sk_no_connectto_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_sendto) {
	.receiver = "lsmconf_sk_no_sendto_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_sf_create) {
	.receiver = "lsmconf_sk_no_sf_create_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_sf_write) {
	.receiver = "lsmconf_sk_no_sf_write_t",
};

FIXTURE_VARIANT_ADD(sk_fd, to_sk_no_fd_use) {
	.receiver = "lsmconf_sk_no_fd_use_t",
};

/* clang-format on */

FIXTURE_SETUP(sk_fd)
{
	SEL_SETUP(4);
}

FIXTURE_TEARDOWN(sk_fd)
{
}

TEST_F(sk_fd, pass_and_use)
{
	int carrier[2], e[N_FD_OPS], got[N_FD_OPS], what, op;
	struct fd_side ss = { 0 }, rs = { 0 };
	struct worker sw = { 0 }, rw = { 0 };

	model_fd(variant->receiver, e);
	ASSERT_EQ(0,
		  socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, carrier));
	/* The sender's carrier end is carrier[0], the receiver's [1]. */
	ASSERT_EQ(0, fd_start(&sw, &ss, SK_FULL, carrier[0]));
	ASSERT_EQ(0, fd_start(&rw, &rs, variant->receiver, carrier[1]));
	what = FD_DO_SEND;
	/* Replies are N_FD_OPS - 1 outcomes: got[] has room for them. */
	ASSERT_EQ(0, worker_run(&sw, &what, &got[FD_SENDFD]));
	what = FD_DO_USE;
	ASSERT_EQ(0, worker_run(&rw, &what, &got[FD_RECVFD]));
	worker_stop(&rw);
	worker_stop(&sw);
	for (op = 0; op < N_FD_OPS; op++) {
		struct record rec = {
			.abi = "selinux-c4",
			.subject = variant->receiver,
			.object = SK_FULL,
			.class = "stream",
			.detail = "socketpair",
			.op = fd_ops[op].name,
			.depends = fd_ops[op].perms,
			.expected = e[op],
			.observed = got[op],
		};

		JUDGE(&rec);
	}
	close(carrier[0]);
	close(carrier[1]);
}

LSM_HARNESS_MAIN
