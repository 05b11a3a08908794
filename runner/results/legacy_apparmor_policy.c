// SPDX-License-Identifier: GPL-2.0
/* The v1 ids of selftests/apparmor/ (abi, audit, features, live, unix_lifecycle, unix_rules tests) mapped to today's (legacy.h). */
#include <errno.h>

#include "results/legacy.h"

int legacy_apparmor_policy_id(const char *v1_id, const char *abi, char *out,
			      size_t size)
{
	(void)v1_id;
	(void)abi;
	(void)out;
	(void)size;
	return -ENOENT; /* filled in with the rename of selftests/apparmor/ (abi, audit, features, live, unix_lifecycle, unix_rules tests) */
}
