// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor change_hat (issue 40): entering a hat and leaving it
 * with the token it was entered with, through libapparmor's
 * aa_change_hat() and aa_change_hatv(). Each case runs in a child that
 * enters AA_TEST_PREFIX "hat" (profiles/hat.profile: hats hat1 and hat2,
 * a child profile "sub" that is no hat) or stays unconfined, makes one
 * or two calls, and reports the last call's outcome and the label it is
 * in. Records: "change" (0 or -errno; not-run when the task was killed
 * first), "task.killed" (allow when SIGKILL ended it, ENOENT when not)
 * and, when the call should succeed, "label" (allow when the label read
 * back is the model's, EPROTO when not).
 *
 * The model (security/apparmor/domain.c, change_hat(), aa_change_hat();
 * task.c, aa_set_current_hat(), aa_restore_previous_label()):
 *
 *   unconfined  an unconfined task whose namespace has no children
 *               cannot change hat: -EPERM.
 *   find        the first name of the list that is a child of the
 *               profile; a child that is no hat is -EPERM ("target not
 *               hat"); none found is -ENOENT ("hat not found").
 *   sibling     from a hat, the names are its parent's children.
 *   token       the first change stores the token; a later change or a
 *               return with another token is -EACCES, and the task is
 *               killed ("failed token match", against brute force).
 *   return      no name and the stored token: back to the parent.
 *   nnp         under no_new_privs, a change whose label does not hold
 *               every profile of the label no_new_privs was set in:
 *               -EPERM (a hat and its parent are two profiles).
 */

#define _GNU_SOURCE
#include <sys/prctl.h>

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define HAT_PROFILE AA_TEST_PREFIX "hat"
#define TOKEN 0x4c534d43UL

/* A call: change to @names (NULL: return), with @token. */
struct hat_call {
	const char *names[3];
	unsigned long token;
	bool nnp_before; /* PR_SET_NO_NEW_PRIVS first */
};

FIXTURE(hat) {};

FIXTURE_VARIANT(hat)
{
	bool unconfined; /* stays unconfined, else enters HAT_PROFILE */
	int n; /* calls: the first sets up, the last is judged */
	struct hat_call call[2];
	/* The model: the last call's outcome, the task killed, the label. */
	int expect;
	bool killed;
	const char *label;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(hat, enter) {
	.n = 1, .call = { { { "hat1" }, TOKEN } },
	.expect = 0, .label = HAT_PROFILE "//hat1" };
FIXTURE_VARIANT_ADD(hat, not_hat) {
	.n = 1, .call = { { { "sub" }, TOKEN } }, .expect = -EPERM };
FIXTURE_VARIANT_ADD(hat, missing) {
	.n = 1, .call = { { { "nosuch" }, TOKEN } }, .expect = -ENOENT };
FIXTURE_VARIANT_ADD(hat, list_first_found) {
	.n = 1, .call = { { { "nosuch", "hat2" }, TOKEN } },
	.expect = 0, .label = HAT_PROFILE "//hat2" };
FIXTURE_VARIANT_ADD(hat, list_none_found) {
	.n = 1, .call = { { { "nosuch", "nosuch2" }, TOKEN } },
	.expect = -ENOENT };
FIXTURE_VARIANT_ADD(hat, unconfined) {
	.unconfined = true, .n = 1, .call = { { { "hat1" }, TOKEN } },
	.expect = -EPERM };
FIXTURE_VARIANT_ADD(hat, return) {
	.n = 2, .call = { { { "hat1" }, TOKEN }, { { NULL }, TOKEN } },
	.expect = 0, .label = HAT_PROFILE };
FIXTURE_VARIANT_ADD(hat, return_other_token) {
	.n = 2, .call = { { { "hat1" }, TOKEN }, { { NULL }, TOKEN + 1 } },
	.expect = NOT_RUN, .killed = true };
FIXTURE_VARIANT_ADD(hat, sibling) {
	.n = 2, .call = { { { "hat1" }, TOKEN }, { { "hat2" }, TOKEN } },
	.expect = 0, .label = HAT_PROFILE "//hat2" };
FIXTURE_VARIANT_ADD(hat, sibling_other_token) {
	.n = 2, .call = { { { "hat1" }, TOKEN }, { { "hat2" }, TOKEN + 1 } },
	.expect = NOT_RUN, .killed = true };
FIXTURE_VARIANT_ADD(hat, nnp_enter) {
	.n = 1, .call = { { { "hat1" }, TOKEN, true } }, .expect = -EPERM };
FIXTURE_VARIANT_ADD(hat, nnp_return) {
	.n = 2, .call = { { { "hat1" }, TOKEN }, { { NULL }, TOKEN, true } },
	.expect = -EPERM };
/* clang-format on */

struct hat_report {
	int enter; /* entering HAT_PROFILE, or a first call that failed */
	int result; /* the last call */
	char label[128];
};

/* One call: 0 or -errno. */
static int hat_call(const struct hat_call *c)
{
	/* aa_change_hatv() takes a NULL-terminated list. */
	const char *list[4] = { NULL };
	int n = 0;

	if (c->nnp_before && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	while (n < 3 && c->names[n]) {
		list[n] = c->names[n];
		n++;
	}
	if (n > 1)
		return aa_change_hatv(list, c->token) ? -errno : 0;
	return aa_change_hat(c->names[0], c->token) ? -errno : 0;
}

/* The child: the label, the calls, the report (unless killed first). */
static void hat_child(const FIXTURE_VARIANT(hat) * v, int out)
{
	struct hat_report r = { .result = NOT_RUN };
	char *con = NULL, *mode = NULL;
	int i;

	if (!v->unconfined && aa_change_profile(HAT_PROFILE))
		r.enter = -errno;
	for (i = 0; i < v->n - 1 && !r.enter; i++)
		r.enter = hat_call(&v->call[i]);
	if (!r.enter)
		r.result = hat_call(&v->call[v->n - 1]);
	if (!r.result && aa_getcon(&con, &mode) >= 0) {
		snprintf(r.label, sizeof(r.label), "%s", con);
		free(con);
	}
	_exit(pipe_write(out, &r, sizeof(r)) ? 2 : 0);
}

FIXTURE_SETUP(hat)
{
	struct aa_policy p;
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	if (aa_feature("domain/change_hatv") != 1)
		SKIP(return, "the kernel lacks domain/change_hatv");
	ret = aa_policy_share(_metadata, &p, "hat", ABI, NULL, "hat", NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(hat)
{
}

TEST_F_TIMEOUT(hat, change, 30)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->unconfined ? "unconfined" : HAT_PROFILE,
		.object = variant->call[variant->n - 1].names[0] ?: "return",
		.class = "change_hat",
		.detail = "-",
		.depends = "-",
	};
	struct hat_report r = { .result = NOT_RUN };
	int fds[2], ret, status;
	bool killed;
	pid_t pid;

	ASSERT_EQ(0, pipe2(fds, O_CLOEXEC));
	pid = peer_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(fds[0]);
		hat_child(variant, fds[1]);
	}
	close(fds[1]);
	ret = pipe_read(fds[0], &r, sizeof(r), PEER_WAIT_MS);
	close(fds[0]);
	status = peer_reap(pid);
	ASSERT_LE(0, status);
	killed = WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
	/* No report: only a kill may end the child first. */
	ASSERT_TRUE(!ret || (ret == -EPIPE && killed));
	ASSERT_EQ(0, r.enter)
	{
		TH_LOG("entering the case's first label: %s",
		       strerror(-r.enter));
	}
	rec.op = "change";
	rec.expected = variant->expect;
	rec.observed = r.result;
	JUDGE(&rec);
	rec.op = "task.killed";
	rec.expected = variant->killed ? 0 : -ENOENT;
	rec.observed = killed ? 0 : -ENOENT;
	JUDGE(&rec);
	if (variant->expect || r.result)
		return;
	rec.op = "label";
	rec.detail = variant->label;
	rec.expected = 0;
	rec.observed = strcmp(r.label, variant->label) ? -EPROTO : 0;
	if (rec.observed)
		TH_LOG("label: read \"%s\", the model \"%s\"", r.label,
		       variant->label);
	JUDGE(&rec);
}

AA_HARNESS_MAIN
