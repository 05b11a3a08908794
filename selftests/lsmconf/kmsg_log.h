/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel log as the tests read the LSMs' audit records from it. With
 * no auditd the audit subsystem prints each record (kauditd_printk_skb)
 * under printk_ratelimit(), so a test sets the limit's interval to 0 for
 * its cases and puts it back after. A test opens the log at its end before
 * an operation and reads it record by record, every wait bounded.
 * Shared by the AppArmor (kmsg_audit.h) and SELinux tests; include it
 * after kselftest_harness.h (kmsg_expect()).
 */
#ifndef LSMCONF_KMSG_LOG_H
#define LSMCONF_KMSG_LOG_H

#include "lsmconf.h"

#define KMSG "/dev/kmsg"
#define KMSG_RATELIMIT "/proc/sys/kernel/printk_ratelimit"
/*
 * How long a test waits for a record that must come (its marker's): only
 * a broken log waits it out, so it is sized for a loaded host under TCG.
 */
#define KMSG_WAIT_MS 20000

/*
 * 10 records in 5 s by default, fewer than one case can log. A zero
 * interval never limits (___ratelimit); a larger burst would count only
 * from the next interval on 7.2. Saves the setting into @saved (put back
 * by kmsg_relimit()) and sets 0. 0 or -errno.
 */
static inline int kmsg_unlimit(char *saved, size_t size)
{
	int ret = read_text(KMSG_RATELIMIT, saved, size);

	if (ret < 0) {
		saved[0] = '\0';
		return ret;
	}
	return write_text(KMSG_RATELIMIT, "0");
}

/* printk_ratelimit as kmsg_unlimit() found it, if it read it. */
static inline int kmsg_relimit(const char *saved)
{
	return saved[0] ? write_text(KMSG_RATELIMIT, saved) : 0;
}

/* The log, opened at its end. Returns the fd or -errno. */
static inline int kmsg_open_end(void)
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
 * The next record of @fd ("prio,seq,usec,flags;message") into @buf,
 * NUL-terminated, waiting @ms at most for it (kauditd prints after the
 * operation returns). Its length, -ETIMEDOUT or -errno. Records the ring
 * overwrote before they were read are skipped.
 */
static inline int kmsg_next(int fd, char *buf, size_t size, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };

	for (;;) {
		ssize_t n = read(fd, buf, size - 1);

		if (n < 0 && errno == EPIPE)
			continue;
		if (n < 0 && errno == EAGAIN) {
			if (ms <= 0 || poll(&pfd, 1, ms) <= 0)
				return -ETIMEDOUT;
			continue;
		}
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		buf[n] = '\0';
		return n;
	}
}

/*
 * The value of field @key of audit record @rec ("key=value", the value
 * quoted or not) into @out.
 * Returns 0 or -ENOENT.
 */
static inline int kmsg_field(const char *rec, const char *key, char *out,
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
 * Expects @got, the value a record gave for field @key, to be @want:
 * 0, or -EBADMSG saying which field of @id's record differs.
 */
static inline int kmsg_expect(struct __test_metadata *_metadata, const char *id,
			      const char *key, const char *got,
			      const char *want)
{
	EXPECT_STREQ(want, got)
	{
		TH_LOG("%s: field %s", id, key);
	}
	return strcmp(want, got) ? -EBADMSG : 0;
}

#endif /* LSMCONF_KMSG_LOG_H */
