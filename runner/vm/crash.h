/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a boot that ended in the middle of a test leaves to go on: which
 * case was running (from the guest's live output), the kernel's trace
 * (from the console), and the cases still to run (from the harness's
 * own listing). Pure library code: no I/O.
 */
#ifndef LSMCONF_CRASH_H
#define LSMCONF_CRASH_H

#include <stdbool.h>
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

/* Whether @section (above) holds @kase's result line: the case ended. */
bool crash_case_reported(const char *section, size_t len, const char *kase);

/*
 * Whether console line @line (@len bytes, with or without the kernel's
 * time stamp) announces a case of @test: "kselftest: TEST: RUN CASE",
 * CASE into @name.
 */
bool crash_mark_line(const char *line, size_t len, const char *test, char *name,
		     size_t size);

/*
 * The last case of @test announced on the console ("kselftest: TEST: RUN
 * CASE", which the tests write to /dev/kmsg as each case starts) before
 * the report that ended the boot, unless the test's end ("lsmconf: done
 * TEST") came after it. The kernel prints its log even as it panics, so
 * unlike the live port this names the case a crash came in; it may be
 * one that had already ended (see crash_case_reported()). 0 and the case
 * in @name, or -1 when none was announced.
 */
int crash_console_case(const char *console, size_t len, const char *test,
		       char *name, size_t size);

/*
 * The program of the last case announced on @console ("kselftest: PROGRAM:
 * RUN CASE"), into @prog: 0, or -1 when none was.
 */
int crash_console_program(const char *console, size_t len, char *prog,
			  size_t size);

/*
 * The harness's case list from its "-l" output: one "fixture.variant.test"
 * (or "fixture.test") per case, in the order the harness runs them.
 * Returns how many were put in *@cases (malloc'd strings), or -1 when the
 * listing is not one.
 */
int crash_list_cases(const char *listing, char ***cases);

/*
 * The cases @args names when it names cases alone ("-r NAME" each, one
 * space apart: how the runner plans part of a test), as *@cases; their
 * number, or -1 (any other argument, or none).
 */
int crash_args_cases(const char *args, char ***cases);

/*
 * The kernel's report that ended the boot, from @console: from its first
 * line (console_fatal_line()) on, at most @max_lines lines (malloc'd), or
 * NULL when the boot did not panic (it hung, timed out or ended cleanly).
 */
char *crash_trace(const char *console, size_t len, unsigned int max_lines);

#endif
