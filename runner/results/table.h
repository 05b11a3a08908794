/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The revocation table: scenario x kernel x LSM -> what the socket made
 * before a label changed ("existing") and one made after it ("new") were
 * allowed, built from decision records alone. A record takes part when
 * its op starts with "existing." or "new." (unix_lifecycle_test, the
 * SELinux lifecycle cases) or is "existing_socket" / "new_socket"
 * (live_test's revocation audit); its row is its id without the op.
 */
#ifndef LSMCONF_TABLE_H
#define LSMCONF_TABLE_H

#include <stddef.h>

#include "records.h"

/* One column group: a kernel booted with one LSM, and its records. */
struct table_col {
	const char *name; /* "debian:sid 7.2.13+deb14-amd64 apparmor" */
	const struct record_set *recs;
};

/*
 * The markdown table of every row any column has, sorted by row. A cell
 * lists the phase's operations as "ROLE: op outcome, ..." in lifecycle
 * order (socket, bind, listen, connect, accept, send..., recv); socket,
 * bind and listen only when not allowed; an outcome that was not the
 * expected one is marked "(expected X)". Two rows whose ids differ in
 * exactly one path element and whose cells are all equal become one row
 * naming both ("change|stack"). Returns a malloc'd string.
 */
char *table_markdown(const struct table_col *cols, size_t n);

/* The phase of @op: 0 "existing", 1 "new", -1 not a lifecycle op. */
int table_phase(const char *op);

#endif
