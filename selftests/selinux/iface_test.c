// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux's interfaces (policy part lsmconf-iface.cil, issue #23):
 * - selinuxfs: enforce (read, write, the errno without setenforce), the
 *   access query (the allowed vector, bit by bit, against the model's
 *   rules), the context query (canonical or EINVAL), booleans (what a
 *   reader sees before and after commit_pending_bools, and what the access
 *   query then answers);
 * - /proc/self/attr/{exec,fscreate,keycreate,sockcreate,current}, and
 *   the same through lsm_set_self_attr()/lsm_get_self_attr() (6.8): a
 *   context the policy forbids, an invalid one, a valid one, a reset; what
 *   each reads back; the label of a socket made after sockcreate.
 * Every decision is computed by the model below (each rule names the
 * kernel function that implements it) and written as a record
 * iface_test/FIXTURE.VARIANT.TEST/OP.
 *
 * Outcomes of a read-back: "allow" when the text read is the model's,
 * EBADMSG when it is another (the case's log shows both).
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/lsm_self_attr.h"

#define ABI "selinux-c4"
#define LEVEL "s0"
#define IF_A "lsmconf_if_a_t"
#define IF_B "lsmconf_if_b_t"
#define IF_C "lsmconf_if_c_t"
#define IF_BOOL "lsmconf_if_flag"
#define CTX(type) SEL_USER_ROLE type ":" LEVEL
/* A type no policy part declares. */
#define CTX_UNKNOWN CTX("lsmconf_if_none_t")
/* The unlabeled initial SID's context (sidcontext unlabeled, lsmconf.cil). */
#define CTX_UNLABELED "lsmconf_u:object_r:unlabeled_t:s0"
#define TXT_MAX 256

/*
 * The model's policy: the allow rules of lsmconf-iface.cil (the only rules
 * whose source is lsmconf_if_a_t; nothing else names b or c as a
 * source). @cond: the rule holds only while the boolean IF_BOOL is true
 * (a booleanif block).
 */
static const struct if_rule {
	const char *src, *tgt, *class, *perm;
	bool cond;
} if_rules[] = {
	{ IF_A, IF_A, "process", "setcurrent" },
	/* attr's own capability sets read and one dropped (capget, capset) */
	{ IF_A, IF_A, "process", "getcap" },
	{ IF_A, IF_A, "process", "setcap" },
	{ IF_A, IF_B, "process", "dyntransition" },
	{ IF_A, IF_B, "key", "create" },
	{ IF_A, IF_A, "unix_stream_socket", "create" },
	{ IF_A, IF_A, "unix_stream_socket", "getattr" },
	{ IF_A, IF_A, "unix_stream_socket", "getopt" },
	{ IF_A, IF_B, "unix_stream_socket", "create" },
	{ IF_A, IF_B, "unix_stream_socket", "getattr" },
	{ IF_A, IF_B, "unix_stream_socket", "getopt" },
	{ IF_A, IF_B, "unix_dgram_socket", "create" },
	{ IF_A, IF_B, "unix_dgram_socket", "getattr" },
	{ IF_A, IF_B, "unix_dgram_socket", "getopt" },
	{ IF_A, IF_C, "msgq", "associate", true },
};

/* The model: may @src hold @perm of @class on @tgt (the boolean @flag). */
static bool if_allowed(const char *src, const char *tgt, const char *class,
		       const char *perm, bool flag)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(if_rules); i++) {
		const struct if_rule *r = &if_rules[i];

		if (!strcmp(r->src, src) && !strcmp(r->tgt, tgt) &&
		    !strcmp(r->class, class) && !strcmp(r->perm, perm) &&
		    (!r->cond || flag))
			return true;
	}
	return false;
}

/* 0 when the model's text was read, EBADMSG when another, or -errno. */
static int text_outcome(int ret, const char *got, const char *want)
{
	if (ret < 0)
		return ret;
	return strcmp(got, want) ? -EBADMSG : 0;
}

/* Writes @text (its length, no NUL) to @path in one write: 0 or -errno. */
static int write_once(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, text, len) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

struct in_domain_call {
	const char *type;
	void (*fn)(void *arg, void *res);
	void *arg;
};

/* child_run()'s body: enters the domain (or reports nothing), calls fn. */
static void in_domain_body(void *arg, void *reply)
{
	const struct in_domain_call *c = arg;

	/* The harness runs in kernel_t: no switch. */
	if (strcmp(c->type, "kernel_t") && sel_enter(c->type, LEVEL))
		_exit(2);
	c->fn(c->arg, reply);
}

/*
 * Runs @fn(@arg, @res) in a forked child that first switches to @type with
 * setcon(); @res (a plain struct, zeroed first) comes back over a pipe
 * (child_run()). 0, or -errno when the child could not run or answer.
 */
static int in_domain(const char *type, void (*fn)(void *arg, void *res),
		     void *arg, void *res, size_t size)
{
	struct in_domain_call c = { type, fn, arg };

	return child_run(in_domain_body, &c, res, size);
}

/* ---------------------------------------------------------------- enforce */

/*
 * /sys/fs/selinux/enforce (selinuxfs.c):
 *   sel_read_enforce: "1" or "0", enforcing_enabled().
 *   sel_write_enforce: a value sscanf() cannot read as %d is EINVAL; any
 *     non-zero number is 1; a value equal to the current mode is accepted
 *     with no check at all; a change needs security setenforce from the
 *     writer to the security initial SID (lsmconf_u:object_r:kernel_t):
 *     every type but lsmconf_if_a_t holds it (lsmconf-iface.cil), so a
 *     change from a is EACCES and the mode stays, but only while
 *     enforcing: in permissive mode the AVC grants what it would deny
 *     (avc_denied), so a may switch enforcing back on.
 */
static int enforce_model(const char *type, int current, int value)
{
	if (value == current)
		return 0;
	if (strcmp(type, IF_A))
		return 0;
	return current ? -EACCES : 0;
}

struct enforce_res {
	int err;
};

static void enforce_write_fn(void *arg, void *res)
{
	const char *text = arg;

	((struct enforce_res *)res)->err =
		write_once(SEL_FS "/enforce", text, strlen(text));
}

FIXTURE(enforce) {};

FIXTURE_SETUP(enforce)
{
	SEL_SETUP(4);
}

FIXTURE_TEARDOWN(enforce)
{
	/* Enforcing, whatever a failed step left. */
	EXPECT_EQ(0, sel_set_enforcing(1));
}

static void enforce_judge(struct __test_metadata *_metadata, const char *op,
			  const char *subject, int expected, int observed)
{
	struct record rec = {
		.abi = ABI,
		.subject = subject,
		.object = "kernel_t",
		.class = "security",
		.op = op,
		.depends = "security:setenforce",
		.expected = expected,
		.observed = observed,
	};

	JUDGE(&rec);
}

/* The mode read back: the model's @want or EBADMSG. */
static void enforce_read(struct __test_metadata *_metadata, const char *op,
			 int want)
{
	char got[8];
	int ret = sel_read_attr(SEL_FS "/enforce", got, sizeof(got));

	enforce_judge(_metadata, op, "kernel_t", 0,
		      text_outcome(ret, got, want ? "1" : "0"));
}

TEST_F(enforce, write_read)
{
	static const struct {
		const char *op, *type, *text;
		int value; /* what the text means; -1: not a number */
	} steps[] = {
		{ "kernel.same", "kernel_t", "1", 1 },
		{ "a.same", IF_A, "1", 1 },
		{ "a.change", IF_A, "0", 0 },
		{ "kernel.change", "kernel_t", "0", 0 },
		{ "a.change_back", IF_A, "1", 1 },
		{ "kernel.change_back", "kernel_t", "7", 1 },
		{ "kernel.garbage", "kernel_t", "x", -1 },
	};
	int mode = 1;
	size_t i;
	char op[64];

	enforce_read(_metadata, "read.start", mode);
	for (i = 0; i < ARRAY_SIZE(steps); i++) {
		struct enforce_res res = { 0 };
		int want, ret;

		want = steps[i].value < 0 ? -EINVAL :
					    enforce_model(steps[i].type, mode,
							  steps[i].value);
		ret = in_domain(steps[i].type, enforce_write_fn,
				(void *)steps[i].text, &res, sizeof(res));
		enforce_judge(_metadata, steps[i].op, steps[i].type, want,
			      ret ?: res.err);
		if (!want)
			mode = steps[i].value;
		snprintf(op, sizeof(op), "read.after.%s", steps[i].op);
		enforce_read(_metadata, op, mode);
	}
}

/* ----------------------------------------------------------------- access */

/*
 * /sys/fs/selinux/access (sel_write_access): needs security compute_av
 * (not declared: allowed); "SCON TCON TCLASS" with the class as the
 * policy's number (class/NAME/index); a line sscanf() cannot read, or a
 * context the policy cannot hold, is EINVAL. The answer is "%x %x %x %x %u
 * %x": allowed, decided (always ffffffff), auditallow, auditdeny, seqno,
 * flags, from security_compute_av_user(): the policy's own bits (the bit
 * of a permission is class/NAME/perms/PERM - 1, no mapping to the
 * kernel's, no allow-unknown bits), the union of every allow rule of the
 * pair (context_struct_compute_av) including enabled conditional rules.
 */
static const char *const access_classes[] = { "process", "key",
					      "unix_stream_socket",
					      "unix_dgram_socket", "msgq" };

/* One query: 0 and the allowed vector, or -errno. */
static int access_query(const char *src, const char *tgt, const char *class,
			unsigned int *allowed)
{
	char path[PATH_MAX], text[32], query[TXT_MAX * 3], answer[TXT_MAX];
	unsigned int decided;
	int ret;

	snprintf(path, sizeof(path), SEL_FS "/class/%s/index", class);
	ret = sel_read_attr(path, text, sizeof(text));
	if (ret)
		return ret;
	snprintf(query, sizeof(query), "%s %s %s", src, tgt, text);
	ret = sel_transact(SEL_FS "/access", query, answer, sizeof(answer));
	if (ret)
		return ret;
	if (sscanf(answer, "%x %x", allowed, &decided) != 2 ||
	    decided != 0xffffffff)
		return -EBADMSG;
	return 0;
}

/* The bit of @perm in @class's vector (class/CLASS/perms/PERM), or 0. */
static unsigned int perm_bit(const char *class, const char *perm)
{
	char path[PATH_MAX], text[16];
	int v;

	snprintf(path, sizeof(path), SEL_FS "/class/%s/perms/%s", class, perm);
	if (sel_read_attr(path, text, sizeof(text)) ||
	    sscanf(text, "%d", &v) != 1 || v < 1 || v > 32)
		return 0;
	return 1u << (v - 1);
}

/*
 * Records one decision per permission the policy declares in @class
 * (every entry of class/CLASS/perms): allow when the vector has its bit,
 * EACCES when not, against if_allowed().
 */
static void access_judge_class(struct __test_metadata *_metadata,
			       const char *prefix, const char *src,
			       const char *tgt, const char *class, bool flag)
{
	char path[PATH_MAX], op[TXT_MAX * 2], sctx[TXT_MAX], tctx[TXT_MAX];
	unsigned int allowed = 0;
	struct dirent *de;
	DIR *dir;
	int ret;

	snprintf(sctx, sizeof(sctx), CTX("%s"), src);
	snprintf(tctx, sizeof(tctx), CTX("%s"), tgt);
	ret = access_query(sctx, tctx, class, &allowed);
	snprintf(path, sizeof(path), SEL_FS "/class/%s/perms", class);
	dir = opendir(path);
	ASSERT_NE(NULL, dir);
	while ((de = readdir(dir))) {
		unsigned int bit;
		struct record rec = {
			.abi = ABI,
			.subject = src,
			.object = tgt,
			.class = class,
			.detail = de->d_name,
			.op = op,
			.depends = flag ? IF_BOOL "=1" : "-",
		};

		if (de->d_name[0] == '.')
			continue;
		bit = perm_bit(class, de->d_name);
		snprintf(op, sizeof(op), "%s%s.%s", prefix, class, de->d_name);
		rec.expected = if_allowed(src, tgt, class, de->d_name, flag) ?
				       0 :
				       -EACCES;
		rec.observed = ret	       ? ret :
			       !bit	       ? -EBADMSG :
			       (allowed & bit) ? 0 :
						 -EACCES;
		JUDGE(&rec);
	}
	closedir(dir);
}

FIXTURE(access) {};

FIXTURE_VARIANT(access)
{
	const char *src, *tgt;
};

FIXTURE_VARIANT_ADD(access, a_to_a) {
	.src = IF_A,
	.tgt = IF_A,
};

FIXTURE_VARIANT_ADD(access, a_to_b) {
	.src = IF_A,
	.tgt = IF_B,
};

FIXTURE_VARIANT_ADD(access, a_to_c) {
	.src = IF_A,
	.tgt = IF_C,
};

FIXTURE_VARIANT_ADD(access, b_to_a) {
	.src = IF_B,
	.tgt = IF_A,
};

FIXTURE_SETUP(access)
{
	SEL_SETUP(4);
}

FIXTURE_TEARDOWN(access)
{
}

TEST_F(access, vector)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(access_classes); i++)
		access_judge_class(_metadata, "", variant->src, variant->tgt,
				   access_classes[i], false);
}

/* Queries sel_write_access refuses: EINVAL each. */
TEST_F(access, malformed)
{
	static const struct {
		const char *op, *query;
	} bad[] = {
		{ "two_fields", CTX(IF_A) " " CTX(IF_B) },
		{ "unknown_scon", CTX_UNKNOWN " " CTX(IF_B) " 1" },
		{ "unknown_tcon", CTX(IF_A) " " CTX_UNKNOWN " 1" },
	};
	char answer[TXT_MAX];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct record rec = {
			.abi = ABI,
			.subject = variant->src,
			.object = variant->tgt,
			.class = "access",
			.op = bad[i].op,
			.expected = -EINVAL,
			.observed = sel_transact(SEL_FS "/access", bad[i].query,
						 answer, sizeof(answer)),
		};

		JUDGE(&rec);
	}
}

/* ---------------------------------------------------------------- context */

/*
 * /sys/fs/selinux/context (sel_write_context): security check_context
 * (not declared: allowed), security_context_to_sid(): EINVAL for a type
 * the policy lacks, a missing level (mls_context_to_sid with no default
 * SID), or text that is no context; else the SID printed back
 * (security_sid_to_context), the canonical form.
 */
FIXTURE(context) {};

FIXTURE_VARIANT(context)
{
	const char *text, *canonical; /* canonical NULL: EINVAL */
};

FIXTURE_VARIANT_ADD(context, valid) {
	.text = CTX(IF_B),
	.canonical = CTX(IF_B),
};

FIXTURE_VARIANT_ADD(context, same_range) {
	.text = CTX(IF_B) "-" LEVEL,
	.canonical = CTX(IF_B),
};

FIXTURE_VARIANT_ADD(context, unknown_type) {
	.text = CTX_UNKNOWN,
};

FIXTURE_VARIANT_ADD(context, no_level) {
	.text = SEL_USER_ROLE IF_B,
};

FIXTURE_VARIANT_ADD(context, garbage) {
	.text = "not a context",
};

FIXTURE_SETUP(context)
{
	SEL_SETUP(4);
}

FIXTURE_TEARDOWN(context)
{
}

TEST_F(context, query)
{
	char answer[TXT_MAX];
	int ret = sel_transact(SEL_FS "/context", variant->text, answer,
			       sizeof(answer));
	struct record rec = {
		.abi = ABI,
		.subject = "kernel_t",
		.object = variant->text,
		.class = "context",
		.op = "write",
		.expected = variant->canonical ? 0 : -EINVAL,
		.observed = ret,
	};

	JUDGE(&rec);
	if (!variant->canonical || ret)
		return;
	rec.op = "read_back";
	rec.expected = 0;
	rec.observed = text_outcome(0, answer, variant->canonical);
	if (rec.observed)
		TH_LOG("read back \"%s\", model \"%s\"", answer,
		       variant->canonical);
	JUDGE(&rec);
}

/* ------------------------------------------------------------------ bools */

/*
 * /sys/fs/selinux/booleans/NAME (selinuxfs.c):
 *   sel_read_bool: "CURRENT PENDING", the value rules are evaluated with
 *     (security_get_bool_value) and the one written last.
 *   sel_write_bool: security setbool (not declared: allowed); sets only
 *     the pending value (non-zero is 1).
 *   sel_commit_bools_write: "0" commits nothing; a non-zero value commits
 *     every pending value (security_set_bools), and the conditional rules
 *     follow (evaluate_cond_nodes): the access query then answers with
 *     them.
 * lsmconf_if_flag is false in the policy; the kernel keeps its value
 * across a reload, so the case puts it back.
 */
FIXTURE(bools) {};

FIXTURE_SETUP(bools)
{
	SEL_SETUP(4);
}

FIXTURE_TEARDOWN(bools)
{
	EXPECT_EQ(0, write_text(SEL_FS "/booleans/" IF_BOOL, "0"));
	EXPECT_EQ(0, write_text(SEL_FS "/commit_pending_bools", "1"));
}

static void bools_step(struct __test_metadata *_metadata, const char *step,
		       const char *path, const char *text, int cur, int pend)
{
	char op[64], want[8], got[16], prefix[64];
	struct record rec = {
		.abi = ABI,
		.subject = "kernel_t",
		.object = IF_BOOL,
		.class = "bool",
		.op = op,
	};

	if (path) {
		snprintf(op, sizeof(op), "%s/write", step);
		rec.expected = 0;
		rec.observed = write_text(path, text);
		JUDGE(&rec);
	}
	snprintf(op, sizeof(op), "%s/read", step);
	snprintf(want, sizeof(want), "%d %d", cur, pend);
	rec.observed = text_outcome(
		sel_read_attr(SEL_FS "/booleans/" IF_BOOL, got, sizeof(got)),
		got, want);
	rec.expected = 0;
	if (rec.observed)
		TH_LOG("%s: read \"%s\", model \"%s\"", step, got, want);
	JUDGE(&rec);
	/* What the rules guarded by the boolean decide now. */
	snprintf(prefix, sizeof(prefix), "%s/access.", step);
	access_judge_class(_metadata, prefix, IF_A, IF_C, "msgq", cur);
}

TEST_F(bools, pending_commit)
{
	const char *b = SEL_FS "/booleans/" IF_BOOL;
	const char *commit = SEL_FS "/commit_pending_bools";

	bools_step(_metadata, "default", NULL, NULL, 0, 0);
	bools_step(_metadata, "set", b, "1", 0, 1);
	bools_step(_metadata, "commit0", commit, "0", 0, 1);
	bools_step(_metadata, "commit", commit, "1", 1, 1);
	bools_step(_metadata, "clear", b, "0", 1, 0);
	bools_step(_metadata, "commit_clear", commit, "1", 0, 0);
}

/* ------------------------------------------------------------------- attr */

/*
 * /proc/self/attr/NAME, written by a task in lsmconf_if_a_t
 * (proc_pid_attr_write -> selinux_lsm_setattr) and read back
 * (selinux_lsm_getattr):
 *   1. Each attribute first needs its process permission on the task
 *      itself (setexec, setfscreate, setkeycreate, setsockcreate: not
 *      declared, allowed; setcurrent: a holds it).
 *   2. A non-empty value is a context: security_context_to_sid(), EINVAL
 *      for one the policy cannot hold. fscreate alone: a task with
 *      CAP_MAC_ADMIN (has_cap_mac_admin) gets the context kept as written
 *      (security_context_to_sid_force: a SID for the text alone); it
 *      reads back as the unlabeled initial SID's context, since
 *      security_sid_to_context() looks SIDs up with sidtab_search_entry(),
 *      which answers SECINITSID_UNLABELED for a context kept as text
 *      (only the _force variant prints the text).
 *   3. exec, fscreate, sockcreate: the SID is stored; it is checked where
 *      it is used (a socket: selinux_socket_create, create on the socket's
 *      class from the task to that SID: EACCES from a to c).
 *      keycreate: key create from the task to the SID first (a holds it
 *      on b only: EACCES for c). current: an empty value is EINVAL, then
 *      process dyntransition from the task to the SID (a to b only:
 *      EACCES for c); the task then runs in that SID.
 *   4. An empty value (or "\n") clears the attribute (SID 0); it reads
 *      back as nothing (selinux_lsm_getattr: SECSID_NULL is no text).
 * A socket made after sockcreate carries that SID: fgetxattr
 * security.selinux on it (selinux_inode_getsecurity), and SO_PEERSEC on
 * the other end of a socketpair (selinux_socket_socketpair).
 * lsm_set_self_attr() hands the same bytes to the same function
 * (selinux_setselfattr -> selinux_lsm_setattr), lsm_get_self_attr() reads
 * the same text (selinux_getselfattr -> selinux_lsm_getattr, a NUL after
 * it): the rules are the same, and a kernel without them skips.
 */
enum attr_op {
	AO_FORBIDDEN,
	AO_READ_FORBIDDEN,
	AO_SOCKET_FORBIDDEN,
	AO_INVALID,
	AO_READ_INVALID,
	AO_VALID,
	AO_READ_VALID,
	AO_SOCKET_LABEL,
	AO_PEERSEC,
	AO_RESET,
	AO_READ_RESET,
	N_AO
};

static const char *const ao_names[N_AO] = {
	"forbidden",	  "read.forbidden", "socket.forbidden", "invalid",
	"read.invalid",	  "valid",	    "read.valid",	"socket.label",
	"socket.peersec", "reset",	    "read.reset",
};

struct attr_res {
	int err[N_AO];
	char text[N_AO][TXT_MAX];
	int mac_admin;
};

FIXTURE(attr) {};

FIXTURE_VARIANT(attr)
{
	const char *name;
	bool drop_mac_admin; /* the task drops CAP_MAC_ADMIN first */
	unsigned int sys; /* LSM_ATTR_*: through the syscalls (0: /proc) */
};

FIXTURE_VARIANT_ADD(attr, exec) { .name = "exec" };
FIXTURE_VARIANT_ADD(attr, fscreate) { .name = "fscreate" };
FIXTURE_VARIANT_ADD(attr, fscreate_no_mac_admin) {
	.name = "fscreate",
	.drop_mac_admin = true,
};
FIXTURE_VARIANT_ADD(attr, keycreate) { .name = "keycreate" };
FIXTURE_VARIANT_ADD(attr, sockcreate) { .name = "sockcreate" };
FIXTURE_VARIANT_ADD(attr, current) { .name = "current" };
FIXTURE_VARIANT_ADD(attr, sys_exec) {
	.name = "exec",
	.sys = LSM_SELF_ATTR_EXEC,
};
FIXTURE_VARIANT_ADD(attr, sys_fscreate) {
	.name = "fscreate",
	.sys = LSM_SELF_ATTR_FSCREATE,
};
FIXTURE_VARIANT_ADD(attr, sys_keycreate) {
	.name = "keycreate",
	.sys = LSM_SELF_ATTR_KEYCREATE,
};
FIXTURE_VARIANT_ADD(attr, sys_sockcreate) {
	.name = "sockcreate",
	.sys = LSM_SELF_ATTR_SOCKCREATE,
};
FIXTURE_VARIANT_ADD(attr, sys_current) {
	.name = "current",
	.sys = LSM_SELF_ATTR_CURRENT,
};

FIXTURE_SETUP(attr)
{
	SEL_SETUP(4);
	if (variant->sys && !lsm_self_attr_present())
		SKIP(return,
			   "no lsm_set_self_attr()/lsm_get_self_attr() (Linux 6.8+)");
}

FIXTURE_TEARDOWN(attr)
{
}

/* Drops CAP_MAC_ADMIN from the effective set: 0 or -errno. */
static int drop_mac_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[CAP_TO_INDEX(CAP_MAC_ADMIN)].effective &= ~CAP_TO_MASK(CAP_MAC_ADMIN);
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/* 1 when CAP_MAC_ADMIN is effective, 0 when not, or -errno. */
static int has_mac_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	return !!(d[CAP_TO_INDEX(CAP_MAC_ADMIN)].effective &
		  CAP_TO_MASK(CAP_MAC_ADMIN));
}

/* socket(AF_UNIX, SOCK_STREAM) and close: 0 or -errno. */
static int try_socket(void)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* The labels of a socketpair: the socket's own and SO_PEERSEC's. */
static void socket_labels(struct attr_res *r)
{
	socklen_t len = TXT_MAX - 1;
	int sv[2];
	ssize_t n;

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv)) {
		r->err[AO_SOCKET_LABEL] = r->err[AO_PEERSEC] = -errno;
		return;
	}
	n = fgetxattr(sv[0], "security.selinux", r->text[AO_SOCKET_LABEL],
		      TXT_MAX - 1);
	r->err[AO_SOCKET_LABEL] = n < 0 ? -errno : 0;
	if (getsockopt(sv[1], SOL_SOCKET, SO_PEERSEC, r->text[AO_PEERSEC],
		       &len))
		r->err[AO_PEERSEC] = -errno;
	close(sv[0]);
	close(sv[1]);
}

/* lsm_get_self_attr(@attr) of SELinux: its text into @out, or -errno. */
static int sys_read(unsigned int attr, char *out)
{
	int ret = lsm_self_attr_get(LSM_SELF_ID_SELINUX, attr, out, TXT_MAX);

	if (ret)
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	return ret;
}

/* The attribute written by /proc/self/attr/NAME or the syscall. */
static int attr_write(const FIXTURE_VARIANT(attr) * v, const char *path,
		      const char *text, size_t len)
{
	/* The same bytes as /proc's: no NUL counted. */
	return v->sys ? lsm_self_attr_set(LSM_SELF_ID_SELINUX, v->sys, text,
					  len, false) :
			write_once(path, text, len);
}

static int attr_read(const FIXTURE_VARIANT(attr) * v, const char *path,
		     char *out)
{
	return v->sys ? sys_read(v->sys, out) :
			sel_read_attr(path, out, TXT_MAX);
}

static void attr_fn(void *arg, void *res)
{
	const FIXTURE_VARIANT(attr) *v = arg;
	struct attr_res *r = res;
	char path[64];
	const char *ctx;

	memset(r, 0, sizeof(*r));
	snprintf(path, sizeof(path), "/proc/self/attr/%s", v->name);
	if (v->drop_mac_admin && drop_mac_admin())
		r->mac_admin = -EPERM;
	else
		r->mac_admin = has_mac_admin();

	ctx = CTX(IF_C);
	r->err[AO_FORBIDDEN] = attr_write(v, path, ctx, strlen(ctx));
	r->err[AO_READ_FORBIDDEN] =
		attr_read(v, path, r->text[AO_READ_FORBIDDEN]);
	r->err[AO_SOCKET_FORBIDDEN] = try_socket();

	ctx = CTX_UNKNOWN;
	r->err[AO_INVALID] = attr_write(v, path, ctx, strlen(ctx));
	r->err[AO_READ_INVALID] = attr_read(v, path, r->text[AO_READ_INVALID]);

	/* With the newline echo(1) adds: the kernel drops it. */
	ctx = CTX(IF_B) "\n";
	r->err[AO_VALID] = attr_write(v, path, ctx, strlen(ctx));
	r->err[AO_READ_VALID] = attr_read(v, path, r->text[AO_READ_VALID]);
	socket_labels(r);

	r->err[AO_RESET] = attr_write(v, path, "\n", 1);
	r->err[AO_READ_RESET] = attr_read(v, path, r->text[AO_READ_RESET]);
}

struct attr_model {
	int expected[N_AO];
	const char *text[N_AO]; /* what a read step must read */
};

/* A stream socket made by a task in @task with sockcreate @sock ("": none). */
static int socket_model(const char *task, const char *sock, const char **label)
{
	/* selinux_socket_create: the sockcreate SID, else the task's. */
	const char *type = *sock ? sock : task;

	*label = type;
	return if_allowed(task, type, "unix_stream_socket", "create", 0) &&
			       if_allowed(task, type, "unix_stream_socket",
					  "getattr", 0) &&
			       if_allowed(task, type, "unix_stream_socket",
					  "getopt", 0) ?
		       0 :
		       -EACCES;
}

/* Rule 1: the task's own process permission for attribute @name. */
static int attr_perm_model(const char *task, const char *name)
{
	if (strcmp(name, "current"))
		return 0; /* setexec and the rest: not declared */
	return if_allowed(task, task, "process", "setcurrent", 0) ? 0 : -EACCES;
}

/* Rule 3: the check on the new SID's type @type, for attribute @name. */
static int attr_target_model(const char *task, const char *name,
			     const char *type)
{
	if (!strcmp(name, "current"))
		return if_allowed(task, type, "process", "dyntransition", 0) ?
			       0 :
			       -EACCES;
	if (!strcmp(name, "keycreate"))
		return if_allowed(task, type, "key", "create", 0) ? 0 : -EACCES;
	return 0;
}

/*
 * The rules above, step by step, for attribute @name; the model tracks
 * the task's type and the type the attribute holds ("" for none).
 */
static void attr_model(const char *name, bool mac_admin, struct attr_model *m)
{
	static char texts[N_AO][TXT_MAX];
	bool current = !strcmp(name, "current");
	bool sockcreate = !strcmp(name, "sockcreate");
	bool fscreate = !strcmp(name, "fscreate");
	const char *task = IF_A, *holds = current ? IF_A : "", *label;
	bool holds_raw = false; /* holds the written text itself */
	int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < N_AO; i++)
		m->text[i] = texts[i];
#define HOLDS(op)                                                          \
	do {                                                               \
		if (holds_raw)                                             \
			snprintf(texts[op], TXT_MAX, "%s", CTX_UNLABELED); \
		else if (*holds)                                           \
			snprintf(texts[op], TXT_MAX, CTX("%s"), holds);    \
		else                                                       \
			texts[op][0] = '\0';                               \
	} while (0)

	/* c: rule 1, then rule 3. */
	m->expected[AO_FORBIDDEN] = attr_perm_model(task, name) ?:
					    attr_target_model(task, name, IF_C);
	if (!m->expected[AO_FORBIDDEN]) {
		holds = IF_C;
		if (current)
			task = IF_C;
	}
	HOLDS(AO_READ_FORBIDDEN);
	m->expected[AO_SOCKET_FORBIDDEN] =
		socket_model(task, sockcreate ? holds : "", &label);

	/* An unknown type: rule 1, then rule 2 (fscreate's force). */
	m->expected[AO_INVALID] = attr_perm_model(task, name);
	if (!m->expected[AO_INVALID]) {
		if (fscreate && mac_admin)
			holds_raw = true;
		else
			m->expected[AO_INVALID] = -EINVAL;
	}
	HOLDS(AO_READ_INVALID);

	/* b: rule 1, then rule 3. */
	m->expected[AO_VALID] = attr_perm_model(task, name) ?:
					attr_target_model(task, name, IF_B);
	if (!m->expected[AO_VALID]) {
		holds = IF_B;
		holds_raw = false;
		if (current)
			task = IF_B;
	}
	HOLDS(AO_READ_VALID);
	/* The socketpair: both ends carry the label (rule of the pair). */
	m->expected[AO_SOCKET_LABEL] = socket_model(
		task, sockcreate && !holds_raw ? holds : "", &label);
	m->expected[AO_PEERSEC] = m->expected[AO_SOCKET_LABEL];
	snprintf(texts[AO_SOCKET_LABEL], TXT_MAX, CTX("%s"), label);
	snprintf(texts[AO_PEERSEC], TXT_MAX, CTX("%s"), label);

	/* Reset: rule 1, then rule 4 (current: EINVAL). */
	m->expected[AO_RESET] = attr_perm_model(task, name);
	if (!m->expected[AO_RESET] && current)
		m->expected[AO_RESET] = -EINVAL;
	if (!m->expected[AO_RESET]) {
		holds = "";
		holds_raw = false;
	}
	HOLDS(AO_READ_RESET);
#undef HOLDS
}

static bool ao_reads(int op)
{
	return op == AO_READ_FORBIDDEN || op == AO_READ_INVALID ||
	       op == AO_READ_VALID || op == AO_READ_RESET ||
	       op == AO_SOCKET_LABEL || op == AO_PEERSEC;
}

TEST_F(attr, write_read)
{
	struct attr_res res;
	struct attr_model m;
	int ret, i;

	ret = in_domain(IF_A, attr_fn, (void *)variant, &res, sizeof(res));
	ASSERT_EQ(0, ret);
	ASSERT_LE(0, res.mac_admin);
	attr_model(variant->name, res.mac_admin, &m);
	for (i = 0; i < N_AO; i++) {
		struct record rec = {
			.abi = ABI,
			.subject = IF_A,
			.object = variant->name,
			/* the interface: /proc/self/attr or the syscalls */
			.class = variant->sys ? "lsm_self_attr" : "attr",
			.detail = res.mac_admin ? "mac_admin" : "-",
			.op = ao_names[i],
			.expected = m.expected[i],
			.observed = res.err[i],
		};

		if (ao_reads(i) && !m.expected[i] && !res.err[i]) {
			rec.observed = text_outcome(0, res.text[i], m.text[i]);
			if (rec.observed)
				TH_LOG("%s: read \"%s\", model \"%s\"",
				       ao_names[i], res.text[i], m.text[i]);
		}
		JUDGE(&rec);
	}
}

LSM_HARNESS_MAIN
