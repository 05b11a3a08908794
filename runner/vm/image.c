// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "image.h"
#include "lib/lib.h"

#include <archive.h>
#include <archive_entry.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

struct image {
	struct archive *a;
	char *path;
	char **dirs;
	size_t n_dirs;
	bool failed; /* after the first error, nothing more is written */
	struct err err;
};

static void fail(struct image *img, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail(struct image *img, const char *fmt, ...)
{
	va_list ap;

	if (img->failed)
		return;
	img->failed = true;
	va_start(ap, fmt);
	vsnprintf(img->err.msg, sizeof(img->err.msg), fmt, ap);
	va_end(ap);
}

struct image *image_create(const char *path)
{
	struct image *img = xcalloc(1, sizeof(*img));

	img->path = xstrdup(path);
	img->a = archive_write_new();
	/*
	 * Not compressed: QEMU loads the file as it is, and inflating 5 MB of
	 * gzip took the guest kernel 1.2 s of each boot under TCG.
	 */
	archive_write_set_format_cpio_newc(img->a);
	if (archive_write_open_filename(img->a, path) != ARCHIVE_OK)
		fail(img, "cannot create %s: %s", path,
		     archive_error_string(img->a));
	return img;
}

static void put(struct image *img, struct archive_entry *e, const void *data,
		size_t len)
{
	if (!img->failed && archive_write_header(img->a, e) != ARCHIVE_OK)
		fail(img, "%s: %s: %s", img->path, archive_entry_pathname(e),
		     archive_error_string(img->a));
	else if (!img->failed && len &&
		 archive_write_data(img->a, data, len) != (la_ssize_t)len)
		fail(img, "%s: %s: %s", img->path, archive_entry_pathname(e),
		     archive_error_string(img->a));
	archive_entry_free(e);
}

static struct archive_entry *entry(const char *path, mode_t mode)
{
	struct archive_entry *e = archive_entry_new();

	/* newc wants relative names. */
	while (*path == '/')
		path++;
	archive_entry_set_pathname(e, path);
	archive_entry_set_mode(e, mode);
	archive_entry_set_uid(e, 0);
	archive_entry_set_gid(e, 0);
	archive_entry_set_nlink(e, S_ISDIR(mode) ? 2 : 1);
	archive_entry_set_size(e, 0);
	return e;
}

/* Adds every missing parent of @path, so callers need not. */
static void parents(struct image *img, const char *path)
{
	char *copy = xstrdup(path), *s;

	for (s = copy + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		image_dir(img, copy);
		*s = '/';
	}
	free(copy);
}

void image_dir(struct image *img, const char *path)
{
	size_t i;

	if (img->failed)
		return;
	for (i = 0; i < img->n_dirs; i++)
		if (!strcmp(img->dirs[i], path))
			return;
	parents(img, path);
	img->dirs = xrealloc(img->dirs, (img->n_dirs + 1) * sizeof(char *));
	img->dirs[img->n_dirs++] = xstrdup(path);
	put(img, entry(path, S_IFDIR | 0755), NULL, 0);
}

void image_data(struct image *img, const char *path, const void *data,
		size_t len, mode_t mode)
{
	struct archive_entry *e;

	parents(img, path);
	e = entry(path, S_IFREG | mode);
	archive_entry_set_size(e, len);
	put(img, e, data, len);
}

void image_file(struct image *img, const char *path, const char *host_path,
		mode_t mode)
{
	size_t len;
	char *buf;
	int ret;

	if (img->failed)
		return;
	ret = read_file(host_path, &buf, &len);
	if (ret) {
		fail(img, "cannot read %s: %s", host_path, strerror(-ret));
		return;
	}
	image_data(img, path, buf, len, mode);
	free(buf);
}

void image_symlink(struct image *img, const char *path, const char *target)
{
	struct archive_entry *e;

	parents(img, path);
	e = entry(path, S_IFLNK | 0777);
	archive_entry_set_symlink(e, target);
	put(img, e, NULL, 0);
}

void image_chardev(struct image *img, const char *path, int major, int minor)
{
	struct archive_entry *e;

	parents(img, path);
	e = entry(path, S_IFCHR | 0600);
	archive_entry_set_rdev(e, makedev(major, minor));
	put(img, e, NULL, 0);
}

void image_tree(struct image *img, const char *path, const char *host_dir)
{
	DIR *dir;
	struct dirent *de;

	if (img->failed)
		return;
	dir = opendir(host_dir);
	if (!dir) {
		fail(img, "cannot read %s: %s", host_dir, strerror(errno));
		return;
	}
	image_dir(img, path);
	while (!img->failed && (de = readdir(dir))) {
		char *host, *guest;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		host = xasprintf("%s/%s", host_dir, de->d_name);
		guest = xasprintf("%s/%s", path, de->d_name);
		if (lstat(host, &st))
			fail(img, "cannot read %s: %s", host, strerror(errno));
		else if (S_ISDIR(st.st_mode)) {
			image_tree(img, guest, host);
		} else if (S_ISLNK(st.st_mode)) {
			char target[4096];
			ssize_t n = readlink(host, target, sizeof(target) - 1);

			if (n < 0) {
				fail(img, "cannot read %s: %s", host,
				     strerror(errno));
			} else {
				target[n] = '\0';
				image_symlink(img, guest, target);
			}
		} else if (S_ISREG(st.st_mode)) {
			image_file(img, guest, host, st.st_mode & 0777);
		}
		free(host);
		free(guest);
	}
	closedir(dir);
}

int image_close(struct image *img, struct err *e)
{
	size_t i;
	int ret = 0;

	if (!img->failed && archive_write_close(img->a) != ARCHIVE_OK)
		fail(img, "%s: %s", img->path, archive_error_string(img->a));
	if (img->failed) {
		ret = err_set(e, "%s", img->err.msg);
		/* Left as it was when the error came: nothing more written. */
		archive_write_fail(img->a);
	}
	archive_write_free(img->a);
	for (i = 0; i < img->n_dirs; i++)
		free(img->dirs[i]);
	free(img->dirs);
	free(img->path);
	free(img);
	return ret;
}
