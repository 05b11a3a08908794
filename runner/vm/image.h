/* SPDX-License-Identifier: GPL-2.0 */
/* Writes a gzip-compressed newc initramfs with libarchive. */
#ifndef LSMCONF_IMAGE_H
#define LSMCONF_IMAGE_H

#include <stddef.h>
#include <sys/types.h>

struct image;

#include "lib/lib.h"

/*
 * The image keeps its first error: after it, every call does nothing, and
 * image_close() returns -1 with that one line in @e.
 */
struct image *image_create(const char *path);
void image_dir(struct image *img, const char *path);
void image_data(struct image *img, const char *path, const void *data,
		size_t len, mode_t mode);
void image_file(struct image *img, const char *path, const char *host_path,
		mode_t mode);
void image_symlink(struct image *img, const char *path, const char *target);
void image_chardev(struct image *img, const char *path, int major, int minor);
/* Adds @host_dir's files, directories and symlinks below @path. */
void image_tree(struct image *img, const char *path, const char *host_dir);
/* Finishes and frees @img; 0, or -1 with its first error. */
int image_close(struct image *img, struct err *e);

#endif
