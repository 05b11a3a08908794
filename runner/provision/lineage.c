// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "lineage.h"
#include "lib/lib.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *lineage_text(const struct lineage *l)
{
	struct sbuf sb = { 0 };
	size_t i;

	sbuf_printf(&sb, "base %s\n", l->base);
	for (i = 0; i < l->n; i++)
		sbuf_printf(&sb, "patch %s\n", l->hash[i]);
	return sb.buf;
}

static bool is_hex64(const char *s)
{
	size_t i;

	for (i = 0; i < 64; i++)
		if (!s[i] || !strchr("0123456789abcdef", s[i]))
			return false;
	return !s[64];
}

int lineage_parse(const char *text, struct lineage *l)
{
	const char *p = text;
	bool cut = false;
	char *line;

	memset(l, 0, sizeof(*l));
	while ((line = next_line(&p, &cut))) {
		if (!l->base && !strncmp(line, "base ", 5) && line[5]) {
			l->base = xstrdup(line + 5);
		} else if (l->base && !strncmp(line, "patch ", 6) &&
			   is_hex64(line + 6)) {
			l->hash = xrealloc(l->hash,
					   (l->n + 1) * sizeof(*l->hash));
			memcpy(l->hash[l->n++], line + 6, 65);
		} else {
			free(line);
			lineage_free(l);
			return -1;
		}
		free(line);
	}
	if (cut || !l->base) {
		lineage_free(l);
		return -1;
	}
	return 0;
}

void lineage_free(struct lineage *l)
{
	free(l->base);
	free(l->hash);
	memset(l, 0, sizeof(*l));
}

size_t lineage_distance(const struct lineage *from, const struct lineage *to,
			size_t *common)
{
	size_t c = 0;

	*common = 0;
	if (strcmp(from->base, to->base))
		return (size_t)-1;
	while (c < from->n && c < to->n && !strcmp(from->hash[c], to->hash[c]))
		c++;
	*common = c;
	return (from->n - c) + (to->n - c);
}

char *lineage_nearest(const char *builds, const struct lineage *want,
		      struct lineage *found)
{
	size_t best = want->n, best_reverts = 0, d, c, reverts;
	DIR *dir = opendir(builds);
	struct dirent *de;
	char *best_root = NULL;

	memset(found, 0, sizeof(*found));
	if (!dir)
		return NULL;
	while ((de = readdir(dir))) {
		char *root, *path, *text = NULL;
		struct lineage l;
		bool done;

		if (de->d_name[0] == '.')
			continue;
		root = xasprintf("%s/%s", builds, de->d_name);
		path = xasprintf("%s/.complete", root);
		done = path_exists(path);
		free(path);
		path = xasprintf("%s/lineage", root);
		if (!done || read_file(path, &text, NULL) ||
		    lineage_parse(text, &l)) {
			free(text);
			free(path);
			free(root);
			continue;
		}
		free(text);
		free(path);
		d = lineage_distance(&l, want, &c);
		reverts = l.n - c;
		/*
		 * Not itself (d 0); nearer, or as near with fewer reverts, or
		 * a full tie broken by name, so every host picks the same.
		 */
		if (d && d != (size_t)-1 &&
		    (d < best || (d == best && best_root &&
				  (reverts < best_reverts ||
				   (reverts == best_reverts &&
				    strcmp(root, best_root) < 0))))) {
			free(best_root);
			lineage_free(found);
			best_root = root;
			*found = l;
			best = d;
			best_reverts = reverts;
			continue;
		}
		lineage_free(&l);
		free(root);
	}
	closedir(dir);
	return best_root;
}
