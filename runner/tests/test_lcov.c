// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/analysis/lcov.c: lcov 1 and lcov 2 tracefiles
 * read into per-file coverage, and every malformed or inconsistent one
 * refused by its line.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "check_run.h"

/* As lcov 1.16 writes a capture: two files, one function never called. */
static const char v1[] = "TN:\n"
			 "SF:/k/o/../security/apparmor/af_unix.c\n"
			 "FN:10,unix_peer_perm\n"
			 "FN:40,aa_unix_create\n"
			 "FNDA:7,unix_peer_perm\n"
			 "FNDA:0,aa_unix_create\n"
			 "FNF:2\n"
			 "FNH:1\n"
			 "BRDA:12,0,0,5\n"
			 "BRDA:12,0,1,2\n"
			 "BRDA:44,0,0,-\n"
			 "BRDA:44,0,1,-\n"
			 "BRF:4\n"
			 "BRH:2\n"
			 "DA:10,7\n"
			 "DA:12,7\n"
			 "DA:13,5\n"
			 "DA:40,0\n"
			 "DA:44,0,abcdef\n"
			 "LF:5\n"
			 "LH:3\n"
			 "end_of_record\n"
			 "TN:\n"
			 "SF:/k/o/../security/selinux/hooks.c\n"
			 "FN:5,selinux_socket_sendmsg\n"
			 "FNDA:3,selinux_socket_sendmsg\n"
			 "DA:5,3\n"
			 "end_of_record\n";

START_TEST(test_v1)
{
	struct lcov l;
	const struct lcov_file *f;
	const struct lcov_func *fn;
	char err[256];

	ck_assert_int_eq(lcov_parse(v1, strlen(v1), &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 2);
	f = lcov_file(&l, "security/apparmor/af_unix.c");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->lines, 5);
	ck_assert_uint_eq(f->lines_hit, 3);
	ck_assert_uint_eq(f->branches, 4);
	ck_assert_uint_eq(f->branches_hit, 2);
	ck_assert_uint_eq(f->n_funcs, 2);
	ck_assert_uint_eq(f->funcs_hit, 1);
	fn = lcov_func(&l, "unix_peer_perm");
	ck_assert_ptr_nonnull(fn);
	ck_assert_uint_eq(fn->count, 7);
	ck_assert_uint_eq(fn->line, 10);
	ck_assert_uint_eq(lcov_func(&l, "aa_unix_create")->count, 0);
	/* A suffix matches whole path components only. */
	ck_assert_ptr_null(lcov_file(&l, "unix.c"));
	ck_assert_ptr_nonnull(lcov_file(&l, "hooks.c"));
	ck_assert_ptr_null(lcov_func(&l, "selinux_socket_recvmsg"));
	/* Per line: run, never run, not counted, no such file. */
	ck_assert_int_eq(lcov_line_count(&l, "apparmor/af_unix.c", 13), 5);
	ck_assert_int_eq(lcov_line_count(&l, "apparmor/af_unix.c", 44), 0);
	ck_assert_int_eq(lcov_line_count(&l, "apparmor/af_unix.c", 11), -1);
	ck_assert_int_eq(lcov_line_count(&l, "apparmor/net.c", 13), -1);
	/* A line's branch edges: both taken, never evaluated, none. */
	{
		unsigned long taken;

		ck_assert_uint_eq(
			lcov_line_edges(&l, "apparmor/af_unix.c", 12, &taken),
			2);
		ck_assert_uint_eq(taken, 2);
		ck_assert_uint_eq(
			lcov_line_edges(&l, "apparmor/af_unix.c", 44, &taken),
			2);
		ck_assert_uint_eq(taken, 0);
		ck_assert_uint_eq(
			lcov_line_edges(&l, "apparmor/af_unix.c", 13, &taken),
			0);
	}
	/* The function whose body holds a line (up to its last DA). */
	ck_assert_str_eq(lcov_line_func(&l, "apparmor/af_unix.c", 12)->name,
			 "unix_peer_perm");
	ck_assert_str_eq(lcov_line_func(&l, "apparmor/af_unix.c", 41)->name,
			 "aa_unix_create");
	ck_assert_ptr_null(lcov_line_func(&l, "apparmor/af_unix.c", 45));
	ck_assert_ptr_null(lcov_line_func(&l, "apparmor/af_unix.c", 9));
	/* Without summary lines the records alone count. */
	f = lcov_file(&l, "selinux/hooks.c");
	ck_assert_uint_eq(f->lines_hit, 1);
	ck_assert_uint_eq(f->funcs_hit, 1);
	lcov_free(&l);
}
END_TEST

/* lcov 2: VER, FNL and FNA, an alias of one body counted once. */
static const char v2[] = "VER:2.0\n"
			 "SF:security/apparmor/lsm.c\n"
			 "FNL:0,100,120\n"
			 "FNA:0,4,apparmor_socket_create\n"
			 "FNL:1,130\n"
			 "FNA:1,0,apparmor_socket_bind\n"
			 "FNA:1,0,apparmor_socket_bind_alias\n"
			 "FNF:2\n"
			 "FNH:1\n"
			 "DA:100,4\n"
			 "end_of_record\n";

START_TEST(test_v2)
{
	struct lcov l;
	char err[256];

	ck_assert_int_eq(lcov_parse(v2, strlen(v2), &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.files[0].n_funcs, 2);
	ck_assert_uint_eq(l.files[0].funcs_hit, 1);
	ck_assert_uint_eq(lcov_func(&l, "apparmor_socket_create")->count, 4);
	ck_assert_uint_eq(lcov_func(&l, "apparmor_socket_create")->line, 100);
	ck_assert_ptr_null(lcov_func(&l, "apparmor_socket_bind_alias"));
	lcov_free(&l);
}
END_TEST

/* Each refused with the line it is on and why. */
static const struct {
	const char *text, *why;
} broken[] = {
	{ "DA:1,1\n", "line 1: DA:1,1 outside SF...end_of_record" },
	{ "SF:a.c\nSF:b.c\n", "line 2: SF: inside a record" },
	{ "SF:\n", "line 1: SF: without a path" },
	{ "SF:a.c\nDA:1\nend_of_record\n", "line 2: DA: wants LINE,COUNT" },
	{ "SF:a.c\nDA:x,1\nend_of_record\n", "line 2: DA: wants LINE,COUNT" },
	{ "SF:a.c\nDA:1,-3\nend_of_record\n", "line 2: DA: wants LINE,COUNT" },
	{ "SF:a.c\nFNDA:1,f\nend_of_record\n",
	  "line 2: FNDA: of a function no FN: named" },
	{ "SF:a.c\nBRDA:1,0,0\nend_of_record\n",
	  "line 2: BRDA: wants LINE,BLOCK,BRANCH,TAKEN" },
	{ "SF:a.c\nBRDA:1,0,0,x\nend_of_record\n",
	  "line 2: BRDA: TAKEN is neither - nor a count" },
	{ "SF:a.c\nDA:1,1\nLF:2\nend_of_record\n",
	  "line 4: a.c: LF/LH say 2/-1, the DA lines 1/1" },
	{ "SF:a.c\nBRDA:1,0,0,1\nBRH:0\nend_of_record\n",
	  "line 4: a.c: BRF/BRH say -1/0, the BRDA lines 1/1" },
	{ "SF:a.c\nFN:1,f\nFNH:1\nend_of_record\n",
	  "line 4: a.c: FNF/FNH say -1/1, the FN lines 1/0" },
	{ "SF:a.c\nFNL:0,1\nend_of_record\n",
	  "line 3: a.c: FNL 0 has no FNA name" },
	{ "SF:a.c\nFNA:0,1,f\nend_of_record\n",
	  "line 2: FNA: of an index no FNL: named" },
	{ "SF:a.c\nFNL:0,1\nFNL:0,2\nend_of_record\n",
	  "line 3: FNL: index 0 twice" },
	{ "SF:a.c\nXYZ:1\nend_of_record\n", "line 2: unknown record XYZ" },
	{ "SF:a.c\nnonsense\nend_of_record\n",
	  "line 2: not a tracefile record" },
	{ "SF:a.c\nDA:1,1\n", "line 2: a.c: no end_of_record" },
};

START_TEST(test_broken)
{
	struct lcov l;
	char err[256];

	ck_assert_int_eq(lcov_parse(broken[_i].text, strlen(broken[_i].text),
				    &l, err, sizeof(err)),
			 -1);
	ck_assert_str_eq(err, broken[_i].why);
	ck_assert_ptr_null(l.files);
}
END_TEST

/*
 * Found by fuzz_lcov: an FN: line after an FNL: one, whose function has
 * no name yet, crashed the lookup by name.
 */
START_TEST(test_fnl_then_fn)
{
	static const char t[] = "SF:a.c\nFNL:0,1\nFN:2,f\nFNDA:3,f\n"
				"FNA:0,1,g\nend_of_record\n";
	struct lcov l;
	char err[256];

	ck_assert_int_eq(lcov_parse(t, strlen(t), &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.files[0].n_funcs, 2);
	ck_assert_uint_eq(lcov_func(&l, "f")->count, 3);
	ck_assert_uint_eq(lcov_func(&l, "g")->count, 1);
	lcov_free(&l);
}
END_TEST

START_TEST(test_empty)
{
	struct lcov l;
	char err[256];

	ck_assert_int_eq(lcov_parse("", 0, &l, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.n, 0);
	/* Not NUL-terminated: the length bounds it. */
	ck_assert_int_eq(
		lcov_parse("SF:a.c\nend_of_recordXX", 20, &l, err, sizeof(err)),
		0);
	ck_assert_uint_eq(l.n, 1);
	lcov_free(&l);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("lcov");
	TCase *tc = tcase_create("lcov");

	tcase_add_test(tc, test_v1);
	tcase_add_test(tc, test_v2);
	tcase_add_loop_test(tc, test_broken, 0,
			    sizeof(broken) / sizeof(broken[0]));
	tcase_add_test(tc, test_fnl_then_fn);
	tcase_add_test(tc, test_empty);
	suite_add_tcase(s, tc);
	return check_run_suite(s);
}
