// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for records_mark_known() (results/records.c): a
 * boot's known.tsv ("id<TAB>bug" lines) against the records of today's
 * schema and of the first one (whose ids known.tsv may name the old way).
 * Every record marked carries a bug name of one line; no more lines name
 * nothing than the input has lines.
 */
#include "fuzz.h"
#include "results/records.h"
#include "lsmconf_record.h"

#include <stdlib.h>

#define REC(id, obs) \
	id "\t5.0\tconfined\tpeer\tdgram\t-\twrite\t-\tallow\t" obs "\n"

static const char today[] = RECORD_HEADER REC(
	"unix_lifecycle_test/lifecycle.a.b/new.client.write", "EACCES")
	REC("exec_test/exec.src_onexec_other.decisions/exec", "allow")
		REC("x_test/y.z/w", "allow");

static void mark(const char *records, const char *text, size_t lines)
{
	struct record_set set;
	size_t unknown, i;

	if (records_parse(records, strlen(records), &set))
		__builtin_trap();
	unknown = records_mark_known(&set, text);
	if (unknown > lines)
		__builtin_trap();
	for (i = 0; i < set.n; i++)
		if (set.v[i].known && strchr(set.v[i].known, '\n'))
			__builtin_trap();
	records_free(&set);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	size_t lines = 1;
	const char *p;

	for (p = text; (p = strchr(p, '\n')); p++)
		lines++;
	mark(today, text, lines);
	free(text);
	return 0;
}
