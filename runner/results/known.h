/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Known kernel bugs: cases a shipped kernel gets wrong, listed with their
 * evidence in fixtures/known-kernel-bugs (format in that file's header).
 * A listed failure on a listed kernel is reported as the bug, visibly,
 * instead of failing the run; any other behaviour of a listed case on a
 * listed kernel (fixed, or wrong differently) fails it again, so the list
 * never hides a change. Pure of I/O.
 */
#ifndef LSMCONF_KNOWN_H
#define LSMCONF_KNOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/lib.h"
#include "records.h"

struct known_bug {
	char *name;
	char *kernels; /* space-separated globs on the guest's uname -r */
	char *cases; /* globs on "TEST/CASE" KTAP names, or "-" */
	char *records; /* globs on decision record ids, or "-" */
	char *observed; /* the wrong outcome the listed records show */
	char *function, *evidence, *reproduce;
	/* One boot's tally, reset by known_reset(). */
	size_t failed_cases, wrong_records, clean_cases, clean_records;
};

struct known_list {
	struct known_bug *v;
	size_t n;
};

/*
 * Parses the stanzas of @text (see fixtures/known-kernel-bugs). Returns 0,
 * or -1 with @e naming the line of the first bad entry (unknown key,
 * missing key, neither cases nor records).
 */
int known_parse(const char *text, size_t len, struct known_list *l,
		struct err *e);
void known_free(struct known_list *l);
void known_reset(struct known_list *l);

/* True when bug @b is listed for kernel release @release. */
bool known_applies(const struct known_bug *b, const char *release);

/*
 * The bug on @release that lists case @name ("TEST/CASE"), or NULL;
 * counts the case as failed (@failed) or as clean, for known_unreproduced().
 */
struct known_bug *known_case(struct known_list *l, const char *release,
			     const char *name, bool failed);

/*
 * The bug on @release that lists decision @r with the outcome it shows, or
 * NULL. A listed record with another outcome is counted clean: the kernel
 * no longer shows the bug there.
 */
struct known_bug *known_record(struct known_list *l, const char *release,
			       const struct record *r);

/*
 * The bug on @release whose listed case brings the kernel down ("observed:
 * oops") before it records decision @id, or NULL: a decision another kernel
 * recorded and this one could not.
 */
const struct known_bug *known_crash_record(const struct known_list *l,
					   const char *release, const char *id);

/*
 * After a boot's cases and records went through known_case() and
 * known_record(): the first bug that applies and whose listed cases ran
 * without showing it, or NULL. Its behaviour changed: the list must be
 * updated, so the run fails.
 */
const struct known_bug *known_unreproduced(const struct known_list *l,
					   const char *release);

#endif
