// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor's fine-grained AF_UNIX rule forms (ABI 5.0): a peer
 * label (exact, glob, stacked peer), a peer address (abstract names, and
 * the file rules that stand for pathname peers), a local address on bind,
 * listen and connect, and the type= condition.
 *
 * Each rule profile grants unconditionally every unix permission but the
 * one its rule form grants under a condition, so that rule alone decides
 * the case. Each form has cases that must match, that must not, and near
 * misses (a name one byte shorter or longer, a stacked peer with one
 * component unnamed). Every operation's outcome is compared with the one
 * model_expect() computes and written as a decision record.
 */

#define _GNU_SOURCE
#include <fnmatch.h>
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/worker.h"
#include "harness_main.h"
#include "peer.h"

#define ABI "5.0"
/* Pathname sockets: the file rules of the F_PATH profiles name this. */
#define FS_DIR "/tmp/lsmconf-rules-fs"
/* Every case's receiver binds here unless the case is about its address. */
#define RADDR "@lsmconf-rules-r"

/* Which fine-grained rule form a profile holds. */
enum form {
	F_LABEL, /* unix (send) peer=(label=P): the sender's profile */
	F_PEER_ADDR, /* unix (send) peer=(addr=@P): the sender's profile */
	F_PATH, /* P w (a file rule): the sender's, pathname peers */
	F_BIND, /* unix (bind) addr=@P: the receiver's profile */
	F_LISTEN, /* unix (listen) addr=@P: the receiver's profile */
	F_CONNECT, /* unix (connect) addr=@P: the sender's own address */
	F_TYPE, /* unix (connect, send) type=T: the sender's profile */
};

/*
 * A profile under test: lsmconf_t_rules_<id>. Its text is written by
 * rule_text() from these fields and the model reads the same fields.
 */
struct rule_profile {
	const char *id;
	enum form form;
	const char *pat; /* the condition's pattern */
	const char *pat2; /* a second rule of the same form, or NULL */
	int type; /* F_TYPE: the type= condition */
};

/* A label a peer enters: change to lsmconf_t_rules_<change>, then stack. */
struct rules_label {
	const char *id;
	const char *change;
	const char *stack;
	/* The profile under test itself (bind and listen forms). */
	bool subject;
};

/* clang-format off */
static const struct rules_label R_unconfined = { .id = "unconfined" };
static const struct rules_label R_peer_a = { .id = "peer_a", .change = "peer_a" };
static const struct rules_label R_peer_b = { .id = "peer_b", .change = "peer_b" };
/* Near misses of lsmconf_t_rules_peer_a: one byte longer, one shorter. */
static const struct rules_label R_peer_ab = { .id = "peer_ab", .change = "peer_ab" };
static const struct rules_label R_peer_ = { .id = "peer_", .change = "peer_" };
/* And of the glob lsmconf_t_rules_peer_*: the '_' before '*' is missing. */
static const struct rules_label R_peer = { .id = "peer", .change = "peer" };
static const struct rules_label R_stack_ab = {
	.id = "peer_a//&peer_b", .change = "peer_a", .stack = "peer_b",
};
static const struct rules_label R_stack_a_peer = {
	.id = "peer_a//&peer", .change = "peer_a", .stack = "peer",
};
static const struct rules_label R_subject = { .id = "subject", .subject = true };

#define PEER "lsmconf_t_rules_peer"
static const struct rule_profile P_label_exact = {
	.id = "label_exact", .form = F_LABEL, .pat = PEER "_a",
};
static const struct rule_profile P_label_exact_b = {
	.id = "label_exact_b", .form = F_LABEL, .pat = PEER "_b",
};
static const struct rule_profile P_label_glob = {
	.id = "label_glob", .form = F_LABEL, .pat = PEER "_*",
};
static const struct rule_profile P_label_both = {
	.id = "label_both", .form = F_LABEL, .pat = PEER "_a", .pat2 = PEER "_b",
};
static const struct rule_profile P_paddr_exact = {
	.id = "paddr_exact", .form = F_PEER_ADDR, .pat = "@lsmconf-rules-a",
};
static const struct rule_profile P_paddr_glob = {
	.id = "paddr_glob", .form = F_PEER_ADDR, .pat = "@lsmconf-rules-*",
};
static const struct rule_profile P_path_exact = {
	.id = "path_exact", .form = F_PATH, .pat = FS_DIR "/sock-a",
};
static const struct rule_profile P_path_glob = {
	.id = "path_glob", .form = F_PATH, .pat = FS_DIR "/sock-*",
};
static const struct rule_profile P_bind_exact = {
	.id = "bind_exact", .form = F_BIND, .pat = "@lsmconf-rules-l",
};
static const struct rule_profile P_bind_glob = {
	.id = "bind_glob", .form = F_BIND, .pat = "@lsmconf-rules-l*",
};
static const struct rule_profile P_listen_exact = {
	.id = "listen_exact", .form = F_LISTEN, .pat = "@lsmconf-rules-l",
};
static const struct rule_profile P_connect_exact = {
	.id = "connect_exact", .form = F_CONNECT, .pat = "@lsmconf-rules-c",
};
static const struct rule_profile P_type_stream = {
	.id = "type_stream", .form = F_TYPE, .type = SOCK_STREAM,
};
static const struct rule_profile P_type_dgram = {
	.id = "type_dgram", .form = F_TYPE, .type = SOCK_DGRAM,
};
static const struct rule_profile P_type_seqpacket = {
	.id = "type_seqpacket", .form = F_TYPE, .type = SOCK_SEQPACKET,
};
/* clang-format on */

static const char *type_name(int type)
{
	return type == SOCK_DGRAM  ? "dgram" :
	       type == SOCK_STREAM ? "stream" :
				     "seqpacket";
}

/* The unconditional unix permissions: all of them but those in @but. */
static void unix_all_but(char *out, size_t size, const char *but)
{
	static const char *const all[] = {
		"create",   "getattr", "setattr", "getopt", "setopt",
		"shutdown", "bind",    "listen",  "accept", "connect",
		"send",	    "receive", NULL,
	};
	size_t len = snprintf(out, size, "unix (");
	int i;

	for (i = 0; all[i]; i++)
		if (!strstr(but, all[i]))
			len += snprintf(out + len, size - len, "%s%s",
					len > 6 ? ", " : "", all[i]);
	snprintf(out + len, size - len, "),");
}

/* The permission a rule form grants under its condition. */
static const char *form_perm(enum form form)
{
	switch (form) {
	case F_BIND:
		return "bind";
	case F_LISTEN:
		return "listen";
	case F_CONNECT:
		return "connect";
	default:
		return "send";
	}
}

/* Writes the @RULES@ of profile @p (see profiles/rules.profile). */
static void rule_text(const struct rule_profile *p, char *out, size_t size)
{
	const char *perm = form_perm(p->form);
	char base[256];
	size_t len;
	int i;

	if (p->form == F_PATH) {
		/*
		 * Every unix permission: a pathname peer is no unix rule's
		 * business, only its path's file rule (write, to send) is.
		 * /proc for reading the task's own context.
		 */
		snprintf(out, size, "unix,\n  /proc/** r,\n  %s w,", p->pat);
		return;
	}
	if (p->form == F_TYPE) {
		unix_all_but(base, sizeof(base), "connect send");
		snprintf(out, size,
			 "file,\n  %s\n  unix (connect, send) type=%s,", base,
			 type_name(p->type));
		return;
	}
	unix_all_but(base, sizeof(base), perm);
	len = snprintf(out, size, "file,\n  %s", base);
	for (i = 0; i < 2; i++) {
		const char *pat = i ? p->pat2 : p->pat;

		if (!pat)
			continue;
		if (p->form == F_LABEL)
			len += snprintf(out + len, size - len,
					"\n  unix (%s) peer=(label=%s),", perm,
					pat);
		else if (p->form == F_PEER_ADDR)
			len += snprintf(out + len, size - len,
					"\n  unix (%s) peer=(addr=%s),", perm,
					pat);
		else
			len += snprintf(out + len, size - len,
					"\n  unix (%s) addr=%s,", perm, pat);
	}
}

/* Every profile of the table, compiled together at the first case. */
static const struct rule_profile *const all_profiles[] = {
	&P_label_exact, &P_label_exact_b, &P_label_glob,     &P_label_both,
	&P_paddr_exact, &P_paddr_glob,	  &P_path_exact,     &P_path_glob,
	&P_bind_exact,	&P_bind_glob,	  &P_listen_exact,   &P_connect_exact,
	&P_type_stream, &P_type_dgram,	  &P_type_seqpacket, NULL,
};
static const char *const all_peers[] = {
	"peer_a", "peer_b", "peer_ab", "peer_", "peer", NULL,
};

/*
 * One parser run for every profile (its start-up costs about a second
 * under TCG); a profile it left out is compiled on its own by load().
 */
static int build_all(void)
{
	static char rules[ARRAY_SIZE(all_profiles)][1024];
	static char tags[ARRAY_SIZE(all_profiles) + ARRAY_SIZE(all_peers)][64];
	struct aa_policy_src
		src[ARRAY_SIZE(all_profiles) + ARRAY_SIZE(all_peers)];
	int i, n = 0;

	for (i = 0; all_profiles[i]; i++, n++) {
		rule_text(all_profiles[i], rules[i], sizeof(rules[i]));
		snprintf(tags[n], sizeof(tags[n]), "rules_%s",
			 all_profiles[i]->id);
		src[n] = (struct aa_policy_src){ "rules", rules[i], tags[n] };
	}
	for (i = 0; all_peers[i]; i++, n++) {
		snprintf(tags[n], sizeof(tags[n]), "rules_%s", all_peers[i]);
		src[n] = (struct aa_policy_src){ "rules_peer", NULL, tags[n] };
	}
	return aa_policy_build_all(ABI, src, n);
}

FIXTURE(unix_rules)
{
	struct aa_policy policy[4];
	int n_policy;
	bool k9; /* kernel advertises network_v9/af_unix */
};

FIXTURE_VARIANT(unix_rules)
{
	const struct rule_profile *prof;
	int type;
	const char *type_id;
	/* The receiver's label; R_subject: the profile under test. */
	const struct rules_label *receiver;
	const char *raddr; /* "@abstract" or "/path" */
	const char *saddr; /* the sender binds there first, or NULL */
};

#define TYPE_dgram SOCK_DGRAM
#define TYPE_stream SOCK_STREAM
#define TYPE_seqpacket SOCK_SEQPACKET

/*
 * The cases, one block each. The sender is confined by .prof unless
 * .receiver is R_subject, in which case the receiver is, and the sender is
 * unconfined.
 */
/* clang-format off */
/* peer=(label=...): exact, glob, and stacked peers. */
FIXTURE_VARIANT_ADD(unix_rules, label_exact__match) {
	.prof = &P_label_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_peer_a,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_exact__unconfined) {
	.prof = &P_label_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_exact__other_peer) {
	.prof = &P_label_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_peer_b,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_exact__one_longer) {
	.prof = &P_label_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_peer_ab,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_exact__one_shorter) {
	.prof = &P_label_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_peer_,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_glob__match) {
	.prof = &P_label_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_peer_a,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_glob__empty_tail) {
	.prof = &P_label_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_peer_,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_glob__no_underscore) {
	.prof = &P_label_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_peer,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_glob__unconfined) {
	.prof = &P_label_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_exact__stack_first_named) {
	.prof = &P_label_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_stack_ab,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_exact_b__stack_second_named) {
	.prof = &P_label_exact_b,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_stack_ab,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_both__stack_each_named) {
	.prof = &P_label_both,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_stack_ab,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_glob__stack_both_match) {
	.prof = &P_label_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_stack_ab,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_glob__stack_one_misses) {
	.prof = &P_label_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_stack_a_peer,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_exact__stream_match) {
	.prof = &P_label_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_peer_a,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, label_exact__stream_stack) {
	.prof = &P_label_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_stack_ab,
	.raddr = RADDR,
	.saddr = NULL,
};
/* peer=(addr=@...): abstract names; the receiver is unconfined. */
FIXTURE_VARIANT_ADD(unix_rules, paddr_exact__match) {
	.prof = &P_paddr_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules-a",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_exact__one_longer) {
	.prof = &P_paddr_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules-ab",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_exact__one_shorter) {
	.prof = &P_paddr_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules-",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_exact__other) {
	.prof = &P_paddr_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-other",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_exact__pathname) {
	.prof = &P_paddr_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = FS_DIR "/lsmconf-rules-a",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_glob__match) {
	.prof = &P_paddr_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules-a",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_glob__empty_tail) {
	.prof = &P_paddr_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules-",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_glob__one_shorter) {
	.prof = &P_paddr_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_exact__stream_match) {
	.prof = &P_paddr_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules-a",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, paddr_exact__stream_one_longer) {
	.prof = &P_paddr_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules-ab",
	.saddr = NULL,
};
/* Pathname peers: file rules on the path (peer=(addr=/...) is refused). */
FIXTURE_VARIANT_ADD(unix_rules, path_exact__match) {
	.prof = &P_path_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = FS_DIR "/sock-a",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, path_exact__one_longer) {
	.prof = &P_path_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = FS_DIR "/sock-ab",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, path_exact__one_shorter) {
	.prof = &P_path_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = FS_DIR "/sock-",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, path_exact__abstract) {
	.prof = &P_path_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = "@lsmconf-rules-a",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, path_glob__match) {
	.prof = &P_path_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = FS_DIR "/sock-b",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, path_glob__other) {
	.prof = &P_path_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = FS_DIR "/sack-b",
	.saddr = NULL,
};
/* addr=@... on bind: the receiver's own profile. */
FIXTURE_VARIANT_ADD(unix_rules, bind_exact__match) {
	.prof = &P_bind_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-l",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, bind_exact__one_longer) {
	.prof = &P_bind_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-la",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, bind_exact__one_shorter) {
	.prof = &P_bind_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, bind_exact__pathname) {
	.prof = &P_bind_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_subject,
	.raddr = FS_DIR "/lsmconf-rules-l",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, bind_glob__match) {
	.prof = &P_bind_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-la",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, bind_glob__other) {
	.prof = &P_bind_glob,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-r",
	.saddr = NULL,
};
/* addr=@... on listen: the receiver's own, bound, address. */
FIXTURE_VARIANT_ADD(unix_rules, listen_exact__match) {
	.prof = &P_listen_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-l",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, listen_exact__one_longer) {
	.prof = &P_listen_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-la",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, listen_exact__one_shorter) {
	.prof = &P_listen_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-",
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, listen_exact__seqpacket_match) {
	.prof = &P_listen_exact,
	.type = TYPE_seqpacket,
	.type_id = "seqpacket",
	.receiver = &R_subject,
	.raddr = "@lsmconf-rules-l",
	.saddr = NULL,
};
/* addr=@... on connect: the connecting socket's own address. */
FIXTURE_VARIANT_ADD(unix_rules, connect_exact__match) {
	.prof = &P_connect_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = "@lsmconf-rules-c",
};
FIXTURE_VARIANT_ADD(unix_rules, connect_exact__one_longer) {
	.prof = &P_connect_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = "@lsmconf-rules-cd",
};
FIXTURE_VARIANT_ADD(unix_rules, connect_exact__one_shorter) {
	.prof = &P_connect_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = "@lsmconf-rules-",
};
FIXTURE_VARIANT_ADD(unix_rules, connect_exact__unbound) {
	.prof = &P_connect_exact,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, connect_exact__dgram_unbound) {
	.prof = &P_connect_exact,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
/* type=: each condition against each socket type. */
FIXTURE_VARIANT_ADD(unix_rules, type_stream__stream) {
	.prof = &P_type_stream,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, type_stream__seqpacket) {
	.prof = &P_type_stream,
	.type = TYPE_seqpacket,
	.type_id = "seqpacket",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, type_stream__dgram) {
	.prof = &P_type_stream,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, type_dgram__dgram) {
	.prof = &P_type_dgram,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, type_dgram__stream) {
	.prof = &P_type_dgram,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, type_dgram__seqpacket) {
	.prof = &P_type_dgram,
	.type = TYPE_seqpacket,
	.type_id = "seqpacket",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, type_seqpacket__seqpacket) {
	.prof = &P_type_seqpacket,
	.type = TYPE_seqpacket,
	.type_id = "seqpacket",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, type_seqpacket__stream) {
	.prof = &P_type_seqpacket,
	.type = TYPE_stream,
	.type_id = "stream",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
FIXTURE_VARIANT_ADD(unix_rules, type_seqpacket__dgram) {
	.prof = &P_type_seqpacket,
	.type = TYPE_dgram,
	.type_id = "dgram",
	.receiver = &R_unconfined,
	.raddr = RADDR,
	.saddr = NULL,
};
/* clang-format on */

/* ---- the expectation model ------------------------------------------- */

/*
 * fine: the kernel advertises network_v9/af_unix; the 5.0 profile's unix
 * rules are enforced with their conditions (security/apparmor/af_unix.c).
 * coarse: it does not. The parser then turns each unix allow rule into a
 * network rule of the same permissions for AF_UNIX, keeping its type= but
 * dropping its address and peer conditions (apparmor_parser af_unix.cc,
 * unix_rule::downgrade_rule()); each socket call is checked against the
 * caller's own label only (security/apparmor/net.c, aa_sk_perm()).
 */

static int deny_if(bool denied)
{
	return denied ? -EACCES : 0;
}

/*
 * A pattern against a name. Globs: '*' matches any run of characters but
 * '/' (the parser's convert_aaregex_to_pcre(), as fnmatch(FNM_PATHNAME)).
 * The kernel compares the whole name, its exact length: sun_path for
 * unix_addr_len(addrlen) bytes (af_unix.c, match_addr()), the profile's
 * hname up to its NUL (match_label()), then asks for the state's perms.
 */
static bool pat_match(const char *pat, const char *name)
{
	return name && !fnmatch(pat, name, FNM_PATHNAME);
}

/*
 * A peer label matches only if every profile of it does: af_unix.c,
 * profile_peer_perm() matches the label of each profile of the peer's
 * label in scope on its own (fn_for_each_in_scope() -> match_label()) and
 * keeps the last error; each profile may be matched by either rule.
 */
static bool label_matches(const struct rule_profile *p,
			  const struct rules_label *l)
{
	const char *parts[2] = { l->change, l->stack };
	char name[128];
	int i;

	if (!l->change) /* unconfined: its hname is "unconfined" */
		return pat_match(p->pat, "unconfined") ||
		       (p->pat2 && pat_match(p->pat2, "unconfined"));
	for (i = 0; i < 2; i++) {
		if (!parts[i])
			continue;
		snprintf(name, sizeof(name), AA_TEST_PREFIX "rules_%s",
			 parts[i]);
		if (!pat_match(p->pat, name) &&
		    !(p->pat2 && pat_match(p->pat2, name)))
			return false;
	}
	return true;
}

/* An abstract address ("@name", as rules write it), or NULL for a path. */
static const char *abstract_name(const char *addr)
{
	return addr && addr[0] == '@' ? addr : NULL;
}

/* The outcomes the model expects, one per operation. */
struct expect {
	int rsocket, rbind, rlisten;
	int ssocket, sbind, sxfer; /* sxfer: sendto (dgram) or connect */
	int rlast; /* receive (dgram) or accept */
};

static void model_expect(struct expect *e,
			 const FIXTURE_VARIANT(unix_rules) * v, bool k9)
{
	const struct rule_profile *p = v->prof;
	bool fine = k9, dgram = v->type == SOCK_DGRAM;
	bool bound, listening = false, reached;
	bool rpath = v->raddr[0] == '/';
	bool granted;

	memset(e, 0, sizeof(*e));
	/* Every profile grants create unconditionally. */
	e->rsocket = 0;
	e->ssocket = 0;

	/*
	 * bind: af_unix.c, profile_bind_perm(): a pathname bind is left to
	 * the file hooks (mknod, granted by "file,"); an abstract one is
	 * matched with its address (match_to_local()). Coarse: the
	 * downgraded rule grants bind for every address.
	 */
	if (p->form == F_BIND && v->receiver->subject && fine && !rpath)
		e->rbind = deny_if(!pat_match(p->pat, v->raddr));
	bound = !e->rbind;

	/*
	 * listen: af_unix.c, profile_listen_perm() matches the socket's own
	 * bound address (match_to_cmd() -> match_to_sk()) before AF_UNIX
	 * looks at it (security_socket_listen() comes first).
	 */
	if (!dgram) {
		if (p->form == F_LISTEN && fine)
			e->rlisten = deny_if(!pat_match(p->pat, v->raddr));
		if (!e->rlisten && !bound)
			e->rlisten = -EINVAL;
		listening = !e->rlisten;
	}

	/* The sender's own bind (F_CONNECT): granted without condition. */
	e->sbind = v->saddr ? 0 : NOT_RUN;

	/* Nothing bound, or not listening: AF_UNIX refuses the address. */
	reached = dgram ? bound : listening;
	if (!reached) {
		e->sxfer = -ECONNREFUSED;
	} else {
		switch (p->form) {
		case F_LABEL:
			/*
			 * Only the send permission is conditional. A
			 * datagram (apparmor_unix_may_send()) asks send; a
			 * stream connect (unix_connect_perm()) asks connect,
			 * send and receive at once: send decides both.
			 */
			granted = !fine || label_matches(p, v->receiver);
			break;
		case F_PEER_ADDR:
			/*
			 * match_to_peer() matches the peer's sun_path, but
			 * profile_peer_perm() hands a pathname peer to
			 * unix_fs_perm() instead: no unix rule applies, and
			 * "file," grants it.
			 */
			granted = !fine || rpath ||
				  pat_match(p->pat, abstract_name(v->raddr));
			break;
		case F_PATH:
			/*
			 * A pathname peer: unix_fs_perm() asks the path's
			 * file permission (send = write); an abstract one is
			 * granted by "unix,". Coarse: no file check at all.
			 */
			granted =
				!fine || !rpath || pat_match(p->pat, v->raddr);
			break;
		case F_CONNECT:
			/*
			 * unix_connect_perm() matches the connecting
			 * socket's own address (match_to_peer() ->
			 * match_to_cmd() -> match_to_sk()); an unbound one
			 * is anonymous and matches no @name. A datagram
			 * connect asks send only (apparmor_unix_may_send()),
			 * which is unconditional here. Coarse: connect is
			 * granted.
			 */
			granted = !fine || dgram ||
				  pat_match(p->pat, abstract_name(v->saddr));
			break;
		case F_TYPE:
			/*
			 * The socket type is matched first
			 * (aa_match_to_prot()); the downgraded rule keeps
			 * type=, so both modes decide alike: coarse connect
			 * asks connect, a coarse datagram send asks send.
			 */
			granted = p->type == v->type;
			break;
		default:
			/* bind and listen forms: the sender is unconfined. */
			granted = true;
			break;
		}
		e->sxfer = deny_if(!granted);
	}
	/*
	 * The receiver takes what arrived: a datagram, or a connection
	 * (its accept permission is unconditional in every profile).
	 */
	if (dgram)
		e->rlast = e->sxfer ? -EAGAIN : 0;
	else
		e->rlast = !listening ? -EINVAL : e->sxfer ? -EAGAIN : 0;
}

/* ---- the peers ------------------------------------------------------ */

/* Fills @sun from "@abstract" or "/path"; returns its length. */
static socklen_t make_addr(const char *addr, struct sockaddr_un *sun)
{
	size_t len = strlen(addr);

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	if (addr[0] == '@') {
		/* Abstract: a leading NUL, then exactly the name, no NUL. */
		memcpy(sun->sun_path + 1, addr + 1, len - 1);
		return offsetof(struct sockaddr_un, sun_path) + len;
	}
	memcpy(sun->sun_path, addr, len);
	return offsetof(struct sockaddr_un, sun_path) + len + 1;
}

/*
 * Enters @l (or, for the profile under test, @subject) and proves it by
 * the task's own context. Returns 0 or -errno.
 */
static int rules_enter(const struct rules_label *l, const char *subject,
		       char *context, size_t size)
{
	const char *parts[2] = { l->change, l->stack };
	const char *names[2] = { NULL, NULL };
	char name[2][128];
	int i;

	if (l->subject)
		parts[0] = subject;
	for (i = 0; i < 2; i++) {
		if (!parts[i])
			continue;
		snprintf(name[i], sizeof(name[i]),
			 l->subject && !i ? "%s" : AA_TEST_PREFIX "rules_%s",
			 parts[i]);
		names[i] = name[i];
	}
	return aa_enter_label(names, true, context, size);
}

/* A peer worker's state: the case, and for the receiver its socket. */
struct rules_ctx {
	const FIXTURE_VARIANT(unix_rules) * v;
	const char *subject; /* lsmconf_t_rules_<id> */
	int fd;
	struct peer_report r; /* the receiver's, growing with each request */
};

/* The sender of a datagram connect form connects, then sends. */
static bool dgram_connects(const FIXTURE_VARIANT(unix_rules) * v)
{
	return v->type == SOCK_DGRAM && v->prof->form == F_CONNECT;
}

static const struct rules_label *sender_label(const struct rules_ctx *c)
{
	return c->v->receiver->subject ? &R_unconfined : &R_subject;
}

/* The receiver's first request: enter its label, bind (and listen). */
static void receiver_ready(struct rules_ctx *c)
{
	struct peer_report *r = &c->r;
	struct sockaddr_un sun;
	socklen_t len;

	r->label_err = rules_enter(c->v->receiver, c->subject, r->context,
				   sizeof(r->context));
	if (r->label_err)
		return;
	c->fd = socket(AF_UNIX, c->v->type, 0);
	report_op(r, "socket", sys_ret(c->fd));
	if (c->fd < 0)
		return;
	len = make_addr(c->v->raddr, &sun);
	report_op(r, "bind", sys_ret(bind(c->fd, (void *)&sun, len)));
	if (c->v->type != SOCK_DGRAM)
		report_op(r, "listen", sys_ret(listen(c->fd, 4)));
}

/* Its second, once the sender is done: take what arrived, never wait. */
static void receiver_take(struct rules_ctx *c)
{
	struct peer_report *r = &c->r;

	if (c->v->type == SOCK_DGRAM) {
		drain(c->fd, c->v->type, &r->delivered, &r->corrupt);
		report_op(r, "receive", r->delivered ? 0 : -EAGAIN);
	} else {
		fcntl(c->fd, F_SETFL, O_NONBLOCK);
		report_op(r, "accept",
			  sys_ret(accept4(c->fd, NULL, NULL, SOCK_NONBLOCK)));
	}
}

/* 'b': ready the receiver; 't': take. The reply: its report so far. */
static void receiver_serve(const void *req, void *rep, void *state)
{
	struct rules_ctx *c = state;

	if (*(const char *)req == 'b')
		receiver_ready(c);
	else
		receiver_take(c);
	*(struct peer_report *)rep = c->r;
}

/* The sender's one request: enter, then the variant's calls; its report. */
static void sender_serve(const void *req, void *rep, void *state)
{
	const struct rules_ctx *c = state;
	struct peer_report *r = rep;
	struct sockaddr_un to, self;
	socklen_t tolen, selflen;
	struct payload msg;
	int fd, e;

	(void)req;
	r->label_err = rules_enter(sender_label(c), c->subject, r->context,
				   sizeof(r->context));
	if (r->label_err)
		return;
	fd = socket(AF_UNIX, c->v->type, 0);
	report_op(r, "socket", sys_ret(fd));
	if (fd < 0)
		return;
	if (c->v->saddr) {
		selflen = make_addr(c->v->saddr, &self);
		report_op(r, "bind", sys_ret(bind(fd, (void *)&self, selflen)));
	}
	/* Bounded: a full backlog is EAGAIN after PEER_WAIT_MS. */
	report_op(r, "setsockopt", set_timeouts(fd));
	tolen = make_addr(c->v->raddr, &to);
	payload_make(&msg, 0);
	if (dgram_connects(c->v)) {
		/* A datagram connect, then one send to the connected peer. */
		e = sys_ret(connect(fd, (void *)&to, tolen));
		report_op(r, "connect", e);
		if (!e)
			report_op(r, "send",
				  sys_ret(send(fd, &msg, sizeof(msg),
					       MSG_DONTWAIT)));
	} else if (c->v->type == SOCK_DGRAM) {
		report_op(r, "sendto",
			  sys_ret(sendto(fd, &msg, sizeof(msg), MSG_DONTWAIT,
					 (void *)&to, tolen)));
	} else {
		report_op(r, "connect",
			  sys_ret(connect(fd, (void *)&to, tolen)));
	}
	close(fd);
}

/* ---- fixture -------------------------------------------------------- */

static int load(struct __test_metadata *_metadata,
		FIXTURE_DATA(unix_rules) * self, const char *tmpl,
		const char *rules, const char *id)
{
	struct aa_policy *p = &self->policy[self->n_policy];
	char tag[128];
	int ret;

	snprintf(tag, sizeof(tag), "rules_%s", id);
	ret = aa_policy_share(_metadata, p, tmpl, ABI, rules, tag, NULL);
	if (ret)
		return ret;
	self->n_policy++;
	return 0;
}

static int load_peer(struct __test_metadata *_metadata,
		     FIXTURE_DATA(unix_rules) * self,
		     const struct rules_label *l)
{
	int ret = 0;

	if (l->change)
		ret = load(_metadata, self, "rules_peer", NULL, l->change);
	if (!ret && l->stack)
		ret = load(_metadata, self, "rules_peer", NULL, l->stack);
	return ret;
}

static void rm_fs(void)
{
	static const char *const names[] = {
		"sock-a", "sock-ab",	     "sock-",		"sock-b",
		"sack-b", "lsmconf-rules-a", "lsmconf-rules-l", NULL,
	};
	char path[128];
	int i;

	for (i = 0; names[i]; i++) {
		snprintf(path, sizeof(path), FS_DIR "/%s", names[i]);
		unlink(path);
	}
	rmdir(FS_DIR);
}

FIXTURE_SETUP(unix_rules)
{
	char rules[1024];
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	self->k9 = aa_feature("network_v9/af_unix") == 1;
	rm_fs();
	ASSERT_EQ(0, mkdir(FS_DIR, 0755));

	build_all();
	rule_text(variant->prof, rules, sizeof(rules));
	ret = load(_metadata, self, "rules", rules, variant->prof->id);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, load_peer(_metadata, self, variant->receiver));
}

/*
 * The labels stay loaded for the next cases; the binary removes them at
 * its end and checks the policy is as it found it (harness_main.h).
 */
FIXTURE_TEARDOWN(unix_rules)
{
	rm_fs();
}

/* One decision: recorded, and compared with the model. */
static void judge(struct __test_metadata *_metadata,
		  const FIXTURE_VARIANT(unix_rules) * v, bool k9,
		  const char *op, int want, int seen)
{
	const char *s = v->receiver->subject ? "unconfined" : v->prof->id;
	const char *r = v->receiver->subject ? v->prof->id : v->receiver->id;
	char depends[40];
	struct record rec = {
		.abi = ABI,
		.subject = s,
		.object = r,
		.class = v->type_id,
		.detail = v->raddr,
		.op = op,
		.depends = depends,
		.expected = want,
		.observed = seen,
	};

	snprintf(depends, sizeof(depends), "network_v9/af_unix=%s",
		 k9 ? "yes" : "no");
	JUDGE(&rec);
}

TEST_F_TIMEOUT(unix_rules, decisions, 30)
{
	struct peer_report sr = { 0 }, rr = { 0 }, rready = { 0 };
	struct rules_ctx c = { .v = variant, .fd = -1 };
	struct worker rw = { 0 }, sw = { 0 };
	char subject[128], op[32];
	const char *xfer;
	bool dgram = variant->type == SOCK_DGRAM;
	struct expect e;

	model_expect(&e, variant, self->k9);
	snprintf(subject, sizeof(subject), AA_TEST_PREFIX "rules_%s",
		 variant->prof->id);
	c.subject = subject;

	ASSERT_EQ(0, worker_start(&rw, 1, sizeof(rr), receiver_serve, &c));
	ASSERT_EQ(0, worker_run(&rw, "b", &rready));
	ASSERT_EQ(0, rready.label_err)
	{
		TH_LOG("receiver could not enter %s (context \"%s\")",
		       variant->receiver->id, rready.context);
	}
	ASSERT_EQ(0, worker_start(&sw, 1, sizeof(sr), sender_serve, &c));
	ASSERT_EQ(0, worker_run(&sw, "s", &sr));
	/* The sender is done and gone before the receiver takes. */
	worker_stop(&sw);
	ASSERT_EQ(0, sr.label_err)
	{
		TH_LOG("sender could not enter its label (context \"%s\")",
		       sr.context);
	}
	/*
	 * A receiver whose socket() was denied has nothing to take: its
	 * decisions are all in its first report.
	 */
	if (report_find(&rready, "socket"))
		rr = rready;
	else
		ASSERT_EQ(0, worker_run(&rw, "t", &rr));
	worker_stop(&rw);

	judge(_metadata, variant, self->k9, "receiver.socket", e.rsocket,
	      report_find(&rr, "socket"));
	judge(_metadata, variant, self->k9, "receiver.bind", e.rbind,
	      report_find(&rr, "bind"));
	if (!dgram)
		judge(_metadata, variant, self->k9, "receiver.listen",
		      e.rlisten, report_find(&rr, "listen"));
	judge(_metadata, variant, self->k9, "sender.socket", e.ssocket,
	      report_find(&sr, "socket"));
	if (variant->saddr)
		judge(_metadata, variant, self->k9, "sender.bind", e.sbind,
		      report_find(&sr, "bind"));
	xfer = dgram && !dgram_connects(variant) ? "sendto" : "connect";
	snprintf(op, sizeof(op), "sender.%s", xfer);
	judge(_metadata, variant, self->k9, op, e.sxfer,
	      report_find(&sr, xfer));
	/* A connected datagram's send asks what its connect asked. */
	if (dgram_connects(variant))
		judge(_metadata, variant, self->k9, "sender.send",
		      e.sxfer ? NOT_RUN : 0, report_find(&sr, "send"));
	judge(_metadata, variant, self->k9,
	      dgram ? "receiver.receive" : "receiver.accept", e.rlast,
	      report_find(&rr, dgram ? "receive" : "accept"));
	EXPECT_EQ(0, rr.corrupt);
}

/*
 * The parser refuses a pathname in peer=(addr=...): pathname sockets are
 * mediated by file rules on their path (apparmor_parser af_unix.cc,
 * unix_rule::move_peer_conditionals() accepts only "@..." and "none"),
 * on every kernel, since it is a parse error and not a downgrade.
 */
TEST(pathname_peer_addr_refused)
{
	/* The parser refuses the rule: ENOEXEC (its exit status). */
	struct record rec = {
		.abi = ABI,
		.subject = "paddr_pathname",
		.detail = FS_DIR "/sock-a",
		.op = "parser.compile",
		.expected = -ENOEXEC,
	};
	struct aa_policy p;
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	ret = aa_policy_build(&p, "rules", ABI,
			      "unix (send) peer=(addr=" FS_DIR "/sock-a),",
			      "rules_paddr_pathname");
	AA_REQUIRE_BUILT(_metadata, ret);
	rec.observed = ret;
	JUDGE(&rec);
}

AA_HARNESS_MAIN
