/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The LSMs the suite knows, in one table: what is particular to each
 * (its boot, its tests, its kernel sources, where its policy is
 * compiled). In lib/ so that every layer, analysis/ included, reads the
 * same facts; adding an LSM is a row here (and its selftests/ folder).
 */
#ifndef LSMCONF_LSM_H
#define LSMCONF_LSM_H

#include <stdbool.h>
#include <stddef.h>

struct lsm {
	const char *name; /* as --lsm takes it */
	/* Its own kernel command line (NULL: the kernel's default list). */
	const char *boot_append;
	const char *tests; /* its folder under the installed selftests */
	const char *src_dir; /* its kernel sources, e.g. "security/selinux" */
	/* The file of its LSM_HOOK_INIT list, e.g. "security/selinux/hooks.c" */
	const char *hooks_src;
	/*
	 * Its policy is compiled in the guest (by the guest's tools, for the
	 * feature set --abi pins); false: compiled on the host, no pinning.
	 */
	bool pins_abi;
};

/* Every known LSM; the first is the default of --lsm. */
extern const struct lsm lsms[];
extern const size_t n_lsms;

/* The LSM called @name, or NULL. */
const struct lsm *lsm_find(const char *name);
/* The LSM whose sources hold @path ("security/apparmor/net.c"), or NULL. */
const struct lsm *lsm_of_source(const char *path);
/* The LSM whose policy --abi pins (the first with pins_abi). */
const struct lsm *lsm_pinning(void);
/* "apparmor, selinux": the names, for messages (static storage). */
const char *lsm_names(void);
/* "apparmor,selinux": every LSM, as --lsm takes them (static storage). */
const char *lsm_all(void);
/* Whether the comma-separated list @lsms (NULL: none) names @lsm. */
bool lsm_listed(const char *lsms, const char *lsm);

#endif
