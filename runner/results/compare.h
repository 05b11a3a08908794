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
 * A case recorded on one kernel only is explained when the other kernel
 * (release @rel_a or @rel_b) has a known kernel bug that brings it down in
 * that case (known_crash_record()).
 */
struct known_list;
void compare_explain_crashes(struct cmp_result *r, const struct known_list *l,
			     const char *rel_a, const char *rel_b);
void compare_free(struct cmp_result *r);
const char *cmp_class_name(enum cmp_class c);

#endif
