// SPDX-License-Identifier: GPL-2.0
#include "qmp.h"

#include <string.h>

/* The string value of "key" in @line, copied into @out; false if none. */
static bool string_member(const char *line, const char *key, char *out,
			  size_t size)
{
	size_t klen = strlen(key), n = 0;
	const char *p = line;

	while ((p = strstr(p, key))) {
		/* A member name: preceded by a quote, followed by one. */
		if (p == line || p[-1] != '"' || p[klen] != '"') {
			p += klen;
			continue;
		}
		p += klen + 1;
		p += strspn(p, " \t");
		/*
		 * Never stepped past the NUL: a line that ends after the name
		 * or its colon went on searching beyond its end.
		 */
		if (*p != ':')
			continue;
		p++;
		p += strspn(p, " \t");
		if (*p != '"')
			continue;
		p++;
		/*
		 * A value longer than @out is truncated, not dropped (which
		 * classified the line as QMP_OTHER), and a @size of 0 gets
		 * no write at all (an empty value wrote out[0]).
		 */
		for (; *p && *p != '"'; p++)
			if (n + 1 < size)
				out[n++] = *p;
		if (*p != '"')
			return false;
		if (size)
			out[n] = '\0';
		return true;
	}
	return false;
}

enum qmp_kind qmp_parse(const char *line, char *value, size_t size)
{
	if (size)
		value[0] = '\0';
	if (strstr(line, "\"QMP\"") && !strstr(line, "\"event\""))
		return QMP_GREETING;
	if (string_member(line, "event", value, size))
		return QMP_EVENT;
	if (strstr(line, "\"return\"") &&
	    string_member(line, "status", value, size))
		return QMP_STATUS;
	if (size)
		value[0] = '\0';
	return QMP_OTHER;
}

bool qmp_status_alive(const char *status)
{
	static const char *const alive[] = { "running",	    "prelaunch",
					     "shutdown",    "finish-migrate",
					     "postmigrate", NULL };
	const char *const *s;

	for (s = alive; *s; s++)
		if (!strcmp(status, *s))
			return true;
	return false;
}

bool qmp_host_shutdown(const char *line)
{
	char event[32], reason[32];

	return string_member(line, "event", event, sizeof(event)) &&
	       !strcmp(event, "SHUTDOWN") &&
	       string_member(line, "reason", reason, sizeof(reason)) &&
	       (!strcmp(reason, "host-signal") || !strcmp(reason, "host-ui"));
}
