// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "spec.h"
#include "lib/lib.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reason stays one line: control bytes of @text are shown as '?'. */
static int fail(char *err, size_t size, const char *text, const char *why)
{
	char *c;

	snprintf(err, size, "%s: %s", text, why);
	for (c = err; *c; c++)
		if (iscntrl((unsigned char)*c))
			*c = '?';
	return -EINVAL;
}

int kspec_is_version(const char *v)
{
	/* Versions start with a digit; suite names never do. */
	return isdigit((unsigned char)v[0]) && strchr(v, '.');
}

static int valid_debian_value(const char *v)
{
	for (; *v; v++)
		if (!isalnum((unsigned char)*v) && !strchr(".+-~_", *v))
			return 0;
	return 1;
}

static int parse_file_opts(char *rest, struct kspec *spec, const char *text,
			   char *err, size_t size)
{
	char *opt, *save = NULL;

	for (opt = strtok_r(rest, ",", &save); opt;
	     opt = strtok_r(NULL, ",", &save)) {
		if (!strncmp(opt, "modules=", 8) && opt[8] && !spec->modules)
			spec->modules = xstrdup(opt + 8);
		else if (!strncmp(opt, "config=", 7) && opt[7] && !spec->config)
			spec->config = xstrdup(opt + 7);
		else
			return fail(
				err, size, text,
				"unknown or repeated option (want modules=DIR or config=FILE)");
	}
	return 0;
}

int kspec_parse(const char *text, struct kspec *spec, char *err, size_t size)
{
	const char *colon = strchr(text, ':');
	char *scheme, *value, *comma;
	int ret = 0;

	memset(spec, 0, sizeof(*spec));
	if (!colon || colon == text || !colon[1])
		return fail(
			err, size, text,
			"not a kernel spec (want debian:SUITE, debian:VERSION, file:PATH or deb:PATH)");
	scheme = xstrndup(text, colon - text);
	value = xstrdup(colon + 1);
	spec->text = xstrdup(text);

	if (!strcmp(scheme, "debian")) {
		spec->kind = KSPEC_DEBIAN;
		if (!valid_debian_value(value))
			ret = fail(err, size, text,
				   "suite or version has invalid characters");
	} else if (!strcmp(scheme, "file")) {
		spec->kind = KSPEC_FILE;
		comma = strchr(value, ',');
		if (comma) {
			*comma = '\0';
			ret = parse_file_opts(comma + 1, spec, text, err, size);
		}
		if (!ret && !value[0])
			ret = fail(err, size, text, "empty path");
	} else if (!strcmp(scheme, "deb")) {
		spec->kind = KSPEC_DEB;
	} else if (!strcmp(scheme, "build")) {
		spec->kind = KSPEC_BUILD;
		comma = strrchr(value, ',');
		if (comma && !strcmp(comma, ",coverage")) {
			spec->coverage = true;
			*comma = '\0';
		}
		if (!value[0] || value[0] == '+' || strstr(value, "++") ||
		    value[strlen(value) - 1] == '+')
			ret = fail(
				err, size, text,
				"empty source or patch (want build:SOURCE[+PATCH...][,coverage])");
	} else {
		ret = fail(
			err, size, text,
			"unknown kind of kernel spec (want debian:, file: or deb:)");
	}
	free(scheme);
	spec->value = value;
	if (ret)
		kspec_free(spec);
	return ret;
}

void kspec_free(struct kspec *spec)
{
	free(spec->text);
	free(spec->value);
	free(spec->modules);
	free(spec->config);
	memset(spec, 0, sizeof(*spec));
}
