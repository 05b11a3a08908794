// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/analysis/uncovered.c: the functions of a file
 * that a coverage run never called, each with the hook table's verdict
 * on the hook it implements.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <ctype.h>
#include <fnmatch.h>
#include <glob.h>
#include <stdio.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "check_run.h"
#include "tree_hooks.h"

/*
 * Five functions: one called, four never (a listed hook, a gap, a helper
 * with a reason of its own, one without).
 */
static const char info[] = "SF:/t/security/selinux/hooks.c\n"
			   "FN:10,selinux_quotactl\n"
			   "FN:20,selinux_uring_allowed\n"
			   "FN:30,selinux_file_open\n"
			   "FN:40,sctp_helper\n"
			   "FN:50,selinux_init\n"
			   "FNDA:0,selinux_quotactl\n"
			   "FNDA:0,selinux_uring_allowed\n"
			   "FNDA:7,selinux_file_open\n"
			   "FNDA:0,sctp_helper\n"
			   "FNDA:0,selinux_init\n"
			   "FNF:5\n"
			   "FNH:1\n"
			   "DA:10,0\n"
			   "LF:1\n"
			   "LH:0\n"
			   "end_of_record\n";

static const struct hook_verdict verdicts[] = {
	{ "quotactl", "selinux_quotactl", "cannot drive", "no quotas", false },
	{ "uring_allowed", "selinux_uring_allowed",
	  "gap: called, no decision recorded", "-", true },
	{ "file_open", "selinux_file_open", "both", "-", false },
};

/* A helper's reasons: the same list as hook-reasons.tsv, by function. */
static const char helper_list[] =
	"apparmor\tsctp_*\tcannot-drive\tAppArmor's, not SELinux's\n"
	"selinux\t*_init\tboot-only\truns at boot, __init\n";

START_TEST(test_rows)
{
	struct uncovered_sum sum = { 0 };
	struct hookreasons helpers;
	struct sbuf out = { 0 };
	struct lcov l;
	char err[128];

	ck_assert_int_eq(lcov_parse(info, strlen(info), &l, err, sizeof(err)),
			 0);
	ck_assert_int_eq(hookreasons_parse(helper_list, strlen(helper_list),
					   &helpers, err, sizeof(err)),
			 0);
	uncovered_rows(&l.files[0], "security/selinux/hooks.c", verdicts,
		       ARRAY_SIZE(verdicts), &helpers, "selinux", &out, &sum);
	ck_assert_str_eq(
		out.buf,
		"security/selinux/hooks.c\tselinux_quotactl\t10\tquotactl\tcannot drive\tno quotas\n"
		"security/selinux/hooks.c\tselinux_uring_allowed\t20\turing_allowed\tgap: called, no decision recorded\t-\n"
		"security/selinux/hooks.c\tsctp_helper\t40\t-\tno hook\t-\n"
		"security/selinux/hooks.c\tselinux_init\t50\t-\tboot only\truns at boot, __init\n");
	ck_assert_uint_eq(sum.never, 4);
	ck_assert_uint_eq(sum.reasoned, 1);
	ck_assert_uint_eq(sum.gap, 1);
	ck_assert_uint_eq(sum.helper_reasoned, 1);
	ck_assert_uint_eq(sum.helper, 1);
	sbuf_free(&out);
	hookreasons_free(&helpers);
	lcov_free(&l);
}
END_TEST

/* A file whose every function ran adds nothing. */
START_TEST(test_all_called)
{
	static const char all[] = "SF:/t/security/apparmor/ipc.c\n"
				  "FN:5,aa_may_signal\n"
				  "FNDA:3,aa_may_signal\n"
				  "FNF:1\n"
				  "FNH:1\n"
				  "end_of_record\n";
	struct uncovered_sum sum = { 0 };
	struct sbuf out = { 0 };
	struct lcov l;
	char err[128];

	ck_assert_int_eq(lcov_parse(all, strlen(all), &l, err, sizeof(err)), 0);
	uncovered_rows(&l.files[0], "security/apparmor/ipc.c", NULL, 0, NULL,
		       "apparmor", &out, &sum);
	ck_assert_uint_eq(out.len, 0);
	ck_assert_uint_eq(sum.never, 0);
	sbuf_free(&out);
	lcov_free(&l);
}
END_TEST

/*
 * Whether @text defines (or declares) a function whose name @pattern
 * matches: a line that starts with a letter, the name the identifier
 * just before its first '('.
 */
static bool defines(const char *text, const char *pattern)
{
	const char *line = text;

	for (; *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : "") {
		const char *paren = strchr(line, '('), *nl = strchr(line, '\n');
		const char *b;
		char name[128];

		if (!isalpha((unsigned char)*line) || !paren ||
		    (nl && paren > nl))
			continue;
		for (b = paren; b > line &&
				(isalnum((unsigned char)b[-1]) || b[-1] == '_');
		     b--)
			;
		if (paren - b <= 0 || (size_t)(paren - b) >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(paren - b), b);
		if (!fnmatch(pattern, name, 0))
			return true;
	}
	return false;
}

/* Whether a C file of @lsm's in the tree @ksrc defines one @pattern names. */
static bool tree_defines(const char *ksrc, const char *lsm, const char *pattern)
{
	static const char *const dirs[] = { "%s/security/%s/*.c",
					    "%s/security/%s/*/*.c" };
	bool found = false;
	size_t d, i;

	for (d = 0; !found && d < ARRAY_SIZE(dirs); d++) {
		char *files = xasprintf(dirs[d], ksrc, lsm);
		glob_t g;

		if (!glob(files, 0, NULL, &g)) {
			for (i = 0; !found && i < g.gl_pathc; i++) {
				char *text = NULL;

				if (!read_file(g.gl_pathv[i], &text, NULL))
					found = defines(text, pattern);
				free(text);
			}
			globfree(&g);
		}
		free(files);
	}
	return found;
}

/*
 * The project's list (fixtures/uncovered-reasons.tsv): it parses, and
 * with the 7.2 tree at hand each row names functions its LSM's files
 * define, none of them a hook's (hook-reasons.tsv lists those).
 */
START_TEST(test_fixture)
{
	struct lsm_hook *h[TREE_LSMS];
	size_t n[TREE_LSMS], i, l, k;
	struct hookreasons t;
	char *text = NULL, *ksrc = NULL, err[256];
	size_t len;

	ck_assert_int_eq(read_file(LSMCONF_ROOT
				   "/fixtures/uncovered-reasons.tsv",
				   &text, &len),
			 0);
	ck_assert_msg(!hookreasons_parse(text, len, &t, err, sizeof(err)), "%s",
		      err);
	free(text);
	if (!tree_hooks(h, n)) {
		hookreasons_free(&t);
		return;
	}
	ck_assert_int_eq(read_file(LSMCONF_ROOT "/build/ksrc", &ksrc, &len), 0);
	while (len && ksrc[len - 1] == '\n')
		ksrc[--len] = '\0';
	for (i = 0; i < t.n; i++) {
		const struct hookreason_row *r = &t.v[i];

		for (l = 0; l < TREE_LSMS; l++) {
			if (strcmp(r->lsm, "*") &&
			    strcmp(r->lsm, tree_lsm_names[l]))
				continue;
			ck_assert_msg(
				tree_defines(ksrc, tree_lsm_names[l], r->hook),
				"line %u: %s names no function of security/%s/",
				r->line, r->hook, tree_lsm_names[l]);
			for (k = 0; k < n[l]; k++)
				ck_assert_msg(
					fnmatch(r->hook, h[l][k].function, 0),
					"line %u: %s is hook %s's (hook-reasons.tsv)",
					r->line, h[l][k].function,
					h[l][k].hook);
		}
	}
	for (l = 0; l < TREE_LSMS; l++)
		lsm_hooks_free(h[l], n[l]);
	free(ksrc);
	hookreasons_free(&t);
}
END_TEST

int main(void)
{
	return CHECK_RUN("uncovered", test_rows, test_all_called, test_fixture);
}
