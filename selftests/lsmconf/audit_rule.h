/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Audit filter rules on LSM labels (auditctl's -F subj_type=, obj_lev_low=,
 * subj_role=...), driven the way auditctl drives them: AUDIT_ADD_RULE and
 * AUDIT_DEL_RULE over NETLINK_AUDIT. The LSM parses the field's text
 * (security_audit_rule_init) and the syscall-exit filter asks it whether
 * a task or an object matches (security_audit_rule_match).
 *
 * One probe is one decision: a child is forked and waits; the test adds
 * two exit rules on that child's pid alone, the probe's rule (its LSM
 * field, on the probe's syscall, key AR_KEY) and a marker rule (no LSM
 * field, on getppid(AR_MARK_ARG0), key AR_MARK); the child enters its label, makes the
 * probe's syscall, then getppid(). kauditd prints both records in the
 * order they were made, so once the marker's record is read from the
 * kernel log, the probe's record came before it or never comes.
 *
 * Include it after kselftest_harness.h. Needs root (CAP_AUDIT_CONTROL)
 * and CONFIG_AUDITSYSCALL.
 */
#ifndef LSMCONF_AUDIT_RULE_H
#define LSMCONF_AUDIT_RULE_H

#include <linux/audit.h>
#include <linux/netlink.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include "kmsg_log.h"

#define AR_KEY "lsmconf-ar"
#define AR_MARK "lsmconf-ar-mark"
/*
 * The marker's getppid() carries this first argument, which the kernel
 * ignores and the rule asks for: peer_fork()'s own getppid() is no marker.
 */
#define AR_MARK_ARG0 0x4c534d43
/* The SYSCALL record, as kauditd prints it ("type=1300"). */
#define AR_SYSCALL_REC "type=1300 "
/* kernel/auditfilter.c, when the LSM calls a field's text invalid. */
#define AR_INVALID_FMT "audit rule for LSM '%s' is invalid"

/* An LSM field of a rule: AUDIT_SUBJ_TYPE..., AUDIT_EQUAL..., its text. */
struct ar_field {
	__u32 type;
	__u32 op;
	const char *text;
};

/*
 * What a probe's child does: enters its label, makes the audited call,
 * and after the marker cleans up what the call left (NULL: nothing).
 * @armed, when set, runs in the test once the rules are in, before the
 * child acts (a policy change the rules must survive).
 */
struct ar_probe {
	int (*enter)(const void *arg); /* 0 or -errno */
	int (*act)(const void *arg); /* the audited syscall: 0 or -errno */
	void (*after)(const void *arg);
	int (*armed)(const void *arg); /* 0 or -errno */
	const void *arg;
	int nr; /* the audited syscall's number */
};

/* The child's report: entering its label, then the call (NOT_RUN). */
struct ar_report {
	int enter, act;
};

struct ar_result {
	int add; /* the rule's AUDIT_ADD_RULE: 0 or -errno */
	struct ar_report child;
	bool kept; /* a record of the rule came for the child */
	bool warned; /* the kernel logged the field's text as invalid */
};

static __u32 ar_seq;

/* One request; with @ack, its acknowledgment: 0, -errno, or its seq. */
static inline int ar_nl_send(int fd, __u16 type, const void *data, size_t len,
			     bool ack)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	size_t size = NLMSG_SPACE(len);
	struct nlmsghdr *h = calloc(1, size);
	int ret;

	if (!h)
		return -ENOMEM;
	h->nlmsg_len = NLMSG_LENGTH(len);
	h->nlmsg_type = type;
	h->nlmsg_flags = NLM_F_REQUEST | (ack ? NLM_F_ACK : 0);
	h->nlmsg_seq = ++ar_seq;
	memcpy(NLMSG_DATA(h), data, len);
	ret = sendto(fd, h, size, 0, (struct sockaddr *)&kernel,
		     sizeof(kernel)) < 0 ?
		      -errno :
		      0;
	free(h);
	return ret;
}

/*
 * The answer to request ar_seq: the payload of a message of @type into
 * @out, or an acknowledgment (NLMSG_ERROR: its error). 0 or -errno;
 * -ETIMEDOUT after PEER_WAIT_MS.
 */
static inline int ar_nl_answer(int fd, __u16 type, void *out, size_t size)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[8192] __attribute__((aligned(NLMSG_ALIGNTO)));

	for (;;) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		ssize_t n;

		if (poll(&pfd, 1, PEER_WAIT_MS) <= 0)
			return -ETIMEDOUT;
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n < 0)
			return -errno;
		for (; NLMSG_OK(h, n); h = NLMSG_NEXT(h, n)) {
			size_t got = h->nlmsg_len - NLMSG_LENGTH(0);

			if (h->nlmsg_seq != ar_seq)
				continue;
			if (h->nlmsg_type == NLMSG_ERROR)
				return ((struct nlmsgerr *)NLMSG_DATA(h))
					->error;
			if (h->nlmsg_type == type) {
				memcpy(out, NLMSG_DATA(h),
				       got < size ? got : size);
				return 0;
			}
		}
	}
}

/* The audit socket: its fd or -errno. */
static inline int ar_open(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);

	return fd < 0 ? -errno : fd;
}

/* AUDIT_GET: the enabled state (0, 1, 2 locked) or -errno. */
static inline int ar_enabled(int fd)
{
	struct audit_status s = { 0 };
	int ret = ar_nl_send(fd, AUDIT_GET, &s, sizeof(s), false);

	if (!ret)
		ret = ar_nl_answer(fd, AUDIT_GET, &s, sizeof(s));
	return ret ? ret : (int)s.enabled;
}

/*
 * AUDIT_SET of the enabled state. Syscall records need it on (audit=1 or
 * auditctl -e 1): a task forked while it is off gets no audit context.
 */
static inline int ar_set_enabled(int fd, __u32 on)
{
	struct audit_status s = { .mask = AUDIT_STATUS_ENABLED, .enabled = on };
	int ret = ar_nl_send(fd, AUDIT_SET, &s, sizeof(s), true);

	return ret ? ret : ar_nl_answer(fd, NLMSG_ERROR, NULL, 0);
}

/* The audit state a binary's cases run in, and what goes back after. */
struct ar_session {
	int nl; /* the audit socket, or -1 */
	int was_enabled; /* audit's enabled state as found, or -1 */
	char ratelimit[32]; /* printk_ratelimit as found */
};

/*
 * Opens the audit socket and switches audit on for the cases when it was
 * off, with the log's rate limit off. NULL, or the reason to skip (no
 * audit, a locked configuration); a failure's -errno goes to @err.
 */
static inline const char *ar_begin(struct ar_session *s, int *err)
{
	int ret;

	s->nl = -1;
	s->was_enabled = -1;
	s->ratelimit[0] = '\0';
	*err = 0;
	ret = ar_open();
	if (ret == -EPROTONOSUPPORT)
		return "the kernel has no audit (CONFIG_AUDIT)";
	if (ret < 0)
		goto fail;
	s->nl = ret;
	ret = ar_enabled(s->nl);
	if (ret == 2)
		return "the audit configuration is locked (enabled=2)";
	if (ret < 0)
		goto fail;
	s->was_enabled = ret;
	if (!ret) {
		ret = ar_set_enabled(s->nl, 1);
		if (ret)
			goto fail;
	}
	ret = kmsg_unlimit(s->ratelimit, sizeof(s->ratelimit));
	if (ret)
		goto fail;
	return NULL;
fail:
	*err = ret;
	return NULL;
}

/* Puts back what ar_begin() changed: 0 or the first -errno. */
static inline int ar_end(struct ar_session *s)
{
	int ret = kmsg_relimit(s->ratelimit), st = 0;

	if (s->was_enabled == 0)
		st = ar_set_enabled(s->nl, 0);
	if (s->nl >= 0)
		close(s->nl);
	s->nl = -1;
	return ret ? ret : st;
}

/* Appends field @type @op @value to @r (a text field: @text, @value its length). */
static inline void ar_put(struct audit_rule_data *r, __u32 type, __u32 op,
			  __u32 value, const char *text)
{
	r->fields[r->field_count] = type;
	r->fieldflags[r->field_count] = op;
	r->values[r->field_count++] = value;
	if (text) {
		memcpy(r->buf + r->buflen, text, value);
		r->buflen += value;
	}
}

/*
 * An exit rule on @nr made by @pid, keyed @key, with @lsm (NULL: the
 * marker's, on its first argument):
 * allocated, its size in @len; NULL when out of memory.
 */
static inline struct audit_rule_data *ar_rule(int nr, pid_t pid,
					      const char *key,
					      const struct ar_field *lsm,
					      size_t *len)
{
	size_t text = strlen(key) + (lsm ? strlen(lsm->text) : 0);
	struct audit_rule_data *r = calloc(1, sizeof(*r) + text);

	if (!r)
		return NULL;
	r->flags = AUDIT_FILTER_EXIT;
	r->action = AUDIT_ALWAYS;
	r->mask[nr / 32] |= 1U << (nr % 32);
	ar_put(r, AUDIT_PID, AUDIT_EQUAL, pid, NULL);
	ar_put(r, AUDIT_FILTERKEY, AUDIT_EQUAL, strlen(key), key);
	if (!lsm)
		ar_put(r, AUDIT_ARG0, AUDIT_EQUAL, AR_MARK_ARG0, NULL);
	if (lsm)
		ar_put(r, lsm->type, lsm->op, strlen(lsm->text), lsm->text);
	*len = sizeof(*r) + text;
	return r;
}

/* AUDIT_ADD_RULE or AUDIT_DEL_RULE of @r: 0 or -errno. */
static inline int ar_rule_send(int fd, __u16 type,
			       const struct audit_rule_data *r, size_t len)
{
	int ret = ar_nl_send(fd, type, r, len, true);

	return ret ? ret : ar_nl_answer(fd, NLMSG_ERROR, NULL, 0);
}

/* The probe's child: waits for @go, acts, reports on @out. */
static inline void ar_child(const struct ar_probe *p, int go, int out)
{
	struct ar_report r = { .act = NOT_RUN };
	char c;

	if (pipe_read(go, &c, 1, PEER_WAIT_MS))
		_exit(1);
	r.enter = p->enter ? p->enter(p->arg) : 0;
	if (!r.enter)
		r.act = p->act(p->arg);
	syscall(SYS_getppid, AR_MARK_ARG0); /* the marker */
	if (p->after)
		p->after(p->arg);
	_exit(pipe_write(out, &r, sizeof(r)) ? 2 : 0);
}

/*
 * Reads the log from @kmsg until the marker's record for @pid: whether
 * the probe's record came before it, and whether the field's @text was
 * called invalid. 0 or -errno (-ETIMEDOUT: no marker).
 */
static inline int ar_read_log(int kmsg, pid_t pid, const char *text,
			      struct ar_result *res)
{
	char rec[8192], want_pid[16], got[64], invalid[256];

	snprintf(want_pid, sizeof(want_pid), "%d", pid);
	snprintf(invalid, sizeof(invalid), AR_INVALID_FMT, text);
	for (;;) {
		int n = kmsg_next(kmsg, rec, sizeof(rec), KMSG_WAIT_MS);

		if (n < 0)
			return n;
		if (strstr(rec, invalid))
			res->warned = true;
		if (!strstr(rec, AR_SYSCALL_REC) ||
		    kmsg_field(rec, "pid", got, sizeof(got)) ||
		    strcmp(got, want_pid) ||
		    kmsg_field(rec, "key", got, sizeof(got)))
			continue;
		if (!strcmp(got, AR_MARK))
			return 0;
		if (!strcmp(got, AR_KEY))
			res->kept = true;
	}
}

/*
 * One probe of the rule with @lsm: the rules in, the child run, the log
 * read, the rules out. 0 with @res filled, or -errno when the probe
 * itself failed (no verdict on the rule).
 */
static inline int ar_run(int nl, const struct ar_field *lsm,
			 const struct ar_probe *p, struct ar_result *res)
{
	struct audit_rule_data *rule = NULL, *mark = NULL;
	int go[2] = { -1, -1 }, rep[2] = { -1, -1 }, kmsg = -1, ret, st;
	size_t rule_len = 0, mark_len = 0;
	pid_t pid = -1;

	memset(res, 0, sizeof(*res));
	res->child.act = NOT_RUN;
	if (pipe2(go, O_CLOEXEC) || pipe2(rep, O_CLOEXEC)) {
		ret = -errno;
		goto out;
	}
	pid = peer_fork();
	if (pid < 0) {
		ret = -errno;
		goto out;
	}
	if (pid == 0) {
		close(go[1]);
		close(rep[0]);
		ar_child(p, go[0], rep[1]);
	}
	/* The child's ends: its death is the pipes' end of file. */
	close(go[0]);
	close(rep[1]);
	go[0] = rep[1] = -1;
	ret = kmsg_open_end();
	if (ret < 0)
		goto out;
	kmsg = ret;
	rule = ar_rule(p->nr, pid, AR_KEY, lsm, &rule_len);
	mark = ar_rule(SYS_getppid, pid, AR_MARK, NULL, &mark_len);
	if (!rule || !mark) {
		ret = -ENOMEM;
		goto out;
	}
	res->add = ar_rule_send(nl, AUDIT_ADD_RULE, rule, rule_len);
	ret = ar_rule_send(nl, AUDIT_ADD_RULE, mark, mark_len);
	if (ret)
		goto out;
	if (p->armed)
		ret = p->armed(p->arg);
	if (!ret)
		ret = pipe_write(go[1], "g", 1);
	if (!ret)
		ret = pipe_read(rep[0], &res->child, sizeof(res->child),
				PEER_WAIT_MS);
	if (!ret)
		ret = ar_read_log(kmsg, pid, lsm ? lsm->text : "", res);
	st = ar_rule_send(nl, AUDIT_DEL_RULE, mark, mark_len);
	if (!ret)
		ret = st;
out:
	if (rule && !res->add) {
		st = ar_rule_send(nl, AUDIT_DEL_RULE, rule, rule_len);
		if (!ret)
			ret = st;
	}
	free(rule);
	free(mark);
	if (kmsg >= 0)
		close(kmsg);
	for (st = 0; st < 2; st++) {
		if (go[st] >= 0)
			close(go[st]);
		if (rep[st] >= 0)
			close(rep[st]);
	}
	if (pid > 0 && peer_reap(pid) && !ret)
		ret = -ECHILD;
	return ret;
}

#endif /* LSMCONF_AUDIT_RULE_H */
