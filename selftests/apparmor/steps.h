/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: judging a plan, what the model expects of a
 * case's operations, against what the peers did: one decision record per
 * planned operation. Two forms: the batch-worker tests' (unix_coarse_test,
 * inet_test; a plan is a worker batch and, beside each command, its
 * step), and the peer-process tests' (a struct peer_report of each side,
 * planned and observed). Include after kselftest_harness.h.
 */

#ifndef LSMCONF_APPARMOR_STEPS_H
#define LSMCONF_APPARMOR_STEPS_H

#include "../lsmconf/judge.h"
#include "peer.h"

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

/*
 * Every variant of a kind records the same operations, so a case id
 * exists on every kernel: each of @ops that @r does not hold is added,
 * not-run.
 */
static inline void report_complete(struct peer_report *r,
				   const char *const *ops)
{
	for (; *ops; ops++)
		if (report_find(r, *ops) == NOT_RUN)
			report_op(r, *ops, NOT_RUN);
}

/*
 * Judges what one side (@side: "sender", "receiver", ...) did, @got,
 * against its plan, @want: one record per planned operation, with @base's
 * columns and the op "@side.OP"; then nothing may have been done that the
 * plan did not foresee.
 */
static inline void judge_report(struct __test_metadata *_metadata,
				const struct record *base, const char *side,
				const struct peer_report *want,
				const struct peer_report *got)
{
	char op[64];
	int i, len;

	for (i = 0; i < want->n_ops; i++) {
		struct record rec = *base;

		len = snprintf(op, sizeof(op), "%s.%s", side, want->ops[i].op);
		if (len < 0 || len >= (int)sizeof(op))
			record_overflow(case_name(_metadata), side, "op",
					sizeof(op));
		rec.op = op;
		rec.expected = want->ops[i].err;
		rec.observed = report_find(got, want->ops[i].op);
		JUDGE(&rec);
	}
	for (i = 0; i < got->n_ops; i++) {
		EXPECT_NE(NOT_RUN, report_find(want, got->ops[i].op))
		{
			TH_LOG("%s.%s: done (%s) but not expected", side,
			       got->ops[i].op, outcome_name(got->ops[i].err));
		}
	}
}

#endif /* LSMCONF_APPARMOR_STEPS_H */
