// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: the peer context SELinux hands out, SO_PEERSEC and
 * SCM_SECURITY, on every socket type that can carry one: AF_UNIX stream,
 * seqpacket and datagram (connected and not), socketpair() of each, and
 * TCP and UDP on loopback.
 *
 * The test (the harness's kernel_t, the kernel initial SID, range
 * s0-s0:c0.c3 on the 4-category policy) makes each side's socket in a
 * context of lsmconf.cil with setsockcreatecon() (socket_sockcreate_sid:
 * the socket's SID is the sockcreate context, else the task's), then
 * binds, connects, accepts and reads the contexts itself; kernel_t holds
 * every unix socket permission on every test domain, tcp and udp sockets
 * are classes the policy leaves unknown (handleunknown allow), so no
 * call here is denied: the decisions are the contexts and their errnos.
 * Labels: "client" lsmconf_c_ok_t, "server" lsmconf_srv_t (both at s0;
 * c_ok may connectto and sendto srv), "task" the test's own context.
 *
 * The model (security/selinux/hooks.c unless named otherwise):
 *
 *   SO_PEERSEC    selinux_socket_getpeersec_stream: the socket's peer_sid
 *                 printed (security_sid_to_context), only for the
 *                 classes unix_stream_socket (unix SOCK_STREAM and
 *                 SOCK_SEQPACKET), tcp_socket and sctp_socket; any other
 *                 class (unix datagram, a pair's too; udp) or a NULL
 *                 peer_sid: ENOPROTOOPT. A buffer shorter than the
 *                 context: ERANGE, its length in optlen.
 *   peer_sid      selinux_sk_alloc_security: SECINITSID_UNLABELED
 *                 ("lsmconf_u:object_r:unlabeled_t:s0"), kept by a
 *                 listener, which nothing connects;
 *                 selinux_socket_unix_stream_connect: the client's is
 *                 the new server-side socket's SID, the listener's
 *                 user:role:type at the client's range
 *                 (security_sid_mls_copy); the accepted socket's is the
 *                 client socket's SID;
 *                 selinux_socket_socketpair: each end's is the other's
 *                 SID (both the creator's);
 *                 TCP: selinux_inet_conn_established (client) and
 *                 selinux_inet_conn_request -> selinux_inet_csk_clone
 *                 (accepted) take the packet's peer label
 *                 (selinux_skb_peerlbl_sid), SECSID_NULL with no
 *                 labeled networking (no NetLabel, no labeled IPsec, as
 *                 in the guest): ENOPROTOOPT.
 *   SCM_SECURITY  unix (SO_PASSSEC): scm_send -> unix_get_peersec_dgram
 *                 -> selinux_socket_getpeersec_dgram: the SENDING
 *                 socket's inode SID, printed by scm_passec; a
 *                 SOCK_STREAM reader takes it only with SO_PASSCRED set
 *                 too (unix_stream_read_generic), else secid 0, which
 *                 prints as the unlabeled context; UDP
 *                 (IP_PASSSEC): ip_cmsg_recv_security asks the same hook
 *                 with the packet, whose peer label is SECSID_NULL here:
 *                 ENOPROTOOPT, no control message, recorded as ENOMSG.
 *                 A context that differs from the model is EBADMSG.
 */

#define _GNU_SOURCE
#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "../kselftest_harness.h"
#include "sel.h"
#include "../lsmconf/judge.h"

#ifndef SO_PEERSEC
#define SO_PEERSEC 31
#endif
#ifndef SO_PASSSEC
#define SO_PASSSEC 34
#endif
#ifndef SCM_SECURITY
#define SCM_SECURITY 0x03
#endif
#ifndef IP_PASSSEC
#define IP_PASSSEC 18
#endif

#define CATS 4
/* The kernel initial SID of lsmconf.cil at 4 categories: the test. */
#define TASK_RANGE "s0-s0:c0.c3"
#define TASK_CTX SEL_USER_ROLE "kernel_t:" TASK_RANGE
#define UNLABELED_CTX "lsmconf_u:object_r:unlabeled_t:s0"

enum lab { L_TASK, L_CLIENT, L_SERVER };

static const char *const lab_names[] = { "task", "client", "server" };
static const char *const lab_types[] = { "kernel_t", "lsmconf_c_ok_t",
					 "lsmconf_srv_t" };
static const char *const lab_ranges[] = { TASK_RANGE, "s0", "s0" };

/* The context of @type at @range, in @buf. */
static const char *ctx_of(const char *type, const char *range, char *buf,
			  size_t size)
{
	snprintf(buf, size, SEL_USER_ROLE "%s:%s", type, range);
	return buf;
}

enum transport {
	T_STREAM,
	T_SEQPACKET,
	T_DGRAM_CONN,
	T_DGRAM_UNCONN,
	T_PAIR_STREAM,
	T_PAIR_SEQPACKET,
	T_PAIR_DGRAM,
	T_TCP,
	T_UDP,
};

static const char *const t_names[] = {
	"stream",     "seqpacket",   "dgram_connected",
	"dgram",      "pair_stream", "pair_seqpacket",
	"pair_dgram", "tcp",	     "udp",
};

static int t_type(enum transport t)
{
	switch (t) {
	case T_STREAM:
	case T_PAIR_STREAM:
	case T_TCP:
		return SOCK_STREAM;
	case T_SEQPACKET:
	case T_PAIR_SEQPACKET:
		return SOCK_SEQPACKET;
	default:
		return SOCK_DGRAM;
	}
}

static bool t_pair(enum transport t)
{
	return t == T_PAIR_STREAM || t == T_PAIR_SEQPACKET || t == T_PAIR_DGRAM;
}

static bool t_inet(enum transport t)
{
	return t == T_TCP || t == T_UDP;
}

static bool t_accepts(enum transport t)
{
	return t == T_STREAM || t == T_SEQPACKET || t == T_TCP;
}

/* unix_stream_socket: the unix class that keeps a peer SID. */
static bool t_unix_stream_class(enum transport t)
{
	return !t_inet(t) && t_type(t) != SOCK_DGRAM;
}

FIXTURE(peersec)
{
	int unused;
};

FIXTURE_VARIANT(peersec)
{
	enum transport t;
	enum lab client, server; /* a pair's both ends are the client's */
};

/* clang-format off */
#define PS_CASE(name, tr, c, s) \
	FIXTURE_VARIANT_ADD(peersec, name) { .t = tr, .client = c, .server = s }
#define PS_CASES(tn, tr) \
	PS_CASE(tn##_client_to_server, tr, L_CLIENT, L_SERVER); \
	PS_CASE(tn##_task_to_server, tr, L_TASK, L_SERVER)
#define PS_PAIRS(tn, tr) \
	PS_CASE(tn##_client, tr, L_CLIENT, L_CLIENT); \
	PS_CASE(tn##_task, tr, L_TASK, L_TASK)

PS_CASES(stream, T_STREAM);
PS_CASES(seqpacket, T_SEQPACKET);
PS_CASES(dgram_connected, T_DGRAM_CONN);
PS_CASES(dgram, T_DGRAM_UNCONN);
PS_PAIRS(pair_stream, T_PAIR_STREAM);
PS_PAIRS(pair_seqpacket, T_PAIR_SEQPACKET);
PS_PAIRS(pair_dgram, T_PAIR_DGRAM);
PS_CASES(tcp, T_TCP);
PS_CASES(udp, T_UDP);
/* clang-format on */

/* Brings lo up if it is down (a fresh guest's is). */
static int loopback_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr))
		ret = -errno;
	else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			ret = -errno;
	}
	close(fd);
	return ret;
}

FIXTURE_SETUP(peersec)
{
	char *con = NULL;

	SEL_SETUP(CATS);
	/* The model's "task" is the kernel SID's context: check it. */
	ASSERT_EQ(0, getcon(&con));
	ASSERT_STREQ(TASK_CTX, con);
	freecon(con);
	if (t_inet(variant->t))
		ASSERT_EQ(0, loopback_up());
}

FIXTURE_TEARDOWN(peersec)
{
}

/* Socket(s) made in the context of @l (setsockcreatecon). 0 or -errno. */
static int make_in(enum lab l, int family, int type, bool pair, int fds[2])
{
	char ctx[128];
	int ret = 0;

	if (l != L_TASK && setsockcreatecon(ctx_of(lab_types[l], lab_ranges[l],
						   ctx, sizeof(ctx))))
		return -errno;
	if (pair ? socketpair(family, type | SOCK_CLOEXEC, 0, fds) :
		   (fds[0] = socket(family, type | SOCK_CLOEXEC, 0)) < 0)
		ret = -errno;
	if (l != L_TASK && setsockcreatecon(NULL) && !ret)
		ret = -errno;
	return ret;
}

/* SO_PEERSEC of @fd: 0 when it is @want, -EBADMSG when not, or -errno. */
static int read_peersec(int fd, const char *want)
{
	char buf[256];
	socklen_t len = sizeof(buf) - 1;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERSEC, buf, &len))
		return -errno;
	buf[len] = '\0';
	/* The kernel's length counts the context's NUL: compare the text. */
	if (!want || strcmp(buf, want)) {
		printf("# SO_PEERSEC read \"%s\", model \"%s\"\n", buf,
		       want ? want : "(none)");
		return -EBADMSG;
	}
	return 0;
}

/*
 * SO_PEERSEC into a one-byte buffer: -ERANGE with optlen the context's
 * length with its NUL (security_sid_to_context counts it), -EBADMSG for a
 * wrong length or a success, else -errno.
 */
static int read_peersec_short(int fd, const char *want)
{
	char buf[1];
	socklen_t len = sizeof(buf);

	if (!getsockopt(fd, SOL_SOCKET, SO_PEERSEC, buf, &len))
		return -EBADMSG;
	if (errno == ERANGE && (!want || len != strlen(want) + 1)) {
		printf("# SO_PEERSEC short: optlen %u, model %zu\n", len,
		       want ? strlen(want) + 1 : 0);
		return -EBADMSG;
	}
	return -errno;
}

/* One message on @fd: SCM_SECURITY is @want (0), another (-EBADMSG), none (-ENOMSG). */
static int read_scm_security(int fd, const char *want)
{
	char cbuf[CMSG_SPACE(256)] = { 0 }, byte, label[257];
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int ret = wait_readable(fd);

	if (ret)
		return ret;
	if (recvmsg(fd, &msg, MSG_DONTWAIT) < 0)
		return -errno;
	for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
		size_t n = cm->cmsg_len - CMSG_LEN(0);

		if (cm->cmsg_type != SCM_SECURITY ||
		    (cm->cmsg_level != SOL_SOCKET && cm->cmsg_level != SOL_IP))
			continue;
		if (n > 256)
			n = 256;
		memcpy(label, CMSG_DATA(cm), n);
		label[n] = '\0';
		if (want && !strcmp(label, want))
			return 0;
		printf("# SCM_SECURITY \"%s\", model \"%s\"\n", label,
		       want ? want : "(none)");
		return -EBADMSG;
	}
	return -ENOMSG;
}

struct conn {
	int c, s, a; /* client, server (listener or receiver), accepted */
	struct sockaddr_storage addr;
	socklen_t alen;
};

static int bind_any(int fd, bool inet, struct conn *k)
{
	if (inet) {
		struct sockaddr_in *in = (struct sockaddr_in *)&k->addr;

		in->sin_family = AF_INET;
		in->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		in->sin_port = 0;
		k->alen = sizeof(*in);
		if (bind(fd, (struct sockaddr *)in, k->alen) ||
		    getsockname(fd, (struct sockaddr *)&k->addr, &k->alen))
			return -errno;
		return 0;
	}
	k->alen = sel_abstract_addr((struct sockaddr_un *)&k->addr,
				    "lsmconf-sps-%d", getpid());
	return sys_ret(bind(fd, (struct sockaddr *)&k->addr, k->alen));
}

static int conn_make(const FIXTURE_VARIANT(peersec) * v, struct conn *k)
{
	int family = t_inet(v->t) ? AF_INET : AF_UNIX, type = t_type(v->t);
	int fds[2], ret;

	k->c = k->s = k->a = -1;
	if (t_pair(v->t)) {
		ret = make_in(v->client, AF_UNIX, type, true, fds);
		if (!ret) {
			k->c = fds[0];
			k->s = fds[1];
		}
		return ret;
	}
	ret = make_in(v->server, family, type, false, fds);
	if (ret)
		return ret;
	k->s = fds[0];
	ret = make_in(v->client, family, type, false, fds);
	if (ret)
		return ret;
	k->c = fds[0];
	if (set_timeouts(k->c) || set_timeouts(k->s))
		return -errno;
	ret = bind_any(k->s, family == AF_INET, k);
	if (ret)
		return ret;
	if (t_accepts(v->t) && listen(k->s, 1))
		return -errno;
	if (v->t != T_DGRAM_UNCONN && v->t != T_UDP &&
	    connect(k->c, (struct sockaddr *)&k->addr, k->alen))
		return -errno;
	if (t_accepts(v->t)) {
		ret = wait_readable(k->s);
		if (ret)
			return ret;
		k->a = accept4(k->s, NULL, NULL, SOCK_CLOEXEC);
		if (k->a < 0)
			return -errno;
	}
	return 0;
}

static void conn_close(struct conn *k)
{
	if (k->c >= 0)
		close(k->c);
	if (k->s >= 0)
		close(k->s);
	if (k->a >= 0)
		close(k->a);
}

static int send_one(const FIXTURE_VARIANT(peersec) * v, struct conn *k)
{
	if (v->t == T_DGRAM_UNCONN || v->t == T_UDP)
		return sys_ret(sendto(k->c, "p", 1, 0,
				      (struct sockaddr *)&k->addr, k->alen));
	return sys_ret(send(k->c, "p", 1, MSG_NOSIGNAL));
}

TEST_F(peersec, contexts)
{
	enum transport t = variant->t;
	enum lab cl = variant->client, sv = variant->server;
	bool ustream = t_unix_stream_class(t);
	char c_ctx[128], s_ctx[128], c_peer[128], s_peer[128];
	struct record rec = {
		.abi = "selinux-c4",
		.subject = lab_names[cl],
		.object = lab_names[sv],
		.class = t_names[t],
		.detail = t_inet(t) ? "loopback" : "abstract",
		.depends = "-",
	};
	const char *want;
	struct conn k;
	int recv_on, ret, one = 1;

	ctx_of(lab_types[cl], lab_ranges[cl], c_ctx, sizeof(c_ctx));
	ctx_of(lab_types[sv], lab_ranges[sv], s_ctx, sizeof(s_ctx));
	/*
	 * The client's peer: a pair's other end (the creator's SID); a
	 * connected unix stream's new server-side socket, the listener's
	 * type at the client's range (security_sid_mls_copy).
	 */
	if (t_pair(t))
		snprintf(c_peer, sizeof(c_peer), "%s", c_ctx);
	else
		ctx_of(lab_types[sv], lab_ranges[cl], c_peer, sizeof(c_peer));
	/* The accepted socket's (or a pair's second end's) peer: the client's. */
	snprintf(s_peer, sizeof(s_peer), "%s", c_ctx);

	ret = conn_make(variant, &k);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("setting the sockets up: %s", strerror(-ret));
		conn_close(&k);
	}

	/* Only unix_stream_socket keeps a peer here (TCP's is SECSID_NULL). */
	want = ustream ? c_peer : NULL;
	rec.op = t_pair(t) ? "end0.peersec" : "client.peersec";
	rec.expected = want ? 0 : -ENOPROTOOPT;
	rec.observed = read_peersec(k.c, want);
	JUDGE(&rec);

	rec.op = t_pair(t) ? "end0.peersec_short" : "client.peersec_short";
	rec.expected = want ? -ERANGE : -ENOPROTOOPT;
	rec.observed = read_peersec_short(k.c, want);
	JUDGE(&rec);

	if (t_accepts(t)) {
		rec.op = "accepted.peersec";
		want = ustream ? s_peer : NULL;
		rec.expected = want ? 0 : -ENOPROTOOPT;
		rec.observed = read_peersec(k.a, want);
		JUDGE(&rec);
		/*
		 * A listener keeps selinux_sk_alloc_security's
		 * SECINITSID_UNLABELED: unix stream and TCP alike.
		 */
		rec.op = "listener.peersec";
		rec.expected = 0;
		rec.observed = read_peersec(k.s, UNLABELED_CTX);
		JUDGE(&rec);
		recv_on = k.a;
	} else {
		rec.op = t_pair(t) ? "end1.peersec" : "server.peersec";
		want = ustream ? s_peer : NULL;
		rec.expected = want ? 0 : -ENOPROTOOPT;
		rec.observed = read_peersec(k.s, want);
		JUDGE(&rec);
		recv_on = k.s;
	}

	/* TCP carries no control messages: not asked. */
	if (t == T_TCP)
		goto out;
	if (t == T_UDP)
		ret = setsockopt(recv_on, SOL_IP, IP_PASSSEC, &one,
				 sizeof(one));
	else
		ret = setsockopt(recv_on, SOL_SOCKET, SO_PASSSEC, &one,
				 sizeof(one));
	ASSERT_EQ(0, ret)
	{
		TH_LOG("asking for SCM_SECURITY: %s", strerror(errno));
		conn_close(&k);
	}
	/*
	 * The send itself: a unix datagram is checked sending socket ->
	 * receiving socket for sendto (selinux_socket_unix_may_send);
	 * lsmconf.cil grants lsmconf_c_ok_t sendto on lsmconf_srv_t only,
	 * so a datagram pair of c_ok_t sockets may not send to itself.
	 * kernel_t may send to every domain; streams have no such check.
	 */
	rec.op = t_pair(t) ? "end0.send" : "client.send";
	rec.expected = t == T_PAIR_DGRAM && cl == L_CLIENT ? -EACCES : 0;
	rec.observed = send_one(variant, &k);
	JUDGE(&rec);
	/*
	 * unix: the sending socket's SID (selinux_socket_getpeersec_dgram),
	 * except that a SOCK_STREAM reader copies a message's secid only
	 * when it also asked for credentials (unix_stream_read_generic:
	 * unix_skb_to_scm under unix_may_passcred); else it stays 0, and
	 * SID 0 prints as the unlabeled initial SID (sidtab_search falls
	 * back to SECINITSID_UNLABELED). UDP: no peer label, no message.
	 */
	rec.op = t_accepts(t) ? "accepted.scm_security" :
		 t_pair(t)    ? "end1.scm_security" :
				"server.scm_security";
	want = t == T_UDP		? NULL :
	       t_type(t) == SOCK_STREAM ? UNLABELED_CTX :
					  c_ctx;
	rec.expected = rec.expected ? NOT_RUN : want ? 0 : -ENOMSG;
	rec.observed = rec.expected == NOT_RUN ?
			       NOT_RUN :
			       read_scm_security(recv_on, want);
	JUDGE(&rec);
	if (t_type(t) != SOCK_STREAM)
		goto out;
	/* A stream reader with SO_PASSCRED too: the sender socket's SID. */
	ASSERT_EQ(0, setsockopt(recv_on, SOL_SOCKET, SO_PASSCRED, &one,
				sizeof(one)));
	ASSERT_EQ(0, send_one(variant, &k));
	rec.op = t_accepts(t) ? "accepted.scm_security_passcred" :
				"end1.scm_security_passcred";
	rec.expected = 0;
	rec.observed = read_scm_security(recv_on, c_ctx);
	JUDGE(&rec);
out:
	conn_close(&k);
}

TEST_HARNESS_MAIN
