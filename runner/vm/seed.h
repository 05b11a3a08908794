/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The policy seed: AppArmor blobs the guest's tests compiled in earlier
 * boots, kept in the cache by the parser that compiled them
 * (policy/<the parser's cache name>/KEY.bin) and put back in every
 * guest image at /lsmconf/policy-seed, so that a profile is compiled once
 * per parser, feature set and source, not once per boot. KEY (the tests'
 * policy_seed_key(), selftests/apparmor/common.h) is "HASH-LENGTH": 16
 * hex digits of FNV-1a over the parser's identity, the feature set's, how
 * it was compiled and the profile source, then the source's length.
 */
#ifndef LSMCONF_SEED_H
#define LSMCONF_SEED_H

#include <stdbool.h>
#include <stddef.h>

struct err;

/* Whether @name is a seed blob's file name ("KEY.bin"). */
bool seed_name_valid(const char *name);

/*
 * Moves the seed blobs a test left in @from (its results' policy-seed/)
 * into @seed_dir, those not there already; @from is removed (a cache, not
 * a result). Other files there are dropped. Returns the number of blobs
 * kept, or -1 with @e set.
 */
int seed_keep(const char *seed_dir, const char *from, struct err *e);

#endif
