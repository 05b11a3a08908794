/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Saved results directories read back (`lsmconf compare --saved`): a
 * boot's kernel.txt values, which boots of a run are one kernel, and
 * whether a boot passed.
 */
#ifndef LSMCONF_SAVED_H
#define LSMCONF_SAVED_H

#include <stddef.h>

/* kernel.txt's value of @key (its "key<TAB>value" line), malloc'd, or NULL. */
char *saved_value(const char *text, const char *key);

/*
 * The boots of a run by kernel: @specs[i] is boot i's kernel spec (NULL
 * when unknown: an error for the caller). Sets @group[i] to its kernel's
 * index, kernels numbered in the order first seen; returns how many.
 */
size_t saved_group(const char *const *specs, size_t n, size_t *group);

/*
 * Whether a saved boot passed: 1 or 0 from kernel.txt's "verdict" line
 * (PASS/FAIL, as its run printed it); -1 when there is none (a run of an
 * older lsmconf), then @ktap decides: 0 when any test line is "not ok",
 * else 1 (a decision not as expected is not seen that way).
 */
int saved_verdict(const char *kernel_txt, const char *ktap, int *from_ktap);

#endif
