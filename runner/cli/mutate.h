/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LSMCONF_CMD_MUTATE_H
#define LSMCONF_CMD_MUTATE_H

#include "session/session.h"

struct mutate_opts {
	const char *dir; /* the mutants */
	const char *source; /* build:SOURCE of the original */
	char **only; /* only these mutants (NULL: all) */
	size_t n_only;
};

/* `lsmconf mutate`; returns the exit status. */
int mutate_main(const struct run_opts *o, const struct mutate_opts *mo);

#endif
