/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LSMCONF_CMD_COMPARE_H
#define LSMCONF_CMD_COMPARE_H

#include "session/session.h"

/* Returns the process exit status: 0 when nothing is unexplained. */
int compare_main(const struct run_opts *o, const char *spec_a,
		 const char *spec_b);

#endif
