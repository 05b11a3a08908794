/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which LSM hooks a recorded decision goes through
 * (fixtures/hook-ops.tsv): the rows that map a record's test, class and
 * op to hooks, for the hook table's "allow seen" and "deny seen".
 */
#ifndef LSMCONF_HOOKOPS_H
#define LSMCONF_HOOKOPS_H

#include <stdbool.h>
#include <stddef.h>

struct hookop_row {
	char *lsm; /* "apparmor", "selinux" or "*" */
	char *test, *cls, *op; /* globs (fnmatch) */
	char **hooks; /* none: the record is no hook's decision ("-") */
	size_t n_hooks;
	unsigned int line;
};

struct hookops {
	struct hookop_row *v;
	size_t n;
};

/* How a record's observed outcome counts: allowed, denied, or neither. */
enum hookop_outcome {
	HOOKOP_NEITHER,
	HOOKOP_ALLOW, /* "allow" */
	HOOKOP_DENY, /* EACCES or EPERM: what the LSMs deny with */
};

/*
 * The table in @text (@len bytes) into @t: '#' lines and blank lines
 * aside, each line five tab-separated fields. 0, or -1 with the first
 * bad line's number and why in @err.
 */
int hookops_parse(const char *text, size_t len, struct hookops *t, char *err,
		  size_t size);
void hookops_free(struct hookops *t);

/*
 * The first row of @t for a record of LSM @lsm whose id is @id (its test
 * the first word), class @cls and op @op (matched after its last '/'), or
 * NULL when no row matches.
 */
const struct hookop_row *hookops_match(const struct hookops *t, const char *lsm,
				       const char *id, const char *cls,
				       const char *op);

enum hookop_outcome hookop_outcome(const char *observed);

/* A table's LSM field: "*" or a name of lower-case letters. */
bool hookops_lsm_name(const char *s);

#endif
