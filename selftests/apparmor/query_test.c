// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor's policy queries (issue 40): what the .access file
 * of apparmorfs answers when a task asks what a label allows on a path,
 * as user space does it (libapparmor's aa_query_file_path(), D-Bus
 * brokers): one write of "label\0LABEL\0" and the class byte and the
 * path, one read of "allow 0x... deny 0x... audit 0x... quiet 0x...".
 * The labels are loaded once and never entered (profiles/query.profile);
 * each query runs in a child of its own, as root or as nobody.
 *
 * The model (query_expect(); security/apparmor/apparmorfs.c, query_label
 * and profile_query_cb; policy_compat.c, map_old_perms):
 *
 *   letters  What a rule's letters grant of the bits judged here: r
 *            read, w write and append (the parser gives w append), a
 *            append, k lock, l link, m executable mmap. A deny rule
 *            takes its letters away. The other bits (open, getattr and
 *            the rest) are not judged: how a letter maps to them
 *            depends on the policy format the parser writes.
 *   owner    An owner rule counts only when the querier's fsuid owns
 *            the object (aa_lookup_condperms with a zero uid): a root
 *            querier gets it, nobody does not.
 *   stack    Every profile of the label must grant a bit
 *            (aa_perms_accum_raw); an unconfined label answers every
 *            bit (allperms, profile_query_cb returns before the rules).
 *   audit    The audit mask holds an audit rule's bits that are
 *            allowed (aa_perms_accum_raw): read on the audit path only.
 *   modes    The answer is the rules': a complain profile answers as
 *            the same rules in enforce mode (aa_apply_modes_to_perms
 *            changes neither allow nor audit).
 *   class    A class the kernel advertises (features/dbus) is mediated
 *            by every profile, even one without a rule of it: the
 *            parser writes the class's start state (RULE_MEDIATES), so a
 *            dbus query of a confined label allows nothing. Where the
 *            kernel does not advertise it, no profile mediates it and
 *            the query leaves allperms: every bit. Unconfined: every
 *            bit.
 *   exists   A label is found, not made (aa_label_parse with create
 *            false): a stack is queried while a task holds it, and one
 *            no task holds is -ENOENT.
 */

#define _GNU_SOURCE

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define QDIR "/tmp/lsmconf_q/"
#define AA_CLASS_FILE 2
#define AA_CLASS_DBUS 32
/* A stack of two loaded profiles that no task ever enters. */
#define UNHELD_STACK \
	AA_TEST_PREFIX "query_read_all//&" AA_TEST_PREFIX "query_complain"

/* The bits judged (security/apparmor/include/perms.h). */
enum bit { B_READ, B_WRITE, B_APPEND, B_LOCK, B_LINK, B_MMAP, NBITS };

static const struct {
	const char *name;
	uint32_t mask;
} bits[NBITS] = {
	[B_READ] = { "read", 0x4 },	[B_WRITE] = { "write", 0x2 },
	[B_APPEND] = { "append", 0x8 }, [B_LOCK] = { "lock", 0x8000 },
	[B_LINK] = { "link", 0x40000 }, [B_MMAP] = { "mmap", 0x10000 },
};

#define L(b) (1u << (b))
#define W_BITS (L(B_WRITE) | L(B_APPEND))

/* The paths, each named after its rule in query.profile. */
static const struct qpath {
	const char *name;
	unsigned int grants; /* the bits its rules grant */
	bool owner, audit;
} paths[] = {
	{ "r", L(B_READ) },
	{ "w", W_BITS },
	{ "a", L(B_APPEND) },
	{ "rwk", L(B_READ) | W_BITS | L(B_LOCK) },
	{ "deny_w", L(B_READ) }, /* rw, then deny w */
	{ "owner", L(B_READ), true },
	{ "audit", L(B_READ), false, true },
	{ "rl", L(B_READ) | L(B_LINK) },
	{ "rm", L(B_READ) | L(B_MMAP) },
	{ "none", 0 },
};

#define NPATHS ARRAY_SIZE(paths)

/* The profiles' kinds: the rules above, or read on every path. */
enum kind { K_RULES, K_READ_ALL };

FIXTURE(query)
{
	pid_t holder; /* a task in the stack, while the case runs */
	int hold; /* its pipe: closed, it exits */
};

FIXTURE_VARIANT(query)
{
	const char *label; /* the queried label, its tags as loaded */
	int n; /* profiles in it: 0 is unconfined */
	enum kind k[2];
	bool nobody; /* the querier */
};

/* clang-format off */
/* every bit of every path */
FIXTURE_VARIANT_ADD(query, unconfined) { .label = "unconfined" };
/* the rules, owner's read included */
FIXTURE_VARIANT_ADD(query, rules) {
	.label = AA_TEST_PREFIX "query", .n = 1, .k = { K_RULES } };
/* the rules but owner's read */
FIXTURE_VARIANT_ADD(query, rules_by_nobody) {
	.label = AA_TEST_PREFIX "query", .n = 1, .k = { K_RULES },
	.nobody = true };
/* as rules: the mode is not the answer's */
FIXTURE_VARIANT_ADD(query, complain) {
	.label = AA_TEST_PREFIX "query_complain", .n = 1, .k = { K_RULES } };
/* read on every path */
FIXTURE_VARIANT_ADD(query, read_all) {
	.label = AA_TEST_PREFIX "query_read_all", .n = 1,
	.k = { K_READ_ALL } };
/* the rules' read only */
FIXTURE_VARIANT_ADD(query, rules_stack_read_all) {
	.label = AA_TEST_PREFIX "query//&" AA_TEST_PREFIX "query_read_all",
	.n = 2, .k = { K_RULES, K_READ_ALL } };
/* clang-format on */

/* What profile kind @k grants on @p, for a querier owning it or not. */
static unsigned int kind_grants(enum kind k, const struct qpath *p, bool owner)
{
	if (k == K_READ_ALL)
		return L(B_READ);
	return p->owner && !owner ? 0 : p->grants;
}

/* The bits the label allows on @p (every profile's; unconfined all). */
static unsigned int query_allows(const FIXTURE_VARIANT(query) * v,
				 const struct qpath *p)
{
	unsigned int allow = L(NBITS) - 1;
	int i;

	for (i = 0; i < v->n; i++)
		allow &= kind_grants(v->k[i], p, !v->nobody);
	return allow;
}

/* The audit mask's read: an audit rule's bit, allowed by the label. */
static bool query_audits(const FIXTURE_VARIANT(query) * v,
			 const struct qpath *p)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (v->k[i] == K_RULES && p->audit)
			return query_allows(v, p) & L(B_READ);
	return false;
}

struct answer {
	uint32_t allow, deny, audit, quiet;
};

/*
 * One query of .access: "label\0@label\0" then @class and @what. 0 and
 * the answer, or -errno (-EBADMSG: an answer not in its format).
 */
static int query_label(const char *label, char class, const char *what,
		       struct answer *a)
{
	char buf[512], text[256];
	size_t len = 0;
	ssize_t n;
	int fd, ret = 0;

	len += snprintf(buf, sizeof(buf), "label") + 1;
	len += snprintf(buf + len, sizeof(buf) - len, "%s", label) + 1;
	buf[len++] = class;
	len += snprintf(buf + len, sizeof(buf) - len, "%s", what);
	fd = open(AA_FS "/.access", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n >= 0)
		n = read(fd, text, sizeof(text) - 1);
	if (n < 0)
		ret = -errno;
	close(fd);
	if (ret)
		return ret;
	text[n] = '\0';
	if (sscanf(text, "allow 0x%x\ndeny 0x%x\naudit 0x%x\nquiet 0x%x",
		   &a->allow, &a->deny, &a->audit, &a->quiet) != 4)
		return -EBADMSG;
	return 0;
}

struct query_case {
	const FIXTURE_VARIANT(query) * v;
	char class;
	const char *what;
	const char *label; /* NULL: the variant's */
};

struct query_report {
	int setup, result;
	struct answer a;
};

/* The child (child_run()): the querier's identity, then the query. */
static void query_child(void *arg, void *reply)
{
	const struct query_case *k = arg;
	struct query_report *r = reply;

	r->result = NOT_RUN;
	r->setup = 0;
	if (k->v->nobody)
		r->setup = become_user(NOBODY, NOBODY);
	if (!r->setup)
		r->result = query_label(k->label ?: k->v->label, k->class,
					k->what, &r->a);
}

/* A bit of the answer's mask as a decision: allowed or EACCES. */
static int bit_outcome(const struct query_report *r, uint32_t mask,
		       uint32_t bit)
{
	if (r->result)
		return r->result;
	return mask & bit ? 0 : -EACCES;
}

/*
 * A child that enters @label and stays until @hold's write end closes:
 * its pid, or -errno. It says it is in with one byte on its ready pipe.
 */
static pid_t hold_label(const char *label, int *hold)
{
	int ready[2], h[2], ret;
	char b = 0;
	pid_t pid;

	if (pipe2(ready, O_CLOEXEC))
		return -errno;
	if (pipe2(h, O_CLOEXEC)) {
		ret = -errno;
		close(ready[0]);
		close(ready[1]);
		return ret;
	}
	pid = fork();
	if (pid == 0) {
		close(ready[0]);
		close(h[1]);
		if (aa_change_profile(label) || write(ready[1], &b, 1) != 1)
			_exit(1);
		_exit(read(h[0], &b, 1) < 0);
	}
	ret = pid < 0 ? -errno : pipe_read(ready[0], &b, 1, PEER_WAIT_MS);
	close(ready[0]);
	close(ready[1]);
	close(h[0]);
	if (ret) {
		close(h[1]);
		if (pid > 0)
			waitpid(pid, NULL, 0);
		return ret;
	}
	*hold = h[1];
	return pid;
}

FIXTURE_SETUP(query)
{
	struct aa_policy p;
	int ret;

	self->holder = 0;
	REQUIRE_APPARMOR(_metadata, true);
	/* Unconfined too: its unheld stack names loaded profiles. */
	ret = aa_policy_share(_metadata, &p, "query", ABI, NULL, "query", NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	if (variant->n < 2)
		return;
	self->holder = hold_label(variant->label, &self->hold);
	ASSERT_LT(0, self->holder)
	{
		TH_LOG("no task holds %s: %s", variant->label,
		       strerror(-self->holder));
	}
}

FIXTURE_TEARDOWN(query)
{
	if (self->holder > 0) {
		close(self->hold);
		EXPECT_EQ(self->holder, waitpid(self->holder, NULL, 0));
	}
}

TEST_F_TIMEOUT(query, answers, 60)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->label,
		.detail = variant->nobody ? "nobody" : "root",
		.depends = "-",
	};
	char path[128], op[96];
	struct query_report r;
	size_t i;
	int b;

	for (i = 0; i < NPATHS; i++) {
		const struct qpath *p = &paths[i];
		struct query_case k = { variant, AA_CLASS_FILE, path };

		snprintf(path, sizeof(path), QDIR "%s", p->name);
		ASSERT_EQ(0, child_run(query_child, &k, &r, sizeof(r)));
		ASSERT_EQ(0, r.setup);
		rec.object = p->name;
		rec.class = "file";
		rec.op = op;
		for (b = 0; b < NBITS; b++) {
			snprintf(op, sizeof(op), "%s.%s", p->name,
				 bits[b].name);
			rec.expected =
				query_allows(variant, p) & L(b) ? 0 : -EACCES;
			rec.observed = bit_outcome(&r, r.a.allow, bits[b].mask);
			JUDGE(&rec);
		}
		snprintf(op, sizeof(op), "%s.audit.read", p->name);
		rec.expected = query_audits(variant, p) ? 0 : -EACCES;
		rec.observed = bit_outcome(&r, r.a.audit, bits[B_READ].mask);
		JUDGE(&rec);
	}
	/* A stack no task holds: not found, so no answer. */
	{
		struct query_case k = { variant, AA_CLASS_FILE, QDIR "r" };
		k.label = UNHELD_STACK;
		ASSERT_EQ(0, child_run(query_child, &k, &r, sizeof(r)));
		ASSERT_EQ(0, r.setup);
		rec.object = "r";
		rec.class = "file";
		rec.op = "unheld_stack";
		rec.expected = -ENOENT;
		rec.observed = r.result;
		JUDGE(&rec);
	}
	/* A class with no rule: mediated where the kernel advertises it. */
	{
		struct query_case k = { variant, AA_CLASS_DBUS, "lsmconf" };
		int dbus = aa_feature("dbus");

		ASSERT_EQ(0, child_run(query_child, &k, &r, sizeof(r)));
		ASSERT_EQ(0, r.setup);
		ASSERT_LE(0, dbus);
		rec.object = "-";
		rec.class = "dbus";
		rec.depends = dbus ? "dbus=yes" : "dbus=no";
		for (b = 0; b < NBITS; b++) {
			snprintf(op, sizeof(op), "dbus.%s", bits[b].name);
			rec.op = op;
			rec.expected = variant->n && dbus == 1 ? -EACCES : 0;
			rec.observed = bit_outcome(&r, r.a.allow, bits[b].mask);
			JUDGE(&rec);
		}
	}
}

AA_HARNESS_MAIN
