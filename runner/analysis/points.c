// SPDX-License-Identifier: GPL-2.0
#include "points.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int point_next(const char **p, struct point *pt)
{
	const char *s = *p + strspn(*p, " "), *colon;
	size_t len = strcspn(s, " ");

	*p = s + len;
	if (!*s)
		return 0;
	colon = memchr(s, ':', len);
	pt->text = s;
	pt->len = (int)len;
	pt->alen = colon ? (int)(colon - s) : (int)len;
	pt->b = colon ? colon + 1 : s + len;
	pt->blen = colon ? (int)(len - (colon - s) - 1) : 0;
	return colon ? 1 : -EINVAL;
}

const char *names_join(const char *const *names, size_t n, char *buf,
		       size_t size)
{
	size_t i, len = 0;

	buf[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? ", " : "",
				names[i]);
	return buf;
}
