/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Objects copied from one build to another (build.c): kbuild names its
 * files relative to the output directory, so its objects stay valid, but
 * the host tools it builds first (objtool, under O/tools/) record
 * absolute paths in their dependency files (.NAME.cmd, .NAME.d): under
 * another build's tree every command line differs and the whole of
 * objtool was compiled again, about 30 s of every mutant's build here.
 * Those files are rewritten to name the new tree.
 */
#ifndef LSMCONF_RETARGET_H
#define LSMCONF_RETARGET_H

#include <stddef.h>

struct err;

/*
 * Every @from in the @len bytes of *@buf replaced by @to (*@buf
 * reallocated, *@len updated). Returns the number of replacements.
 */
size_t retarget_text(char **buf, size_t *len, const char *from, const char *to);

/*
 * Each ".*.cmd" and ".*.d" file below @tools_dir retargeted from @from to
 * @to, its times kept. Returns the number of files changed, or -1 with
 * @e set (a file that cannot be read or written).
 */
int retarget_tools(const char *tools_dir, const char *from, const char *to,
		   struct err *e);

#endif
