// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/results/bugreport.c: a known kernel bug as a
 * mail, its addresses split between To: and Cc:, its text filled to 72
 * columns, and the kernel file its function: names.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "results/results.h"
#include "lib/lib.h"
#include "check_run.h"

static struct known_bug make_bug(const char *function, const char *observed)
{
	return (struct known_bug){
		.name = "apparmor-a-thing-broken",
		.kernels = "7.2.13+deb14-amd64",
		.cases = "x_test/x.case",
		.decisions = "x_test/x.case/op",
		.observed = (char *)observed,
		.fatal = "BUG: kernel NULL pointer dereference",
		.trace = "f g",
		.function = (char *)function,
		.evidence =
			"a task does a thing the rules refuse, and the kernel lets it do the thing anyway, which it must not, because the rule says so in so many words.",
		.reproduce = "lsmconf run x",
		.report = "-",
	};
}

#define HEAD                                      \
	"To: A B <a@x.org>, \"C, D\" <c@x.org>\n" \
	"Cc: l@lists.x.org\n"                     \
	"Subject: [BUG] apparmor: f_one(): a thing broken\n\n"

START_TEST(test_report)
{
	struct known_bug b =
		make_bug("f_one() (security/apparmor/x.c)", "allow");
	struct bug_files f = {
		.maintainers =
			"A B <a@x.org>\n\"C, D\" <c@x.org>\nl@lists.x.org\n",
		.repro_c = "int main(void)\n{\n\treturn 0;\n}\n",
		.repro_profile = "profile p {\n}\n",
	};
	char *r = bug_report(&b, &f);
	const char *body = strstr(r, "\n\n"), *p;

	ck_assert_ptr_nonnull(body);
	ck_assert(!strncmp(r, HEAD, strlen(HEAD)));
	/* The evidence filled to 72 columns, its first letter upper case. */
	ck_assert_ptr_nonnull(strstr(r, "\nA task does a thing"));
	for (p = body; *p && strncmp(p, "\n---", 4);
	     p += strcspn(p + 1, "\n") + 1)
		ck_assert_uint_le(strcspn(p + 1, "\n"), 72);
	ck_assert_ptr_nonnull(strstr(
		r,
		"What the kernel does: allow where the rules say otherwise\n"));
	/* The reproducer indented, blank lines left blank. */
	ck_assert_ptr_nonnull(strstr(
		r,
		"--- apparmor-a-thing-broken.c ---\n  int main(void)\n  {\n"));
	ck_assert_ptr_nonnull(strstr(r, "There is no candidate fix yet."));
	free(r);
	/* An oops; no reproducer, a fix. */
	b = make_bug("g() (security/selinux/y.c)", "oops");
	f = (struct bug_files){ .fix = "--- a/y.c\n+++ b/y.c\n" };
	r = bug_report(&b, &f);
	ck_assert_ptr_nonnull(strstr(r, "To: \nCc: \n"));
	/* Filled to 72 columns: the line breaks before "in f g". */
	ck_assert_ptr_nonnull(strstr(
		r, "What the kernel does: an oops, \"BUG: kernel NULL pointer "
		   "dereference\",\nin f g\n"));
	ck_assert_ptr_nonnull(
		strstr(r, "There is no standalone reproducer yet."));
	ck_assert_ptr_nonnull(strstr(r, "\n--- a/y.c\n+++ b/y.c\n"));
	free(r);
}
END_TEST

START_TEST(test_source_file)
{
	struct known_bug b = make_bug(
		"profile_onexec() (security/apparmor/domain.c), called by handle_onexec()",
		"allow");
	char *f = bug_source_file(&b);

	ck_assert_str_eq(f, "security/apparmor/domain.c");
	free(f);
	b.function =
		"aa_label_match() / label_compound_match() (security/apparmor/label.c, 6.1)";
	f = bug_source_file(&b);
	ck_assert_str_eq(f, "security/apparmor/label.c");
	free(f);
	b.function = "none (a fixture.c)";
	ck_assert_ptr_null(bug_source_file(&b));
}
END_TEST

int main(void)
{
	return CHECK_RUN("bugreport", test_report, test_source_file);
}
