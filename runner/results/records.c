// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "records.h"
#include "legacy.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lsmconf_record.h"

_Static_assert(REC_N_COLS == RECORD_COLUMNS,
	       "runner and guest disagree on the record columns");

static int cmp_id(const void *a, const void *b)
{
	const struct record *x = a, *y = b;

	return strcmp(x->col[REC_ID], y->col[REC_ID]);
}

/*
 * A v1 record's id replaced by today's. 1 when no rule maps it: counted,
 * and the record dropped (the read will fail).
 */
static int map_v1(struct record *r, struct record_set *set)
{
	char id[1024];
	int c;

	if (!legacy_id(r->col[REC_ID], r->col[REC_ABI], id, sizeof(id))) {
		r->v1_id = r->col[REC_ID];
		r->col[REC_ID] = xstrdup(id);
		return 0;
	}
	if (!set->unmapped++)
		set->first_unmapped = xstrdup(r->col[REC_ID]);
	for (c = 0; c < REC_N_COLS; c++)
		free(r->col[c]);
	return 1;
}

/* The first bad line is remembered, with why. */
static void bad_line(struct record_set *set, unsigned int lineno,
		     enum record_bad why, unsigned int fields)
{
	set->malformed++;
	if (set->first_bad_line)
		return;
	set->first_bad_line = lineno;
	set->first_bad = why;
	set->first_bad_fields = fields;
}

static void parse_line(const char *line, size_t len, unsigned int lineno,
		       struct record_set *set)
{
	struct record r;
	const char *p = line, *end = line + len;
	unsigned int fields = 1;
	int i;

	if (memchr(line, '\0', len))
		return bad_line(set, lineno, REC_BAD_NUL, 0);
	for (p = line; (p = memchr(p, '\t', end - p)); p++)
		fields++;
	if (fields != REC_N_COLS)
		return bad_line(set, lineno, REC_BAD_FIELDS, fields);
	r.known = NULL;
	r.v1_id = NULL;
	r.line = lineno;
	for (i = 0, p = line; i < REC_N_COLS; i++) {
		const char *tab = memchr(p, '\t', end - p);
		const char *stop = tab ? tab : end;

		if (stop == p) {
			int empty = i + 1;

			while (i-- > 0)
				free(r.col[i]);
			return bad_line(set, lineno, REC_BAD_EMPTY, empty);
		}
		r.col[i] = xstrndup(p, stop - p);
		p = stop + 1;
	}
	if (set->v1 && map_v1(&r, set))
		return;
	set->v = xrealloc(set->v, (set->n + 1) * sizeof(*set->v));
	set->v[set->n++] = r;
	if (strcmp(r.col[REC_EXPECTED], r.col[REC_OBSERVED]))
		set->mismatches++;
}

/* Line 1 starting "id<TAB>": which header it is. */
static void parse_header(const char *p, size_t n, struct record_set *set)
{
	size_t i;

	if (n == strlen(RECORD_HEADER) - 1 && !strncmp(p, RECORD_HEADER, n)) {
		set->header = REC_HEADER_OK;
		return;
	}
	if (n == strlen(RECORD_HEADER_V1) - 1 &&
	    !strncmp(p, RECORD_HEADER_V1, n)) {
		set->header = REC_HEADER_V1;
		set->v1 = true;
		return;
	}
	set->header = REC_HEADER_OTHER;
	set->other_header = xstrndup(p, n < 60 ? n : 60);
	for (i = 0; set->other_header[i]; i++)
		if (set->other_header[i] == '\t')
			set->other_header[i] = ' ';
		else if ((unsigned char)set->other_header[i] < ' ')
			set->other_header[i] = '?';
}

int records_parse(const char *text, size_t len, struct record_set *set)
{
	const char *p = text, *end = text + len;
	unsigned int lineno = 0;
	size_t i;

	memset(set, 0, sizeof(*set));
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lineno++;
		if (n && p[n - 1] == '\r') {
			n--;
			if (!set->first_cr_line)
				set->first_cr_line = lineno;
		}
		if (!nl) {
			/* A last line without its newline was cut short. */
			bad_line(set, lineno, REC_BAD_CUT, 0);
		} else if (lineno == 1 && n >= 3 && !strncmp(p, "id\t", 3)) {
			/* The header: the old one names the old columns. */
			parse_header(p, n, set);
		} else if (n) {
			parse_line(p, n, lineno, set);
		}
		p = nl ? nl + 1 : end;
	}
	if (set->unmapped) {
		size_t unmapped = set->unmapped;
		char *first = set->first_unmapped;

		set->first_unmapped = NULL;
		records_free(set);
		set->v1 = true;
		set->unmapped = unmapped;
		set->first_unmapped = first;
		return -EPROTO;
	}
	records_sort(set);
	for (i = 1; i < set->n; i++)
		if (!strcmp(set->v[i - 1].col[REC_ID], set->v[i].col[REC_ID]))
			set->duplicates++;
	return 0;
}

void records_bad_line(const struct record_set *set, char *buf, size_t size)
{
	static const char *const why[] = {
		[REC_BAD_EMPTY] = "an empty field",
		[REC_BAD_CUT] = "cut short (no newline at its end)",
		[REC_BAD_NUL] = "a NUL byte",
	};

	if (!set->first_bad_line)
		snprintf(buf, size, "%s", "");
	else if (set->first_bad == REC_BAD_FIELDS)
		snprintf(buf, size, "line %u: %u fields, want %d",
			 set->first_bad_line, set->first_bad_fields,
			 REC_N_COLS);
	else if (set->first_bad == REC_BAD_EMPTY)
		snprintf(buf, size, "line %u: %s (field %u)",
			 set->first_bad_line, why[set->first_bad],
			 set->first_bad_fields);
	else
		snprintf(buf, size, "line %u: %s", set->first_bad_line,
			 why[set->first_bad]);
}

bool records_first_duplicate(const struct record_set *set, char *buf,
			     size_t size)
{
	const struct record *a, *b;
	size_t i;

	for (i = 1; i < set->n; i++) {
		a = &set->v[i - 1];
		b = &set->v[i];
		if (strcmp(a->col[REC_ID], b->col[REC_ID]))
			continue;
		/* qsort() keeps no order: the earlier line first. */
		if (a->line > b->line) {
			a = b;
			b = &set->v[i - 1];
		}
		snprintf(buf, size, "%s (line %u: %s, line %u: %s)",
			 a->col[REC_ID], a->line, a->col[REC_OBSERVED], b->line,
			 b->col[REC_OBSERVED]);
		return true;
	}
	return false;
}

int records_check(const struct record_set *set, char *buf, size_t size)
{
	char what[1024];

	if (set->header == REC_HEADER_OTHER) {
		snprintf(
			buf, size,
			"line 1: a header of other columns (\"%s\"; want id, abi, subject, object, class, detail, op, depends, expected, observed)",
			set->other_header);
		return -1;
	}
	/* A first line cut short says so itself. */
	if (set->header == REC_HEADER_NONE && set->first_bad_line != 1) {
		snprintf(
			buf, size,
			"line 1: no header (want the columns id, abi, subject, ... observed)");
		return -1;
	}
	if (set->first_bad_line) {
		records_bad_line(set, what, sizeof(what));
		snprintf(buf, size, "%s", what);
		return -1;
	}
	if (set->first_cr_line) {
		snprintf(
			buf, size,
			"line %u: ends in CR (a CRLF file, not as lsmconf writes it)",
			set->first_cr_line);
		return -1;
	}
	if (records_first_duplicate(set, what, sizeof(what))) {
		snprintf(buf, size, "a case id recorded twice: %s", what);
		return -1;
	}
	return 0;
}

void records_error(const struct record_set *set, int ret, char *buf,
		   size_t size)
{
	if (ret == -EPROTO)
		snprintf(
			buf, size,
			"records of the old schema: %zu ids no rule maps, e.g. %s",
			set->unmapped, set->first_unmapped);
	else
		snprintf(buf, size, "reading records: %s", strerror(-ret));
}

void records_sort(struct record_set *set)
{
	if (set->n)
		qsort(set->v, set->n, sizeof(*set->v), cmp_id);
}

const struct record *records_find(const struct record_set *set, const char *id)
{
	struct record key;

	if (!set->n)
		return NULL;
	key.col[REC_ID] = (char *)id;
	return bsearch(&key, set->v, set->n, sizeof(*set->v), cmp_id);
}

void records_free(struct record_set *set)
{
	size_t i;
	int c;

	for (i = 0; i < set->n; i++) {
		for (c = 0; c < REC_N_COLS; c++)
			free(set->v[i].col[c]);
		free(set->v[i].known);
		free(set->v[i].v1_id);
	}
	free(set->v);
	free(set->first_unmapped);
	free(set->other_header);
	memset(set, 0, sizeof(*set));
}

size_t records_mark_known(struct record_set *set, const char *text)
{
	const char *p = text;
	size_t unknown = 0;

	while (p && *p) {
		size_t n = strcspn(p, "\n"), id_len = strcspn(p, "\t\n");
		struct record *r;
		size_t i;
		char *id;

		if (id_len < n) {
			id = xstrndup(p, id_len);
			r = (struct record *)records_find(set, id);
			/* A run of the old schema named its ids the old way. */
			for (i = 0; !r && set->v1 && i < set->n; i++)
				if (!strcmp(set->v[i].v1_id, id))
					r = &set->v[i];
			free(id);
			if (r && !r->known)
				r->known = xstrndup(p + id_len + 1,
						    n - id_len - 1);
			else
				unknown++;
		}
		p += n + (p[n] == '\n');
	}
	return unknown;
}
