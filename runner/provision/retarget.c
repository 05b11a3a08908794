// SPDX-License-Identifier: GPL-2.0
/* Copied objects' host tool dependency files, pointed at their new tree. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "retarget.h"
#include "lib/lib.h"

size_t retarget_text(char **buf, size_t *len, const char *from, const char *to)
{
	size_t fl = strlen(from), tl = strlen(to), n = 0;
	struct sbuf out = { 0 };
	const char *p = *buf, *end = *buf + *len, *hit;

	if (!fl)
		return 0;
	while ((hit = memmem(p, end - p, from, fl))) {
		sbuf_add(&out, p, hit - p);
		sbuf_add(&out, to, tl);
		p = hit + fl;
		n++;
	}
	if (!n)
		return 0;
	sbuf_add(&out, p, end - p);
	free(*buf);
	*buf = out.buf;
	*len = out.len;
	return n;
}

static bool dep_file(const char *name)
{
	size_t n = strlen(name);

	return name[0] == '.' && ((n > 4 && !strcmp(name + n - 4, ".cmd")) ||
				  (n > 2 && !strcmp(name + n - 2, ".d")));
}

int retarget_tools(const char *tools_dir, const char *from, const char *to,
		   struct err *e)
{
	DIR *d = opendir(tools_dir);
	struct dirent *de;
	int changed = 0;

	if (!d)
		return errno == ENOENT ?
			       0 :
			       err_set(e, "%s: %s", tools_dir, strerror(errno));
	while (changed >= 0 && (de = readdir(d))) {
		char *path, *buf;
		struct stat st;
		size_t len;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		path = xasprintf("%s/%s", tools_dir, de->d_name);
		if (lstat(path, &st)) {
			free(path);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int k = retarget_tools(path, from, to, e);

			changed = k < 0 ? -1 : changed + k;
		} else if (S_ISREG(st.st_mode) && dep_file(de->d_name)) {
			if (read_file(path, &buf, &len)) {
				changed = err_set(e, "cannot read %s", path);
			} else {
				if (retarget_text(&buf, &len, from, to)) {
					const struct timespec times[2] = {
						st.st_atim, st.st_mtim
					};

					/* make compares times: keep them. */
					if (write_file(path, buf, len) ||
					    utimensat(AT_FDCWD, path, times, 0))
						changed = err_set(
							e, "cannot rewrite %s",
							path);
					else
						changed++;
				}
				free(buf);
			}
		}
		free(path);
	}
	closedir(d);
	return changed;
}
