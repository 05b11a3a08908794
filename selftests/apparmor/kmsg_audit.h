/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: AppArmor's audit records as the guest reads
 * them from /dev/kmsg (no auditd: the audit subsystem prints each record,
 * kauditd_printk_skb()). A test opens the log at its end before an
 * operation, and after it reads up to a marker record that a second
 * process makes once the operation is over: records reach the log in the
 * order they were made (one queue, one kauditd thread), so whatever the
 * operation logged is before the marker, and a quiet decision is proven
 * quiet by the marker alone. Shared by audit_test, audit_ops_test,
 * file_test, userns_test, capability_test, uring_test and mount_test.
 */
#ifndef LSMCONF_APPARMOR_KMSG_AUDIT_H
#define LSMCONF_APPARMOR_KMSG_AUDIT_H

#include "common.h"
#include "../lsmconf/kmsg_log.h"

#define MAX_RECORDS 8

struct records {
	int n;
	char rec[MAX_RECORDS][1024];
};

/*
 * Reads AppArmor records from @fd until one of profile @marker appears;
 * keeps those whose field @key is @want. Returns 0 or -errno
 * (-ETIMEDOUT: no marker within KMSG_WAIT_MS).
 */
static inline int log_collect_by(int fd, const char *key, const char *want,
				 const char *marker, struct records *out)
{
	long long end = now_ns() + KMSG_WAIT_MS * 1000000LL;
	char buf[8192], prof[256], val[256];

	out->n = 0;
	for (;;) {
		int n = kmsg_next(fd, buf, sizeof(buf),
				  (end - now_ns()) / 1000000);
		const char *msg;

		if (n < 0)
			return n;
		/* "prio,seq,usec,flags;message" */
		msg = strchr(buf, ';');
		if (!msg || !strstr(msg, " apparmor=\""))
			continue;
		/* audit_pre() puts apparmor= first: give kmsg_field() its space. */
		msg = strstr(msg, " apparmor=\"");
		if (kmsg_field(msg, "profile", prof, sizeof(prof)))
			continue;
		if (!strcmp(prof, marker))
			return 0;
		if (!kmsg_field(msg, key, val, sizeof(val)) &&
		    !strcmp(val, want) && out->n < MAX_RECORDS)
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
	int ret = kmsg_field(rec, key, got, sizeof(got));

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
	ret = kmsg_expect(_metadata, id, key, got, want);
	if (ret)
		TH_LOG("%s: %s", id, rec);
	return ret;
}

/* The marker's child: a read of / refused in profile @arg, no rule in it. */
static inline void aa_marker_child(void *arg, void *reply)
{
	int *ret = reply, fd;

	*ret = aa_change_profile(arg) ? -errno : 0;
	if (*ret)
		return;
	fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	*ret = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
}

/*
 * The marker record: a child in the test profile AA_TEST_PREFIX
 * @group "_marker" (a profile without rules) reads /, which is refused
 * and logged after every record made before. 0 or -errno (-EPROTO: the
 * read was not refused).
 */
static inline int aa_log_mark(const char *group)
{
	char name[160];
	int ret, op;

	snprintf(name, sizeof(name), AA_TEST_PREFIX "%s_marker", group);
	ret = child_run(aa_marker_child, name, &op, sizeof(op));
	return ret ?: op == -EACCES ? 0 : -EPROTO;
}

/* A field an audit record must hold. */
struct log_field {
	const char *key, *want;
};

/*
 * The records @got of one operation against the model's: @want of them,
 * each with @fields (judged on the first: the model's records are
 * alike). -EBADMSG when the count or a field differs, NOT_RUN when none
 * came (the log.record decision says whether one should have).
 */
static inline int judge_records(struct __test_metadata *_metadata,
				const char *id, const struct records *got,
				int want, const struct log_field *fields,
				size_t n_fields)
{
	int bad = 0, i;
	size_t f;

	if (!got->n)
		return NOT_RUN;
	if (got->n != want) {
		for (i = 0; i < got->n; i++)
			TH_LOG("%s: logged %s", id, got->rec[i]);
		return -EBADMSG;
	}
	for (f = 0; f < n_fields; f++)
		bad |= judge_field(_metadata, id, got->rec[0], fields[f].key,
				   fields[f].want);
	return bad;
}

#endif /* LSMCONF_APPARMOR_KMSG_AUDIT_H */
