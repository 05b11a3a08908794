/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A known kernel bug (known.h) as a mail-ready report for the kernel's
 * lists: headers, the evidence, the affected kernels, the code at fault,
 * the standalone reproducer and the candidate fix inline.
 */
#ifndef LSMCONF_BUGREPORT_H
#define LSMCONF_BUGREPORT_H

#include "known.h"

/* What goes with a bug's report: each text NULL when there is none. */
struct bug_files {
	const char *repro_c, *repro_profile; /* fixtures/reproducers/BUG.* */
	const char *fix; /* fixtures/fixes/BUG.patch */
	/*
	 * get_maintainer.pl's output (one address a line, --no-rolestats):
	 * people go to To:, lists (an address with no name) to Cc:.
	 */
	const char *maintainers;
};

/*
 * The report of @b: "To:", "Cc:" and "Subject:" lines, a blank line and
 * the body, as git send-email and mail clients take it. Malloc'd.
 */
char *bug_report(const struct known_bug *b, const struct bug_files *f);

/*
 * The kernel file @b's function: names ("security/apparmor/domain.c"),
 * the first path in it, malloc'd; NULL when it names none.
 */
char *bug_source_file(const struct known_bug *b);

#endif
