/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decision records: one line per decision, tab-separated, appended to
 * $LSMCONF_RESULTS/records.tsv. The host side reads the same columns
 * (runner/results/records.c); docs/runner.md documents them.
 */
#ifndef LSMCONF_RECORD_H
#define LSMCONF_RECORD_H

#define RECORD_FILE "records.tsv"

/* The header line, also the column order. */
#define RECORD_HEADER                                                    \
	"id\tabi\tsender\treceiver\ttype\taddr\top\tdepends\texpected\t" \
	"observed\n"

#define RECORD_COLUMNS 10

/*
 * An outcome is "allow", an errno name such as "EACCES", or "not-run" for
 * an operation a failed earlier step made impossible.
 */
#define RECORD_ALLOW "allow"
#define RECORD_NOT_RUN "not-run"

#endif /* LSMCONF_RECORD_H */
