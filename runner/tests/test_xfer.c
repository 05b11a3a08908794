// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/vm/xfer.c
 */
#include <archive.h>
#include <archive_entry.h>
#include <check.h>
#include <setjmp.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/util.h"
#include "vm/xfer.h"

#define TAIL "LSMCONF-END\n"

static const char uname_txt[] = "7.2.13+deb14-amd64\n";
static const char ktap_txt[] = "TAP version 13\n1..1\nok 1 a\n";

struct ent {
	const char *path;
	unsigned int type; /* AE_IFREG, AE_IFDIR, AE_IFLNK */
	const char *data; /* AE_IFREG */
	const char *link; /* symlink target, or hardlink target of AE_IFREG */
};

static const struct ent results_tar[] = {
	{ "tests/", AE_IFDIR, NULL, NULL },
	{ "uname", AE_IFREG, uname_txt, NULL },
	{ "tests/a.ktap", AE_IFREG, ktap_txt, NULL },
};

/* make_tar() gzips, as the guest does. */
static bool gzipped;

/* A ustar archive of @ents, built in memory. */
static char *make_tar(const struct ent *ents, size_t n, size_t *len)
{
	size_t cap = 1 << 20, used = 0, i;
	char *buf = malloc(cap);
	struct archive *a = archive_write_new();

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(archive_write_set_format_ustar(a), ARCHIVE_OK);
	if (gzipped)
		ck_assert_int_eq(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	ck_assert_int_eq(archive_write_set_bytes_in_last_block(a, 1),
			 ARCHIVE_OK);
	ck_assert_int_eq(archive_write_open_memory(a, buf, cap, &used),
			 ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		size_t size = ents[i].data ? strlen(ents[i].data) : 0;

		archive_entry_set_pathname(e, ents[i].path);
		archive_entry_set_filetype(e, ents[i].type);
		archive_entry_set_perm(e,
				       ents[i].type == AE_IFDIR ? 0755 : 0644);
		archive_entry_set_mtime(e, 1700000000, 0);
		if (ents[i].link && ents[i].type == AE_IFLNK)
			archive_entry_set_symlink(e, ents[i].link);
		else if (ents[i].link)
			archive_entry_set_hardlink(e, ents[i].link);
		archive_entry_set_size(e, size);
		ck_assert_int_eq(archive_write_header(a, e), ARCHIVE_OK);
		if (size)
			ck_assert_int_eq(
				archive_write_data(a, ents[i].data, size),
				(la_ssize_t)size);
		archive_entry_free(e);
	}
	ck_assert_int_eq(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	*len = used;
	return buf;
}

/*
 * @pre, then the header for @tar, then @tar, then @post; NUL-terminated
 * like the buffers read_file() gives. *@off is where the payload starts.
 */
static char *frame(const char *pre, size_t prelen, const char *tar, size_t tlen,
		   const char *post, size_t *len, size_t *off)
{
	char hex[65], head[128];
	size_t hlen, plen = strlen(post);
	char *buf;

	sha256_buf(tar, tlen, hex);
	hlen = snprintf(head, sizeof(head), "LSMCONF-RESULTS %zu %s\n", tlen,
			hex);
	*len = prelen + hlen + tlen + plen;
	buf = malloc(*len + 1);
	ck_assert_ptr_nonnull(buf);
	memcpy(buf, pre, prelen);
	memcpy(buf + prelen, head, hlen);
	memcpy(buf + prelen + hlen, tar, tlen);
	memcpy(buf + prelen + hlen + tlen, post, plen);
	buf[*len] = '\0';
	if (off)
		*off = prelen + hlen;
	return buf;
}

/* Boot noise, with near misses of the header, a NUL and a lone 'L'. */
static const char noise[] = "\r\n\x00\xff[    1.0] LSM: initializing "
			    "L\nLSMCONF-RESULTS\nLSMCONF-RESULT 1 2\n"
			    "lsmconf: sending results\n";

static char *tar, *buf;
static size_t tar_len, len, off;
static const char *payload;
static size_t plen;
static char err[256];

static void parse_setup(void)
{
	tar = make_tar(results_tar, 3, &tar_len);
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

static const struct ent second_tar[] = {
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
	tar2 = make_tar(second_tar, ARRAY_SIZE(second_tar), &tar2_len);
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

/* --- xfer_untar ---------------------------------------------------------- */

/* All scratch directories, removed by main() even when a test failed. */
static char root[64];
static char cwd[4096], parent[128];

static void untar_setup(void)
{
	snprintf(parent, sizeof(parent), "%s/XXXXXX", root);
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof(cwd)));
	ck_assert_ptr_nonnull(mkdtemp(parent));
	/* Relative paths below are relative to @parent. */
	ck_assert_int_eq(chdir(parent), 0);
	ck_assert_int_eq(mkdir("out", 0755), 0);
	tar = NULL;
	strcpy(err, "untouched");
}

static void untar_teardown(void)
{
	free(tar);
	tar = NULL;
	if (chdir(cwd))
		perror(cwd);
	remove_tree(parent);
}

static void check_file(const char *path, const char *want)
{
	char *got = NULL;
	size_t n = 0;

	ck_assert_msg(read_file(path, &got, &n) == 0, "%s: missing", path);
	ck_assert_uint_eq(n, strlen(want));
	ck_assert_str_eq(got, want);
	free(got);
}

static void check_results(const char *dir)
{
	char *p;
	struct stat st;

	p = xasprintf("%s/uname", dir);
	check_file(p, uname_txt);
	free(p);
	p = xasprintf("%s/tests/a.ktap", dir);
	check_file(p, ktap_txt);
	free(p);
	p = xasprintf("%s/tests", dir);
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	free(p);
}

START_TEST(test_untar_relative_dir)
{
	tar = make_tar(results_tar, 3, &tar_len);
	ck_assert_int_eq(xfer_untar(tar, tar_len, "out", err, sizeof(err)), 2);
	check_results("out");
}
END_TEST

START_TEST(test_untar_gzipped)
{
	gzipped = true;
	tar = make_tar(results_tar, 3, &tar_len);
	gzipped = false;
	/* gzip's magic, not a tar header. */
	ck_assert_int_eq((unsigned char)tar[0], 0x1f);
	ck_assert_int_eq(xfer_untar(tar, tar_len, "out", err, sizeof(err)), 2);
	check_results("out");
}
END_TEST

START_TEST(test_untar_absolute_dir)
{
	/* session.c untars into "<results>/<kernel>/guest"; --results may be absolute. */
	char *dir = xasprintf("%s/out", parent);
	int n;

	tar = make_tar(results_tar, 3, &tar_len);
	n = xfer_untar(tar, tar_len, dir, err, sizeof(err));
	ck_assert_msg(n == 2, "xfer_untar into %s returned %d: %s", dir, n,
		      n < 0 ? err : "");
	check_results(dir);
	free(dir);
}
END_TEST

START_TEST(test_untar_framed)
{
	/* What the guest sends, end to end. */
	tar = make_tar(results_tar, 3, &tar_len);
	buf = frame(noise, sizeof(noise) - 1, tar, tar_len, TAIL, &len, &off);
	ck_assert_int_eq(
		xfer_parse(buf, len, &payload, &plen, err, sizeof(err)), 0);
	ck_assert_int_eq(xfer_untar(payload, plen, "out", err, sizeof(err)), 2);
	check_results("out");
	free(buf);
	buf = NULL;
}
END_TEST

START_TEST(test_untar_dotdot)
{
	static const struct ent evil[] = {
		{ "uname", AE_IFREG, uname_txt, NULL },
		{ "../evil", AE_IFREG, "gotcha\n", NULL },
	};
	struct stat st;
	int n;

	tar = make_tar(evil, ARRAY_SIZE(evil), &tar_len);
	n = xfer_untar(tar, tar_len, "out", err, sizeof(err));
	ck_assert_msg(stat("evil", &st) && stat("../evil", &st),
		      "\"../evil\" was written outside the directory");
	ck_assert_msg(n == -1 || n == 1, "returned %d", n);
	if (n == -1)
		ck_assert_msg(!strncmp(err, "results: ", 9) && err[9],
			      "error \"%s\"", err);
}
END_TEST

START_TEST(test_untar_absolute_entry)
{
	char *abs = xasprintf("%s/abs-evil", parent);
	const struct ent evil[] = {
		{ abs, AE_IFREG, "gotcha\n", NULL },
	};
	struct stat st;
	int n;

	tar = make_tar(evil, ARRAY_SIZE(evil), &tar_len);
	n = xfer_untar(tar, tar_len, "out", err, sizeof(err));
	ck_assert_msg(stat(abs, &st), "%s was written", abs);
	ck_assert_msg(n == -1 || n == 1, "returned %d", n);
	free(abs);
}
END_TEST

START_TEST(test_untar_symlink_skipped)
{
	static const struct ent links[] = {
		{ "tests/", AE_IFDIR, NULL, NULL },
		{ "tests/passwd", AE_IFLNK, NULL, "/etc/passwd" },
		{ "up", AE_IFLNK, NULL, ".." },
		{ "uname", AE_IFREG, uname_txt, NULL },
	};
	struct stat st;

	tar = make_tar(links, ARRAY_SIZE(links), &tar_len);
	ck_assert_int_eq(xfer_untar(tar, tar_len, "out", err, sizeof(err)), 1);
	ck_assert_int_ne(lstat("out/tests/passwd", &st), 0);
	ck_assert_int_ne(lstat("out/up", &st), 0);
	check_file("out/uname", uname_txt);
}
END_TEST

/*
 * A ustar archive of one hard link entry that carries data (the libarchive
 * writer drops the data of hard links; other tars need not).
 */
static char *hardlink_tar(const char *name, const char *target,
			  const char *data, size_t *len)
{
	size_t n = strlen(data), blocks = (n + 511) / 512, i;
	unsigned int sum = 0;
	char *t;

	*len = 512 + blocks * 512 + 1024;
	t = calloc(1, *len);
	ck_assert_ptr_nonnull(t);
	strcpy(t, name);
	snprintf(t + 100, 8, "%07o", 0644);
	snprintf(t + 108, 8, "%07o", 0);
	snprintf(t + 116, 8, "%07o", 0);
	snprintf(t + 124, 12, "%011zo", n);
	snprintf(t + 136, 12, "%011o", 1700000000);
	memset(t + 148, ' ', 8);
	t[156] = '1';
	strcpy(t + 157, target);
	memcpy(t + 257,
	       "ustar\0"
	       "00",
	       8);
	for (i = 0; i < 512; i++)
		sum += (unsigned char)t[i];
	snprintf(t + 148, 7, "%06o", sum);
	memcpy(t + 512, data, n);
	return t;
}

START_TEST(test_untar_hardlink_outside)
{
	/*
	 * A hard link entry names its target relative to the archive; it
	 * must not link (nor write) a file outside @dir, here one in the
	 * current directory.
	 */
	struct stat in, out;

	ck_assert_int_eq(write_file("secret", "private\n", 8), 0);
	tar = hardlink_tar("leak", "secret", "pwned!\n", &tar_len);
	xfer_untar(tar, tar_len, "out", err, sizeof(err));
	check_file("secret", "private\n");
	ck_assert_int_eq(stat("secret", &in), 0);
	ck_assert_msg(
		lstat("out/leak", &out) || in.st_ino != out.st_ino,
		"out/leak is a hard link to a file outside the directory");
}
END_TEST

START_TEST(test_untar_garbage)
{
	char junk[1024];

	memset(junk, 'x', sizeof(junk));
	ck_assert_int_eq(
		xfer_untar(junk, sizeof(junk), "out", err, sizeof(err)), -1);
	ck_assert_msg(!strncmp(err, "results: ", 9) && err[9], "error \"%s\"",
		      err);
}
END_TEST

START_TEST(test_untar_truncated)
{
	tar = make_tar(results_tar, 3, &tar_len);
	/* Into the data of the last file (headers are 512 bytes each). */
	ck_assert_int_eq(xfer_untar(tar, 4 * 512 + 10, "out", err, sizeof(err)),
			 -1);
	ck_assert_msg(!strncmp(err, "results: ", 9) && err[9], "error \"%s\"",
		      err);
}
END_TEST

/*
 * A file that cannot be written whole (here: past RLIMIT_FSIZE, as on a
 * full disk) fails the frame; it used to count as unpacked, cut short.
 */
START_TEST(test_untar_write_fails)
{
	struct rlimit old, small = { 4, 4 };
	void (*was)(int) = signal(SIGXFSZ, SIG_IGN);
	int n;

	tar = make_tar(results_tar, 3, &tar_len);
	ck_assert_int_eq(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &small), 0);
	n = xfer_untar(tar, tar_len, "out", err, sizeof(err));
	ck_assert_int_eq(setrlimit(RLIMIT_FSIZE, &old), 0);
	signal(SIGXFSZ, was);
	ck_assert_int_eq(n, -1);
	ck_assert_msg(!strcmp(err, "results: out/uname: Write failed"),
		      "error \"%s\"", err);
}
END_TEST

static Suite *xfer_suite(void)
{
	Suite *s = suite_create("xfer");
	TCase *tc;

	tc = tcase_create("parse");
	tcase_add_checked_fixture(tc, parse_setup, parse_teardown);
	tcase_add_test(tc, test_parse_ok);
	tcase_add_test(tc, test_parse_no_noise);
	tcase_add_test(tc, test_parse_empty_payload);
	tcase_add_test(tc, test_parse_empty);
	tcase_add_test(tc, test_parse_no_header);
	tcase_add_test(tc, test_parse_header_past_len);
	tcase_add_test(tc, test_parse_malformed);
	tcase_add_test(tc, test_parse_truncated);
	tcase_add_test(tc, test_parse_no_end_marker);
	tcase_add_test(tc, test_parse_checksum);
	tcase_add_test(tc, test_parse_huge_size);
	tcase_add_test(tc, test_parse_bounded_search);
	tcase_add_test(tc, test_parse_bounded_header);
	tcase_add_test(tc, test_parse_bounded_truncated);
	tcase_add_test(tc, test_parse_size_wraps);
	suite_add_tcase(s, tc);

	tc = tcase_create("next");
	tcase_add_checked_fixture(tc, next_setup, next_teardown);
	tcase_add_test(tc, test_next_two_frames);
	tcase_add_test(tc, test_next_noise);
	tcase_add_test(tc, test_next_truncated);
	tcase_add_test(tc, test_next_bad_second);
	tcase_add_test(tc, test_next_end);
	suite_add_tcase(s, tc);

	tc = tcase_create("untar");
	tcase_add_checked_fixture(tc, untar_setup, untar_teardown);
	tcase_add_test(tc, test_untar_relative_dir);
	tcase_add_test(tc, test_untar_gzipped);
	tcase_add_test(tc, test_untar_absolute_dir);
	tcase_add_test(tc, test_untar_framed);
	tcase_add_test(tc, test_untar_dotdot);
	tcase_add_test(tc, test_untar_absolute_entry);
	tcase_add_test(tc, test_untar_symlink_skipped);
	tcase_add_test(tc, test_untar_hardlink_outside);
	tcase_add_test(tc, test_untar_garbage);
	tcase_add_test(tc, test_untar_truncated);
	tcase_add_test(tc, test_untar_write_fails);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(xfer_suite());
	char here[4096];
	int failed;

	strcpy(root, "/tmp/test_xfer.XXXXXX");
	if (!getcwd(here, sizeof(here)) || !mkdtemp(root)) {
		perror("test_xfer");
		return EXIT_FAILURE;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	/* A failed test may have left us in its directory (CK_FORK=no). */
	if (chdir(here))
		perror(here);
	remove_tree(root);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
