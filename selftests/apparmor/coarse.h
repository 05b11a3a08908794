/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: a socket worker, a process that performs
 * AF_UNIX operations on the test's command, in batches, so that one
 * process can stay in its label for a whole case and many operations cost
 * one pipe round trip. Every wait is bounded by poll(); nothing sleeps.
 */

#ifndef LSMCONF_APPARMOR_COARSE_H
#define LSMCONF_APPARMOR_COARSE_H

#include <linux/close_range.h>
#include <stddef.h>

#include "peer.h"

enum wop {
	W_SOCKET, /* fds[slot] = socket(AF_UNIX, type) */
	W_PAIR, /* fds[slot], fds[slot2] = socketpair(AF_UNIX, type) */
	W_SETOPT, /* SO_RCVTIMEO and SO_SNDTIMEO */
	W_GETOPT, /* SO_TYPE */
	W_BIND,
	W_LISTEN,
	W_GETNAME, /* getsockname(), the name goes to the reply */
	W_CONNECT,
	W_SENDTO, /* one payload to addr */
	W_SEND, /* one payload to the connected peer */
	W_ACCEPT, /* fds[slot2] = accept(fds[slot]), not waiting */
	W_RECV, /* takes every payload queued, not waiting */
	W_SHUTDOWN, /* SHUT_WR */
	W_ENTER, /* aa_change_profile(label), proven by aa_getcon() */
	W_RESET, /* closes every socket */
};

#define W_SLOTS 8
#define W_BATCH 8

struct wcmd {
	enum wop op;
	int slot, slot2, type;
	/* Done only if command @needs of the batch succeeded (-1: always). */
	int needs;
	struct sockaddr_un addr;
	socklen_t len;
};

struct wbatch {
	int n;
	struct wcmd c[W_BATCH];
	char label[128]; /* W_ENTER */
};

struct wreply {
	int err[W_BATCH]; /* 0, -errno or NOT_RUN */
	int count[W_BATCH]; /* W_RECV: intact payloads taken */
	struct sockaddr_un name; /* the last W_GETNAME */
	socklen_t namelen;
};

struct worker {
	pid_t pid;
	int cmd, rep; /* the test's ends */
};

static inline int w_recv(int fd, int type, int *count)
{
	int corrupt = 0, ret;

	*count = 0;
	ret = drain(fd, type, count, &corrupt);
	if (corrupt)
		return -EBADMSG;
	return *count ? 0 : ret;
}

static inline int w_payload(int fd, const struct sockaddr_un *to,
			    socklen_t tolen, unsigned int seq)
{
	struct payload p;

	payload_make(&p, seq);
	return sys_ret(sendto(fd, &p, sizeof(p), MSG_DONTWAIT,
			      (const struct sockaddr *)to, tolen));
}

static inline int w_enter(const char *label)
{
	char *con = NULL, *mode = NULL;
	int ret = 0;

	if (aa_change_profile(label))
		return -errno;
	if (aa_getcon(&con, &mode) < 0)
		return -errno;
	/* The label entered must be the task's context, or the case is void. */
	if (strcmp(con, label))
		ret = -ESRCH;
	free(con);
	return ret;
}

static inline int w_do(int *fds, const struct wcmd *c, const char *label,
		       struct wreply *r, int *count, unsigned int *seq)
{
	int fd = fds[c->slot], sv[2], ret;

	switch (c->op) {
	case W_SOCKET:
		fds[c->slot] = socket(AF_UNIX, c->type, 0);
		return fds[c->slot] < 0 ? -errno : 0;
	case W_PAIR:
		if (socketpair(AF_UNIX, c->type, 0, sv))
			return -errno;
		fds[c->slot] = sv[0];
		fds[c->slot2] = sv[1];
		return 0;
	case W_SETOPT:
		return set_timeouts(fd);
	case W_GETOPT:
		return get_type(fd);
	case W_BIND:
		return sys_ret(
			bind(fd, (const struct sockaddr *)&c->addr, c->len));
	case W_LISTEN:
		/* accept() must never wait: the listener does not block. */
		fcntl(fd, F_SETFL, O_NONBLOCK);
		return sys_ret(listen(fd, 8));
	case W_GETNAME:
		r->namelen = sizeof(r->name);
		ret = sys_ret(getsockname(fd, (struct sockaddr *)&r->name,
					  &r->namelen));
		if (ret)
			r->namelen = 0;
		return ret;
	case W_CONNECT:
		return sys_ret(
			connect(fd, (const struct sockaddr *)&c->addr, c->len));
	case W_SENDTO:
		return w_payload(fd, &c->addr, c->len, (*seq)++);
	case W_SEND:
		return w_payload(fd, NULL, 0, (*seq)++);
	case W_ACCEPT:
		fds[c->slot2] = accept4(fd, NULL, NULL, SOCK_NONBLOCK);
		return fds[c->slot2] < 0 ? -errno : 0;
	case W_RECV:
		return w_recv(fd, c->type, count);
	case W_SHUTDOWN:
		return sys_ret(shutdown(fd, SHUT_WR));
	case W_ENTER:
		return w_enter(label);
	case W_RESET:
		for (ret = 0; ret < W_SLOTS; ret++) {
			if (fds[ret] >= 0)
				close(fds[ret]);
			fds[ret] = -1;
		}
		return 0;
	}
	return -EINVAL;
}

/* The worker's loop: one batch in, one reply out, until the pipe closes. */
static inline void w_main(int cmd, int rep)
{
	int fds[W_SLOTS], i;
	unsigned int seq = 0;
	struct wbatch b;

	for (i = 0; i < W_SLOTS; i++)
		fds[i] = -1;
	while (!pipe_read(cmd, &b, sizeof(b), PEER_WAIT_MS)) {
		struct wreply r = { 0 };

		for (i = 0; i < b.n && i < W_BATCH; i++) {
			const struct wcmd *c = &b.c[i];

			if (c->needs >= 0 && r.err[c->needs]) {
				r.err[i] = NOT_RUN;
				continue;
			}
			r.err[i] = w_do(fds, c, b.label, &r, &r.count[i], &seq);
		}
		if (pipe_write(rep, &r, sizeof(r)))
			break;
	}
	_exit(0);
}

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

static inline int worker_start(struct worker *w)
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
	if (w->pid < 0)
		return -errno;
	if (w->pid == 0) {
		close_others(cmd[0], rep[1]);
		w_main(cmd[0], rep[1]);
	}
	close(cmd[0]);
	close(rep[1]);
	w->cmd = cmd[1];
	w->rep = rep[0];
	return 0;
}

/* One batch, bounded: 0 or -errno (-ETIMEDOUT, -EPIPE). */
static inline int worker_run(const struct worker *w, const struct wbatch *b,
			     struct wreply *r)
{
	int ret = pipe_write(w->cmd, b, sizeof(*b));

	if (ret)
		return ret;
	return pipe_read(w->rep, r, sizeof(*r), PEER_WAIT_MS);
}

static inline void worker_stop(struct worker *w)
{
	if (w->pid <= 0)
		return;
	close(w->cmd);
	close(w->rep);
	peer_reap(w->pid);
	w->pid = 0;
}

#endif /* LSMCONF_APPARMOR_COARSE_H */
