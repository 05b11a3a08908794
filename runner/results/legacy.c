// SPDX-License-Identifier: GPL-2.0
/* Old record ids to today's: see legacy.h. */
#include <errno.h>

#include "results/legacy.h"

int legacy_id(const char *v1_id, const char *abi, char *out, size_t size)
{
	int ret = legacy_apparmor_id(v1_id, abi, out, size);

	if (ret == -ENOENT)
		ret = legacy_apparmor_policy_id(v1_id, abi, out, size);

	if (ret == -ENOENT)
		ret = legacy_selinux_id(v1_id, abi, out, size);
	return ret;
}
