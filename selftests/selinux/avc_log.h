/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SELinux AVC records read back from /dev/kmsg (no auditd in the guest:
 * kauditd prints each record to the kernel log). A test makes its access,
 * then a marker access that is always denied and logged, and reads the
 * records whose source is its actor up to the marker's: the audit queue
 * is printed in order, so an access with no record before the marker
 * logged none.
 */

#ifndef LSMCONF_SEL_AVC_LOG_H
#define LSMCONF_SEL_AVC_LOG_H

#include <sched.h>
#include <sys/prctl.h>

#include "../lsmconf/kmsg_log.h"
#include "sel.h"

/*
 * The marker's domain and access: its own affinity, a getsched denial
 * (lsmconf-task.cil: the domain lacks exactly that permission).
 */
#define AVC_MARK_DOMAIN "lsmconf_tsk_no_getsched_t"
#define AVC_MARK_LEVEL "s0"
#define MAX_AVC 4

struct avcs {
	int n;
	char rec[MAX_AVC][512];
};

static inline void avc_marker_child(void *arg, void *reply)
{
	const char *comm = arg;
	int *ret = reply;
	cpu_set_t cpus;

	*ret = sel_enter(AVC_MARK_DOMAIN, AVC_MARK_LEVEL);
	if (!*ret)
		*ret = sys_ret(prctl(PR_SET_NAME, comm));
	if (!*ret)
		*ret = sys_ret(sched_getaffinity(0, sizeof(cpus), &cpus));
}

/* The marker record, its comm @comm: 0 or -errno. */
static inline int avc_mark(const char *comm)
{
	int ret, op;

	ret = child_run(avc_marker_child, (void *)comm, &op, sizeof(op));
	return ret ?: op == -EACCES ? 0 : -EPROTO;
}

/* The type of a context field ("user:role:type:level") of @rec into @type. */
static inline int avc_context_type(const char *rec, const char *key, char *type,
				   size_t size)
{
	char ctx[256], *t, *end;

	if (kmsg_field(rec, key, ctx, sizeof(ctx)))
		return -ENOENT;
	t = strchr(ctx, ':');
	t = t ? strchr(t + 1, ':') : NULL;
	end = t ? strchr(t + 1, ':') : NULL;
	if (!end)
		return -EINVAL;
	*end = '\0';
	snprintf(type, size, "%s", t + 1);
	return 0;
}

/*
 * The AVC denials whose source is @actor, read from @fd up to the
 * marker's (comm @comm). 0 or -errno (-ETIMEDOUT: no marker).
 */
static inline int avc_collect(int fd, const char *actor, const char *comm,
			      struct avcs *out)
{
	long long end = now_ns() + KMSG_WAIT_MS * 1000000LL;
	char rec[8192], val[64];
	const char *msg;
	int n;

	out->n = 0;
	for (;;) {
		n = kmsg_next(fd, rec, sizeof(rec), (end - now_ns()) / 1000000);
		if (n < 0)
			return n;
		msg = strstr(rec, "avc:  denied");
		if (!msg)
			continue;
		if (!kmsg_field(msg, "comm", val, sizeof(val)) &&
		    !strcmp(val, comm))
			return 0;
		if (!avc_context_type(msg, "scontext", val, sizeof(val)) &&
		    !strcmp(val, actor) && out->n < MAX_AVC)
			snprintf(out->rec[out->n++], sizeof(out->rec[0]), "%s",
				 msg);
	}
}

/*
 * One call of a test, made by @body in a child (child_run(), its report in
 * @reply of @size bytes), between the log opened at its end and a marker
 * (comm "TAGPID.OP"): the denials whose source is @actor into @got. 0, or
 * -1 when the child or the marker failed (said with @name).
 */
static inline int avc_call_logged(struct __test_metadata *_metadata,
				  const char *name, const char *tag, int op,
				  const char *actor,
				  void (*body)(void *arg, void *reply),
				  void *arg, void *reply, size_t size,
				  struct avcs *got)
{
	int fd = kmsg_open_end(), ret = -1;
	char comm[16];

	snprintf(comm, sizeof(comm), "%.4s%05d.%02d", tag, getpid() % 100000,
		 op);
	if (fd < 0)
		TH_LOG("%s: cannot open the kernel log", name);
	else if (child_run(body, arg, reply, size))
		TH_LOG("%s: the child did not report", name);
	else if (avc_mark(comm) || avc_collect(fd, actor, comm, got))
		TH_LOG("%s: no marker record in the log", name);
	else
		ret = 0;
	if (fd >= 0)
		close(fd);
	return ret;
}

/*
 * The fields every denial record has, against the model's: the permission
 * ("avc:  denied  { PERM } for ..."), the target's type, the class and
 * permissive=0. Nonzero when one differs (each logged).
 */
static inline int avc_expect_denial(struct __test_metadata *_metadata,
				    const char *id, const char *rec,
				    const char *perm, const char *ttype,
				    const char *tclass)
{
	char got[64];
	int bad = 0;

	if (sscanf(rec, "avc:  denied  { %63[^ }] }", got) != 1)
		got[0] = '\0';
	bad |= kmsg_expect(_metadata, id, "permission", got, perm);
	if (avc_context_type(rec, "tcontext", got, sizeof(got)))
		got[0] = '\0';
	bad |= kmsg_expect(_metadata, id, "tcontext", got, ttype);
	if (kmsg_field(rec, "tclass", got, sizeof(got)))
		got[0] = '\0';
	bad |= kmsg_expect(_metadata, id, "tclass", got, tclass);
	if (kmsg_field(rec, "permissive", got, sizeof(got)))
		got[0] = '\0';
	bad |= kmsg_expect(_metadata, id, "permissive", got, "0");
	return bad;
}

/*
 * The permission a call's chain of checks is refused at: the first of
 * @checks (at most @n; NULL ends them) that is @lacks, the one permission
 * the actor lacks (NULL: it lacks none). NULL when the chain passes.
 */
static inline const char *avc_chain_refused(const char *const *checks, size_t n,
					    const char *lacks)
{
	size_t i;

	for (i = 0; lacks && i < n && checks[i]; i++)
		if (!strcmp(checks[i], lacks))
			return checks[i];
	return NULL;
}

/*
 * The one record of call @id in @got against the model's denial of @perm
 * on @ttype's @tclass (@perm NULL: the model expects none). 0, -EBADMSG
 * when it differs or more than one came, NOT_RUN when none did.
 */
static inline int avc_judge_one(struct __test_metadata *_metadata,
				const char *id, const struct avcs *got,
				const char *perm, const char *ttype,
				const char *tclass)
{
	int i;

	if (!got->n)
		return NOT_RUN;
	if (got->n > 1 || !perm) {
		for (i = 0; i < got->n; i++)
			TH_LOG("%s: logged %s", id, got->rec[i]);
		return -EBADMSG;
	}
	return avc_expect_denial(_metadata, id, got->rec[0], perm, ttype,
				 tclass);
}

#endif /* LSMCONF_SEL_AVC_LOG_H */
