/* SPDX-License-Identifier: GPL-2.0 */
/* The kselftest harness sources the tests build against. */
#ifndef LSMCONF_KSRC_H
#define LSMCONF_KSRC_H

/*
 * A kernel tree holding tools/testing/selftests/{lib.mk,kselftest_harness.h}:
 * @ksrc when given (checked), else the needed files extracted once from
 * Debian's linux-source-* package into the cache. Returns a malloc'd path,
 * or NULL with the reason in @e.
 */
struct err;
char *ksrc_dir(const char *ksrc, struct err *e);

#endif
