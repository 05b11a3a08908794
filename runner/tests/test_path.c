// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>

#include "analysis/path.h"

START_TEST(test_parse)
{
	struct path_set set;

	path_parse(
		"socketpair:none\tunix_peer_perm\t2048\t1024\t-\n"
		"socketpair:none\tapparmor_unix_may_send\tabsent\t1024\t-\n"
		"socketpair:none\tavc_has_perm_noaudit\tunprobeable\t1024\t-\n"
		"socketpair:none\taa_sk_perm\t2048\t1024\t512000\n"
		"# twoproc:none skipped: no kprobe events\n"
		"# socketpair:none tracer: 700\n"
		"# socketpair:none tracer: x\n"
		"# no point here\n"
		"socketpair:none\tx\t-1\t1024\t-\n"
		"socketpair:none\tx\t1\t0\t-\n"
		"socketpair:none\tx\t1\t1024\n"
		"nopoint\tx\t1\t1024\t-\n",
		&set);
	ck_assert_uint_eq(set.n, 4);
	/*
	 * "# no point", tracer x, calls -1, messages 0, 4 fields, a point
	 * without ':'
	 */
	ck_assert_uint_eq(set.malformed, 6);
	ck_assert_int_eq(path_tracer_cost(&set, "socketpair:none"), 700);
	ck_assert_int_eq(path_tracer_cost(&set, "twoproc:none"), -1);
	ck_assert_int_eq(set.v[0].status, PATH_COUNTED);
	ck_assert_int_eq(set.v[0].calls, 2048);
	ck_assert(set.v[0].instructions < 0);
	ck_assert_int_eq(set.v[1].status, PATH_ABSENT);
	ck_assert_int_eq(set.v[2].status, PATH_UNPROBEABLE);
	ck_assert_double_eq(set.v[3].instructions, 512000);
	ck_assert_str_eq(path_skipped(&set, "twoproc:none"),
			 "no kprobe events");
	ck_assert_ptr_null(path_skipped(&set, "socketpair:none"));
	path_free(&set);
}
END_TEST

static const struct path_change *get(const struct path_change *c, size_t n,
				     const char *fn, enum path_kind kind)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(c[i].function, fn) && c[i].kind == kind)
			return &c[i];
	return NULL;
}

/*
 * The seed's model: original -> early return -> original, unix_peer_perm
 * 2,112 -> 0 -> 2,112 calls in 1,056 messages, i.e. 2 -> 0 -> 2 per
 * message: changed, control holds. A function the same in all three is
 * listed unchanged.
 */
START_TEST(test_compare_seed)
{
	struct path_set set[3];
	struct path_change *c;
	const struct path_change *p;
	size_t n;

	path_parse("p:none\tunix_peer_perm\t2112\t1056\t-\n"
		   "p:none\taa_sk_perm\t2112\t1056\t-\n",
		   &set[0]);
	path_parse("p:none\tunix_peer_perm\t0\t1056\t-\n"
		   "p:none\taa_sk_perm\t2112\t1056\t-\n",
		   &set[1]);
	path_parse("p:none\tunix_peer_perm\t2112\t1056\t-\n"
		   "p:none\taa_sk_perm\t2112\t1056\t-\n",
		   &set[2]);
	c = path_compare(set, "p:none", &n);
	/* two functions, calls only (no instructions measured) */
	ck_assert_uint_eq(n, 2);
	p = get(c, n, "unix_peer_perm", PATH_CALLS);
	ck_assert_ptr_nonnull(p);
	ck_assert_double_eq(p->v[0], 2.0);
	ck_assert_double_eq(p->v[1], 0.0);
	ck_assert_double_eq(p->v[2], 2.0);
	ck_assert(p->changed);
	ck_assert(p->control_ok);
	p = get(c, n, "aa_sk_perm", PATH_CALLS);
	ck_assert(!p->changed);
	ck_assert(p->control_ok);
	ck_assert_ptr_null(get(c, n, "aa_sk_perm", PATH_INSTRUCTIONS));
	ck_assert_uint_eq(path_compare(set, "other:none", &n) == NULL, 1);
	ck_assert_uint_eq(n, 0);
	free(c);
	for (n = 0; n < 3; n++)
		path_free(&set[n]);
}
END_TEST

/*
 * A function absent from A's kernel counts 0 there (6.12 has no
 * apparmor_unix_may_send); a difference within the floor (0.01 calls per
 * message: 10 calls in 1,000 messages; instructions: 0.5% of A, at least
 * 1) is no change; a control that disagrees more than B does hides the
 * change and is reported.
 */
START_TEST(test_compare_rules)
{
	struct path_set set[3];
	struct path_change *c;
	const struct path_change *p;
	size_t n;

	path_parse("p:x\tapparmor_unix_may_send\tabsent\t1000\t-\n"
		   "p:x\tavc_has_perm\t1000\t1000\t-\n"
		   "p:x\tnoisy\t1000\t1000\t-\n"
		   "p:x\tgone\tabsent\t1000\t-\n"
		   "p:x\ttimed\t1000\t1000\t100000\n"
		   "p:x\tsteady\t1000\t1000\t1000000\n",
		   &set[0]);
	path_parse("p:x\tapparmor_unix_may_send\t1000\t1000\t-\n"
		   "p:x\tavc_has_perm\t1010\t1000\t-\n"
		   "p:x\tnoisy\t1500\t1000\t-\n"
		   "p:x\tgone\tunprobeable\t1000\t-\n"
		   "p:x\ttimed\t1000\t1000\t200000\n"
		   "p:x\tsteady\t1000\t1000\t1004000\n",
		   &set[1]);
	path_parse("p:x\tapparmor_unix_may_send\tabsent\t1000\t-\n"
		   "p:x\tavc_has_perm\t1000\t1000\t-\n"
		   "p:x\tnoisy\t2000\t1000\t-\n"
		   "p:x\tgone\tabsent\t1000\t-\n"
		   "p:x\ttimed\t1000\t1000\t100500\n"
		   "p:x\tsteady\t1000\t1000\t1000000\n",
		   &set[2]);
	c = path_compare(set, "p:x", &n);
	/* six functions with calls, "gone" has no number, two timed */
	ck_assert_uint_eq(n, 7);
	ck_assert_ptr_null(get(c, n, "gone", PATH_CALLS));
	p = get(c, n, "apparmor_unix_may_send", PATH_CALLS);
	ck_assert(p->absent[0] && !p->absent[1] && p->absent[2]);
	ck_assert_double_eq(p->v[1], 1.0);
	ck_assert(p->changed && p->control_ok);
	p = get(c, n, "avc_has_perm", PATH_CALLS);
	ck_assert(!p->changed);
	p = get(c, n, "noisy", PATH_CALLS);
	ck_assert(!p->changed);
	ck_assert(!p->control_ok);
	/* 100 -> 200 instructions per message, A2 100.5: within 1 of A */
	p = get(c, n, "timed", PATH_INSTRUCTIONS);
	ck_assert_double_eq(p->v[1], 200.0);
	ck_assert(p->changed && p->control_ok);
	ck_assert(!get(c, n, "timed", PATH_CALLS)->changed);
	/* 1000 -> 1004 per message: within 0.5% of 1000 (5) */
	ck_assert(!get(c, n, "steady", PATH_INSTRUCTIONS)->changed);
	free(c);
	for (n = 0; n < 3; n++)
		path_free(&set[n]);
}
END_TEST

int main(void)
{
	return CHECK_RUN("path", test_parse, test_compare_seed,
			 test_compare_rules);
}
