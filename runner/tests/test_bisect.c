// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/bisect.h"
#include "lib/util.h"

/*
 * A simulated series: kernel i shows a kind when culprit[kind] <= i <
 * vanish[kind] (0: never; vanish 0: stays), with the misfortunes below.
 */
struct sim {
	size_t n;
	size_t culprit[BISECT_N_KINDS];
	size_t vanish[BISECT_N_KINDS];
	size_t refuse; /* this patch does not apply */
	size_t no_build; /* this kernel does not build */
	size_t bad_boot; /* this kernel's first boot fails */
	size_t flaky; /* this kernel's first boot that runs fails a case */
	/*
	 * This kernel's first boot that runs decides nothing alone (a record
	 * on one side only): with @ghost, it shows changed decisions that
	 * the next boot does not repeat.
	 */
	size_t uncertain;
	bool ghost;
};

static bool shows(const struct sim *s, int kind, size_t i)
{
	size_t c = s->culprit[kind], v = s->vanish[kind];

	return c && i >= c && (!v || i < v);
}

/* Runs the planner against @s; checks each build's neighbour on the way. */
static struct bisect *simulate(const struct sim *s)
{
	struct bisect *b = bisect_new(s->n);
	unsigned int boots[64] = { 0 }, ran[64] = { 0 };
	struct err e;
	int steps;

	ck_assert_uint_lt(s->n, 64);
	for (steps = 0; steps < 1000; steps++) {
		struct bisect_next nx = bisect_next(b);
		struct bisect_obs o = { .outcome = BISECT_OK };
		size_t i = nx.index;
		int k;

		if (nx.step == BISECT_DONE)
			return b;
		ck_assert_uint_le(i, s->n);
		if (nx.step == BISECT_BUILD && s->refuse && i >= s->refuse) {
			o.outcome = BISECT_NO_APPLY;
			o.patch = s->refuse;
		} else if (nx.step == BISECT_BUILD && i && i == s->no_build) {
			o.outcome = BISECT_NO_BUILD;
		} else {
			if (i && i == s->bad_boot && !boots[i]++) {
				o.outcome = BISECT_NO_BOOT;
			} else {
				for (k = 0; k < BISECT_N_KINDS; k++)
					o.present[k] = shows(s, k, i);
				if (i && i == s->flaky && !ran[i])
					o.present[BISECT_FAILURE] = true;
				if (i && i == s->uncertain && !ran[i]) {
					o.confirm = true;
					o.present[BISECT_DECISIONS] |= s->ghost;
				}
				ran[i]++;
			}
		}
		ck_assert_int_eq(bisect_record(b, i, &o, &e), 0);
	}
	ck_abort_msg("the planner did not finish in 1000 steps");
	return b;
}

static unsigned int ceil_log2(size_t n)
{
	unsigned int l = 0;

	while (((size_t)1 << l) < n)
		l++;
	return l;
}

/*
 * The bound bisect.c proves: K kinds at different places take at most
 * K * (ceil(log2(n)) - 1) + 1 builds beyond base and tip, one kind
 * ceil(log2(n)), none (or n = 1) none.
 */
static size_t bound(size_t n, unsigned int kinds)
{
	unsigned int l = ceil_log2(n);

	if (!kinds || !l)
		return 0;
	return kinds * (l - 1) + 1;
}

static void check_culprit(struct bisect *b, int kind, size_t c)
{
	struct bisect_culprit r = bisect_culprit(b, kind);

	if (!c) {
		ck_assert_str_eq(bisect_verdict_name(r.verdict), "none");
		return;
	}
	ck_assert_str_eq(bisect_verdict_name(r.verdict), "found");
	ck_assert_uint_eq(r.first, c);
}

static const size_t sizes[] = { 1, 2, 6, 7, 16, 33 };

/* One kind: every position, and none. */
START_TEST(test_one_kind)
{
	size_t si, c;

	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		for (c = 0; c <= sizes[si]; c++) {
			struct sim s = { .n = sizes[si] };
			struct bisect *b;

			s.culprit[BISECT_DECISIONS] = c;
			b = simulate(&s);
			check_culprit(b, BISECT_DECISIONS, c);
			check_culprit(b, BISECT_COST, 0);
			ck_assert_uint_le(bisect_builds(b),
					  bound(s.n, c ? 1 : 0));
			ck_assert_uint_eq(bisect_reruns(b), 0);
			bisect_free(b);
		}
	}
}
END_TEST

/*
 * Two kinds at every pair of positions. For n = 6 the bound,
 * ceil(log2(6)) + 2 = 5, holds as well.
 */
START_TEST(test_two_kinds)
{
	size_t si, d, c;

	for (si = 0; si < ARRAY_SIZE(sizes); si++) {
		size_t n = sizes[si];

		for (d = 0; d <= n; d++) {
			for (c = 0; c <= n; c++) {
				struct sim s = { .n = n };
				struct bisect *b;

				s.culprit[BISECT_DECISIONS] = d;
				s.culprit[BISECT_COST] = c;
				b = simulate(&s);
				check_culprit(b, BISECT_DECISIONS, d);
				check_culprit(b, BISECT_COST, c);
				ck_assert_uint_le(bisect_builds(b),
						  bound(n, !!d + !!c));
				if (n == 6)
					ck_assert_uint_le(bisect_builds(b),
							  ceil_log2(6) + 2);
				bisect_free(b);
			}
		}
	}
}
END_TEST

/* The general bound is reached: culprits 8 and 9 of 16 take 7 builds. */
START_TEST(test_bound_reached)
{
	struct sim s = { .n = 16 };
	struct bisect *b;

	s.culprit[BISECT_DECISIONS] = 8;
	s.culprit[BISECT_COST] = 9;
	b = simulate(&s);
	check_culprit(b, BISECT_DECISIONS, 8);
	check_culprit(b, BISECT_COST, 9);
	ck_assert_uint_eq(bisect_builds(b), bound(16, 2));
	ck_assert_uint_eq(bound(16, 2), 7);
	bisect_free(b);
}
END_TEST

/*
 * A failure kind with a decision kind: every failure seen is booted again
 * once (and repeats), so reruns = the kernels that showed it.
 */
START_TEST(test_failure_confirmed)
{
	size_t n = 7, f, d, i;

	for (f = 0; f <= n; f++) {
		for (d = 0; d <= n; d++) {
			struct sim s = { .n = n };
			struct bisect *b;
			size_t showed = 0;

			s.culprit[BISECT_FAILURE] = f;
			s.culprit[BISECT_DECISIONS] = d;
			b = simulate(&s);
			check_culprit(b, BISECT_FAILURE, f);
			check_culprit(b, BISECT_DECISIONS, d);
			ck_assert_uint_le(bisect_builds(b),
					  bound(n, !!f + !!d));
			for (i = 0; i <= n; i++)
				if (bisect_seen(b, i, BISECT_FAILURE) ==
				    BISECT_PRESENT)
					showed++;
			ck_assert_uint_eq(bisect_reruns(b), showed);
			bisect_free(b);
		}
	}
}
END_TEST

/* A failure that does not repeat decides nothing: no culprit is made up. */
START_TEST(test_flaky)
{
	struct sim s = { .n = 6, .flaky = 3 };
	struct bisect *b;
	struct bisect_culprit r;

	/* Kernel 3 is built for the decisions (the middle of 0..6). */
	s.culprit[BISECT_DECISIONS] = 4;
	b = simulate(&s);
	check_culprit(b, BISECT_DECISIONS, 4);
	check_culprit(b, BISECT_FAILURE, 0);
	ck_assert_int_eq(bisect_seen(b, 3, BISECT_FAILURE), BISECT_FLAKY);
	ck_assert_uint_eq(bisect_reruns(b), 1);
	bisect_free(b);

	/*
	 * A real failure from patch 4, a flaky one in kernel 3: the step at 3
	 * is inconclusive, so no patch is named, not a guess.
	 */
	s.culprit[BISECT_DECISIONS] = 0;
	s.culprit[BISECT_FAILURE] = 4;
	b = simulate(&s);
	r = bisect_culprit(b, BISECT_FAILURE);
	ck_assert_str_eq(bisect_verdict_name(r.verdict), "inconclusive");
	ck_assert_uint_eq(r.first, 3);
	ck_assert_uint_eq(r.last, 4);
	bisect_free(b);

	/* The tip's failure does not repeat: inconclusive there. */
	s.culprit[BISECT_FAILURE] = 0;
	s.flaky = 6;
	b = simulate(&s);
	r = bisect_culprit(b, BISECT_FAILURE);
	ck_assert_str_eq(bisect_verdict_name(r.verdict), "inconclusive");
	ck_assert_uint_eq(r.first, 6);
	ck_assert_uint_eq(bisect_builds(b), 0);
	bisect_free(b);
}
END_TEST

/*
 * A boot that decides nothing alone (a record on one side only: a crash
 * or a timeout may have taken it) is booted again, whatever it showed,
 * and only what repeats counts.
 */
START_TEST(test_uncertain)
{
	struct sim s = { .n = 6, .uncertain = 3 };
	struct bisect *b;
	struct bisect_culprit r;

	/* Real: kernel 3's changed decisions repeat, patch 3 is named. */
	s.culprit[BISECT_DECISIONS] = 3;
	b = simulate(&s);
	check_culprit(b, BISECT_DECISIONS, 3);
	ck_assert_int_eq(bisect_seen(b, 3, BISECT_DECISIONS), BISECT_PRESENT);
	ck_assert_uint_eq(bisect_reruns(b), 1);
	bisect_free(b);

	/* A ghost in kernel 3 beside the real change of patch 4. */
	s.culprit[BISECT_DECISIONS] = 4;
	s.ghost = true;
	b = simulate(&s);
	ck_assert_int_eq(bisect_seen(b, 3, BISECT_DECISIONS), BISECT_FLAKY);
	r = bisect_culprit(b, BISECT_DECISIONS);
	ck_assert_str_eq(bisect_verdict_name(r.verdict), "inconclusive");
	ck_assert_uint_eq(r.first, 3);
	bisect_free(b);

	/* A ghost alone, in the tip: no culprit, inconclusive there. */
	s.culprit[BISECT_DECISIONS] = 0;
	s.uncertain = 6;
	b = simulate(&s);
	r = bisect_culprit(b, BISECT_DECISIONS);
	ck_assert_str_eq(bisect_verdict_name(r.verdict), "inconclusive");
	ck_assert_uint_eq(r.first, 6);
	bisect_free(b);

	/* A ghost outside the culprit's interval changes nothing. */
	s.uncertain = 1;
	s.culprit[BISECT_DECISIONS] = 5;
	b = simulate(&s);
	check_culprit(b, BISECT_DECISIONS, 5);
	bisect_free(b);
}
END_TEST

/*
 * Patch 3 of 6 does not apply: kernels 3..6 cannot exist, kernel 2 is the
 * tip, and a change after it cannot be seen.
 */
START_TEST(test_refused)
{
	struct sim s = { .n = 6, .refuse = 3 };
	struct bisect *b;
	size_t i, c;

	for (c = 0; c <= 6; c++) {
		s.culprit[BISECT_DECISIONS] = c;
		b = simulate(&s);
		ck_assert_uint_eq(bisect_refused(b), 3);
		ck_assert_int_eq(bisect_kernel_state(b, 3), BISECT_REFUSED);
		for (i = 4; i <= 6; i++)
			ck_assert_int_eq(bisect_kernel_state(b, i),
					 BISECT_MISSING);
		check_culprit(b, BISECT_DECISIONS, c < 3 ? c : 0);
		bisect_free(b);
	}
	/* The first patch refused: nothing beyond the base. */
	s.refuse = 1;
	s.culprit[BISECT_DECISIONS] = 1;
	b = simulate(&s);
	ck_assert_str_eq(bisect_verdict_name(
				 bisect_culprit(b, BISECT_DECISIONS).verdict),
			 "unknown");
	bisect_free(b);
}
END_TEST

/* A kernel that does not build: its neighbour is built instead. */
START_TEST(test_no_build)
{
	struct sim s = { .n = 6, .no_build = 3 };
	struct bisect *b;
	struct bisect_culprit r;
	size_t c;

	for (c = 1; c <= 6; c++) {
		s.culprit[BISECT_DECISIONS] = c;
		b = simulate(&s);
		ck_assert_int_eq(bisect_kernel_state(b, 3), BISECT_UNBUILT);
		r = bisect_culprit(b, BISECT_DECISIONS);
		/* 3 itself, or 4 with 3 unobservable: one of 3..4. */
		if (c == 3 || c == 4) {
			ck_assert_str_eq(bisect_verdict_name(r.verdict),
					 "range");
			ck_assert_uint_eq(r.first, 3);
			ck_assert_uint_eq(r.last, 4);
		} else {
			check_culprit(b, BISECT_DECISIONS, c);
		}
		bisect_free(b);
	}
	/* The tip does not build: kernel 5 stands for it. */
	s.no_build = 6;
	s.culprit[BISECT_DECISIONS] = 2;
	b = simulate(&s);
	check_culprit(b, BISECT_DECISIONS, 2);
	ck_assert_int_eq(bisect_kernel_state(b, 6), BISECT_UNBUILT);
	ck_assert_int_eq(bisect_kernel_state(b, 5), BISECT_OBSERVED);
	bisect_free(b);
}
END_TEST

/* One bad boot is retried, not read as the kernel's result. */
START_TEST(test_bad_boot)
{
	struct sim s = { .n = 6, .bad_boot = 3 };
	struct bisect *b;

	s.culprit[BISECT_DECISIONS] = 3;
	b = simulate(&s);
	check_culprit(b, BISECT_DECISIONS, 3);
	ck_assert_uint_eq(bisect_reruns(b), 1);
	bisect_free(b);
}
END_TEST

/* A kind that comes and goes is reported, and the planner ends. */
START_TEST(test_inconsistent)
{
	struct sim s = { .n = 6 };
	struct bisect *b;
	struct bisect_culprit r;

	/* Decisions change in 1..5 only; the cost makes kernel 3 built. */
	s.culprit[BISECT_DECISIONS] = 1;
	s.vanish[BISECT_DECISIONS] = 6;
	s.culprit[BISECT_COST] = 4;
	b = simulate(&s);
	r = bisect_culprit(b, BISECT_DECISIONS);
	ck_assert_str_eq(bisect_verdict_name(r.verdict), "inconsistent");
	ck_assert_uint_eq(r.first, 3);
	ck_assert_uint_eq(r.last, 6);
	check_culprit(b, BISECT_COST, 4);
	bisect_free(b);
}
END_TEST

/* A failure of the base's own, confirmed, is not bisected. */
START_TEST(test_preexisting)
{
	struct bisect *b = bisect_new(4);
	struct bisect_obs o = { .outcome = BISECT_OK };
	struct bisect_next nx;
	struct err e;

	o.present[BISECT_FAILURE] = true;
	nx = bisect_next(b);
	ck_assert_int_eq(nx.step, BISECT_BUILD);
	ck_assert_uint_eq(nx.index, 0);
	ck_assert_int_eq(bisect_record(b, 0, &o, &e), 0);
	nx = bisect_next(b);
	ck_assert_int_eq(nx.step, BISECT_RERUN);
	ck_assert_uint_eq(nx.index, 0);
	ck_assert_int_eq(bisect_record(b, 0, &o, &e), 0);
	ck_assert_str_eq(
		bisect_verdict_name(bisect_culprit(b, BISECT_FAILURE).verdict),
		"preexisting");
	bisect_free(b);
}
END_TEST

/* Recording anything but the planned step is refused in one line. */
START_TEST(test_record_errors)
{
	struct bisect *b = bisect_new(4);
	struct bisect_obs o = { .outcome = BISECT_OK };
	struct err e;

	ck_assert_int_eq(bisect_record(b, 0, &o, &e), -1);
	ck_assert_str_eq(e.msg, "kernel 0 is not the planned step");
	bisect_next(b);
	ck_assert_int_eq(bisect_record(b, 2, &o, &e), -1);
	ck_assert_int_eq(bisect_record(b, 0, &o, &e), 0);
	/* The tip refuses patch 5 of 4: no such patch. */
	ck_assert_uint_eq(bisect_next(b).index, 4);
	o.outcome = BISECT_NO_APPLY;
	o.patch = 5;
	ck_assert_int_eq(bisect_record(b, 4, &o, &e), -1);
	ck_assert_ptr_null(strchr(e.msg, '\n'));
	bisect_free(b);
}
END_TEST

int main(void)
{
	return CHECK_RUN("bisect", test_one_kind, test_two_kinds,
			 test_bound_reached, test_failure_confirmed, test_flaky,
			 test_uncertain, test_refused, test_no_build,
			 test_bad_boot, test_inconsistent, test_preexisting,
			 test_record_errors);
}
