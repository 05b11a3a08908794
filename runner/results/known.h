/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Known kernel bugs: cases a shipped kernel gets wrong, listed with their
 * evidence in fixtures/known-kernel-bugs (format in that file's header).
 * A listed failure on a listed kernel is reported as the bug, visibly,
 * instead of failing the run; any other behaviour of a listed case on a
 * listed kernel (fixed, or wrong differently) fails it again, so the list
 * never hides a change. Pure of I/O.
 */
#ifndef LSMCONF_KNOWN_H
#define LSMCONF_KNOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/lib.h"
#include "records.h"

struct known_bug {
	char *name;
	/*
	 * Space-separated exact names of the kernels it applies to: a
	 * release (uname -r), or a build: kernel's source name
	 * (known_names()); never a glob.
	 */
	char *kernels;
	/* Exact "<binary>/<KTAP case>" names of the cases it fails. */
	char *cases;
	/*
	 * For a wrong decision: the exact record ids that show it,
	 * "<binary>/<KTAP case>/<op>", each under a listed case ("-" for an
	 * oops). Nothing else of a case is excused.
	 */
	char *decisions;
	/* The wrong outcome those decisions show, or "oops". */
	char *observed;
	/*
	 * For an oops, its signature: text its report's first line holds
	 * ("BUG: kernel NULL pointer dereference"), and the functions its
	 * report must name, all of them ("-" for a wrong decision).
	 */
	char *fatal, *trace;
	char *function, *evidence, *reproduce;
	/* Where the bug was reported (a URL), or "-" until it is. */
	char *report;
	/* One boot's tally, reset by known_reset(). */
	size_t failed_cases, wrong_records, clean_cases, clean_records;
	size_t other_cases; /* listed cases that failed another way */
};

struct known_list {
	struct known_bug *v;
	size_t n;
};

/*
 * Parses the stanzas of @text (see fixtures/known-kernel-bugs). Returns 0,
 * or -1 with @e naming the line of the first bad entry (unknown or missing
 * key, records: of the first format, no cases, a kernel given as a glob
 * or as every patched build ("+patched"), a case or decision that is not
 * an exact name, a decision under no listed case, an outcome that is not
 * oops, allow or an errno name, a wrong decision without its decisions,
 * an oops without its signature: fatal line and trace functions).
 */
int known_parse(const char *text, size_t len, struct known_list *l,
		struct err *e);
void known_free(struct known_list *l);
void known_reset(struct known_list *l);

/*
 * True when bug @b is listed for a kernel known by @names: its release
 * and, for a build: kernel, its source name, space-separated (the
 * session's kernel names).
 */
bool known_applies(const struct known_bug *b, const char *names);

/*
 * True when case @name ("<binary>/<KTAP case>") is listed as bringing a
 * kernel known by @names down (an oops): the runner boots it apart.
 */
bool known_oops_listed(const struct known_list *l, const char *names,
		       const char *name);

/*
 * Case @name ("<binary>/<KTAP case>") reported (@failed or not) on a
 * kernel known by @names; @recs holds the decisions its test recorded. A
 * listed case that failed is the bug's only when the bug is a wrong
 * decision, a decision it lists shows it, and no other decision of the
 * case is wrong; otherwise it is a failure of its own, said in @why. A
 * listed case that passed is counted clean, for known_unreproduced().
 */
struct known_bug *known_case(struct known_list *l, const char *names,
			     const char *name, bool failed,
			     const struct record_set *recs, char *why,
			     size_t size);

/*
 * Case @name brought the kernel down; @trace is the kernel's report
 * (crash_trace(), NULL when the boot ended without one: a hang, a
 * timeout) and @how the line on how the boot ended. The bug when it is
 * an oops listed for that case and its report is its signature (its
 * first line holds fatal:, it names every function of trace:), else NULL
 * with @why naming what happened instead. @names may hold a patched
 * build's base: a crash is judged by its signature, not by a name.
 */
struct known_bug *known_crash(struct known_list *l, const char *names,
			      const char *name, const char *trace,
			      const char *how, char *why, size_t size);

/* Whether @trace is bug @b's oops (its fatal line, every trace function). */
bool known_trace_matches(const struct known_bug *b, const char *trace);

/*
 * The bug on a kernel known by @names that lists decision @r (its exact
 * id) with the outcome it shows, or NULL. A listed record with another
 * outcome is counted clean: the kernel no longer shows the bug there.
 */
struct known_bug *known_record(struct known_list *l, const char *names,
			       const struct record *r);

/*
 * The oops bug that lists the case of decision @id and that brought down a kernel
 * whose crashes (@crashed, the lines of its known-crashes.tsv: "CASE
 * <TAB> BUG <TAB> BOOT") name it, or NULL: a decision another kernel
 * recorded and this one could not, explained only by a crash that really
 * happened with that bug's signature.
 */
const struct known_bug *known_crash_record(const struct known_list *l,
					   const char *crashed, const char *id);

/*
 * A crash-N.txt as a boot leaves it ("boot N ended in test T, case C",
 * how the boot ended, a blank line, the kernel's report or "(no kernel
 * report on the console)"): "T/C" in @name, the how line in @how, the
 * report in @trace (NULL when there was none), all malloc'd, and N in
 * @boot. -1 when @text is not one or no case was running: nothing to
 * judge by known_crash().
 */
int known_crash_note(const char *text, char **name, char **how, char **trace,
		     int *boot);

/* Whether the lines of a known-crashes.tsv (@crashed) name bug @bug. */
bool known_crashed(const char *crashed, const char *bug);

/*
 * After a boot's cases and records went through known_case() and
 * known_record(): the first bug that applies and whose listed cases ran
 * without showing it, or NULL. Its behaviour changed: the list must be
 * updated, so the run fails.
 */
const struct known_bug *known_unreproduced(const struct known_list *l,
					   const char *names);

#endif
