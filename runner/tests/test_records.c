// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/legacy.h"
#include "results/records.h"
#include "lsmconf_record.h"

#define HEADER RECORD_HEADER
#define REC(id, exp, obs)                                                   \
	id "\t5.0\tsend_deny\tunconfined\tdgram\tabstract\tsender.sendto\t" \
	   "network_v9/af_unix=yes\t" exp "\t" obs "\n"

START_TEST(test_parse_and_find)
{
	static const char text[] = HEADER REC("b_test/x/o", "EACCES", "EACCES")
		REC("a_test/y/o", "allow", "allow")
			REC("c_test/z/o", "allow", "EACCES");
	struct record_set set;
	const struct record *r;

	ck_assert_int_eq(records_parse(text, strlen(text), &set), 0);
	ck_assert_uint_eq(set.n, 3);
	ck_assert_uint_eq(set.malformed, 0);
	ck_assert_uint_eq(set.duplicates, 0);
	ck_assert_uint_eq(set.mismatches, 1);
	/* Sorted by id, whatever the order the guest wrote them in. */
	ck_assert_str_eq(set.v[0].col[REC_ID], "a_test/y/o");
	r = records_find(&set, "c_test/z/o");
	ck_assert_ptr_nonnull(r);
	ck_assert_str_eq(r->col[REC_OBSERVED], "EACCES");
	ck_assert_str_eq(r->col[REC_DEPENDS], "network_v9/af_unix=yes");
	ck_assert_ptr_null(records_find(&set, "nope"));
	records_free(&set);
}
END_TEST

START_TEST(test_malformed_lines)
{
	static const char text[] =
		REC("a", "allow", "allow") "too\tfew\tcolumns\n" REC(
			"b", "allow",
			"allow") "a\tb\tc\td\te\tf\tg\th\ti\tj\textra\n"
				 "a\t\tc\td\te\tf\tg\th\ti\tj\n";
	struct record_set set;

	ck_assert_int_eq(records_parse(text, strlen(text), &set), 0);
	ck_assert_uint_eq(set.n, 2);
	ck_assert_uint_eq(set.malformed, 3);
	ck_assert_uint_eq(set.first_bad_line, 2);
	records_free(&set);
}
END_TEST

START_TEST(test_truncated_last_line)
{
	static const char text[] =
		REC("a", "allow", "allow") "b\t5.0\tsend_deny\tunconf";
	struct record_set set;

	ck_assert_int_eq(records_parse(text, strlen(text), &set), 0);
	ck_assert_uint_eq(set.n, 1);
	ck_assert_uint_eq(set.malformed, 1);
	ck_assert_uint_eq(set.first_bad_line, 2);
	records_free(&set);
}
END_TEST

START_TEST(test_duplicates_and_empty)
{
	static const char text[] =
		REC("a", "allow", "allow") REC("a", "allow", "allow") "\n";
	struct record_set set;

	ck_assert_int_eq(records_parse(text, strlen(text), &set), 0);
	ck_assert_uint_eq(set.n, 2);
	ck_assert_uint_eq(set.duplicates, 1);
	records_free(&set);
	ck_assert_int_eq(records_parse("", 0, &set), 0);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_ptr_null(records_find(&set, "a"));
	records_free(&set);
}
END_TEST

/*
 * An id no rule maps: its test binary is not one of the project's, so
 * every rule, stub or real, refuses it.
 */
#define UNMAPPED "no_such_area/5.0/x/sender.sendto"

START_TEST(test_v1_unmapped_fails)
{
	static const char text[] =
		RECORD_HEADER_V1 REC(UNMAPPED, "allow", "allow")
			REC("no_such_area/5.0/y/z", "EACCES", "EACCES");
	struct record_set set;
	char msg[1200], out[64];

	/* The test holds only while no rule claims the id. */
	ck_assert_int_eq(legacy_id(UNMAPPED, "5.0", out, sizeof(out)), -ENOENT);
	ck_assert_int_eq(records_parse(text, strlen(text), &set), -EPROTO);
	ck_assert(set.v1);
	ck_assert_uint_eq(set.n, 0);
	ck_assert_uint_eq(set.unmapped, 2);
	records_error(&set, -EPROTO, msg, sizeof(msg));
	ck_assert_str_eq(
		msg,
		"records of the old schema: 2 ids no rule maps, e.g. " UNMAPPED);
	ck_assert_ptr_null(strchr(msg, '\n'));
	records_free(&set);
}
END_TEST

START_TEST(test_v1_header_only)
{
	static const char text[] = RECORD_HEADER_V1;
	struct record_set set;

	/* The old header alone: nothing to map, an empty set of v1. */
	ck_assert_int_eq(records_parse(text, strlen(text), &set), 0);
	ck_assert(set.v1);
	ck_assert_uint_eq(set.n, 0);
	records_free(&set);
}
END_TEST

START_TEST(test_today_header)
{
	static const char text[] =
		RECORD_HEADER REC("t_test/f.v.c/op", "allow", "allow");
	struct record_set set;

	/* Today's ids are taken as they are, whatever the rules say. */
	ck_assert_int_eq(records_parse(text, strlen(text), &set), 0);
	ck_assert(!set.v1);
	ck_assert_uint_eq(set.n, 1);
	ck_assert_str_eq(set.v[0].col[REC_ID], "t_test/f.v.c/op");
	ck_assert_str_eq(set.v[0].col[REC_SUBJECT], "send_deny");
	ck_assert_str_eq(set.v[0].col[REC_DETAIL], "abstract");
	records_free(&set);
}
END_TEST

/* A run_kselftest.sh log: records at depth 1 and 2, other diagnostics. */
START_TEST(test_from_diag)
{
	static const char log[] =
		"TAP version 13\n"
		"1..1\n"
		"# timeout set to 600\n"
		"# selftests: apparmor: t_test\n"
		"# TAP version 13\n"
		"# # record: " REC("t_test/f.v.c/a", "allow", "allow") "#  # record: " REC(
			"t_test/f.v.c/b", "EACCES",
			"allow") "# record: " REC("u_test/g.c/o", "EACCES",
						  "EACCES") "# # recorded: nothing\n"
							    "record: not a diagnostic\n"
							    "# ok 1 f.v.c\n"
							    "ok 1 selftests: apparmor: t_test\r\n"
							    "# # record: u_test/cut\tshort";
	struct record_set set;
	size_t count;
	char *tsv = records_from_diag(log, strlen(log), &count);

	ck_assert_uint_eq(count, 3);
	ck_assert_int_eq(records_parse(tsv, strlen(tsv), &set), 0);
	ck_assert_uint_eq(set.n, 3);
	ck_assert_uint_eq(set.malformed, 0);
	ck_assert_uint_eq(set.mismatches, 1);
	ck_assert_str_eq(set.v[0].col[REC_ID], "t_test/f.v.c/a");
	ck_assert_str_eq(set.v[2].col[REC_ID], "u_test/g.c/o");
	ck_assert_str_eq(set.v[2].col[REC_OBSERVED], "EACCES");
	records_free(&set);
	free(tsv);

	/* No records: the header alone, an empty set. */
	tsv = records_from_diag("ok 1 x\n", 7, &count);
	ck_assert_uint_eq(count, 0);
	ck_assert_str_eq(tsv, RECORD_HEADER);
	free(tsv);
}
END_TEST

/* records_check() of @text: its message, or "" when it passes. */
static const char *strict(const char *text, size_t len)
{
	static char msg[1200];
	struct record_set set;

	ck_assert_int_eq(records_parse(text, len, &set), 0);
	if (!records_check(&set, msg, sizeof(msg)))
		msg[0] = '\0';
	ck_assert_ptr_null(strchr(msg, '\n'));
	records_free(&set);
	return msg;
}

#define STRICT(s) strict(s, sizeof(s) - 1)

START_TEST(test_strict)
{
	ck_assert_str_eq(STRICT(HEADER REC("a_test/y/o", "allow", "allow")),
			 "");
	ck_assert_str_eq(STRICT(HEADER), "");
	/* The old schema's header is read (its ids mapped). */
	ck_assert_str_eq(STRICT(RECORD_HEADER_V1), "");
	ck_assert_str_eq(
		STRICT(""),
		"line 1: no header (want the columns id, abi, subject, ... observed)");
	ck_assert_str_eq(
		STRICT("id\tfoo\n"),
		"line 1: a header of other columns (\"id foo\"; want id, abi, subject, object, class, detail, op, depends, expected, observed)");
	ck_assert_str_eq(STRICT(HEADER "a\tb\tc\n"),
			 "line 2: 3 fields, want 10");
	ck_assert_str_eq(
		STRICT(HEADER REC("a_test/y/o", "allow",
				  "allow") "a\t\tc\td\te\tf\tg\th\ti\tj\n"),
		"line 3: an empty field (field 2)");
	ck_assert_str_eq(STRICT(HEADER "a_test/y/o\t5.0"),
			 "line 2: cut short (no newline at its end)");
	/* A header cut short is no header. */
	ck_assert_str_eq(STRICT("id\tabi\tsubject"),
			 "line 1: cut short (no newline at its end)");
	/* A NUL byte drops no record after it: the line is bad. */
	ck_assert_str_eq(
		STRICT(HEADER "a\0b\n" REC("a_test/y/o", "allow", "allow")),
		"line 2: a NUL byte");
	ck_assert_str_eq(
		STRICT("id\tabi\tsubject\tobject\tclass\tdetail\top\tdepends\texpected\tobserved\r\n"),
		"line 1: ends in CR (a CRLF file, not as lsmconf writes it)");
}
END_TEST

START_TEST(test_duplicate_named)
{
	static const char text[] = HEADER REC("a_test/y/o", "allow", "EACCES")
		REC("b_test/y/o", "allow", "allow")
			REC("a_test/y/o", "allow", "allow");
	struct record_set set;
	char buf[256];

	ck_assert_int_eq(records_parse(text, strlen(text), &set), 0);
	ck_assert_uint_eq(set.duplicates, 1);
	/* Both outcomes, the earlier line first. */
	ck_assert(records_first_duplicate(&set, buf, sizeof(buf)));
	ck_assert_str_eq(buf, "a_test/y/o (line 2: EACCES, line 4: allow)");
	records_bad_line(&set, buf, sizeof(buf));
	ck_assert_str_eq(buf, "");
	records_free(&set);
}
END_TEST

int main(void)
{
	return CHECK_RUN("records", test_parse_and_find, test_malformed_lines,
			 test_truncated_last_line, test_duplicates_and_empty,
			 test_v1_unmapped_fails, test_v1_header_only,
			 test_today_header, test_from_diag, test_strict,
			 test_duplicate_named);
}
