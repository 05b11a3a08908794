/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Coverage builds (build:SOURCE[+PATCH...],coverage): the kernel of the
 * spec with gcov counters in the LSMs' code and the hooks' call sites of
 * AF_UNIX, nothing else profiled.
 */
#ifndef LSMCONF_COVERAGE_BUILD_H
#define LSMCONF_COVERAGE_BUILD_H

struct err;

/* The config fragment a coverage build merges after the suites'. */
#define COVERAGE_FRAGMENT LSMCONF_ROOT "/fixtures/config/coverage.config"

/*
 * What makes a coverage build distinct from the same spec without it:
 * the fragment and the tree edits, as text for the build's key.
 */
char *coverage_key_text(void);

/*
 * Turns gcov on for the profiled files of @tree: a line appended to the
 * Makefile of each directory (kbuild's GCOV_PROFILE variables). The tree
 * is hard-linked to the pristine source, so each Makefile is written
 * anew, never in place. 0, or -1 and @e (the host's).
 */
int coverage_profile_tree(const char *tree, struct err *e);

#endif
