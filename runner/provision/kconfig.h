/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel .config files: fragments satisfied, and two configs compared. */
#ifndef LSMCONF_KCONFIG_H
#define LSMCONF_KCONFIG_H

#include <stddef.h>

/*
 * The value of CONFIG_@name in .config text @cfg: "y", "m", a string or
 * number as written, "n" for "# CONFIG_X is not set", NULL when absent.
 * malloc'd.
 */
char *kconfig_get(const char *cfg, const char *name);

/*
 * Checks that every "CONFIG_X=V" / "# CONFIG_X is not set" of @fragment
 * holds in @cfg ("=n" in a fragment means "not set"; an absent option
 * counts as not set). Returns the number of options that do not hold and
 * describes the first in @why.
 */
int kconfig_check_fragment(const char *cfg, const char *fragment, char *why,
			   size_t size);

/*
 * The option lines of @fragment that @base does not already set to the
 * same value ("=n" and "is not set" alike), each as written and ending in
 * '\n': what merging @fragment after @base changes. "" when nothing.
 * malloc'd.
 */
char *kconfig_beyond(const char *base, const char *fragment);

/*
 * Compares two configs option by option, ignoring CONFIG_LOCALVERSION and
 * comments other than "is not set". Returns the number of options that
 * differ and names the first in @why.
 */
int kconfig_diff(const char *a, const char *b, char *why, size_t size);

#endif
