/* SPDX-License-Identifier: GPL-2.0 */
/* Runs other programs, always bounded in time. */
#ifndef LSMCONF_SPAWN_H
#define LSMCONF_SPAWN_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct spawn_opts {
	const char *cwd; /* NULL: inherit */
	int stdin_fd; /* -1: /dev/null */
	int stdout_fd; /* -1: /dev/null, -2: inherit */
	int stderr_fd; /* -1: /dev/null, -2: inherit */
	int timeout_s; /* 0: no limit */
	/*
	 * The child is an lsmconf that stops its own children: a signal to
	 * lsmconf (or its death) reaches it as SIGTERM first, so that its
	 * QEMUs and builds, in process groups of their own, stop too.
	 */
	bool relay;
};

#define SPAWN_TIMEOUT (-1000)

/*
 * Starts @argv in its own process group and waits for it. Returns its exit
 * status (0..255), 128+signal when killed, SPAWN_TIMEOUT when the time
 * limit ran out (the whole group is then killed), or -errno.
 */
int spawn_wait(char *const argv[], const struct spawn_opts *o);

/* Same, with stdout captured into *@out (NUL-terminated) and stderr into *@err when @err is not NULL. */
int spawn_capture(char *const argv[], const struct spawn_opts *o, char **out,
		  size_t *out_len, char **err);

/* Starts @argv without waiting; returns its pid and a pidfd (*@pidfd). */
pid_t spawn_start(char *const argv[], const struct spawn_opts *o, int *pidfd);
/* Waits up to @timeout_s (0: forever) for a started child; same results as spawn_wait. */
int spawn_finish(pid_t pid, int pidfd, int timeout_s);
/*
 * Forks a copy of lsmconf that does part of the work beside it: returns 0
 * in the copy, its pid (and a pidfd, *@pidfd) in the caller, or -errno.
 * The copy keeps lsmconf's signal handling for its own children, none of
 * the caller's; a signal to the caller, or its death, reaches it as
 * SIGTERM (spawn_opts.relay). It ends with _exit(); spawn_finish() waits.
 */
pid_t spawn_fork(int *pidfd);

/*
 * Makes SIGINT, SIGTERM and SIGHUP end every started child's process group
 * before lsmconf exits with a one-line note. Children also get SIGKILL when
 * lsmconf dies any other way (PR_SET_PDEATHSIG).
 */
void spawn_guard(void);
/* Kills every started child that has not been waited for; returns how many. */
int spawn_kill_all(void);

/* Describes a spawn result in words ("exit status 2", "timed out"...). */
const char *spawn_strstatus(int status, char *buf, size_t size);

#endif
