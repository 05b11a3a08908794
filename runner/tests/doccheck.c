// SPDX-License-Identifier: GPL-2.0
/*
 * doccheck [--root DIR] FILE.md...: fails when the documentation names a
 * file, make target, lsmconf subcommand or option, or test that does not
 * exist (the rules are in doccheck_rules.c). One line per problem, exit 1
 * when any; `make docs` runs it on README.md and the .md files of docs/.
 */
#define _GNU_SOURCE
#include "doccheck.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static bool exists_fs(const struct doc_facts *f, const char *rel)
{
	char *path = xasprintf("%s/%s", f->root, rel);
	struct stat st;
	bool ok = !stat(path, &st);

	free(path);
	return ok;
}

static char *slurp(const char *root, const char *rel)
{
	char *path = xasprintf("%s/%s", root, rel), *buf;
	int ret = read_file(path, &buf, NULL);

	if (ret)
		die("doccheck: cannot read %s: %s", path, strerror(-ret));
	free(path);
	return buf;
}

/* Names in @dir (relative to the root) ending in @suffix, without it. */
static void list_dir(const struct doc_facts *f, const char *dir,
		     const char *suffix, struct doc_list *l)
{
	char *path = xasprintf("%s/%s", f->root, dir);
	DIR *d = opendir(path);
	struct dirent *e;
	size_t n = strlen(suffix);

	if (!d)
		die("doccheck: cannot read %s: %s", path, strerror(errno));
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (e->d_name[0] == '.' &&
		    (!e->d_name[1] || !strcmp(e->d_name, "..")))
			continue;
		if (len > n && !strcmp(e->d_name + len - n, suffix)) {
			char *name = xstrndup(e->d_name, len - n);

			doc_list_add(l, name);
			free(name);
		}
	}
	closedir(d);
	free(path);
}

/* The tests of @dir: its X_test.c files. */
static void list_tests(struct doc_facts *f, const char *dir)
{
	struct doc_list c = { 0 };
	size_t i, n;

	list_dir(f, dir, ".c", &c);
	for (i = 0; i < c.n; i++) {
		n = strlen(c.v[i]);
		if (n > 5 && !strcmp(c.v[i] + n - 5, "_test"))
			doc_list_add(&f->tests, c.v[i]);
		free(c.v[i]);
	}
	free(c.v);
}

/*
 * The top-level entries that are repository paths: what the root holds,
 * but not .git nor what .gitignore anchors at the top ("/results/": run
 * outputs, not the repository's); the build directory is added back,
 * where paths are checked against the Makefile.
 */
static void top_entries(struct doc_facts *f)
{
	struct doc_list all = { 0 }, ignored = { 0 };
	char *gi = xasprintf("%s/.gitignore", f->root), *text = NULL;
	const char *p;
	size_t i;

	if (!read_file(gi, &text, NULL)) {
		p = text;
		while (*p) {
			const char *nl = strchrnul(p, '\n');

			if (*p == '/') {
				char *name =
					xstrndup(p + 1, strcspn(p + 1, "/\n"));

				doc_list_add(&ignored, name);
				free(name);
			}
			p = *nl ? nl + 1 : nl;
		}
	}
	list_dir(f, ".", "", &all);
	for (i = 0; i < all.n; i++)
		if (strcmp(all.v[i], ".git") &&
		    !doc_list_has(&ignored, all.v[i]))
			doc_list_add(&f->top, all.v[i]);
	if (f->out)
		doc_list_add(&f->top, f->out);
	for (i = 0; i < all.n; i++)
		free(all.v[i]);
	for (i = 0; i < ignored.n; i++)
		free(ignored.v[i]);
	free(all.v);
	free(ignored.v);
	free(text);
	free(gi);
}

/*
 * The files of @rel a row listing it must name (doccheck.h), when it is a
 * directory of the repository.
 */
static void row_files_fs(const struct doc_facts *f, const char *rel,
			 struct doc_list *out)
{
	struct doc_list c = { 0 }, h = { 0 };
	char *abs = xasprintf("%s/%s", f->root, rel);
	struct stat st;
	size_t i;

	if (!stat(abs, &st) && S_ISDIR(st.st_mode)) {
		list_dir(f, rel, ".c", &c);
		list_dir(f, rel, ".h", &h);
	}
	for (i = 0; i < c.n; i++) {
		char *name = xasprintf("%s.c", c.v[i]);

		doc_list_add(out, name);
		free(name);
	}
	for (i = 0; i < h.n; i++) {
		char *name = xasprintf("%s.h", h.v[i]);

		if (!doc_list_has(&c, h.v[i]))
			doc_list_add(out, name);
		free(name);
		free(h.v[i]);
	}
	for (i = 0; i < c.n; i++)
		free(c.v[i]);
	free(c.v);
	free(h.v);
	free(abs);
}

static void load_facts(struct doc_facts *f)
{
	struct doc_list cli = { 0 }, dirs = { 0 };
	char *text;
	size_t i;

	text = slurp(f->root, "Makefile");
	doc_facts_makefile(f, text);
	free(text);
	text = slurp(f->root, "runner/cli/main.c");
	doc_facts_cmds(f, text);
	free(text);
	list_dir(f, "runner/cli", ".c", &cli);
	for (i = 0; i < cli.n; i++) {
		char *rel = xasprintf("runner/cli/%s.c", cli.v[i]);

		text = slurp(f->root, rel);
		doc_facts_opts(f, text);
		free(text);
		free(rel);
		free(cli.v[i]);
	}
	free(cli.v);
	list_dir(f, "selftests", "", &dirs);
	for (i = 0; i < dirs.n; i++) {
		char *rel = xasprintf("selftests/%s", dirs.v[i]);
		struct stat st;
		char *abs = xasprintf("%s/%s", f->root, rel);

		if (!stat(abs, &st) && S_ISDIR(st.st_mode))
			list_tests(f, rel);
		free(abs);
		free(rel);
		free(dirs.v[i]);
	}
	free(dirs.v);
	list_tests(f, "runner/tests/fixtures/guest-tests");
	top_entries(f);
	/* Facts that came out empty would make every name look stale. */
	if (!f->targets.n || !f->cmds.n || !f->opts.n || !f->tests.n || !f->out)
		die("doccheck: found no make targets, subcommands, options or "
		    "tests under %s: are the parsing rules out of date?",
		    f->root);
}

int main(int argc, char **argv)
{
	struct doc_facts f = { .exists = exists_fs,
			       .root = LSMCONF_ROOT,
			       .row_files = row_files_fs };
	int i = 1, problems = 0;

	if (argc > 2 && !strcmp(argv[1], "--root")) {
		f.root = argv[2];
		i = 3;
	}
	if (i >= argc || argv[i][0] == '-')
		die("usage: doccheck [--root DIR] FILE.md... (paths relative "
		    "to the root)");
	load_facts(&f);
	for (; i < argc; i++) {
		char *text = slurp(f.root, argv[i]);

		problems += doc_check(&f, argv[i], text, stdout);
		free(text);
	}
	doc_facts_free(&f);
	return problems ? 1 : 0;
}
