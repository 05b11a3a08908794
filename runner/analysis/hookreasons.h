/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Why a hook of the table has no allow and deny recorded
 * (fixtures/hook-reasons.tsv), and each hook's status in the coverage
 * report: reached with both outcomes, not built, listed with a reason, or
 * a gap, named.
 */
#ifndef LSMCONF_HOOKREASONS_H
#define LSMCONF_HOOKREASONS_H

#include <stdbool.h>
#include <stddef.h>

enum hookreason_kind {
	/* The hook decides nothing: it allocates, copies or frees the
	 * LSM's state, or reads or converts a label. */
	HOOKREASON_NO_DECISION,
	/* It decides, but no root task in a guest can make it. */
	HOOKREASON_CANNOT_DRIVE,
	/* It runs at boot only, before the counters are zeroed (a function
	 * of uncovered-reasons.tsv: set-up, the LSM's own filesystems). */
	HOOKREASON_BOOT_ONLY,
	/* It runs only when something fails that a guest cannot make fail
	 * (an allocation, a set-up step, an unmount of the LSM's own
	 * filesystem). */
	HOOKREASON_ERROR_PATH,
};

struct hookreason_row {
	char *lsm; /* "apparmor", "selinux" or "*" */
	char *hook; /* a glob (fnmatch) of hooks' names, or functions' */
	enum hookreason_kind kind;
	char *why;
	unsigned int line;
};

struct hookreasons {
	struct hookreason_row *v;
	size_t n;
};

/*
 * The list in @text (@len bytes) into @t: '#' lines and blank lines
 * aside, each line four tab-separated fields: LSM, hook glob, kind
 * ("no-decision", "cannot-drive", "boot-only" or "error-path"), why. 0,
 * or -1 with the first bad line's number and why in @err.
 */
int hookreasons_parse(const char *text, size_t len, struct hookreasons *t,
		      char *err, size_t size);
void hookreasons_free(struct hookreasons *t);

/* The first row of @t for hook @hook of LSM @lsm, or NULL. */
const struct hookreason_row *hookreasons_match(const struct hookreasons *t,
					       const char *lsm,
					       const char *hook);

enum hook_status {
	HOOK_BOTH, /* an allow and a deny recorded through it */
	HOOK_NOT_BUILT, /* the build has no counters of its function */
	HOOK_REASONED, /* neither, and listed with a reason */
	/* Gaps: neither, and no reason. */
	HOOK_ALLOW_ONLY,
	HOOK_DENY_ONLY,
	HOOK_NO_RECORD, /* called, no decision recorded through it */
	HOOK_NEVER_CALLED,
};

/*
 * A hook's status from what the coverage saw: @built (the build has
 * counters of its function), @calls, the records allowed and denied
 * through it, and its reason row (NULL: none). A reason never hides a
 * hook reached with both outcomes: the row is then stale
 * (hook_reason_stale()).
 */
enum hook_status hook_status(bool built, unsigned long long calls,
			     unsigned long allow, unsigned long deny,
			     const struct hookreason_row *reason);
bool hook_status_gap(enum hook_status s);
/* "both", "not built", "no decision", "cannot drive", "allow only"... */
const char *hook_status_name(enum hook_status s,
			     const struct hookreason_row *reason);
/* A reason's kind as the report names it: "no decision", "boot only"... */
const char *hookreason_kind_name(enum hookreason_kind k);

#endif
