// SPDX-License-Identifier: GPL-2.0
#include "results.h"
#include "lib/lib.h"

#include <stdio.h>
#include <string.h>

/* kselftest exit codes (kselftest.h) */
#define KSFT_PASS 0
#define KSFT_FAIL 1
#define KSFT_SKIP 4

static void problem(struct test_account *t, const char *fmt, const char *a,
		    long b)
{
	/* The first problem found is the one reported. */
	if (!t->problem[0])
		snprintf(t->problem, sizeof(t->problem), fmt, a, b);
}

void account_crash(struct test_account *t, bool framed, char *const *crashed,
		   size_t n_crashed, int boot, const char *why)
{
	if (n_crashed) {
		t->fail += n_crashed;
		/* Its live output left the running case unreported. */
		if (!framed)
			t->lost -= t->lost < n_crashed ? t->lost : n_crashed;
		snprintf(t->problem, sizeof(t->problem),
			 "case %s brought the kernel down (boot %d: %.150s)",
			 crashed[n_crashed - 1], boot, why);
	} else if (!framed && why[0]) {
		snprintf(t->problem, sizeof(t->problem),
			 "the boot ended in it (boot %d: %.190s)", boot, why);
	}
}

void account_known_crash(struct test_account *t, bool framed, size_t n)
{
	t->known += n;
	if (!framed)
		t->lost -= t->lost < n ? t->lost : n;
}

void account_test(struct test_account *t)
{
	const struct ktap_doc *d = &t->doc;
	size_t reported = t->have_ktap ? d->n_results : 0;
	long plan = t->have_ktap ? d->plan : -1;

	t->pass = t->fail = t->skip = t->lost = 0;
	t->problem[0] = '\0';
	if (t->have_ktap) {
		t->pass = d->pass + d->xfail;
		t->fail = d->fail - (t->known < d->fail ? t->known : d->fail);
		t->skip = d->skip;
	}

	/* Cases the plan promised but nobody reported are lost. */
	if (plan >= 0 && (size_t)plan > reported)
		t->lost = plan - reported;
	if (t->have_ktap && d->skip_all && !reported)
		t->skip = 1;

	if (t->rc == RC_NEVER) {
		problem(t,
			"%snever finished (the guest died or its results were lost)",
			"", 0);
	} else if (t->rc == 128 + 9) {
		problem(t, "%skilled after the per-test timeout of %ld s", "",
			t->timeout_s);
	} else if (t->rc > 128) {
		problem(t, "%skilled by signal %ld", "", t->rc - 128);
	}
	if (!t->have_ktap || (plan < 0 && !reported && !d->skip_all)) {
		problem(t, "%sproduced no KTAP output", "", 0);
		/* A binary that said nothing is one lost case, not zero. */
		if (!t->lost && !t->pass && !t->fail && !t->skip)
			t->lost = 1;
	}
	if (!t->have_ktap)
		goto rc;
	/*
	 * Every test of the suite records what it decided (or measured): one
	 * that planned cases and recorded nothing decided nothing, whether
	 * its cases were skipped or passed without reaching a decision, and
	 * two kernels where it did so would compare as identical. Unless
	 * the boot was one where the tests skip, as upstream expects (no
	 * LSM, no parser, no privilege) and some of its cases did.
	 */
	if (t->counted && !t->records && plan > 0 &&
	    !(t->skip_expected && t->skip))
		problem(t, "%splanned %ld cases and recorded no decision", "",
			plan);
	if (plan < 0 && reported)
		problem(t, "%sKTAP output has no plan line", "", 0);
	if (plan >= 0 && (size_t)plan < reported)
		problem(t, "%sreported %ld results, more than its plan", "",
			(long)reported);
	if (d->truncated_line)
		problem(t, "%sKTAP output ends in a truncated line", "", 0);
	if (d->malformed)
		problem(t, "%sKTAP output has %ld malformed lines", "",
			(long)d->malformed);
	if (d->duplicate_numbers || d->out_of_order)
		problem(t, "%sKTAP test numbers repeat or are out of order", "",
			0);
	if (d->bailed_out)
		problem(t, "%sbailed out", "", 0);
	/* kselftest counts XPASS and errors apart; the parser sees ok/not ok. */
	if (d->has_totals &&
	    (d->totals_pass + d->totals_xfail + d->totals_xpass !=
		     (long)t->pass ||
	     d->totals_fail + d->totals_error != (long)(t->fail + t->known) ||
	     d->totals_skip != (long)t->skip))
		problem(t, "%s\"# Totals\" line disagrees with the results", "",
			0);
rc:
	/* The exit status must agree with the results (kselftest codes). */
	if (t->rc >= 0 && t->rc <= 128) {
		/* A known bug's case failed in the guest all the same. */
		size_t failed = t->fail + t->known;

		if (failed && t->rc == KSFT_PASS)
			problem(t, "%sexited 0 although %ld cases failed", "",
				(long)failed);
		else if (!failed && t->rc != KSFT_PASS && t->rc != KSFT_SKIP)
			problem(t,
				"%sexited with status %ld but no case failed",
				"", t->rc);
	}
}

bool account_ok(const struct test_account *t)
{
	return !t->fail && !t->lost && !t->problem[0];
}

void totals_add(struct run_totals *sum, const struct test_account *t)
{
	sum->pass += t->pass;
	sum->fail += t->fail;
	sum->skip += t->skip;
	sum->lost += t->lost;
	sum->known += t->known;
	sum->problems += t->problem[0] != '\0';
}

/* True when @cmdline has a word that starts with @key. */
static bool has_key(const char *cmdline, const char *key)
{
	const char *p;

	for (p = cmdline; (p = strstr(p, key)); p++)
		if (p == cmdline || strchr(" '\"", p[-1]))
			return true;
	return false;
}

const char *skip_expected(const char *lsm_list, const char *lsm,
			  const char *cmdline)
{
	if (lsm_list && lsm && !lsm_listed(lsm_list, lsm))
		return "its LSM is not active in the guest";
	if (cmdline && has_key(cmdline, "lsmconf.user="))
		return "the tests ran as a user (lsmconf.user=)";
	if (cmdline && has_key(cmdline, "lsmconf.hide="))
		return "a program was hidden (lsmconf.hide=)";
	return NULL;
}
