/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: what the matrix tests' variant tables
 * (unix_peer_variants.h, inet_variants.h, written by their .sh scripts
 * through variants.sh) share: the check that a variant's name is its
 * cell, and the permission lists of the missing-permission sweeps.
 */

#ifndef LSMCONF_APPARMOR_VARIANTS_H
#define LSMCONF_APPARMOR_VARIANTS_H

#include <assert.h>
#include <stdio.h>
#include <string.h>

/*
 * CELL_IS(A, B, C, D, E): the enumerator a variant named by the five cell
 * values joined by "__" declares. A variant's CELL() declares
 * NAME##__variant and asserts CELL_IS() of its values, so the build fails
 * unless NAME is exactly those values, and a printed case name (the record
 * id's KTAP segment) names exactly what the variant holds.
 */
#define CELL_IS(A, B, C, D, E) A##__##B##__##C##__##D##__##E##__variant

/* The policy ABI a variant name's first value stands for. */
#define ABI_abi_vanilla "kernel-5.4-vanilla"
#define ABI_abi_3_0 "3.0"
#define ABI_abi_4_0 "4.0"
#define ABI_abi_5_0 "5.0"

/* Every permission a unix or network rule can list, in the parser's order. */
#define ALL_PERMS                                                         \
	"create, bind, listen, accept, connect, send, receive, getattr, " \
	"setattr, getopt, setopt, shutdown"

/*
 * Writes ALL_PERMS without @perm (NULL: all of them) to @out, in the same
 * order and form: the allow list of a sweep label missing @perm.
 */
static inline void perms_without(char *out, size_t size, const char *perm)
{
	const char *p = ALL_PERMS;
	size_t len = 0;

	out[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, ",");

		if (!perm || n != strlen(perm) || strncmp(p, perm, n))
			len += snprintf(out + len, size - len, "%s%.*s",
					len ? ", " : "", (int)n, p);
		p += n;
		while (*p == ',' || *p == ' ')
			p++;
	}
}

#endif /* LSMCONF_APPARMOR_VARIANTS_H */
