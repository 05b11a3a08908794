/* SPDX-License-Identifier: GPL-2.0 */
/* Where downloads and extracted files live between runs. */
#ifndef LSMCONF_CACHE_H
#define LSMCONF_CACHE_H

/* $LSMCONF_CACHE, else $XDG_CACHE_HOME/lsmconf, else ~/.cache/lsmconf. */
const char *cache_root(void);
/* cache_root()/@sub, created if missing; malloc'd. */
char *cache_path(const char *sub);

#endif
