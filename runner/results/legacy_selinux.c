// SPDX-License-Identifier: GPL-2.0
/*
 * The v1 ids of selftests/selinux/ mapped to today's (legacy.h). A v1 id
 * was "selinux/AREA/..." with the matrix point spelt out; today's names
 * the KTAP case, whose variant is built from the same segments:
 *
 *   selinux/socket/T/A/C/S/OP            socket_test/sk_pair.T_A_W.talk/OP
 *     (W: ok, c_no_P or s_no_P, from C, S = lsmconf_sk[_no_P]_t)
 *   selinux/socket/fd/stream/S/R/OP      socket_test/sk_fd.to_R.pass_and_use/OP
 *   selinux/msgq/cN/enforcing/S/R/OP     msgq_test/msgq.cN_S_to_R.pair/OP
 *   selinux/msgq/c1024/permissive/S/R/OP msgq_test/permissive.denied_send_allowed_and_logged/OP
 *   selinux/CLS/c4/enforcing/O/X/OP      ipc_test/ipc.CLS_O_with_X.sweep/OP
 *     (O, X = lsmconf_ipc_*_t; CLS sem, shm, msgq)
 *   selinux/msgq/c4/blocked/R/T/F/S/OP   ipc_test/blocked.R_HOW_from_S.handover/OP
 *     (HOW from the msgrcv type T and flags F)
 *   selinux/mls/pair/NAME/OP             mls_test/mls_pair.NAME.decide/OP
 *   selinux/mls/valid/NAME/OP            mls_test/validity.NAME.setcon_and_exec/OP
 *   selinux/mls/canon/NAME/OP            mls_test/canonical.NAME.read_back/OP
 *   selinux/modes/mode/M/D/ACC/OP        modes_test/modes.M_D_ACC.twice/OP
 *   selinux/modes/bool/T/STEP/OP         modes_test/bools.T/STEP/OP
 *   selinux/modes/reload/NAME/OP         modes_test/reload.NAME/OP
 *   selinux/unix/cN/MODE/C/SRV/OP        unix_test/unix_pair.cN_MODE_C.reach_server/OP
 *     (MODE with '_' for '-')
 *   selinux/lifecycle/T/SCEN/OP          lifecycle_test/sel_lifecycle.T.SCEN/OP
 *
 * A domain lsmconf_X_t is written X (lsmconf_ipc_X_t, lsmconf_md_X_t: X).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/legacy.h"

#define MAX_SEGS 10

struct v1 {
	char buf[512];
	char *s[MAX_SEGS];
	int n;
};

/* Splits @id on '/'; -ENOENT when it has more segments than any v1 id. */
static int split(const char *id, struct v1 *v)
{
	char *p;

	if (strlen(id) >= sizeof(v->buf))
		return -ENOENT;
	strcpy(v->buf, id);
	v->n = 0;
	for (p = v->buf;; p++) {
		if (v->n == MAX_SEGS)
			return -ENOENT;
		v->s[v->n++] = p;
		p = strchr(p, '/');
		if (!p)
			break;
		*p = '\0';
	}
	return 0;
}

/* X of "<prefix>X_t" in @buf, or NULL when @dom is not so shaped. */
static const char *short_dom(const char *dom, const char *prefix, char *buf,
			     size_t size)
{
	size_t plen = strlen(prefix), len = strlen(dom);

	if (len <= plen + 2 || strncmp(dom, prefix, plen) ||
	    strcmp(dom + len - 2, "_t") || len - plen - 2 >= size)
		return NULL;
	snprintf(buf, size, "%.*s", (int)(len - plen - 2), dom + plen);
	return buf;
}

static bool is(const char *a, const char *b)
{
	return !strcmp(a, b);
}

__attribute__((format(printf, 3, 4))) static int put(char *out, size_t size,
						     const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	if (len < 0)
		return -EINVAL;
	return (size_t)len < size ? 0 : -ENAMETOOLONG;
}

/* The sk_pair variant of a client and a server: who lacks what. */
static int socket_id(const struct v1 *v, char *out, size_t size)
{
	char c[64], s[64], w[80];

	if (!short_dom(v->s[4], "lsmconf_", c, sizeof(c)) ||
	    !short_dom(v->s[5], "lsmconf_", s, sizeof(s)))
		return -ENOENT;
	if (is(c, "sk") && is(s, "sk"))
		snprintf(w, sizeof(w), "ok");
	else if (is(s, "sk") && !strncmp(c, "sk_no_", 6))
		snprintf(w, sizeof(w), "c_no_%s", c + 6);
	else if (is(c, "sk") && !strncmp(s, "sk_no_", 6))
		snprintf(w, sizeof(w), "s_no_%s", s + 6);
	else
		return -ENOENT;
	return put(out, size, "socket_test/sk_pair.%s_%s_%s.talk/%s", v->s[2],
		   v->s[3], w, v->s[6]);
}

/* How a blocked receiver waits: the BLOCKED() names of ipc_test.c. */
static int blocked_how(const char *type, const char *flags, char *how,
		       size_t size)
{
	char *end;
	long t = strtol(type, &end, 10);

	if (*end || !*type)
		return -ENOENT;
	if (is(flags, "8192")) /* MSG_EXCEPT */
		snprintf(how, size, "except_%ld", t);
	else if (!is(flags, "0"))
		return -ENOENT;
	else if (t == 0)
		snprintf(how, size, "any");
	else if (t > 0)
		snprintf(how, size, "type_%ld", t);
	else
		snprintf(how, size, "type_minus_%ld", -t);
	return 0;
}

/* selinux/{sem,shm,msgq}/...: ipc_test's sweeps and handovers, msgq_test. */
static int ipc_id(const struct v1 *v, char *out, size_t size)
{
	char a[64], b[64], how[32];

	if (v->n == 9 && is(v->s[1], "msgq") && is(v->s[3], "blocked")) {
		if (!short_dom(v->s[4], "lsmconf_ipc_", a, sizeof(a)) ||
		    !short_dom(v->s[7], "lsmconf_ipc_", b, sizeof(b)) ||
		    blocked_how(v->s[5], v->s[6], how, sizeof(how)))
			return -ENOENT;
		return put(out, size,
			   "ipc_test/blocked.%s_%s_from_%s.handover/%s", a, how,
			   b, v->s[8]);
	}
	if (v->n != 7)
		return -ENOENT;
	if (short_dom(v->s[4], "lsmconf_ipc_", a, sizeof(a)) &&
	    short_dom(v->s[5], "lsmconf_ipc_", b, sizeof(b)) &&
	    is(v->s[3], "enforcing"))
		return put(out, size, "ipc_test/ipc.%s_%s_with_%s.sweep/%s",
			   v->s[1], a, b, v->s[6]);
	if (!is(v->s[1], "msgq") ||
	    !short_dom(v->s[4], "lsmconf_", a, sizeof(a)) ||
	    !short_dom(v->s[5], "lsmconf_", b, sizeof(b)))
		return -ENOENT;
	if (is(v->s[3], "enforcing"))
		return put(out, size, "msgq_test/msgq.%s_%s_to_%s.pair/%s",
			   v->s[2], a, b, v->s[6]);
	/* The one permissive pair: a case of its own. */
	if (is(v->s[3], "permissive") && is(v->s[2], "c1024") &&
	    is(a, "s_no_send") && is(b, "r_ok"))
		return put(
			out, size,
			"msgq_test/permissive.denied_send_allowed_and_logged/%s",
			v->s[6]);
	return -ENOENT;
}

static int mls_id(const struct v1 *v, char *out, size_t size)
{
	static const char *const map[][3] = {
		{ "pair", "mls_pair", "decide" },
		{ "valid", "validity", "setcon_and_exec" },
		{ "canon", "canonical", "read_back" },
	};
	size_t i;

	if (v->n != 5)
		return -ENOENT;
	for (i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (is(v->s[2], map[i][0]))
			return put(out, size, "mls_test/%s.%s.%s/%s", map[i][1],
				   v->s[3], map[i][2], v->s[4]);
	return -ENOENT;
}

static int modes_id(const struct v1 *v, char *out, size_t size)
{
	char d[64];

	if (v->n == 7 && is(v->s[2], "mode")) {
		if (!short_dom(v->s[4], "lsmconf_md_", d, sizeof(d)))
			return -ENOENT;
		return put(out, size, "modes_test/modes.%s_%s_%s.twice/%s",
			   v->s[3], d, v->s[5], v->s[6]);
	}
	/* One case steps through many states: the op names the step. */
	if (v->n == 6 && is(v->s[2], "bool"))
		return put(out, size, "modes_test/bools.%s/%s/%s", v->s[3],
			   v->s[4], v->s[5]);
	if (v->n == 5 && is(v->s[2], "reload"))
		return put(out, size, "modes_test/reload.%s/%s", v->s[3],
			   v->s[4]);
	return -ENOENT;
}

static int unix_id(const struct v1 *v, char *out, size_t size)
{
	char c[64], mode[32], *p;

	if (v->n != 7 || !short_dom(v->s[4], "lsmconf_", c, sizeof(c)) ||
	    snprintf(mode, sizeof(mode), "%s", v->s[3]) >= (int)sizeof(mode))
		return -ENOENT;
	for (p = mode; *p; p++)
		if (*p == '-')
			*p = '_';
	return put(out, size, "unix_test/unix_pair.%s_%s_%s.reach_server/%s",
		   v->s[2], mode, c, v->s[6]);
}

int legacy_selinux_id(const char *v1_id, const char *abi, char *out,
		      size_t size)
{
	struct v1 v;

	/* Every v1 SELinux id names its categories: @abi adds nothing. */
	(void)abi;
	if (strncmp(v1_id, "selinux/", 8) || split(v1_id, &v) || v.n < 5)
		return -ENOENT;
	if (is(v.s[1], "socket")) {
		if (v.n != 7)
			return -ENOENT;
		if (is(v.s[2], "fd")) {
			char r[64];

			if (!is(v.s[3], "stream") ||
			    !short_dom(v.s[5], "lsmconf_", r, sizeof(r)))
				return -ENOENT;
			return put(out, size,
				   "socket_test/sk_fd.to_%s.pass_and_use/%s", r,
				   v.s[6]);
		}
		return socket_id(&v, out, size);
	}
	if (is(v.s[1], "sem") || is(v.s[1], "shm") || is(v.s[1], "msgq"))
		return ipc_id(&v, out, size);
	if (is(v.s[1], "mls"))
		return mls_id(&v, out, size);
	if (is(v.s[1], "modes"))
		return modes_id(&v, out, size);
	if (is(v.s[1], "unix"))
		return unix_id(&v, out, size);
	if (is(v.s[1], "lifecycle") && v.n == 5)
		return put(out, size, "lifecycle_test/sel_lifecycle.%s.%s/%s",
			   v.s[2], v.s[3], v.s[4]);
	return -ENOENT;
}
