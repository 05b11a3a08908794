/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernels built from source: build:SOURCE[+PATCH...]. SOURCE is a kernel
 * tree or debian-source:X.Y (Debian's linux-source-X.Y). Every build uses
 * tinyconfig plus fixtures/config/lsmconf.config; only CONFIG_LOCALVERSION
 * differs between builds. A patched build starts from a copy of the
 * unpatched build's objects, so only what the patches touch is rebuilt.
 */
#ifndef LSMCONF_BUILD_H
#define LSMCONF_BUILD_H

struct kernel;

/* Builds (or finds in the cache) the kernel of @k->spec; dies on error. */
void build_kernel(struct kernel *k);

#endif
