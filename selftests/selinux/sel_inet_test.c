// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux socket classes beyond AF_UNIX (issue #23): TCP, UDP and ping
 * sockets over IPv4 and IPv6 loopback, NETLINK_ROUTE and
 * NETLINK_KOBJECT_UEVENT. A child of each case enters one domain of
 * lsmconf-inet.cil (lsmconf_in_t holds every permission, each
 * lsmconf_in_no_PERM_t lacks exactly PERM) and makes every call below on
 * its own sockets; each call's outcome is compared with the model and
 * written as a decision record (ids sel_inet_test/in.PROTO_DOMAIN.calls/OP).
 *
 * The model (security/selinux/hooks.c unless named otherwise).
 *
 * Class (socket_type_to_security_class): SOCK_STREAM on AF_INET/AF_INET6
 * with protocol 0 or IPPROTO_TCP is tcp_socket; SOCK_DGRAM with 0 or
 * IPPROTO_UDP udp_socket; SOCK_DGRAM IPPROTO_ICMP / IPPROTO_ICMPV6 (a ping
 * socket) icmp_socket when the policy has the extended_socket_class
 * capability (read from /sys/fs/selinux/policy_capabilities/, recorded in
 * depends), else rawip_socket; NETLINK_ROUTE netlink_route_socket,
 * NETLINK_KOBJECT_UEVENT netlink_kobject_uevent_socket. Every permission
 * is checked from the task on its own socket (sock_has_perm), except
 * name_bind / name_connect (on the port's SID, portcon) and node_bind (on
 * the address's SID, nodecon).
 *
 *   call              permissions            then (all held)     hook
 *   socket()          create                 0                   selinux_socket_create
 *   bind(A:P)         bind name_bind         0                   __selinux_socket_bind
 *                     node_bind                                  (name_bind only for a
 *                                                                port below the local
 *                                                                range: ours, 20000+)
 *   bind(ping, A:0)   bind node_bind         0                   (port 0: no name_bind)
 *   bind(netlink)     bind                   0                   (not inet: bind only)
 *   bind probes on a fresh inet socket, port 0 (no name_bind):
 *     inet, AF_UNSPEC 0.0.0.0   bind node_bind 0          AF_UNSPEC is AF_INET when
 *                                                          INADDR_ANY (__inet_bind too)
 *     inet, AF_UNSPEC 127.0.0.1 bind       EAFNOSUPPORT    err_af, before the node
 *     inet, AF_INET6 ::1        bind node_bind EAFNOSUPPORT  the hook takes the
 *                                                          address's family;
 *                                                          __inet_bind refuses
 *     inet6, AF_UNSPEC (28 B)   bind       EAFNOSUPPORT    err_af (__inet6_bind's rule)
 *     inet6, AF_INET 127.0.0.1  bind node_bind EINVAL      16 bytes: the hook's
 *                                                          AF_INET length is met;
 *                                                          inet6_bind_sk wants 24
 *     inet6, ::ffff:127.0.0.1   bind node_bind 0           node of the v6 address
 *   listen()          listen                 0 (tcp),            selinux_socket_listen
 *                                            EOPNOTSUPP (others: sock_no_listen)
 *   accept()          accept                 0 (tcp),            selinux_socket_accept
 *                                            EOPNOTSUPP (others: sock_no_accept),
 *                                            hook before ops->accept (do_accept)
 *   connect(A:P)      connect                0; tcp: ECONNREFUSED selinux_socket_connect_helper
 *     tcp             + name_connect         when the listener did not bind and listen
 *   connect(AF_UNSPEC) connect               0 (disconnect: no name_connect)
 *   send()            write                  0                   selinux_socket_sendmsg
 *   sendmsg(RTM_GETLINK) write nlmsg_read    0                   selinux_netlink_send ->
 *   sendmsg(RTM_NEWLINK) write nlmsg_write   0                   selinux_nlmsg_lookup
 *                                                                (nlmsgtab.c)
 *   recv()            read                   0                   selinux_socket_recvmsg
 *   getsockopt()      getopt                 0                   selinux_socket_getsockopt
 *   setsockopt()      setopt                 0                   selinux_socket_setsockopt
 *   shutdown()        shutdown               0 when connected,   selinux_socket_shutdown
 *                                            ENOTCONN when not (inet_shutdown),
 *                                            EOPNOTSUPP on netlink (sock_no_shutdown)
 *
 * A call lacking a permission is EACCES (one lack per domain: the order of
 * the checks does not decide the errno). A call whose socket could not be
 * made, or whose data was not sent, is NOT_RUN.
 *
 * Order: tcp, udp, ping: the server socket S; the bind probes (a fresh
 * socket each); bind(S, A:P); the client C; listen(S); connect(C, A:P);
 * accept(S); send(C); recv (tcp: the accepted socket; udp: S; ping: C, the
 * echo reply); getsockopt, setsockopt, shutdown(SHUT_WR) and the
 * AF_UNSPEC connect on C. Netlink: socket, bind, listen, accept, GETLINK,
 * recv (its answer), NEWLINK (lo, no attribute: changes nothing),
 * getsockopt, setsockopt, shutdown.
 */

#define _GNU_SOURCE
#include <arpa/inet.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <netinet/icmp6.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/peersec.h"

#define LEVEL "s0"
#define PORT_BASE 20000 /* portcon tcp/udp 20000-24999 */
#define PORT_SPAN 5000
#define PING_RANGE "/proc/sys/net/ipv4/ping_group_range"
#define EXTSOCK SEL_FS "/policy_capabilities/extended_socket_class"

/* An op that is not part of the protocol: never run, never recorded. */
#define NA 2

enum proto { TCP4, TCP6, UDP4, UDP6, PING4, PING6, NL_ROUTE, NL_UEVENT };
static const char *const proto_names[] = {
	"tcp4",	 "tcp6",  "udp4",     "udp6",
	"ping4", "ping6", "nl_route", "nl_uevent",
};

enum op {
	OP_SOCKET,
	OP_BIND_UNSPEC_ANY,
	OP_BIND_UNSPEC_LO,
	OP_BIND_OTHER,
	OP_BIND_MAPPED,
	OP_BIND,
	OP_LISTEN,
	OP_CONNECT,
	OP_ACCEPT,
	OP_SEND,
	OP_NL_GETLINK,
	OP_RECV,
	OP_NL_NEWLINK,
	OP_GETSOCKOPT,
	OP_SETSOCKOPT,
	OP_SHUTDOWN,
	OP_DISCONNECT,
	N_OPS
};

static const char *const op_names[N_OPS] = {
	"socket",	   "bind.unspec_any",
	"bind.unspec_lo",  "bind.other_family",
	"bind.v4mapped",   "bind",
	"listen",	   "connect",
	"accept",	   "send",
	"sendmsg.getlink", "recv",
	"sendmsg.newlink", "getsockopt",
	"setsockopt",	   "shutdown",
	"disconnect",
};

static bool is_inet(enum proto p)
{
	return p <= PING6;
}

static bool is_v6(enum proto p)
{
	return p == TCP6 || p == UDP6 || p == PING6;
}

/* ---------------------------------------------------------------- model */

struct in_model {
	char lack[32];
	int e[N_OPS];
	char perms[N_OPS][48];
	const char *class;
};

/*
 * @op needs every permission of @perms (space-separated) and, when all are
 * held, ends in @then; it runs only when @reached.
 */
static void set(struct in_model *m, enum op op, bool reached, const char *perms,
		int then)
{
	char list[64], *tok, *save;
	int e = then;

	snprintf(m->perms[op], sizeof(m->perms[0]), "%s", perms);
	snprintf(list, sizeof(list), "%s", perms);
	for (tok = strtok_r(list, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, m->lack))
			e = -EACCES;
	m->e[op] = reached ? e : NOT_RUN;
}

static bool ok(const struct in_model *m, enum op op)
{
	return m->e[op] == 0;
}

/* socket_type_to_security_class() */
static const char *class_of(enum proto p, int extsock)
{
	switch (p) {
	case TCP4:
	case TCP6:
		return "tcp_socket";
	case UDP4:
	case UDP6:
		return "udp_socket";
	case PING4:
	case PING6:
		return extsock ? "icmp_socket" : "rawip_socket";
	case NL_ROUTE:
		return "netlink_route_socket";
	default:
		return "netlink_kobject_uevent_socket";
	}
}

static void model_case(enum proto p, const char *dom, int extsock,
		       struct in_model *m)
{
	bool tcp = p == TCP4 || p == TCP6, ping = p == PING4 || p == PING6;
	bool v6 = is_v6(p), s, c, conn;
	int op;

	memset(m, 0, sizeof(*m));
	for (op = 0; op < N_OPS; op++)
		m->e[op] = NA;
	sel_lacks(dom, m->lack, sizeof(m->lack));
	m->class = class_of(p, extsock);

	set(m, OP_SOCKET, true, "create", 0); /* selinux_socket_create */
	s = ok(m, OP_SOCKET);
	if (!is_inet(p)) {
		/* Netlink: not inet, so __selinux_socket_bind checks bind only. */
		set(m, OP_BIND, s, "bind", 0);
		set(m, OP_LISTEN, s, "listen",
		    -EOPNOTSUPP); /* sock_no_listen */
		set(m, OP_ACCEPT, s, "accept",
		    -EOPNOTSUPP); /* sock_no_accept */
		if (p == NL_ROUTE) {
			/* selinux_socket_sendmsg, then selinux_netlink_send */
			set(m, OP_NL_GETLINK, s, "write nlmsg_read", 0);
			set(m, OP_RECV, ok(m, OP_NL_GETLINK), "read", 0);
			set(m, OP_NL_NEWLINK, s, "write nlmsg_write", 0);
		}
		set(m, OP_GETSOCKOPT, s, "getopt", 0);
		set(m, OP_SETSOCKOPT, s, "setopt", 0);
		set(m, OP_SHUTDOWN, s, "shutdown", -EOPNOTSUPP);
		return;
	}
	if (!ping) {
		/* __selinux_socket_bind's family rules, port 0 */
		if (!v6) {
			set(m, OP_BIND_UNSPEC_ANY, s, "bind node_bind", 0);
			set(m, OP_BIND_UNSPEC_LO, s, "bind", -EAFNOSUPPORT);
			set(m, OP_BIND_OTHER, s, "bind node_bind",
			    -EAFNOSUPPORT);
		} else {
			set(m, OP_BIND_UNSPEC_ANY, s, "bind", -EAFNOSUPPORT);
			set(m, OP_BIND_OTHER, s, "bind node_bind", -EINVAL);
			set(m, OP_BIND_MAPPED, s, "bind node_bind", 0);
		}
	}
	set(m, OP_BIND, s, ping ? "bind node_bind" : "bind name_bind node_bind",
	    0);
	c = s; /* the client is created as the server was */
	set(m, OP_LISTEN, s, "listen", tcp ? 0 : -EOPNOTSUPP);
	set(m, OP_CONNECT, c, tcp ? "connect name_connect" : "connect",
	    !tcp || (ok(m, OP_BIND) && ok(m, OP_LISTEN)) ? 0 : -ECONNREFUSED);
	conn = ok(m, OP_CONNECT);
	if (tcp)
		set(m, OP_ACCEPT, conn, "accept", 0);
	else
		set(m, OP_ACCEPT, s, "accept", -EOPNOTSUPP);
	set(m, OP_SEND, conn, "write", 0);
	set(m, OP_RECV,
	    ok(m, OP_SEND) && (tcp  ? ok(m, OP_ACCEPT) :
			       ping ? true :
				      ok(m, OP_BIND)),
	    "read", 0);
	set(m, OP_GETSOCKOPT, c, "getopt", 0);
	set(m, OP_SETSOCKOPT, c, "setopt", 0);
	set(m, OP_SHUTDOWN, c, "shutdown", conn ? 0 : -ENOTCONN);
	set(m, OP_DISCONNECT, c, "connect", 0);
}

/* ---------------------------------------------------------------- calls */

union in_addr_any {
	struct sockaddr sa;
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
	struct sockaddr_nl nl;
};

static socklen_t lo_addr(union in_addr_any *a, bool v6, int port)
{
	memset(a, 0, sizeof(*a));
	if (v6) {
		a->v6.sin6_family = AF_INET6;
		a->v6.sin6_addr = in6addr_loopback;
		a->v6.sin6_port = htons(port);
		return sizeof(a->v6);
	}
	a->v4.sin_family = AF_INET;
	a->v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a->v4.sin_port = htons(port);
	return sizeof(a->v4);
}

static int new_socket(enum proto p)
{
	int fam = is_v6(p) ? AF_INET6 : AF_INET;

	switch (p) {
	case TCP4:
	case TCP6:
		return socket(fam, SOCK_STREAM | SOCK_CLOEXEC, 0);
	case UDP4:
	case UDP6:
		return socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	case PING4:
		return socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMP);
	case PING6:
		return socket(fam, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_ICMPV6);
	case NL_ROUTE:
		return socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
			      NETLINK_ROUTE);
	default:
		return socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			      NETLINK_KOBJECT_UEVENT);
	}
}

/* A fresh socket bound to @a: the bind's outcome, NOT_RUN without one. */
static int bind_probe(enum proto p, const void *a, socklen_t len)
{
	int fd = new_socket(p), ret;

	if (fd < 0)
		return NOT_RUN;
	ret = sys_ret(bind(fd, a, len));
	close(fd);
	return ret;
}

static void bind_probes(enum proto p, int r[N_OPS])
{
	union in_addr_any a;

	memset(&a, 0, sizeof(a));
	if (!is_v6(p)) {
		a.v4.sin_family = AF_UNSPEC;
		a.v4.sin_addr.s_addr = htonl(INADDR_ANY);
		r[OP_BIND_UNSPEC_ANY] = bind_probe(p, &a, sizeof(a.v4));
		a.v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		r[OP_BIND_UNSPEC_LO] = bind_probe(p, &a, sizeof(a.v4));
		r[OP_BIND_OTHER] = bind_probe(p, &a, lo_addr(&a, true, 0));
		return;
	}
	a.v6.sin6_family = AF_UNSPEC;
	r[OP_BIND_UNSPEC_ANY] = bind_probe(p, &a, sizeof(a.v6));
	r[OP_BIND_OTHER] = bind_probe(p, &a, lo_addr(&a, false, 0));
	lo_addr(&a, true, 0);
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &a.v6.sin6_addr);
	r[OP_BIND_MAPPED] = bind_probe(p, &a, sizeof(a.v6));
}

static int recv_some(int fd)
{
	char buf[8192];
	int err = wait_readable(fd);

	if (err)
		return err;
	return recv(fd, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC) < 0 ?
		       -errno :
		       0;
}

static void sock_calls(int fd, int r[N_OPS])
{
	socklen_t len;
	int v;

	len = sizeof(v);
	r[OP_GETSOCKOPT] =
		sys_ret(getsockopt(fd, SOL_SOCKET, SO_TYPE, &v, &len));
	v = 65536;
	r[OP_SETSOCKOPT] =
		sys_ret(setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)));
	r[OP_SHUTDOWN] = sys_ret(shutdown(fd, SHUT_WR));
}

static int nl_send(int fd, int type, int flags)
{
	struct {
		struct nlmsghdr h;
		struct ifinfomsg i;
	} req = {
		.h = { .nlmsg_len = sizeof(req),
		       .nlmsg_type = type,
		       .nlmsg_flags = NLM_F_REQUEST | flags,
		       .nlmsg_seq = 1 },
		.i = { .ifi_family = AF_UNSPEC },
	};
	struct sockaddr_nl k = { .nl_family = AF_NETLINK };

	if (type == RTM_NEWLINK)
		req.i.ifi_index = 1; /* lo, no attribute: nothing changes */
	return sys_ret(sendto(fd, &req, sizeof(req), 0, (void *)&k, sizeof(k)));
}

static void run_netlink(enum proto p, int r[N_OPS])
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	int fd = new_socket(p);

	r[OP_SOCKET] = fd < 0 ? -errno : 0;
	if (fd < 0)
		return;
	if (p == NL_UEVENT)
		a.nl_groups = 1; /* the uevent multicast group */
	r[OP_BIND] = sys_ret(bind(fd, (void *)&a, sizeof(a)));
	r[OP_LISTEN] = sys_ret(listen(fd, 1));
	r[OP_ACCEPT] = sys_ret(accept4(fd, NULL, NULL, SOCK_NONBLOCK));
	if (p == NL_ROUTE) {
		r[OP_NL_GETLINK] = nl_send(fd, RTM_GETLINK, NLM_F_DUMP);
		if (!r[OP_NL_GETLINK])
			r[OP_RECV] = recv_some(fd);
		r[OP_NL_NEWLINK] = nl_send(fd, RTM_NEWLINK, 0);
	}
	sock_calls(fd, r);
	close(fd);
}

static int ping_send(int fd, bool v6)
{
	struct icmphdr h4 = { .type = ICMP_ECHO };
	struct icmp6_hdr h6 = { .icmp6_type = ICMP6_ECHO_REQUEST };

	return sys_ret(v6 ? send(fd, &h6, sizeof(h6), 0) :
			    send(fd, &h4, sizeof(h4), 0));
}

static void run_inet(enum proto p, int port, int r[N_OPS])
{
	bool tcp = p == TCP4 || p == TCP6, ping = p == PING4 || p == PING6;
	bool v6 = is_v6(p);
	union in_addr_any a, d;
	socklen_t len;
	int s = new_socket(p), c = -1, acc = -1;
	static const char msg[16] = "lsmconf-inet";
	struct sockaddr_storage un = { .ss_family = AF_UNSPEC };

	r[OP_SOCKET] = s < 0 ? -errno : 0;
	if (s < 0)
		return;
	if (!ping)
		bind_probes(p, r);
	len = lo_addr(&a, v6, ping ? 0 : port);
	r[OP_BIND] = sys_ret(bind(s, &a.sa, len));
	c = new_socket(p);
	if (c < 0)
		return; /* recorded as failed: NOT_RUN stays the model's */
	r[OP_LISTEN] = sys_ret(listen(s, 4));
	len = lo_addr(&d, v6, ping ? 0 : port);
	r[OP_CONNECT] = sys_ret(connect(c, &d.sa, len));
	if (tcp && !r[OP_CONNECT]) {
		r[OP_ACCEPT] = wait_readable(s);
		if (!r[OP_ACCEPT]) {
			acc = accept4(s, NULL, NULL, SOCK_NONBLOCK);
			r[OP_ACCEPT] = acc < 0 ? -errno : 0;
		}
	} else if (!tcp) {
		r[OP_ACCEPT] = sys_ret(accept4(s, NULL, NULL, SOCK_NONBLOCK));
	}
	if (!r[OP_CONNECT]) {
		r[OP_SEND] = ping ? ping_send(c, v6) :
				    sys_ret(send(c, msg, sizeof(msg), 0));
		if (!r[OP_SEND] && (ping || acc >= 0 || (!tcp && !r[OP_BIND])))
			r[OP_RECV] = recv_some(ping ? c : tcp ? acc : s);
	}
	sock_calls(c, r);
	r[OP_DISCONNECT] =
		sys_ret(connect(c, (void *)&un, sizeof(struct sockaddr)));
	if (acc >= 0)
		close(acc);
	close(c);
	close(s);
}

struct sel_inet_case {
	enum proto p;
	const char *dom;
};

/*
 * The child (child_run()): enters its domain, makes the calls, fills r[]
 * (N_OPS outcomes). A child that cannot enter reports nothing: the case
 * fails.
 */
static void child(void *arg, void *reply)
{
	const struct sel_inet_case *k = arg;
	int *r = reply, op;

	for (op = 0; op < N_OPS; op++)
		r[op] = NOT_RUN;
	if (sel_enter(k->dom, LEVEL))
		_exit(3);
	if (is_inet(k->p))
		run_inet(k->p, PORT_BASE + getpid() % PORT_SPAN, r);
	else
		run_netlink(k->p, r);
}

static int run_case(enum proto p, const char *dom, int r[N_OPS])
{
	struct sel_inet_case k = { p, dom };

	return child_run(child, &k, r, sizeof(int) * N_OPS);
}

/* ---------------------------------------------------------------- cases */

FIXTURE(in)
{
	char ping_range[64];
	int extsock;
};

FIXTURE_VARIANT(in)
{
	enum proto proto;
	const char *dom;
};

/*
 * The domains each protocol runs under: every lack of a permission its
 * class has (IPv6: those whose path differs from IPv4's: the address,
 * the port and node checks, connect and, for ping, the ICMPv6 data), so
 * that each permission is shown necessary where it is checked. Guest time
 * stays small (TCG).
 */
/* clang-format off */
FIXTURE_VARIANT_ADD(in, tcp4_in) {
	.proto = TCP4,
	.dom = "lsmconf_in_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_create) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_create_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_bind) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_bind_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_connect) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_connect_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_listen) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_listen_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_accept) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_accept_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_read) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_read_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_write) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_write_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_getopt) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_getopt_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_setopt) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_setopt_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_shutdown) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_name_bind) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_name_bind_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_node_bind) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_node_bind_t",
};

FIXTURE_VARIANT_ADD(in, tcp4_in_no_name_connect) {
	.proto = TCP4,
	.dom = "lsmconf_in_no_name_connect_t",
};

FIXTURE_VARIANT_ADD(in, tcp6_in) {
	.proto = TCP6,
	.dom = "lsmconf_in_t",
};

FIXTURE_VARIANT_ADD(in, tcp6_in_no_bind) {
	.proto = TCP6,
	.dom = "lsmconf_in_no_bind_t",
};

FIXTURE_VARIANT_ADD(in, tcp6_in_no_name_bind) {
	.proto = TCP6,
	.dom = "lsmconf_in_no_name_bind_t",
};

FIXTURE_VARIANT_ADD(in, tcp6_in_no_node_bind) {
	.proto = TCP6,
	.dom = "lsmconf_in_no_node_bind_t",
};

FIXTURE_VARIANT_ADD(in, tcp6_in_no_connect) {
	.proto = TCP6,
	.dom = "lsmconf_in_no_connect_t",
};

FIXTURE_VARIANT_ADD(in, tcp6_in_no_name_connect) {
	.proto = TCP6,
	.dom = "lsmconf_in_no_name_connect_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in) {
	.proto = UDP4,
	.dom = "lsmconf_in_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_create) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_create_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_bind) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_bind_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_connect) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_connect_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_listen) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_listen_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_accept) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_accept_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_read) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_read_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_write) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_write_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_getopt) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_getopt_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_setopt) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_setopt_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_shutdown) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_name_bind) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_name_bind_t",
};

FIXTURE_VARIANT_ADD(in, udp4_in_no_node_bind) {
	.proto = UDP4,
	.dom = "lsmconf_in_no_node_bind_t",
};

FIXTURE_VARIANT_ADD(in, udp6_in) {
	.proto = UDP6,
	.dom = "lsmconf_in_t",
};

FIXTURE_VARIANT_ADD(in, udp6_in_no_bind) {
	.proto = UDP6,
	.dom = "lsmconf_in_no_bind_t",
};

FIXTURE_VARIANT_ADD(in, udp6_in_no_name_bind) {
	.proto = UDP6,
	.dom = "lsmconf_in_no_name_bind_t",
};

FIXTURE_VARIANT_ADD(in, udp6_in_no_node_bind) {
	.proto = UDP6,
	.dom = "lsmconf_in_no_node_bind_t",
};

FIXTURE_VARIANT_ADD(in, udp6_in_no_connect) {
	.proto = UDP6,
	.dom = "lsmconf_in_no_connect_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in) {
	.proto = PING4,
	.dom = "lsmconf_in_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in_no_create) {
	.proto = PING4,
	.dom = "lsmconf_in_no_create_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in_no_bind) {
	.proto = PING4,
	.dom = "lsmconf_in_no_bind_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in_no_connect) {
	.proto = PING4,
	.dom = "lsmconf_in_no_connect_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in_no_read) {
	.proto = PING4,
	.dom = "lsmconf_in_no_read_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in_no_write) {
	.proto = PING4,
	.dom = "lsmconf_in_no_write_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in_no_shutdown) {
	.proto = PING4,
	.dom = "lsmconf_in_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in_no_name_bind) {
	.proto = PING4,
	.dom = "lsmconf_in_no_name_bind_t",
};

FIXTURE_VARIANT_ADD(in, ping4_in_no_node_bind) {
	.proto = PING4,
	.dom = "lsmconf_in_no_node_bind_t",
};

FIXTURE_VARIANT_ADD(in, ping6_in) {
	.proto = PING6,
	.dom = "lsmconf_in_t",
};

FIXTURE_VARIANT_ADD(in, ping6_in_no_bind) {
	.proto = PING6,
	.dom = "lsmconf_in_no_bind_t",
};

FIXTURE_VARIANT_ADD(in, ping6_in_no_node_bind) {
	.proto = PING6,
	.dom = "lsmconf_in_no_node_bind_t",
};

FIXTURE_VARIANT_ADD(in, ping6_in_no_read) {
	.proto = PING6,
	.dom = "lsmconf_in_no_read_t",
};

FIXTURE_VARIANT_ADD(in, ping6_in_no_write) {
	.proto = PING6,
	.dom = "lsmconf_in_no_write_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_create) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_create_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_bind) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_bind_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_listen) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_listen_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_accept) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_accept_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_read) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_read_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_write) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_write_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_getopt) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_getopt_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_setopt) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_setopt_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_shutdown) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_nlmsg_read) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_nlmsg_read_t",
};

FIXTURE_VARIANT_ADD(in, nl_route_in_no_nlmsg_write) {
	.proto = NL_ROUTE,
	.dom = "lsmconf_in_no_nlmsg_write_t",
};

FIXTURE_VARIANT_ADD(in, nl_uevent_in) {
	.proto = NL_UEVENT,
	.dom = "lsmconf_in_t",
};

FIXTURE_VARIANT_ADD(in, nl_uevent_in_no_create) {
	.proto = NL_UEVENT,
	.dom = "lsmconf_in_no_create_t",
};

FIXTURE_VARIANT_ADD(in, nl_uevent_in_no_bind) {
	.proto = NL_UEVENT,
	.dom = "lsmconf_in_no_bind_t",
};

FIXTURE_VARIANT_ADD(in, nl_uevent_in_no_shutdown) {
	.proto = NL_UEVENT,
	.dom = "lsmconf_in_no_shutdown_t",
};

FIXTURE_VARIANT_ADD(in, nl_uevent_in_no_nlmsg_write) {
	.proto = NL_UEVENT,
	.dom = "lsmconf_in_no_nlmsg_write_t",
};

/* clang-format on */

FIXTURE_SETUP(in)
{
	char val[8];
	int fd;

	SEL_SETUP(4);
	ASSERT_EQ(0, loopback_up());
	/* The kernel may lack the family: a SKIP, not a failure. */
	fd = new_socket(variant->proto == PING4 ? UDP4 :
			variant->proto == PING6 ? UDP6 :
						  variant->proto);
	if (fd < 0)
		SKIP(return, "no %s socket here: %s",
			   proto_names[variant->proto], strerror(errno));
	close(fd);
	self->extsock =
		read_text(EXTSOCK, val, sizeof(val)) > 0 && val[0] == '1';
	if (variant->proto == PING4 || variant->proto == PING6) {
		/* Ping sockets: the harness's group (root) must be allowed. */
		if (read_text(PING_RANGE, self->ping_range,
			      sizeof(self->ping_range)) <= 0 ||
		    write_text(PING_RANGE, "0 0"))
			SKIP(return, "cannot set %s", PING_RANGE);
	}
}

FIXTURE_TEARDOWN(in)
{
	if (self->ping_range[0])
		write_text(PING_RANGE, self->ping_range);
}

TEST_F(in, calls)
{
	char depends[96];
	struct record rec = {
		.abi = "selinux-c4",
		.subject = variant->dom,
		.object = proto_names[variant->proto],
	};
	struct in_model m;
	int r[N_OPS], op;

	model_case(variant->proto, variant->dom, self->extsock, &m);
	ASSERT_EQ(0, run_case(variant->proto, variant->dom, r));
	rec.class = m.class;
	rec.detail = is_inet(variant->proto) ?
			     (is_v6(variant->proto) ? "inet6" : "inet") :
			     "netlink";
	for (op = 0; op < N_OPS; op++) {
		if (m.e[op] == NA)
			continue;
		if (variant->proto == PING4 || variant->proto == PING6)
			snprintf(depends, sizeof(depends),
				 "%s; extended_socket_class=%d", m.perms[op],
				 self->extsock);
		else
			snprintf(depends, sizeof(depends), "%s", m.perms[op]);
		rec.op = op_names[op];
		rec.depends = depends;
		rec.expected = m.e[op];
		rec.observed = r[op];
		JUDGE(&rec);
	}
}

LSM_HARNESS_MAIN
