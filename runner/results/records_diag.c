// SPDX-License-Identifier: GPL-2.0
/*
 * Decision records out of a kselftest log: the "# record: " diagnostics
 * a test writes when LSMCONF_RESULTS is not set, under any number of
 * the "# " prefixes kselftest's runner adds per nesting level.
 */
#define _GNU_SOURCE
#include "records.h"
#include "lib/lib.h"

#include <string.h>

#include "lsmconf_record.h"

/* The record line inside one log line (without its "\n"), or NULL. */
static const char *diag_record(const char *p, size_t n, size_t *rest)
{
	static const char tag[] = "record: ";
	const char *end = p + n;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p != '#')
		return NULL;
	/* "# ", "# # ", "#  # "...: every nesting level's prefix. */
	while (p < end && (*p == '#' || *p == ' '))
		p++;
	if ((size_t)(end - p) <= strlen(tag) || strncmp(p, tag, strlen(tag)))
		return NULL;
	p += strlen(tag);
	*rest = end - p;
	return p;
}

char *records_from_diag(const char *text, size_t len, size_t *count)
{
	const char *p = text, *end = text + len;
	size_t cap = strlen(RECORD_HEADER) + len + 1, used, n;
	char *out = xmalloc(cap);

	used = strlen(RECORD_HEADER);
	memcpy(out, RECORD_HEADER, used);
	*count = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *rec;

		n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (n && p[n - 1] == '\r')
			n--;
		rec = diag_record(p, n, &n);
		/* A last line without its newline was cut short: dropped. */
		if (rec && nl) {
			memcpy(out + used, rec, n);
			used += n;
			out[used++] = '\n';
			(*count)++;
		}
		p = nl ? nl + 1 : end;
	}
	out[used] = '\0';
	return out;
}
