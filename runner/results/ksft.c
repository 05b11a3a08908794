// SPDX-License-Identifier: GPL-2.0
/*
 * ksft.c - one program's part of what run_kselftest.sh prints (ksft.h)
 */
#include "ksft.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define HEADER "# selftests: "

/* The runner's exit codes (kselftest.h) for its result directives. */
#define KSFT_PASS 0
#define KSFT_FAIL 1
#define KSFT_XFAIL 2
#define KSFT_SKIP 4
#define TIMEOUT_RC (128 + 9)

static bool starts(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(end - p) >= n && !memcmp(p, lit, n);
}

/* A number after @lit inside [@p, @end), or -1. */
static long number_after(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);
	long v = -1;

	for (; p + n <= end; p++) {
		if (memcmp(p, lit, n))
			continue;
		p += n;
		if (p >= end || *p < '0' || *p > '9')
			return -1;
		for (v = 0; p < end && *p >= '0' && *p <= '9' && v < 1000000;
		     p++)
			v = v * 10 + (*p - '0');
		return v;
	}
	return -1;
}

static bool has(const char *p, const char *end, const char *lit)
{
	size_t n = strlen(lit);

	for (; p + n <= end; p++)
		if (!memcmp(p, lit, n))
			return true;
	return false;
}

/* "ok N selftests: ..." / "not ok N selftests: ...": the runner's result. */
static bool runner_result(const char *p, const char *end, bool *ok)
{
	*ok = !starts(p, end, "not ");
	if (!*ok)
		p += 4;
	if (!starts(p, end, "ok "))
		return false;
	p += 3;
	if (p >= end || *p < '0' || *p > '9')
		return false;
	while (p < end && *p >= '0' && *p <= '9')
		p++;
	return starts(p, end, " selftests: ");
}

static void result(const char *p, const char *end, bool ok,
		   struct ksft_run *run)
{
	long t;

	run->finished = true;
	if (ok) {
		run->rc = has(p, end, "# SKIP")	 ? KSFT_SKIP :
			  has(p, end, "# XFAIL") ? KSFT_XFAIL :
						   KSFT_PASS;
		return;
	}
	t = number_after(p, end, "# TIMEOUT ");
	if (t >= 0) {
		run->timed_out = true;
		run->timeout_s = t;
		run->rc = TIMEOUT_RC;
		return;
	}
	run->rc = (int)number_after(p, end, "# exit=");
	if (run->rc < 0)
		run->rc = KSFT_FAIL;
}

int ksft_unwrap(const char *text, size_t len, char **inner, size_t *inner_len,
		struct ksft_run *run)
{
	const char *p, *next, *end = text + len, *body = NULL;
	char *out;
	size_t n = 0;
	long t;
	bool ok;

	*inner = NULL;
	*inner_len = 0;
	run->finished = false;
	run->rc = -1;
	run->timed_out = false;
	run->timeout_s = -1;
	for (p = text; p < end && !body; p = next) {
		const char *nl = memchr(p, '\n', end - p);

		next = nl ? nl + 1 : end;
		t = starts(p, next, "# timeout set to ") ?
			    number_after(p, next, "set to ") :
		    starts(p, next, "# overriding timeout to ") ?
			    number_after(p, next, "timeout to ") :
			    -1;
		if (t >= 0)
			run->timeout_s = t;
		if (starts(p, next, HEADER))
			body = next;
	}
	if (!body)
		return 0;
	out = malloc(end - body + 1);
	if (!out)
		return -ENOMEM;
	for (p = body; p < end; p = next) {
		const char *nl = memchr(p, '\n', end - p);

		next = nl ? nl + 1 : end;
		if (runner_result(p, next, &ok)) {
			result(p, next, ok, run);
			break;
		}
		/* The runner prefixes each line with "# " (sed 's/^/# /'). */
		if (starts(p, next, "# "))
			p += 2;
		else if (starts(p, next, "#"))
			p += 1;
		memcpy(out + n, p, next - p);
		n += next - p;
	}
	out[n] = '\0';
	*inner = out;
	*inner_len = n;
	return 1;
}

int ksft_next(const char *text, size_t len, size_t *pos, const char **part,
	      size_t *part_len, char *name, size_t size)
{
	const char *p, *next, *end = text + len, *start = NULL, *head = NULL;
	bool ok;

	for (p = text + *pos; p < end && !head; p = next) {
		const char *nl = memchr(p, '\n', end - p);

		next = nl ? nl + 1 : end;
		if (starts(p, next, "# timeout set to ") ||
		    starts(p, next, "# overriding timeout to "))
			start = p;
		else if (starts(p, next, HEADER))
			head = p;
		else if (!starts(p, next, "# "))
			start = NULL;
	}
	if (!head) {
		*pos = len;
		return 0;
	}
	if (!start)
		start = head;
	{
		/* "# selftests: C: NAME": NAME is after the second ": ". */
		const char *nl = memchr(head, '\n', end - head);
		const char *le = nl ? nl : end, *s = head + strlen(HEADER);
		const char *c = memchr(s, ':', le - s);
		size_t n;

		s = c && c + 1 < le && c[1] == ' ' ? c + 2 : s;
		n = le - s;
		if (n && s[n - 1] == '\r')
			n--;
		if (n >= size)
			n = size - 1;
		memcpy(name, s, n);
		name[n] = '\0';
	}
	for (; p < end; p = next) {
		const char *nl = memchr(p, '\n', end - p);

		next = nl ? nl + 1 : end;
		if (runner_result(p, next, &ok)) {
			p = next;
			break;
		}
	}
	*part = start;
	*part_len = p - start;
	*pos = p - text;
	return 1;
}
