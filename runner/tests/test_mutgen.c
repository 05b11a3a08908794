// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/analysis/mutgen.c: each operator's sites in a
 * small C file (comments, strings and preprocessor lines left alone), the
 * seeded draw, and the patch each site makes.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "check_run.h"

static const char src[] = "#include <linux/errno.h>\n" /* 1 */
			  "/* if (a == b) in a comment */\n" /* 2 */
			  "static int f(struct x *p, int a)\n" /* 3 */
			  "{\n" /* 4 */
			  "\tint err;\n" /* 5 */
			  "\n" /* 6 */
			  "\tif (p->n == a) {\n" /* 7 */
			  "\t\tpr_info(\"a == b? %d\", a);\n" /* 8 */
			  "\t\treturn -EACCES;\n" /* 9 */
			  "\t}\n" /* 10 */
			  "\terr = check(p, MAY_READ | MAY_WRITE);\n" /* 11 */
			  "\tif (a < 0 || (a >> 2) != 1)\n" /* 12 */
			  "\t\treturn -EINVAL;\n" /* 13 */
			  "\treturn err; // a comment\n" /* 14 */
			  "}\n"; /* 15 */

/* The site of @op on @line, or NULL; every site's line is checked. */
static const struct mutgen_site *site(const struct mutgen_site *s, size_t n,
				      const char *op, unsigned long line,
				      const char *after)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(s[i].op, op) && s[i].line == line &&
		    !strcmp(s[i].after, after))
			return &s[i];
	return NULL;
}

START_TEST(test_sites)
{
	struct mutgen_site *s;
	size_t n = mutgen_sites(src, &s), i;

	ck_assert_ptr_nonnull(
		site(s, n, "negate-condition", 7, "\tif (!(p->n == a)) {"));
	ck_assert_ptr_nonnull(
		site(s, n, "swap-equality", 7, "\tif (p->n != a) {"));
	ck_assert_ptr_nonnull(
		site(s, n, "swap-errno", 9, "\t\treturn -EPERM;"));
	ck_assert_ptr_nonnull(
		site(s, n, "drop-error-return", 9, "\t\treturn 0;"));
	ck_assert_ptr_nonnull(
		site(s, n, "drop-mask-bit", 11, "\terr = check(p, MAY_READ);"));
	ck_assert_ptr_nonnull(site(s, n, "drop-mask-bit", 11,
				   "\terr = check(p, MAY_WRITE);"));
	ck_assert_ptr_nonnull(site(s, n, "swap-relational", 12,
				   "\tif (a <= 0 || (a >> 2) != 1)"));
	ck_assert_ptr_nonnull(site(s, n, "swap-equality", 12,
				   "\tif (a < 0 || (a >> 2) == 1)"));
	ck_assert_ptr_nonnull(site(s, n, "negate-condition", 12,
				   "\tif (!(a < 0 || (a >> 2) != 1))"));
	ck_assert_ptr_nonnull(
		site(s, n, "swap-errno", 13, "\t\treturn -EACCES;"));
	ck_assert_ptr_nonnull(site(s, n, "return-0-early", 14, "\treturn 0;"));
	ck_assert_ptr_nonnull(site(s, n, "skip-call", 8, "\t\t;"));
	for (i = 0; i < n; i++) {
		/* Nothing in the comment, the #include or the string. */
		ck_assert_uint_ne(s[i].line, 1);
		ck_assert_uint_ne(s[i].line, 2);
		ck_assert_msg(s[i].line != 8 || !strcmp(s[i].op, "skip-call"),
			      "%s on line 8", s[i].op);
		/* ">>" and "->" are no relational operators. */
		if (!strcmp(s[i].op, "swap-relational"))
			ck_assert_msg(s[i].line == 12 &&
					      !strstr(s[i].after, ">>=") &&
					      !strstr(s[i].after, "-=>"),
				      "%s", s[i].after);
	}
	/* Line 12: one <, one !=, one condition; line 7: ==, condition. */
	ck_assert_uint_eq(n, 13);
	mutgen_sites_free(s, n);
}
END_TEST

START_TEST(test_draw)
{
	size_t a[5], b[5], c[10], i, j;

	ck_assert_uint_eq(mutgen_draw(42, 100, 5, a), 5);
	ck_assert_uint_eq(mutgen_draw(42, 100, 5, b), 5);
	ck_assert_mem_eq(a, b, sizeof(a));
	for (i = 0; i < 5; i++) {
		ck_assert_uint_lt(a[i], 100);
		for (j = 0; j < i; j++)
			ck_assert_uint_ne(a[i], a[j]);
	}
	mutgen_draw(43, 100, 5, b);
	ck_assert(memcmp(a, b, sizeof(a)));
	/* More asked than there are: each once. */
	ck_assert_uint_eq(mutgen_draw(7, 10, 50, c), 10);
	for (i = 0; i < 10; i++)
		for (j = 0; j < i; j++)
			ck_assert_uint_ne(c[i], c[j]);
	ck_assert_uint_eq(mutgen_draw(7, 0, 5, c), 0);
}
END_TEST

START_TEST(test_patch)
{
	struct mutgen_site *s;
	size_t n = mutgen_sites(src, &s), i;
	struct err e = { 0 };

	for (i = 0; i < n; i++) {
		char *p = mutgen_patch("security/x/f.c", src, &s[i]);
		char *desc = NULL, *eq = NULL;

		/* A patch the mutant corpus' reader and checker take. */
		ck_assert_msg(diff_check(p, strlen(p), "f.patch", &e) == 1,
			      "%s: %s", p, e.msg);
		ck_assert_int_eq(mutant_header(p, &desc, &eq), 0);
		ck_assert_ptr_nonnull(strstr(desc, s[i].op));
		ck_assert_ptr_nonnull(strstr(desc, "security/x/f.c:"));
		ck_assert_ptr_null(eq);
		ck_assert_str_eq(mutant_lsm(p) ? mutant_lsm(p) : "-", "-");
		free(desc);
		free(p);
	}
	/* Line 9 in the middle of its hunk: lines 6-12. */
	for (i = 0; i < n; i++)
		if (!strcmp(s[i].op, "drop-error-return") && s[i].line == 9)
			break;
	{
		char *p = mutgen_patch("security/apparmor/f.c", src, &s[i]);

		ck_assert_ptr_nonnull(strstr(
			p,
			"generated: drop-error-return at security/apparmor/f.c:9: \"return -EACCES;\" -> \"return 0;\"\n"));
		ck_assert_ptr_nonnull(
			strstr(p, "@@ -6,7 +6,7 @@\n \n \tif (p->n == a) {\n"));
		ck_assert_ptr_nonnull(strstr(
			p, "-\t\treturn -EACCES;\n+\t\treturn 0;\n \t}\n"));
		ck_assert_str_eq(mutant_lsm(p), "apparmor");
		free(p);
	}
	/* Line 1 and the last line: the hunk stops at the file's ends. */
	{
		struct mutgen_site first = { "skip-call", 1, "x;" };
		struct mutgen_site last = { "skip-call", 15, ";" };
		char *p = mutgen_patch("a.c", src, &first);

		ck_assert_ptr_nonnull(strstr(p, "@@ -1,4 +1,4 @@\n-#include"));
		free(p);
		p = mutgen_patch("a.c", src, &last);
		ck_assert_ptr_nonnull(strstr(p, "@@ -12,4 +12,4 @@\n"));
		ck_assert_int_eq(diff_check(p, strlen(p), "a.patch", &e), 1);
		free(p);
	}
	mutgen_sites_free(s, n);
}
END_TEST

/*
 * A generated patch of security/x/@file mutating line 23 (@l[3]), its
 * hunk lines 20 to 26.
 */
static char *hunk(const char *file, const char *const l[7])
{
	return xasprintf(
		"generated: x at security/x/%s:23: \"a\" -> \"b\"\n\n"
		"--- a/security/x/%s\n+++ b/security/x/%s\n"
		"@@ -20,7 +20,7 @@\n %s\n %s\n %s\n-%s\n+b\n %s\n %s\n %s\n",
		file, file, file, l[0], l[1], l[2], l[3], l[4], l[5], l[6]);
}

/* Mutant @file's class by the hunk @l. */
static enum mutgen_gap gap_of(const struct lcov *cov, const char *file,
			      const char *const l[7], struct mutgen_gap_of *of)
{
	char *p = hunk(file, l);
	enum mutgen_gap g = mutgen_gap(p, p, cov, of);

	free(p);
	return g;
}

START_TEST(test_gap)
{
	static const char info[] =
		"SF:/t/o/../security/x/f.c\nDA:7,3\nDA:9,0\nend_of_record\n"
		"SF:/t/security/x/mask.c\nDA:20,2\nend_of_record\n"
		"SF:/t/security/x/unrun.c\nDA:22,0\nend_of_record\n"
		"SF:/t/security/x/oneway.c\nBRDA:22,0,0,4\nBRDA:22,0,1,0\n"
		"DA:22,4\nend_of_record\n"
		"SF:/t/security/x/both.c\nBRDA:21,0,0,5\nBRDA:21,0,1,0\n"
		"BRDA:22,0,0,3\nBRDA:22,0,1,2\nDA:21,5\nDA:22,5\n"
		"end_of_record\n"
		"SF:/t/security/x/fresh.c\nDA:22,1\nend_of_record\n"
		"SF:/t/security/x/cond.c\nBRDA:20,0,0,4\nBRDA:20,0,1,0\n"
		"DA:20,4\nend_of_record\n"
		/* f never called holds line 23; g ends before it. */
		"SF:/t/security/x/uncalled.c\nFN:18,f\nFNDA:0,f\nDA:18,0\n"
		"DA:25,0\nend_of_record\n"
		"SF:/t/security/x/after.c\nFN:10,g\nFNDA:0,g\nDA:10,0\n"
		"DA:12,0\nFN:30,h\nFNDA:0,h\nDA:31,0\nend_of_record\n";
	/* A mask's continuation: classed by its statement's counted line. */
	static const char *const mask[7] = { "err = perm(a,", "b,", "c |", "d,",
					     "&cond);",	      "x;", "y;" };
	/* The statement's first line never ran: neither did the rest. */
	static const char *const unrun[7] = { "x;",  "y;", "f(a, /* b */",
					      "c);", "x;", "y;",
					      "z;" };
	/* A body whose condition went one way only: unknown. */
	static const char *const oneway[7] = {
		"x;", "y;", "if (a) // why", "return -EINVAL; /* c */", "z;",
		"z;", "z;"
	};
	/* Its condition went both ways (the edges of line 22). */
	static const char *const both[7] = { "x;",	  "while (a &&", "b)",
					     "return 1;", "z;",		 "z;",
					     "z;" };
	/* A new statement: after ";", "{", "}", a label or a blank line. */
	static const char *const label[7] = { "x;", "y;", "out:", "return 0;",
					      "z;", "z;", "z;" };
	static const char *const blank[7] = { "x;", "y;", "",  "return 0;",
					      "z;", "z;", "z;" };
	struct mutgen_gap_of of;
	struct lcov l;
	char err[128], *p;

	ck_assert_int_eq(lcov_parse(info, strlen(info), &l, err, sizeof(err)),
			 0);
	ck_assert_int_eq(
		mutgen_gap(
			"generated: swap-equality at security/x/f.c:7: \"a\" -> \"b\"",
			NULL, &l, &of),
		MUTGEN_ORACLE_GAP);
	ck_assert_int_eq(of.count, 3);
	ck_assert_int_eq(of.by, 0);
	ck_assert_int_eq(
		mutgen_gap(
			"generated: drop-error-return at security/x/f.c:9: \"x\" -> \"y\"",
			NULL, &l, &of),
		MUTGEN_REACH_GAP);
	ck_assert_int_eq(of.count, 0);
	ck_assert_int_eq(
		mutgen_gap(
			"generated: skip-call at security/x/f.c:8: \"x\" -> \";\"",
			NULL, &l, &of),
		MUTGEN_NOT_COUNTED);
	ck_assert_int_eq(of.count, -1);
	ck_assert_int_eq(gap_of(&l, "mask.c", mask, &of), MUTGEN_ORACLE_GAP);
	ck_assert_int_eq(of.by, 20);
	ck_assert_int_eq(of.count, 2);
	ck_assert(!of.body);
	/* Without the patch's text, no neighbour to read. */
	p = hunk("mask.c", mask);
	ck_assert_int_eq(mutgen_gap(p, NULL, &l, &of), MUTGEN_NOT_COUNTED);
	free(p);
	ck_assert_int_eq(gap_of(&l, "unrun.c", unrun, &of), MUTGEN_REACH_GAP);
	ck_assert_int_eq(of.by, 22);
	ck_assert_int_eq(gap_of(&l, "oneway.c", oneway, &of),
			 MUTGEN_NOT_COUNTED);
	ck_assert_int_eq(of.by, 0);
	ck_assert_int_eq(gap_of(&l, "both.c", both, &of), MUTGEN_ORACLE_GAP);
	ck_assert_int_eq(of.by, 22);
	ck_assert(of.body);
	ck_assert_int_eq(gap_of(&l, "fresh.c", label, &of), MUTGEN_NOT_COUNTED);
	ck_assert_int_eq(gap_of(&l, "fresh.c", blank, &of), MUTGEN_NOT_COUNTED);
	ck_assert_ptr_null(of.function);
	/* A preprocessor line: what follows may be compiled out. */
	{
		static const char *const ifdef[7] = { "x;", "f(a,", "#ifdef X",
						      "b,", "c);",  "z;",
						      "z;" };
		static const char *const plain[7] = { "x;", "f(a,", "/* X */",
						      "b,", "c);",  "z;",
						      "z;" };

		ck_assert_int_eq(gap_of(&l, "mask.c", ifdef, &of),
				 MUTGEN_NOT_COUNTED);
		ck_assert_int_eq(gap_of(&l, "both.c", plain, &of),
				 MUTGEN_ORACLE_GAP);
		ck_assert_int_eq(of.by, 21);
		ck_assert(!of.body);
	}
	/* A block comment between a condition and its body. */
	{
		static const char *const between[7] = { "if (a)",  "/* c",
							" * d */", "return 1;",
							"z;",	   "z;",
							"z;" };

		ck_assert_int_eq(gap_of(&l, "cond.c", between, &of),
				 MUTGEN_NOT_COUNTED);
	}
	/*
	 * A hunk that starts inside a block comment: its " * ..." lines are
	 * no code, so the statement before the line has no first line in
	 * sight (read as code, " *" "/" would have been that first line).
	 */
	{
		static const char *const inside[7] = {
			" * a;", " */", "x = 1;", "if (e)", "z;", "z;", "z;"
		};

		ck_assert_int_eq(gap_of(&l, "fresh.c", inside, &of),
				 MUTGEN_NOT_COUNTED);
	}
	/* After a plain statement that ran: it went on to the line. */
	{
		static const char *const after[7] = {
			"x;", "err = f(a,", "b); /* c */", "if (err)",
			"z;", "z;",	    "z;"
		};
		static const char *const jump[7] = {
			"x;", "return f(a,", "b);", "if (err)", "z;", "z;", "z;"
		};
		static const char *const cond[7] = {
			"x;", "if (a)", "f(b);", "if (err)", "z;", "z;", "z;"
		};
		static const char *const unseen[7] = { "f(a,",	   "b,", "c);",
						       "if (err)", "z;", "z;",
						       "z;" };

		ck_assert_int_eq(gap_of(&l, "both.c", after, &of),
				 MUTGEN_ORACLE_GAP);
		ck_assert_int_eq(of.by, 22);
		ck_assert(of.follows);
		ck_assert_int_eq(gap_of(&l, "both.c", jump, &of),
				 MUTGEN_NOT_COUNTED);
		ck_assert(!of.follows);
		ck_assert_int_eq(gap_of(&l, "both.c", cond, &of),
				 MUTGEN_NOT_COUNTED);
		/* Its first line out of sight: it may be a jump. */
		ck_assert_int_eq(gap_of(&l, "both.c", unseen, &of),
				 MUTGEN_NOT_COUNTED);
		/* One that never ran tells nothing: a jump may reach it. */
		ck_assert_int_eq(gap_of(&l, "unrun.c", after, &of),
				 MUTGEN_NOT_COUNTED);
	}
	/* In a function never called: a reach gap, whatever its line. */
	ck_assert_int_eq(gap_of(&l, "uncalled.c", label, &of),
			 MUTGEN_REACH_GAP);
	ck_assert_str_eq(of.function, "f");
	ck_assert_int_eq(gap_of(&l, "after.c", label, &of), MUTGEN_NOT_COUNTED);
	ck_assert_ptr_null(of.function);
	ck_assert_ptr_null(lcov_line_func(&l, "x/after.c", 23));
	ck_assert_ptr_nonnull(lcov_line_func(&l, "x/after.c", 11));
	ck_assert_str_eq(lcov_line_func(&l, "x/after.c", 30)->name, "h");
	ck_assert_int_eq(
		mutgen_gap("aa_unix_peer_perm() returns early", NULL, &l, &of),
		MUTGEN_NOT_GENERATED);
	ck_assert_int_eq(mutgen_gap("generated: x at f.c", NULL, &l, &of),
			 MUTGEN_NOT_GENERATED);
	ck_assert_str_eq(mutgen_gap_name(MUTGEN_REACH_GAP), "reach gap");
	ck_assert_str_eq(mutgen_gap_name(MUTGEN_NOT_BUILT), "not built");
	/* Unrun by --skip-unexecuted: never executed, or not built. */
	ck_assert(mutgen_unexecuted(MUTGEN_REACH_GAP));
	ck_assert(mutgen_unexecuted(MUTGEN_NOT_BUILT));
	ck_assert(!mutgen_unexecuted(MUTGEN_ORACLE_GAP));
	ck_assert(!mutgen_unexecuted(MUTGEN_NOT_COUNTED));
	ck_assert(!mutgen_unexecuted(MUTGEN_NOT_GENERATED));
	/* An LSM's default files: its C files, not its KUnit tests. */
	ck_assert(mutgen_default_file("security/apparmor/af_unix.c"));
	ck_assert(mutgen_default_file("security/selinux/ss/services.c"));
	ck_assert(
		!mutgen_default_file("security/apparmor/policy_unpack_test.c"));
	ck_assert(!mutgen_default_file("security/apparmor/Makefile"));
	lcov_free(&l);
}
END_TEST

int main(void)
{
	return CHECK_RUN("mutgen", test_sites, test_draw, test_patch, test_gap);
}
