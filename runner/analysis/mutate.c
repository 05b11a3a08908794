// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "mutate.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int mutant_header(const char *text, char **desc, char **equivalent)
{
	const char *line = text, *diff = strstr(text, "\n--- ");
	size_t n = strcspn(text, "\n");

	*desc = NULL;
	*equivalent = NULL;
	if (!n || !diff || !strncmp(text, "--- ", 4))
		return -1;
	*desc = xstrndup(text, n);
	for (; line && line < diff; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, "Equivalent: ", 12)) {
			*equivalent =
				xstrndup(line + 12, strcspn(line + 12, "\n"));
			break;
		}
	}
	return 0;
}

const char *mutant_lsm(const char *patch)
{
	static const char *const lsms[] = { "apparmor", "selinux" };
	const char *found = NULL, *line;
	size_t i;

	for (line = strstr(patch, "\n+++ "); line;
	     line = strstr(line + 1, "\n+++ ")) {
		const char *path = line + 5, *here = NULL;

		/* "+++ b/security/selinux/hooks.c": skip the "b/" prefix. */
		path += strcspn(path, "/\n") + 1;
		for (i = 0; i < ARRAY_SIZE(lsms); i++) {
			size_t n = strlen(lsms[i]);

			if (!strncmp(path, "security/", 9) &&
			    !strncmp(path + 9, lsms[i], n) &&
			    path[9 + n] == '/')
				here = lsms[i];
		}
		if (!here || (found && found != here))
			return NULL;
		found = here;
	}
	return found;
}

bool lsm_listed(const char *lsms, const char *lsm)
{
	size_t n = strlen(lsm);
	const char *p = lsms;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, lsm, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

static int cmp_mutant(const void *a, const void *b)
{
	return strcmp(((const struct mutant *)a)->name,
		      ((const struct mutant *)b)->name);
}

static bool wanted(const char *name, char *const *only, size_t n_only)
{
	size_t i;

	if (!n_only)
		return true;
	for (i = 0; i < n_only; i++)
		if (!strcmp(only[i], name))
			return true;
	return false;
}

int mutants_list(const char *dir, char *const *only, size_t n_only,
		 struct mutant **out, size_t *n, struct err *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t i, j;

	*out = NULL;
	*n = 0;
	if (!d)
		return err_set(e, "cannot read the mutants directory %s: %s",
			       dir, strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct mutant m = { 0 };
		char *text = NULL;

		if (len <= 6 || strcmp(de->d_name + len - 6, ".patch"))
			continue;
		m.name = xstrndup(de->d_name, len - 6);
		if (!wanted(m.name, only, n_only)) {
			free(m.name);
			continue;
		}
		m.path = xasprintf("%s/%s", dir, de->d_name);
		if (read_file(m.path, &text, NULL) ||
		    mutant_header(text, &m.desc, &m.equivalent)) {
			if (!text)
				err_set(e, "cannot read %s", m.path);
			else
				err_set(e,
					"%s: no one-line description before the diff",
					m.path);
			free(text);
			free(m.name);
			free(m.path);
			closedir(d);
			goto fail;
		}
		m.lsm = mutant_lsm(text);
		free(text);
		*out = xrealloc(*out, (*n + 1) * sizeof(m));
		(*out)[(*n)++] = m;
	}
	closedir(d);
	qsort(*out, *n, sizeof(**out), cmp_mutant);
	for (i = 0; i < n_only; i++) {
		for (j = 0; j < *n && strcmp((*out)[j].name, only[i]); j++)
			;
		if (j == *n) {
			err_set(e, "no mutant %s in %s", only[i], dir);
			goto fail;
		}
	}
	if (!*n)
		return err_set(e, "no mutants (*.patch) in %s", dir);
	return 0;
fail:
	mutants_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

void mutant_clear(struct mutant *m)
{
	free(m->name);
	free(m->path);
	free(m->desc);
	free(m->equivalent);
	memset(m, 0, sizeof(*m));
}

void mutants_free(struct mutant *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mutant_clear(&m[i]);
	free(m);
}

enum mutant_verdict mutant_judge(bool built, bool run_ok, size_t unexplained)
{
	if (!built)
		return MUTANT_STILLBORN;
	return !run_ok || unexplained ? MUTANT_KILLED : MUTANT_SURVIVED;
}

const char *mutant_verdict_name(enum mutant_verdict v)
{
	static const char *const names[] = { "killed", "survived",
					     "stillborn" };

	return names[v];
}
