/* SPDX-License-Identifier: GPL-2.0 */
/*
 * console.h - scan a guest kernel log for panics, oopses, BUGs, WARNINGs
 * and stalls
 *
 * Pure library code: no I/O.
 */
#ifndef LSMCONF_CONSOLE_H
#define LSMCONF_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

enum console_event {
	CONSOLE_PANIC,
	CONSOLE_OOPS,
	CONSOLE_BUG,
	CONSOLE_WARNING,
	CONSOLE_STALL,
	CONSOLE_N_EVENTS
};

struct console_finding {
	enum console_event event;
	unsigned int line; /* 1-based line number, 0 if never seen */
	/*
	 * The offending line, "[    1.234567] " timestamp and "<N>" level
	 * prefixes removed, NUL bytes replaced by '?', truncated.
	 */
	char text[160];
};

struct console_scan {
	size_t bytes; /* total input size */
	unsigned int count[CONSOLE_N_EVENTS];
	struct console_finding first[CONSOLE_N_EVENTS]; /* first of each */
};

/*
 * Scans @len bytes of @text (bytes, not necessarily text: NULs and invalid
 * UTF-8 are fine; '\r\n' line ends are fine; the last line need not end in
 * '\n').  Each line is matched only at its start, after the optional
 * prefixes above, so "test_BUG_detector" or "# WARNING count" never match.
 */
void console_scan(const char *text, size_t len, struct console_scan *scan);

/*
 * What one console line means for a boot that is still running: FATAL
 * (a panic, an oops, kernel BUG at, an early exception: the kernel will
 * not get further), TRACE (a "cut here" or "end trace" line: a report that
 * a kernel which makes no progress afterwards will not explain), or OTHER.
 * Prefixes are stripped as for console_scan().
 */
enum console_line_kind {
	CONSOLE_LINE_OTHER,
	CONSOLE_LINE_FATAL,
	CONSOLE_LINE_TRACE,
};

enum console_line_kind console_line_kind(const char *line, size_t len);

/* "panic", "oops", "BUG", "WARNING", "stall" ("unknown" otherwise). */
const char *console_event_name(enum console_event e);

/*
 * One line describing the most severe finding (panic > oops > BUG > WARNING
 * > stall), e.g. "kernel panic at console line 42: Kernel panic - not
 * syncing: No working init found".  Returns false and leaves @buf empty when
 * nothing was found.
 */
bool console_verdict(const struct console_scan *scan, char *buf, size_t size);

/*
 * The 1-based line where the report that ended the boot starts: the first
 * oops (the guest boots with oops=panic), from the BUG line that heads
 * it, else the first "Kernel panic" line; 0 when the boot did not panic
 * (it ended cleanly, hung or timed out).
 */
unsigned int console_fatal_line(const char *text, size_t len);

/* A report on a boot's console that did not end the boot. */
struct console_problem {
	enum console_event event;
	unsigned int line; /* its first line, 1-based */
	char text[160]; /* that line, prefixes removed (as in a finding) */
	/* The test running then ("lsmconf: run NAME"), "" outside tests. */
	char test[128];
};

/*
 * Every report (WARNING, BUG, UBSAN, KASAN, refcount_t, lockdep, stall)
 * on @text before the one that ended the boot (console_fatal_line()), or
 * to its end, each attributed to the test the guest's markers say was
 * running; lines of one report (up to its "---[ end trace" line, a few
 * lines apart) count once. Returns how many, in *@out (malloc'd, NULL
 * when none).
 */
size_t console_problems(const char *text, size_t len,
			struct console_problem **out);

#endif /* LSMCONF_CONSOLE_H */
