// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor mount rules (issue 40): mount(2) in its five kinds,
 * umount2(2) and the new mount API's move_mount(2), each under one
 * profile of the rule forms real policies use.
 *
 * Each case is a profile (mount_rules below, in profiles/mount.profile)
 * and twelve operations, each run by its own child in a mount namespace
 * of its own (unshare(CLONE_NEWNS), "/" made rprivate): the child sets
 * up its tmpfs mounts under MNT_BASE unconfined, enters the profile
 * (aa_change_profile) and makes one call; its -errno comes back over a
 * pipe. Nothing it mounts outlives it.
 *
 *   new_tmpfs          mount("tmpfs", d, "tmpfs", 0)
 *   new_tmpfs_ro       the same, MS_RDONLY
 *   new_tmpfs_nosuid   the same, MS_NOSUID
 *   new_tmpfs_other    mount("tmpfs", n, "tmpfs", 0): no rule names n
 *   remount_ro         mount(NULL, d, NULL, MS_REMOUNT | MS_RDONLY), d a tmpfs
 *   bind               mount(s, d, NULL, MS_BIND), s a tmpfs
 *   move               mount(s, d, NULL, MS_MOVE)
 *   make_private       mount(NULL, d, NULL, MS_PRIVATE), d a tmpfs
 *   umount             umount2(d, 0), d a tmpfs
 *   fsmount_move       fsopen("tmpfs"), fsconfig(CREATE), fsmount, then
 *                      move_mount(fd, "", d, MOVE_MOUNT_F_EMPTY_PATH)
 *   move_mount         move_mount(s, d): an attached source
 *   pivot_root         pivot_root(n, n/old) after chroot(r): r and n
 *                      tmpfs mounts (r/new is n), proc in r for the
 *                      profile change; the root a mount with a parent,
 *                      as pivot_root needs (the guest's is rootfs)
 *
 * The model (mount_expect(); every rule names the kernel or parser code
 * that implements it):
 *
 *   dispatch  apparmor_sb_mount (lsm.c) sends MS_REMOUNT to aa_remount,
 *             MS_BIND to aa_bind_mount, a propagation flag to
 *             aa_mount_change_type, MS_MOVE to aa_move_mount_old, the rest
 *             to aa_new_mount; umount2 is apparmor_sb_umount ->
 *             aa_umount; move_mount(2) is apparmor_move_mount ->
 *             aa_move_mount (mount.c), whose source is NULL when it is
 *             detached (!our_mnt: an fsmount()ed tree), with type NULL
 *             and flags MS_MOVE. fsopen, fsconfig and fsmount have no
 *             AppArmor hook. pivot_root(2) is apparmor_sb_pivotroot ->
 *             aa_pivotroot -> build_pivotroot: the new root's path, then
 *             the old root's, both from the namespace's root (not the
 *             chroot's), against pivot_root rules only.
 *   match     match_mnt / do_match_mnt (mount.c): the mount point, the
 *             source (tmpfs: the dev_name string; bind and move: the
 *             source's path; NULL skips it), the type (NULL skips it) and
 *             the flags, against the vectors the parser emits for a rule
 *             (gen_flag_rules, parser/mount.cc): a rule without options=
 *             emits a new-mount vector, plus remount when it names no
 *             source and no fstype, bind and move when it names no fstype,
 *             change-type when it names no fstype and not both a source
 *             and a mount point; options=(...) emits the
 *             one kind its command flag names (bind, move, a propagation
 *             type, remount; none: new mount) with exactly those flags;
 *             options in (...) allows new mounts whose flags are a subset.
 *             A request with type NULL never matches a rule with fstype=.
 *             A deny rule that matches wins (deny clears the allow).
 *             Nothing matches: -EACCES. A profile with no mount rule
 *             still mediates mounts (the parser marks every profile when
 *             the kernel and ABI have "mount"): -EACCES. `mount` rules
 *             never grant umount; `umount PATH` grants only that;
 *             neither grants pivot_root, and `pivot_root [oldroot=OLD]
 *             [NEW],` grants only that, OLD and NEW where named.
 *   order     path_mount (fs/namespace.c) asks security_sb_mount before
 *             may_mount: a denied mount(2) is -EACCES with or without
 *             CAP_SYS_ADMIN, an allowed one without it -EPERM
 *             (apparmor_capable: no "capability sys_admin,"). umount2,
 *             fsopen, move_mount(2) and pivot_root (path_pivot_root)
 *             check may_mount first: -EPERM.
 *   features  features/mount absent: nothing is mediated, the case
 *             skips. features/mount/move_mount absent (before 6.7, with
 *             6.1): move_mount(2) has no AppArmor hook, so both
 *             move_mount operations are allowed whatever the rules (the
 *             depends column says which).
 *
 * The audit records (OP/log.record, OP/log.fields; mount_log_expect()),
 * read from /dev/kmsg up to a marker record (kmsg_audit.h): each refusal
 * AppArmor makes is one record (audit_mount, mount.c) unless a deny rule
 * made it (the parser quiets deny rules): apparmor="DENIED",
 * operation="mount", "umount" or "pivotroot", the profile, name= the
 * mount point (pivot_root: the new root), srcname= the source (the
 * dev_name string of a new mount, the path of a bind or move, pivot_root's
 * old root; none when there is none or it is detached), fstype= the type
 * when there is one, and flags= when the request's flags are not 0
 * (audit_mnt_flags: "ro" or "rw", then each flag's name). An allowed
 * request, one that never reaches AppArmor (may_mount's capability check
 * first, no move_mount hook) and an unconfined task log no mount record.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "kmsg_audit.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define MNT_BASE "/tmp/lsmconf_mount"
#define D MNT_BASE "/d/"
#define S MNT_BASE "/s/"
#define R MNT_BASE "/r/" /* the chroot of the pivot_root case */
#define PNEW R "new/"
#define POLD PNEW "old/"

#ifndef FSOPEN_CLOEXEC
#define FSOPEN_CLOEXEC 0x1
#endif
#ifndef FSMOUNT_CLOEXEC
#define FSMOUNT_CLOEXEC 0x1
#endif
#ifndef FSCONFIG_CMD_CREATE
#define FSCONFIG_CMD_CREATE 6
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x4
#endif

/* The kinds of request the kernel hands AppArmor (its dispatch). */
enum kind {
	K_NEW,
	K_REMOUNT,
	K_BIND,
	K_MOVE,
	K_PROPAGATION,
	K_UMOUNT,
	K_PIVOT,
};

enum opn {
	O_NEW,
	O_NEW_RO,
	O_NEW_NOSUID,
	O_NEW_OTHER,
	O_REMOUNT,
	O_BIND,
	O_MOVE,
	O_PRIVATE,
	O_UMOUNT,
	O_FSMOUNT,
	O_MOVE_MOUNT,
	O_PIVOT_ROOT,
	NOPS,
};

/* An operation as AppArmor sees it. */
struct mount_op {
	const char *name;
	enum kind kind;
	const char *dst; /* the mount point's name */
	const char *src; /* NULL: none (or detached); pivot_root's old root */
	const char *type; /* NULL: none */
	unsigned long flags; /* beside the kind's own flag */
	bool syscall_mount; /* mount(2): the LSM before may_mount */
	bool new_api; /* move_mount(2): mediated from 6.7 */
};

static const struct mount_op ops[NOPS] = {
	[O_NEW] = { "new_tmpfs", K_NEW, D, "tmpfs", "tmpfs", 0, true },
	[O_NEW_RO] = { "new_tmpfs_ro", K_NEW, D, "tmpfs", "tmpfs", MS_RDONLY,
		       true },
	[O_NEW_NOSUID] = { "new_tmpfs_nosuid", K_NEW, D, "tmpfs", "tmpfs",
			   MS_NOSUID, true },
	[O_NEW_OTHER] = { "new_tmpfs_other", K_NEW, MNT_BASE "/n/", "tmpfs",
			  "tmpfs", 0, true },
	[O_REMOUNT] = { "remount_ro", K_REMOUNT, D, NULL, NULL, MS_RDONLY,
			true },
	[O_BIND] = { "bind", K_BIND, D, S, NULL, 0, true },
	[O_MOVE] = { "move", K_MOVE, D, S, NULL, 0, true },
	[O_PRIVATE] = { "make_private", K_PROPAGATION, D, NULL, NULL, 0, true },
	[O_UMOUNT] = { "umount", K_UMOUNT, D, NULL, NULL, 0, false },
	[O_FSMOUNT] = { "fsmount_move", K_MOVE, D, NULL, NULL, 0, false, true },
	[O_MOVE_MOUNT] = { "move_mount", K_MOVE, D, S, NULL, 0, false, true },
	[O_PIVOT_ROOT] = { "pivot_root", K_PIVOT, PNEW, POLD, NULL, 0, false },
};

/*
 * A rule as the parser reads it. R_MOUNT with @eq (options=) names the
 * kind by its command flag (@eq_kind) and the exact other flags; with
 * @in (options in), the flags allowed; neither: any flags, every kind
 * the rule's source and type leave (mount_expect()).
 */
enum rkind { R_MOUNT, R_REMOUNT, R_UMOUNT, R_PIVOT };

struct mount_rule {
	enum rkind kind;
	bool deny;
	const char *type; /* fstype=, NULL: any */
	const char *src; /* NULL: any; pivot_root's oldroot= */
	const char *dst; /* NULL: any; pivot_root's new root */
	bool eq, in;
	enum kind eq_kind;
	unsigned long flags; /* options= (beside the command) or options in */
};

#define MAX_RULES 3

struct mount_profile {
	const char *tag; /* AA_TEST_PREFIX "mnt_" tag */
	bool cap; /* capability sys_admin, */
	const char *text; /* the rules as written in the profile */
	int n;
	struct mount_rule r[MAX_RULES];
};

enum prof {
	PR_NONE,
	PR_ALL,
	PR_ALL_NOCAP,
	PR_NONE_NOCAP,
	PR_FSTYPE,
	PR_EQ_RO,
	PR_IN_RO_NOSUID,
	PR_REMOUNT,
	PR_UMOUNT,
	PR_BIND,
	PR_MOVE_FROM_S,
	PR_MOVE_ANY,
	PR_PRIVATE,
	PR_TO_D,
	PR_DENY_FSTYPE,
	PR_PIVOT_ANY,
	PR_PIVOT_NEW,
	PR_PIVOT_OLD_NEW,
	PR_PIVOT_OTHER_OLD,
	PR_PIVOT_DENY_NEW,
	NPROF,
	PR_UNCONFINED = NPROF,
};

/* clang-format off */
static const struct mount_profile profiles[NPROF] = {
	[PR_NONE] = { "none", true, "", 0 },
	[PR_ALL] = { "all", true, "mount,\n", 1, {
		{ R_MOUNT } } },
	[PR_ALL_NOCAP] = { "all_nocap", false,
		"mount,\n  umount,\n", 2, {
		{ R_MOUNT }, { R_UMOUNT } } },
	[PR_NONE_NOCAP] = { "none_nocap", false, "", 0 },
	[PR_FSTYPE] = { "fstype", true, "mount fstype=tmpfs -> " D ",\n", 1, {
		{ R_MOUNT, .type = "tmpfs", .dst = D } } },
	[PR_EQ_RO] = { "eq_ro", true, "mount options=(ro) -> " D ",\n", 1, {
		{ R_MOUNT, .dst = D, .eq = true, .eq_kind = K_NEW,
		  .flags = MS_RDONLY } } },
	[PR_IN_RO_NOSUID] = { "in_ro_nosuid", true,
		"mount options in (ro, nosuid) -> " D ",\n", 1, {
		{ R_MOUNT, .dst = D, .in = true,
		  .flags = MS_RDONLY | MS_NOSUID } } },
	[PR_REMOUNT] = { "remount", true, "remount " D ",\n", 1, {
		{ R_REMOUNT, .dst = D } } },
	[PR_UMOUNT] = { "umount", true, "umount " D ",\n", 1, {
		{ R_UMOUNT, .dst = D } } },
	[PR_BIND] = { "bind", true, "mount options=(bind) " S " -> " D ",\n",
		1, { { R_MOUNT, .src = S, .dst = D, .eq = true,
		       .eq_kind = K_BIND } } },
	[PR_MOVE_FROM_S] = { "move_from_s", true,
		"mount options=(move) " S " -> " D ",\n", 1, {
		{ R_MOUNT, .src = S, .dst = D, .eq = true,
		  .eq_kind = K_MOVE } } },
	[PR_MOVE_ANY] = { "move_any", true, "mount options=(move) -> " D ",\n",
		1, { { R_MOUNT, .dst = D, .eq = true, .eq_kind = K_MOVE } } },
	[PR_PRIVATE] = { "private", true,
		"mount options=(private) -> " D ",\n", 1, {
		{ R_MOUNT, .dst = D, .eq = true,
		  .eq_kind = K_PROPAGATION } } },
	[PR_TO_D] = { "to_d", true, "mount -> " D ",\n", 1, {
		{ R_MOUNT, .dst = D } } },
	[PR_DENY_FSTYPE] = { "deny_fstype", true,
		"mount,\n  deny mount fstype=tmpfs -> " D ",\n", 2, {
		{ R_MOUNT },
		{ R_MOUNT, .deny = true, .type = "tmpfs", .dst = D } } },
	[PR_PIVOT_ANY] = { "pivot_any", true, "pivot_root,\n", 1, {
		{ R_PIVOT } } },
	[PR_PIVOT_NEW] = { "pivot_new", true, "pivot_root " PNEW ",\n", 1, {
		{ R_PIVOT, .dst = PNEW } } },
	[PR_PIVOT_OLD_NEW] = { "pivot_old_new", true,
		"pivot_root oldroot=" POLD " " PNEW ",\n", 1, {
		{ R_PIVOT, .src = POLD, .dst = PNEW } } },
	[PR_PIVOT_OTHER_OLD] = { "pivot_other_old", true,
		"pivot_root oldroot=" MNT_BASE "/x/ " PNEW ",\n", 1, {
		{ R_PIVOT, .src = MNT_BASE "/x/", .dst = PNEW } } },
	[PR_PIVOT_DENY_NEW] = { "pivot_deny_new", true,
		"pivot_root,\n  deny pivot_root " PNEW ",\n", 2, {
		{ R_PIVOT }, { R_PIVOT, .deny = true, .dst = PNEW } } },
};
/* clang-format on */

/* Whether rule @r matches request @o (the parser's vectors, above). */
static bool rule_matches(const struct mount_rule *r, const struct mount_op *o)
{
	if (r->dst && strcmp(r->dst, o->dst))
		return false;
	if (o->kind == K_PIVOT || r->kind == R_PIVOT)
		return o->kind == K_PIVOT && r->kind == R_PIVOT &&
		       (!r->src || !strcmp(r->src, o->src));
	if (o->kind == K_UMOUNT || r->kind == R_UMOUNT)
		return o->kind == K_UMOUNT && r->kind == R_UMOUNT;
	if (r->kind == R_REMOUNT)
		return o->kind == K_REMOUNT; /* other remount flags optional */
	/* The kinds the rule emits vectors for. */
	if (r->eq) {
		if (r->eq_kind != o->kind)
			return false;
		/* Exact flags: none beside the command flag here. */
		if (o->flags != (r->eq_kind == K_NEW ? r->flags : 0))
			return false;
	} else if (r->in) {
		/* Its other vectors need a command bit it does not list. */
		if (o->kind != K_NEW || (o->flags & ~r->flags))
			return false;
	} else {
		if (o->kind == K_REMOUNT && (r->src || r->type))
			return false;
		if ((o->kind == K_BIND || o->kind == K_MOVE ||
		     o->kind == K_PROPAGATION) &&
		    r->type)
			return false;
		if (o->kind == K_PROPAGATION && r->src && r->dst)
			return false;
	}
	/* Type NULL matches no fstype=; a source NULL is skipped. */
	if (r->type && (!o->type || strcmp(r->type, o->type)))
		return false;
	if (r->src && (!o->src || strcmp(r->src, o->src)))
		return false;
	return true;
}

/* How AppArmor decides a request: allowed, or refused (logged or quiet). */
enum aa_verdict { AA_ALLOWS, AA_REFUSES, AA_DENY_RULE };

static enum aa_verdict aa_verdict(const struct mount_profile *p,
				  const struct mount_op *o)
{
	bool allow = false;
	int i;

	for (i = 0; i < p->n; i++) {
		if (!rule_matches(&p->r[i], o))
			continue;
		if (p->r[i].deny)
			return AA_DENY_RULE;
		allow = true;
	}
	return allow ? AA_ALLOWS : AA_REFUSES;
}

/* The AppArmor decision alone: 0 or -EACCES. */
static int aa_decides(const struct mount_profile *p, const struct mount_op *o)
{
	return aa_verdict(p, o) == AA_ALLOWS ? 0 : -EACCES;
}

/*
 * The expected outcome of @o under profile @pi (PR_UNCONFINED: none) on a
 * kernel that has (@move_hook) or lacks AppArmor's move_mount hook.
 */
static int mount_expect(int pi, const struct mount_op *o, bool move_hook)
{
	const struct mount_profile *p;
	int lsm;

	if (pi == PR_UNCONFINED)
		return 0;
	p = &profiles[pi];
	lsm = o->new_api && !move_hook ? 0 : aa_decides(p, o);
	if (o->syscall_mount)
		return lsm ? lsm : p->cap ? 0 : -EPERM;
	/* umount2, fsopen, move_mount: may_mount first. */
	if (!p->cap)
		return -EPERM;
	return lsm;
}

/*
 * The mount records @o logs under profile @pi: 1 when AppArmor is asked
 * and refuses without a deny rule, else 0.
 */
static int mount_log_expect(int pi, const struct mount_op *o, bool move_hook)
{
	const struct mount_profile *p;

	if (pi == PR_UNCONFINED || (o->new_api && !move_hook))
		return 0;
	p = &profiles[pi];
	if (!o->syscall_mount && !p->cap)
		return 0; /* may_mount refused it first */
	return aa_verdict(p, o) == AA_REFUSES;
}

/* The record's operation= (audit_mount's op). */
static const char *mount_log_op(const struct mount_op *o)
{
	return o->kind == K_UMOUNT ? "umount" :
	       o->kind == K_PIVOT  ? "pivotroot" :
				     "mount";
}

/*
 * The record's flags= for @o into @buf (audit_mnt_flags() for the flags
 * these requests carry), or NULL when the flags AppArmor is given are 0.
 */
static const char *mount_log_flags(const struct mount_op *o, char *buf,
				   size_t size)
{
	static const unsigned long kind_flag[] = {
		[K_REMOUNT] = MS_REMOUNT,
		[K_BIND] = MS_BIND,
		[K_MOVE] = MS_MOVE,
		[K_PROPAGATION] = MS_PRIVATE,
	};
	static const struct {
		unsigned long flag;
		const char *name;
	} names[] = {
		{ MS_NOSUID, ", nosuid" },   { MS_NODEV, ", nodev" },
		{ MS_NOEXEC, ", noexec" },   { MS_REMOUNT, ", remount" },
		{ MS_BIND, ", bind" },	     { MS_MOVE, ", move" },
		{ MS_PRIVATE, ", private" },
	};
	unsigned long flags = o->flags;
	size_t i;

	if (o->kind == K_UMOUNT || o->kind == K_PIVOT)
		return NULL;
	if ((size_t)o->kind < ARRAY_SIZE(kind_flag))
		flags |= kind_flag[o->kind];
	if (!flags)
		return NULL;
	snprintf(buf, size, "%s", flags & MS_RDONLY ? "ro" : "rw");
	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (flags & names[i].flag)
			strncat(buf, names[i].name, size - strlen(buf) - 1);
	return buf;
}

/*
 * pivot_root's setup: r and r/new tmpfs mounts, r/new/old, proc in r (the
 * profile change goes through /proc), then chroot(r). 0 or -errno.
 */
static int pivot_setup(void)
{
	if ((mkdir(R, 0755) && errno != EEXIST) ||
	    mount("tmpfs", R, "tmpfs", 0, NULL) || mkdir(R "proc", 0755) ||
	    mount("proc", R "proc", "proc", 0, NULL) || mkdir(PNEW, 0755) ||
	    mount("tmpfs", PNEW, "tmpfs", 0, NULL) || mkdir(POLD, 0755) ||
	    chroot(R) || chdir("/"))
		return -errno;
	return 0;
}

/* The child's setup, unconfined: a namespace and tmpfs mounts. */
static int child_setup(enum opn op)
{
	static const char *const dirs[] = { MNT_BASE, D, S, MNT_BASE "/n/" };
	size_t i;

	if (unshare(CLONE_NEWNS))
		return -errno;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		if (mkdir(dirs[i], 0755) && errno != EEXIST)
			return -errno;
	if (mount("tmpfs", S, "tmpfs", 0, NULL))
		return -errno;
	if (op == O_PIVOT_ROOT)
		return pivot_setup();
	if ((op == O_REMOUNT || op == O_PRIVATE || op == O_UMOUNT) &&
	    mount("tmpfs", D, "tmpfs", 0, NULL))
		return -errno;
	return 0;
}

static int fsmount_move(void)
{
	int fs, mnt, ret;

	fs = syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	if (syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0)) {
		ret = -errno;
		close(fs);
		return ret;
	}
	mnt = syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, 0);
	ret = mnt < 0 ? -errno : 0;
	close(fs);
	if (ret)
		return ret;
	ret = sys_ret(syscall(SYS_move_mount, mnt, "", AT_FDCWD, D,
			      MOVE_MOUNT_F_EMPTY_PATH));
	close(mnt);
	return ret;
}

/* The operation itself, confined: 0 or -errno. */
static int mount_op_run(enum opn op)
{
	const struct mount_op *o = &ops[op];

	switch (op) {
	case O_NEW:
	case O_NEW_RO:
	case O_NEW_NOSUID:
	case O_NEW_OTHER:
		return sys_ret(mount(o->src, o->dst, o->type, o->flags, NULL));
	case O_REMOUNT:
		return sys_ret(
			mount(NULL, D, NULL, MS_REMOUNT | MS_RDONLY, NULL));
	case O_BIND:
		return sys_ret(mount(S, D, NULL, MS_BIND, NULL));
	case O_MOVE:
		return sys_ret(mount(S, D, NULL, MS_MOVE, NULL));
	case O_PRIVATE:
		return sys_ret(mount(NULL, D, NULL, MS_PRIVATE, NULL));
	case O_UMOUNT:
		return sys_ret(umount2(D, 0));
	case O_FSMOUNT:
		return fsmount_move();
	case O_MOVE_MOUNT:
		return sys_ret(
			syscall(SYS_move_mount, AT_FDCWD, S, AT_FDCWD, D, 0));
	case O_PIVOT_ROOT: /* inside the chroot: r/new is /new */
		return sys_ret(syscall(SYS_pivot_root, "/new", "/new/old"));
	default:
		return -EINVAL;
	}
}

struct mount_case {
	int pi;
	enum opn op;
};

/* The child (child_run()): its mounts, the profile, one operation. */
static void mount_child_body(void *arg, void *reply)
{
	const struct mount_case *k = arg;
	struct aa_child_report *c = reply;

	c->setup = child_setup(k->op);
	if (!c->setup && k->pi != PR_UNCONFINED)
		c->enter = aa_enter_test_profile("mnt", profiles[k->pi].tag);
	if (!c->setup && !c->enter)
		c->result = mount_op_run(k->op);
}

/* Runs @op in a child under profile @pi; its report into @r. */
static int mount_child(int pi, enum opn op, struct aa_child_report *r)
{
	struct mount_case k = { pi, op };

	return child_run(mount_child_body, &k, r, sizeof(*r));
}

FIXTURE(mounts)
{
	bool move_hook; /* features/mount/move_mount */
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(mounts)
{
	int prof;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(mounts, unconfined) { .prof = PR_UNCONFINED };
FIXTURE_VARIANT_ADD(mounts, no_rules) { .prof = PR_NONE };
FIXTURE_VARIANT_ADD(mounts, mount_all) { .prof = PR_ALL };
FIXTURE_VARIANT_ADD(mounts, mount_umount_no_cap) { .prof = PR_ALL_NOCAP };
FIXTURE_VARIANT_ADD(mounts, no_rules_no_cap) { .prof = PR_NONE_NOCAP };
FIXTURE_VARIANT_ADD(mounts, fstype_tmpfs_to_d) { .prof = PR_FSTYPE };
FIXTURE_VARIANT_ADD(mounts, options_eq_ro_to_d) { .prof = PR_EQ_RO };
FIXTURE_VARIANT_ADD(mounts, options_in_ro_nosuid_to_d) { .prof = PR_IN_RO_NOSUID };
FIXTURE_VARIANT_ADD(mounts, remount_d) { .prof = PR_REMOUNT };
FIXTURE_VARIANT_ADD(mounts, umount_d) { .prof = PR_UMOUNT };
FIXTURE_VARIANT_ADD(mounts, bind_s_to_d) { .prof = PR_BIND };
FIXTURE_VARIANT_ADD(mounts, move_s_to_d) { .prof = PR_MOVE_FROM_S };
FIXTURE_VARIANT_ADD(mounts, move_any_to_d) { .prof = PR_MOVE_ANY };
FIXTURE_VARIANT_ADD(mounts, private_d) { .prof = PR_PRIVATE };
FIXTURE_VARIANT_ADD(mounts, any_to_d) { .prof = PR_TO_D };
FIXTURE_VARIANT_ADD(mounts, all_but_tmpfs_on_d) { .prof = PR_DENY_FSTYPE };
FIXTURE_VARIANT_ADD(mounts, pivot_root_any) { .prof = PR_PIVOT_ANY };
FIXTURE_VARIANT_ADD(mounts, pivot_root_new) { .prof = PR_PIVOT_NEW };
FIXTURE_VARIANT_ADD(mounts, pivot_root_oldroot_new) { .prof = PR_PIVOT_OLD_NEW };
FIXTURE_VARIANT_ADD(mounts, pivot_root_other_oldroot) { .prof = PR_PIVOT_OTHER_OLD };
FIXTURE_VARIANT_ADD(mounts, pivot_root_deny_new) { .prof = PR_PIVOT_DENY_NEW };
/* clang-format on */

FIXTURE_SETUP(mounts)
{
	struct aa_policy p, m;
	char rules[512];
	int ret;

	/* The unconfined variant too: it is the matrix's baseline, as root. */
	REQUIRE_APPARMOR(_metadata, true);
	ret = aa_feature("mount");
	if (ret != 1)
		SKIP(return, "the kernel does not advertise features/mount");
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	/* Its value names what it handles ("detached"): present is enough. */
	self->move_hook = !access(AA_FEATURES "/mount/move_mount", F_OK);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
	/* The marker: no rule at all (kmsg_audit.h). */
	ret = aa_policy_share(_metadata, &m, "mount", ABI, "", "mnt_marker",
			      NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	if (variant->prof == PR_UNCONFINED)
		return;
	/* file: the confined child writes its report to its pipe. */
	snprintf(rules, sizeof(rules), "file,\n  %s%s",
		 profiles[variant->prof].cap ? "capability sys_admin,\n  " : "",
		 profiles[variant->prof].text);
	{
		char tag[64];

		snprintf(tag, sizeof(tag), "mnt_%s",
			 profiles[variant->prof].tag);
		ret = aa_policy_share(_metadata, &p, "mount", ABI, rules, tag,
				      NULL);
	}
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(mounts)
{
	if (self->ratelimit[0])
		EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

/* The record's fields and their number, for @o's log decisions. */
static void judge_mount_log(struct __test_metadata *_metadata,
			    struct record *rec, int pi,
			    const struct mount_op *o, bool move_hook,
			    const struct records *got)
{
	int want = mount_log_expect(pi, o, move_hook);
	char prof[160], flags[96], op[64];

	snprintf(prof, sizeof(prof), AA_TEST_PREFIX "mnt_%s",
		 pi == PR_UNCONFINED ? "-" : profiles[pi].tag);
	{
		const struct log_field fields[] = {
			{ "apparmor", "DENIED" },
			{ "operation", mount_log_op(o) },
			{ "profile", prof },
			{ "name", o->dst },
			{ "srcname", o->src },
			{ "fstype", o->type },
			{ "flags", mount_log_flags(o, flags, sizeof(flags)) },
		};

		JUDGE_LOG(rec, op, o->name, want, got->n,
			  judge_records(_metadata, o->name, got, want, fields,
					ARRAY_SIZE(fields)));
	}
}

TEST_F_TIMEOUT(mounts, decisions, 120)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->prof == PR_UNCONFINED ?
				   "unconfined" :
				   profiles[variant->prof].tag,
		.class = "mount",
	};
	int i;

	for (i = 0; i < NOPS; i++) {
		const struct mount_op *o = &ops[i];
		struct aa_child_report r;
		struct records got;
		int fd = kmsg_open_end();

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, mount_child(variant->prof, i, &r));
		ASSERT_CHILD_READY(&r, o->name);
		ASSERT_EQ(0, aa_log_mark("mnt"));
		ASSERT_EQ(0, log_collect_by(fd, "operation", mount_log_op(o),
					    AA_TEST_PREFIX "mnt_marker", &got))
		{
			TH_LOG("%s: no marker record in the log", o->name);
		}
		close(fd);
		rec.object = o->dst;
		rec.detail = o->src ? o->src : "-";
		rec.op = o->name;
		rec.depends = !o->new_api     ? "mount=yes" :
			      self->move_hook ? "mount/move_mount=yes" :
						"mount/move_mount=no";
		rec.expected = mount_expect(variant->prof, o, self->move_hook);
		rec.observed = r.result;
		JUDGE(&rec);
		/* The record of a refusal, or proven quiet by the marker. */
		judge_mount_log(_metadata, &rec, variant->prof, o,
				self->move_hook, &got);
	}
}

AA_HARNESS_MAIN
