// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux's computing and tuning files in selinuxfs (policy part
 * lsmconf-selfs.cil): a root task in a test domain asks the policy which
 * context an object created, relabelled or made a member of a
 * polyinstantiated directory gets (create, relabel, member), whether a
 * relabel is valid (validatetrans), and sets the AVC's cache threshold;
 * then reads the files that ask nothing (the AVC's statistics, the
 * policy's version and flags, an initial SID's context, checkreqprot, the
 * status page and the policy, both mapped). Each actor lacks at most one
 * class security permission on the security initial SID (kernel_t).
 *
 * The model (fs_expect(); security/selinux/selinuxfs.c, ss/services.c):
 *
 *   check    create, relabel, member (sel_write_create, _relabel,
 *            _member) ask compute_create, compute_relabel,
 *            compute_member; validatetrans (sel_write_validatetrans)
 *            validate_trans; a write to avc/cache_threshold
 *            (sel_write_avc_cache_threshold) setsecparam: -EACCES without
 *            it. The rest ask nothing of the writer's domain.
 *   answer   security_compute_sid() for an object class: the user of the
 *            source (create) or the target (member), role object_r, the
 *            type of the policy's type rule for (source, target, class)
 *            (typetransition, typechange, typemember) or else the
 *            target's, and the source's low level (mls_compute_sid(),
 *            no default_range rule). No validatetrans constraint: a
 *            transition is valid.
 *   reads    avc/cache_stats a header line and one line of numbers per
 *            CPU; avc/hash_stats and ss/sidtab_hash_stats "entries: N";
 *            policyvers a number; mls "1" (the policy is MLS);
 *            deny_unknown and reject_unknown "0" (handleunknown allow);
 *            initial_contexts/security the security SID's context
 *            (lsmconf.cil); checkreqprot "0"; the status page (struct
 *            selinux_kernel_status) version 1 and the enforcing mode;
 *            the policy's first word SELINUX_MAGIC.
 *
 * Left out: writes to user and checkreqprot, which 6.1 checks
 * (compute_user, setcheckreqprot) and later kernels take without a check
 * and ignore (deprecated); and disable, which 6.1 may act on.
 *
 * A refusal is one AVC record (avc_log.h): "avc:  denied  { PERM }",
 * tcontext kernel_t, tclass=security, permissive=0. An allowed call logs
 * none. An answer that is not the model's is EBADMSG.
 */

#define _GNU_SOURCE
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "avc_log.h"
#include "../lsmconf/judge.h"

#define LEVEL "s0"
#define CATS 4
#define OBJ(type) "lsmconf_u:object_r:" type ":" LEVEL
#define FS_SRC OBJ("lsmconf_fs_src_t")
#define FS_DIR OBJ("lsmconf_fs_dir_t")
#define ANSWER_MAX 256
/* The security initial SID's context (sidcontext security, lsmconf.cil). */
#define SECURITY_SID_CONTEXT "lsmconf_u:object_r:kernel_t:s0"
#define SELINUX_MAGIC 0xf97cff8c

enum fs_op {
	OP_CREATE_FILE,
	OP_CREATE_DIR,
	OP_RELABEL_FILE,
	OP_RELABEL_DIR,
	OP_MEMBER_FILE,
	OP_MEMBER_DIR,
	OP_VALIDATETRANS,
	OP_CACHE_THRESHOLD_WRITE,
	OP_CACHE_THRESHOLD,
	OP_CACHE_STATS,
	OP_HASH_STATS,
	OP_SIDTAB_HASH_STATS,
	OP_POLICYVERS,
	OP_MLS,
	OP_DENY_UNKNOWN,
	OP_REJECT_UNKNOWN,
	OP_INITCON_SECURITY,
	OP_CHECKREQPROT,
	OP_STATUS_MMAP,
	OP_POLICY_MMAP,
	N_OPS
};

/* Each call: its file, the permission it asks (NULL: none), its answer. */
static const struct {
	const char *name;
	const char *file;
	const char *perm;
	const char *class; /* the queries' object class */
	const char *want; /* the model's answer, NULL: checked by its op */
} ops[N_OPS] = {
	[OP_CREATE_FILE] = { "create_file", "create", "compute_create", "file",
			     OBJ("lsmconf_fs_new_t") },
	[OP_CREATE_DIR] = { "create_dir", "create", "compute_create", "dir",
			    FS_DIR },
	[OP_RELABEL_FILE] = { "relabel_file", "relabel", "compute_relabel",
			      "file", OBJ("lsmconf_fs_relabeled_t") },
	[OP_RELABEL_DIR] = { "relabel_dir", "relabel", "compute_relabel", "dir",
			     FS_DIR },
	[OP_MEMBER_FILE] = { "member_file", "member", "compute_member", "file",
			     OBJ("lsmconf_fs_member_t") },
	[OP_MEMBER_DIR] = { "member_dir", "member", "compute_member", "dir",
			    FS_DIR },
	[OP_VALIDATETRANS] = { "validatetrans", "validatetrans",
			       "validate_trans", "file" },
	[OP_CACHE_THRESHOLD_WRITE] = { "cache_threshold_write",
				       "avc/cache_threshold", "setsecparam" },
	[OP_CACHE_THRESHOLD] = { "cache_threshold", "avc/cache_threshold" },
	[OP_CACHE_STATS] = { "cache_stats", "avc/cache_stats" },
	[OP_HASH_STATS] = { "hash_stats", "avc/hash_stats" },
	[OP_SIDTAB_HASH_STATS] = { "sidtab_hash_stats",
				   "ss/sidtab_hash_stats" },
	[OP_POLICYVERS] = { "policyvers", "policyvers" },
	[OP_MLS] = { "mls", "mls", NULL, NULL, "1" },
	[OP_DENY_UNKNOWN] = { "deny_unknown", "deny_unknown", NULL, NULL, "0" },
	[OP_REJECT_UNKNOWN] = { "reject_unknown", "reject_unknown", NULL, NULL,
				"0" },
	[OP_INITCON_SECURITY] = { "initial_context_security",
				  "initial_contexts/security", NULL, NULL,
				  SECURITY_SID_CONTEXT },
	[OP_CHECKREQPROT] = { "checkreqprot", "checkreqprot", NULL, NULL, "0" },
	[OP_STATUS_MMAP] = { "status_mmap", "status" },
	[OP_POLICY_MMAP] = { "policy_mmap", "policy" },
};

FIXTURE(selfs)
{
	char ratelimit[32]; /* printk_ratelimit as found */
	char threshold[32]; /* avc/cache_threshold as found */
};

FIXTURE_VARIANT(selfs)
{
	const char *actor;
	const char *lacks; /* NULL: nothing */
};

/* Each actor, named after the permission it lacks (none: ok). */
/* clang-format off */
#define ACTOR(p) { .actor = "lsmconf_fs_no_" #p "_t", .lacks = #p }
FIXTURE_VARIANT_ADD(selfs, ok) { .actor = "lsmconf_fs_ok_t" };
FIXTURE_VARIANT_ADD(selfs, no_compute_create) ACTOR(compute_create);
FIXTURE_VARIANT_ADD(selfs, no_compute_relabel) ACTOR(compute_relabel);
FIXTURE_VARIANT_ADD(selfs, no_compute_member) ACTOR(compute_member);
FIXTURE_VARIANT_ADD(selfs, no_validate_trans) ACTOR(validate_trans);
FIXTURE_VARIANT_ADD(selfs, no_setsecparam) ACTOR(setsecparam);
/* clang-format on */

/* The permission of @op the actor lacks, or NULL. */
static const char *fs_denial(const FIXTURE_VARIANT(selfs) * v, enum fs_op op)
{
	return v->lacks && ops[op].perm && !strcmp(ops[op].perm, v->lacks) ?
		       ops[op].perm :
		       NULL;
}

/* The rule: -EACCES without the permission the call asks, else allowed. */
static int fs_expect(const FIXTURE_VARIANT(selfs) * v, enum fs_op op)
{
	return fs_denial(v, op) ? -EACCES : 0;
}

/* A query's text: "SCON TCON CLASS" (CLASS the policy's number). */
static int fs_query(enum fs_op op, char *query, size_t size)
{
	char path[128], index[16];
	int ret;

	snprintf(path, sizeof(path), SEL_FS "/class/%s/index", ops[op].class);
	ret = sel_read_attr(path, index, sizeof(index));
	if (ret)
		return ret;
	if (op == OP_VALIDATETRANS) /* OLDCON NEWCON CLASS TASKCON */
		snprintf(query, size, "%s %s %s %s", FS_DIR,
			 OBJ("lsmconf_fs_new_t"), index, FS_SRC);
	else
		snprintf(query, size, "%s %s %s", FS_SRC, FS_DIR, index);
	return 0;
}

/* @text is the model's answer @want: 0, else -EBADMSG. */
static int fs_answer(const char *text, const char *want)
{
	return strcmp(text, want) ? -EBADMSG : 0;
}

/* "entries: N" and more lines (avc_hash_stats, sidtab_hash_stats). */
static int fs_hash_stats(const char *text)
{
	unsigned int n;

	return sscanf(text, "entries: %u", &n) == 1 ? 0 : -EBADMSG;
}

/* The AVC's statistics (sel_avc_stats_seq_show): a header, then CPUs. */
static int fs_cache_stats(const char *path)
{
	char text[4096], *line;
	unsigned int v[6];
	int rows = 0;
	ssize_t n = read_text(path, text, sizeof(text));

	if (n < 0)
		return n;
	if (strncmp(text, "lookups hits misses allocations reclaims frees\n",
		    47))
		return -EBADMSG;
	for (line = strchr(text, '\n') + 1; *line; rows++) {
		if (sscanf(line, "%u %u %u %u %u %u", &v[0], &v[1], &v[2],
			   &v[3], &v[4], &v[5]) != 6)
			return -EBADMSG;
		line = strchr(line, '\n');
		if (!line)
			break;
		line++;
	}
	return rows ? 0 : -EBADMSG;
}

/* Maps @file's first page read-only: its first @n words, or -errno. */
static int fs_map(const char *file, uint32_t *words, size_t n)
{
	char path[128];
	void *p;
	int fd;

	snprintf(path, sizeof(path), SEL_FS "/%s", file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return -errno;
	memcpy(words, p, n * sizeof(*words));
	munmap(p, sysconf(_SC_PAGESIZE));
	return 0;
}

/* The call itself, in the actor's domain: 0 or -errno. */
static int fs_run(enum fs_op op, const char *threshold)
{
	char path[128], query[3 * ANSWER_MAX], text[ANSWER_MAX];
	uint32_t words[3];
	int ret;

	snprintf(path, sizeof(path), SEL_FS "/%s", ops[op].file);
	switch (op) {
	case OP_CREATE_FILE:
	case OP_CREATE_DIR:
	case OP_RELABEL_FILE:
	case OP_RELABEL_DIR:
	case OP_MEMBER_FILE:
	case OP_MEMBER_DIR:
		ret = fs_query(op, query, sizeof(query));
		if (!ret)
			ret = sel_transact(path, query, text, sizeof(text));
		return ret ?: fs_answer(text, ops[op].want);
	case OP_VALIDATETRANS:
		ret = fs_query(op, query, sizeof(query));
		return ret ?: write_text(path, query);
	case OP_CACHE_THRESHOLD_WRITE:
		return write_text(path, threshold);
	case OP_CACHE_STATS:
		return fs_cache_stats(path);
	case OP_STATUS_MMAP:
		/*
		 * struct selinux_kernel_status: version (1,
		 * SELINUX_KERNEL_STATUS_VERSION), sequence, enforcing.
		 */
		ret = fs_map(ops[op].file, words, 3);
		return ret ?: words[0] == 1 && words[2] == 1 ? 0 : -EBADMSG;
	case OP_POLICY_MMAP:
		ret = fs_map(ops[op].file, words, 1);
		return ret ?: words[0] == SELINUX_MAGIC ? 0 : -EBADMSG;
	default:
		break;
	}
	ret = sel_read_attr(path, text, sizeof(text));
	if (ret)
		return ret;
	switch (op) {
	case OP_CACHE_THRESHOLD:
		return fs_answer(text, threshold);
	case OP_HASH_STATS:
	case OP_SIDTAB_HASH_STATS:
		return fs_hash_stats(text);
	case OP_POLICYVERS:
		return strspn(text, "0123456789") == strlen(text) && *text ?
			       0 :
			       -EBADMSG;
	default:
		return fs_answer(text, ops[op].want);
	}
}

struct fs_case {
	const char *actor;
	enum fs_op op;
	const char *threshold;
};

struct fs_report {
	int setup; /* entering the domain */
	int result;
};

/* The child (child_run()): enters the actor, makes the call. */
static void fs_child(void *arg, void *reply)
{
	const struct fs_case *k = arg;
	struct fs_report *r = reply;

	r->result = NOT_RUN;
	r->setup = sel_enter(k->actor, LEVEL);
	if (!r->setup)
		r->result = fs_run(k->op, k->threshold);
}

/*
 * The record of @op by the actor against the model's: 0, -EBADMSG when it
 * differs or more than one came, NOT_RUN when none did.
 */
static int judge_avc(struct __test_metadata *_metadata,
		     const FIXTURE_VARIANT(selfs) * v, enum fs_op op,
		     const struct avcs *got)
{
	return avc_judge_one(_metadata, ops[op].name, got, fs_denial(v, op),
			     "kernel_t", "security");
}

FIXTURE_SETUP(selfs)
{
	SEL_SETUP(CATS);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_EQ(0, sel_read_attr(SEL_FS "/avc/cache_threshold",
				   self->threshold, sizeof(self->threshold)));
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
}

FIXTURE_TEARDOWN(selfs)
{
	if (self->ratelimit[0])
		EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

TEST_F(selfs, use)
{
	struct record rec = {
		.abi = "selinux-c4",
		.subject = variant->actor,
		.object = "kernel_t",
		.class = "security",
	};
	char id[96];
	int op;

	for (op = 0; op < N_OPS; op++) {
		struct fs_case k = { variant->actor, op, self->threshold };
		struct fs_report r;
		struct avcs got;

		ASSERT_EQ(0, avc_call_logged(_metadata, ops[op].name, "fs", op,
					     variant->actor, fs_child, &k, &r,
					     sizeof(r), &got));
		ASSERT_EQ(0, r.setup)
		{
			TH_LOG("%s: no domain", ops[op].name);
		}
		rec.detail = ops[op].perm ?: "-";
		rec.op = ops[op].name;
		rec.expected = fs_expect(variant, op);
		rec.observed = r.result;
		JUDGE(&rec);
		/* The record a refusal logs, or proven absent by the marker. */
		JUDGE_LOG(&rec, id, ops[op].name, fs_denial(variant, op), got.n,
			  judge_avc(_metadata, variant, op, &got));
	}
}

LSM_HARNESS_MAIN
