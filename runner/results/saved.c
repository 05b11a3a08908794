// SPDX-License-Identifier: GPL-2.0
/* Saved results directories read back: see saved.h. */
#include "saved.h"
#include "lib/lib.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

char *saved_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		size_t len = strcspn(p, "\n");

		if (len > klen && !strncmp(p, key, klen) && p[klen] == '\t')
			return xstrndup(p + klen + 1, len - klen - 1);
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}

size_t saved_group(const char *const *specs, size_t n, size_t *group)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		/* Same spec as an earlier boot: that boot's kernel. */
		for (j = 0; j < i; j++)
			if (specs[i] && specs[j] && !strcmp(specs[i], specs[j]))
				break;
		group[i] = j < i ? group[j] : k++;
	}
	return k;
}

int saved_verdict(const char *kernel_txt, const char *ktap, int *from_ktap)
{
	char *v = saved_value(kernel_txt, "verdict");
	const char *p = ktap;
	int ok;

	*from_ktap = !v;
	if (v) {
		ok = !strcmp(v, "PASS");
		free(v);
		return ok;
	}
	/* The top-level lines (one a test binary) carry no "# " prefix. */
	while (p && *p) {
		if (!strncmp(p, "not ok ", 7))
			return 0;
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	return 1;
}
