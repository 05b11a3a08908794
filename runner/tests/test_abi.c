// SPDX-License-Identifier: GPL-2.0
#include "check_run.h"
#include <stdlib.h>
#include <string.h>

#include "results/abi.h"

START_TEST(test_set_name)
{
	char out[16];

	ck_assert_int_eq(abi_set_name("6.12.117+deb13-amd64", out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "6.12");
	ck_assert_int_eq(abi_set_name("7.2.13+deb14-amd64", out, sizeof(out)),
			 0);
	ck_assert_str_eq(out, "7.2");
	/* Debian 12's ABI name, not its upstream version (6.1.176). */
	ck_assert_int_eq(abi_set_name("6.1.0-50-amd64", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "6.1");
	ck_assert_int_eq(abi_set_name("7.2", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "7.2");
	ck_assert_int_eq(abi_set_name("7.2-lsmconf-abc", out, sizeof(out)), 0);
	ck_assert_str_eq(out, "7.2");
}
END_TEST

START_TEST(test_set_name_bad)
{
	char out[16], tiny[4];

	ck_assert_int_eq(abi_set_name("", out, sizeof(out)), -1);
	ck_assert_int_eq(abi_set_name(NULL, out, sizeof(out)), -1);
	ck_assert_int_eq(abi_set_name("linux-6.12", out, sizeof(out)), -1);
	ck_assert_int_eq(abi_set_name("6", out, sizeof(out)), -1);
	ck_assert_int_eq(abi_set_name("6.", out, sizeof(out)), -1);
	ck_assert_int_eq(abi_set_name("6.x", out, sizeof(out)), -1);
	ck_assert_int_eq(abi_set_name("6.12rc1", out, sizeof(out)), -1);
	/* "6.12" needs 5 bytes. */
	ck_assert_int_eq(abi_set_name("6.12.1", tiny, sizeof(tiny)), -1);
}
END_TEST

START_TEST(test_name_ok)
{
	ck_assert(abi_name_ok("6.12"));
	ck_assert(abi_name_ok("7.2"));
	ck_assert(abi_name_ok("my-kernel_1.0"));
	ck_assert(!abi_name_ok(""));
	ck_assert(!abi_name_ok(NULL));
	ck_assert(!abi_name_ok("SOURCES"));
	ck_assert(!abi_name_ok(".hidden"));
	ck_assert(!abi_name_ok("../etc/passwd"));
	ck_assert(!abi_name_ok("a/b"));
	ck_assert(!abi_name_ok("a b"));
}
END_TEST

START_TEST(test_features_check)
{
	static const char good[] = "caps {mask {chown\n}\n}\n"
				   "policy {set_load {yes\n}\n"
				   "versions {v5 {yes\n}\n}\n}\n";
	char why[128];

	ck_assert_int_eq(
		abi_features_check(good, strlen(good), why, sizeof(why)), 0);
	ck_assert_int_eq(abi_features_check("", 0, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "the feature set is empty");
	ck_assert_int_eq(
		abi_features_check("policy {yes\n", 12, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "the feature set's braces do not balance");
	ck_assert_int_eq(abi_features_check("} policy {", 10, why, sizeof(why)),
			 -1);
	ck_assert_str_eq(why, "the feature set's braces do not balance");
	ck_assert_int_eq(
		abi_features_check("caps {x\n}\n", 10, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "the feature set has no policy section");
	ck_assert_int_eq(
		abi_features_check("policy {\0}", 10, why, sizeof(why)), -1);
	ck_assert_str_eq(why, "the feature set holds a NUL byte");
}
END_TEST

START_TEST(test_sources_update)
{
	char *a, *b, *c;

	/* A new file: the header, then the line. */
	a = abi_sources_update(NULL, "7.2", "7.2\tr1\tp\tv\td\tcmd");
	ck_assert_str_eq(a, ABI_SOURCES_HEADER "7.2\tr1\tp\tv\td\tcmd\n");
	/* Another set is appended. */
	b = abi_sources_update(a, "6.1", "6.1\tr2\tp\tv\td\tcmd");
	ck_assert_str_eq(b, ABI_SOURCES_HEADER "7.2\tr1\tp\tv\td\tcmd\n"
					       "6.1\tr2\tp\tv\td\tcmd\n");
	/* The same set again replaces its line in place; "6.12" is not "6.1". */
	c = abi_sources_update(b, "7.2", "7.2\tr3\tp\tv\td\tcmd");
	ck_assert_str_eq(c, ABI_SOURCES_HEADER "7.2\tr3\tp\tv\td\tcmd\n"
					       "6.1\tr2\tp\tv\td\tcmd\n");
	free(a);
	a = abi_sources_update(c, "6.12", "6.12\tr4\tp\tv\td\tcmd");
	ck_assert_str_eq(a, ABI_SOURCES_HEADER "7.2\tr3\tp\tv\td\tcmd\n"
					       "6.1\tr2\tp\tv\td\tcmd\n"
					       "6.12\tr4\tp\tv\td\tcmd\n");
	free(a);
	free(b);
	free(c);
	/* A last line without its newline gets one. */
	a = abi_sources_update("# x\n6.1\told", "7.2", "7.2\tnew");
	ck_assert_str_eq(a, "# x\n6.1\told\n7.2\tnew\n");
	free(a);
}
END_TEST

int main(void)
{
	return CHECK_RUN("abi", test_set_name, test_set_name_bad, test_name_ok,
			 test_features_check, test_sources_update);
}
