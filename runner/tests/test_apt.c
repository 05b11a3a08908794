// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/provision/apt_parse.c: apt's texts, no apt run
 */
#include "check_run.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "provision/apt.h"

#define KEYRING "/usr/share/keyrings/debian-archive-keyring.gpg"
#define MAIN "http://example.invalid/debian"
#define SECURITY "http://example.invalid/debian-security"

static struct apt_source *src;
static size_t nsrc;
static char *out;

static void setup(void)
{
	src = NULL;
	nsrc = 0;
	out = NULL;
}

static void teardown(void)
{
	apt_sources_free(src, nsrc);
	src = NULL;
	nsrc = 0;
	free(out);
	out = NULL;
}

static void check_source(size_t i, const char *uri, const char *suite,
			 const char *signed_by)
{
	ck_assert_uint_lt(i, nsrc);
	ck_assert_str_eq(src[i].uri, uri);
	ck_assert_str_eq(src[i].suite, suite);
	if (signed_by)
		ck_assert_pstr_eq(src[i].signed_by, signed_by);
	else
		ck_assert_ptr_null(src[i].signed_by);
}

/* --- apt_parse_sources: deb822 ------------------------------------------ */

static const char deb822[] = "# Modernized from /etc/apt/sources.list\n"
			     "\n"
			     "Types: deb\n"
			     "URIs: " MAIN "\n"
			     "Suites: bookworm bookworm-updates\n"
			     "Components: main\n"
			     "Signed-By: " KEYRING "\n"
			     "\n"
			     "# The security archive\n"
			     "Types: deb\n"
			     "URIs: " SECURITY "\n"
			     "Suites: bookworm-security\n"
			     "Components: main\n"
			     "Signed-By: " KEYRING "\n"
			     "\n"
			     "Types: deb\n"
			     "URIs: http://disabled.invalid/debian\n"
			     "Suites: sid\n"
			     "Components: main\n"
			     "Enabled: no\n"
			     "\n"
			     "Types: deb-src\n"
			     "URIs: http://source.invalid/debian\n"
			     "Suites: bookworm\n"
			     "Components: main\n";

START_TEST(test_deb822)
{
	apt_parse_sources(deb822, true, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 3);
	check_source(0, MAIN, "bookworm", KEYRING);
	check_source(1, MAIN, "bookworm-updates", KEYRING);
	check_source(2, SECURITY, "bookworm-security", KEYRING);
}
END_TEST

START_TEST(test_deb822_appends)
{
	/* A second file appends to what the first one gave. */
	apt_parse_sources(deb822, true, &src, &nsrc);
	apt_parse_sources(
		"Types: deb deb-src\n"
		"URIs: http://a.invalid/debian http://b.invalid/debian\n"
		"Suites: trixie\n",
		true, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 5);
	check_source(2, SECURITY, "bookworm-security", KEYRING);
	check_source(3, "http://a.invalid/debian", "trixie", NULL);
	check_source(4, "http://b.invalid/debian", "trixie", NULL);
}
END_TEST

START_TEST(test_deb822_case_and_order)
{
	apt_parse_sources("suites: sid\n"
			  "signed-by: /k.gpg\n"
			  "uris: http://x.invalid/debian\n"
			  "types: deb\n"
			  "\n"
			  "Enabled: No\n"
			  "Types: deb\n"
			  "URIs: http://off.invalid/debian\n"
			  "Suites: sid\n"
			  "\n"
			  "Types: deb\n"
			  "URIs: http://on.invalid/debian\n"
			  "Suites: trixie\n"
			  "Enabled: yes\n",
			  true, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 2);
	check_source(0, "http://x.invalid/debian", "sid", "/k.gpg");
	check_source(1, "http://on.invalid/debian", "trixie", NULL);
}
END_TEST

START_TEST(test_deb822_incomplete)
{
	/* A stanza without URIs, Suites or Types gives nothing. */
	apt_parse_sources("Types: deb\nSuites: sid\n\n"
			  "Types: deb\nURIs: http://x.invalid/debian\n\n"
			  "URIs: http://x.invalid/debian\nSuites: sid\n\n"
			  "# only a comment\n\n"
			  "\n",
			  true, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 0);
	ck_assert_ptr_null(src);
	apt_parse_sources("", true, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 0);
}
END_TEST

START_TEST(test_deb822_inline_key)
{
	/*
	 * Signed-By may hold the key itself on continuation lines
	 * (sources.list(5)). There is no path to name in a one-line
	 * sources.list, and "[signed-by=]" makes apt reject the whole file
	 * ("Malformed entry 1 ... ([option] no value)").
	 */
	static const char *const suites[] = { "sid", NULL };

	apt_parse_sources(
		"Types: deb\n"
		"URIs: " MAIN "\n"
		"Suites: bookworm\n"
		"Signed-By:\n"
		" -----BEGIN PGP PUBLIC KEY BLOCK-----\n"
		" .\n"
		" mDMEZXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX\n"
		" -----END PGP PUBLIC KEY BLOCK-----\n",
		true, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 1);
	ck_assert_str_eq(src[0].uri, MAIN);
	ck_assert_str_eq(src[0].suite, "bookworm");
	if (src[0].signed_by)
		ck_assert_str_ne(src[0].signed_by, "");
	out = apt_private_sources(src, nsrc, suites);
	ck_assert_ptr_nonnull(out);
	ck_assert_ptr_null(strstr(out, "signed-by=]"));
}
END_TEST

/* --- apt_parse_sources: one-line ---------------------------------------- */

START_TEST(test_one_line)
{
	apt_parse_sources(
		"# See sources.list(5)\n"
		"deb " MAIN " bookworm main contrib non-free-firmware\n"
		"deb [signed-by=" KEYRING "] " SECURITY
		" bookworm-security main\n"
		"deb [arch=amd64 signed-by=/k2.gpg] http://x.invalid/debian"
		" trixie main\n"
		"deb [ arch=amd64 ] http://y.invalid/debian sid main\n"
		"# deb http://commented.invalid/debian sid main\n"
		"deb-src " MAIN " bookworm main\n"
		"\n"
		"  deb\thttp://tab.invalid/debian\tsid main  \n"
		"deb http://incomplete.invalid/debian\n"
		"deb [signed-by=/broken.gpg http://unclosed.invalid sid\n"
		"deb http://flat.invalid/repo ./",
		false, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 6);
	check_source(0, MAIN, "bookworm", NULL);
	check_source(1, SECURITY, "bookworm-security", KEYRING);
	check_source(2, "http://x.invalid/debian", "trixie", "/k2.gpg");
	check_source(3, "http://y.invalid/debian", "sid", NULL);
	check_source(4, "http://tab.invalid/debian", "sid", NULL);
	check_source(5, "http://flat.invalid/repo", "./", NULL);
}
END_TEST

/* --- apt_private_sources ------------------------------------------------- */

static const char *const three[] = { "bookworm", "trixie", "sid", NULL };

static const char want_three[] =
	"deb [signed-by=" KEYRING "] " MAIN " bookworm main\n"
	"deb [signed-by=" KEYRING "] " MAIN " trixie main\n"
	"deb [signed-by=" KEYRING "] " MAIN " sid main\n"
	"deb [signed-by=" KEYRING "] " SECURITY " bookworm-security main\n";

START_TEST(test_private_from_deb822)
{
	apt_parse_sources(deb822, true, &src, &nsrc);
	out = apt_private_sources(src, nsrc, three);
	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, want_three);
}
END_TEST

START_TEST(test_private_skips_third_party)
{
	/* A repository with its own key serves no Debian suites. */
	apt_parse_sources(
		"deb [signed-by=/etc/apt/keyrings/docker.gpg]"
		" http://docker.invalid/linux/debian bookworm stable\n"
		"deb [signed-by=" KEYRING "] " MAIN " bookworm main\n"
		"deb [signed-by=" KEYRING "] " SECURITY
		" bookworm-security main\n",
		false, &src, &nsrc);
	out = apt_private_sources(src, nsrc, three);
	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, want_three);
}
END_TEST

START_TEST(test_private_dedup)
{
	/* The main archive named twice, plus entries that serve nothing. */
	apt_parse_sources(
		"deb [signed-by=" KEYRING "] " MAIN " bookworm main\n"
		"deb [signed-by=" KEYRING "] " MAIN " bookworm-updates main\n"
		"deb [signed-by=" KEYRING "] " SECURITY
		" bookworm-security main\n"
		"deb [signed-by=" KEYRING "] " MAIN " sid main\n"
		"deb [signed-by=" KEYRING "] " MAIN " bookworm-backports main\n"
		"deb [signed-by=" KEYRING "] " SECURITY
		" bookworm-security main contrib\n"
		"deb http://flat.invalid/repo ./\n"
		"deb http://old.invalid/debian-security buster/updates"
		" main\n",
		false, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 8);
	out = apt_private_sources(src, nsrc, three);
	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, want_three);
}
END_TEST

START_TEST(test_private_unsigned)
{
	static const char *const one[] = { "trixie", NULL };

	apt_parse_sources("deb " MAIN " bookworm main\n"
			  "deb " SECURITY " bookworm-security main\n",
			  false, &src, &nsrc);
	out = apt_private_sources(src, nsrc, one);
	ck_assert_ptr_nonnull(out);
	ck_assert_str_eq(out, "deb " MAIN " trixie main\n"
			      "deb " SECURITY " bookworm-security main\n");
}
END_TEST

START_TEST(test_private_none)
{
	ck_assert_ptr_null(apt_private_sources(NULL, 0, three));

	/* Only suites that serve nothing: -updates, -backports, flat. */
	apt_parse_sources("deb " MAIN " bookworm-updates main\n"
			  "deb " MAIN " bookworm-backports main\n"
			  "deb http://flat.invalid/repo ./\n",
			  false, &src, &nsrc);
	ck_assert_uint_eq(nsrc, 3);
	ck_assert_ptr_null(apt_private_sources(src, nsrc, three));
}
END_TEST

/* --- apt_madison_pick ---------------------------------------------------- */

static const char madison[] =
	"linux-image-amd64 |   7.2.13-1 | http://example.invalid/debian sid/main amd64 Packages\n"
	"linux-image-amd64 | 6.12.117-1 | http://example.invalid/debian trixie/main amd64 Packages\n"
	"linux-image-amd64 | 6.12.95-1~bpo12+1 | http://example.invalid/debian bookworm-backports/main amd64 Packages\n"
	"linux-image-amd64 |  6.1.192-3 | http://example.invalid/debian-security bookworm-security/main amd64 Packages\n"
	"linux-image-amd64 |  6.1.176-1 | http://example.invalid/debian bookworm/main amd64 Packages\n";

static void pick(const char *text, const char *pkg, const char *suite,
		 const char *want)
{
	char *got = apt_madison_pick(text, pkg, suite);

	if (want) {
		ck_assert_msg(got && !strcmp(got, want),
			      "%s/%s: got \"%s\", want \"%s\"", pkg,
			      suite ? suite : "(any)", got ? got : "(null)",
			      want);
	} else {
		ck_assert_msg(!got, "%s/%s: got \"%s\", want nothing", pkg,
			      suite ? suite : "(any)", got);
	}
	free(got);
}

START_TEST(test_madison_suites)
{
	pick(madison, "linux-image-amd64", "sid", "7.2.13-1");
	pick(madison, "linux-image-amd64", "trixie", "6.12.117-1");
	pick(madison, "linux-image-amd64", "bookworm-backports",
	     "6.12.95-1~bpo12+1");
	pick(madison, "linux-image-amd64", "bookworm-security", "6.1.192-3");
	/* Not the security archive's, though it comes first and is newer. */
	pick(madison, "linux-image-amd64", "bookworm", "6.1.176-1");
}
END_TEST

START_TEST(test_madison_any)
{
	pick(madison, "linux-image-amd64", NULL, "7.2.13-1");
}
END_TEST

START_TEST(test_madison_none)
{
	pick(madison, "linux-image-amd64", "forky", NULL);
	pick(madison, "linux-image-amd64", "book", NULL);
	pick(madison, "linux-headers-amd64", NULL, NULL);
	pick(madison, "linux-headers-amd64", "sid", NULL);
	/* Package names match whole, not as a prefix. */
	pick(madison, "linux-image", NULL, NULL);
	pick("", "linux-image-amd64", NULL, NULL);
	pick("N: Unable to locate package linux-image-amd64\n",
	     "linux-image-amd64", NULL, NULL);
}
END_TEST

START_TEST(test_madison_other_packages)
{
	pick("linux-source | 7.2.13-1 | http://x.invalid/debian sid/main all Packages\n"
	     "linux-source-7.2 | 7.2.13-1 | http://x.invalid/debian sid/main all Packages\n"
	     "linux-source | 6.12.117-1 | http://x.invalid/debian trixie/main all Packages",
	     "linux-source", "trixie", "6.12.117-1");
	pick("linux-source | 7.2.13-1 | http://x.invalid/debian sid/main all Packages\n"
	     "linux-source-7.2 | 7.2.13-2 | http://x.invalid/debian sid/main all Packages\n",
	     "linux-source-7.2", NULL, "7.2.13-2");
}
END_TEST

/* --- apt_stanza_field ---------------------------------------------------- */

static const char stanza[] =
	"Package: linux-image-amd64\n"
	"Source: linux-signed-amd64 (7.2.13+1)\n"
	"Version: 7.2.13-1\n"
	"Pre-Depends: dpkg (>= 1.19)\n"
	"Depends: linux-image-7.2.13+deb14-amd64 (= 7.2.13-1)\n"
	"Description: Linux for 64-bit PCs (meta-package)\n"
	" This package depends on the latest Linux kernel.\n"
	"Filename: pool/main/l/linux-signed-amd64/linux-image-amd64_7.2.13-1_amd64.deb\n"
	"SHA256:   0123456789abcdef  \n"
	"\n"
	"Package: linux-image-amd64\n"
	"Version: 6.12.117-1\n"
	"Size: 1234\n";

static void field(const char *text, const char *name, const char *want)
{
	char *got = apt_stanza_field(text, name);

	if (want)
		ck_assert_msg(got && !strcmp(got, want),
			      "%s: got \"%s\", want \"%s\"", name,
			      got ? got : "(null)", want);
	else
		ck_assert_msg(!got, "%s: got \"%s\", want nothing", name, got);
	free(got);
}

START_TEST(test_stanza_field)
{
	field(stanza, "Package", "linux-image-amd64");
	field(stanza, "Version", "7.2.13-1");
	field(stanza, "Depends", "linux-image-7.2.13+deb14-amd64 (= 7.2.13-1)");
	field(stanza, "Pre-Depends", "dpkg (>= 1.19)");
	field(stanza, "Description", "Linux for 64-bit PCs (meta-package)");
	field(stanza, "Filename",
	      "pool/main/l/linux-signed-amd64/linux-image-amd64_7.2.13-1_amd64.deb");
	field(stanza, "SHA256", "0123456789abcdef");
}
END_TEST

START_TEST(test_stanza_field_case)
{
	field(stanza, "version", "7.2.13-1");
	field(stanza, "VERSION", "7.2.13-1");
	field(stanza, "sha256", "0123456789abcdef");
	field("package: x\n", "Package", "x");
}
END_TEST

START_TEST(test_stanza_field_absent)
{
	/* Only in the second stanza. */
	field(stanza, "Size", NULL);
	field(stanza, "Recommends", NULL);
	/* A name is matched whole, not as a prefix or a suffix. */
	field(stanza, "Pack", NULL);
	field(stanza, "Depend", NULL);
	field(stanza, "SHA", NULL);
	field("", "Package", NULL);
	field("\nPackage: x\n", "Package", NULL);
}
END_TEST

START_TEST(test_stanza_field_edges)
{
	/* No final newline, no space after the colon, empty value. */
	field("Package: a\nVersion:1.0", "Version", "1.0");
	field("Package: a\nVersion:\n", "Version", "");
	field("Package:\ta b \t\n", "Package", "a b");
}
END_TEST

/* --- apt_depends_find ---------------------------------------------------- */

static const char depends_meta[] =
	"linux-base-amd64 (= 7.2.13-1), "
	"linux-image-7.2.13+deb14-amd64 (= 7.2.13-1)";

static const char depends_image[] =
	"dracut | initramfs-tools (>= 0.120+deb8u2) | linux-initramfs-tool, "
	"linux-base-7.2.13+deb14-amd64 (= 7.2.13-1), "
	"linux-binary-7.2.13+deb14-amd64 (= 7.2.13-1), "
	"linux-modules-7.2.13+deb14-amd64 (= 7.2.13-1)";

static void dep(const char *depends, const char *prefix, const char *suffix,
		const char *want)
{
	char *got = apt_depends_find(depends, prefix, suffix);

	if (want)
		ck_assert_msg(got && !strcmp(got, want),
			      "%s*%s: got \"%s\", want \"%s\"", prefix, suffix,
			      got ? got : "(null)", want);
	else
		ck_assert_msg(!got, "%s*%s: got \"%s\", want nothing", prefix,
			      suffix, got);
	free(got);
}

START_TEST(test_depends_meta)
{
	dep(depends_meta, "linux-image-", "-amd64",
	    "linux-image-7.2.13+deb14-amd64");
	/* "linux-base-amd64" has nothing between prefix and suffix. */
	dep(depends_meta, "linux-base-", "-amd64", NULL);
}
END_TEST

START_TEST(test_depends_image)
{
	dep(depends_image, "linux-binary-", "-amd64",
	    "linux-binary-7.2.13+deb14-amd64");
	dep(depends_image, "linux-modules-", "-amd64",
	    "linux-modules-7.2.13+deb14-amd64");
	dep(depends_image, "linux-base-", "-amd64",
	    "linux-base-7.2.13+deb14-amd64");
	/* Alternatives count, each one whole. */
	dep(depends_image, "initramfs-", "", "initramfs-tools");
	dep(depends_image, "linux-initramfs-", "", "linux-initramfs-tool");
	dep(depends_image, "dra", "", "dracut");
}
END_TEST

START_TEST(test_depends_no_suffix)
{
	dep("linux-source-7.2", "linux-source-", "", "linux-source-7.2");
	dep("linux-source-7.2 (= 7.2.13-1)", "linux-source-", "",
	    "linux-source-7.2");
	dep("binutils, linux-source-7.2, bc", "linux-source-", "",
	    "linux-source-7.2");
	/* The prefix alone is no match. */
	dep("linux-source-", "linux-source-", "", NULL);
}
END_TEST

START_TEST(test_depends_none)
{
	dep(depends_meta, "linux-binary-", "-amd64", NULL);
	dep(depends_image, "linux-image-", "-amd64", NULL);
	dep(depends_image, "linux-binary-", "-arm64", NULL);
	/* Versions in parentheses are no package names. */
	dep(depends_image, "7.2", "", NULL);
	dep("", "linux-image-", "-amd64", NULL);
}
END_TEST

/* --- apt_suites / apt_is_suite ------------------------------------------- */

START_TEST(test_suites_default)
{
	const char *const *s;

	unsetenv("LSMCONF_DEBIAN_SUITES");
	s = apt_suites();
	ck_assert_str_eq(s[0], "bookworm");
	ck_assert_str_eq(s[1], "bookworm-backports");
	ck_assert_str_eq(s[2], "trixie");
	ck_assert_str_eq(s[3], "sid");
	ck_assert_ptr_null(s[4]);
	ck_assert(apt_is_suite("bookworm"));
	ck_assert(apt_is_suite("bookworm-backports"));
	ck_assert(apt_is_suite("trixie"));
	ck_assert(apt_is_suite("sid"));
	ck_assert(!apt_is_suite("forky"));
	ck_assert(!apt_is_suite("bookworm-security"));
	ck_assert(!apt_is_suite("7.2.13+deb14"));
	ck_assert(!apt_is_suite("Sid"));
	ck_assert(!apt_is_suite(""));

	/* An empty variable is no override. */
	setenv("LSMCONF_DEBIAN_SUITES", "", 1);
	ck_assert_str_eq(apt_suites()[0], "bookworm");
	ck_assert(apt_is_suite("trixie"));
	unsetenv("LSMCONF_DEBIAN_SUITES");
}
END_TEST

/*
 * apt_suites() remembers the first override it sees, so this is the only
 * test that sets one (each test runs in its own process unless CK_FORK=no,
 * and then this one runs last).
 */
START_TEST(test_suites_env)
{
	const char *const *s;

	setenv("LSMCONF_DEBIAN_SUITES", "trixie, forky,,sid", 1);
	s = apt_suites();
	ck_assert_str_eq(s[0], "trixie");
	ck_assert_str_eq(s[1], "forky");
	ck_assert_str_eq(s[2], "sid");
	ck_assert_ptr_null(s[3]);
	ck_assert(apt_is_suite("forky"));
	ck_assert(apt_is_suite("trixie"));
	ck_assert(apt_is_suite("sid"));
	ck_assert(!apt_is_suite("bookworm"));
	ck_assert(!apt_is_suite("bookworm-backports"));
	ck_assert(!apt_is_suite(""));
	unsetenv("LSMCONF_DEBIAN_SUITES");
	ck_assert(apt_is_suite("bookworm"));
}
END_TEST

static Suite *apt_suite(void)
{
	Suite *s = suite_create("apt");

	CHECK_TCASE(s, "sources", setup, teardown, test_deb822,
		    test_private_skips_third_party, test_deb822_appends,
		    test_deb822_case_and_order, test_deb822_incomplete,
		    test_deb822_inline_key, test_one_line,
		    test_private_from_deb822, test_private_dedup,
		    test_private_unsigned, test_private_none);
	CHECK_TCASE(s, "madison", NULL, NULL, test_madison_suites,
		    test_madison_any, test_madison_none,
		    test_madison_other_packages);
	CHECK_TCASE(s, "stanza", NULL, NULL, test_stanza_field,
		    test_stanza_field_case, test_stanza_field_absent,
		    test_stanza_field_edges);
	CHECK_TCASE(s, "depends", NULL, NULL, test_depends_meta,
		    test_depends_image, test_depends_no_suffix,
		    test_depends_none);
	CHECK_TCASE(s, "suites", NULL, NULL, test_suites_default);
	/* Last: see test_suites_env. */
	CHECK_TCASE(s, "suites_env", NULL, NULL, test_suites_env);
	return s;
}

int main(void)
{
	return check_run_suite(apt_suite());
}
