/* SPDX-License-Identifier: GPL-2.0 */
/* Turns a kernel spec into a bootable kernel with an exact identity. */
#ifndef LSMCONF_KERNEL_H
#define LSMCONF_KERNEL_H

#include <stdbool.h>

#include "spec.h"

struct kernel {
	struct kspec spec;
	char *package; /* Debian package the image came from, or NULL */
	char *version; /* its version, or NULL */
	char *release; /* kernel release, from the package or the image */
	/*
	 * A build: kernel's source, as the known kernel bugs list names it:
	 * "build:linux-source-7.2_7.2.13-1" (the Debian source package and
	 * version, or the tree's path) for the unpatched build, with "+" and
	 * 12 digits of the build's key for a patched one; NULL otherwise.
	 */
	char *known_name;
	/*
	 * A patched build's base (its known_name unpatched): the list's
	 * stanzas of the base apply to it for a crash with their signature
	 * only. NULL otherwise.
	 */
	char *known_base;
	/* A build's VERSION.PATCHLEVEL.SUBLEVEL from its tree, or NULL. */
	char *tree_version;
	char *image; /* bzImage path */
	char *config; /* kernel config path, or NULL */
	char *modules; /* modules directory, or NULL */
	char image_sha256[65];
	char config_sha256[65];
	double fetch_seconds; /* time spent downloading/extracting/building */
	double build_seconds; /* of which building, for build: specs */
	char *build_log;
	/*
	 * What the kernel is built from: two kernels with the same source
	 * differ only by their patches (build:) or not at all. "source
	 * linux-source-X.Y VERSION" or "tree PATH" for build:, "package NAME
	 * VERSION" for Debian's packages, "image sha256 HEX" otherwise.
	 */
	char *source;
};

struct err;

/*
 * What `kernel` would refuse before fetching, building or booting
 * anything, and every planner with it: the spec's syntax, and the local
 * files it names: file:'s image a regular file and an x86 bzImage (its
 * config a regular file, its modules a directory), deb:'s package a
 * regular file with an ar header, build:'s source a tree with AppArmor
 * (or debian-source:X.Y) and each patch a unified diff
 * (lib/diffcheck.h). 0, or -1 with a one-line reason naming the spec.
 */
int kernel_check_spec(const char *text, struct err *e);

/*
 * Provisions @text: fetches, extracts or builds the kernel. Returns 0, or
 * -1 with a one-line error naming the spec in @e (@k is then empty).
 */
int kernel_provision(const char *text, struct kernel *k, bool refresh,
		     struct err *e);
void kernel_free(struct kernel *k);
/* "debian:sid -> linux-binary-7.2.13+deb14-amd64 7.2.13-1 (release ...)" */
char *kernel_identity(const struct kernel *k);

/*
 * Checks that @path is an x86 bzImage ("HdrS" boot header) and reads its
 * release string. Returns 0 or a negative errno; -ENOEXEC when it is not.
 */
int bzimage_check(const char *path, char *release, size_t size);

#endif
