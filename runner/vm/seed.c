// SPDX-License-Identifier: GPL-2.0
/* The policy seed: blobs the tests compiled, kept for later boots. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vm/seed.h"
#include "lib/lib.h"

bool seed_name_valid(const char *name)
{
	size_t i, n = strlen(name);

	/* 16 hex digits, '-', 1 to 10 digits, ".bin" */
	if (n < 16 + 1 + 1 + 4 || n > 16 + 1 + 10 + 4 ||
	    strcmp(name + n - 4, ".bin") || name[16] != '-')
		return false;
	for (i = 0; i < 16; i++)
		if (!strchr("0123456789abcdef", name[i]))
			return false;
	for (i = 17; i < n - 4; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return true;
}

int seed_keep(const char *seed_dir, const char *from, struct err *e)
{
	DIR *d = opendir(from);
	struct dirent *de;
	int kept = 0;

	if (!d)
		return errno == ENOENT ?
			       0 :
			       err_set(e, "%s: %s", from, strerror(errno));
	if (mkdir_p(seed_dir)) {
		closedir(d);
		return err_set(e, "cannot create %s", seed_dir);
	}
	while ((de = readdir(d))) {
		char *src, *dst;

		if (!seed_name_valid(de->d_name))
			continue;
		src = xasprintf("%s/%s", from, de->d_name);
		dst = xasprintf("%s/%s", seed_dir, de->d_name);
		/* A key names its content: one already kept is the same. */
		if (!path_exists(dst) && !copy_file(src, dst, 0644))
			kept++;
		free(src);
		free(dst);
	}
	closedir(d);
	remove_tree(from);
	return kept;
}
