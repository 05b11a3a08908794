/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap.h - parser for the KTAP/TAP output of one kselftest binary
 *
 * Pure library code: no I/O.  The caller reads the output of a test binary
 * into memory and hands it to ktap_parse().
 */
#ifndef LSMCONF_KTAP_H
#define LSMCONF_KTAP_H

#include <stdbool.h>
#include <stddef.h>

enum ktap_status { KTAP_PASS, KTAP_FAIL, KTAP_SKIP, KTAP_XFAIL };

struct ktap_result {
	unsigned int number; /* as printed */
	enum ktap_status status;
	char *name; /* malloc'd, never NULL ("" if none) */
	/*
	 * Directive text after SKIP/XFAIL/TODO, malloc'd, or NULL when the
	 * line carried no such directive ("" for a directive without text).
	 */
	char *reason;
};

struct ktap_doc {
	bool has_version; /* saw "TAP version N" or "KTAP version N" */
	long plan; /* N from "1..N", -1 if no plan line */
	bool skip_all; /* "1..0 # SKIP ..." */
	char *skip_all_reason; /* text after "SKIP", malloc'd, or NULL */
	bool bailed_out;
	char *bail_reason; /* text after "Bail out!", malloc'd, or NULL */
	struct ktap_result *results;
	size_t n_results;
	size_t pass, fail, skip, xfail;
	/*
	 * Top-level lines that are none of: version, plan, result,
	 * diagnostic (#...), blank, indented subtest line, Bail out!
	 * A second plan line, a result without a number and a line that
	 * contains a NUL byte are also counted here.
	 */
	size_t malformed;
	bool duplicate_numbers; /* a test number repeated */
	bool out_of_order; /* numbers not 1,2,3... in order */
	/* every top-level "# ..." line, text after "# " (or "#"), malloc'd */
	char **diag;
	size_t n_diag;
	/* saw "# Totals: pass:A fail:B xfail:C xpass:D skip:E error:F" */
	bool has_totals;
	long totals_pass, totals_fail, totals_xfail, totals_xpass, totals_skip,
		totals_error;
	/*
	 * The input did not end in '\n': the bytes after the last complete
	 * line were not parsed at all.
	 */
	bool truncated_line;
};

/*
 * Parses @len bytes of @text (need not be NUL-terminated; may lack a final
 * newline; may contain '\r\n' line ends, the '\r' is stripped).  Returns 0,
 * or -ENOMEM (then @doc is left empty, as after ktap_free()).  Never fails
 * on bad input: bad lines are counted in malformed.  @doc need not be
 * initialised; call ktap_free() when done with it.
 */
int ktap_parse(const char *text, size_t len, struct ktap_doc *doc);

/* Frees everything @doc owns and leaves it empty (plan -1). */
void ktap_free(struct ktap_doc *doc);

/* "pass", "fail", "skip", "xfail" ("unknown" for anything else). */
const char *ktap_status_name(enum ktap_status status);

/*
 * Finds the LAST diagnostic line that contains @key immediately followed by
 * ": " (anywhere in the line) and copies the text after ": ", trimmed of
 * surrounding white space, into @out (NUL-terminated, truncated to @size).
 * Returns true if such a line was found.
 */
bool ktap_diag_value(const struct ktap_doc *doc, const char *key, char *out,
		     size_t size);

#endif /* LSMCONF_KTAP_H */
