// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "kconfig.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One option of a config line: name (without CONFIG_) and value. */
static int parse_line(const char *line, size_t len, char **name, char **val)
{
	static const char unset[] = " is not set";
	const char *eq;

	*name = *val = NULL;
	if (len > 9 && !strncmp(line, "# CONFIG_", 9) &&
	    len > 9 + strlen(unset) &&
	    !strncmp(line + len - strlen(unset), unset, strlen(unset))) {
		*name = xstrndup(line + 9, len - 9 - strlen(unset));
		*val = xstrdup("n");
		return 1;
	}
	if (len < 8 || strncmp(line, "CONFIG_", 7))
		return 0;
	eq = memchr(line, '=', len);
	if (!eq)
		return 0;
	*name = xstrndup(line + 7, eq - line - 7);
	*val = xstrndup(eq + 1, line + len - eq - 1);
	return 1;
}

/* Calls @fn for each option line of @text; stops when it returns non-zero. */
static int for_each_option(const char *text,
			   int (*fn)(const char *name, const char *val,
				     void *ctx),
			   void *ctx)
{
	const char *p = text;
	int ret = 0;

	while (p && *p && !ret) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *name, *val;

		if (len && p[len - 1] == '\r')
			len--;
		if (parse_line(p, len, &name, &val)) {
			ret = fn(name, val, ctx);
			free(name);
			free(val);
		}
		p = nl ? nl + 1 : NULL;
	}
	return ret;
}

struct lookup {
	const char *want;
	char *found;
};

static int lookup_fn(const char *name, const char *val, void *ctx)
{
	struct lookup *l = ctx;

	if (strcmp(name, l->want))
		return 0;
	free(l->found);
	l->found = xstrdup(val);
	return 0;
}

char *kconfig_get(const char *cfg, const char *name)
{
	struct lookup l = { .want = name };

	for_each_option(cfg, lookup_fn, &l);
	return l.found;
}

struct check {
	const char *cfg;
	int bad;
	char *why;
	size_t size;
};

static int check_fn(const char *name, const char *val, void *ctx)
{
	struct check *c = ctx;
	char *have = kconfig_get(c->cfg, name);
	const char *h = have ? have : "n";

	if (strcmp(h, val)) {
		if (!c->bad)
			snprintf(c->why, c->size,
				 "CONFIG_%s is %s, the fragment wants %s", name,
				 have ? have : "absent", val);
		c->bad++;
	}
	free(have);
	return 0;
}

int kconfig_check_fragment(const char *cfg, const char *fragment, char *why,
			   size_t size)
{
	struct check c = { .cfg = cfg, .why = why, .size = size };

	why[0] = '\0';
	for_each_option(fragment, check_fn, &c);
	return c.bad;
}

struct beyond {
	const char *base;
	struct sbuf out;
};

static int beyond_fn(const char *name, const char *val, void *ctx)
{
	struct beyond *b = ctx;
	char *have = kconfig_get(b->base, name);

	if (!have || strcmp(have, val))
		sbuf_printf(&b->out, "CONFIG_%s=%s\n", name, val);
	free(have);
	return 0;
}

char *kconfig_beyond(const char *base, const char *fragment)
{
	struct beyond b = { .base = base };

	sbuf_add(&b.out, "", 0);
	for_each_option(fragment, beyond_fn, &b);
	return b.out.buf;
}

struct diff {
	const char *other;
	int only_absent; /* second pass: count what the other lacks */
	int bad;
	char *why;
	size_t size;
};

static int diff_fn(const char *name, const char *val, void *ctx)
{
	struct diff *d = ctx;
	char *have;

	/* The one option allowed to differ: it names the kernel. */
	if (!strcmp(name, "LOCALVERSION"))
		return 0;
	have = kconfig_get(d->other, name);
	if (!have || (!d->only_absent && strcmp(have, val))) {
		if (!d->bad)
			snprintf(d->why, d->size, "CONFIG_%s: %s vs %s", name,
				 d->only_absent ? "absent" : val,
				 d->only_absent ? val :
				 have		? have :
						  "absent");
		d->bad++;
	}
	free(have);
	return 0;
}

int kconfig_diff(const char *a, const char *b, char *why, size_t size)
{
	struct diff ab = { .other = b, .why = why, .size = size };
	char why2[256];
	struct diff ba = {
		.other = a, .only_absent = 1, .why = why2, .size = sizeof(why2)
	};

	why[0] = '\0';
	for_each_option(a, diff_fn, &ab);
	/* Options only b has. */
	for_each_option(b, diff_fn, &ba);
	if (!ab.bad && ba.bad)
		snprintf(why, size, "%s", why2);
	return ab.bad + ba.bad;
}
