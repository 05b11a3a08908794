/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: a socket worker, a process that performs
 * AF_UNIX operations on the test's command, in batches, so that one
 * process can stay in its label for a whole case and many operations cost
 * one pipe round trip. The process is lsmconf/worker.h's; every wait is
 * bounded by poll(); nothing sleeps.
 */

#ifndef LSMCONF_APPARMOR_COARSE_H
#define LSMCONF_APPARMOR_COARSE_H

#include <stddef.h>

#include "peer.h"
#include "../lsmconf/worker.h"

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

/* What a socket worker keeps between batches (its copy, after the fork). */
struct wstate {
	int fds[W_SLOTS];
	unsigned int seq; /* the next payload's sequence number */
};

/* One batch: each command in turn, unless the one it needs failed. */
static inline void w_serve(const void *req, void *rep, void *state)
{
	const struct wbatch *b = req;
	struct wreply *r = rep;
	struct wstate *st = state;
	int i;

	for (i = 0; i < b->n && i < W_BATCH; i++) {
		const struct wcmd *c = &b->c[i];

		if (c->needs >= 0 && r->err[c->needs]) {
			r->err[i] = NOT_RUN;
			continue;
		}
		r->err[i] =
			w_do(st->fds, c, b->label, r, &r->count[i], &st->seq);
	}
}

/*
 * Starts a socket worker (lsmconf/worker.h): batches in, replies out,
 * worker_run(w, &batch, &reply), worker_stop(w).
 */
static inline int sock_worker_start(struct worker *w)
{
	struct wstate st = { .seq = 0 };
	int i;

	for (i = 0; i < W_SLOTS; i++)
		st.fds[i] = -1;
	return worker_start(w, sizeof(struct wbatch), sizeof(struct wreply),
			    w_serve, &st);
}

#endif /* LSMCONF_APPARMOR_COARSE_H */
