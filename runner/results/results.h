/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The results layer's API: what a boot's output means. KTAP parsing
 * (ktap.h), decision records (records.h) and their comparison
 * (compare.h), and here the accounting: every planned test ends as pass,
 * fail, skip or lost, and every way a test binary can misbehave is a
 * named problem. Pure of I/O (but for saved.c, which reads saved results
 * directories back); uses lib/ only.
 */
#ifndef LSMCONF_RESULTS_H
#define LSMCONF_RESULTS_H

#include <stdbool.h>
#include <stddef.h>

#include "abi.h"
#include "bugreport.h"
#include "compare.h"
#include "identity.h"
#include "kcidb.h"
#include "known.h"
#include "ksft.h"
#include "ktap.h"
#include "records.h"
#include "saved.h"
#include "table.h"
#include "timing.h"

#define RC_NEVER (-1) /* the guest never recorded an exit status */

struct test_account {
	const char *name;
	int rc; /* exit status recorded in the guest, or RC_NEVER */
	int timeout_s; /* the per-test bound it ran under */
	double seconds; /* guest time it took, < 0 when unknown */
	bool have_ktap;
	struct ktap_doc doc;
	/*
	 * Failed cases a known kernel bug explains (known.h), set before
	 * account_test(): they count here, not as failures.
	 */
	size_t known;
	/* Derived by account_test(); xfail counts as pass. */
	size_t pass, fail, skip, lost;
	char problem[256]; /* binary-level failure, "" when none */
	/*
	 * Lines it wrote to its records.tsv (decisions) and samples files,
	 * when @counted (its results arrived); set before account_test().
	 */
	bool counted;
	size_t records;
	/*
	 * Set before account_test() when the boot could not let the tests
	 * decide (their LSM not active, the tests run as a user, a program
	 * hidden): a test that skipped cases may then record nothing.
	 */
	bool skip_expected;
};

/* Fills the derived fields of @t from rc and the parsed KTAP. */
void account_test(struct test_account *t);
/* True when the test binary neither failed nor lost a case nor misbehaved. */
bool account_ok(const struct test_account *t);
/*
 * Why every test of a boot may skip, as upstream expects, or NULL: @lsm
 * (the boot's suite) is not in @lsm_list (the guest's active LSMs,
 * comma-separated), or @cmdline (the boot's QEMU command line) runs the
 * tests as a user (lsmconf.user=) or hides a program (lsmconf.hide=).
 * A NULL list or command line says nothing.
 */
const char *skip_expected(const char *lsm_list, const char *lsm,
			  const char *cmdline);

/*
 * A test a boot ended in, after account_test(): each of the @n_crashed
 * cases that brought the kernel down (in boot @boot, which ended as @why)
 * failed, and is no longer lost when its results never arrived (@framed
 * false); with no crashed case, a boot that ended in it (@why not "") is
 * its problem.
 */
void account_crash(struct test_account *t, bool framed, char *const *crashed,
		   size_t n_crashed, int boot, const char *why);

/*
 * After account_crash(): @n cases of @t that brought the kernel down are a
 * known kernel bug's (known.h): they count as known, not as failed, and are
 * no longer lost when the test's results never arrived (@framed false).
 */
void account_known_crash(struct test_account *t, bool framed, size_t n);

struct run_totals {
	size_t pass, fail, skip, lost, known, problems;
};
void totals_add(struct run_totals *sum, const struct test_account *t);

#endif
