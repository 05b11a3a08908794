// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for provision/series.c: a directory of patches as
 * `lsmconf series` reads it (no git: an mbox is split by git, not here).
 * Each part of the input (fuzz_part()) is one file: its first line the
 * file's name (made safe), the rest its text; the first byte of the input
 * asks for --allow-gaps. A refusal is one line; a series read has a
 * subject and a written file for every patch, numbered 1..N. The subject
 * and numbering helpers get the whole input too.
 */
#include "fuzz.h"
#include "provision/series.h"

#include <stdlib.h>
#include <unistd.h>

static char *base;

static void cleanup(void)
{
	remove_tree(base);
}

/* Part @p (@len bytes) as a file of @dir: "NAME\nTEXT". */
static void put(const char *dir, const char *p, size_t len)
{
	const char *nl = memchr(p, '\n', len);
	size_t line = nl ? (size_t)(nl - p) : len, n = MIN(line, 40), i;
	char name[48], *path;

	for (i = 0; i < n; i++)
		name[i] = strchr("abcdefghijklmnopqrstuvwxyz0123456789-_.",
				 p[i]) && p[i] ?
				  p[i] :
				  '_';
	name[n] = '\0';
	if (!n || name[0] == '.')
		return;
	path = xasprintf("%s/%s", dir, name);
	if (nl)
		write_file(path, nl + 1, len - line - 1);
	else
		write_file(path, "", 0);
	free(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size), *dir, *out, *subj, *slug;
	unsigned int i, total;
	struct series s;
	struct err e;
	size_t k, len;
	const char *p;

	if (!base) {
		base = fuzz_tmpdir("series");
		atexit(cleanup);
	}
	subj = series_header_subject(text);
	if (subj) {
		free(series_strip_subject(subj));
		(void)series_numbering(subj, &i, &total);
		slug = series_slug(subj);
		if (!*slug || strspn(slug, "abcdefghijklmnopqrstuvwxyz"
					   "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					   "0123456789_.-") != strlen(slug))
			__builtin_trap();
		free(slug);
		free(subj);
	}
	(void)series_has_diff(text);
	free(text);

	remove_tree(base);
	dir = xasprintf("%s/in", base);
	out = xasprintf("%s/out", base);
	mkdir_p(dir);
	for (k = 0; (p = fuzz_part(data + !!size, size - !!size, k, &len)); k++)
		put(dir, p, len);
	if (series_load(dir, NULL, out, size && (data[0] & 1), &s, &e)) {
		fuzz_one_line(e.msg);
	} else {
		if (!s.n)
			__builtin_trap();
		for (k = 0; k < s.n; k++) {
			char *want = xasprintf("%s/%04zu-", out, k + 1);

			if (!s.p[k].subject ||
			    strncmp(s.p[k].path, want, strlen(want)) ||
			    access(s.p[k].path, R_OK))
				__builtin_trap();
			free(want);
		}
		series_free(&s);
	}
	free(dir);
	free(out);
	return 0;
}
