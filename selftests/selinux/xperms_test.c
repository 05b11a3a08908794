// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: SELinux ioctl extended permissions (allowx) and the policy
 * capability ioctl_skip_cloexec (lsmconf issue #23).
 *
 * One case per domain of policy/lsmconf-xperms.cil (list: ioctl and an
 * allowx list; all: ioctl, no allowx; none: no ioctl). The case enters the
 * domain with setcon(), then issues a fixed set of ioctl commands on a
 * regular tmpfs file it creates (labelled fs_t) and on an AF_UNIX stream
 * socket it creates (labelled with its own domain). Each command is one
 * decision: the model below computes its outcome from the rules of
 * security/selinux/hooks.c and avc.c (7.2; 6.1 and 6.12 are the same):
 *
 * R1 selinux_file_ioctl() sends FIONREAD (and FIBMAP, FIGETBSZ,
 *    FS_IOC_GETFLAGS, FS_IOC_GETVERSION) to file_has_perm(FILE__GETATTR):
 *    no ioctl permission and no allowx is consulted. getattr on the file
 *    class is unknown to the policy (allowed, handleunknown allow); every
 *    test domain holds getattr on its own sockets.
 * R2 FIONBIO and FIOASYNC go to file_has_perm(cred, file, 0): only the fd
 *    use check, and the fd is the caller's own: allowed.
 * R3 FIOCLEX and FIONCLEX skip the check when the loaded policy sets the
 *    capability ioctl_skip_cloexec (selinux_policycap_ioctl_skip_cloexec(),
 *    read from /sys/fs/selinux/policy_capabilities/, in .depends);
 *    otherwise they take R4.
 * R4 Every other command: ioctl_has_perm() with driver = cmd >> 8 and
 *    function = cmd & 0xff of the command's low 16 bits, then
 *    avc_has_extended_perms(): the ioctl permission must be allowed
 *    (avd.allowed), else EACCES. When the policy holds any allowx rule for
 *    the (source, target, class) (xp_node->xp.len, set by
 *    services_compute_xperms_drivers()), a driver that no allowx names is
 *    denied (security_xperm_test() on xp.drivers), and within a named
 *    driver only the listed functions are allowed (avc_xperms_has_perm()).
 *    Without any allowx, the ioctl permission alone decides.
 * Past the hook the command gives what the object gives it (ENOTTY for a
 * tty command on a regular file, 0 for the socket commands): that is the
 * "allowed" outcome the model expects, so every errno is exact.
 *
 * Decision ids: xperms_test/xperms.DOMAIN.ioctls/OBJECT.COMMAND.
 */
#define _GNU_SOURCE
#include <net/if.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <termios.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"

#define CATS 4
#define XP_CAP SEL_FS "/policy_capabilities/ioctl_skip_cloexec"

enum xp_dom { XP_LIST, XP_ALL, XP_NONE };
enum xp_obj { O_FILE, O_SOCK };
enum xp_path { P_GETATTR, P_FDONLY, P_CLOEXEC, P_IOCTL };

static const char *const dom_types[] = { "lsmconf_xp_list_t",
					 "lsmconf_xp_all_t",
					 "lsmconf_xp_none_t" };

struct xp_cmd {
	const char *name;
	unsigned long cmd;
	enum xp_obj obj;
	int native; /* the outcome past the hook */
};

static const struct xp_cmd xp_cmds[] = {
	{ "TIOCGWINSZ", TIOCGWINSZ, O_FILE, -ENOTTY },
	{ "TCGETS", TCGETS, O_FILE, -ENOTTY },
	{ "FS_IOC32_GETFLAGS", FS_IOC32_GETFLAGS, O_FILE, -ENOTTY },
	{ "FIONREAD", FIONREAD, O_FILE, 0 },
	{ "FIONBIO", FIONBIO, O_FILE, 0 },
	{ "FIOCLEX", FIOCLEX, O_FILE, 0 },
	{ "FIONCLEX", FIONCLEX, O_FILE, 0 },
	{ "SIOCGIFINDEX", SIOCGIFINDEX, O_SOCK, 0 },
	{ "SIOCGIFFLAGS", SIOCGIFFLAGS, O_SOCK, 0 },
	{ "TIOCOUTQ", TIOCOUTQ, O_SOCK, 0 },
	{ "FIONREAD", FIONREAD, O_SOCK, 0 },
	{ "FIOCLEX", FIOCLEX, O_SOCK, 0 },
};

/* selinux_file_ioctl()'s switch (R1-R4). */
static enum xp_path path_of(unsigned long cmd)
{
	switch (cmd) {
	case FIONREAD:
		return P_GETATTR;
	case FIONBIO:
	case FIOASYNC:
		return P_FDONLY;
	case FIOCLEX:
	case FIONCLEX:
		return P_CLOEXEC;
	default:
		return P_IOCTL;
	}
}

/*
 * The policy's rules (policy/lsmconf-xperms.cil): whether @d holds ioctl
 * on the object, and whether an allowx exists for the triple and lets
 * (@driver, @func) through.
 */
static bool rule_ioctl(enum xp_dom d)
{
	return d != XP_NONE;
}

static bool rule_has_xperms(enum xp_dom d)
{
	return d == XP_LIST;
}

static bool rule_xperm_allows(enum xp_obj o, unsigned int driver,
			      unsigned int func)
{
	if (o == O_FILE) /* (allowx ... (ioctl file (0x5413))) */
		return driver == 0x54 && func == 0x13;
	/* (allowx ... (ioctl unix_stream_socket (range 0x8900 0x89ff))) */
	return driver == 0x89;
}

static int model(enum xp_dom d, const struct xp_cmd *c, bool skip_cloexec)
{
	unsigned int cmd16 = c->cmd & 0xffff;
	enum xp_path p = path_of(c->cmd);

	if (p == P_GETATTR || p == P_FDONLY) /* R1, R2 */
		return c->native;
	if (p == P_CLOEXEC && skip_cloexec) /* R3 */
		return c->native;
	if (!rule_ioctl(d)) /* R4: the base permission */
		return -EACCES;
	if (rule_has_xperms(d) &&
	    !rule_xperm_allows(c->obj, cmd16 >> 8, cmd16 & 0xff))
		return -EACCES;
	return c->native;
}

static const char *depends_of(enum xp_dom d, const struct xp_cmd *c,
			      bool skip_cloexec)
{
	switch (path_of(c->cmd)) {
	case P_GETATTR:
		return c->obj == O_FILE ? "file:getattr" :
					  "unix_stream_socket:getattr";
	case P_FDONLY:
		return "-";
	case P_CLOEXEC:
		return skip_cloexec ? "ioctl_skip_cloexec=1" :
				      "ioctl_skip_cloexec=0";
	default:
		return rule_has_xperms(d) ? "allowx" : "ioctl";
	}
}

/* 1 when the loaded policy sets ioctl_skip_cloexec, 0 when it does not
 * or the kernel does not know the capability (no file).
 */
static int read_skip_cloexec(void)
{
	char val[8];
	ssize_t ret = read_text(XP_CAP, val, sizeof(val));

	if (ret == -ENOENT)
		return 0;
	if (ret < 0)
		return ret;
	return val[0] == '1';
}

static int issue(int fd, const struct xp_cmd *c)
{
	union {
		struct ifreq ifr;
		struct winsize ws;
		struct termios tio;
		int i;
		char pad[256];
	} arg;

	memset(&arg, 0, sizeof(arg));
	if (c->cmd == SIOCGIFINDEX || c->cmd == SIOCGIFFLAGS)
		snprintf(arg.ifr.ifr_name, IFNAMSIZ, "lo");
	return ioctl(fd, c->cmd, &arg) ? -errno : 0;
}

FIXTURE(xperms)
{
	char path[64];
};

FIXTURE_VARIANT(xperms)
{
	enum xp_dom dom;
};

FIXTURE_VARIANT_ADD(xperms, list) { .dom = XP_LIST };
FIXTURE_VARIANT_ADD(xperms, all) { .dom = XP_ALL };
FIXTURE_VARIANT_ADD(xperms, none) { .dom = XP_NONE };

FIXTURE_SETUP(xperms)
{
	SEL_SETUP(CATS);
	snprintf(self->path, sizeof(self->path), "/tmp/lsmconf-xp-%d",
		 getpid());
}

FIXTURE_TEARDOWN(xperms)
{
	unlink(self->path);
}

TEST_F(xperms, ioctls)
{
	const char *type = dom_types[variant->dom];
	int skip = read_skip_cloexec(), fds[2];
	char *con = NULL;
	size_t i;

	ASSERT_LE(0, skip);
	ASSERT_EQ(0, sel_enter(type, "s0"));
	fds[O_FILE] = open(self->path, O_RDWR | O_CREAT | O_EXCL, 0600);
	ASSERT_LE(0, fds[O_FILE]);
	fds[O_SOCK] = socket(AF_UNIX, SOCK_STREAM, 0);
	ASSERT_LE(0, fds[O_SOCK]);
	/* The model's objects: the file is fs_t (fsuse trans on tmpfs). */
	ASSERT_LE(0, fgetfilecon(fds[O_FILE], &con));
	ASSERT_NE(NULL, strstr(con, ":fs_t:"));
	freecon(con);

	for (i = 0; i < ARRAY_SIZE(xp_cmds); i++) {
		const struct xp_cmd *c = &xp_cmds[i];
		char op[64], detail[16];
		struct record rec = {
			.abi = "cil",
			.subject = type,
			.object = c->obj == O_FILE ? "fs_t" : "self",
			.class = c->obj == O_FILE ? "file" :
						    "unix_stream_socket",
			.detail = detail,
			.op = op,
			.depends = depends_of(variant->dom, c, skip),
			.expected = model(variant->dom, c, skip),
		};

		snprintf(op, sizeof(op), "%s.%s",
			 c->obj == O_FILE ? "file" : "sock", c->name);
		snprintf(detail, sizeof(detail), "0x%04lx", c->cmd & 0xffff);
		rec.observed = issue(fds[c->obj], c);
		JUDGE(&rec);
	}
	close(fds[O_FILE]);
	close(fds[O_SOCK]);
}

LSM_HARNESS_MAIN
