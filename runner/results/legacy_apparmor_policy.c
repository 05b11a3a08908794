// SPDX-License-Identifier: GPL-2.0
/*
 * The v1 ids of selftests/apparmor/'s abi, audit, features, live,
 * unix_lifecycle and unix_rules tests mapped to today's (legacy.h). A v1
 * id was "<area>/<matrix point>/<op>"; today's names the test binary and
 * the KTAP case that made the decision ("<binary>/<case>/<op>"), and the
 * matrix point lives in the variant's name (or in the op, where one case
 * decides a matrix: audit_test).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "results/legacy.h"

#define MAX_SEGS 8

/*
 * Splits @id at '/' into @seg (a copy in @buf): exactly @n segments,
 * none empty. 0, or -ENOENT when the id has another shape.
 */
static int split(const char *id, char *buf, size_t size, char **seg, int n)
{
	char *p;
	int i;

	if (snprintf(buf, size, "%s", id) >= (int)size)
		return -ENOENT;
	for (i = 0, p = buf; i < n; i++) {
		seg[i] = p;
		p = strchr(p, '/');
		if (i < n - 1) {
			if (!p)
				return -ENOENT;
			*p++ = '\0';
		}
		if (!*seg[i])
			return -ENOENT;
	}
	return p ? -ENOENT : 0;
}

static int put(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	return len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
}

/* In place: every @from in @s becomes @to (variant names have no '.', '/'). */
static char *swap(char *s, char from, char to)
{
	char *p;

	for (p = s; *p; p++)
		if (*p == from)
			*p = to;
	return s;
}

/*
 * abi/SET/PROFILE/TYPE/OP: the variant set_<SET, '.' as '_'>__PROFILE__TYPE
 * of abi.precompiled.
 */
static int abi_id(const char *id, char *out, size_t size)
{
	char buf[256], *s[5];

	if (split(id, buf, sizeof(buf), s, 5))
		return -ENOENT;
	return put(out, size, "abi_test/abi.set_%s__%s__%s.precompiled/%s",
		   swap(s[1], '.', '_'), s[2], s[3], s[4]);
}

/*
 * audit/MODE/QUAL/TYPE/OP: the case audit.MODE.records runs every
 * qualifier on every type, so those stay in the op.
 */
static int audit_id(const char *id, char *out, size_t size)
{
	char buf[256], *s[5];

	if (split(id, buf, sizeof(buf), s, 5))
		return -ENOENT;
	if (strcmp(s[1], "fine") && strcmp(s[1], "coarse"))
		return -ENOENT;
	return put(out, size, "audit_test/audit.%s.records/%s/%s/%s", s[1],
		   s[2], s[3], s[4]);
}

/*
 * features/PATH/advertised, PATH one or two segments of the features
 * tree: the variant is PATH with '_' for '/'.
 */
static int features_id(const char *id, char *out, size_t size)
{
	char buf[256], *s[4];
	int n = 4;

	if (split(id, buf, sizeof(buf), s, n)) {
		n = 3;
		if (split(id, buf, sizeof(buf), s, n))
			return -ENOENT;
	}
	if (strcmp(s[n - 1], "advertised"))
		return -ENOENT;
	if (n == 4)
		return put(out, size,
			   "features_test/feature.%s_%s.advertised/advertised",
			   s[1], s[2]);
	return put(out, size, "features_test/feature.%s.advertised/advertised",
		   s[1]);
}

/* live's v1 scenario names and the cases that record them. */
static const char *const live_cases[][2] = {
	{ "sender_flips", "sender_flips" },
	{ "receiver_flips", "receiver_flips_sender_denied" },
	{ "fixed_phase", "fixed_phase_sender" },
	{ "fixed_phase_stacked", "fixed_phase_stacked" },
	{ "revocation", "revocation" },
	{ "removal", "removal" },
	{ "first_send", "first_send" },
};

/* live/ABI/TYPE/SCENARIO/WHAT: the variant is TYPE. */
static int live_id(const char *id, char *out, size_t size)
{
	char buf[256], *s[5];
	size_t i;

	if (split(id, buf, sizeof(buf), s, 5))
		return -ENOENT;
	for (i = 0; i < sizeof(live_cases) / sizeof(live_cases[0]); i++)
		if (!strcmp(s[3], live_cases[i][0]))
			return put(out, size, "live_test/live.%s.%s/%s", s[2],
				   live_cases[i][1], s[4]);
	return -ENOENT;
}

/*
 * lifecycle/ABI/TYPE/ENTER/SCENARIO/OP: the variant is TYPE_ENTER, the
 * case the scenario.
 */
static int lifecycle_id(const char *id, char *out, size_t size)
{
	char buf[256], *s[6];

	if (split(id, buf, sizeof(buf), s, 6))
		return -ENOENT;
	return put(out, size, "unix_lifecycle_test/lifecycle.%s_%s.%s/%s", s[2],
		   s[3], s[4], s[5]);
}

/*
 * unix_rules/ABI/VARIANT/OP: the case unix_rules.VARIANT.decisions, but
 * for the parser's refusal, a TEST() of its own.
 */
static int unix_rules_id(const char *id, char *out, size_t size)
{
	char buf[256], *s[4];

	if (split(id, buf, sizeof(buf), s, 4))
		return -ENOENT;
	if (!strcmp(s[2], "paddr_pathname__refused"))
		return put(
			out, size,
			"unix_rules_test/global.pathname_peer_addr_refused/%s",
			s[3]);
	return put(out, size, "unix_rules_test/unix_rules.%s.decisions/%s",
		   s[2], s[3]);
}

static const struct {
	const char *area;
	int (*map)(const char *id, char *out, size_t size);
} areas[] = {
	{ "abi/", abi_id },
	{ "audit/", audit_id },
	{ "features/", features_id },
	{ "live/", live_id },
	{ "lifecycle/", lifecycle_id },
	{ "unix_rules/", unix_rules_id },
};

int legacy_apparmor_policy_id(const char *v1_id, const char *abi, char *out,
			      size_t size)
{
	size_t i;

	/* Every area's v1 ids held what abi says, or needed no abi. */
	(void)abi;
	for (i = 0; i < sizeof(areas) / sizeof(areas[0]); i++)
		if (!strncmp(v1_id, areas[i].area, strlen(areas[i].area)))
			return areas[i].map(v1_id, out, size);
	return -ENOENT;
}
