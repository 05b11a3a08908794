/* SPDX-License-Identifier: GPL-2.0 */
/* Two kernels' decision records, joined by case id and classified. */
#ifndef LSMCONF_COMPARE_H
#define LSMCONF_COMPARE_H

#include <stddef.h>

#include "records.h"

enum cmp_class { CMP_SAME, CMP_EXPLAINED, CMP_UNEXPLAINED, CMP_N_CLASSES };

struct cmp_case {
	const char *id;
	enum cmp_class cls;
	const char *a, *b; /* observed outcomes, "-" when absent */
	char reason[200];
};

struct cmp_result {
	struct cmp_case *v; /* non-same cases only */
	size_t n;
	size_t count[CMP_N_CLASSES];
};

/*
 * Classifies every case id of @a and @b (both sorted by records_parse):
 * same (both observed the same outcome), explained (outcomes differ and
 * the feature the expectation depended on differs between the kernels,
 * or a known kernel bug (record.known) shows on one side),
 * unexplained (any other difference, or a case on one side only).
 */
void compare_records(const struct record_set *a, const struct record_set *b,
		     struct cmp_result *out);
/*
 * A case recorded on one kernel only is explained when the other kernel's
 * boot really crashed with a known kernel bug's signature that lists the
 * case: @crashed_a and @crashed_b are the lines of each kernel's
 * known-crashes.tsv (NULL: none), see known_crash_record().
 */
struct known_list;
void compare_explain_crashes(struct cmp_result *r, const struct known_list *l,
			     const char *crashed_a, const char *crashed_b);
void compare_free(struct cmp_result *r);
const char *cmp_class_name(enum cmp_class c);

#endif
