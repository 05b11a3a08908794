// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/analysis/hookreasons.c: the list of why hooks
 * have no allow and deny recorded, each hook's status in the coverage
 * report's table, and the project's own list (fixtures/hook-reasons.tsv)
 * against the 7.2 tree's hook lists when the kernel source is at hand.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "check_run.h"
#include "tree_hooks.h"

static const char list[] =
	"# lsm\thook\tkind\treason\n"
	"\n"
	"*\t*_free_security\tno-decision\tfrees the LSM's blob\n"
	"selinux\tib_*\tcannot-drive\tno InfiniBand device in a guest\n"
	"selinux\tib_pkey_access\tno-decision\tnever reached: the glob first\n";

static struct hookreasons parsed(const char *text)
{
	struct hookreasons t;
	char err[128];

	ck_assert_int_eq(
		hookreasons_parse(text, strlen(text), &t, err, sizeof(err)), 0);
	return t;
}

START_TEST(test_parse)
{
	struct hookreasons t = parsed(list);

	ck_assert_uint_eq(t.n, 3);
	ck_assert_str_eq(t.v[0].lsm, "*");
	ck_assert_str_eq(t.v[0].hook, "*_free_security");
	ck_assert_int_eq(t.v[0].kind, HOOKREASON_NO_DECISION);
	ck_assert_str_eq(t.v[0].why, "frees the LSM's blob");
	ck_assert_uint_eq(t.v[0].line, 3);
	ck_assert_int_eq(t.v[1].kind, HOOKREASON_CANNOT_DRIVE);
	hookreasons_free(&t);
}
END_TEST

/* Each bad list refused with the line and why. */
START_TEST(test_refused)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "*\tx\tno-decision\n", "line 1: fewer than 4" },
		{ "*\tx\tno-decision\twhy it is so\tmore\n",
		  "line 1: more than 4" },
		{ "# c\n*\t\tno-decision\twhy it is so\n",
		  "line 2: an empty field" },
		{ "SELinux\tx\tno-decision\twhy it is so\n",
		  "line 1: the LSM is neither" },
		{ "*\tsocket-bind\tno-decision\twhy it is so\n",
		  "line 1: the hook is not a glob" },
		{ "*\tx\tunknown\twhy it is so\n", "line 1: the kind is" },
		{ "*\tx\tcannot-drive\tno\n",
		  "line 1: the reason says nothing" },
		{ "*\tx\tno-decision\twhy it is so", "line 1: no newline" },
		{ "# only a comment\n\n", "no rows" },
		{ "", "no rows" },
	};
	struct hookreasons t;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(hookreasons_parse(bad[i].text,
						   strlen(bad[i].text), &t, err,
						   sizeof(err)),
				 -1);
		ck_assert_msg(strstr(err, bad[i].err), "%s: %s", bad[i].err,
			      err);
		ck_assert_ptr_null(t.v);
	}
	{
		static const char nul[] = "*\tx\tno-decision\twhy\0it is so\n";

		ck_assert_int_eq(hookreasons_parse(nul, sizeof(nul) - 1, &t,
						   err, sizeof(err)),
				 -1);
	}
	ck_assert_str_eq(err, "line 1: a NUL byte");
}
END_TEST

START_TEST(test_match)
{
	struct hookreasons t = parsed(list);

	ck_assert_ptr_eq(hookreasons_match(&t, "apparmor", "sk_free_security"),
			 &t.v[0]);
	/* The first row that matches, and an LSM's own rows. */
	ck_assert_ptr_eq(hookreasons_match(&t, "selinux", "ib_pkey_access"),
			 &t.v[1]);
	ck_assert_ptr_null(hookreasons_match(&t, "apparmor", "ib_pkey_access"));
	ck_assert_ptr_null(hookreasons_match(&t, "selinux", "socket_bind"));
	hookreasons_free(&t);
}
END_TEST

START_TEST(test_status)
{
	struct hookreasons t = parsed(list);
	const struct hookreason_row *none = NULL, *nd = &t.v[0], *cd = &t.v[1];

	/* Both outcomes: reached, whatever the list says. */
	ck_assert_int_eq(hook_status(true, 9, 1, 1, none), HOOK_BOTH);
	ck_assert_int_eq(hook_status(true, 9, 1, 1, cd), HOOK_BOTH);
	/* No counters: not built, reason or not. */
	ck_assert_int_eq(hook_status(false, 0, 0, 0, none), HOOK_NOT_BUILT);
	ck_assert_int_eq(hook_status(false, 0, 0, 0, cd), HOOK_NOT_BUILT);
	/* A reason covers what is missing, called or not. */
	ck_assert_int_eq(hook_status(true, 0, 0, 0, nd), HOOK_REASONED);
	ck_assert_int_eq(hook_status(true, 4, 1, 0, cd), HOOK_REASONED);
	ck_assert_str_eq(hook_status_name(HOOK_REASONED, nd), "no decision");
	ck_assert_str_eq(hook_status_name(HOOK_REASONED, cd), "cannot drive");
	/* Without one, a gap, named by what is missing. */
	ck_assert_int_eq(hook_status(true, 4, 1, 0, none), HOOK_ALLOW_ONLY);
	ck_assert_int_eq(hook_status(true, 4, 0, 2, none), HOOK_DENY_ONLY);
	ck_assert_int_eq(hook_status(true, 4, 0, 0, none), HOOK_NO_RECORD);
	ck_assert_int_eq(hook_status(true, 0, 0, 0, none), HOOK_NEVER_CALLED);
	ck_assert(hook_status_gap(HOOK_ALLOW_ONLY));
	ck_assert(hook_status_gap(HOOK_NEVER_CALLED));
	ck_assert(!hook_status_gap(HOOK_BOTH));
	ck_assert(!hook_status_gap(HOOK_REASONED));
	ck_assert(!hook_status_gap(HOOK_NOT_BUILT));
	ck_assert_str_eq(hook_status_name(HOOK_NEVER_CALLED, NULL),
			 "gap: never called");
	hookreasons_free(&t);
}
END_TEST

/* Every row of the project's list matches a hook an LSM of 7.2 registers. */
START_TEST(test_fixture)
{
	char *text, err[128];
	struct lsm_hook *h[TREE_LSMS];
	size_t len, n[TREE_LSMS], i, k, l;
	struct hookreasons t;

	ck_assert_int_eq(read_file(LSMCONF_ROOT "/fixtures/hook-reasons.tsv",
				   &text, &len),
			 0);
	ck_assert_msg(!hookreasons_parse(text, len, &t, err, sizeof(err)), "%s",
		      err);
	free(text);
	for (i = 0; i < t.n; i++)
		ck_assert_msg(!strcmp(t.v[i].lsm, "*") || lsm_find(t.v[i].lsm),
			      "line %u: no LSM %s", t.v[i].line, t.v[i].lsm);
	if (!tree_hooks(h, n)) {
		hookreasons_free(&t);
		return;
	}
	/* A row no hook matches, or whose hooks a row before takes, is dead. */
	for (i = 0; i < t.n; i++) {
		bool used = false;

		for (l = 0; l < TREE_LSMS; l++)
			for (k = 0; k < n[l]; k++)
				used |= hookreasons_match(&t, tree_lsm_names[l],
							  h[l][k].hook) ==
					&t.v[i];
		ck_assert_msg(used, "line %u: %s matches no hook it decides",
			      t.v[i].line, t.v[i].hook);
	}
	for (l = 0; l < TREE_LSMS; l++)
		lsm_hooks_free(h[l], n[l]);
	hookreasons_free(&t);
}
END_TEST

int main(void)
{
	return CHECK_RUN("hookreasons", test_parse, test_refused, test_match,
			 test_status, test_fixture);
}
