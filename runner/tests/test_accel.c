// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for the pure parts of runner/vm/accel.c (the KVM/TCG memo)
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "vm/accel.h"
#include "lib/lib.h"

#include <sys/stat.h>
#include <unistd.h>
#include "check_run.h"

/* Memo keys as accel_host_key() makes them; K2 starts with all of K. */
#define K "build1|6.12.48+deb13-amd64|/usr/bin/qemu-system-x86_64|1234|99"
#define K2 K "9"
#define OTHER "build2|6.12.48+deb13-amd64|/usr/bin/qemu-system-x86_64|1|2"

#define NOW 1700000000L
#define TTL 3600L

static char reason[128];

static enum accel_memo find(const char *text, const char *key, long now)
{
	strcpy(reason, "untouched");
	return accel_memo_find(text, key, now, TTL, reason, sizeof(reason));
}

START_TEST(test_find_empty)
{
	ck_assert_int_eq(find(NULL, K, NOW), ACCEL_UNKNOWN);
	ck_assert_str_eq(reason, "");
	ck_assert_int_eq(find("", K, NOW), ACCEL_UNKNOWN);
	ck_assert_str_eq(reason, "");
	ck_assert_int_eq(find("\n\n", K, NOW), ACCEL_UNKNOWN);
	ck_assert_str_eq(reason, "");
}
END_TEST

START_TEST(test_find_kvm_tcg)
{
	static const char text[] =
		OTHER "\ttcg\t1699999000\tno output under KVM\n" K
		      "\tkvm\t1699999990\ta guest printed under KVM\n";

	ck_assert_int_eq(find(text, K, NOW), ACCEL_KVM);
	ck_assert_str_eq(reason, "a guest printed under KVM");
	ck_assert_int_eq(find(text, OTHER, NOW), ACCEL_TCG);
	ck_assert_str_eq(reason, "no output under KVM");
	/* The last line without its newline. */
	ck_assert_int_eq(find(K "\ttcg\t1699999999\tboot timed out", K, NOW),
			 ACCEL_TCG);
	ck_assert_str_eq(reason, "boot timed out");
	/* Blank lines around it. */
	ck_assert_int_eq(find("\n\n" K "\tkvm\t1700000000\tr\n\n", K, NOW),
			 ACCEL_KVM);
	ck_assert_str_eq(reason, "r");
}
END_TEST

START_TEST(test_find_other_key)
{
	ck_assert_int_eq(find(OTHER "\tkvm\t1700000000\tr\n", K, NOW),
			 ACCEL_UNKNOWN);
	ck_assert_str_eq(reason, "");
	/* K is a prefix of K2: neither line is the other's. */
	ck_assert_int_eq(find(K2 "\tkvm\t1700000000\tr\n", K, NOW),
			 ACCEL_UNKNOWN);
	ck_assert_str_eq(reason, "");
	ck_assert_int_eq(find(K "\tkvm\t1700000000\tr\n", K2, NOW),
			 ACCEL_UNKNOWN);
	ck_assert_int_eq(find(K2 "\ttcg\t1700000000\tr2\n" K
				 "\tkvm\t1700000000\tr\n",
			      K, NOW),
			 ACCEL_KVM);
	ck_assert_str_eq(reason, "r");
	/* The key in the middle of a line is not its key. */
	ck_assert_int_eq(find("x" K "\tkvm\t1700000000\tr\n", K, NOW),
			 ACCEL_UNKNOWN);
	ck_assert_int_eq(
		find(OTHER "\ttcg\t1700000000\t" K "\tkvm\t1\tr\n", K, NOW),
		ACCEL_UNKNOWN);
}
END_TEST

START_TEST(test_find_expiry)
{
	static const char text[] = K "\tkvm\t1699996400\tr\n";

	/* Exactly @ttl old is still good; a second more is not. */
	ck_assert_int_eq(find(text, K, 1699996400L + TTL), ACCEL_KVM);
	ck_assert_str_eq(reason, "r");
	ck_assert_int_eq(find(text, K, 1699996400L + TTL + 1), ACCEL_UNKNOWN);
	ck_assert_str_eq(reason, "");
	ck_assert_int_eq(find(text, K, 1699996400L), ACCEL_KVM);
	/* Written in the future: the clock moved; not trusted. */
	ck_assert_int_eq(find(text, K, 1699996399L), ACCEL_UNKNOWN);
	ck_assert_str_eq(reason, "");
	ck_assert_int_eq(find(K "\ttcg\t1700000001\tr\n", K, NOW),
			 ACCEL_UNKNOWN);
}
END_TEST

START_TEST(test_find_malformed)
{
	static const char *const bad[] = {
		K "\n",
		K "\tkvm\n",
		K "\tkvm",
		K "\tkvm\tsoon\tr\n",
		K "\tkvm\t1700000000s\tr\n",
		K "\tKVM\t1700000000\tr\n",
		K "\t\t1700000000\tr\n",
		K "\tmaybe\t1700000000\tr\n",
		K "\tunknown\t1700000000\tr\n",
		K "\tkvmkvmkvm\t1700000000\tr\n",
		/* The timestamp on the next line is not this line's. */
		K "\tkvm\n1700000000\tr\n",
		K "\tkvm\t\n1700000000\tr\n",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_msg(find(bad[i], K, NOW) == ACCEL_UNKNOWN, "line %zu",
			      i);
		ck_assert_msg(!reason[0], "line %zu: reason \"%s\"", i, reason);
	}
	/* A bad line for another key does not hide this one's. */
	ck_assert_int_eq(
		find(OTHER "\tkvm\n" K "\ttcg\t1700000000\tr\n", K, NOW),
		ACCEL_TCG);
	ck_assert_str_eq(reason, "r");
}
END_TEST

START_TEST(test_find_empty_reason)
{
	/* The reason ends with its line, even when it is empty. */
	ck_assert_int_eq(find(K "\tkvm\t1700000000\t\n" OTHER
				"\ttcg\t1700000000\tother reason\n",
			      K, NOW),
			 ACCEL_KVM);
	ck_assert_str_eq(reason, "");
	ck_assert_int_eq(find(K "\ttcg\t1700000000\t", K, NOW), ACCEL_TCG);
	ck_assert_str_eq(reason, "");
}
END_TEST

START_TEST(test_find_reason_size)
{
	static const char text[] = K "\tkvm\t1700000000\ta long reason\n";
	char small[8];

	memset(small, 'Z', sizeof(small));
	ck_assert_int_eq(accel_memo_find(text, K, NOW, TTL, small, 5),
			 ACCEL_KVM);
	ck_assert_str_eq(small, "a lo");
	ck_assert_int_eq(small[5], 'Z');
	memset(small, 'Z', sizeof(small));
	ck_assert_int_eq(accel_memo_find(text, K, NOW, TTL, small, 0),
			 ACCEL_KVM);
	ck_assert_int_eq(small[0], 'Z');
}
END_TEST

START_TEST(test_set_new)
{
	char *s;

	s = accel_memo_set(NULL, K, ACCEL_KVM, NOW, "a guest printed");
	ck_assert_str_eq(s, K "\tkvm\t1700000000\ta guest printed\n");
	free(s);
	s = accel_memo_set("", K, ACCEL_TCG, NOW, "boot timed out");
	ck_assert_str_eq(s, K "\ttcg\t1700000000\tboot timed out\n");
	free(s);
	s = accel_memo_set(NULL, K, ACCEL_TCG, NOW, NULL);
	ck_assert_str_eq(s, K "\ttcg\t1700000000\t\n");
	free(s);
	/* Another key's line stays; the new one comes after it. */
	s = accel_memo_set(OTHER "\tkvm\t5\tr", K, ACCEL_TCG, NOW, "x");
	ck_assert_str_eq(s, OTHER "\tkvm\t5\tr\n" K "\ttcg\t1700000000\tx\n");
	free(s);
}
END_TEST

START_TEST(test_set_replace)
{
	char *s;

	s = accel_memo_set("A\ttcg\t1\ta\n" K "\ttcg\t2\told\n"
			   "B\tkvm\t3\tb\n",
			   K, ACCEL_KVM, NOW, "new");
	ck_assert_str_eq(s, "A\ttcg\t1\ta\nB\tkvm\t3\tb\n" K
			    "\tkvm\t1700000000\tnew\n");
	free(s);
	/*
	 * Every line of the key goes (one line per key), K2's stays,
	 * blank lines go.
	 */
	s = accel_memo_set(K "\ttcg\t1\tone\n\n" K2 "\tkvm\t2\tk2\n" K
			     "\tkvm\t3\ttwo\n\nC\ttcg\t4\tc",
			   K, ACCEL_TCG, NOW, "three");
	ck_assert_str_eq(s, K2 "\tkvm\t2\tk2\nC\ttcg\t4\tc\n" K
			       "\ttcg\t1700000000\tthree\n");
	free(s);
	/* Replacing K2 keeps K. */
	s = accel_memo_set(K "\ttcg\t1\tone\n" K2 "\tkvm\t2\tk2\n", K2,
			   ACCEL_TCG, NOW, "k2 again");
	ck_assert_str_eq(s, K "\ttcg\t1\tone\n" K2
			      "\ttcg\t1700000000\tk2 again\n");
	free(s);
}
END_TEST

START_TEST(test_set_flattens_reason)
{
	char *s;

	s = accel_memo_set(NULL, K, ACCEL_TCG, NOW,
			   "QEMU said:\n\tkvm: failed\tto init\n");
	ck_assert_str_eq(s, K "\ttcg\t1700000000\t"
			      "QEMU said:  kvm: failed to init \n");
	free(s);
}
END_TEST

START_TEST(test_round_trip)
{
	char *a, *b, *c;

	a = accel_memo_set(NULL, K, ACCEL_TCG, NOW - 10,
			   "no output\tunder KVM\nin 60 s");
	b = accel_memo_set(a, OTHER, ACCEL_KVM, NOW - 5, "guest printed");
	ck_assert_int_eq(find(b, K, NOW), ACCEL_TCG);
	ck_assert_str_eq(reason, "no output under KVM in 60 s");
	ck_assert_int_eq(find(b, OTHER, NOW), ACCEL_KVM);
	ck_assert_str_eq(reason, "guest printed");
	ck_assert_int_eq(find(b, K2, NOW), ACCEL_UNKNOWN);
	/* A new answer for K wins over the old one. */
	c = accel_memo_set(b, K, ACCEL_KVM, NOW, "retried");
	ck_assert_int_eq(find(c, K, NOW), ACCEL_KVM);
	ck_assert_str_eq(reason, "retried");
	ck_assert_int_eq(find(c, OTHER, NOW), ACCEL_KVM);
	ck_assert_int_eq(find(c, K, NOW + TTL + 1), ACCEL_UNKNOWN);
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(test_round_trip_empty_reason)
{
	char *a, *b;

	/* An empty reason, then another key's line after it. */
	a = accel_memo_set(NULL, K, ACCEL_KVM, NOW, "");
	b = accel_memo_set(a, OTHER, ACCEL_TCG, NOW, "other reason");
	ck_assert_int_eq(find(b, K, NOW), ACCEL_KVM);
	ck_assert_str_eq(reason, "");
	ck_assert_int_eq(find(b, OTHER, NOW), ACCEL_TCG);
	ck_assert_str_eq(reason, "other reason");
	free(a);
	free(b);
	/* An answer of "unknown" is remembered as no answer. */
	a = accel_memo_set(NULL, K, ACCEL_UNKNOWN, NOW, "r");
	ck_assert_str_eq(a, K "\tunknown\t1700000000\tr\n");
	ck_assert_int_eq(find(a, K, NOW), ACCEL_UNKNOWN);
	free(a);
}
END_TEST

/*
 * A stand-in QEMU that prints @help for -help and otherwise runs @run
 * (a shell command): does it load plugins?
 */
static bool plugins_with(const char *help, const char *run)
{
	char dir[] = "/tmp/lsmconf-accel-XXXXXX", *qemu, *text;
	bool ret;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	qemu = xasprintf("%s/qemu", dir);
	text = xasprintf(
		"#!/bin/sh\n"
		"[ \"$1\" = -help ] && { printf '%%s' '%s'; exit 0; }\n"
		"%s\n",
		help, run);
	ck_assert_int_eq(write_file(qemu, text, strlen(text)), 0);
	ck_assert_int_eq(chmod(qemu, 0755), 0);
	setenv("LSMCONF_QEMU", qemu, 1);
	ret = accel_qemu_plugins("/nonexistent/plugin.so");
	unsetenv("LSMCONF_QEMU");
	unlink(qemu);
	rmdir(dir);
	free(text);
	free(qemu);
	return ret;
}

#define HELP_WITH "-icount ...\n-plugin [file=]<file>\n-qmp\n"

/*
 * Each test runs in its own process: the answer is cached per process.
 * Listed, and the paused QEMU stays up (blocks on a pipe that never
 * ends until it is killed): yes.
 */
START_TEST(test_plugins_loaded)
{
	ck_assert(plugins_with(HELP_WITH, "exec tail -f /dev/null"));
}
END_TEST

/* Listed, but the QEMU exits at once (another plugin API version): no. */
START_TEST(test_plugins_refused)
{
	ck_assert(!plugins_with(HELP_WITH,
				"echo 'Could not load plugin' >&2; exit 1"));
}
END_TEST

/* "-plugin" only inside another option's text: no, not even tried. */
START_TEST(test_plugins_absent)
{
	ck_assert(!plugins_with("-icount ...\n-qmp dev (see -plugin docs)\n",
				"exec tail -f /dev/null"));
}
END_TEST

int main(void)
{
	return CHECK_RUN(
		"accel", test_plugins_loaded, test_plugins_refused,
		test_plugins_absent, test_find_empty, test_find_kvm_tcg,
		test_find_other_key, test_find_expiry, test_find_malformed,
		test_find_empty_reason, test_find_reason_size, test_set_new,
		test_set_replace, test_set_flattens_reason, test_round_trip,
		test_round_trip_empty_reason);
}
