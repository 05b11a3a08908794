/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decision records as the guest writes them
 * (selftests/lsmconf/lsmconf_record.h defines the columns): reading,
 * checking and counting.
 */
#ifndef LSMCONF_RECORDS_H
#define LSMCONF_RECORDS_H

#include <stddef.h>

enum record_col {
	REC_ID,
	REC_ABI,
	REC_SENDER,
	REC_RECEIVER,
	REC_TYPE,
	REC_ADDR,
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
};

struct record_set {
	struct record *v;
	size_t n;
	size_t malformed; /* lines without exactly REC_N_COLS fields */
	unsigned int first_bad_line; /* 1-based, 0 when none */
	size_t duplicates; /* ids seen more than once */
	size_t mismatches; /* expected != observed */
};

/*
 * Parses TSV records (a header line is skipped). Never fails on bad input:
 * bad lines are counted. Returns 0 or -ENOMEM.
 */
int records_parse(const char *text, size_t len, struct record_set *set);
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

#endif
