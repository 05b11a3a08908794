// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux files, directories, symbolic links, devices and their mounts: a
 * root task in a test domain opens, reads the attributes of, changes,
 * locks, maps, links, unlinks, renames and creates files, sets, reads,
 * lists and removes their extended attributes and ACLs, creates, removes
 * and opens directories, makes, reads and follows symbolic links, makes
 * a device and a FIFO, mounts, remounts, unmounts and moves a tmpfs, and
 * reads the filesystem's statistics, all of type lsmconf_fl_obj_t (a
 * tmpfs mounted with that context). Each actor lacks at most one
 * permission of class file, dir, lnk_file, chr_file, fifo_file or
 * filesystem on that type (policy part lsmconf-file.cil); every other
 * type it may use as it likes.
 *
 * The model (file_expect(); security/selinux/hooks.c, and the VFS that
 * calls it, fs/namei.c): each call asks a chain of checks, in order, and
 * the first the actor lacks refuses it with -EACCES:
 *
 *   search        every directory a path walks through (may_lookup ->
 *                 inode_permission -> selinux_inode_permission, MAY_EXEC)
 *   read, write,  opening a file (may_open -> selinux_inode_permission:
 *   append        file_mask_to_av, append instead of write for O_APPEND),
 *   open          then selinux_file_open (open_file_to_av: the same and
 *                 open, the policy's open_perms capability)
 *   getattr       stat(2) (selinux_inode_getattr)
 *   setattr       chmod(2) (selinux_inode_setattr)
 *   lock          flock(2) (selinux_file_lock)
 *   map, then     mmap(2) (selinux_mmap_file: map, then
 *   read/execute  file_map_prot_check: read for every mapping, and
 *                 execute for PROT_EXEC, in one check); mprotect(2)
 *                 adding PROT_EXEC to a shared mapping asks the same
 *                 again (selinux_file_mprotect)
 *   write         fcntl(F_SETFL) clearing O_APPEND of a descriptor
 *                 (selinux_file_fcntl)
 *   lnk_file      a symbolic link's read when readlink(2) reads it
 *   read, create  (selinux_inode_readlink) or a walk follows it
 *                 (selinux_inode_follow_link); create by symlink(2)
 *                 (may_create, class lnk_file)
 *   filesystem    statfs(2) of the mount (selinux_sb_statfs: the
 *   getattr       superblock's label, the context= of the mount)
 *   getattr,      an extended attribute other than security.selinux or
 *   setattr       an ACL read or listed (selinux_inode_getxattr,
 *                 _listxattr, _get_acl), set or removed (_setxattr,
 *                 _removexattr, _set_acl, _remove_acl); 6.1 asks the same
 *                 through its xattr hooks. Allowed, the call gets what the
 *                 filesystem answers: a tmpfs built without
 *                 CONFIG_TMPFS_XATTR or _POSIX_ACL answers -EOPNOTSUPP
 *                 after the hook (xattr_resolve_name, set_posix_acl), seen
 *                 when the harness's domain sets the attribute first; an
 *                 ACL call there is not made (file_made())
 *   getattr,      file_getattr(2), file_setattr(2) (6.17): the file
 *   setattr       attributes read (selinux_inode_file_getattr), or read
 *                 then set (vfs_fileattr_set reads them first: getattr,
 *                 then selinux_inode_file_setattr); not made where the
 *                 harness's domain cannot read them (file_made())
 *   dir mounton   a mount on a directory (selinux_mount) or moved to it
 *                 (selinux_move_mount), before may_mount()
 *   filesystem    a new tmpfs with context=: relabelfrom the policy's
 *   relabelto,    tmpfs type (fs_t, never refused), relabelto the
 *   relabelfrom,  context, relabelfrom it for the root inode
 *   mount         (selinux_set_mnt_opts: may_context_mount_sb_relabel,
 *                 then _inode_relabel), then mount of the new superblock
 *                 (selinux_sb_kern_mount)
 *   filesystem    MS_REMOUNT (selinux_mount; selinux_sb_remount then
 *   remount,      compares the context given, the same, with no check),
 *   unmount       umount(2) (selinux_umount)
 *   chr_file,     mknod(2) of a device or a FIFO: as a file's creation,
 *   fifo_file     with the class of the new node (selinux_inode_mknod,
 *   create        may_create)
 *   dir write     creating or removing a name (may_create, may_delete in
 *                 fs/namei.c: inode_permission(dir, MAY_WRITE|MAY_EXEC))
 *   add_name,     then the hook: may_create (add_name, then create of the
 *   remove_name   new object's class), may_link (add_name or remove_name,
 *                 then link, unlink or rmdir), may_rename (remove_name,
 *                 rename, then add_name)
 *   read, write   link(2) under fs.protected_hardlinks: may_linkat asks
 *   of the source  whether the source is safe to link
 *                 (safe_hardlink_source: inode_permission(MAY_READ |
 *                 MAY_WRITE)); a refusal only makes it ask whether the
 *                 caller owns the file, which root does: logged, the link
 *                 allowed
 *
 * Each refusal is one AVC record (avc_log.h: read up to a marker's):
 * "avc:  denied  { PERM }", the actor's scontext, tcontext the object's
 * type, tclass file or dir, permissive=0. An allowed call logs none.
 */

#define _GNU_SOURCE
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "avc_log.h"
#include "../lsmconf/judge.h"

#define LEVEL "s0"
#define CATS 4
#define OBJ "lsmconf_fl_obj_t"
#define MNT "/tmp/lsmconf_selfile"
#define F MNT "/f" /* a file, made for each call */
#define G MNT "/g" /* a name a call gives it */
#define D MNT "/d" /* a directory, made for the calls that need it */
#define L MNT "/l" /* a symbolic link to f, made for the calls that need it */
#define E MNT "/e" /* a directory a mount moves to */
#define XATTR "trusted.lsmconf"
#define ACL_XATTR "system.posix_acl_access"
#define MOUNT_OPTS "context=lsmconf_u:object_r:" OBJ ":" LEVEL
#define MAX_CHECKS 6
#define PROTECTED_HARDLINKS "/proc/sys/fs/protected_hardlinks"
#ifndef SYS_move_mount
#define SYS_move_mount 429 /* every architecture's but alpha's */
#endif
#ifndef SYS_file_getattr
#define SYS_file_getattr 468 /* the same */
#define SYS_file_setattr 469
#endif

/* One permission a call asks, of class file or dir. */
struct fl_check {
	const char *class;
	const char *perm;
	/* asked only under fs.protected_hardlinks, its refusal only logged */
	bool hardlink_probe;
};

/* clang-format off */
#define FILE_P(p) { "file", p }
#define DIR_P(p) { "dir", p }
#define PROBE(p) { "file", p, true }
#define LNK_P(p) { "lnk_file", p }
#define FS_P(p) { "filesystem", p }
#define CHR_P(p) { "chr_file", p }
#define FIFO_P(p) { "fifo_file", p }
#define SEARCH DIR_P("search")
/* clang-format on */

enum fl_op {
	OP_OPEN_READ,
	OP_OPEN_WRITE,
	OP_OPEN_APPEND,
	OP_STAT,
	OP_CHMOD,
	OP_FLOCK,
	OP_MMAP_READ,
	OP_MMAP_EXEC,
	OP_LINK,
	OP_UNLINK,
	OP_RENAME,
	OP_MKNOD_FILE,
	OP_MKDIR,
	OP_RMDIR,
	OP_OPENDIR,
	OP_FCNTL_CLEAR_APPEND,
	OP_MPROTECT_EXEC,
	OP_SYMLINK,
	OP_READLINK,
	OP_OPEN_VIA_SYMLINK,
	OP_STATFS,
	OP_MOUNT,
	OP_REMOUNT,
	OP_UMOUNT,
	OP_MOVE_MOUNT,
	OP_MKNOD_CHR,
	OP_MKNOD_FIFO,
	OP_SETXATTR,
	OP_GETXATTR,
	OP_LISTXATTR,
	OP_REMOVEXATTR,
	OP_SET_ACL,
	OP_GET_ACL,
	OP_REMOVE_ACL,
	OP_FILE_GETATTR,
	OP_FILE_SETATTR,
	N_OPS
};

/* What a call's preparation sets on F, the filesystem's answer to it. */
enum fl_attr {
	ATTR_NONE,
	ATTR_XATTR, /* XATTR: tmpfs has it with CONFIG_TMPFS_XATTR */
	ATTR_ACL, /* an access ACL: with CONFIG_TMPFS_POSIX_ACL */
	/* F's file attributes read (file_getattr(2), 6.17): tmpfs has
	 * them with CONFIG_TMPFS_XATTR
	 */
	ATTR_FILEATTR,
};

/* clang-format off */
static const struct {
	const char *name;
	struct fl_check checks[MAX_CHECKS]; /* in the order they are asked */
	bool fd; /* on a descriptor opened before the actor enters */
	bool dir; /* needs D */
	bool symlink; /* needs L, a symbolic link to f */
	int fd_flags; /* the descriptor's (O_RDONLY when 0) */
	bool mounted; /* needs D a mount of the objects' type, and E */
	enum fl_attr attr; /* set on F first, as the harness's domain */
	/* allowed, it gets the filesystem's answer to that setting */
	bool fs_answer;
} ops[N_OPS] = {
	[OP_OPEN_READ] = { "open_read",
		{ SEARCH, FILE_P("read"), FILE_P("open") } },
	[OP_OPEN_WRITE] = { "open_write",
		{ SEARCH, FILE_P("write"), FILE_P("open") } },
	[OP_OPEN_APPEND] = { "open_append",
		{ SEARCH, FILE_P("append"), FILE_P("open") } },
	[OP_STAT] = { "stat", { SEARCH, FILE_P("getattr") } },
	[OP_CHMOD] = { "chmod", { SEARCH, FILE_P("setattr") } },
	[OP_FLOCK] = { "flock", { FILE_P("lock") }, true },
	[OP_MMAP_READ] = { "mmap_shared_read",
		{ FILE_P("map"), FILE_P("read") }, true },
	[OP_MMAP_EXEC] = { "mmap_shared_exec",
		{ FILE_P("map"), FILE_P("read"), FILE_P("execute") }, true },
	[OP_LINK] = { "link",
		{ SEARCH, PROBE("read"), PROBE("write"), DIR_P("write"),
		  DIR_P("add_name"), FILE_P("link") } },
	[OP_UNLINK] = { "unlink",
		{ SEARCH, DIR_P("write"), DIR_P("remove_name"),
		  FILE_P("unlink") } },
	[OP_RENAME] = { "rename",
		{ SEARCH, DIR_P("write"), DIR_P("remove_name"),
		  FILE_P("rename"), DIR_P("add_name") } },
	[OP_MKNOD_FILE] = { "mknod_file",
		{ SEARCH, DIR_P("write"), DIR_P("add_name"),
		  FILE_P("create") } },
	[OP_MKDIR] = { "mkdir",
		{ SEARCH, DIR_P("write"), DIR_P("add_name"),
		  DIR_P("create") } },
	[OP_RMDIR] = { "rmdir",
		{ SEARCH, DIR_P("write"), DIR_P("remove_name"),
		  DIR_P("rmdir") }, false, true },
	[OP_OPENDIR] = { "opendir",
		{ SEARCH, DIR_P("read"), DIR_P("open") }, false, true },
	[OP_FCNTL_CLEAR_APPEND] = { "fcntl_setfl_clear_append",
		{ FILE_P("write") }, true, .fd_flags = O_WRONLY | O_APPEND },
	[OP_MPROTECT_EXEC] = { "mprotect_shared_exec",
		{ FILE_P("map"), FILE_P("read"), FILE_P("execute") }, true },
	[OP_SYMLINK] = { "symlink",
		{ SEARCH, DIR_P("write"), DIR_P("add_name"),
		  LNK_P("create") } },
	[OP_READLINK] = { "readlink", { SEARCH, LNK_P("read") },
		.symlink = true },
	[OP_OPEN_VIA_SYMLINK] = { "open_read_via_symlink",
		{ SEARCH, LNK_P("read"), FILE_P("read"), FILE_P("open") },
		.symlink = true },
	/* the mount's root: no directory searched */
	[OP_STATFS] = { "statfs", { FS_P("getattr") } },
	/*
	 * A tmpfs on D with the objects' context: the mount point, then the
	 * superblock's relabel from the policy's tmpfs type (fs_t, never
	 * refused) to the context and the root's from it, then the mount.
	 */
	[OP_MOUNT] = { "mount_tmpfs_context",
		{ SEARCH, DIR_P("mounton"), FS_P("relabelto"),
		  FS_P("relabelfrom"), FS_P("mount") }, .dir = true },
	/* the mount's root again: no directory searched */
	[OP_REMOUNT] = { "remount", { FS_P("remount") } },
	[OP_UMOUNT] = { "umount", { SEARCH, FS_P("unmount") },
		.mounted = true },
	/* move_mount(2) of D's mount to E */
	[OP_MOVE_MOUNT] = { "move_mount", { SEARCH, DIR_P("mounton") },
		.mounted = true },
	[OP_MKNOD_CHR] = { "mknod_chr",
		{ SEARCH, DIR_P("write"), DIR_P("add_name"),
		  CHR_P("create") } },
	[OP_MKNOD_FIFO] = { "mknod_fifo",
		{ SEARCH, DIR_P("write"), DIR_P("add_name"),
		  FIFO_P("create") } },
	[OP_SETXATTR] = { "setxattr", { SEARCH, FILE_P("setattr") },
		.attr = ATTR_XATTR, .fs_answer = true },
	[OP_GETXATTR] = { "getxattr", { SEARCH, FILE_P("getattr") },
		.attr = ATTR_XATTR, .fs_answer = true },
	/* no list of its own: the LSM's names (inode_listsecurity) */
	[OP_LISTXATTR] = { "listxattr", { SEARCH, FILE_P("getattr") },
		.attr = ATTR_XATTR },
	[OP_REMOVEXATTR] = { "removexattr", { SEARCH, FILE_P("setattr") },
		.attr = ATTR_XATTR, .fs_answer = true },
	[OP_SET_ACL] = { "set_acl", { SEARCH, FILE_P("setattr") },
		.attr = ATTR_ACL, .fs_answer = true },
	[OP_GET_ACL] = { "get_acl", { SEARCH, FILE_P("getattr") },
		.attr = ATTR_ACL, .fs_answer = true },
	[OP_REMOVE_ACL] = { "remove_acl", { SEARCH, FILE_P("setattr") },
		.attr = ATTR_ACL, .fs_answer = true },
	[OP_FILE_GETATTR] = { "file_getattr", { SEARCH, FILE_P("getattr") },
		.attr = ATTR_FILEATTR },
	/* the attributes read, set again: vfs_fileattr_set reads them first */
	[OP_FILE_SETATTR] = { "file_setattr",
		{ SEARCH, FILE_P("getattr"), FILE_P("setattr") },
		.attr = ATTR_FILEATTR },
};
/* clang-format on */

FIXTURE(file)
{
	char ratelimit[32]; /* printk_ratelimit as found */
	int protected_hardlinks; /* fs.protected_hardlinks, 0 or 1 */
};

FIXTURE_VARIANT(file)
{
	const char *actor;
	struct fl_check lacks; /* .perm NULL: nothing */
};

/* Each actor, named after what it lacks on the objects (none: ok). */
/* clang-format off */
#define ACTOR(cls, p) { .actor = "lsmconf_fl_no_" #cls "_" #p "_t", \
			.lacks = { #cls, #p } }
FIXTURE_VARIANT_ADD(file, ok) { .actor = "lsmconf_fl_ok_t" };
FIXTURE_VARIANT_ADD(file, no_file_read) ACTOR(file, read);
FIXTURE_VARIANT_ADD(file, no_file_write) ACTOR(file, write);
FIXTURE_VARIANT_ADD(file, no_file_append) ACTOR(file, append);
FIXTURE_VARIANT_ADD(file, no_file_open) ACTOR(file, open);
FIXTURE_VARIANT_ADD(file, no_file_getattr) ACTOR(file, getattr);
FIXTURE_VARIANT_ADD(file, no_file_setattr) ACTOR(file, setattr);
FIXTURE_VARIANT_ADD(file, no_file_lock) ACTOR(file, lock);
FIXTURE_VARIANT_ADD(file, no_file_map) ACTOR(file, map);
FIXTURE_VARIANT_ADD(file, no_file_execute) ACTOR(file, execute);
FIXTURE_VARIANT_ADD(file, no_file_link) ACTOR(file, link);
FIXTURE_VARIANT_ADD(file, no_file_unlink) ACTOR(file, unlink);
FIXTURE_VARIANT_ADD(file, no_file_rename) ACTOR(file, rename);
FIXTURE_VARIANT_ADD(file, no_file_create) ACTOR(file, create);
FIXTURE_VARIANT_ADD(file, no_dir_search) ACTOR(dir, search);
FIXTURE_VARIANT_ADD(file, no_dir_add_name) ACTOR(dir, add_name);
FIXTURE_VARIANT_ADD(file, no_dir_remove_name) ACTOR(dir, remove_name);
FIXTURE_VARIANT_ADD(file, no_dir_write) ACTOR(dir, write);
FIXTURE_VARIANT_ADD(file, no_dir_read) ACTOR(dir, read);
FIXTURE_VARIANT_ADD(file, no_dir_open) ACTOR(dir, open);
FIXTURE_VARIANT_ADD(file, no_dir_create) ACTOR(dir, create);
FIXTURE_VARIANT_ADD(file, no_dir_rmdir) ACTOR(dir, rmdir);
FIXTURE_VARIANT_ADD(file, no_lnk_file_read) ACTOR(lnk_file, read);
FIXTURE_VARIANT_ADD(file, no_lnk_file_create) ACTOR(lnk_file, create);
FIXTURE_VARIANT_ADD(file, no_filesystem_getattr) ACTOR(filesystem, getattr);
FIXTURE_VARIANT_ADD(file, no_dir_mounton) ACTOR(dir, mounton);
FIXTURE_VARIANT_ADD(file, no_filesystem_relabelto) ACTOR(filesystem, relabelto);
FIXTURE_VARIANT_ADD(file, no_filesystem_relabelfrom)
	ACTOR(filesystem, relabelfrom);
FIXTURE_VARIANT_ADD(file, no_filesystem_mount) ACTOR(filesystem, mount);
FIXTURE_VARIANT_ADD(file, no_filesystem_remount) ACTOR(filesystem, remount);
FIXTURE_VARIANT_ADD(file, no_filesystem_unmount) ACTOR(filesystem, unmount);
FIXTURE_VARIANT_ADD(file, no_chr_file_create) ACTOR(chr_file, create);
FIXTURE_VARIANT_ADD(file, no_fifo_file_create) ACTOR(fifo_file, create);
/* clang-format on */

/*
 * Whether @op is made, @fs the filesystem's answer to its attribute. An
 * ACL call on a tmpfs that keeps no ACLs is not: a kernel without
 * CONFIG_FS_POSIX_ACL refuses it before any hook (the stubs of
 * include/linux/posix_acl.h), one with it but without
 * CONFIG_TMPFS_POSIX_ACL after SELinux's, and the guest cannot tell which.
 * Nor is a file attribute call where the harness could not read them: a
 * kernel before file_getattr(2) (-ENOSYS), or a tmpfs without
 * fileattr_get (-EOPNOTSUPP, before the hook: vfs_fileattr_get).
 */
static bool file_made(enum fl_op op, int fs)
{
	switch (ops[op].attr) {
	case ATTR_ACL:
		return fs != -EOPNOTSUPP;
	case ATTR_FILEATTR:
		return !fs;
	default:
		return true;
	}
}

/*
 * The check of @op the actor lacks and is asked (a hardlink probe only
 * under @protected), or NULL when there is none: what it logs.
 */
static const struct fl_check *file_denial(const FIXTURE_VARIANT(file) * v,
					  enum fl_op op, int protected, int fs)
{
	const struct fl_check *c = ops[op].checks;
	int i;

	if (!v->lacks.perm || !file_made(op, fs))
		return NULL;
	for (i = 0; i < MAX_CHECKS && c[i].perm; i++)
		if ((!c[i].hardlink_probe || protected) &&
		    !strcmp(c[i].class, v->lacks.class) &&
		    !strcmp(c[i].perm, v->lacks.perm))
			return &c[i];
	return NULL;
}

/*
 * The rule: -EACCES at the first check the actor lacks, else allowed:
 * 0, or for a call on an attribute the filesystem may not keep, @fs, its
 * answer when the harness's domain set that attribute (0 or -EOPNOTSUPP);
 * NOT_RUN for a call not made (file_made()).
 */
static int file_expect(const FIXTURE_VARIANT(file) * v, enum fl_op op,
		       int protected, int fs)
{
	const struct fl_check *c = file_denial(v, op, protected, fs);

	if (!file_made(op, fs))
		return NOT_RUN;
	if (c && !c->hardlink_probe)
		return -EACCES;
	return ops[op].fs_answer ? fs : 0;
}

struct fl_case {
	const char *actor;
	enum fl_op op;
};

/*
 * An access ACL in the xattr form (include/uapi/linux/posix_acl_xattr.h,
 * include/uapi/linux/posix_acl.h): the owner rw, user 1000 r (a named
 * entry, so that it is kept as an ACL, not folded into the mode), the
 * group r, the mask r, others nothing. Little endian, as x86 and arm64.
 */
struct acl_entry {
	uint16_t tag;
	uint16_t perm;
	uint32_t id;
};

/* clang-format off */
static const struct {
	uint32_t version;
	struct acl_entry e[5];
} acl = { 2, {
	{ 0x01, 6, (uint32_t)-1 }, /* ACL_USER_OBJ */
	{ 0x02, 4, 1000 }, /* ACL_USER */
	{ 0x04, 4, (uint32_t)-1 }, /* ACL_GROUP_OBJ */
	{ 0x10, 4, (uint32_t)-1 }, /* ACL_MASK */
	{ 0x20, 0, (uint32_t)-1 }, /* ACL_OTHER */
} };
/* clang-format on */

/* struct file_attr (include/uapi/linux/fs.h), FILE_ATTR_SIZE_VER0 */
struct fl_file_attr {
	uint64_t xflags;
	uint32_t extsize;
	uint32_t nextents;
	uint32_t projid;
	uint32_t cowextsize;
};

/* F's file attributes, read by the harness's domain for file_setattr. */
static struct fl_file_attr fattr;

/*
 * The attribute @attr on F, set (or, ATTR_FILEATTR, read) as the
 * harness's domain: the filesystem's answer, 0 or -EOPNOTSUPP (a tmpfs
 * built without it), or -ENOSYS (no file_getattr(2)); another error is
 * the setup's.
 */
static int file_set_attr(enum fl_attr attr, int *fs)
{
	int ret;

	if (attr == ATTR_XATTR)
		ret = sys_ret(setxattr(F, XATTR, "1", 1, 0));
	else if (attr == ATTR_ACL)
		ret = sys_ret(setxattr(F, ACL_XATTR, &acl, sizeof(acl), 0));
	else
		ret = sys_ret(syscall(SYS_file_getattr, AT_FDCWD, F, &fattr,
				      sizeof(fattr), 0));
	*fs = ret;
	return ret == -EOPNOTSUPP || ret == -ENOSYS ? 0 : ret;
}

/* A tmpfs of the objects' type on @path. */
static int mount_objects(const char *path)
{
	return sys_ret(mount("tmpfs", path, "tmpfs", 0, MOUNT_OPTS));
}

/*
 * The child's setup, as the harness's own domain: a mount namespace of
 * its own and in it the tmpfs of the objects, F (and D, E, L, the mount
 * on D or F's attribute when the call needs them), and the descriptor of
 * F for a call on one. 0 or -errno; @fs the filesystem's answer to the
 * attribute.
 */
static int file_prepare(const struct fl_case *k, int *fd, int *fs)
{
	int f, ret;

	*fd = -1;
	*fs = 0;
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) ||
	    mount_objects(MNT))
		return -errno;
	f = open(F, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (f < 0)
		return -errno;
	/* A page to map. */
	if (ftruncate(f, 4096)) {
		close(f);
		return -errno;
	}
	if (ops[k->op].fd) {
		close(f);
		f = open(F, ops[k->op].fd_flags | O_CLOEXEC);
		if (f < 0)
			return -errno;
		*fd = f;
	} else {
		close(f);
	}
	if (ops[k->op].dir && mkdir(D, 0755))
		return -errno;
	if (ops[k->op].symlink && symlink("f", L))
		return -errno;
	if (ops[k->op].mounted &&
	    (mkdir(D, 0755) || mount_objects(D) || mkdir(E, 0755)))
		return -errno;
	if (ops[k->op].attr) {
		ret = file_set_attr(ops[k->op].attr, fs);
		if (ret)
			return ret;
	}
	return 0;
}

static int open_close(const char *path, int flags)
{
	int fd = open(path, flags | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int map_unmap(int fd, int prot)
{
	void *p = mmap(NULL, 4096, prot, MAP_SHARED, fd, 0);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, 4096);
	return 0;
}

/* A shared read-only mapping made executable: 0 or -errno. */
static int mprotect_exec(int fd)
{
	void *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
	int ret;

	if (p == MAP_FAILED)
		return -errno;
	ret = sys_ret(mprotect(p, 4096, PROT_READ | PROT_EXEC));
	munmap(p, 4096);
	return ret;
}

/* A size or -1 as 0 or -errno. */
static int size_ret(ssize_t n)
{
	return n < 0 ? -errno : 0;
}

/* The call itself, in the actor's domain: 0 or -errno. */
static int file_run(enum fl_op op, int fd)
{
	char buf[256];
	struct stat st;

	switch (op) {
	case OP_OPEN_READ:
		return open_close(F, O_RDONLY);
	case OP_OPEN_WRITE:
		return open_close(F, O_WRONLY);
	case OP_OPEN_APPEND:
		return open_close(F, O_WRONLY | O_APPEND);
	case OP_STAT:
		return sys_ret(stat(F, &st));
	case OP_CHMOD:
		return sys_ret(chmod(F, 0600));
	case OP_FLOCK:
		return sys_ret(flock(fd, LOCK_SH));
	case OP_MMAP_READ:
		return map_unmap(fd, PROT_READ);
	case OP_MMAP_EXEC:
		return map_unmap(fd, PROT_EXEC);
	case OP_LINK:
		return sys_ret(link(F, G));
	case OP_UNLINK:
		return sys_ret(unlink(F));
	case OP_RENAME:
		return sys_ret(rename(F, G));
	case OP_MKNOD_FILE:
		return sys_ret(mknod(G, S_IFREG | 0600, 0));
	case OP_MKDIR:
		return sys_ret(mkdir(G, 0755));
	case OP_RMDIR:
		return sys_ret(rmdir(D));
	case OP_OPENDIR:
		return open_close(D, O_RDONLY | O_DIRECTORY);
	case OP_FCNTL_CLEAR_APPEND:
		return sys_ret(fcntl(fd, F_SETFL, 0));
	case OP_MPROTECT_EXEC:
		return mprotect_exec(fd);
	case OP_SYMLINK:
		return sys_ret(symlink("f", G));
	case OP_READLINK: {
		char target[16];

		return readlink(L, target, sizeof(target)) < 0 ? -errno : 0;
	}
	case OP_OPEN_VIA_SYMLINK:
		return open_close(L, O_RDONLY);
	case OP_STATFS: {
		struct statfs sf;

		return sys_ret(statfs(MNT, &sf));
	}
	case OP_MOUNT:
		return mount_objects(D);
	case OP_REMOUNT:
		/* the same context: selinux_sb_remount compares it */
		return sys_ret(mount(NULL, MNT, NULL, MS_REMOUNT, MOUNT_OPTS));
	case OP_UMOUNT:
		return sys_ret(umount(D));
	case OP_MOVE_MOUNT:
		return sys_ret(
			syscall(SYS_move_mount, AT_FDCWD, D, AT_FDCWD, E, 0));
	case OP_MKNOD_CHR:
		return sys_ret(mknod(G, S_IFCHR | 0600, makedev(1, 3)));
	case OP_MKNOD_FIFO:
		return sys_ret(mknod(G, S_IFIFO | 0600, 0));
	case OP_SETXATTR:
		return sys_ret(setxattr(F, XATTR, "2", 1, 0));
	case OP_GETXATTR:
		return size_ret(getxattr(F, XATTR, buf, sizeof(buf)));
	case OP_LISTXATTR:
		return size_ret(listxattr(F, buf, sizeof(buf)));
	case OP_REMOVEXATTR:
		return sys_ret(removexattr(F, XATTR));
	case OP_SET_ACL:
		return sys_ret(setxattr(F, ACL_XATTR, &acl, sizeof(acl), 0));
	case OP_GET_ACL:
		return size_ret(getxattr(F, ACL_XATTR, buf, sizeof(buf)));
	case OP_REMOVE_ACL:
		return sys_ret(removexattr(F, ACL_XATTR));
	case OP_FILE_GETATTR: {
		struct fl_file_attr fa;

		return sys_ret(syscall(SYS_file_getattr, AT_FDCWD, F, &fa,
				       sizeof(fa), 0));
	}
	case OP_FILE_SETATTR:
		return sys_ret(syscall(SYS_file_setattr, AT_FDCWD, F, &fattr,
				       sizeof(fattr), 0));
	default:
		return -EINVAL;
	}
}

struct fl_report {
	int setup; /* file_prepare()'s, then entering the domain */
	int fs; /* the filesystem's answer to the attribute set first */
	int result;
};

/* The child (child_run()): prepares, enters the actor, makes the call. */
static void file_child(void *arg, void *reply)
{
	const struct fl_case *k = arg;
	struct fl_report *r = reply;
	int fd;

	r->result = NOT_RUN;
	r->setup = file_prepare(k, &fd, &r->fs);
	if (!r->setup && file_made(k->op, r->fs))
		r->setup = sel_enter(k->actor, LEVEL);
	if (!r->setup && file_made(k->op, r->fs))
		r->result = file_run(k->op, fd);
	if (fd >= 0)
		close(fd);
}

/*
 * The record of @op by the actor against the model's: 0, -EBADMSG when it
 * differs or more than one came, NOT_RUN when none did.
 */
static int judge_avc(struct __test_metadata *_metadata,
		     const FIXTURE_VARIANT(file) * v, enum fl_op op,
		     int protected, int fs, const struct avcs *got)
{
	const struct fl_check *want = file_denial(v, op, protected, fs);

	return avc_judge_one(_metadata, ops[op].name, got,
			     want ? want->perm : NULL, OBJ,
			     want ? want->class : NULL);
}

/* What the expectation of @op depended on, beside the policy. */
static const char *file_depends(enum fl_op op, int protected, int fs)
{
	if (op == OP_LINK)
		return protected ? "sysctl/fs/protected_hardlinks=1" :
				   "sysctl/fs/protected_hardlinks=0";
	switch (ops[op].attr) {
	case ATTR_XATTR:
		if (!ops[op].fs_answer)
			return "-";
		return fs ? "tmpfs/xattr=no" : "tmpfs/xattr=yes";
	case ATTR_ACL:
		return fs ? "tmpfs/posix_acl=no" : "tmpfs/posix_acl=yes";
	case ATTR_FILEATTR:
		/* one key on every kernel, so that compare can explain */
		if (fs == -ENOSYS)
			return "file_getattr/tmpfs=ENOSYS";
		return fs ? "file_getattr/tmpfs=EOPNOTSUPP" :
			    "file_getattr/tmpfs=yes";
	default:
		return "-";
	}
}

FIXTURE_SETUP(file)
{
	SEL_SETUP(CATS);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
	ASSERT_EQ(0, mkdir(MNT, 0755) && errno != EEXIST ? -errno : 0);
	self->protected_hardlinks = read_int(PROTECTED_HARDLINKS);
	ASSERT_LE(0, self->protected_hardlinks);
}

FIXTURE_TEARDOWN(file)
{
	rmdir(MNT);
	EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

TEST_F(file, use)
{
	struct record rec = {
		.abi = "selinux-c4",
		.subject = variant->actor,
		.object = OBJ,
	};
	char id[96];
	int op;

	for (op = 0; op < N_OPS; op++) {
		struct fl_case k = { variant->actor, op };
		const struct fl_check *first = &ops[op].checks[0];
		int prot = self->protected_hardlinks;
		struct fl_report r;
		struct avcs got;

		ASSERT_EQ(0, avc_call_logged(_metadata, ops[op].name, "fl", op,
					     variant->actor, file_child, &k, &r,
					     sizeof(r), &got));
		ASSERT_EQ(0, r.setup)
		{
			TH_LOG("%s: no setup or no domain", ops[op].name);
		}
		/* The class and permission the call is named after: its last. */
		while (first + 1 < ops[op].checks + MAX_CHECKS && first[1].perm)
			first++;
		rec.class = first->class;
		rec.detail = first->perm;
		rec.op = ops[op].name;
		rec.depends = file_depends(op, prot, r.fs);
		rec.expected = file_expect(variant, op, prot, r.fs);
		rec.observed = r.result;
		JUDGE(&rec);
		/* The record a refusal logs, or proven absent by the marker. */
		JUDGE_LOG(&rec, id, ops[op].name,
			  file_denial(variant, op, prot, r.fs), got.n,
			  judge_avc(_metadata, variant, op, prot, r.fs, &got));
	}
}

LSM_HARNESS_MAIN
