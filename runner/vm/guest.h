/* SPDX-License-Identifier: GPL-2.0 */
/* What goes into the guest: busybox, init, the tests and the policy tools. */
#ifndef LSMCONF_GUEST_H
#define LSMCONF_GUEST_H

#include "provision/provision.h"

struct plan_item {
	char *name; /* test binary */
	int timeout_s; /* per-test bound, enforced in the guest */
	char *args; /* extra arguments (e.g. "-r fixture.variant.test") */
};

struct plan {
	struct plan_item *items;
	size_t n;
};

/*
 * Every *_test binary in @tests_dir, or just @only when it is not NULL.
 * Returns 0, or -1 with @e set (and @p empty).
 */
int plan_make(struct plan *p, const char *tests_dir, char *const *only,
	      size_t n_only, const char *args, int timeout_s, struct err *e);
void plan_free(struct plan *p);

/*
 * Builds the initramfs for one boot of @k at @path (with the AppArmor
 * userspace, fetched into the cache the first time). Returns 0, or -1
 * with @e set.
 */
int guest_image(const char *path, const struct kernel *k, const struct plan *p,
		const char *tests_dir, struct err *e);

/* The version string of the AppArmor userspace put in the guest. */
const char *guest_parser_version(void);
/*
 * The cache name of the guest's AppArmor userspace (its packages'
 * versions), or NULL with @e set.
 */
const char *guest_parser_id(struct err *e);
/* The policy seed directory of that userspace (seed.h), or NULL. */
const char *guest_policy_seed(void);

#endif
