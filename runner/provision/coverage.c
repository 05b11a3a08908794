// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "coverage.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * What is profiled: each LSM's directory whole, the LSM framework
 * (security.c: every security_*() hook's caller; lsm_syscalls.c) and
 * AF_UNIX, whose af_unix.c calls the socket hooks the suites drive most.
 * A Makefile absent from a tree (an older kernel without Landlock) is
 * left out.
 */
static const struct {
	const char *makefile;
	const char *lines;
} profiled[] = {
	{ "security/apparmor/Makefile", "GCOV_PROFILE := y\n" },
	{ "security/selinux/Makefile", "GCOV_PROFILE := y\n" },
	{ "security/landlock/Makefile", "GCOV_PROFILE := y\n" },
	{ "security/Makefile",
	  "GCOV_PROFILE_security.o := y\nGCOV_PROFILE_lsm_syscalls.o := y\n" },
	{ "net/unix/Makefile", "GCOV_PROFILE_af_unix.o := y\n" },
};

#define EDIT_MARK \
	"# lsmconf coverage: gcov counters (lsmconf build ,coverage)\n"

char *coverage_key_text(void)
{
	struct sbuf sb = { 0 };
	char *frag = NULL;
	size_t i, len;

	sbuf_printf(&sb, "coverage\n");
	if (!read_file(COVERAGE_FRAGMENT, &frag, &len))
		sbuf_add(&sb, frag, len);
	free(frag);
	for (i = 0; i < ARRAY_SIZE(profiled); i++)
		sbuf_printf(&sb, "%s: %s", profiled[i].makefile,
			    profiled[i].lines);
	return sb.buf;
}

int coverage_profile_tree(const char *tree, struct err *e)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(profiled); i++) {
		char *path = xasprintf("%s/%s", tree, profiled[i].makefile);
		char *text = NULL, *edited;
		size_t len;
		int rc = read_file(path, &text, &len);

		if (rc == -ENOENT) {
			free(path);
			continue;
		}
		if (rc) {
			rc = err_set(e, "cannot read %s: %s", path,
				     strerror(-rc));
			e->host = true;
			free(path);
			return rc;
		}
		/* A neighbour's tree, already edited. */
		if (strstr(text, EDIT_MARK)) {
			free(text);
			free(path);
			continue;
		}
		edited = xasprintf("%.*s%s\n" EDIT_MARK "%s", (int)len, text,
				   len && text[len - 1] != '\n' ? "\n" : "",
				   profiled[i].lines);
		/*
		 * A hard link to the pristine file: write_file() renames a
		 * new file over it, never writes it in place.
		 */
		rc = write_file(path, edited, strlen(edited));
		if (rc) {
			rc = err_set(e, "cannot write %s: %s", path,
				     strerror(-rc));
			e->host = true;
		}
		free(edited);
		free(text);
		free(path);
		if (rc)
			return rc;
	}
	return 0;
}
