// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/series_report.h"
#include "lib/util.h"

/*
 * The rule of a patch line: number (2, right), apply and build (3 each),
 * decisions (10), cost (21), one space after each, then the subject.
 */
static char *row(const char *num, const char *app, const char *bld,
		 const char *dec, const char *cost, const char *subject)
{
	return xasprintf("%2s %-3s %-3s %-10s %-21s %s\n", num, app, bld, dec,
			 cost, subject);
}

static const char *const cases[] = { "unix_peer_test/a", "unix_peer_test/b",
				     "unix_peer_test/c" };
static const char *const kernels[] = { "base: tree /k" };
static const char *const commands[] = { "make x" };

START_TEST(test_small)
{
	struct series_report_patch p[] = {
		{ .number = 1,
		  .subject = "apparmor: rename",
		  .built = true,
		  .observed = true,
		  .has_cost = true,
		  .cost_pct = 0.2,
		  .cost_lo = -0.4,
		  .cost_hi = 0.8 },
		{ .number = 2, .subject = "apparmor: skip", .built = false },
		{ .number = 3,
		  .subject = "apparmor: deny",
		  .built = true,
		  .observed = true,
		  .n_changed = 3 },
	};
	struct series_report_culprit c = { .kind = "decisions changed",
					   .first = 3,
					   .last = 3,
					   .subject = "apparmor: deny",
					   .cases = cases,
					   .n_cases = 3 };
	struct series_report r = { .patches = p,
				   .n_patches = 3,
				   .culprits = &c,
				   .n_culprits = 1,
				   .max_cases = 2,
				   .kernels = kernels,
				   .n_kernels = 1,
				   .commands = commands,
				   .n_commands = 1 };
	char *r1 = row("#", "app", "bld", "decisions", "cost [95% interval]",
		       "subject");
	char *r2 = row("1", "yes", "yes", "same", "+0.20% [-0.40,+0.80]",
		       "apparmor: rename");
	/* Skipped by the bisection: "-" for what it did not see. */
	char *r3 = row("2", "yes", "-", "-", "-", "apparmor: skip");
	char *r4 = row("3", "yes", "yes", "3 changed", "-", "apparmor: deny");
	char *want, *got;

	/* Two of three cases shown (max_cases), then how many more. */
	want = xasprintf("Series of 3 patches, each against the base:\n"
			 "%s%s%s%s"
			 "(-: not built, the bisection skipped it)\n\n"
			 "Culprits:\n"
			 "  decisions changed: patch 3/3 \"apparmor: deny\"\n"
			 "    cases:\n"
			 "      unix_peer_test/a\n"
			 "      unix_peer_test/b\n"
			 "      (and 1 more)\n"
			 "\nKernels:\n  base: tree /k\n"
			 "\nTo reproduce:\n  make x\n",
			 r1, r2, r3, r4);
	got = series_report_text(&r);
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(series_report_exit(&r), 1);
	free(got);
	free(want);
	free(r1);
	free(r2);
	free(r3);
	free(r4);
}
END_TEST

/* Nothing changed: exit 0; a refused patch or a failed build: 1. */
/* A step that did not repeat names no patch, and fails the run. */
START_TEST(test_inconclusive)
{
	struct series_report_patch p[] = {
		{ .number = 1,
		  .subject = "a",
		  .built = true,
		  .observed = true },
		{ .number = 2,
		  .subject = "b",
		  .built = true,
		  .observed = true },
	};
	struct series_report_culprit c = { .kind = "decisions changed",
					   .first = 1,
					   .last = 2,
					   .inconclusive = true,
					   .subject = "a",
					   .cases = cases,
					   .n_cases = 1 };
	struct series_report r = {
		.patches = p, .n_patches = 2, .culprits = &c, .n_culprits = 1
	};
	char *text = series_report_text(&r);

	ck_assert_ptr_nonnull(strstr(text, "inconclusive at patch 1/2"));
	ck_assert_ptr_null(strstr(text, "decisions changed: patch 1/2"));
	ck_assert_int_eq(series_report_exit(&r), 1);
	free(text);
}
END_TEST

START_TEST(test_exit)
{
	struct series_report_patch p = { .number = 1,
					 .subject = "x",
					 .built = true,
					 .observed = true,
					 .has_cost = true,
					 .cost_pct = 0.1 };
	struct series_report r = { .patches = &p, .n_patches = 1 };
	char *text;

	ck_assert_int_eq(series_report_exit(&r), 0);
	p.cost_significant = true;
	ck_assert_int_eq(series_report_exit(&r), 1);
	p.cost_significant = false;
	p.apply = SERIES_REFUSED;
	ck_assert_int_eq(series_report_exit(&r), 1);
	p.apply = SERIES_APPLIES;
	p.build_failed = true;
	ck_assert_int_eq(series_report_exit(&r), 1);
	/* Built, but no boot reached its tests: named, and a failure. */
	p.build_failed = false;
	p.built = true;
	p.boot_failed = true;
	ck_assert_int_eq(series_report_exit(&r), 1);
	text = series_report_text(&r);
	ck_assert_ptr_nonnull(strstr(text, " yes no boot "));
	free(text);
	/* Three digits of changes keep the columns in place. */
	p.boot_failed = false;
	p.n_changed = 118;
	text = series_report_text(&r);
	ck_assert_ptr_nonnull(strstr(text, " yes 118 chg    +0.10%"));
	free(text);
}
END_TEST

static char *repeat(const char *word, int n)
{
	struct sbuf sb = { 0 };
	int i;

	for (i = 0; i < n; i++)
		sbuf_printf(&sb, "%s%s", i ? " " : "", word);
	return sb.buf;
}

/*
 * A culprit line filled to exactly 72 columns by a word: the next word
 * goes on the next line (the room left is 0, not negative).
 */
START_TEST(test_exact_fill)
{
	struct series_report_patch p[6];
	struct series_report_culprit c = {
		.kind = "cost per message",
		.first = 3,
		.last = 3,
		.subject =
			"apparmor: match pathname peers by address in profile_peer_perm()",
	};
	struct series_report r = {
		.patches = p, .n_patches = 6, .culprits = &c, .n_culprits = 1
	};
	char *text, *line, *save = NULL;
	unsigned int i;

	memset(p, 0, sizeof(p));
	for (i = 0; i < 6; i++) {
		p[i].number = i + 1;
		p[i].subject = "x";
	}
	text = series_report_text(&r);

	ck_assert_ptr_nonnull(strstr(
		text,
		"\n  cost per message: patch 3/6 \"apparmor: match pathname peers by address\n    in profile_peer_perm()\"\n"));
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		ck_assert_uint_le(strlen(line), SERIES_REPORT_COLS);
	free(text);
}
END_TEST

/*
 * Long subjects, case names, identities and commands: every line at most
 * 72 columns, a cut one ends with "...", and a wrapped command ends its
 * lines with " \" so it stays one command.
 */
START_TEST(test_width)
{
	char *subject = repeat("apparmor:", 20), *longcase = repeat("x", 60);
	char *cmd = repeat("--option=value", 12), *ident = repeat("k", 50);
	char *word = xmalloc(100), *text, *line, *save = NULL;
	const char *cs[] = { NULL, "short" }, *ks[1], *cm[1];
	struct series_report_patch p = { .number = 12,
					 .subject = subject,
					 .built = true,
					 .observed = true,
					 .n_changed = 1234,
					 .has_cost = true,
					 .cost_pct = -123.4,
					 .cost_lo = -150.5,
					 .cost_hi = -100.25 };
	struct series_report_culprit c = { .kind = "decisions changed",
					   .first = 11,
					   .last = 12,
					   .subject = subject,
					   .cases = cs,
					   .n_cases = 2 };
	struct series_report r = { .patches = &p,
				   .n_patches = 1,
				   .culprits = &c,
				   .n_culprits = 1,
				   .kernels = ks,
				   .n_kernels = 1,
				   .commands = cm,
				   .n_commands = 1 };
	bool cut = false, cont = false;

	memset(word, 'y', 99);
	word[99] = '\0';
	/* One word longer than a line: cut, not overflowing. */
	cs[0] = word;
	ks[0] = ident;
	cm[0] = cmd;
	text = series_report_text(&r);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t len = strlen(line);

		ck_assert_msg(len <= SERIES_REPORT_COLS, "%zu columns: %s", len,
			      line);
		if (len >= 3 && !strcmp(line + len - 3, "..."))
			cut = true;
		if (strstr(line, "--option") && len >= 2 &&
		    !strcmp(line + len - 2, " \\"))
			cont = true;
	}
	ck_assert(cut);
	ck_assert(cont);
	free(text);
	free(subject);
	free(longcase);
	free(cmd);
	free(ident);
	free(word);
}
END_TEST

int main(void)
{
	return CHECK_RUN("series_report", test_small, test_exit,
			 test_inconclusive, test_exact_fill, test_width);
}
