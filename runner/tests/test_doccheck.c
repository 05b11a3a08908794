// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "check_run.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doccheck.h"
#include "lib/lib.h"

/* The repository the tests pretend: these paths exist, nothing else. */
static const char *const files[] = {
	"Makefile",
	"README.md",
	"runner",
	"runner/",
	"runner/cli",
	"runner/cli/",
	"runner/cli/main.c",
	"runner/lib/",
	"selftests/x/",
	"runner/lib/util.c",
	"fixtures/patches/a.patch",
	"abi/SOURCES",
	"docs/guide.md",
	"build/leftover",
};

static bool exists_list(const struct doc_facts *f, const char *rel)
{
	size_t i;

	(void)f;
	for (i = 0; i < ARRAY_SIZE(files); i++)
		if (!strcmp(files[i], rel))
			return true;
	return false;
}

static const char makefile[] =
	"# make check   (a comment: no target)\n"
	"OUT := build\n"
	"LSMCONF := $(OUT)/lsmconf\n"
	"TREE := $(OUT)/tree\n"
	"INSTALL := $(CURDIR)/$(OUT)/kselftest\n"
	"OBJS := $(wildcard runner/*.c)\n"
	"CFLAGS ?= -O2\n"
	"LIST := a \\\n"
	"\tb\n"
	".PHONY: all check \\\n"
	"\tdocs\n"
	"all: $(LSMCONF)\n"
	"$(LSMCONF): $(OBJS)\n"
	"\t$(CC) -o $@ $^   # a recipe: no target\n"
	"$(OUT)/tests/%: runner/tests/%.c | $(OUT)/.deps\n"
	"$(OUT)/obj/%.o: runner/%.c\n"
	"check: all\n"
	"variants:\n"
	"ifeq ($(X),y)\n"
	"endif\n";

static const char main_c[] =
	"\tif (argc < 2 || !strcmp(argv[1], \"--help\") || "
	"!strcmp(argv[1], \"-h\")) {\n"
	"\tif (!strcmp(argv[1], \"run\"))\n"
	"\tif (!strcmp(argv[1], \"table\"))\n";

static const char options_c[] =
	"/* \"--commented\" is no option */\n"
	"// nor \"--this\"\n"
	"static const struct option opts[] = {\n"
	"\t{ \"test\", required_argument, NULL, 't' },\n"
	"\t{ \"refresh\", no_argument, NULL, 'R' },\n"
	"\t{ \"not an option\", 0 },\n"
	"};\n"
	"\tif (c == '\"') die(\"--memory: not a number\");\n"
	"\tif (!strcmp(opt, \"--out\") || !strncmp(opt, \"--lsm=\", 6))\n";

/*
 * runner/lib/ holds util.c, spawn.c, units.c (each with its header) and
 * lib.h; selftests/x/ features_test.c and tool.c; no other directory any.
 */
static void row_files_list(const struct doc_facts *f, const char *rel,
			   struct doc_list *out)
{
	(void)f;
	if (!strcmp(rel, "selftests/x/")) {
		doc_list_add(out, "features_test.c");
		doc_list_add(out, "tool.c");
	}
	if (strcmp(rel, "runner/lib/"))
		return;
	doc_list_add(out, "util.c");
	doc_list_add(out, "spawn.c");
	doc_list_add(out, "units.c");
	doc_list_add(out, "lib.h");
}

static void facts(struct doc_facts *f)
{
	*f = (struct doc_facts){ .exists = exists_list,
				 .row_files = row_files_list };
	doc_facts_makefile(f, makefile);
	doc_facts_cmds(f, main_c);
	doc_facts_opts(f, main_c);
	doc_facts_opts(f, options_c);
	doc_list_add(&f->tests, "features_test");
	doc_list_add(&f->tests, "crash_test");
	doc_list_add(&f->top, "runner");
	doc_list_add(&f->top, "fixtures");
	doc_list_add(&f->top, "abi");
	doc_list_add(&f->top, "docs");
	doc_list_add(&f->top, "build");
}

/* What doc_check() prints for @md as the file @name. */
static char *check_as(const char *name, const char *md, int *n)
{
	struct doc_facts f;
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(out);
	facts(&f);
	*n = doc_check(&f, name, md, out);
	fclose(out);
	doc_facts_free(&f);
	return buf;
}

static char *check(const char *md, int *n)
{
	return check_as("README.md", md, n);
}

#define ck_check(md, want)                           \
	do {                                         \
		int n_;                              \
		char *got_ = check(md, &n_);         \
		const char *w_ = (want);             \
		int lines_ = 0;                      \
		for (const char *c_ = w_; *c_; c_++) \
			lines_ += *c_ == '\n';       \
		ck_assert_str_eq(got_, w_);          \
		ck_assert_int_eq(n_, lines_);        \
		free(got_);                          \
	} while (0)

START_TEST(test_makefile_facts)
{
	struct doc_facts f;

	facts(&f);
	ck_assert_str_eq(f.out, "build");
	ck_assert_str_eq(f.lsmconf, "build/lsmconf");
	/* Rules with their variables expanded; .PHONY's list too. */
	ck_assert(doc_list_has(&f.targets, "all"));
	ck_assert(doc_list_has(&f.targets, "check"));
	ck_assert(doc_list_has(&f.targets, "docs"));
	ck_assert(doc_list_has(&f.targets, "variants"));
	ck_assert(doc_list_has(&f.targets, "build/lsmconf"));
	ck_assert(doc_list_has(&f.targets, "build/tests/%"));
	ck_assert(doc_list_has(&f.targets, "build/obj/%.o"));
	ck_assert(!doc_list_has(&f.targets, ".PHONY"));
	/* Assignments, recipes, comments and conditionals are no rules. */
	ck_assert(!doc_list_has(&f.targets, "OUT"));
	ck_assert(!doc_list_has(&f.targets, "CFLAGS"));
	ck_assert(!doc_list_has(&f.targets, "$(CC) -o $@ $^"));
	ck_assert(!doc_list_has(&f.targets, "make check"));
	ck_assert(!doc_list_has(&f.targets, "ifeq"));
	ck_assert_uint_eq(f.targets.n, 7);
	/* Paths in the build directory that variables name. */
	ck_assert(doc_list_has(&f.outputs, "build/tree"));
	ck_assert(doc_list_has(&f.outputs, "build/lsmconf"));
	ck_assert(doc_list_has(&f.outputs, "build/kselftest"));
	doc_facts_free(&f);
}
END_TEST

START_TEST(test_cli_facts)
{
	struct doc_facts f;

	facts(&f);
	ck_assert_uint_eq(f.cmds.n, 2);
	ck_assert(doc_list_has(&f.cmds, "run"));
	ck_assert(doc_list_has(&f.cmds, "table"));
	ck_assert(doc_list_has(&f.opts, "--help"));
	ck_assert(doc_list_has(&f.opts, "--test"));
	ck_assert(doc_list_has(&f.opts, "--refresh"));
	ck_assert(doc_list_has(&f.opts, "--out"));
	ck_assert(doc_list_has(&f.opts, "--lsm"));
	/* A message that starts with an option, comments: not options. */
	ck_assert(!doc_list_has(&f.opts, "--memory"));
	ck_assert(!doc_list_has(&f.opts, "--commented"));
	ck_assert(!doc_list_has(&f.opts, "--this"));
	ck_assert_uint_eq(f.opts.n, 5);
	doc_facts_free(&f);
}
END_TEST

START_TEST(test_paths)
{
	ck_check("`runner/cli/main.c` and `runner/` and `abi/SOURCES`\n", "");
	ck_check("see `runner/cli/mian.c`\n",
		 "README.md:1: no such file: runner/cli/mian.c\n");
	ck_check("`./runner/nope.c`\n",
		 "README.md:1: no such file: runner/nope.c\n");
	/* Outside the repository. */
	ck_check("`/etc/x/y` `~/linux/x` `$CACHE/x/y` `../x/y` `http://a/b`\n",
		 "");
	/* Not a top-level entry: a record id, a guest path. */
	ck_check("`lifecycle/5.0/dgram` and `guest/tests/x`\n", "");
	/* Placeholders stand for many names. */
	ck_check("`runner/cli/<cmd>.c` `runner/tests/test_*.c` `abi/NAME` "
		 "`fixtures/mutants/NN-name.patch` `runner/{a,b}.c` "
		 "`runner/x/...` `abi/X`\n",
		 "");
	/* Words are split at = : + , so the path inside a spec is found. */
	ck_check("`build:debian-source:7.2+fixtures/patches/a.patch`\n", "");
	ck_check("`B=build:debian-source:7.2+fixtures/patches/b.patch`\n",
		 "README.md:1: no such file: fixtures/patches/b.patch\n");
}
END_TEST

START_TEST(test_build_products)
{
	/* Targets, pattern targets, their folders, variables' paths. */
	ck_check("`build/lsmconf` `build/tests/test_abi` "
		 "`build/tests/` `build/obj/lib/util.o` `build/tree/tools/x` "
		 "`build/kselftest/apparmor`\n",
		 "");
	/* What a local build left is no proof. */
	ck_check("`build/lsmconf2` `build/obj/x.c` `build/leftover`\n",
		 "README.md:1: no such file: build/lsmconf2\n"
		 "README.md:1: no such file: build/obj/x.c\n"
		 "README.md:1: no such file: build/leftover\n");
}
END_TEST

START_TEST(test_make)
{
	ck_check("`make check` `make` `make docs all` `LSM=x make check`\n",
		 "");
	ck_check("`make chek`\n", "README.md:1: no such make target: chek\n");
	/* Variables, options, quoted values: not targets. */
	ck_check("`make -s check A=\"x y\" B=z`\n", "");
	/* A pattern target; another Makefile; a placeholder. */
	ck_check("`make build/tests/test_abi` `make -C tree x` `make TARGET`\n",
		 "");
	/* The kernel's Makefile, for kernels built from source. */
	ck_check("`make tinyconfig`\n", "");
	ck_check("`make check && make nope; make all`\n",
		 "README.md:1: no such make target: nope\n");
}
END_TEST

START_TEST(test_lsmconf)
{
	ck_check("`lsmconf run --test x --refresh` `build/lsmconf table` "
		 "`lsmconf --help` `lsmconf` `lsmconf SUBCOMMAND`\n",
		 "");
	ck_check("`lsmconf frob`\n",
		 "README.md:1: no such lsmconf subcommand: frob\n");
	ck_check("`build/lsmconf run --tset x --lsm=apparmor`\n",
		 "README.md:1: no such lsmconf option: --tset\n");
	/* A span that starts with an option names lsmconf's. */
	ck_check("`--lsm apparmor` `--bogus N`\n",
		 "README.md:1: no such lsmconf option: --bogus\n");
	/* Other programs' options, the "lsmconf: " prefix of messages. */
	ck_check("`clang-format --dry-run` `lsmconf: run NAME`\n", "");
}
END_TEST

START_TEST(test_tests)
{
	ck_check("`features_test` `crash_test.c` `deps_test.sh` `X_test`\n",
		 "");
	ck_check("the `nope_test` binary\n",
		 "README.md:1: no such test: nope_test\n");
	ck_check("`selinux/nope_test`\n",
		 "README.md:1: no such test: nope_test\n");
}
END_TEST

START_TEST(test_spans)
{
	/* A span may run over lines; it is reported at its first. */
	ck_check("a\n\nword `--test\nnope_test` here\n",
		 "README.md:3: no such test: nope_test\n");
	/* Double backticks; a lone backtick is literal. */
	ck_check("``nope_test`` and ` a lone one\n",
		 "README.md:1: no such test: nope_test\n");
	/* A span ends with its paragraph. */
	ck_check("` open\n\nnope_test `\n", "");
	/* A table's \| is a '|' in the span. */
	ck_check("| `runner/\\|runner/nope.c` |\n",
		 "README.md:1: no such file: runner/nope.c\n");
	/* Escaped backticks open no span. */
	ck_check("\\`nope_test\\`\n", "");
}
END_TEST

START_TEST(test_blocks)
{
	/* sh lines are checked, comments for paths only; output blocks not. */
	ck_check("x\n"
		 "```sh\n"
		 "$ make check   # runner/nope.c, make nope\n"
		 "build/lsmconf run --test nope_test \\\n"
		 "    --bogus debian:sid\n"
		 "make K=\"a b\" docs\n"
		 "```\n"
		 "\n"
		 "```\n"
		 "make nope; lsmconf frob; runner/nope.c\n"
		 "```\n"
		 "~~~bash\n"
		 "make nope2\n"
		 "~~~\n",
		 "README.md:3: no such file: runner/nope.c\n"
		 "README.md:4: no such test: nope_test\n"
		 "README.md:4: no such lsmconf option: --bogus\n"
		 "README.md:13: no such make target: nope2\n");
	/* Backticks inside a block are no spans. */
	ck_check("```\n`make nope`\n```\n", "");
}
END_TEST

START_TEST(test_links)
{
	int n;
	char *got;

	ck_check("[a](runner/cli/main.c) [b](#anchor) [c](https://x/y) "
		 "[`d`](Makefile)\n",
		 "");
	ck_check("[a](runner/nope.c)\n",
		 "README.md:1: no such file: runner/nope.c\n");
	/* Relative to the linking file. */
	got = check_as("docs/x.md",
		       "[a](../runner/cli/main.c) [b](guide.md) [c](main.c)\n",
		       &n);
	ck_assert_str_eq(got, "docs/x.md:1: no such file: main.c\n");
	ck_assert_int_eq(n, 1);
	free(got);
}
END_TEST

START_TEST(test_layout_rows)
{
	/* Every file named, a .c as x.c, a header as x.h: clean. */
	ck_check("| `runner/lib/` | lib | `util.c`, `spawn.c`, `units.c`, "
		 "`lib.h` |\n",
		 "");
	/* A list that leaves one out names it, once. */
	ck_check("| `runner/lib/` | lib | `util.c`, `units.c`, `lib.h` |\n",
		 "README.md:1: a row of its directory leaves out: "
		 "runner/lib/spawn.c\n");
	/* In runner/, a bare `spawn` (a command's name, say) is no file. */
	ck_check("| `runner/lib/` | `util.c`, `spawn`, `units.c`, `lib.h` |\n",
		 "README.md:1: a row of its directory leaves out: "
		 "runner/lib/spawn.c\n");
	/* Outside runner/, a program by its name. */
	ck_check("| `selftests/x/` | `features_test`, `tool` |\n", "");
	/* A header is named by its file name only. */
	ck_check("| `runner/lib/` | `util.c`, `spawn.c`, `units.c`, `lib` |\n",
		 "README.md:1: a row of its directory leaves out: "
		 "runner/lib/lib.h\n");
	/* A summary row names none: no list to check. */
	ck_check("| `runner/lib/` | the small library |\n", "");
	/* A substring is no name: `spawn_x.c` does not name spawn.c. */
	ck_check("| `runner/lib/` | `util.c`, `units.c`, `spawn_x.c`, "
		 "`lib.h` |\n",
		 "README.md:1: a row of its directory leaves out: "
		 "runner/lib/spawn.c\n");
	/* Only a directory in the first cell starts a list. */
	ck_check("| lib | `runner/lib/` `util.c` |\n", "");
	ck_check("| `runner/lib/util.c` | `units.c` |\n", "");
}
END_TEST

int main(void)
{
	return CHECK_RUN("doccheck", test_makefile_facts, test_cli_facts,
			 test_paths, test_build_products, test_make,
			 test_lsmconf, test_tests, test_spans, test_blocks,
			 test_links, test_layout_rows);
}
