/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The two edits a selftests series makes to files of a kernel tree,
 * pure text in, text out: a TARGETS entry in
 * tools/testing/selftests/Makefile and an F: line in a MAINTAINERS entry.
 */
#ifndef LSMCONF_KEDIT_H
#define LSMCONF_KEDIT_H

/*
 * @makefile with "TARGETS += @target" added in name order among the
 * "TARGETS += " lines. NULL when it has no such line or already names
 * @target (*@why says which).
 */
char *kedit_targets(const char *makefile, const char *target, const char **why);

/*
 * @maintainers with "F:\t@path" added in name order among the F: lines of
 * the entry whose title line is @entry (after its last line when it has
 * none). NULL when there is no such entry or it already lists @path
 * (*@why says which).
 */
char *kedit_maintainers(const char *maintainers, const char *entry,
			const char *path, const char **why);

#endif
