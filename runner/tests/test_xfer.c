// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/vm/xfer.c: finding and checking frames on the
 * data port (xfer_parse, xfer_next). Unpacking them: test_untar.c.
 */
#include "check_run.h"
#include "xfer_fixture.h"

#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/util.h"
#include "vm/xfer.h"

static char *tar, *buf;
static size_t tar_len, len, off;
static const char *payload;
static size_t plen;
static char err[256];

static void parse_setup(void)
{
	tar = tar_make(results_tar, 3, false, &tar_len);
	buf = frame(noise, sizeof(noise) - 1, tar, tar_len, TAIL, &len, &off);
	payload = NULL;
	plen = 0;
	strcpy(err, "untouched");
}

static void parse_teardown(void)
{
	free(tar);
	free(buf);
	tar = buf = NULL;
}

static void parse_fails(const char *b, size_t l, const char *phrase)
{
	strcpy(err, "untouched");
	ck_assert_int_eq(xfer_parse(b, l, &payload, &plen, err, sizeof(err)),
			 -1);
	ck_assert_msg(strstr(err, phrase), "error \"%s\" lacks \"%s\"", err,
		      phrase);
	ck_assert_ptr_null(strchr(err, '\n'));
}

/* --- xfer_parse ---------------------------------------------------------- */

START_TEST(test_parse_ok)
{
	ck_assert_int_eq(
		xfer_parse(buf, len, &payload, &plen, err, sizeof(err)), 0);
	ck_assert_ptr_eq(payload, buf + off);
	ck_assert_uint_eq(plen, tar_len);
	ck_assert_mem_eq(payload, tar, tar_len);
}
END_TEST

START_TEST(test_parse_no_noise)
{
	char *b;
	size_t l, o;

	/* Header at the very start, and trailing noise after the end. */
	b = frame("", 0, tar, tar_len, TAIL "lsmconf: results sent\n", &l, &o);
	ck_assert_uint_eq(o, strlen("LSMCONF-RESULTS  \n") + 64 +
				     snprintf(NULL, 0, "%zu", tar_len));
	ck_assert_int_eq(xfer_parse(b, l, &payload, &plen, err, sizeof(err)),
			 0);
	ck_assert_ptr_eq(payload, b + o);
	ck_assert_uint_eq(plen, tar_len);
	free(b);
}
END_TEST

START_TEST(test_parse_empty_payload)
{
	char *b;
	size_t l, o;

	b = frame("x", 1, "", 0, TAIL, &l, &o);
	ck_assert_int_eq(xfer_parse(b, l, &payload, &plen, err, sizeof(err)),
			 0);
	ck_assert_uint_eq(plen, 0);
	ck_assert_ptr_eq(payload, b + o);
	free(b);
}
END_TEST

START_TEST(test_parse_empty)
{
	parse_fails("", 0, "no results received");
	/* Only the length counts, not what the pointer holds. */
	parse_fails(buf, 0, "no results received");
}
END_TEST

START_TEST(test_parse_no_header)
{
	parse_fails(noise, sizeof(noise) - 1, "no results header");
	parse_fails("lsmconf: tests start\n", 21, "no results header");
	/* The header cut off by the end of the data. */
	parse_fails("noise\nLSMCONF-RES", 17, "no results header");
}
END_TEST

START_TEST(test_parse_header_past_len)
{
	/*
	 * The real frame follows in memory, but @len ends 10 bytes into
	 * its header: there is no header within @len.
	 */
	parse_fails(buf, sizeof(noise) - 1 + 10, "no results header");
}
END_TEST

START_TEST(test_parse_malformed)
{
	static const char sum[] = "0123456789abcdef0123456789abcdef"
				  "0123456789abcdef0123456789abcdef";
	char b[256];

	strcpy(b, "LSMCONF-RESULTS abc def\n" TAIL);
	parse_fails(b, strlen(b), "malformed");
	snprintf(b, sizeof(b), "LSMCONF-RESULTS %s\n" TAIL, sum);
	parse_fails(b, strlen(b), "malformed");
	/* The checksum too short, or not lowercase hex. */
	snprintf(b, sizeof(b), "LSMCONF-RESULTS 0 %.63s\n" TAIL, sum);
	parse_fails(b, strlen(b), "malformed");
	snprintf(b, sizeof(b), "LSMCONF-RESULTS 0 %.60sABCD\n" TAIL, sum);
	parse_fails(b, strlen(b), "malformed");
	/* No newline after the header. */
	snprintf(b, sizeof(b), "noise LSMCONF-RESULTS 0 %s", sum);
	parse_fails(b, strlen(b), "malformed");
}
END_TEST

START_TEST(test_parse_truncated)
{
	/* Cut in the middle of the payload. */
	parse_fails(buf, off + tar_len / 2, "truncated");
	/* Right after the payload, and in the middle of the end marker. */
	parse_fails(buf, off + tar_len, "truncated");
	parse_fails(buf, len - 1, "truncated");
	/* Right after the header line. */
	parse_fails(buf, off, "truncated");
}
END_TEST

START_TEST(test_parse_no_end_marker)
{
	char *b;
	size_t l;

	b = frame(noise, sizeof(noise) - 1, tar, tar_len, "LSMCONF-EDN\n", &l,
		  NULL);
	parse_fails(b, l, "end marker missing");
	free(b);
	/* The payload is longer than the header says. */
	b = frame("", 0, tar, tar_len, TAIL, &l, NULL);
	memmove(b + l - strlen(TAIL) + 1, b + l - strlen(TAIL),
		strlen(TAIL) - 1);
	b[l - strlen(TAIL)] = 'x';
	parse_fails(b, l, "end marker missing");
	free(b);
}
END_TEST

START_TEST(test_parse_checksum)
{
	buf[off + tar_len / 3] ^= 0x01;
	parse_fails(buf, len, "checksum mismatch");
	buf[off + tar_len / 3] ^= 0x01;
	/* The last payload byte. */
	buf[off + tar_len - 1] ^= 0x80;
	parse_fails(buf, len, "checksum mismatch");
	buf[off + tar_len - 1] ^= 0x80;
	ck_assert_int_eq(
		xfer_parse(buf, len, &payload, &plen, err, sizeof(err)), 0);
}
END_TEST

START_TEST(test_parse_huge_size)
{
	/*
	 * A size near 2^64: "want + strlen(TAIL)" wraps around, so the
	 * truncation check passes and the end marker is looked for before
	 * the payload. 20 bytes arrived: the transfer is truncated.
	 */
	static const char *const sizes[] = { "18446744073709551615", "-1",
					     "99999999999999999999" };
	char b[256], hex[65];
	size_t i;

	sha256_buf("", 0, hex);
	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		snprintf(b, sizeof(b),
			 "LSMCONF-RESULTS %s %s\n0123456789abcdefghij",
			 sizes[i], hex);
		strcpy(err, "untouched");
		ck_assert_int_eq(xfer_parse(b, strlen(b), &payload, &plen, err,
					    sizeof(err)),
				 -1);
		ck_assert_msg(strstr(err, "truncated") ||
				      strstr(err, "malformed"),
			      "size %s: error \"%s\"", sizes[i], err);
	}
}
END_TEST

/* --- xfer_next ----------------------------------------------------------- */

static const struct tar_ent second_tar[] = {
	{ "tests/b.ktap", AE_IFREG, "TAP version 13\n1..1\nok 1 b\n", NULL },
};

/* @a then @b, NUL-terminated. */
static char *concat(const char *a, size_t alen, const char *b, size_t blen)
{
	char *c = malloc(alen + blen + 1);

	ck_assert_ptr_nonnull(c);
	memcpy(c, a, alen);
	memcpy(c + alen, b, blen);
	c[alen + blen] = '\0';
	return c;
}

/* xfer_next() expected to fail, leaving *@pos where it was. */
static void next_fails(const char *b, size_t l, size_t *pos, const char *phrase)
{
	size_t was = *pos;

	strcpy(err, "untouched");
	ck_assert_int_eq(
		xfer_next(b, l, pos, &payload, &plen, err, sizeof(err)), -1);
	ck_assert_uint_eq(*pos, was);
	ck_assert_msg(strstr(err, phrase), "error \"%s\" lacks \"%s\"", err,
		      phrase);
	ck_assert_ptr_null(strchr(err, '\n'));
}

/* Two frames: @buf (noise, then the results), then @buf2, in @both. */
static char *tar2, *buf2, *both;
static size_t tar2_len, len2, off2;

static void next_setup(void)
{
	parse_setup();
	tar2 = tar_make(second_tar, ARRAY_SIZE(second_tar), false, &tar2_len);
	buf2 = frame("", 0, tar2, tar2_len, TAIL, &len2, &off2);
	both = concat(buf, len, buf2, len2);
}

static void next_teardown(void)
{
	free(both);
	free(buf2);
	free(tar2);
	both = buf2 = tar2 = NULL;
	parse_teardown();
}

START_TEST(test_next_two_frames)
{
	size_t pos = 0;

	ck_assert_int_eq(xfer_next(both, len + len2, &pos, &payload, &plen, err,
				   sizeof(err)),
			 0);
	ck_assert_ptr_eq(payload, both + off);
	ck_assert_uint_eq(plen, tar_len);
	ck_assert_mem_eq(payload, tar, tar_len);
	ck_assert_uint_eq(pos, len);

	ck_assert_int_eq(xfer_next(both, len + len2, &pos, &payload, &plen, err,
				   sizeof(err)),
			 0);
	ck_assert_ptr_eq(payload, both + len + off2);
	ck_assert_uint_eq(plen, tar2_len);
	ck_assert_mem_eq(payload, tar2, tar2_len);
	ck_assert_uint_eq(pos, len + len2);

	strcpy(err, "untouched");
	ck_assert_int_eq(xfer_next(both, len + len2, &pos, &payload, &plen, err,
				   sizeof(err)),
			 1);
	ck_assert_uint_eq(pos, len + len2);
	ck_assert_str_eq(err, "no more frames");
}
END_TEST

START_TEST(test_next_noise)
{
	char *b, *c;
	size_t pos = 0, l;

	/* Noise before the second frame too. */
	b = concat(buf, len, noise, sizeof(noise) - 1);
	c = concat(b, len + sizeof(noise) - 1, buf2, len2);
	l = len + sizeof(noise) - 1 + len2;
	ck_assert_int_eq(
		xfer_next(c, l, &pos, &payload, &plen, err, sizeof(err)), 0);
	ck_assert_ptr_eq(payload, c + off);
	ck_assert_uint_eq(pos, len);
	ck_assert_int_eq(
		xfer_next(c, l, &pos, &payload, &plen, err, sizeof(err)), 0);
	ck_assert_ptr_eq(payload, c + l - len2 + off2);
	ck_assert_uint_eq(plen, tar2_len);
	ck_assert_uint_eq(pos, l);
	ck_assert_int_eq(
		xfer_next(c, l, &pos, &payload, &plen, err, sizeof(err)), 1);
	free(b);
	free(c);
}
END_TEST

START_TEST(test_next_truncated)
{
	size_t pos = 0;

	/* The second frame cut in its end marker, then in its payload. */
	ck_assert_int_eq(xfer_next(both, len + len2 - 5, &pos, &payload, &plen,
				   err, sizeof(err)),
			 0);
	ck_assert_ptr_eq(payload, both + off);
	ck_assert_uint_eq(plen, tar_len);
	ck_assert_uint_eq(pos, len);
	next_fails(both, len + len2 - 5, &pos, "truncated");
	next_fails(both, len + off2 + 10, &pos, "truncated");
	/* Only the second frame's header arrived. */
	next_fails(both, len + off2, &pos, "truncated");
}
END_TEST

START_TEST(test_next_bad_second)
{
	size_t pos = 0;

	/* A corrupted second payload, then noise after the last frame. */
	both[len + off2 + tar2_len / 2] ^= 0x01;
	ck_assert_int_eq(xfer_next(both, len + len2, &pos, &payload, &plen, err,
				   sizeof(err)),
			 0);
	ck_assert_uint_eq(pos, len);
	next_fails(both, len + len2, &pos, "checksum mismatch");
	both[len + off2 + tar2_len / 2] ^= 0x01;

	pos = 0;
	ck_assert_int_eq(xfer_next(both, len + 3, &pos, &payload, &plen, err,
				   sizeof(err)),
			 0);
	ck_assert_uint_eq(pos, len);
	next_fails(both, len + 3, &pos, "no results header");
}
END_TEST

START_TEST(test_next_end)
{
	size_t pos;

	pos = len;
	strcpy(err, "untouched");
	ck_assert_int_eq(
		xfer_next(buf, len, &pos, &payload, &plen, err, sizeof(err)),
		1);
	ck_assert_uint_eq(pos, len);
	ck_assert_str_eq(err, "no more frames");
	pos = 0;
	ck_assert_int_eq(
		xfer_next("", 0, &pos, &payload, &plen, err, sizeof(err)), 1);
	ck_assert_uint_eq(pos, 0);
	pos = len + 1;
	ck_assert_int_eq(
		xfer_next(buf, len, &pos, &payload, &plen, err, sizeof(err)),
		1);
}
END_TEST

/* --- reads must stay within @len ----------------------------------------- */

struct guarded {
	char *map;
	size_t maplen;
};

/* A copy of @data that ends right where an inaccessible page begins. */
static char *guard_copy(const void *data, size_t n, struct guarded *g)
{
	size_t pg = sysconf(_SC_PAGESIZE);

	g->maplen = (n + pg - 1) / pg * pg + pg;
	g->map = mmap(NULL, g->maplen, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(g->map, MAP_FAILED);
	ck_assert_int_eq(mprotect(g->map + g->maplen - pg, pg, PROT_NONE), 0);
	memcpy(g->map + g->maplen - pg - n, data, n);
	return g->map + g->maplen - pg - n;
}

static sigjmp_buf segv_jmp;

static void on_segv(int sig)
{
	siglongjmp(segv_jmp, sig);
}

/* xfer_parse() on @data placed just before a guard page, not NUL-terminated. */
static int guarded_parse(const char *data, size_t n)
{
	struct sigaction sa = { .sa_handler = on_segv }, old;
	struct guarded g;
	char *p = guard_copy(data, n, &g);
	volatile int ret = 0, faulted = 0;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, &old);
	if (!sigsetjmp(segv_jmp, 1))
		ret = xfer_parse(p, n, &payload, &plen, err, sizeof(err));
	else
		faulted = 1;
	sigaction(SIGSEGV, &old, NULL);
	munmap(g.map, g.maplen);
	ck_assert_msg(!faulted, "xfer_parse read past the end of its %zu bytes",
		      n);
	return ret;
}

START_TEST(test_parse_bounded_search)
{
	/* The data ends in the first bytes of a header. */
	static const char cut[] = "noise\nLSMCONF-RES";

	strcpy(err, "untouched");
	ck_assert_int_eq(guarded_parse(cut, strlen(cut)), -1);
	ck_assert_ptr_nonnull(strstr(err, "no results header"));
	ck_assert_int_eq(guarded_parse("xL", 2), -1);
}
END_TEST

START_TEST(test_parse_bounded_header)
{
	/* A whole frame, but no NUL byte after it. */
	ck_assert_int_eq(guarded_parse(buf, len), 0);
	ck_assert_uint_eq(plen, tar_len);
}
END_TEST

START_TEST(test_parse_bounded_truncated)
{
	/* The header arrived; the payload stops after 5 bytes. */
	strcpy(err, "untouched");
	ck_assert_int_eq(guarded_parse(buf, off + 5), -1);
	ck_assert_ptr_nonnull(strstr(err, "truncated"));
}
END_TEST

START_TEST(test_parse_size_wraps)
{
	/*
	 * 2^64 - 12 makes "want + strlen(TAIL)" zero and points the end
	 * marker check 11 bytes before the newline, where this header has
	 * one: xfer_parse then hashes 2^64 - 12 bytes.
	 */
	char b[256], hex[65];

	sha256_buf("", 0, hex);
	snprintf(b, sizeof(b), "LSMCONF-RESULTS 18446744073709551604 %s %s",
		 hex, TAIL);
	strcpy(err, "untouched");
	ck_assert_int_eq(guarded_parse(b, strlen(b)), -1);
	ck_assert_msg(strstr(err, "truncated") || strstr(err, "malformed"),
		      "error \"%s\"", err);
}
END_TEST

static Suite *xfer_suite(void)
{
	Suite *s = suite_create("xfer");

	CHECK_TCASE(s, "parse", parse_setup, parse_teardown, test_parse_ok,
		    test_parse_no_noise, test_parse_empty_payload,
		    test_parse_empty, test_parse_no_header,
		    test_parse_header_past_len, test_parse_malformed,
		    test_parse_truncated, test_parse_no_end_marker,
		    test_parse_checksum, test_parse_huge_size,
		    test_parse_bounded_search, test_parse_bounded_header,
		    test_parse_bounded_truncated, test_parse_size_wraps);
	CHECK_TCASE(s, "next", next_setup, next_teardown, test_next_two_frames,
		    test_next_noise, test_next_truncated, test_next_bad_second,
		    test_next_end);
	return s;
}

int main(void)
{
	return check_run_suite(xfer_suite());
}
