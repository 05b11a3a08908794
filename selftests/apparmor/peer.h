/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: peer processes, labels and AF_UNIX
 * operations. Every operation helper returns 0 or -errno; every wait is
 * bounded by poll(); nothing sleeps.
 */

#ifndef LSMCONF_APPARMOR_PEER_H
#define LSMCONF_APPARMOR_PEER_H

#define _GNU_SOURCE
#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>

#include "common.h"

/* Permissions a label denies, for the expectation model. */
enum {
	DENY_CREATE = 1 << 0,
	DENY_BIND = 1 << 1,
	DENY_LISTEN = 1 << 2,
	DENY_ACCEPT = 1 << 3,
	DENY_CONNECT = 1 << 4,
	DENY_SEND = 1 << 5,
	DENY_RECEIVE = 1 << 6,
	DENY_GETATTR = 1 << 7,
	DENY_SETATTR = 1 << 8,
	DENY_GETOPT = 1 << 9,
	DENY_SETOPT = 1 << 10,
	DENY_SHUTDOWN = 1 << 11,
	/* File rules on the socket path (pathname sockets). */
	DENY_FILE_WRITE = 1 << 12,
	DENY_FILE_READ = 1 << 13,
};

/* Every network permission a rule can name (not the file ones). */
#define ALL_NET                                                               \
	(DENY_CREATE | DENY_BIND | DENY_LISTEN | DENY_ACCEPT | DENY_CONNECT | \
	 DENY_SEND | DENY_RECEIVE | DENY_GETATTR | DENY_SETATTR |             \
	 DENY_GETOPT | DENY_SETOPT | DENY_SHUTDOWN)

/*
 * A label a peer enters before it creates its socket: change to @change
 * (a profile template), then stack @stack on it. Both NULL: unconfined.
 */
struct label_kind {
	const char *id;
	const char *change;
	const char *stack;
	/* unix permissions for a unix_perms.profile label, or NULL. */
	const char *perms;
	/* Fine-grained (network_v9) unix permissions it denies. */
	unsigned int deny;
	/* A flags=(unconfined) profile: its rules are never enforced. */
	bool unconfined_mode;
	/* Keeps the label of the process it was forked from. */
	bool inherit;
};

/* One observed operation. */
struct op_result {
	char op[32]; /* "existing.receiver.scm_receive" */
	int err; /* 0 or -errno */
};

#define MAX_OPS 20

/* What a peer process tells the test. */
struct peer_report {
	int n_ops;
	struct op_result ops[MAX_OPS];
	char context[256]; /* aa_getcon() after entering the label */
	int label_err; /* entering the label: 0 or -errno */
	int delivered; /* receiver: messages received intact */
	int corrupt; /* receiver: messages with a bad payload */
	struct sockaddr_un addr; /* receiver: its bound address */
	socklen_t addrlen;
};

static inline void report_op(struct peer_report *r, const char *op, int err)
{
	if (r->n_ops >= MAX_OPS)
		return;
	snprintf(r->ops[r->n_ops].op, sizeof(r->ops[0].op), "%s", op);
	r->ops[r->n_ops].err = err;
	r->n_ops++;
}

/* Returns the result of @op in @r, or NOT_RUN when the peer never did it. */
static inline int report_find(const struct peer_report *r, const char *op)
{
	int i;

	for (i = 0; i < r->n_ops; i++)
		if (!strcmp(r->ops[i].op, op))
			return r->ops[i].err;
	return NOT_RUN;
}

/*
 * The tag (and so the profile name) of template @tmpl of label @k compiled
 * for @abi. A sweep label's permissions make its profile distinct.
 */
static inline const char *label_tag(const struct label_kind *k,
				    const char *tmpl, const char *abi,
				    char *buf, size_t size)
{
	snprintf(buf, size, "%s_%s", k->perms ? k->id : tmpl, abi);
	return buf;
}

/*
 * Enters @kind (profiles compiled for @abi) and proves it by reading the
 * task's own context: every profile entered must be in it. Returns 0 or
 * -errno; the context read goes to @context.
 */
static inline int label_enter(const struct label_kind *kind, const char *abi,
			      char *context, size_t size)
{
	const char *steps[2] = { kind->change, kind->stack };
	const char *names[2] = { NULL, NULL };
	char tag[128], name[2][160];
	int i;

	for (i = 0; i < 2; i++) {
		if (!steps[i])
			continue;
		snprintf(name[i], sizeof(name[i]), AA_TEST_PREFIX "%s",
			 label_tag(kind, steps[i], abi, tag, sizeof(tag)));
		names[i] = name[i];
	}
	return aa_enter_label(names, !kind->inherit, context, size);
}

static inline int get_type(int fd)
{
	socklen_t len = sizeof(int);
	int type;

	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len))
		return -errno;
	return 0;
}

/* Payloads carry a sequence number and its complement: corruption shows. */
struct payload {
	unsigned int seq;
	unsigned int check;
	char fill[120];
};

static inline void payload_make(struct payload *p, unsigned int seq)
{
	memset(p, 0, sizeof(*p));
	p->seq = seq;
	p->check = ~seq;
	memset(p->fill, 'a' + seq % 26, sizeof(p->fill));
}

static inline bool payload_ok(const struct payload *p)
{
	size_t i;

	if (p->check != ~p->seq)
		return false;
	for (i = 0; i < sizeof(p->fill); i++)
		if (p->fill[i] != 'a' + (char)(p->seq % 26))
			return false;
	return true;
}

/* Drains everything queued on @fd without waiting; counts payloads. */
static inline int drain(int fd, int type, int *delivered, int *corrupt)
{
	struct payload p;
	int first_err = 0;

	for (;;) {
		ssize_t n = recv(fd, &p, sizeof(p), MSG_DONTWAIT);

		if (n < 0) {
			if (!*delivered && !*corrupt)
				first_err = -errno;
			break;
		}
		if (n == 0)
			break;
		/* A stream may coalesce: count whole payloads only. */
		if (type == SOCK_STREAM && n < (ssize_t)sizeof(p)) {
			ssize_t m = recv(fd, (char *)&p + n, sizeof(p) - n,
					 MSG_DONTWAIT);

			if (m > 0)
				n += m;
		}
		if (n == sizeof(p) && payload_ok(&p))
			(*delivered)++;
		else
			(*corrupt)++;
	}
	return first_err;
}

#endif /* LSMCONF_APPARMOR_PEER_H */
