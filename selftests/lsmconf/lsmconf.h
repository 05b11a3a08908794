/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf selftests: what every LSM's tests share (the policy-load guard,
 * bounded pipes and peers, decision records). Helpers return 0 or -errno;
 * every wait is bounded by poll(); nothing sleeps.
 */

#ifndef LSMCONF_H
#define LSMCONF_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lsmconf_record.h"

/* Loading policy changes the machine: only where the operator said so. */
#define ALLOW_POLICY_ENV "LSMCONF_ALLOW_POLICY_LOAD"
/* The SKIP reason of a test that would load policy where it may not. */
#define POLICY_LOAD_REFUSED                                                  \
	"refusing to load policy: not a test machine (set " ALLOW_POLICY_ENV \
	"=1 to allow)"

/* The active LSMs, comma-separated. */
#define LSM_LIST "/sys/kernel/security/lsm"

/* Reads a whole small file into @buf (NUL-terminated); returns length or -errno. */
static inline ssize_t read_text(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len + 1 < size) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		len += n;
	}
	close(fd);
	buf[len] = '\0';
	/* A file larger than the buffer would be silently cut otherwise. */
	if (len + 1 == size)
		return -EFBIG;
	return len;
}

/* The first number of a small file (a /proc/sys one), or -errno. */
static inline int read_int(const char *path)
{
	char buf[64];
	ssize_t n = read_text(path, buf, sizeof(buf));

	if (n < 0)
		return n;
	return n ? atoi(buf) : -EIO;
}

/* True when @word is one element of the comma-separated @list. */
static inline bool list_has(const char *list, const char *word)
{
	size_t wlen = strlen(word);
	const char *p = list;

	while (p && *p) {
		size_t len = strcspn(p, ",\n");

		if (len == wlen && !strncmp(p, word, wlen))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

/*
 * 1 when @lsm ("apparmor", "selinux") is an active LSM, 0 when not, -errno
 * when the list cannot be read.
 */
static inline int lsm_is_active(const char *lsm)
{
	char list[512];
	ssize_t ret = read_text(LSM_LIST, list, sizeof(list));

	if (ret < 0)
		return ret;
	return list_has(list, lsm);
}

static inline bool policy_load_allowed(void)
{
	const char *v = getenv(ALLOW_POLICY_ENV);

	return v && !strcmp(v, "1");
}

/* CAP_MAC_ADMIN (linux/capability.h), which loading policy needs. */
#define LSMCONF_CAP_MAC_ADMIN 33

/* True when CAP_MAC_ADMIN is in the calling thread's effective set. */
static inline bool may_admin_mac(void)
{
	struct {
		unsigned int version;
		int pid;
	} hdr = { 0x20080522 /* _LINUX_CAPABILITY_VERSION_3 */, 0 };
	struct {
		unsigned int effective, permitted, inheritable;
	} data[2] = { 0 };

	if (syscall(SYS_capget, &hdr, data))
		return false;
	return data[LSMCONF_CAP_MAC_ADMIN / 32].effective &
	       (1u << (LSMCONF_CAP_MAC_ADMIN % 32));
}

/*
 * Why this process may not load policy (the SKIP reason), or NULL: the
 * operator's leave (ALLOW_POLICY_ENV) and the privilege (not root, or
 * root without CAP_MAC_ADMIN).
 */
static inline const char *policy_load_refusal(void)
{
	if (!policy_load_allowed())
		return POLICY_LOAD_REFUSED;
	if (!may_admin_mac())
		return "cannot load policy: no CAP_MAC_ADMIN (run as root)";
	return NULL;
}

#ifdef __KSELFTEST_H
/*
 * kselftest_harness.h's test_harness_run() ends in ksft_exit(), which
 * exits 0 (KSFT_PASS) when no case failed, even when every case skipped;
 * kselftest's runner.sh then says "ok" where it should say "# SKIP". When
 * every planned case of this program skipped, it exits KSFT_SKIP (4)
 * instead, as upstream's tests do when they cannot run. Registered first
 * (a constructor), so it runs after every other exit handler; the
 * harness's children never get here (they end with _exit()).
 */
static void lsmconf_exit_skipped(void)
{
	if (ksft_plan && ksft_cnt.ksft_xskip == ksft_plan &&
	    !ksft_cnt.ksft_fail && !ksft_cnt.ksft_error) {
		fflush(stdout);
		fflush(stderr);
		_exit(KSFT_SKIP);
	}
}

__attribute__((constructor)) static void lsmconf_exit_skipped_init(void)
{
	atexit(lsmconf_exit_skipped);
}
#endif

static inline int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

/* Writes @text to an existing file (a sysctl, a kernel interface). */
static inline int write_text(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, text, strlen(text));
	close(fd);
	return ret;
}

/*
 * A directory the tests install beside their binaries (kselftest's
 * TEST_FILES): $@env when set, else @name beside the running binary, else
 * @name (relative). @buf holds the result for the program's life.
 */
static inline const char *beside_binary(const char *env, const char *name,
					char *buf, size_t size)
{
	const char *val = getenv(env);
	size_t len = strlen(name) + 2; /* '/', NUL */
	ssize_t n;
	char *slash;

	if (val && *val)
		return val;
	n = readlink("/proc/self/exe", buf, size - len);
	if (n <= 0)
		return name;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return name;
	snprintf(slash, len, "/%s", name);
	return buf;
}

/*
 * The directory of a test's profiles (AppArmor's templates, SELinux's
 * compiled policies): $LSMCONF_PROFILES, else profiles/ beside the test
 * binary, where kselftest installs it.
 */
static inline const char *profiles_dir(void)
{
	static char dir[PATH_MAX];

	return beside_binary("LSMCONF_PROFILES", "profiles", dir, sizeof(dir));
}

/* CLOCK_MONOTONIC in nanoseconds, for the benchmarks. */
static inline long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* The overflow ids, an unprivileged user every system has. */
#define NOBODY 65534

/* 0 when @path exists, or stat()'s -errno. */
static inline int path_state(const char *path)
{
	struct stat st;

	return stat(path, &st) ? -errno : 0;
}

/* @uid and @gid with no supplementary groups (setresuid() drops the caps). */
static inline int become_user(uid_t uid, gid_t gid)
{
	if (setgroups(0, NULL) || setresgid(gid, gid, gid) ||
	    setresuid(uid, uid, uid))
		return -errno;
	return 0;
}

/* Every wait for a peer ends after this long. */
#define PEER_WAIT_MS 5000

/* An outcome that is no errno: the operation was never attempted. */
#define NOT_RUN 1

static inline int sys_ret(long ret)
{
	return ret < 0 ? -errno : 0;
}

/*
 * Every socket a peer may block on gets send and receive timeouts
 * (connect() waits under SO_SNDTIMEO): a kernel that drops or never
 * answers what the model expects costs PEER_WAIT_MS, recorded as the
 * call's EAGAIN, never a hang.
 */
static inline int set_timeouts(int fd)
{
	struct timeval tv = { .tv_sec = PEER_WAIT_MS / 1000 };

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -errno;
	return 0;
}

/*
 * fork() for a test's peer: the peer is killed when the process that
 * forked it ends (PR_SET_PDEATHSIG), so a case that gives up early (an
 * ASSERT that returns before its peers are reaped) leaves no peer looping
 * on with the test's output open, which made the runner wait out its own
 * limit. An exec that changes credentials or the domain clears the
 * signal: such a peer's own waits stay bounded (PEER_WAIT_MS).
 */
static inline pid_t peer_fork(void)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0 && (prctl(PR_SET_PDEATHSIG, SIGKILL) ||
			 /* The parent ended before the signal was set. */
			 getppid() != parent))
		_exit(126);
	return pid;
}

/* Sends @fd with SCM_RIGHTS (and one byte) over the socket @via. */
static inline int send_fd(int via, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 'f';
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&msg);

	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	return sys_ret(sendmsg(via, &msg, 0));
}

/* Reads exactly @len bytes within @ms; 0 or -errno (-ETIMEDOUT, -EPIPE). */
static inline int pipe_read(int fd, void *buf, size_t len, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	size_t got = 0;

	while (got < len) {
		ssize_t n;
		int ret = poll(&pfd, 1, ms);

		if (ret < 0 && errno == EINTR)
			continue;
		if (ret < 0)
			return -errno;
		if (ret == 0)
			return -ETIMEDOUT;
		n = read(fd, (char *)buf + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		got += n;
	}
	return 0;
}

static inline int pipe_write(int fd, const void *buf, size_t len)
{
	return write_all(fd, buf, len);
}

/* 0 once @fd is readable, -ETIMEDOUT after PEER_WAIT_MS, or -errno. */
static inline int wait_readable(int fd)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	int ret = poll(&pfd, 1, PEER_WAIT_MS);

	if (ret < 0)
		return -errno;
	return ret ? 0 : -ETIMEDOUT;
}

/*
 * Receives one byte and maybe a file over the socket @via, waiting at most
 * PEER_WAIT_MS. Returns the received fd; -EACCES when the kernel dropped
 * the file (MSG_CTRUNC: an LSM refused it at file_receive); -EBADMSG for a
 * message that carried no file; -ETIMEDOUT or -errno.
 */
static inline int recv_fd(int via)
{
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte;
	struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = cbuf,
		.msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;
	int fd, err = wait_readable(via);

	if (err)
		return err;
	if (recvmsg(via, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) != 1)
		return -errno ?: -EBADMSG;
	cm = CMSG_FIRSTHDR(&msg);
	if (cm && cm->cmsg_level == SOL_SOCKET && cm->cmsg_type == SCM_RIGHTS) {
		memcpy(&fd, CMSG_DATA(cm), sizeof(int));
		return fd;
	}
	return msg.msg_flags & MSG_CTRUNC ? -EACCES : -EBADMSG;
}

/* Waits for @pid; kills it when it does not end within PEER_WAIT_MS. */
static inline int peer_reap(pid_t pid)
{
	int pidfd = syscall(SYS_pidfd_open, pid, 0), status = 0;
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };

	if (pidfd >= 0) {
		if (poll(&pfd, 1, PEER_WAIT_MS) <= 0)
			kill(pid, SIGKILL);
		close(pidfd);
	} else {
		kill(pid, SIGKILL);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	return status;
}

/*
 * A one-shot child: runs @body(@arg, @reply) in a peer_fork()ed child and
 * brings the @size bytes of @reply it filled (zeroed first) back over a
 * pipe. 0, or -errno when the child could not start or did not report
 * (every wait bounded: wait_readable(), peer_reap()).
 */
static inline int child_run(void (*body)(void *arg, void *reply), void *arg,
			    void *reply, size_t size)
{
	int rep[2], st;
	pid_t pid;

	memset(reply, 0, size);
	if (pipe2(rep, O_CLOEXEC))
		return -errno;
	pid = peer_fork();
	if (pid < 0) {
		st = -errno;
		close(rep[0]);
		close(rep[1]);
		return st;
	}
	if (pid == 0) {
		close(rep[0]);
		body(arg, reply);
		_exit(write(rep[1], reply, size) != (ssize_t)size);
	}
	close(rep[1]);
	st = wait_readable(rep[0]);
	if (!st && read(rep[0], reply, size) != (ssize_t)size)
		st = -EIO;
	close(rep[0]);
	if (peer_reap(pid) && !st)
		st = -ECHILD;
	return st;
}

/* "allow" or the errno's name. */
static inline const char *outcome_name(int err)
{
	const char *name;

	if (!err)
		return RECORD_ALLOW;
	if (err == NOT_RUN)
		return RECORD_NOT_RUN;
	name = strerrorname_np(-err);
	return name ? name : "E?";
}

/*
 * One decision. The columns are neutral: each test says in its model what
 * its subject, object, class and detail are (a sender's label and a
 * receiver's, a socket type and an address kind; a client domain, a server
 * domain, an IPC class; ...). Unused text fields are "-".
 */
struct record {
	const char *abi; /* the policy ABI or build the labels were made for */
	const char *subject; /* who acts: a label, a domain, a context */
	const char *object; /* what it acts on, or "-" */
	const char *class; /* socket type, IPC class, "context", ... */
	const char *detail; /* address kind, or "-" */
	/* The decision inside its KTAP case: unique there, may hold '/'. */
	const char *op;
	/* The feature or permission the expectation rests on, or "-". */
	const char *depends;
	int expected, observed; /* 0, -errno or NOT_RUN */
};

/*
 * A record that does not fit is a bug of the test, never a cut line: it
 * says so on the test's output and aborts, so its case fails.
 */
static inline void record_overflow(const char *kcase, const char *op,
				   const char *what, size_t size)
{
	fprintf(stderr,
		"# record_put: the %s of record %.80s/%.40s is over %zu bytes\n",
		what, kcase, op, size - 1);
	abort();
}

static inline const char *record_field(const char *s)
{
	return s && *s ? s : "-";
}

/*
 * Writes one decision of the KTAP case @kcase, with the id
 * "<binary>/<kcase>/<op>": appended to $LSMCONF_RESULTS/records.tsv
 * when that is set, else to the file $LSM_SELFTEST_RECORDS names, else
 * on stdout as a KTAP diagnostic, "# record: " and the tab-separated
 * columns (RECORD_DIAG), which kselftest's runner keeps in its log.
 */
static inline int record_put(const char *kcase, const struct record *r)
{
	const char *dir = getenv("LSMCONF_RESULTS");
	const char *file = getenv(RECORD_FILE_ENV);
	char path[PATH_MAX], line[1024];
	int fd, len, ret, off = 0;

	if (dir && *dir) {
		if (snprintf(path, sizeof(path), "%s/" RECORD_FILE, dir) >=
		    (int)sizeof(path))
			record_overflow(kcase, r->op, "path", sizeof(path));
		file = path;
	} else if (!file || !*file) {
		file = NULL;
		off = strlen(RECORD_DIAG);
		memcpy(line, RECORD_DIAG, off);
	}
	len = snprintf(line + off, sizeof(line) - off,
		       "%s/%s/%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n",
		       program_invocation_short_name, kcase, r->op,
		       record_field(r->abi), record_field(r->subject),
		       record_field(r->object), record_field(r->class),
		       record_field(r->detail), r->op, record_field(r->depends),
		       outcome_name(r->expected), outcome_name(r->observed));
	if (len < 0 || len >= (int)sizeof(line) - off)
		record_overflow(kcase, r->op, "line", sizeof(line) - off);
	/* One write per line: O_APPEND (or a pipe) keeps lines whole. */
	if (!file)
		return write_all(STDOUT_FILENO, line, off + len);
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, line, len);
	close(fd);
	return ret;
}

#endif /* LSMCONF_H */
