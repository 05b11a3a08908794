/* SPDX-License-Identifier: GPL-2.0 */
/* Two kernels' decision records, joined by case id and classified. */
#ifndef LSMCONF_COMPARE_H
#define LSMCONF_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "identity.h"
#include "records.h"

enum cmp_class { CMP_SAME, CMP_EXPLAINED, CMP_UNEXPLAINED, CMP_N_CLASSES };

/* How the second kernel's outcome of a case differs from the first's. */
enum cmp_change {
	CMP_LOOSENED, /* an errno (deny) became "allow" */
	CMP_TIGHTENED, /* "allow" became an errno */
	CMP_ERRNO_CHANGED, /* one errno became another */
	CMP_OTHER, /* recorded on one side only, or not run on one */
	CMP_N_CHANGES,
};

/* What explained a case (CMP_RULE_NONE for the others). */
enum cmp_rule {
	CMP_RULE_NONE,
	CMP_RULE_FEATURE, /* the kernels differ in the feature it depends on */
	CMP_RULE_KNOWN_BUG, /* a known kernel bug shows in the decision */
	CMP_RULE_KNOWN_CRASH, /* a known kernel bug brought a kernel down */
	CMP_N_RULES,
};

struct cmp_case {
	const char *id;
	enum cmp_class cls;
	enum cmp_change change;
	enum cmp_rule rule;
	const char *a, *b; /* observed outcomes, "-" when absent */
	char reason[200];
};

/* An advertised feature (a line of features.tsv) that differs. */
struct cmp_feature {
	char *path; /* e.g. "network_v8/tcp-fast-open" */
	char *a, *b; /* its values, "-" when the kernel does not have it */
};

struct cmp_result {
	struct cmp_case *v; /* non-same cases only */
	size_t n;
	size_t count[CMP_N_CLASSES];
	/* Non-same cases by class and change. */
	size_t changes[CMP_N_CLASSES][CMP_N_CHANGES];
	struct cmp_feature *feat; /* by path */
	size_t n_feat;
	/*
	 * Whether a feature may explain (identity.h): only between different
	 * upstream versions. Of one upstream version, a feature that differs
	 * is an unexplained finding itself; without an identity, it is
	 * listed and explains nothing.
	 */
	enum cmp_identity identity;
};

/*
 * Compares two kernels: @fa and @fb are their features.tsv texts
 * ("path<TAB>value" lines, NULL when the kernel left none), @id how their
 * identities relate (identity_rule()). Every case id of @a and @b (both
 * sorted by records_parse) is classified: same (both observed the same
 * outcome, whatever a known-bug list says of either kernel), explained
 * (outcomes differ and the feature the expectation depended on differs
 * between kernels of different upstream versions, or a known kernel bug's
 * signature shows on one side: record.known), unexplained (any other
 * difference, or a case on one side only).
 */
void compare_kernels(const struct record_set *a, const struct record_set *b,
		     const char *fa, const char *fb, enum cmp_identity id,
		     struct cmp_result *out);
/* Unexplained findings: cases, and features of one upstream version. */
size_t cmp_unexplained(const struct cmp_result *r);
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
/* "loosened", "tightened", "errno changed", "other". */
const char *cmp_change_name(enum cmp_change c);
/* "-", "feature", "known-bug", "known-crash". */
const char *cmp_rule_name(enum cmp_rule r);

#endif
