// SPDX-License-Identifier: GPL-2.0
/*
 * ktap.c - parser for the KTAP/TAP output of one kselftest binary
 *
 * The input is split into lines; every complete top-level line is classified
 * as one of: blank, indented (a subtest's line, ignored), diagnostic,
 * "Bail out!", version, plan or result.  Anything else is malformed.  Bytes
 * after the last '\n' are never parsed: they are reported as a truncated
 * line, since the writer may have died half way through them.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ktap.h"

/* A piece of the input: not NUL-terminated. */
struct span {
	const char *p;
	size_t n;
};

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

static char lower(char c)
{
	return (c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c;
}

static void skip_space(struct span *s)
{
	while (s->n && is_space(s->p[0])) {
		s->p++;
		s->n--;
	}
}

static void trim(struct span *s)
{
	skip_space(s);
	while (s->n && is_space(s->p[s->n - 1]))
		s->n--;
}

/* Consumes @lit if @s starts with it. */
static bool eat(struct span *s, const char *lit)
{
	size_t n = strlen(lit);

	if (s->n < n || memcmp(s->p, lit, n))
		return false;
	s->p += n;
	s->n -= n;
	return true;
}

/*
 * Consumes the word @lit, compared without regard to case, if @s starts with
 * it and it is followed by white space or the end of @s.
 */
static bool eat_word_nocase(struct span *s, const char *lit)
{
	size_t i, n = strlen(lit);

	if (s->n < n)
		return false;
	for (i = 0; i < n; i++) {
		if (lower(s->p[i]) != lower(lit[i]))
			return false;
	}
	if (s->n > n && !is_space(s->p[n]))
		return false;
	s->p += n;
	s->n -= n;
	return true;
}

/* Consumes a decimal number of at least one digit, no greater than @max. */
static bool eat_number(struct span *s, unsigned long long max,
		       unsigned long long *out)
{
	unsigned long long v = 0;
	size_t i = 0;

	while (i < s->n && s->p[i] >= '0' && s->p[i] <= '9') {
		unsigned int d = s->p[i] - '0';

		if (v > (max - d) / 10)
			return false;
		v = v * 10 + d;
		i++;
	}
	if (!i)
		return false;
	s->p += i;
	s->n -= i;
	*out = v;
	return true;
}

static char *span_dup(struct span s)
{
	char *r = malloc(s.n + 1);

	if (!r)
		return NULL;
	memcpy(r, s.p, s.n);
	r[s.n] = '\0';
	return r;
}

/* Like span_dup(), but turns the TAP escapes "\#" and "\\" into '#', '\'. */
static char *span_unescape(struct span s)
{
	char *r = malloc(s.n + 1);
	size_t i, j = 0;

	if (!r)
		return NULL;
	for (i = 0; i < s.n; i++) {
		if (s.p[i] == '\\' && i + 1 < s.n &&
		    (s.p[i + 1] == '#' || s.p[i + 1] == '\\'))
			i++;
		r[j++] = s.p[i];
	}
	r[j] = '\0';
	return r;
}

static void doc_init(struct ktap_doc *doc)
{
	memset(doc, 0, sizeof(*doc));
	doc->plan = -1;
}

void ktap_free(struct ktap_doc *doc)
{
	size_t i;

	if (!doc)
		return;
	for (i = 0; i < doc->n_results; i++) {
		free(doc->results[i].name);
		free(doc->results[i].reason);
	}
	free(doc->results);
	for (i = 0; i < doc->n_diag; i++)
		free(doc->diag[i]);
	free(doc->diag);
	free(doc->skip_all_reason);
	free(doc->bail_reason);
	doc_init(doc);
}

const char *ktap_status_name(enum ktap_status status)
{
	switch (status) {
	case KTAP_PASS:
		return "pass";
	case KTAP_FAIL:
		return "fail";
	case KTAP_SKIP:
		return "skip";
	case KTAP_XFAIL:
		return "xfail";
	}
	return "unknown";
}

/* "Totals: pass:A fail:B xfail:C xpass:D skip:E error:F" */
static void parse_totals(struct ktap_doc *doc, struct span s)
{
	static const char *const keys[] = { "pass:",  "fail:", "xfail:",
					    "xpass:", "skip:", "error:" };
	unsigned long long v[6];
	size_t i;

	if (!eat(&s, "Totals:"))
		return;
	for (i = 0; i < 6; i++) {
		skip_space(&s);
		if (!eat(&s, keys[i]) || !eat_number(&s, LONG_MAX, &v[i]))
			return;
	}
	trim(&s);
	if (s.n)
		return;
	doc->has_totals = true;
	doc->totals_pass = v[0];
	doc->totals_fail = v[1];
	doc->totals_xfail = v[2];
	doc->totals_xpass = v[3];
	doc->totals_skip = v[4];
	doc->totals_error = v[5];
}

static int add_diag(struct ktap_doc *doc, struct span s)
{
	char **diag;
	char *text;

	if (s.n && s.p[0] == ' ') {
		s.p++;
		s.n--;
	}
	text = span_dup(s);
	if (!text)
		return -ENOMEM;
	/* Grow at powers of two. */
	if (!(doc->n_diag & (doc->n_diag - 1))) {
		size_t cap = doc->n_diag ? doc->n_diag * 2 : 1;

		diag = realloc(doc->diag, cap * sizeof(*diag));
		if (!diag) {
			free(text);
			return -ENOMEM;
		}
		doc->diag = diag;
	}
	doc->diag[doc->n_diag++] = text;
	parse_totals(doc, s);
	return 0;
}

/* "1..N" optionally followed by "# comment"; "1..0 # SKIP reason". */
static int parse_plan(struct ktap_doc *doc, struct span s)
{
	unsigned long long n;

	if (!eat(&s, "1..") || !eat_number(&s, LONG_MAX, &n))
		return 1;
	if (s.n && !is_space(s.p[0]) && s.p[0] != '#')
		return 1;
	skip_space(&s);
	if (s.n && !eat(&s, "#"))
		return 1;
	if (doc->plan >= 0)
		return 1; /* a second plan */
	doc->plan = n;
	skip_space(&s);
	if (n == 0 && eat_word_nocase(&s, "SKIP")) {
		trim(&s);
		doc->skip_all = true;
		doc->skip_all_reason = span_dup(s);
		if (!doc->skip_all_reason)
			return -ENOMEM;
	}
	return 0;
}

static int add_result(struct ktap_doc *doc, const struct ktap_result *r)
{
	struct ktap_result *results;

	/* Grow at powers of two. */
	if (!(doc->n_results & (doc->n_results - 1))) {
		size_t cap = doc->n_results ? doc->n_results * 2 : 1;

		results = realloc(doc->results, cap * sizeof(*results));
		if (!results)
			return -ENOMEM;
		doc->results = results;
	}
	doc->results[doc->n_results++] = *r;
	switch (r->status) {
	case KTAP_PASS:
		doc->pass++;
		break;
	case KTAP_FAIL:
		doc->fail++;
		break;
	case KTAP_SKIP:
		doc->skip++;
		break;
	case KTAP_XFAIL:
		doc->xfail++;
		break;
	}
	return 0;
}

/*
 * "ok N [- ]name [# DIRECTIVE reason]" or the same after "not ok".  Returns
 * 1 when the line is not a well formed result.
 */
static int parse_result(struct ktap_doc *doc, struct span s)
{
	struct ktap_result r = { 0 };
	struct span desc, dir = { NULL, 0 };
	unsigned long long number;
	bool has_dir = false;
	size_t i;
	int ret;

	if (eat(&s, "ok"))
		r.status = KTAP_PASS;
	else if (eat(&s, "not ok"))
		r.status = KTAP_FAIL;
	else
		return 1;
	if (!s.n || !is_space(s.p[0]))
		return 1;
	skip_space(&s);
	if (!eat_number(&s, UINT_MAX, &number))
		return 1;
	if (s.n && !is_space(s.p[0]))
		return 1;
	r.number = number;

	/* The directive starts at the first unescaped '#' after a blank. */
	desc = s;
	for (i = 0; i < s.n; i++) {
		if (s.p[i] == '\\') {
			i++;
			continue;
		}
		if (s.p[i] == '#' && (i == 0 || is_space(s.p[i - 1]))) {
			desc.n = i;
			dir.p = s.p + i + 1;
			dir.n = s.n - i - 1;
			has_dir = true;
			break;
		}
	}

	/* "ok 1 - name": the dash is not part of the name. */
	trim(&desc);
	if (desc.n == 1 && desc.p[0] == '-') {
		desc.n = 0;
	} else if (desc.n >= 2 && desc.p[0] == '-' && is_space(desc.p[1])) {
		desc.p++;
		desc.n--;
		trim(&desc);
	}

	if (has_dir) {
		skip_space(&dir);
		if (eat_word_nocase(&dir, "SKIP"))
			r.status = KTAP_SKIP;
		else if (eat_word_nocase(&dir, "TODO") ||
			 eat_word_nocase(&dir, "XFAIL"))
			r.status = KTAP_XFAIL;
		else
			has_dir = false; /* a plain comment */
	}

	r.name = span_unescape(desc);
	if (!r.name)
		return -ENOMEM;
	if (has_dir) {
		trim(&dir);
		r.reason = span_dup(dir);
		if (!r.reason) {
			free(r.name);
			return -ENOMEM;
		}
	}
	ret = add_result(doc, &r);
	if (ret) {
		free(r.name);
		free(r.reason);
	}
	return ret;
}

static int parse_bail_out(struct ktap_doc *doc, struct span s)
{
	if (!eat(&s, "Bail out!"))
		return 1;
	trim(&s);
	doc->bailed_out = true;
	if (doc->bail_reason)
		return 0; /* keep the first reason */
	doc->bail_reason = span_dup(s);
	return doc->bail_reason ? 0 : -ENOMEM;
}

/* "TAP version N" or "KTAP version N" */
static int parse_version(struct ktap_doc *doc, struct span s)
{
	unsigned long long v;

	if (!eat(&s, "TAP version ") && !eat(&s, "KTAP version "))
		return 1;
	if (!eat_number(&s, ULLONG_MAX, &v))
		return 1;
	trim(&s);
	if (s.n)
		return 1;
	doc->has_version = true;
	return 0;
}

/* Returns 0, -ENOMEM, or 1 for a malformed line. */
static int parse_line(struct ktap_doc *doc, struct span s)
{
	struct span t = s;

	trim(&t);
	if (!t.n)
		return 0; /* blank */
	if (s.p[0] == '\t' || (s.n >= 2 && s.p[0] == ' ' && s.p[1] == ' '))
		return 0; /* a subtest's line */
	if (memchr(s.p, '\0', s.n))
		return 1;
	if (s.p[0] == '#') {
		s.p++;
		s.n--;
		return add_diag(doc, s);
	}
	switch (s.p[0]) {
	case 'B':
		return parse_bail_out(doc, s);
	case 'T':
	case 'K':
		return parse_version(doc, s);
	case '1':
		return parse_plan(doc, s);
	case 'o':
	case 'n':
		return parse_result(doc, s);
	}
	return 1;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned int x = *(const unsigned int *)a;
	unsigned int y = *(const unsigned int *)b;

	return (x > y) - (x < y);
}

static int check_numbers(struct ktap_doc *doc)
{
	unsigned int *nums;
	size_t i;

	for (i = 0; i < doc->n_results; i++) {
		if (doc->results[i].number != i + 1)
			doc->out_of_order = true;
	}
	/* Numbers 1, 2, 3... cannot repeat. */
	if (!doc->out_of_order)
		return 0;
	nums = malloc(doc->n_results * sizeof(*nums));
	if (!nums)
		return -ENOMEM;
	for (i = 0; i < doc->n_results; i++)
		nums[i] = doc->results[i].number;
	qsort(nums, doc->n_results, sizeof(*nums), cmp_uint);
	for (i = 1; i < doc->n_results; i++) {
		if (nums[i] == nums[i - 1])
			doc->duplicate_numbers = true;
	}
	free(nums);
	return 0;
}

int ktap_parse(const char *text, size_t len, struct ktap_doc *doc)
{
	size_t pos = 0;
	int ret;

	doc_init(doc);
	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		struct span line;

		if (!nl) {
			doc->truncated_line = true;
			break;
		}
		line.p = text + pos;
		line.n = nl - line.p;
		if (line.n && line.p[line.n - 1] == '\r')
			line.n--;
		ret = parse_line(doc, line);
		if (ret < 0)
			goto fail;
		if (ret > 0)
			doc->malformed++;
		pos = nl - text + 1;
	}
	ret = check_numbers(doc);
	if (ret)
		goto fail;
	return 0;
fail:
	ktap_free(doc);
	return ret;
}

bool ktap_diag_value(const struct ktap_doc *doc, const char *key, char *out,
		     size_t size)
{
	size_t klen = strlen(key);
	size_t i;

	if (!klen)
		return false;
	for (i = doc->n_diag; i-- > 0;) {
		const char *p = strstr(doc->diag[i], key);
		struct span v;

		while (p && (p[klen] != ':' || p[klen + 1] != ' '))
			p = strstr(p + 1, key);
		if (!p)
			continue;
		v.p = p + klen + 2;
		v.n = strlen(v.p);
		trim(&v);
		if (size) {
			if (v.n >= size)
				v.n = size - 1;
			memcpy(out, v.p, v.n);
			out[v.n] = '\0';
		}
		return true;
	}
	return false;
}
