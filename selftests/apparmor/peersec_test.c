// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: the peer label AppArmor hands out, SO_PEERSEC and SCM_SECURITY,
 * on every socket type that can carry one: AF_UNIX stream, seqpacket and
 * datagram (connected and not), socketpair() of each, and TCP and UDP on
 * loopback.
 *
 * Each side's socket is made by a forked peer in its label (unconfined,
 * confined, or a stack of two profiles) and handed to the test with
 * SCM_RIGHTS right after socket(): the label a socket carries is its
 * creator's at socket() (apparmor_socket_post_create,
 * apparmor_socket_socketpair), whoever uses it later. The test, which
 * stays unconfined, then binds, connects, accepts and reads the labels.
 * An unconfined user of a passed socket is never revalidated
 * (aa_file_perm() returns early for it): the path of the kernel bug of
 * fixtures/known-kernel-bugs is not taken. No write(2) is used.
 *
 * The model (every rule names the kernel function that implements it):
 *
 *   SO_PEERSEC      apparmor_socket_getpeersec_stream: the socket's
 *                   cached peer label (aa_sk_ctx.peer), printed with
 *                   its mode ("name (enforce)", a stack as
 *                   "a//&b (enforce)", "unconfined" bare:
 *                   aa_label_snxprint, FLAG_HIDDEN_UNCONFINED); no
 *                   cached peer: ENOPROTOOPT (sk_peer_get_label); a
 *                   buffer shorter than the label: ERANGE, the label's
 *                   length in optlen.
 *   peer cached     only by unix_connect_peers(), called from
 *                   apparmor_unix_stream_connect (stream and seqpacket
 *                   connect: the client gets the listener's label, the
 *                   accepted socket the client's) and from
 *                   apparmor_socket_socketpair (every unix pair: each end
 *                   gets the creator's label). Both came with the
 *                   fine-grained af_unix mediation the kernel advertises
 *                   as network_v9/af_unix: without it nothing caches a
 *                   peer and every SO_PEERSEC is ENOPROTOOPT. A listener,
 *                   a datagram socket (apparmor_unix_may_send caches
 *                   nothing) and an inet socket never have one.
 *   SCM_SECURITY    apparmor_socket_getpeersec_dgram is ENOPROTOOPT
 *                   always ("requires secid support"): a unix message
 *                   carries secid 0 (scm_send -> unix_get_peersec_dgram),
 *                   which apparmor_secid_to_secctx refuses (no label), so
 *                   scm_passec puts no SCM_SECURITY; a UDP datagram with
 *                   IP_PASSSEC gets none either (ip_cmsg_recv_security
 *                   returns on the hook's error). Recorded as ENOMSG:
 *                   recvmsg() succeeded and no SCM_SECURITY came. A
 *                   label that came where none should, or a wrong label,
 *                   is EBADMSG.
 */

#define _GNU_SOURCE
#include <stddef.h>
#include <sys/socket.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/peersec.h"
#include "harness_main.h"

#define ABI "5.0"
#define AF_UNIX_FEATURE "network_v9/af_unix"

/* The labels a socket's creator runs in. */
enum lab { L_UNCONFINED, L_CONFINED, L_STACKED };

static const char *const lab_names[] = { "unconfined", "confined", "stacked" };

/* The profiles: both allow everything the peers do (allow.profile). */
#define PS_A AA_TEST_PREFIX "ps_a"
#define PS_B AA_TEST_PREFIX "ps_b"

/*
 * The label string of @l as the kernel prints it (aa_label_snxprint with
 * FLAG_SHOW_MODE | FLAG_HIDDEN_UNCONFINED): profiles in label order
 * joined by "//&" (ps_a sorts before ps_b), then the common mode once.
 */
static const char *lab_string(enum lab l)
{
	switch (l) {
	case L_CONFINED:
		return PS_A " (enforce)";
	case L_STACKED:
		return PS_A "//&" PS_B " (enforce)";
	default:
		return "unconfined";
	}
}

FIXTURE(peersec)
{
	bool k9; /* network_v9/af_unix */
};

FIXTURE_VARIANT(peersec)
{
	enum transport t;
	enum lab client, server; /* a pair's both ends are the client's */
};

/* clang-format off */
FIXTURE_VARIANT_ADD(peersec, stream_unconfined_to_confined) {
	.t = T_STREAM,
	.client = L_UNCONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, stream_confined_to_stacked) {
	.t = T_STREAM,
	.client = L_CONFINED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, stream_stacked_to_unconfined) {
	.t = T_STREAM,
	.client = L_STACKED,
	.server = L_UNCONFINED,
};

FIXTURE_VARIANT_ADD(peersec, seqpacket_unconfined_to_confined) {
	.t = T_SEQPACKET,
	.client = L_UNCONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, seqpacket_confined_to_stacked) {
	.t = T_SEQPACKET,
	.client = L_CONFINED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, seqpacket_stacked_to_unconfined) {
	.t = T_SEQPACKET,
	.client = L_STACKED,
	.server = L_UNCONFINED,
};

FIXTURE_VARIANT_ADD(peersec, dgram_connected_unconfined_to_confined) {
	.t = T_DGRAM_CONN,
	.client = L_UNCONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, dgram_connected_confined_to_stacked) {
	.t = T_DGRAM_CONN,
	.client = L_CONFINED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, dgram_connected_stacked_to_unconfined) {
	.t = T_DGRAM_CONN,
	.client = L_STACKED,
	.server = L_UNCONFINED,
};

FIXTURE_VARIANT_ADD(peersec, dgram_unconfined_to_confined) {
	.t = T_DGRAM_UNCONN,
	.client = L_UNCONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, dgram_confined_to_stacked) {
	.t = T_DGRAM_UNCONN,
	.client = L_CONFINED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, dgram_stacked_to_unconfined) {
	.t = T_DGRAM_UNCONN,
	.client = L_STACKED,
	.server = L_UNCONFINED,
};

FIXTURE_VARIANT_ADD(peersec, pair_stream_unconfined) {
	.t = T_PAIR_STREAM,
	.client = L_UNCONFINED,
	.server = L_UNCONFINED,
};

FIXTURE_VARIANT_ADD(peersec, pair_stream_confined) {
	.t = T_PAIR_STREAM,
	.client = L_CONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, pair_stream_stacked) {
	.t = T_PAIR_STREAM,
	.client = L_STACKED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, pair_seqpacket_unconfined) {
	.t = T_PAIR_SEQPACKET,
	.client = L_UNCONFINED,
	.server = L_UNCONFINED,
};

FIXTURE_VARIANT_ADD(peersec, pair_seqpacket_confined) {
	.t = T_PAIR_SEQPACKET,
	.client = L_CONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, pair_seqpacket_stacked) {
	.t = T_PAIR_SEQPACKET,
	.client = L_STACKED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, pair_dgram_unconfined) {
	.t = T_PAIR_DGRAM,
	.client = L_UNCONFINED,
	.server = L_UNCONFINED,
};

FIXTURE_VARIANT_ADD(peersec, pair_dgram_confined) {
	.t = T_PAIR_DGRAM,
	.client = L_CONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, pair_dgram_stacked) {
	.t = T_PAIR_DGRAM,
	.client = L_STACKED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, tcp_unconfined_to_confined) {
	.t = T_TCP,
	.client = L_UNCONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, tcp_confined_to_stacked) {
	.t = T_TCP,
	.client = L_CONFINED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, tcp_stacked_to_unconfined) {
	.t = T_TCP,
	.client = L_STACKED,
	.server = L_UNCONFINED,
};

FIXTURE_VARIANT_ADD(peersec, udp_unconfined_to_confined) {
	.t = T_UDP,
	.client = L_UNCONFINED,
	.server = L_CONFINED,
};

FIXTURE_VARIANT_ADD(peersec, udp_confined_to_stacked) {
	.t = T_UDP,
	.client = L_CONFINED,
	.server = L_STACKED,
};

FIXTURE_VARIANT_ADD(peersec, udp_stacked_to_unconfined) {
	.t = T_UDP,
	.client = L_STACKED,
	.server = L_UNCONFINED,
};

/* clang-format on */
FIXTURE_SETUP(peersec)
{
	struct aa_policy p;

	REQUIRE_APPARMOR(_metadata, true);
	/* Shared by the binary's cases, removed by its main. */
	ASSERT_EQ(0, aa_policy_share(_metadata, &p, "allow", ABI, NULL, "ps_a",
				     "ps_a"));
	ASSERT_EQ(0, aa_policy_share(_metadata, &p, "allow", ABI, NULL, "ps_b",
				     "ps_b"));
	self->k9 = aa_feature(AF_UNIX_FEATURE) == 1;
	if (t_inet(variant->t))
		ASSERT_EQ(0, loopback_up());
}

FIXTURE_TEARDOWN(peersec)
{
}

/* Enters @l: change to ps_a, and for a stack stack ps_b on it. */
static int lab_enter(enum lab l)
{
	if (l == L_UNCONFINED)
		return 0;
	if (aa_change_profile(PS_A))
		return -errno;
	if (l == L_STACKED && aa_stack_profile(PS_B))
		return -errno;
	return 0;
}

/*
 * Makes @n sockets (a pair when @pair) of @family/@type in label @l, in a
 * forked peer, and returns them in @fds (SCM_RIGHTS over a channel):
 * conn_make()'s peersec_make_fn.
 * 0 or -errno.
 */
static int make_in_label(int l, int family, int type, bool pair, int fds[2])
{
	int ch[2], ret = 0, i, n = pair ? 2 : 1;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, ch))
		return -errno;
	pid = peer_fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0) {
		int s[2] = { -1, -1 };

		close(ch[0]);
		if (lab_enter(l))
			_exit(2);
		if (pair) {
			if (socketpair(family, type, 0, s))
				_exit(3);
		} else {
			s[0] = socket(family, type, 0);
			if (s[0] < 0)
				_exit(3);
		}
		for (i = 0; i < n; i++)
			if (send_fd(ch[1], s[i]))
				_exit(4);
		_exit(0);
	}
	close(ch[1]);
	ch[1] = -1;
	for (i = 0; i < n; i++) {
		fds[i] = recv_fd(ch[0]);
		if (fds[i] < 0) {
			ret = fds[i];
			while (i--)
				close(fds[i]);
			break;
		}
	}
	i = peer_reap(pid);
	if (!ret && i)
		ret = -ECHILD;
out:
	close(ch[0]);
	if (ch[1] >= 0)
		close(ch[1]);
	return ret;
}

TEST_F(peersec, labels)
{
	enum transport t = variant->t;
	bool unix_conn = t == T_STREAM || t == T_SEQPACKET;
	/*
	 * A cached peer label exists (unix_connect_peers) only on a
	 * connected unix stream or seqpacket and on a unix pair, and only
	 * where the af_unix mediation that caches it is there.
	 */
	bool cached = (unix_conn || t_pair(t)) && self->k9;
	const char *dep = (unix_conn || t_pair(t)) ?
				  (self->k9 ? AF_UNIX_FEATURE "=yes" :
					      AF_UNIX_FEATURE "=no") :
				  "-";
	/* Who each socket's peer is: pair ends see their creator. */
	const char *c_peer =
		lab_string(t_pair(t) ? variant->client : variant->server);
	const char *s_peer = lab_string(variant->client);
	struct record rec = {
		.abi = ABI,
		.subject = lab_names[variant->client],
		.object = t_pair(t) ? lab_names[variant->client] :
				      lab_names[variant->server],
		.class = t_names[t],
		.detail = t_inet(t) ? "loopback" : "abstract",
		.depends = dep,
	};
	struct peersec_want want[PS_STEPS] = {
		/* The client's (or a pair's first end's) peer label. */
		[PS_PEER] = { .expected = cached ? 0 : -ENOPROTOOPT,
			      .label = c_peer },
		/* The same into a one-byte buffer: ERANGE and the label's length. */
		[PS_PEER_SHORT] = { .expected = cached ? -ERANGE : -ENOPROTOOPT,
				    .label = c_peer },
		/* The accepted socket's peer is the client socket's label. */
		[PS_ACCEPTED] = { .expected = cached ? 0 : -ENOPROTOOPT,
				  .label = s_peer },
		/* A listener never has a peer: nothing caches one on it. */
		[PS_LISTENER] = { .expected = -ENOPROTOOPT, .depends = "-" },
		/*
		 * The pair's other end sees its creator, the same label; a
		 * datagram or UDP receiver has no peer (apparmor_unix_may_send
		 * caches none; inet sockets never have one).
		 */
		[PS_SERVER] = { .expected = cached ? 0 : -ENOPROTOOPT,
				.label = s_peer },
		/* The send is no decision here: it must go through. */
		[PS_SEND] = { .unrecorded = true },
		/*
		 * SCM_SECURITY on what the client sends: unix asks with
		 * SO_PASSSEC, UDP with IP_PASSSEC; AppArmor gives no datagram
		 * label at all (apparmor_socket_getpeersec_dgram). TCP carries
		 * no control messages: not asked (SO_PASSSEC on it also differs
		 * by release).
		 */
		[PS_SCM] = { .expected = -ENOMSG, .depends = "-" },
		/*
		 * A SOCK_STREAM reader copies a message's secid only with
		 * SO_PASSCRED set too (unix_stream_read_generic): still none,
		 * the secid AppArmor gives is 0 either way.
		 */
		[PS_SCM_PASSCRED] = { .expected = -ENOMSG, .depends = "-" },
	};
	struct peersec_conn k;
	int ret;

	ret = conn_make(t, variant->client, variant->server, make_in_label,
			"lsmconf-ps", &k);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("setting the sockets up: %s", strerror(-ret));
		conn_close(&k);
	}
	peersec_walk(_metadata, t, &k, &rec, 0, want);
	conn_close(&k);
}

AA_HARNESS_MAIN
