/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Records of the first schema (header RECORD_HEADER_V1: ids such as
 * "unix_peer/5.0/dgram/abstract/send_deny/unconfined/sender.sendto",
 * written before ids named their KTAP case) mapped to today's ids
 * ("<test binary>/<KTAP case>/<op>"), so that runs saved before the
 * rename stay comparable. The only place that knows the old ids.
 */
#ifndef LSMCONF_LEGACY_H
#define LSMCONF_LEGACY_H

#include <stddef.h>

/*
 * Today's id of the v1 record @v1_id in @out. @abi is the record's abi
 * column (some v1 ids left it out). 0, -ENOENT when no rule knows the id,
 * -ENAMETOOLONG when @out is too small.
 */
int legacy_id(const char *v1_id, const char *abi, char *out, size_t size);

/* The rules of each LSM's tests: 0, or -ENOENT when the id is not theirs. */
int legacy_apparmor_id(const char *v1_id, const char *abi, char *out,
		       size_t size);
/* AppArmor's policy, audit, live and lifecycle tests (legacy_apparmor_policy.c). */
int legacy_apparmor_policy_id(const char *v1_id, const char *abi, char *out,
			      size_t size);
int legacy_selinux_id(const char *v1_id, const char *abi, char *out,
		      size_t size);

#endif
