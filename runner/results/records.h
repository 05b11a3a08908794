/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decision records as the guest writes them
 * (selftests/lsmconf/lsmconf_record.h defines the columns): reading,
 * checking and counting.
 */
#ifndef LSMCONF_RECORDS_H
#define LSMCONF_RECORDS_H

#include <stdbool.h>
#include <stddef.h>

enum record_col {
	REC_ID,
	REC_ABI,
	REC_SUBJECT,
	REC_OBJECT,
	REC_CLASS,
	REC_DETAIL,
	REC_OP,
	REC_DEPENDS,
	REC_EXPECTED,
	REC_OBSERVED,
	REC_N_COLS,
};

struct record {
	char *col[REC_N_COLS];
	/* The known kernel bug this decision shows (known.h), or NULL. */
	char *known;
	/* A record of the first schema: its id as recorded, else NULL. */
	char *v1_id;
	unsigned int line; /* 1-based, in the text it was parsed from */
};

/* Why the first bad line of a records.tsv is bad. */
enum record_bad {
	REC_BAD_FIELDS, /* not exactly REC_N_COLS fields */
	REC_BAD_EMPTY, /* a field is empty */
	REC_BAD_CUT, /* the last line has no newline: cut short */
	REC_BAD_NUL, /* a NUL byte */
};

/* The first line of a records.tsv. */
enum record_header {
	REC_HEADER_NONE, /* a record, or nothing at all */
	REC_HEADER_OK, /* RECORD_HEADER */
	REC_HEADER_V1, /* RECORD_HEADER_V1 */
	REC_HEADER_OTHER, /* "id<TAB>" and other columns */
};

struct record_set {
	struct record *v;
	size_t n;
	size_t malformed; /* lines without exactly REC_N_COLS fields */
	unsigned int first_bad_line; /* 1-based, 0 when none */
	enum record_bad first_bad; /* why, when first_bad_line */
	unsigned int first_bad_fields; /* its fields (REC_BAD_FIELDS) */
	unsigned int first_cr_line; /* the first line ending in CR, or 0 */
	enum record_header header;
	char *other_header; /* REC_HEADER_OTHER: the line, cut short */
	size_t duplicates; /* ids seen more than once */
	size_t mismatches; /* expected != observed */
	/*
	 * Records of the first schema (RECORD_HEADER_V1): their ids were
	 * mapped to today's (results/legacy.h); @unmapped ids no rule knows,
	 * the first of them in @first_unmapped.
	 */
	bool v1;
	size_t unmapped;
	char *first_unmapped;
};

/*
 * Parses TSV records (a header line is skipped). Bad lines are counted,
 * not fatal. Records of the first schema (under RECORD_HEADER_V1, or
 * under today's header with a first id that names no "*_test" binary: a
 * run saved between the column and the id renames) have their ids mapped
 * to today's: when a rule is missing for some, comparing them would compare
 * wrong things, so the read fails with -EPROTO (records_error() says it;
 * @set keeps only @unmapped and @first_unmapped for it: records_free()
 * it all the same). Returns 0, -EPROTO or -ENOMEM.
 */
int records_parse(const char *text, size_t len, struct record_set *set);
/* The one-line message of a failed records_parse() (@ret its return). */
void records_error(const struct record_set *set, int ret, char *buf,
		   size_t size);
/*
 * The first bad line of @set ("line 5: 3 fields, want 10"), into @buf;
 * "" when there is none.
 */
void records_bad_line(const struct record_set *set, char *buf, size_t size);
/*
 * The first id @set holds twice, as "ID (line 3: allow, line 7: EACCES)"
 * (its outcomes observed), into @buf; false when every id is once.
 */
bool records_first_duplicate(const struct record_set *set, char *buf,
			     size_t size);
/*
 * The strict reading of a records.tsv that lsmconf wrote (a saved run's,
 * a store's), after records_parse(): 0, or -1 with a one-line reason in
 * @buf. Refused: no header, or one that is neither RECORD_HEADER nor
 * RECORD_HEADER_V1 (an empty file has none); a bad line (its number and
 * why); a line ending in CR; an id recorded twice (both outcomes).
 */
int records_check(const struct record_set *set, char *buf, size_t size);
void records_free(struct record_set *set);
/* Sorts by id, so lookups and comparisons are by id, not by run order. */
void records_sort(struct record_set *set);
/* After records_sort(): the record with @id, or NULL. */
const struct record *records_find(const struct record_set *set, const char *id);
/*
 * Marks the records a boot's known.tsv ("id<TAB>bug" lines) names as
 * showing that bug. Returns how many lines named no record.
 */
size_t records_mark_known(struct record_set *set, const char *text);

/*
 * The records a kselftest log carries as "# record: " diagnostics (at
 * any KTAP nesting depth), as records.tsv text with its header for
 * records_parse(); *@count is how many lines were taken. Free it.
 */
char *records_from_diag(const char *text, size_t len, size_t *count);

#endif
