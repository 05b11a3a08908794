/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf: the connection workloads of unix_send_bench (#25), beside its
 * datagram points. Each runs a sender and a receiver process:
 *
 *   stream      AF_UNIX SOCK_STREAM, 128-byte writes (seed 001's
 *               hackbench path without credentials)
 *   streamcred  the same with SO_PASSCRED on the receiving socket: the
 *               kernel takes a pid and cred reference per write (seed 001)
 *   tcpSIZE     TCP over 127.0.0.1, SIZE bytes per write (seed 003)
 *   udpSIZE     UDP over 127.0.0.1, SIZE bytes per datagram
 *
 * SIZE is 64 to 16384, written without leading zeros: it is part of the
 * point's name, which samples.tsv and summary.tsv key on.
 *
 * Lockstep: the sender times only its sendmmsg() of one batch, then
 * posts the batch (eventfd "go"); the receiver, blocked on "go" and never
 * on its socket while the sender is timed, drains and checks every
 * payload and credits the sender (eventfd "credit"). So no wake-up of
 * the receiver and none of its reads fall inside the timed interval.
 * (Loopback TCP and UDP deliver in the sender's context: the receive
 * path up to the socket's queue is part of the sender's cost, as it is
 * for any loopback sender.)
 */
#ifndef LSMCONF_BENCH_WORKLOADS_H
#define LSMCONF_BENCH_WORKLOADS_H

#include <arpa/inet.h>
#include <net/if.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>

#include "peer.h"

#define WL_MIN_SIZE 64
#define WL_MAX_SIZE 16384
#define WL_STREAM_SIZE 128
#define WL_MAX_BATCH 32
/*
 * The batch rule: a batch is at most WL_MAX_BATCH messages and at most
 * WL_BATCH_BYTES of payload (min(32, 65536 / SIZE) messages: 32 up to
 * 2048 bytes, 4 at 16384). Both sockets' buffers are raised for the
 * connection (WL_SOCK_BUF asked, the kernel caps it at [rw]mem_max,
 * 212,992 by default, and doubles it for overhead: 425,984), so one
 * batch, whose truesize is at most about twice its payload plus a
 * kilobyte per message, always fits; nothing global is changed. Should a
 * send block anyway, the receiver is not reading (lockstep): the send
 * fails after PEER_WAIT_MS (SO_SNDTIMEO) and the point fails, it is never
 * timed with the receiver's work in it.
 */
#define WL_BATCH_BYTES 65536
#define WL_SOCK_BUF (4 * WL_BATCH_BYTES)

enum wl_kind { WL_STREAM, WL_STREAMCRED, WL_TCP, WL_UDP };

struct wl {
	enum wl_kind kind;
	int size; /* bytes per message */
	int batch; /* messages per send call */
};

/*
 * Parses a connection workload name into @w. Returns 0, -ENOENT when
 * @name is none of them (a datagram point of unix_send_bench.c), or
 * -EINVAL for tcp/udp with a size that is not 64..16384 as written.
 */
static inline int wl_parse(const char *name, struct wl *w)
{
	const char *digits = NULL;
	char *end;
	long size;

	memset(w, 0, sizeof(*w));
	if (!strcmp(name, "stream") || !strcmp(name, "streamcred")) {
		w->kind = name[6] ? WL_STREAMCRED : WL_STREAM;
		w->size = WL_STREAM_SIZE;
	} else if (!strncmp(name, "tcp", 3) || !strncmp(name, "udp", 3)) {
		w->kind = name[0] == 't' ? WL_TCP : WL_UDP;
		digits = name + 3;
	} else {
		return -ENOENT;
	}
	if (digits) {
		if (*digits < '1' || *digits > '9')
			return -EINVAL;
		errno = 0;
		size = strtol(digits, &end, 10);
		if (errno || *end || size < WL_MIN_SIZE || size > WL_MAX_SIZE)
			return -EINVAL;
		w->size = (int)size;
	}
	w->batch = WL_BATCH_BYTES / w->size;
	if (w->batch > WL_MAX_BATCH)
		w->batch = WL_MAX_BATCH;
	return 0;
}

/* Brings lo up (as peersec.h's loopback_up(), which needs the harness). */
static inline int wl_loopback_up(void)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ret = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	if (ioctl(fd, SIOCGIFFLAGS, &ifr)) {
		ret = -errno;
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr))
			ret = -errno;
	}
	close(fd);
	return ret;
}

/* Message @seq of @size bytes: its number, then one letter repeated. */
static inline void wl_fill(char *msg, int size, unsigned int seq)
{
	memcpy(msg, &seq, sizeof(seq));
	memset(msg + sizeof(seq), 'a' + seq % 26, size - sizeof(seq));
}

static inline bool wl_msg_ok(const char *msg, int size, unsigned int seq)
{
	unsigned int got;
	int i;

	memcpy(&got, msg, sizeof(got));
	if (got != seq)
		return false;
	for (i = sizeof(seq); i < size; i++)
		if (msg[i] != (char)('a' + seq % 26))
			return false;
	return true;
}

/* Posts @v on the eventfd @fd. */
static inline int wl_post(int fd, uint64_t v)
{
	return write(fd, &v, sizeof(v)) == sizeof(v) ? 0 : -EIO;
}

/* Takes the eventfd @fd's value within PEER_WAIT_MS into *@v. */
static inline int wl_take(int fd, uint64_t *v)
{
	return pipe_read(fd, v, sizeof(*v), PEER_WAIT_MS);
}

static inline int wl_bufs(int fd)
{
	int v = WL_SOCK_BUF;

	if (setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, sizeof(v)) ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &v, sizeof(v)))
		return -errno;
	return set_timeouts(fd);
}

/*
 * streamcred: the batch's first read takes its ancillary data, which must
 * be the SCM_CREDENTIALS of the sender (the receiver's parent): proof
 * that the kernel attached credentials to the writes being timed.
 */
static inline ssize_t wl_recv_creds(int fd, char *buf, size_t len)
{
	char cbuf[CMSG_SPACE(sizeof(struct ucred))] = { 0 };
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov,
			      .msg_iovlen = 1,
			      .msg_control = cbuf,
			      .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	struct ucred uc;
	ssize_t n = recvmsg(fd, &msg, 0);

	if (n <= 0)
		return n;
	cm = CMSG_FIRSTHDR(&msg);
	if (!cm || cm->cmsg_level != SOL_SOCKET ||
	    cm->cmsg_type != SCM_CREDENTIALS)
		return errno = EBADMSG, -1;
	memcpy(&uc, CMSG_DATA(cm), sizeof(uc));
	if (uc.pid != getppid())
		return errno = EBADMSG, -1;
	return n;
}

/*
 * Receives one batch (messages @first...) and checks every payload.
 * Byte streams (stream, TCP) are read as bytes: the batch's total, then
 * checked message by message, whatever the boundaries of the reads.
 * UDP: one datagram per message, each exactly @w->size bytes.
 */
static inline int wl_drain(int fd, const struct wl *w, unsigned int first,
			   char *buf)
{
	size_t want = (size_t)w->batch * w->size, got = 0;
	int i;

	while (got < want) {
		size_t ask =
			w->kind == WL_UDP ? (size_t)w->size + 1 : want - got;
		ssize_t n = w->kind == WL_STREAMCRED && !got ?
				    wl_recv_creds(fd, buf, ask) :
				    recv(fd, buf + got, ask, 0);

		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		if (w->kind == WL_UDP && n != w->size)
			return -EBADMSG;
		got += n;
	}
	for (i = 0; i < w->batch; i++)
		if (!wl_msg_ok(buf + (size_t)i * w->size, w->size, first + i))
			return -EBADMSG;
	return 0;
}

/*
 * The receiver: its socket in its own label; a token on @credit carrying
 * the address's port for inet; once the sender says on @go that it is
 * connected, a second token that the connection is ready (accepted, and
 * SO_PASSCRED set); then lockstep: wait for @go, drain, credit.
 */
static inline void wl_receiver(const struct wl *w, int go, int credit,
			       int batches_total, const char *abstract)
{
	static char buf[WL_BATCH_BYTES + WL_MAX_SIZE];
	struct sockaddr_in sin = { .sin_family = AF_INET };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	bool inet = w->kind == WL_TCP || w->kind == WL_UDP;
	socklen_t len = sizeof(sin);
	int fd, c, b, one = 1;
	uint64_t v;

	fd = socket(inet ? AF_INET : AF_UNIX,
		    w->kind == WL_UDP ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (fd < 0 || wl_bufs(fd))
		_exit(82);
	if (inet) {
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (bind(fd, (void *)&sin, sizeof(sin)) ||
		    getsockname(fd, (void *)&sin, &len))
			_exit(82);
	} else {
		strcpy(sun.sun_path + 1, abstract);
		if (bind(fd, (void *)&sun,
			 offsetof(struct sockaddr_un, sun_path) + 1 +
				 strlen(abstract)))
			_exit(82);
	}
	if (w->kind != WL_UDP && listen(fd, 1))
		_exit(82);
	if (wl_post(credit, inet ? ntohs(sin.sin_port) : 1))
		_exit(83);
	/* The sender has taken that token and connected. */
	if (wl_take(go, &v))
		_exit(86);
	c = fd;
	if (w->kind != WL_UDP) {
		/* accept() waits at most SO_RCVTIMEO (set_timeouts()). */
		c = accept(fd, NULL, NULL);
		if (c < 0 || set_timeouts(c))
			_exit(84);
		/* Seed 001: credentials on every write to this socket. */
		if (w->kind == WL_STREAMCRED &&
		    setsockopt(c, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)))
			_exit(85);
	}
	if (wl_post(credit, 1))
		_exit(83);
	for (b = 0; b < batches_total; b++) {
		if (wl_take(go, &v))
			_exit(86);
		if (wl_drain(c, w, v - 1, buf))
			_exit(80);
		if (wl_post(credit, 1))
			_exit(81);
	}
	_exit(0);
}

/*
 * The sender's socket, connected to the receiver whose first token
 * (@port for inet) said it is bound. TCP_NODELAY: every write is its own
 * segment at once, as a per-message cost wants (Nagle would hold small
 * writes until the receiver, outside the timed interval, acknowledged).
 */
static inline int wl_connect(const struct wl *w, unsigned int port,
			     const char *abstract)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
				   .sin_port = htons(port) };
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	bool inet = w->kind == WL_TCP || w->kind == WL_UDP;
	int fd, one = 1;

	fd = socket(inet ? AF_INET : AF_UNIX,
		    w->kind == WL_UDP ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (fd < 0)
		return -errno;
	if (wl_bufs(fd))
		return -errno;
	if (w->kind == WL_TCP &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		return -errno;
	if (inet) {
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (connect(fd, (void *)&sin, sizeof(sin)))
			return -errno;
	} else {
		strcpy(sun.sun_path + 1, abstract);
		if (connect(fd, (void *)&sun,
			    offsetof(struct sockaddr_un, sun_path) + 1 +
				    strlen(abstract)))
			return -errno;
	}
	return fd;
}

/* One timed sendmmsg() of a batch; every message must go whole. */
static inline int wl_send_batch(int fd, const struct wl *w, char *buf,
				long long *ns)
{
	struct mmsghdr mm[WL_MAX_BATCH];
	struct iovec iov[WL_MAX_BATCH];
	long long t0;
	int i, n;

	memset(mm, 0, sizeof(mm));
	for (i = 0; i < w->batch; i++) {
		iov[i].iov_base = buf + (size_t)i * w->size;
		iov[i].iov_len = w->size;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now_ns();
	n = sendmmsg(fd, mm, w->batch, 0);
	*ns += now_ns() - t0;
	if (n < 0)
		return -errno;
	if (n != w->batch)
		return -EMSGSIZE;
	for (i = 0; i < w->batch; i++)
		if (mm[i].msg_len != (unsigned int)w->size)
			return -EMSGSIZE;
	return 0;
}

#endif
