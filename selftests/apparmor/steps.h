/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: the plans of the batch-worker tests
 * (unix_coarse_test, inet_test). A plan is a worker batch and, beside each
 * command, the step the model expects of it; judge_steps() makes each
 * step one decision record. Include after kselftest_harness.h.
 */

#ifndef LSMCONF_APPARMOR_STEPS_H
#define LSMCONF_APPARMOR_STEPS_H

#include "../lsmconf/judge.h"

struct step {
	char name[32];
	int want; /* 0, -errno or NOT_RUN */
	int want_count; /* a receive: the payloads that must arrive */
	bool receive; /* its payload count is judged too */
	const char *depends; /* NULL: the plan's */
};

/*
 * Sets step @i of @s: expected not to run when the step it needs (@needs
 * of this batch, or an earlier batch's, @skip) is expected to fail.
 */
static inline void step_set(struct step *s, int i, const char *name, int needs,
			    bool skip, bool receive, int want)
{
	snprintf(s[i].name, sizeof(s[i].name), "%s", name);
	s[i].want = skip || (needs >= 0 && s[needs].want) ? NOT_RUN : want;
	s[i].want_count = 0;
	s[i].receive = receive;
	s[i].depends = NULL;
}

/* True when each of the @n steps is expected to succeed. */
static inline bool steps_ok(const struct step *s, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (s[i].want)
			return false;
	return true;
}

/* The same, observed: each of the @n outcomes @err succeeded. */
static inline bool errs_ok(const int *err, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (err[i])
			return false;
	return true;
}

/* A case's decisions, for its closing log line. */
struct tally {
	int decisions, wrong;
};

/*
 * Judges @n steps against the outcomes @err (and payload counts @count) a
 * worker replied: one record each, with @base's columns and the op
 * "@prefix@side.NAME" (@prefix: the matrix point inside the case, or "").
 */
static inline void judge_steps(struct __test_metadata *_metadata,
			       const struct record *base, const char *prefix,
			       const char *side, const struct step *s, int n,
			       const int *err, const int *count,
			       struct tally *t)
{
	char op[160];
	int i, len;

	for (i = 0; i < n; i++) {
		struct record rec = *base;

		len = snprintf(op, sizeof(op), "%s%s.%s", prefix, side,
			       s[i].name);
		if (len < 0 || len >= (int)sizeof(op))
			record_overflow(case_name(_metadata), prefix, "op",
					sizeof(op));
		rec.op = op;
		if (s[i].depends)
			rec.depends = s[i].depends;
		rec.expected = s[i].want;
		rec.observed = err[i];
		JUDGE(&rec);
		t->decisions++;
		t->wrong += s[i].want != err[i];
		if (s[i].receive && !err[i]) {
			EXPECT_EQ(s[i].want_count, count[i])
			{
				TH_LOG("%s/%s: %d payloads arrived, %d expected",
				       case_name(_metadata), op, count[i],
				       s[i].want_count);
			}
		}
	}
}

#endif /* LSMCONF_APPARMOR_STEPS_H */
