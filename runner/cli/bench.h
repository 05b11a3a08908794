/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LSMCONF_CMD_BENCH_H
#define LSMCONF_CMD_BENCH_H

#include "session/session.h"

struct bench_opts {
	const char *points; /* space-separated WORKLOAD:CONFINEMENT */
	int invocations, warmup, rounds, messages;
};

/* A -> B -> A2, fresh boots; returns the process exit status. */
int bench_main(const struct run_opts *o, const struct bench_opts *b,
	       const char *spec_a, const char *spec_b);

#endif
