// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/analysis/insns.c: the kernel's symbols, the
 * plugin's block counts named by them, and the comparison of the rows.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "check_run.h"

/* Out of order on purpose: the parser sorts. */
static const char ksyms[] = "ffffffff81000200 unix_peer_perm\n"
			    "ffffffff81000100 aa_unix_peer_perm\n"
			    "ffffffff81000300 aa_sunaddr\n"
			    "ffffffff81000400 unix_peer_perm.constprop.0\n";

START_TEST(test_syms_find)
{
	struct insn_syms s;

	ck_assert_uint_eq(insn_syms_parse(ksyms, &s), 0);
	ck_assert_uint_eq(s.n, 4);
	/* The symbol with the greatest address not above the block's. */
	ck_assert_str_eq(insn_syms_find(&s, 0xffffffff81000100ull),
			 "aa_unix_peer_perm");
	ck_assert_str_eq(insn_syms_find(&s, 0xffffffff810001ffull),
			 "aa_unix_peer_perm");
	ck_assert_str_eq(insn_syms_find(&s, 0xffffffff81000200ull),
			 "unix_peer_perm");
	ck_assert_str_eq(insn_syms_find(&s, 0xffffffff810003ffull),
			 "aa_sunaddr");
	ck_assert_str_eq(insn_syms_find(&s, 0xffffffff81900000ull),
			 "unix_peer_perm.constprop.0");
	/* Before the first symbol: none. Below the kernel: user space. */
	ck_assert_ptr_null(insn_syms_find(&s, 0xffffffff80000000ull));
	ck_assert_str_eq(insn_syms_find(&s, 0x401000ull), INSN_USER);
	insn_syms_free(&s);
}
END_TEST

START_TEST(test_syms_malformed)
{
	struct insn_syms s;

	/* No address, no name, and a last line cut short: three bad. */
	ck_assert_uint_eq(insn_syms_parse("zz foo\n"
					  "ffffffff81000000\n"
					  "ffffffff81000100 ok\n"
					  "ffffffff81000200 cut",
					  &s),
			  3);
	ck_assert_uint_eq(s.n, 1);
	insn_syms_free(&s);
}
END_TEST

/* Two measured rounds of 100 messages per point, a warm-up ignored. */
static void samples(struct bench_set *set)
{
	bench_parse("socketpair:none\t0\t0\t1\t100\t5000\n"
		    "socketpair:none\t0\t1\t0\t100\t5000\n"
		    "socketpair:none\t0\t2\t0\t100\t5000\n"
		    "socketpair:both\t0\t0\t0\t100\t5000\n"
		    "socketpair:both\t0\t1\t0\t100\t5000\n",
		    set);
	ck_assert_uint_eq(set->n, 5);
}

static const struct path_row *row(const struct path_set *p, const char *point,
				  const char *fn)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].point, point) &&
		    !strcmp(p->v[i].function, fn))
			return &p->v[i];
	return NULL;
}

START_TEST(test_rows)
{
	struct insn_syms s;
	struct bench_set set;
	struct path_set p = { 0 };
	const struct path_row *r;

	samples(&set);
	insn_syms_parse(ksyms, &s);
	/*
	 * Point 0 is socketpair:none: two blocks of unix_peer_perm (10
	 * instructions x 40 runs, 5 x 20) and one of user space; point 1,
	 * socketpair:both, one block of aa_unix_peer_perm and one before
	 * every symbol.
	 */
	ck_assert_uint_eq(insn_profile_rows("# 0 windows 2\n"
					    "0\tffffffff81000200\t10\t40\n"
					    "0\tffffffff81000210\t5\t20\n"
					    "0\tffffffff81000400\t3\t10\n"
					    "0\t401000\t7\t3\n"
					    "# 1 windows 2\n"
					    "1\tffffffff81000100\t4\t50\n"
					    "1\tffffffff80000000\t2\t1\n",
					    &s,
					    "socketpair:none socketpair:both",
					    &set, &p),
			  0);
	ck_assert_uint_eq(p.n, 4);
	r = row(&p, "socketpair:none", "unix_peer_perm");
	ck_assert_ptr_nonnull(r);
	/*
	 * Instructions = length x executions, summed per function, its
	 * clone (.constprop.0) included.
	 */
	ck_assert(fabs(r->instructions - (10 * 40 + 5 * 20 + 3 * 10)) < 1e-9);
	/* The measured messages only: two rounds of 100, not the warm-up. */
	ck_assert_int_eq(r->messages, 200);
	ck_assert_int_eq(r->calls, -1);
	r = row(&p, "socketpair:none", INSN_USER);
	ck_assert(r && fabs(r->instructions - 21) < 1e-9);
	r = row(&p, "socketpair:both", "aa_unix_peer_perm");
	ck_assert(r && fabs(r->instructions - 200) < 1e-9);
	ck_assert_ptr_nonnull(row(&p, "socketpair:both", "[unknown]"));
	path_free(&p);
	bench_free(&set);
	insn_syms_free(&s);
}
END_TEST

START_TEST(test_rows_malformed)
{
	struct insn_syms s;
	struct bench_set set;
	struct path_set p = { 0 };

	samples(&set);
	insn_syms_parse(ksyms, &s);
	/*
	 * A point index beyond the list, a negative one, a short line, a
	 * trailing field, a bad window line and a cut last line: six bad.
	 * A point with no measured messages (index 2: not in the samples)
	 * is left out without complaint.
	 */
	ck_assert_uint_eq(
		insn_profile_rows("9\tffffffff81000200\t1\t1\n"
				  "-1\tffffffff81000200\t1\t1\n"
				  "0\tffffffff81000200\t1\n"
				  "0\tffffffff81000200\t1\t1\tx\n"
				  "# 0 windows\n"
				  "2\tffffffff81000200\t1\t1\n"
				  "0\tffffffff81000200\t1\t1",
				  &s,
				  "socketpair:none socketpair:both stream:none",
				  &set, &p),
		6);
	ck_assert_uint_eq(p.n, 0);
	path_free(&p);
	bench_free(&set);
	insn_syms_free(&s);
}
END_TEST

/* A profile row of @fn with @insns over 100 messages. */
static void one(struct path_set *p, const char *fn, double insns)
{
	p->v = realloc(p->v, (p->n + 1) * sizeof(*p->v));
	memset(&p->v[p->n], 0, sizeof(p->v[p->n]));
	strcpy(p->v[p->n].point, "socketpair:none");
	strcpy(p->v[p->n].function, fn);
	p->v[p->n].status = PATH_COUNTED;
	p->v[p->n].calls = -1;
	p->v[p->n].messages = 100;
	p->v[p->n++].instructions = insns;
}

/*
 * The rows compare as instructions only (no calls were counted): a
 * function gone in B (234 -> 0 per message) changed; one that moved by
 * less than A2 did is noise; one under the floor (1 per message or 0.5%)
 * did not change.
 */
START_TEST(test_compare_profile)
{
	struct path_set p[3] = { { 0 } };
	struct path_change *c;
	size_t n, i;
	int seen = 0;

	one(&p[0], "unix_peer_perm", 23400);
	one(&p[2], "unix_peer_perm", 23400);
	one(&p[0], "noisy", 10000);
	one(&p[1], "noisy", 10300);
	one(&p[2], "noisy", 9600);
	one(&p[0], "flat", 10000);
	one(&p[1], "flat", 10040);
	one(&p[2], "flat", 10000);
	c = path_compare(p, "socketpair:none", &n);
	ck_assert_uint_eq(n, 3);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(c[i].kind, PATH_INSTRUCTIONS);
		if (!strcmp(c[i].function, "unix_peer_perm")) {
			ck_assert(c[i].changed && c[i].control_ok);
			ck_assert(fabs(c[i].v[0] - 234) < 1e-9);
			ck_assert(c[i].absent[1] && c[i].v[1] == 0);
			seen |= 1;
		} else if (!strcmp(c[i].function, "noisy")) {
			ck_assert(!c[i].changed && !c[i].control_ok);
			seen |= 2;
		} else {
			ck_assert(!c[i].changed && c[i].control_ok);
			seen |= 4;
		}
	}
	ck_assert_int_eq(seen, 7);
	free(c);
	for (i = 0; i < 3; i++)
		path_free(&p[i]);
}
END_TEST

int main(void)
{
	return CHECK_RUN("insns", test_syms_find, test_syms_malformed,
			 test_rows, test_rows_malformed, test_compare_profile);
}
