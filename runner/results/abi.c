// SPDX-License-Identifier: GPL-2.0
/* Pinned AppArmor feature sets: names, a plausibility check, SOURCES. */
#define _GNU_SOURCE
#include "abi.h"
#include "lib/lib.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

int abi_set_name(const char *release, char *out, size_t size)
{
	const char *p = release;
	size_t n;

	if (!p || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '.' || !isdigit((unsigned char)*p))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	/* "6.12" alone, or followed by the patch level or a suffix. */
	if (*p && *p != '.' && *p != '-' && *p != '+')
		return -1;
	n = p - release;
	if (n + 1 > size)
		return -1;
	memcpy(out, release, n);
	out[n] = '\0';
	return 0;
}

bool abi_name_ok(const char *name)
{
	const char *p;

	if (!name || !*name || *name == '.' || !strcmp(name, ABI_SOURCES) ||
	    strlen(name) > 64)
		return false;
	for (p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '_' &&
		    *p != '-')
			return false;
	return true;
}

int abi_features_check(const char *text, size_t len, char *why, size_t size)
{
	size_t i;
	int depth = 0;

	if (!len) {
		snprintf(why, size, "the feature set is empty");
		return -1;
	}
	if (memchr(text, '\0', len)) {
		snprintf(why, size, "the feature set holds a NUL byte");
		return -1;
	}
	for (i = 0; i < len; i++) {
		if (text[i] == '{')
			depth++;
		else if (text[i] == '}' && --depth < 0)
			break;
	}
	if (depth) {
		snprintf(why, size, "the feature set's braces do not balance");
		return -1;
	}
	/* Every AppArmor kernel advertises policy/ (versions, set_load). */
	if (!memmem(text, len, "policy {", 8)) {
		snprintf(why, size, "the feature set has no policy section");
		return -1;
	}
	return 0;
}

char *abi_sources_update(const char *sources, const char *name,
			 const char *line)
{
	struct sbuf out = { 0 };
	const char *p = sources && *sources ? sources : ABI_SOURCES_HEADER;
	size_t nlen = strlen(name);
	bool done = false;

	while (*p) {
		size_t n = strcspn(p, "\n");

		if (!done && n > nlen && !strncmp(p, name, nlen) &&
		    p[nlen] == '\t') {
			sbuf_printf(&out, "%s\n", line);
			done = true;
		} else {
			sbuf_printf(&out, "%.*s\n", (int)n, p);
		}
		p += n + (p[n] == '\n');
	}
	if (!done)
		sbuf_printf(&out, "%s\n", line);
	return out.buf;
}
