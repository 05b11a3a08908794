// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor policy precompiled against a pinned kernel's feature
 * set (abi/NAME) and loaded on the running kernel, as a distribution's
 * policy cache is after a kernel upgrade or downgrade.
 *
 * Each set's policy (the three ABI 5.0 profiles below) is compiled in one
 * `apparmor_parser -Q -M abi/SET` run into one blob, once per boot (the
 * blob is cached, as a distribution caches its policy); each variant loads
 * that blob, then a sender in one of its profiles talks to an unconfined
 * receiver over an abstract AF_UNIX socket. The compile, the load and
 * every socket call are decision records; their expected outcomes come
 * from the model below, computed from the pinned set's features and the
 * running kernel's.
 */

#define _GNU_SOURCE
#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "../lsmconf/judge.h"
#include "steps.h"
#include "../lsmconf/unix_addr.h"
#include "../lsmconf/worker.h"
#include "peer.h"

/* The policy ABI of every profile here: the one with fine AF_UNIX rules. */
#define POLICY_ABI "5.0"

FIXTURE(abi)
{
	char before[65536];
	struct aa_policy policy;
	aa_features *kernel; /* the running kernel's features */
	aa_features *pinned; /* the set the policy is compiled for */
};

FIXTURE_VARIANT(abi)
{
	const char *set; /* abi/NAME */
	/*
	 * Profile template: "allow" (the control, everything allowed),
	 * "send_deny" (a fine-grained `deny unix (send)`), "net_dgram_deny"
	 * (a coarse `deny network unix dgram`).
	 */
	const char *profile;
	int type;
	const char *type_id;
};

#define TYPE_dgram SOCK_DGRAM
#define TYPE_stream SOCK_STREAM

/*
 * The variants, one block each: NAME is set_<.set with '_' for '.'>__
 * <.profile>__<.type_id>, written out so that a printed case name greps to
 * its line.
 */
/* clang-format off */
FIXTURE_VARIANT_ADD(abi, set_6_1__allow__dgram) {
	.set = "6.1",
	.profile = "allow",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_6_1__allow__stream) {
	.set = "6.1",
	.profile = "allow",
	.type = TYPE_stream,
	.type_id = "stream",
};
FIXTURE_VARIANT_ADD(abi, set_6_1__send_deny__dgram) {
	.set = "6.1",
	.profile = "send_deny",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_6_1__send_deny__stream) {
	.set = "6.1",
	.profile = "send_deny",
	.type = TYPE_stream,
	.type_id = "stream",
};
FIXTURE_VARIANT_ADD(abi, set_6_1__net_dgram_deny__dgram) {
	.set = "6.1",
	.profile = "net_dgram_deny",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_6_1__net_dgram_deny__stream) {
	.set = "6.1",
	.profile = "net_dgram_deny",
	.type = TYPE_stream,
	.type_id = "stream",
};
FIXTURE_VARIANT_ADD(abi, set_6_12__allow__dgram) {
	.set = "6.12",
	.profile = "allow",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_6_12__allow__stream) {
	.set = "6.12",
	.profile = "allow",
	.type = TYPE_stream,
	.type_id = "stream",
};
FIXTURE_VARIANT_ADD(abi, set_6_12__send_deny__dgram) {
	.set = "6.12",
	.profile = "send_deny",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_6_12__send_deny__stream) {
	.set = "6.12",
	.profile = "send_deny",
	.type = TYPE_stream,
	.type_id = "stream",
};
FIXTURE_VARIANT_ADD(abi, set_6_12__net_dgram_deny__dgram) {
	.set = "6.12",
	.profile = "net_dgram_deny",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_6_12__net_dgram_deny__stream) {
	.set = "6.12",
	.profile = "net_dgram_deny",
	.type = TYPE_stream,
	.type_id = "stream",
};
FIXTURE_VARIANT_ADD(abi, set_7_2__allow__dgram) {
	.set = "7.2",
	.profile = "allow",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_7_2__allow__stream) {
	.set = "7.2",
	.profile = "allow",
	.type = TYPE_stream,
	.type_id = "stream",
};
FIXTURE_VARIANT_ADD(abi, set_7_2__send_deny__dgram) {
	.set = "7.2",
	.profile = "send_deny",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_7_2__send_deny__stream) {
	.set = "7.2",
	.profile = "send_deny",
	.type = TYPE_stream,
	.type_id = "stream",
};
FIXTURE_VARIANT_ADD(abi, set_7_2__net_dgram_deny__dgram) {
	.set = "7.2",
	.profile = "net_dgram_deny",
	.type = TYPE_dgram,
	.type_id = "dgram",
};
FIXTURE_VARIANT_ADD(abi, set_7_2__net_dgram_deny__stream) {
	.set = "7.2",
	.profile = "net_dgram_deny",
	.type = TYPE_stream,
	.type_id = "stream",
};
/* clang-format on */

/* ---- the expectation model ------------------------------------------- */

/*
 * The compile features' policy/permstable32_version from which the parser
 * writes permission tables: a "perms" struct (one aa_perms per accept
 * state) in each policy database, and in the file database a "permsv" u32
 * after it. Below it (no permstable32, as in abi/6.1, or version 1, as in
 * abi/6.12) the permissions are packed into the dfa's accept1/accept2
 * tables, the layout every kernel since policy v5 reads (unpack_pdb():
 * "packed perms in accept1 and accept2"). The threshold is what the blobs
 * show (the 6.12 set's blob has no "perms" struct; the 7.2 set's has
 * "perms" in the policydb and "perms", "permsv" in the file database); the
 * parser's source was not read.
 */
#define PERMS_TABLE_VERSION 2

struct abi_model {
	int compile; /* 0 or -errno */
	int load; /* 0 or -errno */
	/* The policy's unix rules are enforced with peer checks. */
	bool fine;
	const char *profile;
	bool dgram;
	/* What the outcome depends on in the running kernel, or "-". */
	char depends[64];
};

static void model_init(struct abi_model *m, const FIXTURE_VARIANT(abi) * v,
		       aa_features *kernel, aa_features *pinned)
{
	unsigned long pv, kv;

	memset(m, 0, sizeof(*m));
	m->profile = v->profile;
	m->dgram = v->type == SOCK_DGRAM;
	/*
	 * Compiling never fails: apparmor_parser 5.0 compiles ABI 5.0 policy
	 * for any feature set, downgrading what the set lacks (unix rules
	 * become per-socket network rules without network_v9/af_unix; unix
	 * deny rules are dropped, since a downgraded deny would deny more).
	 */
	m->compile = 0;

	/*
	 * Loading: a blob whose permission tables are newer than the running
	 * kernel reads fails as a whole with -EPROTO (unpack_profile() in
	 * policy_unpack.c; aa_replace_profiles() returns its error to the
	 * write()). 7.2 reads them: unpack_pdb() calls unpack_perms_table(),
	 * then the "permsv" u32 (accept2 as dfa flags for version > 2), then
	 * unpack_dfa(); it advertises permstable32_version 3 (apparmorfs.c,
	 * aa_sfs_entry_policy).
	 * - A kernel advertising version 1 (6.12) reads the "perms" table but
	 *   no "permsv": in the file database unpack_dfa() meets "permsv"
	 *   where it expects "aadfa", finds no dfa (optional there), and the
	 *   profile's closing AA_STRUCTEND check then meets "permsv": audit
	 *   info "failed to unpack end of profile" at the offset of "permsv".
	 * - A kernel without permission tables (6.1) meets "perms" where its
	 *   policydb expects the dfa: "failed to unpack policydb".
	 * (Both audit lines are in the guest's dmesg.txt of a run.)
	 */
	pv = aa_features_num(pinned, "policy/permstable32_version");
	kv = aa_features_num(kernel, "policy/permstable32_version");
	m->load = pv >= PERMS_TABLE_VERSION && kv < pv ? -EPROTO : 0;

	/*
	 * Fine mediation needs both sides. The parser writes AA_CLASS_NETV9
	 * unix rules only when its compile features (the pinned set) have
	 * network_v9/af_unix; the kernel consults them only when it has
	 * af_unix.c's mediation (network_v9/af_unix): there, profile_*_perm()
	 * test RULE_MEDIATES_v9NET(rules) and, for a profile without v9
	 * rules, fall back to the per-socket check of net.c
	 * (aa_profile_af_perm(), aa_profile_af_sk_perm()), which knows only
	 * the downgraded network rules. A kernel without it (6.12, 6.1)
	 * mediates AF_UNIX through apparmor_socket_*() -> aa_af_perm() /
	 * aa_sk_perm() of net.c only.
	 */
	m->fine = aa_features_has(pinned, "network_v9/af_unix") &&
		  aa_features_has(kernel, "network_v9/af_unix");

	/*
	 * The record's dependency on the running kernel: the load, when the
	 * set's perms table is one some kernels refuse; else nothing (an
	 * older set's blob loads everywhere and is enforced per socket
	 * everywhere, so its decisions must be the same on every kernel).
	 */
	if (pv >= PERMS_TABLE_VERSION)
		snprintf(m->depends, sizeof(m->depends),
			 "policy/permstable32_version=%lu", kv);
	else
		snprintf(m->depends, sizeof(m->depends), "-");
}

static int deny_if(bool denied)
{
	return denied ? -EACCES : 0;
}

/*
 * socket(): only the coarse datagram rule denies it, whatever the
 * mediation level. Fine: apparmor_socket_create() -> aa_unix_create_perm()
 * -> profile_create_perm() matches AA_MAY_CREATE for PF_UNIX/SOCK_DGRAM in
 * the v9 rules (aa_match_to_prot()), where the parser put the network
 * rule. Otherwise profile_create_perm()'s fallback aa_profile_af_perm()
 * (7.2) or aa_af_perm() (6.x, apparmor_socket_create()) checks
 * AA_MAY_CREATE against the network rule for family unix, type dgram.
 * The deny covers every network permission, create among them.
 */
static int expect_socket(const struct abi_model *m)
{
	return deny_if(!strcmp(m->profile, "net_dgram_deny") && m->dgram);
}

/*
 * A datagram to the unconfined receiver: fine mediation checks the
 * sender's AA_MAY_SEND to the peer (apparmor_unix_may_send() ->
 * aa_unix_peer_perm() -> profile_peer_perm()): `deny unix (send)` denies
 * it. Otherwise the parser dropped that deny and `network,` allows the
 * send wherever it is checked: per socket at the peer hook on 7.2
 * (profile_peer_perm()'s fallback aa_profile_af_sk_perm(), AA_MAY_SEND),
 * per socket at sendmsg on 6.x (apparmor_socket_sendmsg() ->
 * aa_sk_perm()). The unconfined receiver's side is never checked.
 */
static int expect_dgram_send(const struct abi_model *m)
{
	return deny_if(m->fine && !strcmp(m->profile, "send_deny"));
}

/*
 * A stream connect: fine mediation asks connect, send and receive of the
 * connecting label (unix_connect_perm(), AA_MAY_CONNECT | AA_MAY_SEND |
 * AA_MAY_RECEIVE): `deny unix (send)` denies it. Otherwise allowed as
 * above; the coarse rule names dgram only.
 */
static int expect_stream_connect(const struct abi_model *m)
{
	return deny_if(m->fine && !strcmp(m->profile, "send_deny"));
}

/*
 * The expected outcome of each operation, in the order they run, by side:
 * the policy (compile, load), the sender, the receiver.
 */
struct abi_plan {
	struct peer_report pol, s, r;
	int delivered;
};

static void plan_make(struct abi_plan *p, const struct abi_model *m)
{
	int e, sent = 0;

	memset(p, 0, sizeof(*p));
	report_op(&p->pol, "compile", m->compile);
	report_op(&p->pol, "load", m->compile ? NOT_RUN : m->load);
	if (m->compile || m->load) {
		/* Nothing to enter: no peer runs. */
		goto rest;
	}
	report_op(&p->s, "change_profile", 0);
	e = expect_socket(m);
	report_op(&p->s, "socket", e);
	if (e)
		goto receiver;
	if (m->dgram) {
		e = expect_dgram_send(m);
		report_op(&p->s, "sendto", e);
		sent = !e;
	} else {
		e = expect_stream_connect(m);
		report_op(&p->s, "connect", e);
		if (!e) {
			/*
			 * A connected stream's send: 7.2 checks nothing for
			 * AF_UNIX (aa_sock_msg_perm()), 6.x the sender's own
			 * send (aa_sk_perm()), which `network,` allows.
			 */
			report_op(&p->s, "send", 0);
			sent = 1;
		}
	}
receiver:
	/* The receiver is unconfined: it takes what arrived, or nothing. */
	if (!m->dgram)
		report_op(&p->r, "accept", sent ? 0 : -EAGAIN);
	if (m->dgram || sent)
		report_op(&p->r, "receive", sent ? 0 : -EAGAIN);
rest:
	p->delivered = sent;
}

/* Every variant of a type records the same operations: the rest not-run. */
static const char *const ops_policy[] = { "compile", "load", NULL };
static const char *const ops_sender_dgram[] = { "change_profile", "socket",
						"sendto", NULL };
static const char *const ops_sender_stream[] = { "change_profile", "socket",
						 "connect", "send", NULL };
static const char *const ops_receiver_dgram[] = { "receive", NULL };
static const char *const ops_receiver_stream[] = { "accept", "receive", NULL };

/* ---- the sender ------------------------------------------------------ */

/* The sender worker's: its variant, profile and the receiver's address. */
struct abi_sender {
	const FIXTURE_VARIANT(abi) * v;
	const char *profile;
	struct sockaddr_un to;
	socklen_t tolen;
};

/*
 * Its one request: enter the profile, then one socket call as the
 * variant says; the reply is its report.
 */
static void sender_serve(const void *req, void *rep, void *state)
{
	const struct abi_sender *snd = state;
	const FIXTURE_VARIANT(abi) *v = snd->v;
	struct peer_report *r = rep;
	struct payload pl;
	int fd, e;

	(void)req;
	payload_make(&pl, 0);
	e = aa_change_profile(snd->profile) ? -errno : 0;
	report_op(r, "change_profile", e);
	if (e)
		return;
	fd = socket(AF_UNIX, v->type, 0);
	report_op(r, "socket", sys_ret(fd));
	if (fd < 0)
		return;
	if (v->type == SOCK_DGRAM) {
		report_op(r, "sendto",
			  sys_ret(sendto(fd, &pl, sizeof(pl), MSG_DONTWAIT,
					 (const void *)&snd->to, snd->tolen)));
	} else {
		/* Bounded: a full backlog is EAGAIN after PEER_WAIT_MS. */
		set_timeouts(fd);
		e = sys_ret(connect(fd, (const void *)&snd->to, snd->tolen));
		report_op(r, "connect", e);
		if (!e)
			report_op(r, "send",
				  sys_ret(send(fd, &pl, sizeof(pl),
					       MSG_DONTWAIT)));
	}
	close(fd);
}

/* ---- the policy of a set --------------------------------------------- */

/* The profiles of every set's policy, compiled together into one blob. */
static const char *const set_profiles[] = { "allow", "send_deny",
					    "net_dgram_deny", NULL };

static void set_profile_name(char *buf, size_t size, const char *tmpl,
			     const char *set)
{
	snprintf(buf, size, AA_TEST_PREFIX "abi_%s_%s", tmpl, set);
}

/*
 * Compiles the policy of pinned set @set (every profile of set_profiles)
 * in one parser run, against abi/SET as both compile and kernel features
 * (-M), into @p->blob; once per boot, the blob is cached. Returns 0,
 * -ENOEXEC when the parser refused (its messages are in @p->log), -ENOENT
 * when the parser or a file is missing (AA_MISSING names it), or -errno.
 */
static int set_build(struct aa_policy *p, const char *set)
{
	char dir[128], feat[PATH_MAX], tmp[PATH_MAX + 16], text[8192];
	char name[128];
	char src[3][PATH_MAX];
	/* One run, one blob holding every profile given. */
	const char *argv[] = { "-Q", "-q",   "-M",   feat,   "-o",
			       tmp,  src[0], src[1], src[2], NULL };
	int i, ret;

	ret = policy_cache_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	if (snprintf(feat, sizeof(feat), "%s/%s", abi_dir(), set) >=
	    (int)sizeof(feat))
		return -ENAMETOOLONG;
	if (access(feat, R_OK))
		return aa_missing_file(feat, -errno);
	snprintf(p->blob, sizeof(p->blob), "%s/abi_set@%s.bin", dir, set);
	snprintf(p->log, sizeof(p->log), "%s/abi_set@%s.log", dir, set);
	if (!access(p->blob, R_OK))
		return 0;
	for (i = 0; set_profiles[i]; i++) {
		set_profile_name(name, sizeof(name), set_profiles[i], set);
		ret = profile_expand(set_profiles[i], name, POLICY_ABI, NULL,
				     text, sizeof(text));
		if (ret)
			return ret;
		snprintf(src[i], sizeof(src[i]), "%s/abi_%s@%s.profile", dir,
			 set_profiles[i], set);
		ret = write_text_file(src[i], text);
		if (ret)
			return ret;
	}
	snprintf(tmp, sizeof(tmp), "%s.%d", p->blob, getpid());
	ret = parser_run(argv, p->log);
	if (ret) {
		unlink(tmp);
		return ret;
	}
	if (rename(tmp, p->blob))
		return -errno;
	return 0;
}

/* ---- fixture --------------------------------------------------------- */

FIXTURE_SETUP(abi)
{
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	ASSERT_LE(0, aa_remove_leftovers());
	ASSERT_LE(0, aa_profile_list(self->before, sizeof(self->before)));
	ASSERT_EQ(0, aa_features_new_from_kernel(&self->kernel))
	{
		TH_LOG("reading the kernel's features: %s", strerror(errno));
	}
	ret = aa_pinned_open(variant->set, &self->pinned);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("pinned feature set %s/%s: %s", abi_dir(), variant->set,
		       strerror(-ret));
	}
}

FIXTURE_TEARDOWN(abi)
{
	char name[128];
	int i;

	/* The set's blob loaded every profile of the set. */
	if (self->policy.loaded) {
		for (i = 0; set_profiles[i]; i++) {
			set_profile_name(name, sizeof(name), set_profiles[i],
					 variant->set);
			EXPECT_EQ(0, aa_profile_remove(name));
		}
		self->policy.loaded = false;
	}
	if (self->kernel)
		aa_features_unref(self->kernel);
	if (self->pinned)
		aa_features_unref(self->pinned);
	/* The test leaves the kernel's policy exactly as it found it. */
	if (self->before[0])
		EXPECT_PROFILES_AS_BEFORE(self->before);
}

/* The unconfined receiver: binds @fd to an abstract name, listens. */
static int receiver_bind(int fd, int type, struct sockaddr_un *sun,
			 socklen_t *len)
{
	/* Collision-free: the test's pid names it. */
	*len = unix_abstract(sun, "lsmconf-abi-%d", getpid());
	if (bind(fd, (void *)sun, *len))
		return -errno;
	if (type != SOCK_DGRAM && listen(fd, 4))
		return -errno;
	return 0;
}

/* Takes what arrived on @fd without waiting for more; reports. */
static void receiver_take(int fd, int type, struct peer_report *r)
{
	int conn = fd, e;

	if (type != SOCK_DGRAM) {
		conn = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		report_op(r, "accept", sys_ret(conn));
		if (conn < 0)
			return;
	}
	e = drain(conn, type, &r->delivered, &r->corrupt);
	report_op(r, "receive", r->delivered ? 0 : e);
	if (conn != fd)
		close(conn);
}

TEST_F_TIMEOUT(abi, precompiled, 30)
{
	struct peer_report pol = { 0 }, sr = { 0 }, rr = { 0 };
	bool dgram = variant->type == SOCK_DGRAM;
	struct sockaddr_un sun;
	struct abi_sender snd;
	/* The columns of every record; judge_report() sets op and outcomes. */
	struct record base = {
		.abi = POLICY_ABI,
		.subject = variant->profile,
		.object = "unconfined",
		.class = variant->type_id,
		.detail = "abstract",
	};
	struct worker w = { 0 };
	struct abi_model m;
	struct abi_plan p;
	int fd, ret;
	socklen_t len;

	model_init(&m, variant, self->kernel, self->pinned);
	base.depends = m.depends;
	plan_make(&p, &m);
	report_complete(&p.pol, ops_policy);
	report_complete(&p.s, dgram ? ops_sender_dgram : ops_sender_stream);
	report_complete(&p.r, dgram ? ops_receiver_dgram : ops_receiver_stream);

	/* The set's policy is compiled once per boot; cached after. */
	set_profile_name(self->policy.name, sizeof(self->policy.name),
			 variant->profile, variant->set);
	ret = set_build(&self->policy, variant->set);
	AA_REQUIRE_BUILT(_metadata, ret);
	/* The parser's verdict (-ENOEXEC: it refused; its log says why). */
	report_op(&pol, "compile", ret);
	if (ret) {
		TH_LOG("compiling %s for %s failed; see %s", variant->profile,
		       variant->set, self->policy.log);
		goto judge;
	}
	ret = aa_policy_load(&self->policy);
	report_op(&pol, "load", ret);
	if (ret)
		goto judge;

	fd = socket(AF_UNIX, variant->type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, receiver_bind(fd, variant->type, &sun, &len));
	snd = (struct abi_sender){ variant, self->policy.name, sun, len };
	ASSERT_EQ(0, worker_start(&w, 1, sizeof(sr), sender_serve, &snd));
	ret = worker_run(&w, "s", &sr);
	worker_stop(&w);
	ASSERT_EQ(0, ret);
	/* The sender is done: take what arrived, never wait for more. */
	receiver_take(fd, variant->type, &rr);
	close(fd);
judge:
	judge_report(_metadata, &base, "policy", &p.pol, &pol);
	judge_report(_metadata, &base, "sender", &p.s, &sr);
	judge_report(_metadata, &base, "receiver", &p.r, &rr);
	/* Every allowed message arrived intact, and nothing else did. */
	EXPECT_EQ(0, rr.corrupt);
	EXPECT_EQ(p.delivered, rr.delivered);
}

LSM_HARNESS_MAIN
