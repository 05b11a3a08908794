// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/provision/spec.c
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provision/spec.h"
#include "provision/build.h"
#include "provision/kernel.h"
#include "lib/lib.h"

#include <sys/stat.h>
#include <unistd.h>

static struct kspec spec;
static char err[256];

static void setup(void)
{
	memset(&spec, 0, sizeof(spec));
	memset(err, 0, sizeof(err));
}

static void teardown(void)
{
	kspec_free(&spec);
}

static void parse_ok(const char *text)
{
	int ret = kspec_parse(text, &spec, err, sizeof(err));

	ck_assert_msg(ret == 0, "%s: returned %d (%s)", text, ret, err);
	ck_assert_str_eq(spec.text, text);
}

/* Fails with -EINVAL, names the spec in @err and leaves @spec empty. */
static void parse_bad(const char *text)
{
	char want[128];

	strcpy(err, "untouched");
	ck_assert_int_eq(kspec_parse(text, &spec, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: ", text);
	ck_assert_msg(!strncmp(err, want, strlen(want)),
		      "error \"%s\" does not start with \"%s\"", err, want);
	ck_assert_uint_gt(strlen(err), strlen(want));
	ck_assert_ptr_null(strchr(err, '\n'));
	ck_assert_ptr_null(spec.text);
	ck_assert_ptr_null(spec.value);
	ck_assert_ptr_null(spec.modules);
	ck_assert_ptr_null(spec.config);
}

START_TEST(test_debian_suite)
{
	parse_ok("debian:sid");
	ck_assert_int_eq(spec.kind, KSPEC_DEBIAN);
	ck_assert_str_eq(spec.value, "sid");
	ck_assert_ptr_null(spec.modules);
	ck_assert_ptr_null(spec.config);
	ck_assert(!kspec_is_version(spec.value));
}
END_TEST

START_TEST(test_debian_version)
{
	parse_ok("debian:7.2.13+deb14");
	ck_assert_int_eq(spec.kind, KSPEC_DEBIAN);
	ck_assert_str_eq(spec.value, "7.2.13+deb14");
	ck_assert(kspec_is_version(spec.value));
	ck_assert_ptr_null(spec.modules);
	ck_assert_ptr_null(spec.config);
}
END_TEST

START_TEST(test_is_version)
{
	ck_assert(kspec_is_version("7.2.13+deb14"));
	ck_assert(kspec_is_version("6.1.0-57"));
	ck_assert(!kspec_is_version("sid"));
	ck_assert(!kspec_is_version("bookworm-backports"));
	ck_assert(!kspec_is_version("trixie"));
	/* A digit alone is no version. */
	ck_assert(!kspec_is_version("7"));
	ck_assert(!kspec_is_version(""));
}
END_TEST

START_TEST(test_file_plain)
{
	parse_ok("file:/x/bzImage");
	ck_assert_int_eq(spec.kind, KSPEC_FILE);
	ck_assert_str_eq(spec.value, "/x/bzImage");
	ck_assert_ptr_null(spec.modules);
	ck_assert_ptr_null(spec.config);
}
END_TEST

START_TEST(test_file_options)
{
	parse_ok("file:/x,modules=/m,config=/c");
	ck_assert_int_eq(spec.kind, KSPEC_FILE);
	ck_assert_str_eq(spec.value, "/x");
	ck_assert_str_eq(spec.modules, "/m");
	ck_assert_str_eq(spec.config, "/c");
	ck_assert_str_eq(spec.text, "file:/x,modules=/m,config=/c");
}
END_TEST

START_TEST(test_file_options_reversed)
{
	parse_ok("file:/x,config=/c");
	ck_assert_str_eq(spec.value, "/x");
	ck_assert_ptr_null(spec.modules);
	ck_assert_str_eq(spec.config, "/c");
	kspec_free(&spec);

	parse_ok("file:/x,config=/c,modules=/m");
	ck_assert_str_eq(spec.value, "/x");
	ck_assert_str_eq(spec.modules, "/m");
	ck_assert_str_eq(spec.config, "/c");
}
END_TEST

START_TEST(test_file_unknown_option)
{
	parse_bad("file:/x,foo=1");
	ck_assert_ptr_nonnull(strstr(err, "file:/x,foo=1"));
}
END_TEST

START_TEST(test_file_repeated_option)
{
	parse_bad("file:/x,modules=/a,modules=/b");
	ck_assert_ptr_nonnull(strstr(err, "file:/x,modules=/a,modules=/b"));
	parse_bad("file:/x,config=/a,config=/b");
	ck_assert_ptr_nonnull(strstr(err, "file:/x,config=/a,config=/b"));
}
END_TEST

START_TEST(test_file_empty_option)
{
	parse_bad("file:/x,modules=");
	parse_bad("file:/x,config=");
}
END_TEST

START_TEST(test_file_empty_path)
{
	parse_bad("file:,modules=/m");
}
END_TEST

START_TEST(test_deb)
{
	parse_ok("deb:/p.deb");
	ck_assert_int_eq(spec.kind, KSPEC_DEB);
	ck_assert_str_eq(spec.value, "/p.deb");
	ck_assert_ptr_null(spec.modules);
	ck_assert_ptr_null(spec.config);
}
END_TEST

/* build:'s one option: ",coverage" at the end, not a patch. */
START_TEST(test_build_coverage)
{
	parse_ok("build:debian-source:7.2+/p/a.patch,coverage");
	ck_assert_int_eq(spec.kind, KSPEC_BUILD);
	ck_assert_str_eq(spec.value, "debian-source:7.2+/p/a.patch");
	ck_assert(spec.coverage);
	kspec_free(&spec);
	parse_ok("build:/src/linux");
	ck_assert(!spec.coverage);
	ck_assert_str_eq(spec.value, "/src/linux");
	kspec_free(&spec);
	/* Another word after a comma is the path's own. */
	parse_ok("build:/src/linux,v2");
	ck_assert(!spec.coverage);
	ck_assert_str_eq(spec.value, "/src/linux,v2");
	kspec_free(&spec);
	parse_bad("build:,coverage");
	parse_bad("build:+/p.patch,coverage");
	parse_bad("build:src+,coverage");
}
END_TEST

START_TEST(test_no_colon)
{
	parse_bad("sid");
	parse_bad("");
}
END_TEST

START_TEST(test_empty_scheme)
{
	parse_bad(":sid");
}
END_TEST

START_TEST(test_empty_value)
{
	parse_bad("debian:");
	parse_bad("file:");
	parse_bad("deb:");
}
END_TEST

START_TEST(test_unknown_scheme)
{
	parse_bad("foo:bar");
	/* Schemes are case-sensitive. */
	parse_bad("Debian:sid");
}
END_TEST

START_TEST(test_debian_invalid_chars)
{
	parse_bad("debian:a b");
	parse_bad("debian:../x");
	parse_bad("debian:sid;rm");
	parse_bad("debian:/sid");
}
END_TEST

START_TEST(test_error_truncated)
{
	char small[8];

	/* A short buffer still gets a NUL-terminated prefix. */
	memset(small, 'x', sizeof(small));
	ck_assert_int_eq(kspec_parse("foo:bar", &spec, small, sizeof(small)),
			 -EINVAL);
	ck_assert_str_eq(small, "foo:bar");
}
END_TEST

/* Found by fuzz_spec: a spec with a newline made a two-line error. */
START_TEST(test_error_one_line)
{
	ck_assert_int_eq(kspec_parse("\n", &spec, err, sizeof(err)), -EINVAL);
	ck_assert_str_eq(
		err,
		"?: not a kernel spec (want debian:SUITE, debian:VERSION, file:PATH or deb:PATH)");
	ck_assert_int_eq(
		kspec_parse("debian:sid\r\nx", &spec, err, sizeof(err)),
		-EINVAL);
	ck_assert_str_eq(
		err, "debian:sid??x: suite or version has invalid characters");
}
END_TEST

START_TEST(test_free_twice)
{
	parse_ok("file:/x,modules=/m,config=/c");
	kspec_free(&spec);
	ck_assert_ptr_null(spec.text);
	kspec_free(&spec);
}
END_TEST

START_TEST(test_build_source_identity)
{
	/* Debian's source: the package and version of its cache directory. */
	char *id = build_source_identity(
		"debian-source:7.2",
		"/c/src/linux-source-7.2_7.2.13-1/linux-source-7.2");

	ck_assert_str_eq(id, "source linux-source-7.2 7.2.13-1");
	free(id);
	/* A tree of one's own: its path, '_' and all. */
	id = build_source_identity("/k/my_tree", "/k/my_tree");
	ck_assert_str_eq(id, "tree /k/my_tree");
	free(id);
}
END_TEST

/* kernel_check_spec() of @text: its message, or "" when it passes. */
static const char *checked(const char *text)
{
	static struct err e;

	if (!kernel_check_spec(text, &e))
		return "";
	ck_assert_ptr_null(strchr(e.msg, '\n'));
	return e.msg;
}

/* What `kernel` refuses before fetching anything, every planner too. */
START_TEST(test_check_local_files)
{
	char dir[] = "/tmp/lsmconf-test-spec.XXXXXX", *p, *spec;
	const char *text;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	/* Nothing local to a Debian spec: the archive answers later. */
	ck_assert_str_eq(checked("debian:sid"), "");
	ck_assert_str_eq(checked("build:debian-source:7.2"), "");
	ck_assert_str_eq(
		checked("nfs:x"),
		"nfs:x: unknown kind of kernel spec (want debian:, file: or deb:)");
	ck_assert_str_eq(
		checked("file:/etc/hostname"),
		"file:/etc/hostname: /etc/hostname is not an x86 bzImage");
	ck_assert_str_eq(
		checked("file:/dev/zero"),
		"file:/dev/zero: /dev/zero: a character device, not a regular file");
	ck_assert_str_eq(
		checked("deb:/etc/hostname"),
		"deb:/etc/hostname: /etc/hostname: corrupt or truncated package (not an ar archive, as a .deb is)");
	ck_assert_str_eq(
		checked("build:debian-source:7.2+/nonexistent.patch"),
		"build:debian-source:7.2+/nonexistent.patch: cannot read patch /nonexistent.patch: No such file or directory");
	ck_assert_str_eq(
		checked("build:debian-source:seven"),
		"build:debian-source:seven: debian-source:seven is not a Debian source series (want debian-source:X.Y, e.g. debian-source:7.2)");
	ck_assert_str_eq(
		checked("build:/proc"),
		"build:/proc: /proc is not a kernel tree with AppArmor (no /proc/security/apparmor/af_unix.c)");
	/* A patch whose hunk is garbage, or a FIFO: refused now. */
	p = xasprintf("%s/bad.patch", dir);
	text = "--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\nzzz\n";
	ck_assert_int_eq(write_file(p, text, strlen(text)), 0);
	spec = xasprintf("build:debian-source:7.2+%s", p);
	ck_assert_ptr_nonnull(
		strstr(checked(spec), "line 4: the hunk of line 3"));
	free(spec);
	free(p);
	p = xasprintf("%s/fifo.patch", dir);
	ck_assert_int_eq(mkfifo(p, 0600), 0);
	spec = xasprintf("build:debian-source:7.2+%s", p);
	ck_assert_ptr_nonnull(
		strstr(checked(spec), "a FIFO, not a regular file"));
	free(spec);
	free(p);
	spec = xasprintf(
		"build:debian-source:7.2+%s/fixtures/mutants/09-errno-eperm.patch",
		LSMCONF_ROOT);
	ck_assert_str_eq(checked(spec), "");
	free(spec);
	remove_tree(dir);
}
END_TEST

static Suite *spec_suite(void)
{
	Suite *s = suite_create("spec");
	TCase *tc = tcase_create("parse");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_debian_suite);
	tcase_add_test(tc, test_debian_version);
	tcase_add_test(tc, test_is_version);
	tcase_add_test(tc, test_file_plain);
	tcase_add_test(tc, test_file_options);
	tcase_add_test(tc, test_file_options_reversed);
	tcase_add_test(tc, test_file_unknown_option);
	tcase_add_test(tc, test_file_repeated_option);
	tcase_add_test(tc, test_file_empty_option);
	tcase_add_test(tc, test_file_empty_path);
	tcase_add_test(tc, test_deb);
	tcase_add_test(tc, test_no_colon);
	tcase_add_test(tc, test_empty_scheme);
	tcase_add_test(tc, test_empty_value);
	tcase_add_test(tc, test_unknown_scheme);
	tcase_add_test(tc, test_debian_invalid_chars);
	tcase_add_test(tc, test_error_truncated);
	tcase_add_test(tc, test_error_one_line);
	tcase_add_test(tc, test_free_twice);
	tcase_add_test(tc, test_build_coverage);
	tcase_add_test(tc, test_build_source_identity);
	tcase_add_test(tc, test_check_local_files);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(spec_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
