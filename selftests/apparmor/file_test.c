// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor file rules (issue 40). A confined child opens, creates,
 * removes, renames, links, locks and maps files of a directory that one
 * rule names with the permissions r, w, a, k, l and m, alone and together,
 * with the owner qualifier and beside a deny rule.
 *
 * The test mounts a tmpfs at BASE; before each operation a child
 * (unconfined) resets the tree: D (the directory the rules name) holds the
 * file f, the file o owned by uid 1000, the directory sub; X is a file
 * outside D. It then enters the case's profile (aa_change_profile) and
 * makes the operation's calls; the -errno of each comes back over a pipe.
 * Each operation is three decisions: its outcome, whether it logged a
 * record (log.record) and that record's fields (log.fields), read from
 * /dev/kmsg up to the marker, a refused read of / in the marker profile.
 *
 * The model (file_model(); each rule names the kernel function):
 *
 *   request  The hook's request (security/apparmor/lsm.c), checked by
 *            aa_path_perm() against the rules that match the path:
 *            open: aa_map_file_to_perms(), read for O_RDONLY, write for
 *            O_WRONLY, append instead of write with O_APPEND, write for
 *            O_TRUNC, create for O_CREAT (apparmor_file_open); a new
 *            name (open O_CREAT, mkdir, mknod, symlink) create on the new
 *            path (common_perm_create; a directory's name ends in "/");
 *            unlink and rmdir delete (common_perm_rm); chmod, chown
 *            chmod and chown; truncate write and setattr
 *            (apparmor_path_truncate); rename read, getattr, write,
 *            setattr and delete on the old name, then write, setattr and
 *            create on the new one (apparmor_path_rename).
 *   letters  What a rule's letters grant (the parser's parse_perms, the
 *            kernel's map_old_perms in policy_compat.c): r read, getattr,
 *            open; w write and append (the parser adds append), setattr,
 *            create, delete, chmod, chown, open; a append only; k lock;
 *            l link; m executable mmap. So every request above but
 *            read is w's; append is also a's.
 *   owner    An owner rule grants only when the object's owner is the
 *            task's fsuid (root here): o, owned by uid 1000, gets
 *            nothing from it (the dfa's "other" permissions).
 *   deny     A deny rule takes its letters away from the paths it
 *            matches (deny D/f w: f loses write and append).
 *   open fd  An open file keeps the permissions its open asked
 *            (fctx->allow); a later request beyond them is checked again
 *            (aa_file_perm): flock(2) asks lock, and write too for an
 *            exclusive lock (apparmor_file_lock: F_WRLCK); mmap(2) and
 *            mprotect(2) with PROT_EXEC ask executable mmap, PROT_READ
 *            read (common_mmap). Each needs an open for reading first: a
 *            refused open leaves the rest not run.
 *   link     link(2) needs l on the new name; the parser pairs a plain l
 *            rule with any target and asks the subset test
 *            (profile_path_link in file.c): the new name's permissions
 *            but l must be the target's too, else -EACCES. X, outside
 *            D, has none, so no link to it is allowed.
 *   record   A refusal logs one record (aa_audit_file): operation
 *            the hook's, name the path, requested_mask and denied_mask
 *            both only what was denied, less what is quiet: a deny rule
 *            not marked audit is quiet, so a refusal it alone makes logs
 *            nothing. Allowed operations log nothing.
 *   unconfined  nothing is asked of AppArmor.
 * A refusal is -EACCES: root passes every DAC and capability check first.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "../lsmconf/judge.h"
#include "kmsg_audit.h"

#define ABI "5.0"
#define BASE "/tmp/lsmconf_file"
#define D BASE "/d"
#define X BASE "/x"
#define OTHER_UID 1000

/* The letters a profile grants on D's paths. */
enum letter {
	L_R = 1 << 0,
	L_W = 1 << 1,
	L_A = 1 << 2,
	L_K = 1 << 3,
	L_L = 1 << 4,
	L_M = 1 << 5,
};

enum opn {
	O_OPEN_READ,
	O_OPEN_WRITE,
	O_OPEN_APPEND,
	O_OPEN_TRUNC,
	O_OPEN_READ_OTHER,
	O_CREATE,
	O_CREATE_RDONLY,
	O_MKDIR,
	O_RMDIR,
	O_UNLINK,
	O_SYMLINK,
	O_MKFIFO,
	O_CHMOD,
	O_CHOWN,
	O_TRUNCATE,
	O_RENAME,
	O_LINK,
	O_LINK_OUTSIDE,
	O_FLOCK_SH,
	O_FLOCK_EX,
	O_MMAP_EXEC,
	O_MPROTECT_EXEC,
	NOPS,
};

struct file_op {
	const char *name;
	const char *object; /* the path the decision is about */
	bool after_open; /* on a descriptor open()ed for reading first */
};

static const struct file_op ops[NOPS] = {
	[O_OPEN_READ] = { "open_read", D "/f" },
	[O_OPEN_WRITE] = { "open_write", D "/f" },
	[O_OPEN_APPEND] = { "open_append", D "/f" },
	[O_OPEN_TRUNC] = { "open_trunc", D "/f" },
	[O_OPEN_READ_OTHER] = { "open_read_other_owner", D "/o" },
	[O_CREATE] = { "create", D "/n" },
	[O_CREATE_RDONLY] = { "create_rdonly", D "/n" },
	[O_MKDIR] = { "mkdir", D "/sub2/" },
	[O_RMDIR] = { "rmdir", D "/sub/" },
	[O_UNLINK] = { "unlink", D "/f" },
	[O_SYMLINK] = { "symlink", D "/s" },
	[O_MKFIFO] = { "mkfifo", D "/p" },
	[O_CHMOD] = { "chmod", D "/f" },
	[O_CHOWN] = { "chown", D "/f" },
	[O_TRUNCATE] = { "truncate", D "/f" },
	[O_RENAME] = { "rename", D "/f" },
	[O_LINK] = { "link", D "/l" },
	[O_LINK_OUTSIDE] = { "link_outside", D "/l" },
	[O_FLOCK_SH] = { "flock_sh", D "/f", true },
	[O_FLOCK_EX] = { "flock_ex", D "/f", true },
	[O_MMAP_EXEC] = { "mmap_exec", D "/f", true },
	[O_MPROTECT_EXEC] = { "mprotect_exec", D "/f", true },
};

struct file_profile {
	const char *tag; /* AA_TEST_PREFIX "file_" tag */
	unsigned int letters; /* on D/ and below */
	bool owner; /* the rule is an owner rule */
	bool deny_f_w; /* deny D/f w, */
	const char *rules;
};

enum prof {
	PR_NONE,
	PR_R,
	PR_W,
	PR_A,
	PR_RW,
	PR_RK,
	PR_RWK,
	PR_RM,
	PR_RL,
	PR_RWL,
	PR_OWNER_RW,
	PR_RWL_DENY_F_W,
	NPROF
};
#define PR_UNCONFINED NPROF

/* clang-format off */
static const struct file_profile file_profiles[NPROF] = {
	[PR_NONE] = { "none", 0, false, false, "" },
	[PR_R] = { "r", L_R, false, false, D "/** r,\n" },
	[PR_W] = { "w", L_W, false, false, D "/** w,\n" },
	[PR_A] = { "a", L_A, false, false, D "/** a,\n" },
	[PR_RW] = { "rw", L_R | L_W, false, false, D "/** rw,\n" },
	[PR_RK] = { "rk", L_R | L_K, false, false, D "/** rk,\n" },
	[PR_RWK] = { "rwk", L_R | L_W | L_K, false, false, D "/** rwk,\n" },
	[PR_RM] = { "rm", L_R | L_M, false, false, D "/** rm,\n" },
	[PR_RL] = { "rl", L_R | L_L, false, false, D "/** rl,\n" },
	[PR_RWL] = { "rwl", L_R | L_W | L_L, false, false, D "/** rwl,\n" },
	[PR_OWNER_RW] = { "owner_rw", L_R | L_W, true, false,
			  "owner " D "/** rw,\n" },
	[PR_RWL_DENY_F_W] = { "rwl_deny_f_w", L_R | L_W | L_L, false, true,
			      D "/** rwl,\n  deny " D "/f w,\n" },
};
/* clang-format on */

/* The letters @p grants on @path, owned by @uid (the model's rules). */
static unsigned int letters_on(const struct file_profile *p, const char *path,
			       uid_t uid)
{
	unsigned int l;

	if (strncmp(path, D "/", strlen(D "/")))
		return 0; /* no rule names it */
	l = p->letters;
	if (p->owner && uid != 0)
		return 0; /* owner: the object's owner is not the fsuid */
	if (p->deny_f_w && !strcmp(path, D "/f"))
		l &= ~(L_W | L_A); /* deny w takes append with write */
	return l;
}

/* What a hook asks (security/apparmor/include/perms.h, own names). */
enum perm {
	P_READ = 1 << 0,
	P_WRITE = 1 << 1,
	P_APPEND = 1 << 2,
	P_CREATE = 1 << 3,
	P_DELETE = 1 << 4,
	P_SETATTR = 1 << 5,
	P_GETATTR = 1 << 6,
	P_CHMOD = 1 << 7,
	P_CHOWN = 1 << 8,
	P_LOCK = 1 << 9,
	P_MMAP = 1 << 10,
	P_LINK = 1 << 11,
};

/* What letters grant (map_old_perms; the parser gives w append too). */
static unsigned int perms_of(unsigned int l)
{
	unsigned int p = 0;

	if (l & L_R)
		p |= P_READ | P_GETATTR;
	if (l & L_W)
		p |= P_WRITE | P_APPEND | P_SETATTR | P_CREATE | P_DELETE |
		     P_CHMOD | P_CHOWN;
	if (l & L_A)
		p |= P_APPEND;
	if (l & L_K)
		p |= P_LOCK;
	if (l & L_L)
		p |= P_LINK;
	if (l & L_M)
		p |= P_MMAP;
	return p;
}

/* What @p grants on @path, owned by @uid. */
static unsigned int grants(const struct file_profile *p, const char *path,
			   uid_t uid)
{
	return perms_of(letters_on(p, path, uid));
}

/*
 * What @p quiets on @path: a deny rule not marked "audit" is quiet (the
 * parser sets its letters in the quiet mask, map_old_perms maps them).
 */
static unsigned int quiet_on(const struct file_profile *p, const char *path)
{
	return p->deny_f_w && !strcmp(path, D "/f") ? perms_of(L_W) : 0;
}

/*
 * A mask as a record prints it (file_audit_cb: map_mask_to_chr_mask, then
 * aa_file_perm_chrs "xwracd...km.l" in bit order): getattr shows as r;
 * setattr, chmod and chown as w.
 */
static void mask_str(unsigned int m, char *s)
{
	if (m & (P_WRITE | P_SETATTR | P_CHMOD | P_CHOWN))
		*s++ = 'w';
	if (m & (P_READ | P_GETATTR))
		*s++ = 'r';
	if (m & P_APPEND)
		*s++ = 'a';
	if (m & P_CREATE)
		*s++ = 'c';
	if (m & P_DELETE)
		*s++ = 'd';
	if (m & P_LOCK)
		*s++ = 'k';
	if (m & P_MMAP)
		*s++ = 'm';
	if (m & P_LINK)
		*s++ = 'l';
	*s = '\0';
}

/* One check a hook makes: its audit operation, the path, the request. */
struct check {
	const char *audit_op; /* OP_* in security/apparmor/include/audit.h */
	const char *name;
	unsigned int request;
};

#define MAX_CHECKS 2
#define OPEN_F_READ                    \
	{                              \
		"open", D "/f", P_READ \
	}

/*
 * The checks of each operation, in the kernel's order (lsm.c): open(2) is
 * apparmor_file_open, O_TRUNC's file_truncate after it; a new name by
 * open(O_CREAT) path_mknod ("mknod") first; rename the old name, then the
 * new one; on a descriptor, the open for reading first (its permissions
 * cached, aa_file_perm() checks again only a request beyond them). A
 * directory's name ends in "/" (aa_path_perm: PATH_IS_DIR). Link is
 * link_want()'s.
 */
static const struct check checks[NOPS][MAX_CHECKS] = {
	[O_OPEN_READ] = { OPEN_F_READ },
	[O_OPEN_WRITE] = { { "open", D "/f", P_WRITE } },
	[O_OPEN_APPEND] = { { "open", D "/f", P_APPEND } },
	[O_OPEN_TRUNC] = { { "open", D "/f", P_WRITE },
			   { "truncate", D "/f", P_WRITE | P_SETATTR } },
	[O_OPEN_READ_OTHER] = { { "open", D "/o", P_READ } },
	[O_CREATE] = { { "mknod", D "/n", P_CREATE },
		       { "open", D "/n", P_WRITE | P_CREATE } },
	[O_CREATE_RDONLY] = { { "mknod", D "/n", P_CREATE },
			      { "open", D "/n", P_READ | P_CREATE } },
	[O_MKDIR] = { { "mkdir", D "/sub2/", P_CREATE } },
	[O_RMDIR] = { { "rmdir", D "/sub/", P_DELETE } },
	[O_UNLINK] = { { "unlink", D "/f", P_DELETE } },
	[O_SYMLINK] = { { "symlink", D "/s", P_CREATE } },
	[O_MKFIFO] = { { "mknod", D "/p", P_CREATE } },
	[O_CHMOD] = { { "chmod", D "/f", P_CHMOD } },
	[O_CHOWN] = { { "chown", D "/f", P_CHOWN } },
	[O_TRUNCATE] = { { "truncate", D "/f", P_WRITE | P_SETATTR } },
	[O_RENAME] = { { "rename_src", D "/f",
			 P_READ | P_GETATTR | P_WRITE | P_SETATTR | P_DELETE },
		       { "rename_dest", D "/g",
			 P_WRITE | P_SETATTR | P_CREATE } },
	[O_FLOCK_SH] = { OPEN_F_READ, { "file_lock", D "/f", P_LOCK } },
	[O_FLOCK_EX] = { OPEN_F_READ,
			 { "file_lock", D "/f", P_LOCK | P_WRITE } },
	[O_MMAP_EXEC] = { OPEN_F_READ,
			  { "file_mmap", D "/f", P_READ | P_MMAP } },
	[O_MPROTECT_EXEC] = { OPEN_F_READ,
			      { "file_mprotect", D "/f", P_READ | P_MMAP } },
};

/* What a case should show: its outcome and the record it logs. */
struct file_want {
	int ret; /* 0, -EACCES, or NOT_RUN (the open before it refused) */
	bool logged;
	const char *audit_op, *name, *target; /* target: link's only */
	unsigned int mask; /* requested_mask and denied_mask alike */
	uid_t ouid;
};

/* A refusal: logged unless everything it denies is quiet. */
static void refuse(struct file_want *w, int ret, const char *audit_op,
		   const char *name, unsigned int denied, unsigned int quiet)
{
	w->ret = ret;
	w->audit_op = audit_op;
	w->name = name;
	/* aa_audit_file: only the denied permissions, less the quiet ones */
	w->mask = denied & ~quiet;
	w->logged = w->mask != 0;
}

/*
 * link(2) (profile_path_link in file.c): l on the new name, else its
 * record asks l; the parser pairs a plain l rule with any target and asks
 * the subset test: every permission of the new name's but l must be the
 * target's, the record naming those that are not. The pair's own quiet
 * mask is the one used, and no deny rule here names l: nothing is quiet.
 */
static void link_want(const struct file_profile *p, const char *target,
		      struct file_want *w)
{
	unsigned int n = grants(p, D "/l", 0), t = grants(p, target, 0);

	w->target = target;
	if (!(n & P_LINK))
		refuse(w, -EACCES, "link", D "/l", P_LINK, 0);
	else if ((n & ~P_LINK) & ~t)
		refuse(w, -EACCES, "link", D "/l", (n & ~P_LINK) & ~t, 0);
}

/*
 * The model: the first check whose request @pi does not grant refuses the
 * operation with -EACCES (root passes every DAC and capability check
 * first) and logs what it denies; a refused open before an operation on a
 * descriptor leaves it not run. Unconfined asks nothing.
 */
static void file_model(int pi, enum opn op, struct file_want *w)
{
	const struct file_profile *p = &file_profiles[pi];
	int i;

	memset(w, 0, sizeof(*w));
	if (pi == PR_UNCONFINED)
		return;
	if (op == O_LINK || op == O_LINK_OUTSIDE) {
		link_want(p, op == O_LINK ? D "/f" : X, w);
		return;
	}
	for (i = 0; i < MAX_CHECKS && checks[op][i].audit_op; i++) {
		const struct check *c = &checks[op][i];
		uid_t uid = strcmp(c->name, D "/o") ? 0 : OTHER_UID;
		unsigned int denied = c->request & ~grants(p, c->name, uid);

		if (denied) {
			refuse(w, ops[op].after_open && !i ? NOT_RUN : -EACCES,
			       c->audit_op, c->name, denied,
			       quiet_on(p, c->name));
			w->ouid = uid;
			return;
		}
	}
}

static int write_file(const char *path, uid_t uid)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, "lsmconf\n", 8) != 8 || (uid && fchown(fd, uid, uid)))
		ret = -EIO;
	close(fd);
	return ret;
}

/* D and X as every operation starts from, whatever the last one left. */
static int reset_tree(void)
{
	static const char *const files[] = {
		"f", "o", "n", "s", "p", "g", "l"
	};
	char path[PATH_MAX];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), D "/%s", files[i]);
		if (unlink(path) && errno != ENOENT)
			return -errno;
	}
	if ((rmdir(D "/sub") && errno != ENOENT) ||
	    (rmdir(D "/sub2") && errno != ENOENT) ||
	    (unlink(X) && errno != ENOENT))
		return -errno;
	if ((mkdir(D, 0755) && errno != EEXIST) || mkdir(D "/sub", 0755))
		return -errno;
	ret = write_file(D "/f", 0);
	if (!ret)
		ret = write_file(D "/o", OTHER_UID);
	if (!ret)
		ret = write_file(X, 0);
	return ret;
}

/* An operation on a descriptor: @fd open()ed for reading. */
static int fd_op(enum opn op, int fd)
{
	void *m;
	int ret;

	switch (op) {
	case O_FLOCK_SH:
		return sys_ret(flock(fd, LOCK_SH));
	case O_FLOCK_EX:
		return sys_ret(flock(fd, LOCK_EX));
	case O_MMAP_EXEC:
		m = mmap(NULL, 4096, PROT_READ | PROT_EXEC, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED)
			return -errno;
		munmap(m, 4096);
		return 0;
	case O_MPROTECT_EXEC:
		m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
		if (m == MAP_FAILED)
			return -EIO; /* read is the open's: never refused */
		ret = sys_ret(mprotect(m, 4096, PROT_READ | PROT_EXEC));
		munmap(m, 4096);
		return ret;
	default:
		return -EINVAL;
	}
}

static int open_ret(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC, 0644);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int path_op(enum opn op)
{
	switch (op) {
	case O_OPEN_READ:
		return open_ret(D "/f", O_RDONLY);
	case O_OPEN_WRITE:
		return open_ret(D "/f", O_WRONLY);
	case O_OPEN_APPEND:
		return open_ret(D "/f", O_WRONLY | O_APPEND);
	case O_OPEN_TRUNC:
		return open_ret(D "/f", O_WRONLY | O_TRUNC);
	case O_OPEN_READ_OTHER:
		return open_ret(D "/o", O_RDONLY);
	case O_CREATE:
		return open_ret(D "/n", O_WRONLY | O_CREAT | O_EXCL);
	case O_CREATE_RDONLY:
		return open_ret(D "/n", O_RDONLY | O_CREAT | O_EXCL);
	case O_MKDIR:
		return sys_ret(mkdir(D "/sub2", 0755));
	case O_RMDIR:
		return sys_ret(rmdir(D "/sub"));
	case O_UNLINK:
		return sys_ret(unlink(D "/f"));
	case O_SYMLINK:
		return sys_ret(symlink("f", D "/s"));
	case O_MKFIFO:
		return sys_ret(mkfifo(D "/p", 0644));
	case O_CHMOD:
		return sys_ret(chmod(D "/f", 0600));
	case O_CHOWN:
		return sys_ret(chown(D "/f", 0, 0));
	case O_TRUNCATE:
		return sys_ret(truncate(D "/f", 0));
	case O_RENAME:
		return sys_ret(rename(D "/f", D "/g"));
	case O_LINK:
		return sys_ret(link(D "/f", D "/l"));
	case O_LINK_OUTSIDE:
		return sys_ret(link(X, D "/l"));
	default:
		return -EINVAL;
	}
}

struct file_case {
	int pi;
	enum opn op;
};

/* The child (child_run()): the tree, the profile, one operation. */
static void file_child(void *arg, void *reply)
{
	const struct file_case *k = arg;
	struct aa_child_report *c = reply;
	int fd;

	c->pre = NOT_RUN;
	c->result = NOT_RUN;
	c->setup = reset_tree();
	if (!c->setup && k->pi != PR_UNCONFINED)
		c->enter =
			aa_enter_test_profile("file", file_profiles[k->pi].tag);
	if (c->setup || c->enter)
		return;
	if (ops[k->op].after_open) {
		fd = open(D "/f", O_RDONLY | O_CLOEXEC);
		c->pre = fd < 0 ? -errno : 0;
		if (fd >= 0)
			c->result = fd_op(k->op, fd);
	} else {
		c->result = path_op(k->op);
	}
}

static int file_run(int pi, enum opn op, struct aa_child_report *r)
{
	struct file_case k = { pi, op };

	return child_run(file_child, &k, r, sizeof(*r));
}

FIXTURE(files)
{
	bool mounted;
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(files)
{
	int prof;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(files, unconfined) { .prof = PR_UNCONFINED };
FIXTURE_VARIANT_ADD(files, no_rules) { .prof = PR_NONE };
FIXTURE_VARIANT_ADD(files, r) { .prof = PR_R };
FIXTURE_VARIANT_ADD(files, w) { .prof = PR_W };
FIXTURE_VARIANT_ADD(files, a) { .prof = PR_A };
FIXTURE_VARIANT_ADD(files, rw) { .prof = PR_RW };
FIXTURE_VARIANT_ADD(files, rk) { .prof = PR_RK };
FIXTURE_VARIANT_ADD(files, rwk) { .prof = PR_RWK };
FIXTURE_VARIANT_ADD(files, rm) { .prof = PR_RM };
FIXTURE_VARIANT_ADD(files, rl) { .prof = PR_RL };
FIXTURE_VARIANT_ADD(files, rwl) { .prof = PR_RWL };
FIXTURE_VARIANT_ADD(files, owner_rw) { .prof = PR_OWNER_RW };
FIXTURE_VARIANT_ADD(files, rwl_deny_f_w) { .prof = PR_RWL_DENY_F_W };
/* clang-format on */

FIXTURE_SETUP(files)
{
	struct aa_policy p, m;
	char tag[64];
	int ret;

	/* The unconfined variant too: it is the matrix's baseline, as root. */
	REQUIRE_APPARMOR(_metadata, true);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
	/* A tmpfs of the test's own: exec mappings allowed, gone after. */
	ASSERT_EQ(0, mkdir(BASE, 0755) && errno != EEXIST ? -errno : 0);
	ASSERT_EQ(0, sys_ret(mount("tmpfs", BASE, "tmpfs", 0, "mode=0755")));
	self->mounted = true;
	ret = aa_policy_share(_metadata, &m, "file", ABI, "", "file_marker",
			      NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	if (variant->prof == PR_UNCONFINED)
		return;
	snprintf(tag, sizeof(tag), "file_%s", file_profiles[variant->prof].tag);
	ret = aa_policy_share(_metadata, &p, "file", ABI,
			      file_profiles[variant->prof].rules, tag, NULL);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(files)
{
	if (self->mounted)
		umount2(BASE, MNT_DETACH);
	rmdir(BASE);
	EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

/*
 * The record of one case against the model's: its fields, -EBADMSG when
 * one differs or more than one record came, NOT_RUN when none did.
 */
static int judge_log(struct __test_metadata *_metadata, const char *id,
		     const char *prof, const struct records *got,
		     const struct file_want *w)
{
	char mask[16], ouid[16];
	int bad = 0, i;

	if (!got->n)
		return NOT_RUN;
	for (i = 0; (got->n > 1 || !w->logged) && i < got->n; i++)
		TH_LOG("%s: logged %s", id, got->rec[i]);
	if (got->n > 1 || !w->logged)
		return -EBADMSG;
	mask_str(w->mask, mask);
	snprintf(ouid, sizeof(ouid), "%u", w->ouid);
	bad |= judge_field(_metadata, id, got->rec[0], "apparmor", "DENIED");
	bad |= judge_field(_metadata, id, got->rec[0], "operation",
			   w->audit_op);
	bad |= judge_field(_metadata, id, got->rec[0], "profile", prof);
	bad |= judge_field(_metadata, id, got->rec[0], "name", w->name);
	bad |= judge_field(_metadata, id, got->rec[0], "requested_mask", mask);
	bad |= judge_field(_metadata, id, got->rec[0], "denied_mask", mask);
	bad |= judge_field(_metadata, id, got->rec[0], "ouid", ouid);
	bad |= judge_field(_metadata, id, got->rec[0], "target", w->target);
	return bad;
}

TEST_F_TIMEOUT(files, decisions, 90)
{
	const char *tag = variant->prof == PR_UNCONFINED ?
				  NULL :
				  file_profiles[variant->prof].tag;
	struct record rec = {
		.abi = ABI,
		.subject = tag ?: "unconfined",
		.class = "file",
	};
	char prof[160], marker[160], op[96];
	int i;

	snprintf(prof, sizeof(prof), AA_TEST_PREFIX "file_%s",
		 tag ?: "unconfined");
	snprintf(marker, sizeof(marker), AA_TEST_PREFIX "file_marker");
	for (i = 0; i < NOPS; i++) {
		struct aa_child_report r;
		struct file_want w;
		struct records got;
		int fd = kmsg_open_end();

		ASSERT_LE(0, fd);
		ASSERT_EQ(0, file_run(variant->prof, i, &r));
		ASSERT_CHILD_READY(&r, ops[i].name);
		ASSERT_EQ(0, aa_log_mark("file"));
		ASSERT_EQ(0, log_collect(fd, prof, marker, &got))
		{
			TH_LOG("%s: no marker record in the log", ops[i].name);
		}
		close(fd);
		file_model(variant->prof, i, &w);
		rec.object = ops[i].object;
		rec.detail = ops[i].after_open ? "after_open_read" : "path";
		rec.op = ops[i].name;
		rec.expected = w.ret;
		rec.observed = ops[i].after_open && r.pre ? NOT_RUN : r.result;
		JUDGE(&rec);
		/* The record the decision logs, or proven quiet by the marker. */
		JUDGE_LOG(&rec, op, ops[i].name, w.logged, got.n,
			  judge_log(_metadata, ops[i].name, prof, &got, &w));
	}
}

AA_HARNESS_MAIN
