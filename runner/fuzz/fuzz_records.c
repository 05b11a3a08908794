// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for results/records.c: records.tsv as the guest writes
 * it, and a known.tsv ("id<TAB>bug" lines; the same bytes serve as one,
 * since a record line starts with its id and a tab).
 */
#include "fuzz.h"
#include "results/records.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct record_set set;
	char *text, msg[1200];
	size_t i;
	int ret;

	ret = records_parse((const char *)data, size, &set);
	if (ret) {
		/* A refusal (the old schema, unmapped) is one line. */
		records_error(&set, ret, msg, sizeof(msg));
		if (!msg[0] || strchr(msg, '\n'))
			abort();
		records_free(&set);
		return 0;
	}
	records_sort(&set);
	/* After sorting, every id must be found again. */
	for (i = 0; i < set.n; i++)
		if (!records_find(&set, set.v[i].col[REC_ID]))
			abort();
	text = fuzz_cstr(data, size);
	records_mark_known(&set, text);
	free(text);
	records_free(&set);
	return 0;
}
