/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: AppArmor's audit records as the guest reads
 * them from /dev/kmsg (no auditd: the audit subsystem prints each record,
 * kauditd_printk_skb()). A test opens the log at its end before an
 * operation, and after it reads up to a marker record that a second
 * process makes once the operation is over: records reach the log in the
 * order they were made (one queue, one kauditd thread), so whatever the
 * operation logged is before the marker, and a quiet decision is proven
 * quiet by the marker alone. Shared by audit_test, audit_ops_test and
 * file_test.
 */
#ifndef LSMCONF_APPARMOR_KMSG_AUDIT_H
#define LSMCONF_APPARMOR_KMSG_AUDIT_H

#include <poll.h>

#include "common.h"

#define KMSG "/dev/kmsg"
#define LOG_WAIT_MS 3000
#define MAX_RECORDS 8
#define RATELIMIT "/proc/sys/kernel/printk_ratelimit"

struct records {
	int n;
	char rec[MAX_RECORDS][1024];
};

/*
 * Without auditd each record is printed under printk_ratelimit()
 * (kauditd_printk_skb): 10 in 5 s, fewer than one case can log. A zero
 * interval never limits (___ratelimit); a larger burst would count only
 * from the next interval on 7.2. Saves the setting into @saved (put back
 * by log_relimit()) and sets 0. 0 or -errno.
 */
static inline int log_unlimit(char *saved, size_t size)
{
	int ret = read_text(RATELIMIT, saved, size);

	if (ret < 0) {
		saved[0] = '\0';
		return ret;
	}
	return write_text(RATELIMIT, "0");
}

/* printk_ratelimit as log_unlimit() found it, if it read it. */
static inline int log_relimit(const char *saved)
{
	return saved[0] ? write_text(RATELIMIT, saved) : 0;
}

/* The log, opened at its end. Returns the fd or -errno. */
static inline int log_open(void)
{
	int fd = open(KMSG, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_END) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

/*
 * The value of @key in audit record @rec (quoted or not) into @out.
 * Returns 0 or -ENOENT.
 */
static inline int field(const char *rec, const char *key, char *out,
			size_t size)
{
	char pat[64];
	const char *p, *end;
	size_t len;

	snprintf(pat, sizeof(pat), " %s=", key);
	p = strstr(rec, pat);
	if (!p)
		return -ENOENT;
	p += strlen(pat);
	if (*p == '"') {
		p++;
		end = strchr(p, '"');
	} else {
		end = p + strcspn(p, "\n ");
	}
	if (!end)
		return -ENOENT;
	len = end - p < (long)size - 1 ? (size_t)(end - p) : size - 1;
	memcpy(out, p, len);
	out[len] = '\0';
	return 0;
}

/*
 * Reads AppArmor records from @fd until one of profile @marker appears;
 * keeps those whose field @key is @want. Returns 0 or -errno
 * (-ETIMEDOUT: no marker within LOG_WAIT_MS).
 */
static inline int log_collect_by(int fd, const char *key, const char *want,
				 const char *marker, struct records *out)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long end = now_ns() + LOG_WAIT_MS * 1000000LL;
	char buf[8192], prof[256], val[256];

	out->n = 0;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		const char *msg;
		int left;

		if (n < 0 && errno == EPIPE)
			continue; /* overwritten records: read on */
		if (n < 0 && errno != EAGAIN)
			return -errno;
		if (n < 0) {
			left = (end - now_ns()) / 1000000;
			if (left <= 0 || poll(&pfd, 1, left) <= 0)
				return -ETIMEDOUT;
			continue;
		}
		buf[n] = '\0';
		/* "prio,seq,usec,flags;message" */
		msg = strchr(buf, ';');
		if (!msg || !strstr(msg, " apparmor=\""))
			continue;
		/* audit_pre() puts apparmor= first: give field() its space. */
		msg = strstr(msg, " apparmor=\"");
		if (field(msg, "profile", prof, sizeof(prof)))
			continue;
		if (!strcmp(prof, marker))
			return 0;
		if (!field(msg, key, val, sizeof(val)) && !strcmp(val, want) &&
		    out->n < MAX_RECORDS)
			snprintf(out->rec[out->n++], sizeof(out->rec[0]), "%s",
				 msg);
	}
}

/* log_collect_by() for the records of profile @want. */
static inline int log_collect(int fd, const char *want, const char *marker,
			      struct records *out)
{
	return log_collect_by(fd, "profile", want, marker, out);
}

/*
 * Expects field @key of @rec to be @want (NULL: absent), saying which
 * differs; 0 when it is, -EBADMSG when not.
 */
static inline int judge_field(struct __test_metadata *_metadata, const char *id,
			      const char *rec, const char *key,
			      const char *want)
{
	char got[256];
	int ret = field(rec, key, got, sizeof(got));

	if (!want) {
		EXPECT_EQ(-ENOENT, ret)
		{
			TH_LOG("%s: %s=\"%s\" logged, none expected", id, key,
			       got);
		}
		return ret == -ENOENT ? 0 : -EBADMSG;
	}
	EXPECT_EQ(0, ret)
	{
		TH_LOG("%s: no %s= in %s", id, key, rec);
	}
	if (ret)
		return -EBADMSG;
	EXPECT_STREQ(want, got)
	{
		TH_LOG("%s: %s", id, rec);
	}
	return strcmp(want, got) ? -EBADMSG : 0;
}

#endif /* LSMCONF_APPARMOR_KMSG_AUDIT_H */
