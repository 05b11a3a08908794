// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's /lsmconf/runas UID PROGRAM [ARG...]: runs PROGRAM as user
 * and group UID, with no supplementary groups; the change of user clears
 * every capability. The guest init uses it for lsmconf.user=UID (the
 * tests as a user who may not load policy). The guest's busybox has no
 * way to change user without /etc/passwd (its setpriv has no --reuid).
 *
 * PROGRAM's output goes through a pipe made after the change of user and
 * copied to this program's own output: kselftest's runner.sh opens
 * /dev/stdout, which a user may not do on the init's pipe (root's).
 * Exits with PROGRAM's status (128 + N when killed by signal N).
 */
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static int copy_out(int in)
{
	char buf[4096];

	for (;;) {
		ssize_t n = read(in, buf, sizeof(buf)), off = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : 0;
		while (off < n) {
			ssize_t w = write(1, buf + off, n - off);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return -1;
			off += w;
		}
	}
}

int main(int argc, char **argv)
{
	unsigned long uid;
	int fds[2], status;
	char *end;
	pid_t pid;

	if (argc < 3) {
		fprintf(stderr, "usage: runas UID PROGRAM [ARG...]\n");
		return 2;
	}
	errno = 0;
	uid = strtoul(argv[1], &end, 10);
	if (errno || end == argv[1] || *end || !uid || uid > 65534) {
		fprintf(stderr, "runas: not a user id from 1 to 65534: %s\n",
			argv[1]);
		return 2;
	}
	if (setgroups(0, NULL) || setgid(uid) || setuid(uid)) {
		fprintf(stderr, "runas: cannot become uid %lu: %s\n", uid,
			strerror(errno));
		return 1;
	}
	if (pipe(fds)) {
		perror("runas: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("runas: fork");
		return 1;
	}
	if (!pid) {
		/* Ends with this program, which a timeout may kill. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (dup2(fds[1], 1) < 0 || dup2(fds[1], 2) < 0)
			_exit(126);
		close(fds[0]);
		close(fds[1]);
		execvp(argv[2], argv + 2);
		fprintf(stderr, "runas: %s: %s\n", argv[2], strerror(errno));
		_exit(127);
	}
	close(fds[1]);
	copy_out(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("runas: waitpid");
			return 1;
		}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
