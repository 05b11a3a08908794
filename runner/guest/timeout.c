// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's /usr/bin/timeout: GNU timeout's interface as kselftest's
 * runner.sh and the guest init call it:
 *
 *   timeout [--foreground] [-s SIGNAL] [-k DURATION] DURATION CMD [ARG...]
 *
 * It waits for CMD itself and returns the moment CMD ends. Busybox's
 * timeout leaves a child behind that polls once a second whether CMD is
 * still there; that child holds CMD's output pipe open, so every program
 * cost up to a second more before the next could start.
 *
 * Exit status: CMD's (128 + N when killed by signal N); 124 when the
 * bound ended it, but 137 when the signal was KILL (what GNU's and
 * busybox's give: the init's "timeout -s KILL" rerun is read so); 125 for
 * a usage error, 126 when CMD cannot run, 127 when it is not found.
 * Without --foreground CMD runs in a process group of its own and the
 * signal goes to the whole group, as GNU's does.
 */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct {
	const char *name;
	int sig;
} signals[] = {
	{ "HUP", SIGHUP },   { "INT", SIGINT },	  { "QUIT", SIGQUIT },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
	{ "ALRM", SIGALRM }, { "TERM", SIGTERM },
};

static int usage(const char *why)
{
	fprintf(stderr,
		"timeout: %s\nusage: timeout [--foreground] [-s SIGNAL] "
		"[-k DURATION] DURATION COMMAND [ARG...]\n",
		why);
	return 125;
}

/* A signal by name (with or without SIG) or number, or -1. */
static int parse_signal(const char *s)
{
	char *end;
	long n;
	size_t i;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (i = 0; i < sizeof(signals) / sizeof(signals[0]); i++)
		if (!strcmp(s, signals[i].name))
			return signals[i].sig;
	errno = 0;
	n = strtol(s, &end, 10);
	if (errno || end == s || *end || n <= 0 || n >= NSIG)
		return -1;
	return (int)n;
}

/* A duration in seconds (a number, then s, m, h or d), or -1. */
static double parse_duration(const char *s)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (errno || end == s || d < 0)
		return -1;
	if (!*end || !strcmp(end, "s"))
		return d;
	if (!strcmp(end, "m"))
		return d * 60;
	if (!strcmp(end, "h"))
		return d * 3600;
	if (!strcmp(end, "d"))
		return d * 86400;
	return -1;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static struct timespec span(double s)
{
	struct timespec ts;

	if (s < 0)
		s = 0;
	ts.tv_sec = (time_t)s;
	ts.tv_nsec = (long)((s - ts.tv_sec) * 1e9);
	return ts;
}

int main(int argc, char **argv)
{
	bool foreground = false, timed_out = false;
	int sig = SIGTERM, sent = 0, status, i = 1;
	double bound, kill_after = 0, deadline;
	sigset_t waited, old;
	pid_t pid;

	for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		if (!strcmp(argv[i], "--foreground")) {
			foreground = true;
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			sig = parse_signal(argv[++i]);
			if (sig < 0)
				return usage("unknown signal");
		} else if (!strcmp(argv[i], "-k") && i + 1 < argc) {
			kill_after = parse_duration(argv[++i]);
			if (kill_after < 0)
				return usage("bad duration after -k");
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			return usage("unknown option");
		}
	}
	if (argc - i < 2)
		return usage("missing duration or command");
	bound = parse_duration(argv[i]);
	if (bound < 0)
		return usage("bad duration");

	/* Waited for with sigtimedwait: CMD's end, and signals to pass on. */
	sigemptyset(&waited);
	sigaddset(&waited, SIGCHLD);
	sigaddset(&waited, SIGTERM);
	sigaddset(&waited, SIGINT);
	sigaddset(&waited, SIGHUP);
	sigprocmask(SIG_BLOCK, &waited, &old);

	pid = fork();
	if (pid < 0) {
		perror("timeout: fork");
		return 125;
	}
	if (!pid) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		if (!foreground)
			setpgid(0, 0);
		execvp(argv[i + 1], argv + i + 1);
		fprintf(stderr, "timeout: %s: %s\n", argv[i + 1],
			strerror(errno));
		_exit(errno == ENOENT ? 127 : 126);
	}
	if (!foreground)
		setpgid(pid, pid); /* either side may run first */

	/* A bound of 0 means none, as GNU's. */
	deadline = bound > 0 ? now() + bound : -1;
	for (;;) {
		struct timespec left = span(deadline - now());
		int got = sigtimedwait(&waited, NULL,
				       deadline < 0 ? NULL : &left);
		pid_t target = foreground ? pid : -pid;

		if (got == SIGCHLD || (got < 0 && errno == EINTR)) {
			pid_t r = waitpid(pid, &status, WNOHANG);

			if (r == pid)
				break;
			continue;
		}
		if (got > 0) {
			kill(target, got); /* passed on, as GNU's does */
			continue;
		}
		/* The bound (or -k's) passed. */
		timed_out = true;
		sent = sent ? SIGKILL : sig;
		kill(target, sent);
		if (sent != SIGKILL && sent != SIGCONT)
			kill(target, SIGCONT);
		deadline = (sent != SIGKILL && kill_after > 0) ?
				   now() + kill_after :
				   -1;
	}
	if (timed_out)
		return sent == SIGKILL ? 128 + SIGKILL : 124;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
