/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lcov's tracefiles (geninfo's .info: SF, FN, FNDA, BRDA, DA records;
 * lcov 2's FNL and FNA in place of FN and FNDA, and VER), read strictly into per-file line, branch and function coverage with
 * each function's count. The summary lines (LF/LH, BRF/BRH, FNF/FNH)
 * must agree with the records they sum: a tracefile that does not is
 * refused, never half believed.
 */
#ifndef LSMCONF_LCOV_H
#define LSMCONF_LCOV_H

#include <stddef.h>

struct lcov_func {
	char *name;
	unsigned long line; /* where it starts */
	unsigned long long count; /* calls (FNDA); 0 when none */
	long index; /* lcov 2's FNL index, -1 for lcov 1's FN */
};

/* A DA record: an instrumented line and how often it ran. */
struct lcov_line {
	unsigned long line;
	unsigned long long count;
};

/* A BRDA record: one edge of a branch on a line; -1 when never evaluated. */
struct lcov_branch {
	unsigned long line;
	long long taken;
};

struct lcov_file {
	char *path; /* SF:, as geninfo wrote it */
	unsigned long lines, lines_hit; /* DA records, those with a count */
	struct lcov_line *da; /* the DA records, in the file's order */
	unsigned long branches, branches_hit; /* BRDA, those taken */
	struct lcov_branch *br; /* the BRDA records, in the file's order */
	struct lcov_func *funcs;
	size_t n_funcs;
	unsigned long funcs_hit; /* functions called at least once */
};

struct lcov {
	struct lcov_file *files;
	size_t n;
};

/*
 * Parses @text (@len bytes) into @out. Returns 0, or -1 with a one-line
 * reason naming the line in @err (an unknown record, a malformed number,
 * a record outside SF...end_of_record, a summary that disagrees).
 */
int lcov_parse(const char *text, size_t len, struct lcov *out, char *err,
	       size_t size);
void lcov_free(struct lcov *l);

/* The file whose path ends with "/@suffix" (or is @suffix), or NULL. */
const struct lcov_file *lcov_file(const struct lcov *l, const char *suffix);
/*
 * How often line @line of the file ending with @suffix ran: its DA count,
 * or -1 when the tracefile has no such file or no DA record for the line
 * (not code gcov counts: a declaration, a blank line, a comment).
 */
long long lcov_line_count(const struct lcov *l, const char *suffix,
			  unsigned long line);
/*
 * The branch edges gcov records on line @line of the file ending with
 * @suffix: how many, and in *@taken how many of them were taken at least
 * once.
 */
unsigned long lcov_line_edges(const struct lcov *l, const char *suffix,
			      unsigned long line, unsigned long *taken);
/*
 * The function of the file ending with @suffix whose body holds @line:
 * the last to start at or before it, with a DA record after @line and
 * before the next function starts (not a declaration after its end).
 * NULL when none does.
 */
const struct lcov_func *lcov_line_func(const struct lcov *l, const char *suffix,
				       unsigned long line);
/* Function @name of any file, or NULL. */
const struct lcov_func *lcov_func(const struct lcov *l, const char *name);

#endif
