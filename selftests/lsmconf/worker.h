/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf selftests: a worker, a forked process that serves a test's
 * requests on a command pipe and answers on a reply pipe, so that a peer
 * can stay in its own label or domain for a whole case while the test
 * drives it. Requests and replies are fixed-size structures of the
 * caller's; every wait is bounded (PEER_WAIT_MS) and nothing sleeps.
 */
#ifndef LSMCONF_WORKER_H
#define LSMCONF_WORKER_H

#include <linux/close_range.h>

#include "lsmconf.h"

/*
 * Serves one request: reads @req, fills @rep. @state lives as long as the
 * worker (its sockets, its label); the worker's copy of the caller's.
 */
typedef void (*worker_serve_fn)(const void *req, void *rep, void *state);

struct worker {
	pid_t pid;
	int cmd, rep; /* the test's ends */
	size_t req_size, rep_size;
};

/*
 * Closes every descriptor above stderr but @a and @b: a worker must not
 * hold the pipes of workers forked before it, or their ends never see
 * end-of-file.
 */
static inline void close_others(int a, int b)
{
	int lo = a < b ? a : b, hi = a < b ? b : a;

	if (lo > 3)
		close_range(3, lo - 1, 0);
	if (hi > lo + 1)
		close_range(lo + 1, hi - 1, 0);
	close_range(hi + 1, ~0U, 0);
}

/* The worker's loop: one request in, one reply out, until the pipe closes. */
static inline void worker_loop(int cmd, int rep, size_t req_size,
			       size_t rep_size, worker_serve_fn serve,
			       void *state)
{
	char *req = malloc(req_size), *out = malloc(rep_size);

	if (!req || !out)
		_exit(1);
	while (!pipe_read(cmd, req, req_size, PEER_WAIT_MS)) {
		memset(out, 0, rep_size);
		serve(req, out, state);
		if (pipe_write(rep, out, rep_size))
			break;
	}
	_exit(0);
}

/*
 * Forks a worker that answers each request with @serve. With
 * @keep_fds, the worker keeps the caller's other descriptors (a worker
 * that serves on a socket the test opened before); otherwise it holds
 * only its own pipe ends. 0 or -errno.
 */
static inline int worker_start_fds(struct worker *w, size_t req_size,
				   size_t rep_size, worker_serve_fn serve,
				   void *state, bool keep_fds)
{
	int cmd[2], rep[2];

	if (pipe2(cmd, O_CLOEXEC))
		return -errno;
	if (pipe2(rep, O_CLOEXEC)) {
		close(cmd[0]);
		close(cmd[1]);
		return -errno;
	}
	w->pid = peer_fork();
	if (w->pid < 0) {
		int ret = -errno;

		close(cmd[0]);
		close(cmd[1]);
		close(rep[0]);
		close(rep[1]);
		return ret;
	}
	if (w->pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		if (!keep_fds)
			close_others(cmd[0], rep[1]);
		worker_loop(cmd[0], rep[1], req_size, rep_size, serve, state);
	}
	close(cmd[0]);
	close(rep[1]);
	w->cmd = cmd[1];
	w->rep = rep[0];
	w->req_size = req_size;
	w->rep_size = rep_size;
	return 0;
}

static inline int worker_start(struct worker *w, size_t req_size,
			       size_t rep_size, worker_serve_fn serve,
			       void *state)
{
	return worker_start_fds(w, req_size, rep_size, serve, state, false);
}

/* One request, bounded: 0 or -errno (-ETIMEDOUT, -EPIPE). */
static inline int worker_run(const struct worker *w, const void *req, void *rep)
{
	int ret = pipe_write(w->cmd, req, w->req_size);

	if (ret)
		return ret;
	return pipe_read(w->rep, rep, w->rep_size, PEER_WAIT_MS);
}

/* Ends the worker: its pipe closes, it exits, it is reaped (bounded). */
static inline void worker_stop(struct worker *w)
{
	if (w->pid <= 0)
		return;
	close(w->cmd);
	close(w->rep);
	peer_reap(w->pid);
	w->pid = 0;
}

/*
 * worker_run() for a request whose service itself waits (bounded): the
 * reply is awaited @ms, 0 or -errno (-ETIMEDOUT, -EPIPE).
 */
static inline int worker_run_within(const struct worker *w, const void *req,
				    void *rep, int ms)
{
	int ret = pipe_write(w->cmd, req, w->req_size);

	if (ret)
		return ret;
	return pipe_read(w->rep, rep, w->rep_size, ms);
}

#endif /* LSMCONF_WORKER_H */
