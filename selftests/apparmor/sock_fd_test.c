// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor on the file-descriptor path of socket fds.
 *
 * A socket made by one confined label (lsmconf_t_sf_creator, allows
 * everything) is used through its fd by a task of another label: either
 * the same task after aa_change_profile() ("inherit": the fd keeps the
 * creator's label cached in its file context), or a task that was in the
 * other label already and receives the fd over SCM_RIGHTS ("scm"). The
 * user's label allows everything on unix and network ("all"), only send
 * and receive ("sr"), or neither ("none"). Every file operation on the fd
 * is one decision: the SCM_RIGHTS receive, read, write, flock LOCK_SH and
 * LOCK_EX, F_SETLK F_RDLCK and F_WRLCK, fstat and ioctl FIONREAD.
 *
 * The model (sf_expect) states, for each operation, which hook reaches
 * AppArmor and what it asks for; each rule names the kernel function.
 */

#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <netinet/in.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "harness_main.h"

#define ABI "5.0"

enum sf_kind { K_UNIX_STREAM, K_UNIX_DGRAM, K_TCP, K_UDP };
enum sf_perm { SP_ALL, SP_SR, SP_NONE };
enum sf_via { V_INHERIT, V_SCM };

static const char *const kind_names[] = { "unix_stream", "unix_dgram", "tcp",
					  "udp" };
static const char *const perm_names[] = { "all", "sr", "none" };

/* The user's labels: sock_fd.profile with these rules. */
static const char *const perm_rules[] = {
	[SP_ALL] = "unix,\n  network,",
	[SP_SR] = "unix (send, receive),\n  network (send, receive) inet,",
	/* Mediated (the class is named), but nothing the fd's ops need. */
	[SP_NONE] = "unix (getattr),\n  network (getattr) inet,",
};

/* The operations, in the order they run; each is one decision. */
enum sf_op {
	OP_RECEIVE,
	OP_READ,
	OP_WRITE,
	OP_FLOCK_SH,
	OP_FLOCK_EX,
	OP_SETLK_RD,
	OP_SETLK_WR,
	OP_FSTAT,
	OP_IOCTL,
	OP_N
};

static const char *const op_names[] = {
	"scm_receive", "read",	      "write", "flock_sh",	 "flock_ex",
	"setlk_rdlck", "setlk_wrlck", "fstat", "ioctl_fionread",
};

/* How the running kernel mediates the socket's family. */
enum mediation { MED_FINE, MED_COARSE, MED_NONE };

FIXTURE(sock_fd)
{
	char before[65536];
	enum mediation med_unix, med_inet;
	int af_unix, net_v8;
	bool permstable; /* policy/permstable32: compute_perms_entry() */
};

FIXTURE_VARIANT(sock_fd)
{
	enum sf_kind kind;
	enum sf_perm perm;
	enum sf_via via;
};

FIXTURE_VARIANT_ADD(sock_fd, unix_stream_all_inherit) {
	.kind = K_UNIX_STREAM,
	.perm = SP_ALL,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_stream_sr_inherit) {
	.kind = K_UNIX_STREAM,
	.perm = SP_SR,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_stream_none_inherit) {
	.kind = K_UNIX_STREAM,
	.perm = SP_NONE,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_stream_all_scm) {
	.kind = K_UNIX_STREAM,
	.perm = SP_ALL,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_stream_sr_scm) {
	.kind = K_UNIX_STREAM,
	.perm = SP_SR,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_stream_none_scm) {
	.kind = K_UNIX_STREAM,
	.perm = SP_NONE,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_dgram_all_inherit) {
	.kind = K_UNIX_DGRAM,
	.perm = SP_ALL,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_dgram_sr_inherit) {
	.kind = K_UNIX_DGRAM,
	.perm = SP_SR,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_dgram_none_inherit) {
	.kind = K_UNIX_DGRAM,
	.perm = SP_NONE,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_dgram_all_scm) {
	.kind = K_UNIX_DGRAM,
	.perm = SP_ALL,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_dgram_sr_scm) {
	.kind = K_UNIX_DGRAM,
	.perm = SP_SR,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, unix_dgram_none_scm) {
	.kind = K_UNIX_DGRAM,
	.perm = SP_NONE,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, tcp_all_inherit) {
	.kind = K_TCP,
	.perm = SP_ALL,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, tcp_sr_inherit) {
	.kind = K_TCP,
	.perm = SP_SR,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, tcp_none_inherit) {
	.kind = K_TCP,
	.perm = SP_NONE,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, tcp_all_scm) {
	.kind = K_TCP,
	.perm = SP_ALL,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, tcp_sr_scm) {
	.kind = K_TCP,
	.perm = SP_SR,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, tcp_none_scm) {
	.kind = K_TCP,
	.perm = SP_NONE,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, udp_all_inherit) {
	.kind = K_UDP,
	.perm = SP_ALL,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, udp_sr_inherit) {
	.kind = K_UDP,
	.perm = SP_SR,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, udp_none_inherit) {
	.kind = K_UDP,
	.perm = SP_NONE,
	.via = V_INHERIT,
};

FIXTURE_VARIANT_ADD(sock_fd, udp_all_scm) {
	.kind = K_UDP,
	.perm = SP_ALL,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, udp_sr_scm) {
	.kind = K_UDP,
	.perm = SP_SR,
	.via = V_SCM,
};

FIXTURE_VARIANT_ADD(sock_fd, udp_none_scm) {
	.kind = K_UDP,
	.perm = SP_NONE,
	.via = V_SCM,
};

static int sf_load_labels(struct __test_metadata *_metadata)
{
	struct aa_policy p;
	char id[32];
	int i, ret;

	ret = aa_policy_share(_metadata, &p, "allow", ABI, NULL, "sf_creator",
			      "sf_creator");
	for (i = 0; !ret && i < (int)ARRAY_SIZE(perm_rules); i++) {
		snprintf(id, sizeof(id), "sf_%s", perm_names[i]);
		ret = aa_policy_share(_metadata, &p, "sock_fd", ABI,
				      perm_rules[i], id, id);
	}
	return ret;
}

FIXTURE_SETUP(sock_fd)
{
	REQUIRE_APPARMOR(_metadata, true);
	ASSERT_EQ(0, sf_load_labels(_metadata));
	ASSERT_LE(0, aa_profile_list(self->before, sizeof(self->before)));
	self->af_unix = aa_feature("network_v9/af_unix") == 1;
	self->net_v8 =
		aa_feature("network_v8") == 1 || aa_feature("network") == 1;
	/*
	 * af_unix.c (network_v9/af_unix) decides unix sockets with peer
	 * checks; without it, and for inet on every kernel, the coarse
	 * per-family tables (aa_profile_af_perm) decide.
	 */
	self->med_unix = self->af_unix ? MED_FINE :
			 self->net_v8  ? MED_COARSE :
					 MED_NONE;
	self->med_inet = self->net_v8 ? MED_COARSE : MED_NONE;
	{
		struct stat st;

		self->permstable =
			!stat(AA_FEATURES "/policy/permstable32", &st);
	}
}

FIXTURE_TEARDOWN(sock_fd)
{
	static char after[65536];

	if (self->before[0]) {
		EXPECT_LE(0, aa_profile_list(after, sizeof(after)));
		EXPECT_STREQ(self->before, after);
	}
}

static bool is_unix(enum sf_kind k)
{
	return k == K_UNIX_STREAM || k == K_UNIX_DGRAM;
}

/*
 * What read and write return once AppArmor lets them through: a unix
 * socketpair end has a message queued (read) and a live peer (write); an
 * inet socket is never connected: tcp_recvmsg ENOTCONN, tcp_sendmsg EPIPE
 * (sk_stream_wait_connect; SIGPIPE is ignored), udp_recvmsg EAGAIN
 * (non-blocking, empty), udp_sendmsg EDESTADDRREQ (no address).
 */
static int post_lsm(enum sf_kind k, enum sf_op op)
{
	if (is_unix(k))
		return 0;
	if (op == OP_READ)
		return k == K_TCP ? -ENOTCONN : -EAGAIN;
	return k == K_TCP ? -EPIPE : -EDESTADDRREQ;
}

/*
 * The model. U is the user's label, C the creator's (confined, so the fd
 * is never "delegated": __file_is_delegated() is true only for an
 * unconfined file label). U != C and the file context caches only what
 * was granted (update_file_ctx: allow |= request), so the first use of
 * each permission by U takes the slow path of aa_file_perm():
 * __file_sock_perm() -> aa_sock_file_perm() -> aa_unix_file_perm()
 * (af_unix.c, network_v9/af_unix) for PF_UNIX, else aa_label_sk_perm()
 * -> aa_profile_af_sk_perm() (the per-family table).
 *
 * - read/write: apparmor_file_permission asks MAY_READ (= AA_MAY_RECEIVE)
 *   or MAY_WRITE (= AA_MAY_SEND). FINE unix: both are in NET_PEER_MASK,
 *   so aa_unix_file_perm() skips the socket check and checks the peer
 *   with unix_peer_perm(MAY_READ | MAY_WRITE) both ways: U needs send AND
 *   receive (the peer's label C allows all). The message hooks agree:
 *   apparmor_unix_may_send (dgram: U send), aa_sock_msg_perm is 0 for
 *   PF_UNIX. COARSE unix and inet: aa_label_sk_perm(request): read needs
 *   receive, write needs send; apparmor_socket_recvmsg/sendmsg ->
 *   aa_sk_perm ask the same of U.
 * - flock(2) / F_SETLK: apparmor_file_lock asks AA_MAY_LOCK (0x8000),
 *   plus MAY_WRITE for F_WRLCK (flock LOCK_EX is F_WRLCK, LOCK_SH
 *   F_RDLCK). No unix or network rule names lock (the parser's
 *   AA_VALID_NET_PERMS has no lock bit), but compute_perms_entry()
 *   (policy_compat.c) adds AA_MAY_LOCK to every policydb state of a
 *   policy of version <= v8, so a family the profile names grants lock.
 *   FINE unix: AA_MAY_LOCK is not in NET_PEER_MASK, so aa_unix_file_perm()
 *   checks it on the socket (granted, or refused without permstable32),
 *   and then the peer check with
 *   MAY_READ | MAY_WRITE runs whatever was asked: U needs send AND
 *   receive for every lock. COARSE unix and inet: aa_profile_af_sk_perm:
 *   LOCK is granted, the MAY_WRITE of F_WRLCK needs send.
 *   Kernels without policy/permstable32 (6.1: no policy_compat.c, the
 *   policydb perms are dfa_user_allow() as stored) never add the lock
 *   bit: every lock by a mediating U is EACCES there.
 * - SCM_RIGHTS: apparmor_file_receive asks aa_map_file_to_perms() =
 *   MAY_READ | MAY_WRITE (a socket file is FMODE_READ|FMODE_WRITE): U
 *   needs send and receive, FINE or COARSE. A refused fd is not
 *   installed (scm_detach_fds stops, MSG_CTRUNC). The channel is an
 *   unconfined socketpair: FINE it is unmediated after creation; COARSE
 *   recvmsg on it asks U's unix receive (apparmor_socket_recvmsg), which
 *   "none" lacks too. Without the fd, the later ops are not run.
 * - fstat: apparmor_inode_getattr -> common_perm_cond: sockfs is not a
 *   path_mediated_fs(), so 0. ioctl: AppArmor has no file_ioctl hook.
 * - MED_NONE (no network mediation advertised): nothing is checked.
 */
static int sf_expect(const FIXTURE_VARIANT(sock_fd) * v, enum mediation med,
		     bool permstable, enum sf_op op)
{
	bool S = v->perm != SP_NONE, R = v->perm != SP_NONE;
	bool mediated = med != MED_NONE, fine = med == MED_FINE;
	bool received = !(mediated && !(S && R));

	if (v->via == V_SCM && op != OP_RECEIVE && !received)
		return NOT_RUN;
	switch (op) {
	case OP_RECEIVE:
		if (v->via != V_SCM)
			return NOT_RUN;
		return received ? 0 : -EACCES;
	case OP_READ:
		if (mediated && !(fine ? S && R : R))
			return -EACCES;
		return post_lsm(v->kind, op);
	case OP_WRITE:
		if (mediated && !(fine ? S && R : S))
			return -EACCES;
		return post_lsm(v->kind, op);
	case OP_FLOCK_SH:
	case OP_SETLK_RD:
		if (mediated && !permstable)
			return -EACCES;
		return mediated && fine && !(S && R) ? -EACCES : 0;
	case OP_FLOCK_EX:
	case OP_SETLK_WR:
		if (mediated && !permstable)
			return -EACCES;
		return mediated && !(fine ? S && R : S) ? -EACCES : 0;
	case OP_FSTAT:
	case OP_IOCTL:
	default:
		return 0;
	}
}

/* ---- the real side ---------------------------------------------------- */

static int enter(const char *id)
{
	char name[160];

	snprintf(name, sizeof(name), AA_TEST_PREFIX "%s", id);
	return aa_change_profile(name) ? -errno : 0;
}

/*
 * Makes the socket as the creator would: fd[0] is the one used, fd[1]
 * the unix peer end (-1 for inet). A unix pair gets one message queued
 * towards fd[0], so a permitted read returns it.
 */
static int make_socket(enum sf_kind k, int fd[2])
{
	static const char msg[] = "lsmconf";
	int type = k == K_UNIX_STREAM || k == K_TCP ? SOCK_STREAM : SOCK_DGRAM;

	fd[1] = -1;
	type |= SOCK_NONBLOCK;
	if (is_unix(k)) {
		if (socketpair(AF_UNIX, type, 0, fd))
			return -errno;
		if (write(fd[1], msg, sizeof(msg)) != sizeof(msg))
			return -EIO;
		return 0;
	}
	fd[0] = socket(AF_INET, type, 0);
	return fd[0] < 0 ? -errno : 0;
}

static int do_op(int fd, enum sf_op op)
{
	struct flock fl = { .l_whence = SEEK_SET };
	char buf[64];
	struct stat st;
	int n;

	switch (op) {
	case OP_READ:
		return read(fd, buf, sizeof(buf)) < 0 ? -errno : 0;
	case OP_WRITE:
		return write(fd, "x", 1) < 0 ? -errno : 0;
	case OP_FLOCK_SH:
		return sys_ret(flock(fd, LOCK_SH | LOCK_NB));
	case OP_FLOCK_EX:
		return sys_ret(flock(fd, LOCK_EX | LOCK_NB));
	case OP_SETLK_RD:
		fl.l_type = F_RDLCK;
		return sys_ret(fcntl(fd, F_SETLK, &fl));
	case OP_SETLK_WR:
		fl.l_type = F_WRLCK;
		return sys_ret(fcntl(fd, F_SETLK, &fl));
	case OP_FSTAT:
		return sys_ret(fstat(fd, &st));
	case OP_IOCTL:
		return sys_ret(ioctl(fd, FIONREAD, &n));
	default:
		return -EINVAL;
	}
}

/* What a child reports: its setup error (0) and each op's outcome. */
struct sf_report {
	int setup; /* 0, or -errno of the step that failed */
	const char *step;
	int res[OP_N];
};

static void run_ops(int fd, struct sf_report *r)
{
	int i;

	for (i = OP_READ; i < OP_N; i++)
		r->res[i] = do_op(fd, i);
}

/* Receives one fd over @ch within PEER_WAIT_MS; 0, -EACCES (refused). */
static int sf_recv_fd(int ch, int *fd)
{
	char data, cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &data, 1 };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct pollfd pfd = { ch, POLLIN, 0 };
	struct cmsghdr *c;

	*fd = -1;
	if (poll(&pfd, 1, PEER_WAIT_MS) != 1)
		return -ETIMEDOUT;
	if (recvmsg(ch, &mh, MSG_DONTWAIT) < 0)
		return -errno;
	c = CMSG_FIRSTHDR(&mh);
	if (c && c->cmsg_type == SCM_RIGHTS) {
		memcpy(fd, CMSG_DATA(c), sizeof(int));
		return 0;
	}
	/* scm_detach_fds: security_file_receive refused, fd not installed. */
	return mh.msg_flags & MSG_CTRUNC ? -EACCES : -EBADMSG;
}

static int sf_send_fd(int ch, int fd)
{
	char data = 'f', cbuf[CMSG_SPACE(sizeof(int))] = { 0 };
	struct iovec iov = { &data, 1 };
	struct msghdr mh = { .msg_iov = &iov,
			     .msg_iovlen = 1,
			     .msg_control = cbuf,
			     .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &fd, sizeof(int));
	return sendmsg(ch, &mh, 0) == 1 ? 0 : -errno;
}

#define FAIL_AT(r, s, e)          \
	do {                      \
		(r)->setup = (e); \
		(r)->step = (s);  \
		goto out;         \
	} while (0)

/* Inherit: make the socket in C, change to U, use it. */
static void child_inherit(const FIXTURE_VARIANT(sock_fd) * v, const char *uid,
			  struct sf_report *r)
{
	int fd[2], e;

	e = enter("sf_creator");
	if (e)
		FAIL_AT(r, "enter creator", e);
	e = make_socket(v->kind, fd);
	if (e)
		FAIL_AT(r, "socket", e);
	e = enter(uid);
	if (e)
		FAIL_AT(r, "enter user", e);
	r->res[OP_RECEIVE] = NOT_RUN;
	run_ops(fd[0], r);
out:
	return;
}

/*
 * SCM sender: make the socket in C, pass fd[0] over @ch, keep fd[1] (the
 * peer end) open until the receiver is done (@done closes).
 */
static void child_sender(const FIXTURE_VARIANT(sock_fd) * v, int ch, int done,
			 int done_w, struct sf_report *r)
{
	struct pollfd pfd = { done, POLLIN, 0 };
	int fd[2], e;

	close(done_w);
	e = enter("sf_creator");
	if (e)
		FAIL_AT(r, "enter creator", e);
	e = make_socket(v->kind, fd);
	if (e)
		FAIL_AT(r, "socket", e);
	e = sf_send_fd(ch, fd[0]);
	if (e)
		FAIL_AT(r, "send fd", e);
	close(fd[0]);
	poll(&pfd, 1, PEER_WAIT_MS);
out:
	return;
}

/* SCM receiver: already in U, receives the fd and uses it. */
static void child_receiver(int ch, const char *uid, struct sf_report *r)
{
	int fd, i, e;

	e = enter(uid);
	if (e)
		FAIL_AT(r, "enter user", e);
	r->res[OP_RECEIVE] = sf_recv_fd(ch, &fd);
	if (r->res[OP_RECEIVE] == 0)
		run_ops(fd, r);
	else
		for (i = OP_READ; i < OP_N; i++)
			r->res[i] = NOT_RUN;
out:
	return;
}

/* Reads a child's report from @rfd within PEER_WAIT_MS: 0 or -errno. */
static int read_report(int rfd, struct sf_report *r)
{
	struct pollfd pfd = { rfd, POLLIN, 0 };
	ssize_t n;

	if (poll(&pfd, 1, PEER_WAIT_MS) != 1)
		return -ETIMEDOUT;
	n = read(rfd, r, sizeof(*r));
	return n == sizeof(*r) ? 0 : -EIO;
}

/* Forks a child that runs @fn and writes its report to a pipe. */
#define SPAWN(pid, rfd, body)                                  \
	do {                                                   \
		int _p[2];                                     \
		struct sf_report _r = { 0 };                   \
		ASSERT_EQ(0, pipe2(_p, O_CLOEXEC));            \
		pid = fork();                                  \
		ASSERT_LE(0, pid);                             \
		if (!pid) {                                    \
			close(_p[0]);                          \
			signal(SIGPIPE, SIG_IGN);              \
			{                                      \
				struct sf_report *r = &_r;     \
				body;                          \
			}                                      \
			if (write(_p[1], &_r, sizeof(_r)) < 0) \
				_exit(2);                      \
			_exit(0);                              \
		}                                              \
		close(_p[1]);                                  \
		rfd = _p[0];                                   \
	} while (0)

TEST_F_TIMEOUT(sock_fd, decisions, 30)
{
	struct sf_report rep = { 0 }, srep = { 0 };
	enum mediation med;
	char uid[32], op[48], depends[64], ldepends[96];
	int ch[2], done[2], rfd, srfd = -1, i, status;
	pid_t pid, spid = -1;

	med = is_unix(variant->kind) ? self->med_unix : self->med_inet;
	snprintf(uid, sizeof(uid), "sf_%s", perm_names[variant->perm]);
	if (is_unix(variant->kind)) {
		snprintf(depends, sizeof(depends),
			 "network_v9/af_unix=%s;network_v8=%s",
			 self->af_unix ? "yes" : "no",
			 self->net_v8 ? "yes" : "no");
	} else {
		snprintf(depends, sizeof(depends), "network_v8=%s",
			 self->net_v8 ? "yes" : "no");
	}

	if (variant->via == V_INHERIT) {
		SPAWN(pid, rfd, child_inherit(variant, uid, r));
	} else {
		ASSERT_EQ(0, socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0,
					ch));
		ASSERT_EQ(0, pipe2(done, O_CLOEXEC));
		SPAWN(spid, srfd,
		      child_sender(variant, ch[1], done[0], done[1], r));
		SPAWN(pid, rfd,
		      (close(done[1]), child_receiver(ch[0], uid, r)));
		close(ch[0]);
		close(ch[1]);
		close(done[0]);
	}
	ASSERT_EQ(0, read_report(rfd, &rep));
	close(rfd);
	waitpid(pid, &status, 0);
	if (spid > 0) {
		close(done[1]);
		ASSERT_EQ(0, read_report(srfd, &srep));
		close(srfd);
		waitpid(spid, &status, 0);
		ASSERT_EQ(0, srep.setup)
		{
			TH_LOG("sender: %s: %s", srep.step,
			       strerror(-srep.setup));
		}
	}
	ASSERT_EQ(0, rep.setup)
	{
		TH_LOG("user: %s: %s", rep.step, strerror(-rep.setup));
	}

	snprintf(ldepends, sizeof(ldepends), "%s;policy/permstable32=%s",
		 depends, self->permstable ? "yes" : "no");
	for (i = 0; i < OP_N; i++) {
		bool peerless = i == OP_FSTAT || i == OP_IOCTL;
		bool lock = i >= OP_FLOCK_SH && i <= OP_SETLK_WR;
		struct record rec = {
			.abi = ABI,
			.subject = uid,
			.object = "sf_creator",
			.class = kind_names[variant->kind],
			.detail = variant->via == V_SCM ? "scm_rights" :
							  "change_profile",
			.op = op,
			.depends = peerless ? "-" :
				   lock	    ? ldepends :
					      depends,
			.expected =
				sf_expect(variant, med, self->permstable, i),
			.observed = rep.res[i],
		};

		if (i == OP_RECEIVE && variant->via != V_SCM)
			continue;
		snprintf(op, sizeof(op), "%s", op_names[i]);
		JUDGE(&rec);
	}
}

AA_HARNESS_MAIN
