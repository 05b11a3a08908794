// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux capabilities: a root task in a test domain uses one capability
 * by one system call that needs it and nothing else the policy decides,
 * makes a user namespace, reads and sets its own capabilities, and asks
 * the kernel log's size, its unread size and the console's level, and
 * maps a page below the LSMs' lowest address. Each
 * actor lacks a permission of the capability class (policy part
 * lsmconf-cap.cil), both DAC overrides, sys_admin in cap_userns only,
 * user_namespace create, process getcap or setcap, system syslog_read,
 * syslog_mod or syslog_console, or memprotect mmap_zero.
 *
 * The model (cap_expect(), cap_denials(); security/selinux/hooks.c):
 *
 *   hook      selinux_capable -> cred_has_capability: the permission named
 *             after the capability, from the task's domain to itself, in
 *             class capability, or cap_userns when the capability is
 *             checked in a user namespace other than the first. The
 *             commoncap check before it passes: the task is root.
 *   refused   the call's own errno when its capable() fails (-EPERM, but
 *             -EACCES from inet_bind's port check and from set_one_prio's
 *             can_nice(), and generic_permission's -EACCES).
 *   fallback  opening a file its mode refuses to root asks
 *             dac_read_search first when it only reads, then
 *             dac_override (generic_permission): a read is refused only
 *             when both are, and a refused dac_read_search is logged even
 *             when dac_override then allows.
 *   userns    unshare(CLONE_NEWUSER) asks user_namespace create on itself
 *             (create_user_ns -> selinux_userns_create), -EACCES without
 *             it, before any capability in the new namespace.
 *   caps      capget(2) asks process getcap on the target, capset(2)
 *             process setcap on itself (selinux_capget, selinux_capset):
 *             -EACCES without them.
 *   syslog    syslog(2) asks class system on the kernel's SID (kernel_t,
 *             selinux_syslog): syslog_read to read the log or its size,
 *             syslog_console to turn the console off or on or set its
 *             level, syslog_mod for the rest (SYSLOG_ACTION_SIZE_UNREAD
 *             among them); -EACCES without it. check_syslog_permissions
 *             asks CAP_SYSLOG first (capability2, undeclared: allowed).
 *   low map   mmap(2) of a page at LOW_ADDR, below CONFIG_LSM_MMAP_MIN_ADDR
 *             (65536 in Debian's kernels and lsmconf's builds), asks
 *             memprotect mmap_zero on itself (selinux_mmap_addr), -EACCES
 *             without it; commoncap's CAP_SYS_RAWIO check before it, for
 *             an address below vm.mmap_min_addr, is not SELinux's.
 *
 * Each refused check is one AVC record (avc_audit: the policy audits
 * every denial; cred_has_capability audits all but CAP_OPT_NOAUDIT
 * checks, and none of these calls asks one), read from /dev/kmsg up to a
 * marker's (avc_log.h): "avc:  denied  { PERM }", capability= the
 * capability's number (none for the other checks), scontext the actor's,
 * tcontext the actor's too (kernel_t for syslog), tclass the class,
 * permissive=0. An allowed check logs none.
 */

#define _GNU_SOURCE
#include <linux/capability.h>
#include <netinet/in.h>
#include <sched.h>
#include <sys/klog.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "avc_log.h"
#include "../lsmconf/judge.h"

#define LEVEL "s0"
#define CATS 4
#define FILE_DIR "/tmp/lsmconf_selcap"
#define OTHER_ID 1 /* the uid and gid a task becomes, a file is given to */
#define LOW_PORT 1023 /* below ip_unprivileged_port_start's 1024 */
#define LOW_ADDR 4096 /* the lowest page a process may ever map */
#define KERNEL_TYPE "kernel_t" /* SECINITSID_KERNEL's, lsmconf.cil */
#define PRINTK "/proc/sys/kernel/printk" /* the console's level first */
/* syslog(2) actions (include/linux/syslog.h) */
#define SYSLOG_ACTION_CONSOLE_LEVEL 8
#define SYSLOG_ACTION_SIZE_UNREAD 9
#define SYSLOG_ACTION_SIZE_BUFFER 10

enum cap_op {
	OP_FCHOWN,
	OP_FCHMOD_OTHERS_FILE,
	OP_OPEN_WRITE_MODE_000,
	OP_OPEN_READ_MODE_000,
	OP_SETUID,
	OP_SETGID,
	OP_BIND_LOW_PORT,
	OP_SOCKET_RAW,
	OP_SETSOCKOPT_RCVBUFFORCE,
	OP_MLOCK_NO_LIMIT,
	OP_CHROOT,
	OP_SETHOSTNAME,
	OP_SETPRIORITY_BELOW_0,
	OP_PRLIMIT_RAISE_HARD,
	OP_MKNOD_CHAR_DEVICE,
	OP_UNSHARE_USER_UTS,
	OP_UNSHARE_USER,
	OP_CAPGET_SELF,
	OP_CAPSET_SELF,
	OP_SYSLOG_SIZE_BUFFER,
	OP_SYSLOG_SIZE_UNREAD,
	OP_SYSLOG_CONSOLE_LEVEL,
	OP_MMAP_LOW_ADDRESS,
	N_OPS
};

/*
 * One check the call asks: the class, the permission, the capability's
 * number (-1: no capability, no capability= in the record), whether it
 * is asked on the kernel's SID rather than on the task itself.
 */
struct cap_check {
	const char *class;
	const char *perm;
	int cap;
	bool on_kernel;
};

/* clang-format off */
#define CAP(p, n) { "capability", p, n }
#define SYSLOG(p) { "system", p, -1, true }
/* clang-format on */

static const struct {
	const char *name;
	struct cap_check check;
	struct cap_check fallback; /* .perm NULL: none */
	int refused; /* the call's -errno when refused */
	/* asked first, its refusal -EACCES (.perm NULL: none) */
	struct cap_check before;
} ops[N_OPS] = {
	/* chown_ok() (fs/attr.c), a file given to another owner */
	[OP_FCHOWN] = { "fchown", CAP("chown", CAP_CHOWN), {}, -EPERM },
	/* setattr_prepare(): inode_owner_or_capable() */
	[OP_FCHMOD_OTHERS_FILE] = { "fchmod_others_file",
				    CAP("fowner", CAP_FOWNER),
				    {},
				    -EPERM },
	/* generic_permission() (fs/namei.c) */
	[OP_OPEN_WRITE_MODE_000] = { "open_write_mode_000",
				     CAP("dac_override", CAP_DAC_OVERRIDE),
				     {},
				     -EACCES },
	[OP_OPEN_READ_MODE_000] = { "open_read_mode_000",
				    CAP("dac_read_search", CAP_DAC_READ_SEARCH),
				    CAP("dac_override", CAP_DAC_OVERRIDE),
				    -EACCES },
	/* __sys_setuid(), __sys_setgid(): ns_capable_setid() */
	[OP_SETUID] = { "setuid", CAP("setuid", CAP_SETUID), {}, -EPERM },
	[OP_SETGID] = { "setgid", CAP("setgid", CAP_SETGID), {}, -EPERM },
	/* __inet_bind(): inet_port_requires_bind_service() */
	[OP_BIND_LOW_PORT] = { "bind_low_port",
			       CAP("net_bind_service", CAP_NET_BIND_SERVICE),
			       {},
			       -EACCES },
	/* inet_create() */
	[OP_SOCKET_RAW] = { "socket_raw",
			    CAP("net_raw", CAP_NET_RAW),
			    {},
			    -EPERM },
	/* sk_setsockopt(): sockopt_capable() */
	[OP_SETSOCKOPT_RCVBUFFORCE] = { "setsockopt_rcvbufforce",
					CAP("net_admin", CAP_NET_ADMIN),
					{},
					-EPERM },
	/* do_mlock(): can_do_mlock() under RLIMIT_MEMLOCK 0 */
	[OP_MLOCK_NO_LIMIT] = { "mlock_no_limit",
				CAP("ipc_lock", CAP_IPC_LOCK),
				{},
				-EPERM },
	/* ksys_chroot() */
	[OP_CHROOT] = { "chroot",
			CAP("sys_chroot", CAP_SYS_CHROOT),
			{},
			-EPERM },
	/* sethostname(2) */
	[OP_SETHOSTNAME] = { "sethostname",
			     CAP("sys_admin", CAP_SYS_ADMIN),
			     {},
			     -EPERM },
	/* set_one_prio(): can_nice() */
	[OP_SETPRIORITY_BELOW_0] = { "setpriority_below_0",
				     CAP("sys_nice", CAP_SYS_NICE),
				     {},
				     -EACCES },
	/* do_prlimit(): a hard limit raised */
	[OP_PRLIMIT_RAISE_HARD] = { "prlimit_raise_hard",
				    CAP("sys_resource", CAP_SYS_RESOURCE),
				    {},
				    -EPERM },
	/* vfs_mknod() */
	[OP_MKNOD_CHAR_DEVICE] = { "mknod_char_device",
				   CAP("mknod", CAP_MKNOD),
				   {},
				   -EPERM },
	/*
	 * unshare_nsproxy_namespaces(): CAP_SYS_ADMIN in the new user
	 * namespace, which commoncap grants its creator.
	 */
	[OP_UNSHARE_USER_UTS] = { "unshare_user_uts",
				  { "cap_userns", "sys_admin", CAP_SYS_ADMIN },
				  {},
				  -EPERM,
				  { "user_namespace", "create", -1 } },
	/* create_user_ns(): selinux_userns_create, on itself */
	[OP_UNSHARE_USER] = { "unshare_user",
			      { "user_namespace", "create", -1 },
			      {},
			      -EACCES },
	/* capget(2), capset(2): selinux_capget, selinux_capset */
	[OP_CAPGET_SELF] = { "capget_self",
			     { "process", "getcap", -1 },
			     {},
			     -EACCES },
	[OP_CAPSET_SELF] = { "capset_self",
			     { "process", "setcap", -1 },
			     {},
			     -EACCES },
	/* syslog(2): selinux_syslog */
	[OP_SYSLOG_SIZE_BUFFER] = { "syslog_size_buffer",
				    SYSLOG("syslog_read"),
				    {},
				    -EACCES },
	[OP_SYSLOG_SIZE_UNREAD] = { "syslog_size_unread",
				    SYSLOG("syslog_mod"),
				    {},
				    -EACCES },
	/* to the level it has, read before the actor enters */
	[OP_SYSLOG_CONSOLE_LEVEL] = { "syslog_console_level",
				      SYSLOG("syslog_console"),
				      {},
				      -EACCES },
	/* __get_unmapped_area(): security_mmap_addr, selinux_mmap_addr */
	[OP_MMAP_LOW_ADDRESS] = { "mmap_low_address",
				  { "memprotect", "mmap_zero", -1 },
				  {},
				  -EACCES },
};

FIXTURE(cap)
{
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(cap)
{
	const char *actor;
	struct cap_check lacks[2]; /* what the actor's domain is not allowed */
};

/* Each actor, named after what it lacks (none: ok). */
/* clang-format off */
#define LACKS(p) { "capability", p }
FIXTURE_VARIANT_ADD(cap, ok) { .actor = "lsmconf_cap_ok_t" };
FIXTURE_VARIANT_ADD(cap, no_chown) {
	.actor = "lsmconf_cap_no_chown_t", .lacks = { LACKS("chown") } };
FIXTURE_VARIANT_ADD(cap, no_fowner) {
	.actor = "lsmconf_cap_no_fowner_t", .lacks = { LACKS("fowner") } };
FIXTURE_VARIANT_ADD(cap, no_dac_override) {
	.actor = "lsmconf_cap_no_dac_override_t",
	.lacks = { LACKS("dac_override") } };
FIXTURE_VARIANT_ADD(cap, no_dac_read_search) {
	.actor = "lsmconf_cap_no_dac_read_search_t",
	.lacks = { LACKS("dac_read_search") } };
FIXTURE_VARIANT_ADD(cap, no_dac) {
	.actor = "lsmconf_cap_no_dac_t",
	.lacks = { LACKS("dac_override"), LACKS("dac_read_search") } };
FIXTURE_VARIANT_ADD(cap, no_setuid) {
	.actor = "lsmconf_cap_no_setuid_t", .lacks = { LACKS("setuid") } };
FIXTURE_VARIANT_ADD(cap, no_setgid) {
	.actor = "lsmconf_cap_no_setgid_t", .lacks = { LACKS("setgid") } };
FIXTURE_VARIANT_ADD(cap, no_net_bind_service) {
	.actor = "lsmconf_cap_no_net_bind_service_t",
	.lacks = { LACKS("net_bind_service") } };
FIXTURE_VARIANT_ADD(cap, no_net_raw) {
	.actor = "lsmconf_cap_no_net_raw_t", .lacks = { LACKS("net_raw") } };
FIXTURE_VARIANT_ADD(cap, no_net_admin) {
	.actor = "lsmconf_cap_no_net_admin_t",
	.lacks = { LACKS("net_admin") } };
FIXTURE_VARIANT_ADD(cap, no_ipc_lock) {
	.actor = "lsmconf_cap_no_ipc_lock_t", .lacks = { LACKS("ipc_lock") } };
FIXTURE_VARIANT_ADD(cap, no_sys_chroot) {
	.actor = "lsmconf_cap_no_sys_chroot_t",
	.lacks = { LACKS("sys_chroot") } };
FIXTURE_VARIANT_ADD(cap, no_sys_admin) {
	.actor = "lsmconf_cap_no_sys_admin_t",
	.lacks = { LACKS("sys_admin") } };
FIXTURE_VARIANT_ADD(cap, no_sys_nice) {
	.actor = "lsmconf_cap_no_sys_nice_t", .lacks = { LACKS("sys_nice") } };
FIXTURE_VARIANT_ADD(cap, no_sys_resource) {
	.actor = "lsmconf_cap_no_sys_resource_t",
	.lacks = { LACKS("sys_resource") } };
FIXTURE_VARIANT_ADD(cap, no_mknod) {
	.actor = "lsmconf_cap_no_mknod_t", .lacks = { LACKS("mknod") } };
FIXTURE_VARIANT_ADD(cap, no_userns_sys_admin) {
	.actor = "lsmconf_cap_no_userns_sys_admin_t",
	.lacks = { { "cap_userns", "sys_admin" } } };
FIXTURE_VARIANT_ADD(cap, no_user_namespace_create) {
	.actor = "lsmconf_cap_no_user_namespace_create_t",
	.lacks = { { "user_namespace", "create" } } };
FIXTURE_VARIANT_ADD(cap, no_getcap) {
	.actor = "lsmconf_cap_no_getcap_t",
	.lacks = { { "process", "getcap" } } };
FIXTURE_VARIANT_ADD(cap, no_setcap) {
	.actor = "lsmconf_cap_no_setcap_t",
	.lacks = { { "process", "setcap" } } };
FIXTURE_VARIANT_ADD(cap, no_syslog_read) {
	.actor = "lsmconf_cap_no_syslog_read_t",
	.lacks = { SYSLOG("syslog_read") } };
FIXTURE_VARIANT_ADD(cap, no_syslog_mod) {
	.actor = "lsmconf_cap_no_syslog_mod_t",
	.lacks = { SYSLOG("syslog_mod") } };
FIXTURE_VARIANT_ADD(cap, no_syslog_console) {
	.actor = "lsmconf_cap_no_syslog_console_t",
	.lacks = { SYSLOG("syslog_console") } };
FIXTURE_VARIANT_ADD(cap, no_mmap_zero) {
	.actor = "lsmconf_cap_no_mmap_zero_t",
	.lacks = { { "memprotect", "mmap_zero" } } };
/* clang-format on */

static bool cap_lacks(const FIXTURE_VARIANT(cap) * v, const struct cap_check *c)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v->lacks); i++)
		if (v->lacks[i].perm && !strcmp(v->lacks[i].class, c->class) &&
		    !strcmp(v->lacks[i].perm, c->perm))
			return true;
	return false;
}

/*
 * The checks @op's call logs as denied, in order, into @out: its check
 * when refused, then its fallback when that is refused too. Their count.
 */
static int cap_denials(const FIXTURE_VARIANT(cap) * v, enum cap_op op,
		       const struct cap_check **out)
{
	int n = 0;

	if (ops[op].before.perm && cap_lacks(v, &ops[op].before)) {
		out[0] = &ops[op].before;
		return 1;
	}
	if (!cap_lacks(v, &ops[op].check))
		return 0;
	out[n++] = &ops[op].check;
	if (ops[op].fallback.perm && cap_lacks(v, &ops[op].fallback))
		out[n++] = &ops[op].fallback;
	return n;
}

/* The rule: refused when every check the call may pass by is refused. */
static int cap_expect(const FIXTURE_VARIANT(cap) * v, enum cap_op op)
{
	const struct cap_check *denied[2];
	int n = cap_denials(v, op, denied);

	if (n && denied[0] == &ops[op].before)
		return -EACCES;
	if (!n || (ops[op].fallback.perm && n == 1))
		return 0;
	return ops[op].refused;
}

struct cap_case {
	const char *actor;
	enum cap_op op;
	char path[96]; /* the op's file, made before the actor enters */
	int console_level; /* the console's, read before the actor enters */
};

/* The console's log level, the first number of PRINTK: 0 or -errno. */
static int console_level(int *level)
{
	*level = read_int(PRINTK);
	if (*level < 0)
		return *level;
	return *level >= 1 && *level <= 8 ? 0 : -ERANGE;
}

/* The child's capability sets, for capset(2) (read in op_prepare()). */
static struct __user_cap_data_struct own_caps[_LINUX_CAPABILITY_U32S_3];

/*
 * The setup @op needs as the harness's own domain (which holds every
 * capability): the file, the limit. 0 or -errno.
 */
static int op_prepare(struct cap_case *k, int *fd)
{
	struct rlimit r;

	*fd = -1;
	switch (k->op) {
	case OP_FCHOWN:
	case OP_FCHMOD_OTHERS_FILE:
		*fd = open(k->path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC,
			   0644);
		if (*fd < 0)
			return -errno;
		return k->op == OP_FCHMOD_OTHERS_FILE ?
			       sys_ret(fchown(*fd, OTHER_ID, -1)) :
			       0;
	case OP_OPEN_WRITE_MODE_000:
	case OP_OPEN_READ_MODE_000:
		/* Its owner, root, may neither read nor write it. */
		*fd = open(k->path, O_RDONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0);
		if (*fd < 0)
			return -errno;
		return sys_ret(fchmod(*fd, 0));
	case OP_MLOCK_NO_LIMIT:
		if (getrlimit(RLIMIT_MEMLOCK, &r))
			return -errno;
		r.rlim_cur = 0;
		return sys_ret(setrlimit(RLIMIT_MEMLOCK, &r));
	case OP_CAPSET_SELF: {
		struct __user_cap_header_struct hdr = {
			_LINUX_CAPABILITY_VERSION_3, 0
		};

		return sys_ret(syscall(SYS_capget, &hdr, own_caps));
	}
	case OP_PRLIMIT_RAISE_HARD:
		/* Lowered by one, so that raising it back needs no more. */
		if (getrlimit(RLIMIT_NOFILE, &r))
			return -errno;
		r.rlim_max--;
		if (r.rlim_cur > r.rlim_max)
			r.rlim_cur = r.rlim_max;
		return sys_ret(setrlimit(RLIMIT_NOFILE, &r));
	case OP_SYSLOG_CONSOLE_LEVEL:
		return console_level(&k->console_level);
	default:
		return 0;
	}
}

static int socket_op(int domain, int type, int proto, int (*use)(int fd))
{
	int fd = socket(domain, type | SOCK_CLOEXEC, proto), err;

	if (fd < 0)
		return -errno;
	err = use ? use(fd) : 0;
	close(fd);
	return err;
}

static int bind_low_port(int fd)
{
	struct sockaddr_in a = { .sin_family = AF_INET,
				 .sin_port = htons(LOW_PORT),
				 .sin_addr.s_addr = htonl(INADDR_ANY) };

	return sys_ret(bind(fd, (struct sockaddr *)&a, sizeof(a)));
}

static int rcvbuf_force(int fd)
{
	int size = 65536;

	return sys_ret(setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
				  sizeof(size)));
}

/* A private page at LOW_ADDR, where nothing is mapped: 0 or -errno. */
static int map_low(void)
{
	void *p =
		mmap((void *)LOW_ADDR, 4096, PROT_READ,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p == MAP_FAILED)
		return -errno;
	munmap(p, 4096);
	return p == (void *)LOW_ADDR ? 0 : -EFAULT;
}

/* A syslog(2) action that answers a size: 0 or -errno. */
static int klog_size(int action)
{
	return klogctl(action, NULL, 0) < 0 ? -errno : 0;
}

/* The call itself, in the actor's domain: 0 or -errno. */
static int op_run(const struct cap_case *k, int fd)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];
	static char page[4096] __attribute__((aligned(4096)));
	char host[256];
	struct rlimit r;
	int ret;

	switch (k->op) {
	case OP_FCHOWN:
		return sys_ret(fchown(fd, OTHER_ID, -1));
	case OP_FCHMOD_OTHERS_FILE:
		return sys_ret(fchmod(fd, 0640));
	case OP_OPEN_WRITE_MODE_000:
	case OP_OPEN_READ_MODE_000:
		ret = open(
			k->path,
			(k->op == OP_OPEN_READ_MODE_000 ? O_RDONLY : O_WRONLY) |
				O_CLOEXEC);
		if (ret < 0)
			return -errno;
		close(ret);
		return 0;
	case OP_SETUID:
		return sys_ret(setuid(OTHER_ID));
	case OP_SETGID:
		return sys_ret(setgid(OTHER_ID));
	case OP_BIND_LOW_PORT:
		return socket_op(AF_INET, SOCK_STREAM, 0, bind_low_port);
	case OP_SOCKET_RAW:
		return socket_op(AF_INET, SOCK_RAW, IPPROTO_ICMP, NULL);
	case OP_SETSOCKOPT_RCVBUFFORCE:
		return socket_op(AF_INET, SOCK_DGRAM, 0, rcvbuf_force);
	case OP_MLOCK_NO_LIMIT:
		ret = sys_ret(mlock(page, sizeof(page)));
		if (!ret)
			munlock(page, sizeof(page));
		return ret;
	case OP_CHROOT:
		return sys_ret(chroot("/"));
	case OP_SETHOSTNAME:
		if (gethostname(host, sizeof(host)))
			return -errno;
		return sys_ret(sethostname(host, strlen(host)));
	case OP_SETPRIORITY_BELOW_0:
		return sys_ret(setpriority(PRIO_PROCESS, 0, -1));
	case OP_PRLIMIT_RAISE_HARD:
		if (getrlimit(RLIMIT_NOFILE, &r))
			return -errno;
		r.rlim_max++;
		return sys_ret(setrlimit(RLIMIT_NOFILE, &r));
	case OP_MKNOD_CHAR_DEVICE:
		/* 1:3, /dev/null */
		return sys_ret(mknod(k->path, S_IFCHR | 0600, makedev(1, 3)));
	case OP_UNSHARE_USER_UTS:
		return sys_ret(unshare(CLONE_NEWUSER | CLONE_NEWUTS));
	case OP_UNSHARE_USER:
		return sys_ret(unshare(CLONE_NEWUSER));
	case OP_CAPGET_SELF:
		return sys_ret(syscall(SYS_capget, &hdr, data));
	case OP_CAPSET_SELF:
		/* Its own sets again, unchanged (read before it entered). */
		return sys_ret(syscall(SYS_capset, &hdr, own_caps));
	case OP_SYSLOG_SIZE_BUFFER:
		return klog_size(SYSLOG_ACTION_SIZE_BUFFER);
	case OP_SYSLOG_SIZE_UNREAD:
		return klog_size(SYSLOG_ACTION_SIZE_UNREAD);
	case OP_MMAP_LOW_ADDRESS:
		return map_low();
	case OP_SYSLOG_CONSOLE_LEVEL:
		return sys_ret(klogctl(SYSLOG_ACTION_CONSOLE_LEVEL, NULL,
				       k->console_level));
	default:
		return -EINVAL;
	}
}

struct cap_report {
	int setup; /* op_prepare()'s, then entering the domain */
	int result;
};

/* The child (child_run()): prepares, enters the actor, makes the call. */
static void cap_child(void *arg, void *reply)
{
	struct cap_case *k = arg;
	struct cap_report *r = reply;
	int fd;

	r->result = NOT_RUN;
	r->setup = op_prepare(k, &fd);
	if (!r->setup)
		r->setup = sel_enter(k->actor, LEVEL);
	if (!r->setup)
		r->result = op_run(k, fd);
	if (fd >= 0)
		close(fd);
}

/*
 * The records of @op by the actor against the model's: 0, -EBADMSG when
 * one differs or their number does, NOT_RUN when none came.
 */
static int judge_avcs(struct __test_metadata *_metadata,
		      const FIXTURE_VARIANT(cap) * v, enum cap_op op,
		      const struct avcs *got)
{
	const struct cap_check *want[2];
	int n = cap_denials(v, op, want), bad = 0, i;
	char val[64], num[16];

	if (!got->n)
		return NOT_RUN;
	if (got->n != n) {
		for (i = 0; i < got->n; i++)
			TH_LOG("%s: logged %s", ops[op].name, got->rec[i]);
		return -EBADMSG;
	}
	for (i = 0; i < n; i++) {
		bad |= avc_expect_denial(
			_metadata, ops[op].name, got->rec[i], want[i]->perm,
			want[i]->on_kernel ? KERNEL_TYPE : v->actor,
			want[i]->class);
		if (kmsg_field(got->rec[i], "capability", val, sizeof(val)))
			snprintf(val, sizeof(val), "none");
		if (want[i]->cap < 0)
			snprintf(num, sizeof(num), "none");
		else
			snprintf(num, sizeof(num), "%d", want[i]->cap);
		bad |= kmsg_expect(_metadata, ops[op].name, "capability", val,
				   num);
	}
	return bad;
}

FIXTURE_SETUP(cap)
{
	SEL_SETUP(CATS);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
	ASSERT_EQ(0, mkdir(FILE_DIR, 0755) && errno != EEXIST ? -errno : 0);
}

FIXTURE_TEARDOWN(cap)
{
	rmdir(FILE_DIR);
	EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

TEST_F(cap, use)
{
	struct record rec = {
		.abi = "selinux-c4",
		.subject = variant->actor,
		.object = variant->actor,
	};
	char id[96];
	int op;

	for (op = 0; op < N_OPS; op++) {
		struct cap_case k = { variant->actor, op };
		const struct cap_check *want[2];
		int denied = cap_denials(variant, op, want);
		struct cap_report r;
		struct avcs got;
		int ret;

		snprintf(k.path, sizeof(k.path), FILE_DIR "/f.%d.%d",
			 (int)getpid(), op);
		ret = avc_call_logged(_metadata, ops[op].name, "cap", op,
				      variant->actor, cap_child, &k, &r,
				      sizeof(r), &got);
		unlink(k.path);
		ASSERT_EQ(0, ret);
		ASSERT_EQ(0, r.setup)
		{
			TH_LOG("%s: no setup or no domain", ops[op].name);
		}
		rec.object =
			ops[op].check.on_kernel ? KERNEL_TYPE : variant->actor;
		rec.class = ops[op].check.class;
		rec.detail = ops[op].check.perm;
		rec.op = ops[op].name;
		rec.expected = cap_expect(variant, op);
		rec.observed = r.result;
		JUDGE(&rec);
		/* The records the call logs, or proven absent by the marker. */
		JUDGE_LOG(&rec, id, ops[op].name, denied, got.n,
			  judge_avcs(_metadata, variant, op, &got));
	}
}

LSM_HARNESS_MAIN
