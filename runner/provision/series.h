/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A patch series as a maintainer receives it (an mbox, a directory of
 * numbered patches, a git range) turned into one file a patch, in order,
 * for build:SOURCE+P1+P2... specs to apply with patch(1).
 */
#ifndef LSMCONF_SERIES_H
#define LSMCONF_SERIES_H

#include <stdbool.h>
#include <stddef.h>

struct err;

struct series_patch {
	char *path; /* OUT/NNNN-<slug>.patch */
	char *subject; /* without "[PATCH v2 3/7]"-style prefixes */
};

struct series {
	struct series_patch *p;
	size_t n;
};

/*
 * Reads the series @input into @out (created; it must be empty when it
 * exists): a regular file is an mbox (split as git am would, the cover
 * letter, numbered 0 and without a diff, left out; any other mail without
 * a diff refused), a directory holds NNNN-name.patch files in number
 * order (0000-cover-letter.patch left out; a name without a number, a
 * number twice, or gaps in 1..N refused, gaps only unless @allow_gaps),
 * and "BASE..TIP" is a range of the git tree @git_dir (NULL: not a
 * range). Every patch is read as an input (lib/input.h) and its diff
 * checked (lib/diffcheck.h). Returns 0, or -1 with a one-line message in
 * @e.
 */
int series_load(const char *input, const char *git_dir, const char *out,
		bool allow_gaps, struct series *s, struct err *e);
void series_free(struct series *s);

/*
 * A subject without its leading "[...]" groups and white space ("[PATCH
 * v2 3/7] apparmor: x" -> "apparmor: x"), malloc'd.
 */
char *series_strip_subject(const char *subject);
/*
 * The "i/N" of a subject's leading "[...]" groups: true and *@i, *@total
 * when there is one ("[PATCH 00/12]" gives 0 and 12).
 */
bool series_numbering(const char *subject, unsigned int *i,
		      unsigned int *total);
/* A file-name-safe form of @subject, as git format-patch makes one. */
char *series_slug(const char *subject);
/*
 * The "Subject:" header of a mail's headers (folded lines joined), or the
 * first line of a plain patch; NULL when @text has neither.
 */
char *series_header_subject(const char *text);
/* Whether @text holds a diff ("diff --git", or "--- " then "+++ "). */
bool series_has_diff(const char *text);

#endif
