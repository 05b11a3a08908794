/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks an LSM registers, read from its source as the kernel's
 * LSM_HOOK_INIT(HOOK, FUNCTION) list has them (security/apparmor/lsm.c,
 * security/selinux/hooks.c), never typed by hand: the rows of the
 * coverage report's hook table.
 */
#ifndef LSMCONF_HOOKS_H
#define LSMCONF_HOOKS_H

#include <stddef.h>

struct lsm_hook {
	char *hook; /* "socket_sendmsg" */
	char *function; /* "apparmor_socket_sendmsg" */
	unsigned long line; /* of the LSM_HOOK_INIT */
};

/*
 * Every LSM_HOOK_INIT(HOOK, FUNCTION) of C source @src (its #define and
 * comments aside), in order, into *@out (@n of them). Returns the number
 * of uses that are not two identifiers: 0 for a well-formed list.
 */
size_t lsm_hooks_parse(const char *src, struct lsm_hook **out, size_t *n);
void lsm_hooks_free(struct lsm_hook *h, size_t n);

#endif
