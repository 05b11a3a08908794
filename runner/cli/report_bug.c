// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf report-bug NAME [--known-bugs FILE] [--ksrc DIR] [--out FILE]`:
 * the known kernel bug NAME as a mail for the kernel's lists
 * (results/bugreport.h), with its reproducer
 * (fixtures/reproducers/NAME.c and .profile) and its candidate fix
 * (fixtures/fixes/NAME.patch) inline, addressed by the kernel tree's own
 * scripts/get_maintainer.pl (the tree of `lsmconf ksrc`, or --ksrc).
 */
#define _GNU_SOURCE
#include "cli.h"
#include "results/results.h"
#include "provision/provision.h"
#include "lib/lib.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAINTAINER_TIMEOUT_S 120

static const char usage_line[] =
	"lsmconf report-bug NAME [--known-bugs FILE] [--ksrc DIR] [--out FILE]";

/* fixtures/SUB/NAME.EXT, or NULL when there is none. */
static char *fixture(const char *sub, const char *name, const char *ext)
{
	char *path =
		xasprintf("%s/fixtures/%s/%s.%s", LSMCONF_ROOT, sub, name, ext);
	char *text = NULL;
	struct err e;
	int ret =
		read_input(path, INPUT_MAX_SMALL, INPUT_TEXT, &text, NULL, &e);

	free(path);
	if (ret == -ENOENT)
		return NULL;
	if (ret)
		die("report-bug: %s", e.msg);
	return text;
}

/* get_maintainer.pl of @tree on @patch (or on file @file): its output. */
static char *maintainers(const char *tree, const char *patch, const char *file)
{
	char *script = xasprintf("%s/scripts/get_maintainer.pl", tree);
	char *argv[] = { "perl",
			 script,
			 "--no-rolestats",
			 "--no-git",
			 "--no-git-fallback",
			 patch ? (char *)patch : "-f",
			 patch ? NULL : (char *)file,
			 NULL };
	struct spawn_opts o = { .cwd = tree,
				.stdin_fd = -1,
				.stderr_fd = -1,
				.timeout_s = MAINTAINER_TIMEOUT_S };
	char *out = NULL, *err = NULL, buf[64];
	char *list = xasprintf("%s/MAINTAINERS", tree);
	size_t len;
	int st;

	if (access(script, R_OK) || access(list, R_OK))
		die("report-bug: %s has no scripts/get_maintainer.pl and MAINTAINERS (give --ksrc: a kernel tree)",
		    tree);
	st = spawn_capture(argv, &o, &out, &len, &err);
	if (st || !out || !strchr(out, '@'))
		die("report-bug: get_maintainer.pl in %s: %s: %.*s", tree,
		    st ? spawn_strstatus(st, buf, sizeof(buf)) : "no address",
		    err ? (int)strcspn(err, "\n") : 0, err ? err : "");
	free(err);
	free(list);
	free(script);
	return out;
}

int cmd_report_bug(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "known-bugs", required_argument, NULL, 'K' },
		{ "ksrc", required_argument, NULL, 'k' },
		{ "out", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	const char *known_path = LSMCONF_ROOT "/fixtures/known-kernel-bugs";
	const char *ksrc = getenv("KSRC"), *out = NULL;
	const struct known_bug *b = NULL;
	struct bug_files f = { 0 };
	struct known_list l;
	char *text, *tree, *patch_path = NULL, *file = NULL, *report;
	struct err e;
	size_t len, i;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":", opts, NULL)) != -1) {
		switch (c) {
		case 'K':
			known_path = optarg;
			break;
		case 'k':
			ksrc = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case ':':
			die("report-bug: %s needs a value", argv[optind - 1]);
		default:
			die("report-bug: unknown option %s (%s)",
			    argv[optind - 1], usage_line);
		}
	}
	if (argc - optind != 1)
		die("report-bug: one bug NAME wanted (%s)", usage_line);
	if (read_input(known_path, INPUT_MAX_LIST, INPUT_TEXT, &text, &len, &e))
		die("report-bug: --known-bugs: %s", e.msg);
	if (known_parse(text, len, &l, &e))
		die("report-bug: %s: %s", known_path, e.msg);
	free(text);
	for (i = 0; i < l.n && !b; i++)
		if (!strcmp(l.v[i].name, argv[optind]))
			b = &l.v[i];
	if (!b)
		die("report-bug: no bug %s in %s", argv[optind], known_path);
	f.repro_c = fixture("reproducers", b->name, "c");
	f.repro_profile = fixture("reproducers", b->name, "profile");
	f.fix = fixture("fixes", b->name, "patch");
	if (f.fix)
		patch_path = xasprintf("%s/fixtures/fixes/%s.patch",
				       LSMCONF_ROOT, b->name);
	else if (!(file = bug_source_file(b)))
		die("report-bug: %s has no fix and its function: names no file: nothing to ask get_maintainer.pl about",
		    b->name);
	tree = ksrc_dir(ksrc, &e);
	if (!tree)
		die("report-bug: %s", e.msg);
	f.maintainers = maintainers(tree, patch_path, file);
	report = bug_report(b, &f);
	if (out) {
		if (write_file(out, report, strlen(report)))
			die("report-bug: cannot write %s: %s", out,
			    strerror(errno));
		printf("lsmconf: report-bug: %s -> %s\n", b->name, out);
	} else {
		fputs(report, stdout);
	}
	free(report);
	free((char *)f.repro_c);
	free((char *)f.repro_profile);
	free((char *)f.fix);
	free((char *)f.maintainers);
	free(patch_path);
	free(file);
	free(tree);
	known_free(&l);
	return 0;
}
