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
#include <sys/socket.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/peersec.h"

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
FIXTURE_VARIANT_ADD(peersec, stream_client_to_server) {
	.t = T_STREAM,
	.client = L_CLIENT,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, stream_task_to_server) {
	.t = T_STREAM,
	.client = L_TASK,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, seqpacket_client_to_server) {
	.t = T_SEQPACKET,
	.client = L_CLIENT,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, seqpacket_task_to_server) {
	.t = T_SEQPACKET,
	.client = L_TASK,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, dgram_connected_client_to_server) {
	.t = T_DGRAM_CONN,
	.client = L_CLIENT,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, dgram_connected_task_to_server) {
	.t = T_DGRAM_CONN,
	.client = L_TASK,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, dgram_client_to_server) {
	.t = T_DGRAM_UNCONN,
	.client = L_CLIENT,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, dgram_task_to_server) {
	.t = T_DGRAM_UNCONN,
	.client = L_TASK,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, pair_stream_client) {
	.t = T_PAIR_STREAM,
	.client = L_CLIENT,
	.server = L_CLIENT,
};

FIXTURE_VARIANT_ADD(peersec, pair_stream_task) {
	.t = T_PAIR_STREAM,
	.client = L_TASK,
	.server = L_TASK,
};

FIXTURE_VARIANT_ADD(peersec, pair_seqpacket_client) {
	.t = T_PAIR_SEQPACKET,
	.client = L_CLIENT,
	.server = L_CLIENT,
};

FIXTURE_VARIANT_ADD(peersec, pair_seqpacket_task) {
	.t = T_PAIR_SEQPACKET,
	.client = L_TASK,
	.server = L_TASK,
};

FIXTURE_VARIANT_ADD(peersec, pair_dgram_client) {
	.t = T_PAIR_DGRAM,
	.client = L_CLIENT,
	.server = L_CLIENT,
};

FIXTURE_VARIANT_ADD(peersec, pair_dgram_task) {
	.t = T_PAIR_DGRAM,
	.client = L_TASK,
	.server = L_TASK,
};

FIXTURE_VARIANT_ADD(peersec, tcp_client_to_server) {
	.t = T_TCP,
	.client = L_CLIENT,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, tcp_task_to_server) {
	.t = T_TCP,
	.client = L_TASK,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, udp_client_to_server) {
	.t = T_UDP,
	.client = L_CLIENT,
	.server = L_SERVER,
};

FIXTURE_VARIANT_ADD(peersec, udp_task_to_server) {
	.t = T_UDP,
	.client = L_TASK,
	.server = L_SERVER,
};
/* clang-format on */

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

/*
 * Socket(s) made in the context of @l (setsockcreatecon): conn_make()'s
 * peersec_make_fn. 0 or -errno.
 */
static int make_in(int l, int family, int type, bool pair, int fds[2])
{
	char ctx[128];
	int ret = 0;

	if (l != L_TASK && setsockcreatecon(ctx_of(lab_types[l], lab_ranges[l],
						   ctx, sizeof(ctx))))
		return -errno;
	if (pair) {
		if (socketpair(family, type | SOCK_CLOEXEC, 0, fds))
			ret = -errno;
	} else {
		fds[0] = socket(family, type | SOCK_CLOEXEC, 0);
		if (fds[0] < 0)
			ret = -errno;
	}
	if (l != L_TASK && setsockcreatecon(NULL) && !ret)
		ret = -errno;
	return ret;
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
	/* Only unix_stream_socket keeps a peer here (TCP's is SECSID_NULL). */
	const char *c_want = ustream ? c_peer : NULL;
	const char *s_want = ustream ? s_peer : NULL;
	struct peersec_want want[PS_STEPS] = {
		[PS_PEER] = { .expected = c_want ? 0 : -ENOPROTOOPT,
			      .label = c_want },
		[PS_PEER_SHORT] = { .expected = c_want ? -ERANGE : -ENOPROTOOPT,
				    .label = c_want },
		[PS_ACCEPTED] = { .expected = s_want ? 0 : -ENOPROTOOPT,
				  .label = s_want },
		/*
		 * A listener keeps selinux_sk_alloc_security's
		 * SECINITSID_UNLABELED: unix stream and TCP alike.
		 */
		[PS_LISTENER] = { .expected = 0, .label = UNLABELED_CTX },
		[PS_SERVER] = { .expected = s_want ? 0 : -ENOPROTOOPT,
				.label = s_want },
		/*
		 * The send itself: a unix datagram is checked sending socket ->
		 * receiving socket for sendto (selinux_socket_unix_may_send);
		 * lsmconf.cil grants lsmconf_c_ok_t sendto on lsmconf_srv_t
		 * only, so a datagram pair of c_ok_t sockets may not send to
		 * itself. kernel_t may send to every domain; streams have no
		 * such check. TCP carries no control messages: not asked.
		 */
		[PS_SEND] = { .expected = t == T_PAIR_DGRAM && cl == L_CLIENT ?
						  -EACCES :
						  0 },
		/*
		 * unix: the sending socket's SID
		 * (selinux_socket_getpeersec_dgram), except that a SOCK_STREAM
		 * reader copies a message's secid only when it also asked for
		 * credentials (unix_stream_read_generic: unix_skb_to_scm under
		 * unix_may_passcred); else it stays 0, and SID 0 prints as the
		 * unlabeled initial SID (sidtab_search falls back to
		 * SECINITSID_UNLABELED). UDP: no peer label, no message.
		 */
		[PS_SCM] = { .expected = t == T_UDP ? -ENOMSG : 0,
			     .label = t == T_UDP	       ? NULL :
				      t_type(t) == SOCK_STREAM ? UNLABELED_CTX :
								 c_ctx },
		/* A stream reader with SO_PASSCRED too: the sender socket's SID. */
		[PS_SCM_PASSCRED] = { .expected = 0, .label = c_ctx },
	};
	struct peersec_conn k;
	int ret;

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

	ret = conn_make(t, cl, sv, make_in, "lsmconf-sps", &k);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("setting the sockets up: %s", strerror(-ret));
		conn_close(&k);
	}
	peersec_walk(_metadata, t, &k, &rec, 1, want);
	conn_close(&k);
}

LSM_HARNESS_MAIN
