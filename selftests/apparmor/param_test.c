// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor's module parameters and sysctls (issue 40): who may
 * read and write the files of /sys/module/apparmor/parameters/ and
 * /proc/sys/kernel/apparmor_display_secid_mode and
 * unprivileged_userns_apparmor_policy. Each call runs in its own child,
 * which takes its identity (uid, gid, capabilities) and its label, opens
 * the file, and reads it or writes back the value the harness read
 * there first: no setting changes, and lock_policy is never set.
 *
 * The model (param_expect(); security/apparmor/ of 6.1, 6.12 and 7.2):
 *
 *   DAC       the file's mode: owner bits for euid 0, group bits for
 *             egid 0, else the other bits; -EACCES (generic_permission,
 *             proc_sys_permission's test_perm). The files are root's,
 *             so the test's root tasks need no capability for them.
 *   file      apparmor_file_open: every profile of the label must have
 *             a file rule for the access (complain mode allows); else
 *             -EACCES.
 *   view      the parameters' get (param_get_aabool and its kind,
 *             lsm.c): aa_current_policy_view_capable (policy.c): euid 0
 *             or egid 0, in the initial user namespace; else -EPERM.
 *             `enabled` (param_get_aaintbool) asks nothing.
 *   admin     the parameters' set and both sysctls' read and write
 *             (apparmor_dointvec): aa_current_policy_admin_capable: view,
 *             and CAP_MAC_ADMIN in the effective set (cap_capable) and in
 *             every profile of the label (aa_capable; complain allows,
 *             a deny rule refuses), and lock_policy off; else -EPERM.
 *
 * Writes to the read-only (0400, 0444) parameters are left out: kernfs
 * refuses a write open of a file with no write bit before any of it
 * (kernfs_fop_open), so their set functions run at boot only.
 */

#define _GNU_SOURCE

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define PARAMS "/sys/module/apparmor/parameters/"
#define SYSCTL "/proc/sys/kernel/"

/* What the call's own code asks once the file is open. */
enum check { K_NONE, K_VIEW, K_ADMIN };

struct call {
	const char *name; /* the file, under its directory */
	bool sysctl; /* under SYSCTL, else PARAMS */
	bool write; /* writes back what it read, else reads */
	unsigned int mode; /* the file's mode */
	enum check check;
};

/* clang-format off */
static const struct call calls[] = {
	{ "mode",			false, false, 0600, K_VIEW },
	{ "audit",			false, false, 0600, K_VIEW },
	{ "debug",			false, false, 0600, K_VIEW },
	{ "lock_policy",		false, false, 0600, K_VIEW },
	{ "logsyscall",			false, false, 0600, K_VIEW },
	{ "audit_header",		false, false, 0600, K_VIEW },
	{ "path_max",			false, false, 0400, K_VIEW },
	{ "rawdata_compression_level",	false, false, 0400, K_VIEW },
	{ "paranoid_load",		false, false, 0444, K_VIEW },
	{ "enabled",			false, false, 0444, K_NONE },
	{ "mode",			false, true,  0600, K_ADMIN },
	{ "audit",			false, true,  0600, K_ADMIN },
	{ "lock_policy",		false, true,  0600, K_ADMIN },
	{ "logsyscall",			false, true,  0600, K_ADMIN },
	{ "audit_header",		false, true,  0600, K_ADMIN },
	{ "apparmor_display_secid_mode", true, false, 0600, K_ADMIN },
	{ "unprivileged_userns_apparmor_policy", true, false, 0600, K_ADMIN },
	{ "apparmor_display_secid_mode", true, true,  0600, K_ADMIN },
	{ "unprivileged_userns_apparmor_policy", true, true,  0600, K_ADMIN },
};
/* clang-format on */
#define NCALLS ARRAY_SIZE(calls)

/* The profiles of profiles/param.profile, by tag (AA_TEST_PREFIX tag). */
enum prof {
	P_VIEW,
	P_ADMIN,
	P_ADMIN_RO,
	P_ADMIN_NOFILE,
	P_DENY_ADMIN,
	P_COMPLAIN,
	NPROF
};

static const struct {
	const char *tag;
	bool read, write; /* file rules for the files */
	bool mac_admin; /* allows capability mac_admin */
	bool complain;
} profs[NPROF] = {
	[P_VIEW] = { "param", true, true },
	[P_ADMIN] = { "param_admin", true, true, true },
	[P_ADMIN_RO] = { "param_admin_ro", true, false, true },
	[P_ADMIN_NOFILE] = { "param_admin_nofile", false, false, true },
	[P_DENY_ADMIN] = { "param_deny_admin", true, true },
	[P_COMPLAIN] = { "param_complain", false, false, false, true },
};

FIXTURE(param)
{
	char value[NCALLS][64]; /* each file's value as root read it */
	bool locked; /* lock_policy is on */
};

FIXTURE_VARIANT(param)
{
	const char *id; /* the identity, for the record */
	uid_t euid;
	gid_t egid;
	bool no_mac_admin; /* CAP_MAC_ADMIN dropped (drop_mac_admin()) */
	int n; /* profiles in the label: 0 is unconfined */
	enum prof p[2];
};

/* clang-format off */
/* root, every capability: reads and writes all */
FIXTURE_VARIANT_ADD(param, unconfined) { .id = "root" };
/* no CAP_MAC_ADMIN: reads, every write and sysctl -EPERM */
FIXTURE_VARIANT_ADD(param, unconfined_no_mac_admin) {
	.id = "root-mac_admin", .no_mac_admin = true };
/* nobody: 0600 and 0400 files -EACCES, paranoid_load -EPERM */
FIXTURE_VARIANT_ADD(param, unconfined_nobody) {
	.id = "nobody", .euid = NOBODY, .egid = NOBODY };
/* nobody in group root: paranoid_load allowed (in_egroup_p) */
FIXTURE_VARIANT_ADD(param, unconfined_nobody_gid0) {
	.id = "nobody:root", .euid = NOBODY };
/* no capability rule: reads, every write and sysctl -EPERM */
FIXTURE_VARIANT_ADD(param, view) { .id = "root", .n = 1, .p = { P_VIEW } };
/* capability mac_admin: all */
FIXTURE_VARIANT_ADD(param, admin) { .id = "root", .n = 1, .p = { P_ADMIN } };
/* read rules only: writes -EACCES, sysctl reads allowed */
FIXTURE_VARIANT_ADD(param, admin_ro) {
	.id = "root", .n = 1, .p = { P_ADMIN_RO } };
/* no file rule: all -EACCES */
FIXTURE_VARIANT_ADD(param, admin_nofile) {
	.id = "root", .n = 1, .p = { P_ADMIN_NOFILE } };
/* the rule, but CAP_MAC_ADMIN not effective: writes and sysctl -EPERM */
FIXTURE_VARIANT_ADD(param, admin_no_mac_admin) {
	.id = "root-mac_admin", .no_mac_admin = true, .n = 1,
	.p = { P_ADMIN } };
/* capability, but deny capability mac_admin: writes and sysctl -EPERM */
FIXTURE_VARIANT_ADD(param, deny_admin) {
	.id = "root", .n = 1, .p = { P_DENY_ADMIN } };
/* complain mode, no rule: all */
FIXTURE_VARIANT_ADD(param, complain) {
	.id = "root", .n = 1, .p = { P_COMPLAIN } };
/* the second profile lacks mac_admin: writes and sysctl -EPERM */
FIXTURE_VARIANT_ADD(param, admin_stack_view) {
	.id = "root", .n = 2, .p = { P_ADMIN, P_VIEW } };
/* clang-format on */

/* The file's path. */
static void call_path(const struct call *c, char *path, size_t size)
{
	snprintf(path, size, "%s%s", c->sysctl ? SYSCTL : PARAMS, c->name);
}

/* generic_permission, test_perm: the mode's bits the identity gets. */
static bool dac_allows(const FIXTURE_VARIANT(param) * v, const struct call *c)
{
	unsigned int bits = v->euid == 0 ? c->mode >> 6 :
			    v->egid == 0 ? c->mode >> 3 :
					   c->mode;

	return bits & (c->write ? 2 : 4);
}

static int param_expect(const FIXTURE_VARIANT(param) * v, const struct call *c,
			bool locked)
{
	bool view = v->euid == 0 || v->egid == 0;
	/* Leaving uid 0 clears every capability (capabilities(7)). */
	bool admin = view && v->euid == 0 && !v->no_mac_admin && !locked;
	int i;

	if (!dac_allows(v, c))
		return -EACCES;
	for (i = 0; i < v->n; i++) {
		const typeof(profs[0]) *p = &profs[v->p[i]];

		if (p->complain)
			continue;
		if (!(c->write ? p->write : p->read))
			return -EACCES;
		if (!p->mac_admin)
			admin = false;
	}
	if (c->check == K_VIEW)
		return view ? 0 : -EPERM;
	if (c->check == K_ADMIN)
		return admin ? 0 : -EPERM;
	return 0;
}

/* The identity: groups none, then gid, then uid (which clears the caps). */
static int take_identity(const FIXTURE_VARIANT(param) * v)
{
	if (v->no_mac_admin)
		return drop_mac_admin();
	if (!v->euid && !v->egid)
		return 0;
	return become_user(v->euid, v->egid);
}

/* One read or write of the whole file: 0 or -errno. */
static int call_file(const struct call *c, const char *value)
{
	char path[PATH_MAX], buf[256];
	ssize_t n;
	int fd, ret;

	call_path(c, path, sizeof(path));
	fd = open(path, (c->write ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = c->write ? write(fd, value, strlen(value)) :
		       read(fd, buf, sizeof(buf));
	ret = n < 0 ? -errno : 0;
	close(fd);
	return ret;
}

struct param_case {
	const FIXTURE_VARIANT(param) * v;
	const struct call *c;
	const char *value;
};

/* The child (child_run()): identity, label, the call. */
static void param_child(void *arg, void *reply)
{
	const struct param_case *k = arg;
	struct aa_child_report *r = reply;
	const char *tags[2] = { profs[k->v->p[0]].tag, profs[k->v->p[1]].tag };

	r->pre = NOT_RUN;
	r->result = NOT_RUN;
	r->enter = aa_enter_tags(tags, k->v->n, NULL, 0);
	if (r->enter)
		return;
	/* After the label: nobody could not read its own context back. */
	r->setup = take_identity(k->v);
	if (!r->setup)
		r->result = call_file(k->c, k->value);
}

FIXTURE_SETUP(param)
{
	struct aa_policy p;
	size_t i;
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	/* The values written back, read by root unconfined: the writes change
	 * nothing.
	 */
	for (i = 0; i < NCALLS; i++) {
		char path[128];
		ssize_t n;

		call_path(&calls[i], path, sizeof(path));
		n = read_text(path, self->value[i], sizeof(self->value[i]));
		if (n == -ENOENT)
			SKIP(return, "no %s (CONFIG_SYSCTL, CONFIG_USER_NS)",
				   path);
		ASSERT_LE(0, n)
		{
			TH_LOG("reading %s: %s", path, strerror(-n));
		}
		self->value[i][strcspn(self->value[i], "\n")] = '\0';
		if (!strcmp(calls[i].name, "lock_policy"))
			self->locked = !strcmp(self->value[i], "Y");
	}
	if (!variant->n)
		return;
	ret = aa_policy_share(_metadata, &p, "param", ABI, NULL, "param", NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
}

FIXTURE_TEARDOWN(param)
{
}

TEST_F_TIMEOUT(param, decisions, 60)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->n ? profs[variant->p[0]].tag : "unconfined",
		.depends = self->locked ? "lock_policy=Y" : "lock_policy=N",
	};
	char detail[96], op[96];
	size_t i;

	snprintf(detail, sizeof(detail), "%s%s%s", variant->id,
		 variant->n == 2 ? "," : "",
		 variant->n == 2 ? profs[variant->p[1]].tag : "");
	rec.detail = detail;
	for (i = 0; i < NCALLS; i++) {
		const struct call *c = &calls[i];
		struct param_case k = { variant, c, self->value[i] };
		struct aa_child_report r;

		snprintf(op, sizeof(op), "%s.%s", c->write ? "write" : "read",
			 c->name);
		ASSERT_EQ(0, child_run(param_child, &k, &r, sizeof(r)));
		ASSERT_CHILD_READY(&r, op);
		rec.object = c->name;
		rec.class = c->sysctl ? "sysctl" : "param";
		rec.op = op;
		rec.expected = param_expect(variant, c, self->locked);
		rec.observed = r.result;
		JUDGE(&rec);
	}
}

AA_HARNESS_MAIN
