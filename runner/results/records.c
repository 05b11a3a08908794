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

static void parse_line(const char *line, size_t len, unsigned int lineno,
		       struct record_set *set)
{
	struct record r;
	const char *p = line, *end = line + len;
	int i;

	r.known = NULL;
	r.v1_id = NULL;
	for (i = 0; i < REC_N_COLS; i++) {
		const char *tab = memchr(p, '\t', end - p);
		const char *stop = tab ? tab : end;

		/* The last column ends the line; others end at a tab. */
		if ((i < REC_N_COLS - 1 && !tab) ||
		    (i == REC_N_COLS - 1 && tab) || stop == p)
			goto bad;
		r.col[i] = xstrndup(p, stop - p);
		p = stop + 1;
	}
	if (set->v1 && map_v1(&r, set))
		return;
	set->v = xrealloc(set->v, (set->n + 1) * sizeof(*set->v));
	set->v[set->n++] = r;
	if (strcmp(r.col[REC_EXPECTED], r.col[REC_OBSERVED]))
		set->mismatches++;
	return;
bad:
	while (i-- > 0)
		free(r.col[i]);
	set->malformed++;
	if (!set->first_bad_line)
		set->first_bad_line = lineno;
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
		if (n && p[n - 1] == '\r')
			n--;
		if (lineno == 1 && n >= 3 && !strncmp(p, "id\t", 3)) {
			/* The header: the old one names the old columns. */
			set->v1 = n == strlen(RECORD_HEADER_V1) - 1 &&
				  !strncmp(p, RECORD_HEADER_V1, n);
		} else if (!nl) {
			/* A last line without its newline was cut short. */
			set->malformed++;
			if (!set->first_bad_line)
				set->first_bad_line = lineno;
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
