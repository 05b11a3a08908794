/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Whose fault a failed build step is, from the tool's own words in the
 * build log. Private to provision/ (build.c). Pure library code: no I/O.
 */
#ifndef LSMCONF_BUILDLOG_H
#define LSMCONF_BUILDLOG_H

#include <stddef.h>

enum build_blame {
	/* Nothing of the tree's in the log: the host's (retried once). */
	BUILD_HOST,
	/* The tool's own evidence against the tree: a result. */
	BUILD_KERNEL,
	/* patch(1) cannot read the patch: bad input, not the tree's. */
	BUILD_INPUT,
};

/*
 * Judges the part of a build log one failed step wrote (@log, @len
 * bytes): the kernel's only when the tool names the tree's fault, that
 * is an error line of the compiler, assembler or kconfig naming a file
 * of the tree ("FILE:LINE[:COL]: error:", "fatal error:", "Error:",
 * "syntax error", FILE relative or under @tree), the linker's
 * "undefined reference to" or "multiple definition of", modpost's
 * "ERROR: modpost:", or patch(1)'s refused hunks ("Hunk #N FAILED",
 * "saving rejects to file", "N out of M hunks ignored"); bad input when
 * patch(1) says the patch is malformed ("malformed patch", "Only garbage
 * was found", "unexpected end of file in patch"), whatever else it says;
 * else the host's, and always when the log shows the host ran short ("No space left on
 * device", "Killed signal terminated program", "virtual memory
 * exhausted", "Cannot allocate memory", "out of memory allocating").
 * The line that decided, else the last line, goes to @line (without its
 * line end).
 */
enum build_blame build_log_blame(const char *log, size_t len, const char *tree,
				 char *line, size_t size);

#endif
