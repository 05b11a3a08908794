/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bottom layer, what every other one uses: errors and memory, files
 * and hashes (util.h), bounded child processes (spawn.h), the cache
 * directory (cache.h). It calls nothing above it.
 */
#ifndef LSMCONF_LIB_H
#define LSMCONF_LIB_H

#include "cache.h"
#include "diffcheck.h"
#include "input.h"
#include "kedit.h"
#include "lsm.h"
#include "settings.h"
#include "spawn.h"
#include "util.h"

#endif
