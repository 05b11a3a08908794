/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf selftests: judging a decision inside a harness case. Include it
 * after kselftest_harness.h. JUDGE() writes the record, then expects the
 * observed outcome to be the expected one, and says which record differs:
 * the one place where a decision becomes a record and a verdict.
 */
#ifndef LSMCONF_JUDGE_H
#define LSMCONF_JUDGE_H

#include "lsmconf.h"

/*
 * The KTAP name of the running case, as the harness prints it:
 * "fixture.variant.test", "fixture.test" without variants, "global.test"
 * for TEST(). The harness hands a case its variant's data only, so the
 * variant is found by that pointer in the fixture's list.
 */
static inline const char *case_name(const struct __test_metadata *m)
{
	static char name[512];
	const struct __fixture_variant_metadata *v = NULL;
	int len;

	if (m->fixture)
		for (v = m->fixture->variant; v; v = v->next)
			if (v->data == m->variant)
				break;
	len = snprintf(name, sizeof(name), "%s%s%s.%s",
		       m->fixture ? m->fixture->name : "global",
		       v && v->name[0] ? "." : "", v ? v->name : "", m->name);
	if (len < 0 || len >= (int)sizeof(name))
		record_overflow(m->name, "", "case name", sizeof(name));
	return name;
}

/* Writes the record of one decision and judges it. */
#define JUDGE(rec)                                                       \
	do {                                                             \
		const struct record *_r = (rec);                         \
		const char *_case = case_name(_metadata);                \
		int _ret = record_put(_case, _r);                        \
		EXPECT_EQ(0, _ret)                                       \
		{                                                        \
			TH_LOG("%s: record not written: %s", _r->op,     \
			       strerror(-_ret));                         \
		}                                                        \
		EXPECT_EQ(_r->expected, _r->observed)                    \
		{                                                        \
			TH_LOG("%s/%s: expected %s, observed %s", _case, \
			       _r->op, outcome_name(_r->expected),       \
			       outcome_name(_r->observed));              \
		}                                                        \
	} while (0)

/*
 * The two decisions of an operation's audit records, after @rec's own:
 * OP/log.record (a record came, or ENOENT: a marker record proves the
 * operation quiet) and OP/log.fields (@fields_ret, the records' fields
 * against the model's: 0, -EBADMSG, or NOT_RUN when none came; NOT_RUN
 * expected when no record should come), @want records expected. Both
 * LSMs' tests read their records from the kernel log (kmsg_log.h).
 * @rec->op is left at OP/log.fields; @buf holds the ops' text.
 */
#define JUDGE_LOG(rec, buf, base_op, want, got_n, fields_ret)         \
	do {                                                          \
		snprintf(buf, sizeof(buf), "%s/log.record", base_op); \
		(rec)->op = buf;                                      \
		(rec)->expected = (want) ? 0 : -ENOENT;               \
		(rec)->observed = (got_n) ? 0 : -ENOENT;              \
		JUDGE(rec);                                           \
		snprintf(buf, sizeof(buf), "%s/log.fields", base_op); \
		(rec)->expected = (want) ? 0 : NOT_RUN;               \
		(rec)->observed = (fields_ret);                       \
		JUDGE(rec);                                           \
	} while (0)

#endif /* LSMCONF_JUDGE_H */
