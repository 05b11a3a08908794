// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "settings.h"
#include "input.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

int settings_timeout(const char *text, struct err *e)
{
	const char *p = text;
	int timeout = SETTINGS_DEFAULT_TIMEOUT_S;

	while (p && *p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (len > 8 && !strncmp(p, "timeout=", 8)) {
			char *v = strndup(p + 8, len - 8), *end;
			long n;

			if (!v)
				return err_set(e, "out of memory");
			errno = 0;
			n = strtol(v, &end, 10);
			if (errno || end == v || *end || n <= 0 ||
			    n > INT_MAX) {
				err_set(e,
					"timeout=%s is not a positive number of seconds",
					v);
				free(v);
				return -1;
			}
			free(v);
			timeout = (int)n;
		} else if (len == 8 && !strncmp(p, "timeout=", 8)) {
			return err_set(e, "timeout= has no value");
		}
		p = nl ? nl + 1 : NULL;
	}
	return timeout;
}

int settings_dir_timeout(const char *dir, struct err *e)
{
	char *path = xasprintf("%s/settings", dir), *text;
	struct err why;
	int t = read_input(path, INPUT_MAX_SMALL, INPUT_TEXT, &text, NULL, e);

	if (t) {
		t = t == -ENOENT ? SETTINGS_DEFAULT_TIMEOUT_S : -1;
		free(path);
		return t;
	}
	t = settings_timeout(text, &why);
	if (t < 0)
		err_set(e, "%s: %s", path, why.msg);
	free(text);
	free(path);
	return t;
}
