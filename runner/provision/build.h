/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels built from source: build:SOURCE[+PATCH...]. SOURCE is a kernel
 * tree or debian-source:X.Y (Debian's linux-source-X.Y). Every build uses
 * tinyconfig plus fixtures/config/lsmconf.config and each suite's
 * selftests/<dir>/config (merge_config.sh -m, then olddefconfig, as make
 * kselftest-merge does; every option verified after); only CONFIG_LOCALVERSION
 * differs between builds. A patched build starts from a copy of the
 * unpatched build's objects, so only what the patches touch is rebuilt.
 */
#ifndef LSMCONF_BUILD_H
#define LSMCONF_BUILD_H

#include <stddef.h>

struct err;
struct kernel;

/*
 * Builds (or finds in the cache) the kernel of @k->spec. Returns 0, or -1
 * with a one-line reason naming the spec in @e.
 */
int build_kernel(struct kernel *k, struct err *e);
/*
 * The source identity (kernel.source) of SOURCE @src whose pristine tree
 * is @tree: "source linux-source-X.Y VERSION" for debian-source:X.Y (its
 * tree sits in "<package>_<version>/"), "tree PATH" for a kernel tree.
 * Malloc'd.
 */
char *build_source_identity(const char *src, const char *tree);
/*
 * The upstream version of a kernel tree's Makefile text @mk (its VERSION,
 * PATCHLEVEL and SUBLEVEL lines) as "X.Y.Z" in @out: 0, or -1.
 */
int kernel_makefile_version(const char *mk, char *out, size_t size);

#endif
