// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "spawn.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Every child still running, by process group: a signal to lsmconf ends
 * them all (QEMU, make and its compilers) before lsmconf exits.
 */
#define MAX_LIVE 32
static volatile pid_t live[MAX_LIVE];
/* Which of them get SIGTERM first (spawn_opts.relay). */
static volatile bool live_relay[MAX_LIVE];
/* How long a relaying child has to stop its own children: 100 x 50 ms. */
#define RELAY_TRIES 100

static void live_add(pid_t pid, bool relay)
{
	int i;

	for (i = 0; i < MAX_LIVE; i++)
		if (!live[i]) {
			live_relay[i] = relay;
			live[i] = pid;
			return;
		}
}

static void live_del(pid_t pid)
{
	int i;

	for (i = 0; i < MAX_LIVE; i++)
		if (live[i] == pid)
			live[i] = 0;
}

/* Async-signal-safe: a relaying child's bounded wait (waitpid, nanosleep). */
static void relay_wait(pid_t pid)
{
	const struct timespec tick = { 0, 50 * 1000 * 1000 };
	int i;

	for (i = 0; i < RELAY_TRIES; i++) {
		if (waitpid(pid, NULL, WNOHANG) != 0)
			return;
		nanosleep(&tick, NULL);
	}
}

int spawn_kill_all(void)
{
	int i, n = 0;

	/* A relaying child stops its own children first. */
	for (i = 0; i < MAX_LIVE; i++)
		if (live[i] > 0 && live_relay[i])
			kill(live[i], SIGTERM);
	for (i = 0; i < MAX_LIVE; i++)
		if (live[i] > 0 && live_relay[i])
			relay_wait(live[i]);
	for (i = 0; i < MAX_LIVE; i++) {
		pid_t pid = live[i];

		if (pid > 0) {
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			n++;
		}
	}
	return n;
}

/* Async-signal-safe: only kill(), write() and _exit(). */
static void on_signal(int sig)
{
	static const char head[] = "lsmconf: interrupted by signal ";
	static const char tail[] = ", stopped every child process it started\n";
	char num[4] = { '0' + sig / 10 % 10, '0' + sig % 10, 0 };
	ssize_t unused;

	spawn_kill_all();
	unused = write(STDERR_FILENO, head, sizeof(head) - 1);
	unused = write(STDERR_FILENO, sig >= 10 ? num : num + 1,
		       sig >= 10 ? 2 : 1);
	unused = write(STDERR_FILENO, tail, sizeof(tail) - 1);
	(void)unused;
	_exit(128 + sig);
}

void spawn_guard(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa = { .sa_handler = on_signal };
	size_t i;

	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaddset(&sa.sa_mask, sigs[i]);
	for (i = 0; i < ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

static int pidfd_open_(pid_t pid)
{
	return syscall(SYS_pidfd_open, pid, 0);
}

static void child_fd(int want, int target)
{
	int fd;

	if (want == -2)
		return;
	if (want == -1) {
		fd = open("/dev/null", O_RDWR);
		if (fd < 0)
			_exit(127);
		dup2(fd, target);
		close(fd);
		return;
	}
	dup2(want, target);
}

/*
 * fork() for both kinds of child: 0 in the child, in a process group of
 * its own that a signal to lsmconf (or its death) reaches, SIGTERM first
 * when it @relay's; in the caller its pid (*@pidfd its pidfd), or -errno.
 * A copy of lsmconf (@copy) keeps the signal handlers for its own
 * children and forgets the caller's; a program to exec gets the defaults.
 */
static pid_t fork_child(bool relay, bool copy, int *pidfd)
{
	pid_t pid, parent = getpid();
	sigset_t all, old;
	int i;

	fflush(NULL);
	/* No signal between fork() and live_add(): the child is always known. */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid < 0) {
		int ret = -errno;

		sigprocmask(SIG_SETMASK, &old, NULL);
		return ret;
	}
	if (pid == 0) {
		struct sigaction dfl = { .sa_handler = SIG_DFL };

		for (i = 0; copy && i < MAX_LIVE; i++)
			live[i] = 0;
		if (!copy) {
			sigaction(SIGINT, &dfl, NULL);
			sigaction(SIGTERM, &dfl, NULL);
			sigaction(SIGHUP, &dfl, NULL);
		}
		setpgid(0, 0);
		/*
		 * Even a crashed or SIGKILLed lsmconf leaves no child behind;
		 * a relaying one stops its own children first.
		 */
		prctl(PR_SET_PDEATHSIG, relay ? SIGTERM : SIGKILL);
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (getppid() != parent)
			_exit(127);
		return 0;
	}
	setpgid(pid, pid);
	live_add(pid, relay);
	sigprocmask(SIG_SETMASK, &old, NULL);
	*pidfd = pidfd_open_(pid);
	if (*pidfd < 0) {
		int ret = -errno;

		if (relay) {
			kill(pid, SIGTERM);
			relay_wait(pid);
		}
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
		live_del(pid);
		return ret;
	}
	return pid;
}

pid_t spawn_start(char *const argv[], const struct spawn_opts *o, int *pidfd)
{
	pid_t pid = fork_child(o->relay, false, pidfd);

	if (pid == 0) {
		child_fd(o->stdin_fd, STDIN_FILENO);
		child_fd(o->stdout_fd, STDOUT_FILENO);
		child_fd(o->stderr_fd, STDERR_FILENO);
		if (o->cwd && chdir(o->cwd))
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	return pid;
}

pid_t spawn_fork(int *pidfd)
{
	return fork_child(true, true, pidfd);
}

static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			live_del(pid);
			return -errno;
		}
	live_del(pid);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int spawn_finish(pid_t pid, int pidfd, int timeout_s)
{
	struct pollfd pfd = { .fd = pidfd, .events = POLLIN };
	int ret;

	do {
		ret = poll(&pfd, 1, timeout_s > 0 ? timeout_s * 1000 : -1);
	} while (ret < 0 && errno == EINTR);
	if (ret == 0) {
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		reap(pid);
		close(pidfd);
		return SPAWN_TIMEOUT;
	}
	close(pidfd);
	return reap(pid);
}

int spawn_wait(char *const argv[], const struct spawn_opts *o)
{
	int pidfd;
	pid_t pid = spawn_start(argv, o, &pidfd);

	if (pid < 0)
		return pid;
	return spawn_finish(pid, pidfd, o->timeout_s);
}

int spawn_capture(char *const argv[], const struct spawn_opts *o, char **out,
		  size_t *out_len, char **err)
{
	struct sbuf sout = { 0 }, serr = { 0 };
	struct spawn_opts so = *o;
	int po[2], pe[2] = { -1, -1 }, pidfd, ret;
	double deadline = now_seconds() + o->timeout_s;
	pid_t pid;

	if (pipe2(po, O_CLOEXEC))
		return -errno;
	if (err && pipe2(pe, O_CLOEXEC)) {
		ret = -errno;
		close(po[0]);
		close(po[1]);
		return ret;
	}
	so.stdout_fd = po[1];
	if (err)
		so.stderr_fd = pe[1];
	pid = spawn_start(argv, &so, &pidfd);
	/* Close our copies of the write ends so EOF arrives when it exits. */
	close(po[1]);
	if (err)
		close(pe[1]);
	if (pid < 0) {
		close(po[0]);
		if (err)
			close(pe[0]);
		return pid;
	}
	sbuf_add(&sout, "", 0);
	sbuf_add(&serr, "", 0);
	for (;;) {
		struct pollfd pfd[2] = { { .fd = po[0], .events = POLLIN },
					 { .fd = pe[0], .events = POLLIN } };
		char chunk[65536];
		int wait_ms = -1, n, i, open_fds = 0;

		if (o->timeout_s > 0) {
			wait_ms = (deadline - now_seconds()) * 1000;
			if (wait_ms <= 0)
				break;
		}
		for (i = 0; i < 2; i++)
			open_fds += pfd[i].fd >= 0;
		if (!open_fds)
			break;
		n = poll(pfd, 2, wait_ms);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (i = 0; i < 2; i++) {
			ssize_t r;

			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			r = read(pfd[i].fd, chunk, sizeof(chunk));
			if (r > 0) {
				sbuf_add(i ? &serr : &sout, chunk, r);
			} else if (r == 0 || errno != EINTR) {
				close(pfd[i].fd);
				if (i)
					pe[0] = -1;
				else
					po[0] = -1;
			}
		}
	}
	if (po[0] >= 0)
		close(po[0]);
	if (pe[0] >= 0)
		close(pe[0]);
	ret = spawn_finish(
		pid, pidfd,
		o->timeout_s > 0 ? (int)(deadline - now_seconds()) + 1 : 0);
	*out = sout.buf;
	if (out_len)
		*out_len = sout.len;
	if (err)
		*err = serr.buf;
	else
		free(serr.buf);
	return ret;
}

const char *spawn_strstatus(int status, char *buf, size_t size)
{
	if (status == SPAWN_TIMEOUT)
		snprintf(buf, size, "timed out");
	else if (status < 0)
		snprintf(buf, size, "could not start: %s", strerror(-status));
	else if (status == 127)
		snprintf(buf, size, "exit status 127 (command not found?)");
	else if (status > 128)
		snprintf(buf, size, "killed by signal %d", status - 128);
	else
		snprintf(buf, size, "exit status %d", status);
	return buf;
}
