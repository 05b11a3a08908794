/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A unified diff checked before patch(1) ever sees it: every file's
 * "--- "/"+++ " pair, at least one hunk a file, and every "@@ -a,b +c,d @@"
 * hunk holding exactly its b old and d new lines. A patch that fails here
 * is the input's fault, refused when it is named (a mutant, a series, a
 * build: spec), not a kernel that "does not build".
 */
#ifndef LSMCONF_DIFFCHECK_H
#define LSMCONF_DIFFCHECK_H

#include <stddef.h>

struct err;

/*
 * Checks the diff in @text (@len bytes; text before the first file
 * header, a mail's or a mutant's, is left alone). Returns the number of
 * files it patches, or -1 with a one-line message naming @name and the
 * line in @e (no diff at all is an error too).
 */
int diff_check(const char *text, size_t len, const char *name, struct err *e);

#endif
