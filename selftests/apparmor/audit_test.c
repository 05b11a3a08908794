// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: what AppArmor logs for an AF_UNIX send. The audit and deny
 * qualifiers and complain mode: "audit deny unix (send)" denies and logs,
 * "deny unix (send)" denies quietly, "audit unix (send)" allows and logs,
 * and a complain-mode profile missing send allows and logs. The same on
 * the coarse form of an old ABI ("audit deny network (send) unix dgram"),
 * which kernels without fine-grained AF_UNIX mediation also enforce.
 *
 * The records are read in the guest from /dev/kmsg up to a marker record
 * (kmsg_audit.h).
 */

#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/unix_addr.h"
#include "coarse.h"
#include "kmsg_audit.h"

/* The qualifiers, as the profiles' suffixes. */
enum qual { Q_AUDIT_DENY, Q_DENY, Q_AUDIT, Q_COMPLAIN };

static const char *const qual_ids[] = { "audit_deny", "deny", "audit",
					"complain" };

#define ABI_FINE "5.0"
#define ABI_COARSE "4.0"

FIXTURE(audit)
{
	long long t0; /* setup's start, for the time the case took */
	char before[65536];
	struct aa_policy fine, coarse;
	bool k9; /* network_v9/af_unix: the kernel has af_unix.c */
	bool p9; /* and the policy is compiled with it (not so under --abi) */
	char ratelimit[32]; /* printk_ratelimit as found */
	struct worker recv, marker;
	int serial;
};

FIXTURE_VARIANT(audit)
{
	bool fine; /* the rules of audit.profile, else audit_coarse.profile */
};

/* clang-format off */
FIXTURE_VARIANT_ADD(audit, fine) { .fine = true };
FIXTURE_VARIANT_ADD(audit, coarse) { .fine = false };
/* clang-format on */

/* ---- the expectation model ------------------------------------------- */

/* One case: a qualifier on one socket type. */
struct acase {
	bool fine, k9, p9;
	enum qual q;
	int type;
};

/* What the case expects: the operations' outcomes and the one record. */
struct expect {
	int connect, send; /* stream: connect, then send; dgram: send */
	bool logged;
	const char *apparmor; /* DENIED, AUDIT, ALLOWED */
	const char *operation;
	const char *requested, *denied; /* denied NULL: no denied_mask */
	bool peer; /* peer="unconfined" */
	bool addrs; /* addr=none and peer_addr="@<receiver>" */
};

/*
 * Whether the rule reaches the kernel at all:
 * - fine form (ABI 5.0) compiled with network_v9/af_unix (p9): the unix
 *   class (AA_CLASS_NETV9) holds it, af_unix.c's profile_peer_perm()
 *   matches it with the peer.
 * - fine form compiled without it (a legacy kernel, or a pinned set under
 *   --abi): the parser has no unix class to write to; it downgrades allow
 *   rules, their audit bit included, to network permissions of the socket
 *   type and drops deny rules (the parser's "coarse" mode; the compiled
 *   blob shows "audit unix (send)" as an audited send on AF_UNIX in
 *   AA_CLASS_NET and no trace of "audit deny unix (send)").
 * - coarse form (ABI 4.0): AA_CLASS_NET on every kernel.
 */
static bool rule_dropped(const struct acase *c)
{
	return c->fine && !c->p9 && (c->q == Q_AUDIT_DENY || c->q == Q_DENY);
}

static void model(const struct acase *c, struct expect *e)
{
	bool dgram = c->type == SOCK_DGRAM;
	bool denies =
		(c->q == Q_AUDIT_DENY || c->q == Q_DENY) && !rule_dropped(c);
	/*
	 * Where the send permission is asked, with what:
	 * - k9, datagram: apparmor_unix_may_send(), OP_SENDMSG, send.
	 * - k9, stream: apparmor_unix_stream_connect() -> unix_connect_perm(),
	 *   OP_CONNECT, connect + send + receive in one request; nothing
	 *   per message afterwards (apparmor_socket_sendmsg returns 0 for
	 *   PF_UNIX).
	 * - legacy: apparmor_socket_sendmsg() -> aa_sk_perm(), OP_SENDMSG,
	 *   send, at each message; connect asks for connect only.
	 */
	bool at_connect = c->k9 && !dgram;

	memset(e, 0, sizeof(*e));
	e->connect = at_connect && denies ? -EACCES : 0;
	e->send = !dgram && e->connect ? NOT_RUN : denies ? -EACCES : 0;
	e->operation = at_connect ? "connect" : "sendmsg";
	e->requested = at_connect ? "send receive connect" : "send";

	/*
	 * aa_check_perms() (lib.c): a denial is logged unless quiet (an
	 * explicit deny rule without "audit" sets the quiet bits); in
	 * complain mode (aa_apply_modes_to_perms) the denial is logged as
	 * ALLOWED and the operation allowed; an allowed request is logged
	 * only for its audit bits, and requested_mask then shows just them.
	 */
	switch (c->q) {
	case Q_AUDIT_DENY:
		e->logged = !rule_dropped(c);
		e->apparmor = "DENIED";
		e->denied = "send";
		break;
	case Q_DENY:
		e->logged = false;
		break;
	case Q_AUDIT:
		e->logged = true;
		e->apparmor = "AUDIT";
		e->requested = "send";
		break;
	case Q_COMPLAIN:
		e->logged = true;
		e->apparmor = "ALLOWED";
		e->denied = "send";
		break;
	}
	/*
	 * audit_net_cb() (net.c) prints a unix socket's addr= and, for a
	 * peer permission, peer_addr=; that code came with k9's af_unix.c
	 * (legacy kernels print neither). peer= is the label match_label()
	 * (af_unix.c) stores, reached only through the unix class: not by
	 * the fallback to aa_profile_af_sk_perm() of the coarse form or of
	 * downgraded policy.
	 */
	e->addrs = c->k9;
	e->peer = c->k9 && c->fine && c->p9;
}

/* ---- fixture -------------------------------------------------------- */

static void name_of(bool fine, const char *suffix, char *buf, size_t size)
{
	snprintf(buf, size, AA_TEST_PREFIX "audit_%s_%s",
		 fine ? ABI_FINE : ABI_COARSE, suffix);
}

FIXTURE_SETUP(audit)
{
	int ret;

	self->t0 = now_ns();
	REQUIRE_APPARMOR(_metadata, true);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_LE(0, aa_remove_leftovers());
	ASSERT_LE(0, aa_profile_list(self->before, sizeof(self->before)));
	self->k9 = aa_feature("network_v9/af_unix") == 1;
	self->p9 = aa_policy_feature("network_v9/af_unix") == 1;
	/* A test's profile loads alone log 9: unlimited until the teardown. */
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));

	/* The coarse file holds the marker: every variant loads it. */
	ret = aa_policy_build(&self->coarse, "audit_coarse", ABI_COARSE, NULL,
			      "audit_" ABI_COARSE);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, aa_policy_load(&self->coarse));
	if (variant->fine) {
		ASSERT_EQ(0, aa_policy_build(&self->fine, "audit", ABI_FINE,
					     NULL, "audit_" ABI_FINE));
		ASSERT_EQ(0, aa_policy_load(&self->fine));
	}
}

FIXTURE_TEARDOWN(audit)
{
	char name[160];
	int q;

	worker_stop(&self->recv);
	worker_stop(&self->marker);
	for (q = Q_AUDIT_DENY; q <= Q_COMPLAIN; q++) {
		if (self->fine.loaded) {
			name_of(true, qual_ids[q], name, sizeof(name));
			EXPECT_EQ(0, aa_profile_remove(name));
		}
		if (self->coarse.loaded) {
			name_of(false, qual_ids[q], name, sizeof(name));
			EXPECT_EQ(0, aa_profile_remove(name));
		}
	}
	if (self->coarse.loaded) {
		name_of(false, "marker", name, sizeof(name));
		EXPECT_EQ(0, aa_profile_remove(name));
	}
	EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
	if (self->before[0] || self->coarse.loaded)
		EXPECT_PROFILES_AS_BEFORE(self->before);
	/* Guest time, compile and load included. */
	TH_LOG("%s: %lld ms", variant->fine ? "fine" : "coarse",
	       (now_ns() - self->t0) / 1000000);
}

/* ---- the cases ------------------------------------------------------ */

static int enter(struct worker *w, const char *label)
{
	struct wbatch b = { .n = 1, .c[0] = { .op = W_ENTER, .needs = -1 } };
	struct wreply r;
	int ret;

	snprintf(b.label, sizeof(b.label), "%s", label);
	ret = worker_run(w, &b, &r);
	return ret ? ret : r.err[0];
}

/*
 * The unconfined receiver's sockets for one case: a datagram socket
 * (slot 0) and a listening stream socket (slot 1) on fresh abstract
 * names, returned in @dgram and @stream.
 */
static int receivers(FIXTURE_DATA(audit) * self, struct sockaddr_un *a,
		     socklen_t *len)
{
	struct wbatch b = { 0 };
	struct wreply r;
	int i, ret;

	b.n = 6;
	b.c[0] = (struct wcmd){ .op = W_RESET, .needs = -1 };
	for (i = 0; i < 2; i++) {
		len[i] = unix_abstract(&a[i], "lsmconf-audit-%d-%d", getpid(),
				       ++self->serial);
		/* 1, 2: the datagram socket; 3, 4: the stream one. */
		b.c[1 + 2 * i] = (struct wcmd){
			.op = W_SOCKET,
			.slot = i,
			.type = i ? SOCK_STREAM : SOCK_DGRAM,
			.needs = -1,
		};
		b.c[2 + 2 * i] = (struct wcmd){ .op = W_BIND,
						.slot = i,
						.needs = 1 + 2 * i,
						.addr = a[i],
						.len = len[i] };
	}
	b.c[5] = (struct wcmd){ .op = W_LISTEN, .slot = 1, .needs = 4 };
	ret = worker_run(&self->recv, &b, &r);
	for (i = 0; !ret && i < b.n; i++)
		ret = r.err[i];
	return ret;
}

/* The marker: one audited datagram from the marker worker. */
static int mark(FIXTURE_DATA(audit) * self, const struct sockaddr_un *a,
		socklen_t len)
{
	struct wbatch b = { .n = 3 };
	struct wreply r;
	int ret;

	b.c[0] = (struct wcmd){ .op = W_RESET, .needs = -1 };
	b.c[1] = (struct wcmd){ .op = W_SOCKET,
				.type = SOCK_DGRAM,
				.needs = -1 };
	b.c[2] = (struct wcmd){
		.op = W_SENDTO, .needs = 1, .addr = *a, .len = len
	};
	ret = worker_run(&self->marker, &b, &r);
	return ret ? ret : r.err[1] ? r.err[1] : r.err[2];
}

/* One decision of the case: its op is "<qualifier>/<type>/<what>". */
static void judge_op(struct __test_metadata *_metadata, const char *pfx,
		     const struct acase *c, const char *prof, const char *what,
		     int want, int got)
{
	char depends[64], op[96];
	struct record rec = {
		.abi = c->fine ? ABI_FINE : ABI_COARSE,
		.subject = prof,
		.object = "unconfined",
		.class = c->type == SOCK_DGRAM ? "dgram" : "stream",
		.detail = "abstract",
		.op = op,
		.depends = depends,
		.expected = want,
		.observed = got,
	};

	snprintf(depends, sizeof(depends), "network_v9/af_unix=%s",
		 c->k9 ? "yes" : "no");
	snprintf(op, sizeof(op), "%s/%s", pfx, what);
	JUDGE(&rec);
}

/* "logged" as an outcome: allow when a record was there, ENOENT when not. */
#define LOGGED(x) ((x) ? 0 : -ENOENT)

static void run_case(struct __test_metadata *_metadata,
		     FIXTURE_DATA(audit) * self, const struct acase *c)
{
	bool dgram = c->type == SOCK_DGRAM;
	char prof[160], marker[160], id[256], want_peer_addr[128];
	struct sockaddr_un a[2];
	socklen_t len[2];
	struct worker w = { 0 };
	struct wbatch b = { 0 };
	struct wreply r;
	struct records got;
	struct expect e;
	int fd, i;

	model(c, &e);
	name_of(c->fine, qual_ids[c->q], prof, sizeof(prof));
	name_of(false, "marker", marker, sizeof(marker));
	/* The op's prefix: one case (fine, coarse) runs every qualifier. */
	snprintf(id, sizeof(id), "%s/%s", qual_ids[c->q],
		 dgram ? "dgram" : "stream");
	ASSERT_EQ(0, receivers(self, a, len));
	ASSERT_EQ(0, sock_worker_start(&w));
	ASSERT_EQ(0, enter(&w, prof));

	/* The operation, between the log's end and the marker. */
	fd = kmsg_open_end();
	ASSERT_LE(0, fd);
	b.c[b.n++] =
		(struct wcmd){ .op = W_SOCKET, .type = c->type, .needs = -1 };
	if (dgram) {
		b.c[b.n++] = (struct wcmd){
			.op = W_SENDTO, .needs = 0, .addr = a[0], .len = len[0]
		};
	} else {
		b.c[b.n++] = (struct wcmd){
			.op = W_CONNECT, .needs = 0, .addr = a[1], .len = len[1]
		};
		b.c[b.n++] = (struct wcmd){ .op = W_SEND, .needs = 1 };
	}
	ASSERT_EQ(0, worker_run(&w, &b, &r));
	worker_stop(&w);
	ASSERT_EQ(0, r.err[0]);
	ASSERT_EQ(0, mark(self, &a[0], len[0]));
	ASSERT_EQ(0, log_collect(fd, prof, marker, &got))
	{
		TH_LOG("%s: no marker record in the log", id);
	}
	close(fd);

	if (!dgram)
		judge_op(_metadata, id, c, prof, "sender.connect", e.connect,
			 r.err[1]);
	judge_op(_metadata, id, c, prof, "sender.send", e.send,
		 r.err[dgram ? 1 : 2]);
	judge_op(_metadata, id, c, prof, "log.record", LOGGED(e.logged),
		 LOGGED(got.n));
	/* Exactly one record: two would pass as "logged" above. */
	EXPECT_EQ(e.logged ? 1 : 0, got.n)
	{
		for (i = 0; i < got.n; i++)
			TH_LOG("%s: logged %s", id, got.rec[i]);
	}
	if (!e.logged || got.n != 1)
		return;
	judge_field(_metadata, id, got.rec[0], "apparmor", e.apparmor);
	judge_field(_metadata, id, got.rec[0], "operation", e.operation);
	judge_field(_metadata, id, got.rec[0], "profile", prof);
	judge_field(_metadata, id, got.rec[0], "family", "unix");
	judge_field(_metadata, id, got.rec[0], "sock_type",
		    dgram ? "dgram" : "stream");
	judge_field(_metadata, id, got.rec[0], "protocol", "0");
	judge_field(_metadata, id, got.rec[0], "requested_mask", e.requested);
	judge_field(_metadata, id, got.rec[0], "denied_mask", e.denied);
	judge_field(_metadata, id, got.rec[0], "peer",
		    e.peer ? "unconfined" : NULL);
	/* The receiver's abstract name: "@" and the name (audit_unix_addr). */
	snprintf(want_peer_addr, sizeof(want_peer_addr), "@%s",
		 a[dgram ? 0 : 1].sun_path + 1);
	judge_field(_metadata, id, got.rec[0], "peer_addr",
		    e.addrs ? want_peer_addr : NULL);
	/* The sender never bound: no address of its own. */
	judge_field(_metadata, id, got.rec[0], "addr", e.addrs ? "none" : NULL);
}

TEST_F_TIMEOUT(audit, records, 60)
{
	struct acase c = {
		.fine = variant->fine,
		.k9 = self->k9,
		.p9 = self->p9,
	};
	char marker[160];
	int q, t;

	ASSERT_EQ(0, sock_worker_start(&self->recv));
	ASSERT_EQ(0, sock_worker_start(&self->marker));
	name_of(false, "marker", marker, sizeof(marker));
	ASSERT_EQ(0, enter(&self->marker, marker));
	for (q = Q_AUDIT_DENY; q <= Q_COMPLAIN; q++) {
		/* The coarse rules name datagrams only. */
		for (t = 0; t < (variant->fine ? 2 : 1); t++) {
			c.q = q;
			c.type = t ? SOCK_STREAM : SOCK_DGRAM;
			run_case(_metadata, self, &c);
		}
	}
}

LSM_HARNESS_MAIN
