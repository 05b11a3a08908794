/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decision records: one line per decision, tab-separated, appended to
 * $LSMCONF_RESULTS/records.tsv, or to the file $LSM_SELFTEST_RECORDS
 * names, or else written to stdout as KTAP diagnostics ("# record: "
 * and the columns), so a plain kselftest run keeps them in its log.
 *
 * A record's id is "<test binary>/<KTAP case>/<op>": the KTAP case is the
 * harness's own name for it (fixture.variant.test), so one grep of an id
 * finds the variant, the KTAP line, records.tsv, compare.tsv and
 * fixtures/known-kernel-bugs. <op> names the decision inside its case; it
 * may hold '/' where one case decides a matrix.
 */
#ifndef LSMCONF_RECORD_H
#define LSMCONF_RECORD_H

#define RECORD_FILE "records.tsv"
/* Where records go when LSMCONF_RESULTS is not set (no header line). */
#define RECORD_FILE_ENV "LSM_SELFTEST_RECORDS"
/* Otherwise each record is a KTAP diagnostic line with this prefix. */
#define RECORD_DIAG "# record: "

/* The header line, also the column order. */
#define RECORD_HEADER                                                      \
	"id\tabi\tsubject\tobject\tclass\tdetail\top\tdepends\texpected\t" \
	"observed\n"

/*
 * The header of records written before ids named their KTAP case: a
 * reader maps such ids to today's.
 */
#define RECORD_HEADER_V1                                                 \
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
