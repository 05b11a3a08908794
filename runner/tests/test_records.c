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

int main(void)
{
	return CHECK_RUN("records", test_parse_and_find, test_malformed_lines,
			 test_truncated_last_line, test_duplicates_and_empty,
			 test_v1_unmapped_fails, test_v1_header_only,
			 test_today_header);
}
