/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Generated mutants: every place in a C file where a simple operator
 * makes a plausible mistake, one line changed each, and a sample of them
 * drawn by a seed so that the same seed draws the same mutants. Nobody
 * chooses them: they measure the suite where no issue looked.
 */
#ifndef LSMCONF_MUTGEN_H
#define LSMCONF_MUTGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One line of a file changed by one operator. */
struct mutgen_site {
	const char *op; /* the operator's name, e.g. "swap-equality" */
	unsigned long line; /* 1-based */
	char *after; /* the line as the mutant has it (no newline) */
};

/*
 * The operators, by name (each mutgen_site.op is one of these):
 *   negate-condition   if (C)            -> if (!(C))
 *   swap-equality      ==                <-> !=
 *   swap-relational    <, >              <-> <=, >=
 *   drop-error-return  return -EXXX;     -> return 0;
 *   return-0-early     return err;       -> return 0; (err, error, ret, rc)
 *   swap-errno         -EACCES <-> -EPERM, any other -EXXX -> -EACCES
 *   drop-mask-bit      A | B (constants) -> A, or -> B
 *   skip-call          f(...);           -> ; (a whole-line call)
 */
/* Changed with the operators: patches drawn before are drawn again. */
#define MUTGEN_VERSION 1

extern const char *const mutgen_ops[];
extern const size_t mutgen_n_ops;

/*
 * Whether the default files of an LSM include @path: its C files but
 * its KUnit tests ("*_test.c"), which kernels are rarely built with and
 * which decide nothing.
 */
bool mutgen_default_file(const char *path);

/*
 * Every site of C source @text (comments, preprocessor lines and string
 * literals left alone), in line order, into *@out. Returns how many.
 */
size_t mutgen_sites(const char *text, struct mutgen_site **out);
void mutgen_sites_free(struct mutgen_site *s, size_t n);

/*
 * @n distinct indices of 0..@m-1 drawn by @seed (all of them, shuffled,
 * when @n >= @m), into @out (room for min(@n, @m)). The same seed, @m and
 * @n always draw the same. Returns how many were drawn.
 */
size_t mutgen_draw(uint64_t seed, size_t m, size_t n, size_t *out);

/*
 * The mutant of site @s of @file (its path in the tree, e.g.
 * "security/apparmor/af_unix.c", whose text is @text) as a patch in the
 * mutant corpus' form: a one-line description naming the operator, file
 * and line, a blank line, then a unified diff with three lines of
 * context. Malloc'd.
 */
char *mutgen_patch(const char *file, const char *text,
		   const struct mutgen_site *s);

struct lcov;

/* Why a generated mutant survived, by the original's coverage. */
enum mutgen_gap {
	MUTGEN_NOT_GENERATED, /* its description names no generated site */
	MUTGEN_NOT_BUILT, /* no counters of its file: not in this kernel */
	MUTGEN_NOT_COUNTED, /* gcov counts no code on that line */
	MUTGEN_REACH_GAP, /* the suite never executed the line */
	MUTGEN_ORACLE_GAP, /* executed, and no decision changed */
};

/* What a generated mutant's class was read from. */
struct mutgen_gap_of {
	long long count; /* that line's count, -1: none */
	/*
	 * 0: its own line. Else the line it was classed by, its own having
	 * no counter (gcov folds it into a neighbour): the nearest counted
	 * line of its statement, of the condition whose body it is, or of
	 * the plain statement before it.
	 */
	unsigned long by;
	bool body; /* by is a condition, taken both ways, whose body it is */
	bool follows; /* by is a plain statement it follows, which ran */
	/* A reach gap by its function, which the suites never called. */
	const char *function;
};

/*
 * The class of a surviving mutant whose description (its first line,
 * "generated: OP at FILE:LINE: ...") names its site, by @cov, the
 * original's coverage under the same suites. A line without a counter is
 * classed by the lines before it in @patch's hunk (NULL: not at all). If
 * they leave its statement unfinished, by the nearest counted one: never
 * run, the line never ran; run, so did the line, unless that statement
 * ends in ")" (a condition whose body the line is), which must have gone
 * both ways: every edge gcov records on it taken. If the line starts a
 * statement after a plain one (a call, an assignment; not a jump, a
 * condition or a label) whose first line is in the hunk, and that one
 * ran, it went on to the line: executed. Failing that, a line in the
 * body of a function never called is a reach gap (@of->function).
 */
enum mutgen_gap mutgen_gap(const char *desc, const char *patch,
			   const struct lcov *cov, struct mutgen_gap_of *of);
const char *mutgen_gap_name(enum mutgen_gap g);

/*
 * Whether a mutant of class @g can change nothing the suites run: its line
 * never executed in the original's coverage, or its file is not built.
 * Such a mutant needs no build nor boot to survive (mutate
 * --skip-unexecuted), as mutation tools leave uncovered mutants unrun.
 */
bool mutgen_unexecuted(enum mutgen_gap g);

#endif
