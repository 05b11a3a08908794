/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rules of build/tests/doccheck: which names in the documentation
 * (README.md, the .md files of docs/) must exist in the repository. The facts come
 * from the repository's own files (the Makefile, runner/cli/, the tree),
 * so a name that goes stale in either place fails `make docs`.
 */
#ifndef LSMCONF_DOCCHECK_H
#define LSMCONF_DOCCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct doc_list {
	char **v;
	size_t n;
};

struct doc_facts {
	/* Does the repository path @rel (no leading '/') exist? */
	bool (*exists)(const struct doc_facts *f, const char *rel);
	const char *root;
	struct doc_list top; /* top-level entries that are repository paths */
	char *out; /* the Makefile's build directory ("build") */
	char *lsmconf; /* the Makefile's binary ("build/lsmconf") */
	struct doc_list targets; /* make targets; one '%' makes a pattern */
	struct doc_list
		outputs; /* build-directory paths Makefile variables name */
	struct doc_list cmds; /* lsmconf subcommands */
	struct doc_list opts; /* "--name" of every lsmconf option */
	struct doc_list tests; /* test names ("unix_peer_test") */
	/*
	 * The files of directory @rel ("runner/lib/") a row listing it must
	 * name into @out: each .c file, and each .h file without a .c of
	 * its stem ("util.c", "lib.h"); NULL: no row is checked.
	 */
	void (*row_files)(const struct doc_facts *f, const char *rel,
			  struct doc_list *out);
};

void doc_list_add(struct doc_list *l, const char *s);
bool doc_list_has(const struct doc_list *l, const char *s);
void doc_facts_free(struct doc_facts *f);

/* Targets of a Makefile's text, and the paths its variables name. */
void doc_facts_makefile(struct doc_facts *f, const char *text);
/* Subcommands dispatched by runner/cli/main.c's text. */
void doc_facts_cmds(struct doc_facts *f, const char *text);
/* Options parsed by a runner/cli/ file's text. */
void doc_facts_opts(struct doc_facts *f, const char *text);
/*
 * The length of the option name at @s (after its "--"): lowercase
 * letters, digits and '-', as the facts and the docs spell options.
 */
size_t doc_opt_name_len(const char *s);

/*
 * Checks the markdown @text of the file @name (a path relative to the
 * repository, for its links), printing one line per problem to @out
 * ("README.md:12: no such file: runner/x.c"). Returns the count.
 */
int doc_check(const struct doc_facts *f, const char *name, const char *text,
	      FILE *out);

#endif
