/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a boot that ended in the middle of a test leaves to go on: which
 * case was running (from the guest's live output), the kernel's trace
 * (from the console), and the cases still to run (from the harness's
 * own listing). Pure library code: no I/O.
 */
#ifndef LSMCONF_CRASH_H
#define LSMCONF_CRASH_H

#include <stddef.h>

/*
 * The last section of @test in a live log (the guest writes "lsmconf: run
 * NAME" before each test's output), as a pointer into @live and its length;
 * NULL when the test never started.
 */
const char *crash_section(const char *live, size_t len, const char *test,
			  size_t *out_len);

/*
 * The case of a kselftest harness run (a section above) that started
 * ("#  RUN  NAME ...") and never reported ("ok N NAME", "not ok N NAME"),
 * copied into @name; 0 when there is one, -1 when every started case
 * reported.
 */
int crash_open_case(const char *section, size_t len, char *name, size_t size);

/*
 * The harness's case list from its "-l" output: one "fixture.variant.test"
 * (or "fixture.test") per case, in the order the harness runs them.
 * Returns how many were put in *@cases (malloc'd strings), or -1 when the
 * listing is not one.
 */
int crash_list_cases(const char *listing, char ***cases);

/*
 * The kernel's report that ended the boot, from @console: from its first
 * line (console_fatal_line()) on, at most @max_lines lines (malloc'd), or
 * NULL when the boot did not panic (it hung, timed out or ended cleanly).
 */
char *crash_trace(const char *console, size_t len, unsigned int max_lines);

#endif
