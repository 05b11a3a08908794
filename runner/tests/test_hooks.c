// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/analysis/hooks.c: an LSM's LSM_HOOK_INIT list
 * read from its source, and the source of the 7.2 tree's AppArmor and
 * SELinux when the kernel source is at hand.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "check_run.h"

static const char src[] =
	"/* LSM_HOOK_INIT(in_comment, no) */\n"
	"#define LSM_HOOK_INIT(NAME, HOOK) { .hook = HOOK }\n"
	"static const char *s = \"LSM_HOOK_INIT(in_string, no)\";\n"
	"static struct security_hook_list x_hooks[] = {\n"
	"\tLSM_HOOK_INIT(ptrace_access_check, x_ptrace_access_check),\n"
	"#ifdef CONFIG_SECURITY_NETWORK\n"
	"\tLSM_HOOK_INIT( socket_sendmsg ,\n"
	"\t\t      x_socket_sendmsg ),\n"
	"#endif\n"
	"\t// LSM_HOOK_INIT(line_comment, no),\n"
	"\tMY_LSM_HOOK_INIT(other_macro, no),\n"
	"\tchar q = '\"'; LSM_HOOK_INIT(after_char, f_after_char),\n"
	"\tLSM_HOOK_INIT(broken,),\n"
	"\tLSM_HOOK_INIT(also broken, f),\n"
	"};\n";

START_TEST(test_parse)
{
	struct lsm_hook *h;
	size_t n;

	ck_assert_uint_eq(lsm_hooks_parse(src, &h, &n), 2);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(h[0].hook, "ptrace_access_check");
	ck_assert_str_eq(h[0].function, "x_ptrace_access_check");
	ck_assert_uint_eq(h[0].line, 5);
	/* Spaces and a line break inside the call. */
	ck_assert_str_eq(h[1].hook, "socket_sendmsg");
	ck_assert_str_eq(h[1].function, "x_socket_sendmsg");
	ck_assert_uint_eq(h[1].line, 7);
	/* A double quote in a character constant opens no string. */
	ck_assert_str_eq(h[2].hook, "after_char");
	lsm_hooks_free(h, n);
	ck_assert_uint_eq(lsm_hooks_parse("", &h, &n), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_ptr_null(h);
}
END_TEST

/* The kernel's own lists, when make has fetched its source (build/ksrc). */
START_TEST(test_kernel_lists)
{
	static const struct {
		const char *file, *hook, *function;
		size_t at_least;
	} lsm[] = {
		{ "security/apparmor/lsm.c", "unix_may_send",
		  "apparmor_unix_may_send", 60 },
		{ "security/selinux/hooks.c", "socket_sendmsg",
		  "selinux_socket_sendmsg", 200 },
	};
	char *ksrc = NULL, *path, *text;
	size_t len, i, j, n;
	struct lsm_hook *h;

	if (read_file(LSMCONF_ROOT "/build/ksrc", &ksrc, &len))
		return; /* the unit tests run before make fetched a tree */
	while (len && ksrc[len - 1] == '\n')
		ksrc[--len] = '\0';
	for (i = 0; i < sizeof(lsm) / sizeof(lsm[0]); i++) {
		bool found = false;

		path = xasprintf("%s/%s", ksrc, lsm[i].file);
		ck_assert_int_eq(read_file(path, &text, &len), 0);
		ck_assert_uint_eq(lsm_hooks_parse(text, &h, &n), 0);
		ck_assert_uint_ge(n, lsm[i].at_least);
		for (j = 0; j < n; j++)
			found |= !strcmp(h[j].hook, lsm[i].hook) &&
				 !strcmp(h[j].function, lsm[i].function);
		ck_assert_msg(found, "%s: no %s", path, lsm[i].hook);
		lsm_hooks_free(h, n);
		free(text);
		free(path);
	}
	free(ksrc);
}
END_TEST

int main(void)
{
	return CHECK_RUN("hooks", test_parse, test_kernel_lists);
}
