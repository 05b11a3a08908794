// SPDX-License-Identifier: GPL-2.0
/*
 * apt's texts, read and written without running apt: the system's
 * sources, the private sources.list made from them, and apt-cache's
 * answers (madison, show). Apart from apt.c so that the fuzz harness
 * (runner/fuzz/fuzz_apt.c) links the parsers alone.
 */
#define _GNU_SOURCE
#include "apt.h"
#include "lib/lib.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const default_suites[] = { "bookworm", "bookworm-backports",
					      "trixie", "sid", NULL };

const char *const *apt_suites(void)
{
	static const char **env_suites;
	const char *env = getenv("LSMCONF_DEBIAN_SUITES");
	char *copy, *tok, *save = NULL;
	size_t n = 0;

	if (!env || !*env)
		return default_suites;
	if (env_suites)
		return env_suites;
	env_suites = xcalloc(strlen(env) + 2, sizeof(char *));
	copy = xstrdup(env);
	for (tok = strtok_r(copy, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save))
		env_suites[n++] = tok;
	return env_suites;
}

bool apt_is_suite(const char *name)
{
	const char *const *s;

	for (s = apt_suites(); *s; s++)
		if (!strcmp(*s, name))
			return true;
	return false;
}

static void add_source(struct apt_source **v, size_t *n, const char *uri,
		       const char *suite, const char *signed_by)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].uri = xstrdup(uri);
	(*v)[*n].suite = xstrdup(suite);
	(*v)[*n].signed_by = signed_by ? xstrdup(signed_by) : NULL;
	(*n)++;
}

/* One deb822 stanza: Types, URIs, Suites (space separated), Signed-By. */
static void parse_stanza(char *st, struct apt_source **v, size_t *n)
{
	char *types = NULL, *uris = NULL, *suites = NULL, *sb = NULL;
	char *line, *save = NULL, *u, *s, *su = NULL, *ss = NULL;

	for (line = strtok_r(st, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *colon;

		if (line[0] == '#' || isspace((unsigned char)line[0]))
			continue;
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (!strcasecmp(line, "Types"))
			types = trim(colon + 1);
		else if (!strcasecmp(line, "URIs"))
			uris = trim(colon + 1);
		else if (!strcasecmp(line, "Suites"))
			suites = trim(colon + 1);
		else if (!strcasecmp(line, "Signed-By"))
			/* An inline key (continuation lines) has no file name. */
			sb = *trim(colon + 1) ? trim(colon + 1) : NULL;
		else if (!strcasecmp(line, "Enabled") &&
			 !strcasecmp(trim(colon + 1), "no"))
			return;
	}
	if (!types || !uris || !suites || !strstr(types, "deb"))
		return;
	/* "deb-src" alone is no binary source. */
	if (!strcmp(types, "deb-src"))
		return;
	for (u = strtok_r(uris, " \t", &su); u;
	     u = strtok_r(NULL, " \t", &su)) {
		char *copy = xstrdup(suites);

		for (s = strtok_r(copy, " \t", &ss); s;
		     s = strtok_r(NULL, " \t", &ss))
			add_source(v, n, u, s, sb);
		free(copy);
	}
}

void apt_parse_sources(const char *text, bool deb822, struct apt_source **v,
		       size_t *n)
{
	char *copy = xstrdup(text), *p = copy, *line, *save = NULL;

	if (deb822) {
		/* Stanzas are separated by blank lines. */
		for (;;) {
			char *end = strstr(p, "\n\n");

			if (end)
				*end = '\0';
			parse_stanza(p, v, n);
			if (!end)
				break;
			p = end + 2;
		}
		free(copy);
		return;
	}
	for (line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *tok[8], *ts = NULL, *t, *signed_by = NULL;
		int nt = 0;

		line = trim(line);
		if (strncmp(line, "deb ", 4) && strncmp(line, "deb\t", 4))
			continue;
		line += 4;
		line = trim(line);
		if (*line == '[') {
			char *close = strchr(line, ']');
			char *sb;

			if (!close)
				continue;
			*close = '\0';
			sb = strstr(line, "signed-by=");
			if (sb) {
				signed_by = sb + 10;
				signed_by[strcspn(signed_by, " \t")] = '\0';
			}
			line = close + 1;
		}
		for (t = strtok_r(line, " \t", &ts); t && nt < 8;
		     t = strtok_r(NULL, " \t", &ts))
			tok[nt++] = t;
		if (nt >= 2)
			add_source(v, n, tok[0], tok[1], signed_by);
	}
	free(copy);
}

void apt_sources_free(struct apt_source *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].uri);
		free(v[i].suite);
		free(v[i].signed_by);
	}
	free(v);
}

static void emit(struct sbuf *sb, const struct apt_source *src,
		 const char *suite)
{
	char *line;

	if (src->signed_by)
		line = xasprintf("deb [signed-by=%s] %s %s main\n",
				 src->signed_by, src->uri, suite);
	else
		line = xasprintf("deb %s %s main\n", src->uri, suite);
	/* The same archive may be named by several system entries. */
	if (!sb->buf || !strstr(sb->buf, line))
		sbuf_add(sb, line, strlen(line));
	free(line);
}

char *apt_private_sources(const struct apt_source *v, size_t n,
			  const char *const *suites)
{
	struct sbuf sb = { 0 };
	const char *const *s;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *dash = strchr(v[i].suite, '-');

		/* Third-party repositories (own keys) serve no Debian suites. */
		if (v[i].signed_by &&
		    !strstr(v[i].signed_by, "debian-archive-keyring"))
			continue;
		if (!dash && !strchr(v[i].suite, '/')) {
			for (s = suites; *s; s++)
				emit(&sb, &v[i], *s);
		} else if (dash && !strcmp(dash, "-security")) {
			emit(&sb, &v[i], v[i].suite);
		}
	}
	return sb.buf;
}

char *apt_madison_pick(const char *madison, const char *pkg, const char *suite)
{
	const char *line = madison;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char *l = xstrndup(line, len), *f[3], *save = NULL, *p;
		int nf = 0;

		for (p = strtok_r(l, "|", &save); p && nf < 3;
		     p = strtok_r(NULL, "|", &save))
			f[nf++] = trim(p);
		if (nf == 3 && !strcmp(f[0], pkg)) {
			char *want = suite ? xasprintf(" %s/", suite) : NULL;
			bool ok = !want || strstr(f[2], want);

			free(want);
			if (ok) {
				char *ver = xstrdup(f[1]);

				free(l);
				return ver;
			}
		}
		free(l);
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

char *apt_stanza_field(const char *stanza, const char *field)
{
	size_t flen = strlen(field);
	const char *line = stanza;

	while (line && *line && *line != '\n') {
		const char *end = strchr(line, '\n');

		if (!strncasecmp(line, field, flen) && line[flen] == ':') {
			const char *v = line + flen + 1;
			size_t len = end ? (size_t)(end - v) : strlen(v);
			char *copy = xstrndup(v, len), *t = xstrdup(trim(copy));

			free(copy);
			return t;
		}
		line = end ? end + 1 : NULL;
	}
	return NULL;
}

char *apt_depends_find(const char *depends, const char *prefix,
		       const char *suffix)
{
	size_t plen = strlen(prefix), slen = strlen(suffix);
	const char *p = depends;

	while (p && *p) {
		size_t len;

		while (*p == ' ' || *p == ',' || *p == '|')
			p++;
		len = strcspn(p, " ,|(");
		if (len > plen + slen && !strncmp(p, prefix, plen) &&
		    !strncmp(p + len - slen, suffix, slen))
			return xstrndup(p, len);
		p += len;
		p += strcspn(p, ",|");
	}
	return NULL;
}
