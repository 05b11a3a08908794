/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LSMCONF_CMD_MSGCOST_H
#define LSMCONF_CMD_MSGCOST_H

#include "session/session.h"

struct msgcost_opts {
	const char *points; /* "CATS:LEVEL ..." */
	int warmup, rounds, iterations;
	double limit; /* instructions per category per round trip */
	double limit_carried; /* the same, for messages carrying them */
};

/* `lsmconf msgcost SPEC...`; returns the exit status. */
int msgcost_main(const struct run_opts *o, const struct msgcost_opts *mo,
		 char *const *specs, size_t n_specs);

#endif
