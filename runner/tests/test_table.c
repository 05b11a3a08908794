// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>

#include "results/records.h"
#include "results/table.h"
#include "lsmconf_record.h"

#define HEADER RECORD_HEADER
#define REC(row, op, exp, obs)                                         \
	row "/" op "\t5.0\ts\tr\tdgram\tabstract\t" op "\tnetwork_v9/" \
	    "af_unix=yes\t" exp "\t" obs "\n"

static void parse(const char *text, struct record_set *set)
{
	ck_assert_int_eq(records_parse(text, strlen(text), set), 0);
	ck_assert_uint_eq(set->malformed, 0);
}

START_TEST(test_phase)
{
	ck_assert_int_eq(table_phase("existing.client.send"), 0);
	ck_assert_int_eq(table_phase("new.server.recv"), 1);
	ck_assert_int_eq(table_phase("existing_socket"), 0);
	ck_assert_int_eq(table_phase("new_socket"), 1);
	ck_assert_int_eq(table_phase("sender.sendto"), -1);
	ck_assert_int_eq(table_phase("newish.x"), -1);
	ck_assert_int_eq(table_phase("before_update"), -1);
}
END_TEST

/* Lifecycle order, roles grouped, allowed setup steps left out. */
START_TEST(test_cell_order)
{
	static const char text[] = HEADER REC(
		"lc_test/a", "existing.server.recv", "EAGAIN", "EAGAIN")
		REC("lc_test/a", "existing.client.send", "EACCES", "EACCES")
			REC("lc_test/a", "existing.client.socket", "allow",
			    "allow") REC("lc_test/a", "existing.client.connect",
					 "allow", "allow")
				REC("lc_test/a", "new.client.socket", "EACCES",
				    "EACCES") REC("x_test/x", "sender.sendto",
						  "allow", "allow");
	struct table_col col = { .name = "k1" };
	struct record_set set;
	char *md;

	parse(text, &set);
	col.recs = &set;
	md = table_markdown(&col, 1);
	ck_assert_str_eq(
		md,
		"| scenario | k1: existing socket | k1: new socket |\n"
		"|---|---|---|\n"
		"| `lc_test/a` | client: connect allow, send EACCES; server: recv EAGAIN | client: socket EACCES |\n");
	free(md);
	records_free(&set);
}
END_TEST

/*
 * Two kernels; rows that differ in one element and decide alike merge
 * (escaped '|'); a decision that was not the expected one says so.
 */
START_TEST(test_two_kernels_merge)
{
	static const char a[] = HEADER REC("lc_test/dgram/change/s1",
					   "existing.c.send", "allow", "allow")
		REC("lc_test/dgram/stack/s1", "existing.c.send", "allow",
		    "allow") REC("lc_test/dgram/stack/s2", "existing.c.send",
				 "EACCES", "allow")
			REC("live_test/r", "existing_socket", "allow", "allow")
				REC("live_test/r", "new_socket", "EACCES",
				    "EACCES");
	static const char b[] =
		HEADER REC("lc_test/dgram/change/s1", "existing.c.send",
			   "EACCES", "EACCES") REC("lc_test/dgram/stack/s1",
						   "existing.c.send", "EACCES",
						   "EACCES")
			REC("live_test/r", "new_socket", "allow", "allow");
	struct record_set sa, sb;
	struct table_col cols[2] = { { .name = "sid apparmor" },
				     { .name = "trixie apparmor" } };
	char *md;

	parse(a, &sa);
	parse(b, &sb);
	cols[0].recs = &sa;
	cols[1].recs = &sb;
	md = table_markdown(cols, 2);
	ck_assert_str_eq(
		md,
		"| scenario | sid apparmor: existing socket | sid apparmor: new socket | trixie apparmor: existing socket | trixie apparmor: new socket |\n"
		"|---|---|---|---|---|\n"
		"| `lc_test/dgram/change\\|stack/s1` | c: send allow | - | c: send EACCES | - |\n"
		"| `lc_test/dgram/stack/s2` | c: send allow (expected EACCES) | - | - | - |\n"
		"| `live_test/r` | socket_use allow | socket_use EACCES | - | socket_use allow |\n");
	free(md);
	records_free(&sa);
	records_free(&sb);
}
END_TEST

/* Rows differing in two elements never merge. */
START_TEST(test_no_merge_two_elements)
{
	static const char text[] = HEADER REC(
		"lc_test/dgram/change/s1", "existing.c.send", "allow", "allow")
		REC("lc_test/stream/stack/s1", "existing.c.send", "allow",
		    "allow");
	struct table_col col = { .name = "k" };
	struct record_set set;
	char *md;

	parse(text, &set);
	col.recs = &set;
	md = table_markdown(&col, 1);
	ck_assert_ptr_nonnull(strstr(md, "| `lc_test/dgram/change/s1` |"));
	ck_assert_ptr_nonnull(strstr(md, "| `lc_test/stream/stack/s1` |"));
	free(md);
	records_free(&set);
}
END_TEST

/*
 * Today's rows, "<binary>/<KTAP case>": the variant's dot-separated
 * parts merge like path elements, the binary never merges with another.
 */
START_TEST(test_merge_ktap_case)
{
	static const char text[] = HEADER REC("lc_test/f.dgram_change.s1",
					      "existing.c.send", "allow",
					      "allow")
		REC("lc_test/f.dgram_stack.s1", "existing.c.send", "allow",
		    "allow") REC("lc_test/f.stream_stack.s2", "existing.c.send",
				 "allow", "allow")
			REC("other_test/f.stream_stack.s2", "existing.c.send",
			    "allow", "allow");
	struct table_col col = { .name = "k" };
	struct record_set set;
	char *md;

	parse(text, &set);
	col.recs = &set;
	md = table_markdown(&col, 1);
	ck_assert_ptr_nonnull(
		strstr(md, "| `lc_test/f.dgram_change\\|dgram_stack.s1` |"));
	ck_assert_ptr_nonnull(strstr(md, "| `lc_test/f.stream_stack.s2` |"));
	ck_assert_ptr_nonnull(strstr(md, "| `other_test/f.stream_stack.s2` |"));
	free(md);
	records_free(&set);
}
END_TEST

int main(void)
{
	return CHECK_RUN("table", test_phase, test_cell_order,
			 test_two_kernels_merge, test_no_merge_two_elements,
			 test_merge_ktap_case);
}
