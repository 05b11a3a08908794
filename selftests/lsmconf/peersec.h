/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf selftests: the LSM-neutral half of the peer-label tests
 * (apparmor/peersec_test, selinux/sel_peersec_test), written once so both
 * LSMs are asked the same way: the transports and how a case's sockets
 * are bound, connected and accepted; SO_PEERSEC and SCM_SECURITY read and
 * compared with a model's label; loopback brought up (inet_test too); the
 * walk of a case's steps, peersec_walk(). What a label is, who makes a
 * socket in it and what the kernel should answer stays in each test, in
 * the table of struct peersec_want it hands the walk. Include it after
 * kselftest_harness.h.
 */
#ifndef LSMCONF_PEERSEC_H
#define LSMCONF_PEERSEC_H

#include <net/if.h>
#include <netinet/in.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "judge.h"
#include "lsmconf.h"
#include "unix_addr.h"

/* Older libc headers lack them; the values are the kernel's UAPI. */
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

/*
 * Brings lo up if it is down (a fresh guest's is): every loopback case
 * needs it, and the guest's init does not do it.
 */
static inline int loopback_up(void)
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

/*
 * Every socket type that can carry a peer label; the names are the
 * variants' and the records' class, the same for both LSMs so that one
 * case has one name across LSMs.
 */
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

static inline int t_type(enum transport t)
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

static inline bool t_pair(enum transport t)
{
	return t == T_PAIR_STREAM || t == T_PAIR_SEQPACKET || t == T_PAIR_DGRAM;
}

static inline bool t_inet(enum transport t)
{
	return t == T_TCP || t == T_UDP;
}

/* A connection with an accept(): unix stream, seqpacket, TCP. */
static inline bool t_accepts(enum transport t)
{
	return t == T_STREAM || t == T_SEQPACKET || t == T_TCP;
}

/* Sent with sendto() to the receiver's address: nothing is connected. */
static inline bool t_unconnected(enum transport t)
{
	return t == T_DGRAM_UNCONN || t == T_UDP;
}

/*
 * SO_PEERSEC of @fd compared with @want (NULL: no label expected): 0 when
 * the label is @want, -EBADMSG when another, else getsockopt's -errno.
 * The text is compared: a length that counts a NUL does not matter here.
 */
static inline int read_peersec(int fd, const char *want)
{
	char buf[256];
	socklen_t len = sizeof(buf) - 1;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERSEC, buf, &len))
		return -errno;
	buf[len] = '\0';
	if (!want || strcmp(buf, want)) {
		printf("# SO_PEERSEC read \"%s\", model \"%s\"\n", buf,
		       want ? want : "(none)");
		return -EBADMSG;
	}
	return 0;
}

/*
 * SO_PEERSEC of @fd into a one-byte buffer: -ERANGE with optlen the
 * label's length as the kernel gives it, -EBADMSG for a wrong length or a
 * success, else -errno. That length is @want's plus @nul: the LSMs differ
 * (SELinux's security_sid_to_context counts the NUL, AppArmor does not).
 */
static inline int read_peersec_short(int fd, const char *want, size_t nul)
{
	char buf[1];
	socklen_t len = sizeof(buf);

	if (!getsockopt(fd, SOL_SOCKET, SO_PEERSEC, buf, &len))
		return -EBADMSG;
	if (errno == ERANGE && (!want || len != strlen(want) + nul)) {
		printf("# SO_PEERSEC short: optlen %u, model %zu\n", len,
		       want ? strlen(want) + nul : 0);
		return -EBADMSG;
	}
	return -errno;
}

/*
 * Receives one message on @fd (bounded) and looks for SCM_SECURITY (a unix
 * one at SOL_SOCKET, a UDP one at SOL_IP): -ENOMSG when none came, 0 when
 * it is @want, -EBADMSG otherwise, or the receive's -errno.
 */
static inline int read_scm_security(int fd, const char *want)
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

/*
 * Asks @fd, a case's receiver, for SCM_SECURITY: UDP with IP_PASSSEC, unix
 * with SO_PASSSEC (TCP carries no control messages: not for it). 0 or
 * -errno.
 */
static inline int ask_scm_security(enum transport t, int fd)
{
	int one = 1;

	if (t == T_UDP)
		return sys_ret(
			setsockopt(fd, SOL_IP, IP_PASSSEC, &one, sizeof(one)));
	return sys_ret(
		setsockopt(fd, SOL_SOCKET, SO_PASSSEC, &one, sizeof(one)));
}

/* The sockets of one case, all in the test's hands. */
struct peersec_conn {
	int c, s, a; /* client, server (listener or receiver), accepted */
	struct sockaddr_storage addr;
	socklen_t alen;
};

/*
 * Binds @fd on an address of its own: loopback port 0 when @inet, else
 * the abstract name "@name-<pid>" (one per test binary).
 */
static inline int bind_any(int fd, bool inet, const char *name,
			   struct peersec_conn *k)
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
	k->alen = unix_abstract((struct sockaddr_un *)&k->addr, "%s-%d", name,
				getpid());
	return sys_ret(bind(fd, (struct sockaddr *)&k->addr, k->alen));
}

/*
 * Makes a socket (a pair when @pair) of @family/@type in the test's
 * label @lab, into @fds: how is the LSM's business (a forked peer that
 * enters the label, a socket create context). 0 or -errno; on an error
 * an fd not made is negative.
 */
typedef int (*peersec_make_fn)(int lab, int family, int type, bool pair,
			       int fds[2]);

/*
 * Sets the case up: sockets made in their labels by @make (a pair's both
 * ends in @client's), then bound (on @name), connected and accepted by
 * the test. 0 or -errno; @k holds what was made either way.
 */
static inline int conn_make(enum transport t, int client, int server,
			    peersec_make_fn make, const char *name,
			    struct peersec_conn *k)
{
	int family = t_inet(t) ? AF_INET : AF_UNIX, type = t_type(t);
	int fds[2] = { -1, -1 }, ret;

	k->c = k->s = k->a = -1;
	if (t_pair(t)) {
		ret = make(client, AF_UNIX, type, true, fds);
		k->c = fds[0];
		k->s = fds[1];
		return ret;
	}
	ret = make(server, family, type, false, fds);
	if (ret)
		return ret;
	k->s = fds[0];
	ret = make(client, family, type, false, fds);
	if (ret)
		return ret;
	k->c = fds[0];
	if (set_timeouts(k->c) || set_timeouts(k->s))
		return -errno;
	ret = bind_any(k->s, family == AF_INET, name, k);
	if (ret)
		return ret;
	if (t_accepts(t) && listen(k->s, 1))
		return -errno;
	if (!t_unconnected(t) &&
	    connect(k->c, (struct sockaddr *)&k->addr, k->alen))
		return -errno;
	if (t_accepts(t)) {
		ret = wait_readable(k->s);
		if (ret)
			return ret;
		k->a = accept4(k->s, NULL, NULL, SOCK_CLOEXEC);
		if (k->a < 0)
			return -errno;
	}
	return 0;
}

static inline void conn_close(struct peersec_conn *k)
{
	if (k->c >= 0)
		close(k->c);
	if (k->s >= 0)
		close(k->s);
	if (k->a >= 0)
		close(k->a);
}

/* Sends one byte from the client to the case's receiver. 0 or -errno. */
static inline int send_one(enum transport t, struct peersec_conn *k)
{
	if (t_unconnected(t))
		return sys_ret(sendto(k->c, "p", 1, 0,
				      (struct sockaddr *)&k->addr, k->alen));
	return sys_ret(send(k->c, "p", 1, MSG_NOSIGNAL));
}

/*
 * The steps of a case, in the order peersec_walk() takes them; the op of
 * each record is named after the socket it reads (a pair's ends are end0
 * and end1, the client's and the receiver's).
 */
enum peersec_step {
	PS_PEER, /* client/end0.peersec: SO_PEERSEC of the client */
	PS_PEER_SHORT, /* client/end0.peersec_short: into a one-byte buffer */
	PS_ACCEPTED, /* accepted.peersec (a transport that accepts) */
	PS_LISTENER, /* listener.peersec (likewise) */
	PS_SERVER, /* server/end1.peersec (one that does not) */
	PS_SEND, /* client/end0.send: one byte to the receiver (not TCP) */
	PS_SCM, /* RECEIVER.scm_security: SCM_SECURITY of that byte */
	PS_SCM_PASSCRED, /* the same with SO_PASSCRED too (SOCK_STREAM) */
	PS_STEPS,
};

/* What a test's model expects of one step. */
struct peersec_want {
	int expected; /* 0, -errno or NOT_RUN */
	const char *label; /* the label it reads (NULL: none expected) */
	const char *depends; /* the record's; NULL: the base record's */
	bool unrecorded; /* PS_SEND: must succeed (expected 0), no record */
};

/* One record: @base's columns, the op @op, @w's expectation. */
static inline void peersec_judge(struct __test_metadata *_metadata,
				 const struct record *base, const char *op,
				 const struct peersec_want *w, int observed)
{
	struct record rec = *base;

	rec.op = op;
	if (w->depends)
		rec.depends = w->depends;
	rec.expected = w->expected;
	rec.observed = observed;
	JUDGE(&rec);
}

/*
 * Walks the steps of transport @t on the sockets @k (made by
 * conn_make()), the same for every LSM, judging each against @w (indexed
 * by enum peersec_step) into a record of @base's columns: the client's
 * SO_PEERSEC, whole and short (the label's length plus @nul, see
 * read_peersec_short()); the accepted socket's and the listener's, or the
 * other end's; then, but on TCP (no control messages), SCM_SECURITY asked
 * on the receiver, one byte sent and its SCM_SECURITY read (not run when
 * the send is expected to fail), and for a SOCK_STREAM reader the same
 * again with SO_PASSCRED. A failure outside the model is fatal, @k closed.
 */
static inline void peersec_walk(struct __test_metadata *_metadata,
				enum transport t, struct peersec_conn *k,
				const struct record *base, size_t nul,
				const struct peersec_want *w)
{
	bool pair = t_pair(t), accepts = t_accepts(t);
	struct peersec_want scm = w[PS_SCM];
	int recv_on = accepts ? k->a : k->s, ret, one = 1;

	peersec_judge(_metadata, base, pair ? "end0.peersec" : "client.peersec",
		      &w[PS_PEER], read_peersec(k->c, w[PS_PEER].label));
	peersec_judge(_metadata, base,
		      pair ? "end0.peersec_short" : "client.peersec_short",
		      &w[PS_PEER_SHORT],
		      read_peersec_short(k->c, w[PS_PEER_SHORT].label, nul));
	if (accepts) {
		peersec_judge(_metadata, base, "accepted.peersec",
			      &w[PS_ACCEPTED],
			      read_peersec(k->a, w[PS_ACCEPTED].label));
		peersec_judge(_metadata, base, "listener.peersec",
			      &w[PS_LISTENER],
			      read_peersec(k->s, w[PS_LISTENER].label));
	} else {
		peersec_judge(_metadata, base,
			      pair ? "end1.peersec" : "server.peersec",
			      &w[PS_SERVER],
			      read_peersec(k->s, w[PS_SERVER].label));
	}

	if (t == T_TCP)
		return;
	ret = ask_scm_security(t, recv_on);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("asking for SCM_SECURITY: %s", strerror(-ret));
		conn_close(k);
	}
	ret = send_one(t, k);
	if (w[PS_SEND].unrecorded) {
		ASSERT_EQ(0, ret)
		{
			TH_LOG("sending: %s", strerror(-ret));
			conn_close(k);
		}
	} else {
		peersec_judge(_metadata, base,
			      pair ? "end0.send" : "client.send", &w[PS_SEND],
			      ret);
	}
	if (w[PS_SEND].expected)
		scm.expected = NOT_RUN;
	peersec_judge(_metadata, base,
		      accepts ? "accepted.scm_security" :
		      pair    ? "end1.scm_security" :
				"server.scm_security",
		      &scm,
		      scm.expected == NOT_RUN ?
			      NOT_RUN :
			      read_scm_security(recv_on, scm.label));
	if (t_type(t) != SOCK_STREAM)
		return;
	ASSERT_EQ(0, setsockopt(recv_on, SOL_SOCKET, SO_PASSCRED, &one,
				sizeof(one)));
	ASSERT_EQ(0, send_one(t, k));
	peersec_judge(_metadata, base,
		      accepts ? "accepted.scm_security_passcred" :
				"end1.scm_security_passcred",
		      &w[PS_SCM_PASSCRED],
		      read_scm_security(recv_on, w[PS_SCM_PASSCRED].label));
}

#endif /* LSMCONF_PEERSEC_H */
