// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests for runner/analysis/hookops.c: the table that maps a
 * record's test, class and op to the hooks it goes through, and the
 * project's own table (fixtures/hook-ops.tsv) against the 7.2 tree's
 * hook lists when the kernel source is at hand.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"
#include "lib/lib.h"
#include "check_run.h"
#include "tree_hooks.h"

static const char table[] =
	"# lsm\ttest\tclass\top\thooks\n"
	"\n"
	"*\t*\t*\tlog.*\t-\n"
	"selinux\tipc_test\t*\t*msgsnd*\tmsg_queue_msgsnd\n"
	"*\t*\tdgram*\t*.send*\tsocket_sendmsg,unix_may_send\n"
	"*\t*\t*\t*.send*\tsocket_sendmsg\n";

static struct hookops parsed(const char *text)
{
	struct hookops t;
	char err[128];

	ck_assert_int_eq(
		hookops_parse(text, strlen(text), &t, err, sizeof(err)), 0);
	return t;
}

START_TEST(test_parse)
{
	struct hookops t = parsed(table);

	ck_assert_uint_eq(t.n, 4);
	ck_assert_str_eq(t.v[0].lsm, "*");
	ck_assert_uint_eq(t.v[0].n_hooks, 0);
	ck_assert_uint_eq(t.v[0].line, 3);
	ck_assert_str_eq(t.v[1].test, "ipc_test");
	ck_assert_uint_eq(t.v[2].n_hooks, 2);
	ck_assert_str_eq(t.v[2].hooks[0], "socket_sendmsg");
	ck_assert_str_eq(t.v[2].hooks[1], "unix_may_send");
	hookops_free(&t);
}
END_TEST

/* Each bad table refused with the line and why. */
START_TEST(test_refused)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "*\t*\t*\tsend\n", "line 1: fewer than 5" },
		{ "*\t*\t*\tsend\tx\ty\n", "line 1: more than 5" },
		{ "# c\n*\t*\t\tsend\tx\n", "line 2: an empty field" },
		{ "*\t*\t*\tsend\tx\t\n", "line 1: an empty field" },
		{ "Apparmor\t*\t*\tsend\tx\n", "line 1: the LSM is neither" },
		{ "*\t*\t*\tsend\tsocket_sendmsg,\n", "line 1: the hooks are" },
		{ "*\t*\t*\tsend\tSocket\n", "line 1: the hooks are" },
		{ "*\t*\t*\tsend\tx", "line 1: no newline" },
		{ "# only a comment\n\n", "no rows" },
		{ "", "no rows" },
	};
	struct hookops t;
	char err[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert_int_eq(hookops_parse(bad[i].text, strlen(bad[i].text),
					       &t, err, sizeof(err)),
				 -1);
		ck_assert_msg(strstr(err, bad[i].err), "%s: %s", bad[i].err,
			      err);
		ck_assert_ptr_null(t.v);
	}
	/* A NUL inside a line. */
	{
		static const char nul[] = "*\t*\t*\ts\0nd\tx\n";

		ck_assert_int_eq(hookops_parse(nul, sizeof(nul) - 1, &t, err,
					       sizeof(err)),
				 -1);
	}
	ck_assert_str_eq(err, "line 1: a NUL byte");
}
END_TEST

START_TEST(test_match)
{
	struct hookops t = parsed(table);
	const struct hookop_row *r;

	/* The first row that matches, the op after its last '/'. */
	r = hookops_match(&t, "apparmor", "unix_peer_test/x.y/dgram/send",
			  "dgram", "deny/dgram/sender.sendto");
	ck_assert_ptr_eq(r, &t.v[2]);
	r = hookops_match(&t, "apparmor", "inet_test/a", "stream",
			  "client.send");
	ck_assert_ptr_eq(r, &t.v[3]);
	/* "a/log.record" is an observation, whatever its class. */
	r = hookops_match(&t, "selinux", "t/a", "dgram", "deny/log.record");
	ck_assert_ptr_eq(r, &t.v[0]);
	/* An LSM's own row, and the test from the id's first word. */
	r = hookops_match(&t, "selinux", "ipc_test/m/owner_msgsnd_4_type_1",
			  "msgq", "owner_msgsnd_4_type_1");
	ck_assert_ptr_eq(r, &t.v[1]);
	ck_assert_ptr_null(hookops_match(&t, "apparmor", "ipc_test/m", "msgq",
					 "owner_msgsnd_4_type_1"));
	ck_assert_ptr_null(
		hookops_match(&t, "selinux", "msgq_test/m", "msgq", "msgsnd"));
	/* A test named by the whole id when it has no '/'. */
	ck_assert_ptr_eq(
		hookops_match(&t, "selinux", "ipc_test", "msgq", "msgsnd"),
		&t.v[1]);
	/* "sender.connect" holds no ".send". */
	ck_assert_ptr_null(
		hookops_match(&t, "apparmor", "t", "dgram", "sender.connect"));
	hookops_free(&t);
}
END_TEST

START_TEST(test_outcome)
{
	ck_assert_int_eq(hookop_outcome("allow"), HOOKOP_ALLOW);
	ck_assert_int_eq(hookop_outcome("EACCES"), HOOKOP_DENY);
	ck_assert_int_eq(hookop_outcome("EPERM"), HOOKOP_DENY);
	/* Not the LSMs' refusals: the operation's own errors. */
	ck_assert_int_eq(hookop_outcome("ECONNREFUSED"), HOOKOP_NEITHER);
	ck_assert_int_eq(hookop_outcome("not-run"), HOOKOP_NEITHER);
	ck_assert_int_eq(hookop_outcome("EPROTO"), HOOKOP_NEITHER);
}
END_TEST

/* Every hook the project's table names, registered by an LSM of 7.2. */
START_TEST(test_fixture)
{
	char *text, err[128];
	struct lsm_hook *h[TREE_LSMS];
	size_t len, n[TREE_LSMS], i, j, k, l;
	struct hookops t;

	ck_assert_int_eq(
		read_file(LSMCONF_ROOT "/fixtures/hook-ops.tsv", &text, &len),
		0);
	ck_assert_msg(!hookops_parse(text, len, &t, err, sizeof(err)), "%s",
		      err);
	free(text);
	for (i = 0; i < t.n; i++)
		ck_assert_msg(!strcmp(t.v[i].lsm, "*") || lsm_find(t.v[i].lsm),
			      "line %u: no LSM %s", t.v[i].line, t.v[i].lsm);
	if (!tree_hooks(h, n)) {
		hookops_free(&t);
		return;
	}
	for (i = 0; i < t.n; i++)
		for (j = 0; j < t.v[i].n_hooks; j++) {
			bool found = false;

			for (l = 0; l < TREE_LSMS; l++)
				for (k = 0; k < n[l]; k++)
					found |= !strcmp(h[l][k].hook,
							 t.v[i].hooks[j]);
			ck_assert_msg(found, "line %u: no LSM registers %s",
				      t.v[i].line, t.v[i].hooks[j]);
		}
	for (l = 0; l < TREE_LSMS; l++)
		lsm_hooks_free(h[l], n[l]);
	hookops_free(&t);
}
END_TEST

int main(void)
{
	return CHECK_RUN("hookops", test_parse, test_refused, test_match,
			 test_outcome, test_fixture);
}
