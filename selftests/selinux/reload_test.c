// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: SELinux contexts and decisions across a policy reload (lsmconf
 * issue #23). Objects made under lsmconf-c4.bin (base) live on while the
 * test loads lsmconf-c4-reload.bin (the variant: policy/lsmconf-reload.cil
 * without its "lsmconf-drop: reload" lines) and then base again; each
 * phase (base0, variant, base1) reads their contexts and decides on them.
 *
 * Objects: two client processes (setcon: lsmconf_rl_cli_t, kept, and
 * lsmconf_rl_gone_t, whose type the variant removes), three listening
 * AF_UNIX stream sockets (setsockcreatecon: keep, srv and gone), a tmpfs
 * file labelled gone (setfilecon), and the accepted end of a connection
 * from the gone client (its peer SID).
 *
 * Rules (security/selinux/ss/services.c, 7.2; 6.1 and 6.12 the same):
 * R1 A reload keeps every SID: selinux_policy_commit() converts the
 *    sidtab (services_convert_context()); a context whose type still
 *    exists maps to the same type, so a kept object shows and is decided
 *    as before.
 * R2 selinux_policy_commit() flushes the AVC (avc_ss_reset()): a removed
 *    allow denies at once for an existing socket (cli -> srv connectto),
 *    and a re-added one allows again.
 * R3 A context whose type the new policy lacks becomes invalid: the SID
 *    keeps its string (services_convert_context(), "became invalid
 *    (unmapped)"). sidtab_search() and security_sid_to_context() then
 *    fall back to the unlabeled initial SID: /proc/PID/attr/current and
 *    SO_PEERSEC print lsmconf_u:object_r:unlabeled_t:s0, and
 *    security_compute_av() decides with unlabeled_t's rules (gone may
 *    reach keep, unlabeled_t may reach srv and not keep; nobody may reach
 *    an unlabeled socket).
 * R4 selinux_inode_getsecurity() prints the raw (invalid) string to a
 *    caller with CAP_MAC_ADMIN (security_sid_to_context_force()), the
 *    unlabeled context to one without it.
 * R5 Re-adding the type maps the kept string back (services_convert_context()
 *    on oldc->str): the same SID shows and is decided as gone again.
 * The binary leaves the policy it found: it reads /sys/fs/selinux/policy
 * first, loads it back last, and checks the two read the same.
 *
 * A context that differs from the model is EBADMSG. Decision ids:
 * reload_test/reload.objects/PHASE/OP.
 */
#define _GNU_SOURCE
#include <linux/capability.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <sys/xattr.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"

#define BASE "lsmconf-c4.bin"
#define VARIANT "lsmconf-c4-reload.bin"
#define UNLABELED_CTX "lsmconf_u:object_r:unlabeled_t:s0"
#define CTX(t) SEL_USER_ROLE t ":s0"
#define FILE_CTX(t) "lsmconf_u:object_r:" t ":s0"

enum phase { PH_BASE0, PH_VARIANT, PH_BASE1, PH_N };
static const char *const ph_names[] = { "base0", "variant", "base1" };
enum lsn { L_KEEP, L_SRV, L_GONE, L_N };
static const char *const l_names[] = { "keep", "srv", "gone" };
static const char *const l_types[] = { "lsmconf_rl_keep_t", "lsmconf_rl_srv_t",
				       "lsmconf_rl_gone_t" };
enum cli { C_CLI, C_GONE, C_N };
static const char *const c_names[] = { "cli", "gone" };
static const char *const c_types[] = { "lsmconf_rl_cli_t",
				       "lsmconf_rl_gone_t" };

/* The type that decides for a gone-typed object in @p (R3, R5). */
static const char *eff(const char *type, enum phase p)
{
	if (p == PH_VARIANT && !strcmp(type, "lsmconf_rl_gone_t"))
		return "unlabeled_t";
	return type;
}

/* policy/lsmconf-reload.cil: who may connectto whom, per phase. */
static bool rule_connectto(const char *src, const char *dst, enum phase p)
{
	bool base = p != PH_VARIANT;

	if (!strcmp(src, "lsmconf_rl_cli_t"))
		return !strcmp(dst, "lsmconf_rl_keep_t") ||
		       (base && !strcmp(dst, "lsmconf_rl_srv_t")) ||
		       (base && !strcmp(dst, "lsmconf_rl_gone_t"));
	if (!strcmp(src, "lsmconf_rl_gone_t"))
		return base && !strcmp(dst, "lsmconf_rl_keep_t");
	if (!strcmp(src, "unlabeled_t"))
		return !strcmp(dst, "lsmconf_rl_srv_t");
	return false;
}

static int model_connect(enum cli c, enum lsn l, enum phase p)
{
	/* selinux_socket_unix_stream_connect(): client socket -> server. */
	return rule_connectto(eff(c_types[c], p), eff(l_types[l], p), p) ?
		       0 :
		       -EACCES;
}

/* The context a process or peer of @type prints in @p (R1, R3, R5). */
static const char *model_ctx(const char *type, enum phase p, char *buf,
			     size_t size)
{
	if (!strcmp(eff(type, p), "unlabeled_t"))
		return UNLABELED_CTX;
	snprintf(buf, size, CTX("%s"), type);
	return buf;
}

static socklen_t l_addr(struct sockaddr_un *a, pid_t owner, enum lsn l)
{
	return sel_abstract_addr(a, "lsmconf-rl-%d-%s", owner, l_names[l]);
}

/* A client: one connect() per command byte (the listener), the result
 * back; 'p' connects to keep and keeps the socket (the peer case).
 */
static void client_loop(int cmd, int res, pid_t owner, const char *type)
{
	int kept = -1, ready;
	char c;

	/* In its domain before the parent reads its context: say so. */
	ready = sel_enter(type, "s0");
	if (pipe_write(res, &ready, sizeof(ready)) || ready)
		_exit(2);
	while (!pipe_read(cmd, &c, 1, PEER_WAIT_MS)) {
		struct sockaddr_un a;
		enum lsn l = c == 'p' ? L_KEEP : (enum lsn)(c - '0');
		socklen_t len;
		int fd, ret;

		if (c == 'q')
			_exit(0);
		len = l_addr(&a, owner, l);
		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		ret = fd < 0 ? -errno : set_timeouts(fd);
		if (!ret)
			ret = sys_ret(connect(fd, (struct sockaddr *)&a, len));
		if (c == 'p' && !ret)
			kept = fd;
		else if (fd >= 0)
			close(fd);
		if (pipe_write(res, &ret, sizeof(ret)))
			_exit(3);
	}
	if (kept >= 0)
		close(kept);
	_exit(0);
}

struct client {
	pid_t pid;
	int cmd, res;
};

FIXTURE(reload)
{
	char file[64];
	char *found; /* the policy found, or NULL when none was loaded */
	size_t found_len;
	int lsn[L_N], peer;
	struct client cl[C_N];
};

FIXTURE_SETUP(reload)
{
	const char *why = sel_unusable();
	int i, ready;

	if (why)
		SKIP(return, "%s", why);
	ASSERT_EQ(0, sel_mount());
	self->found = NULL;
	if (sel_loaded_policy_is_ours() == 1)
		ASSERT_EQ(0, sel_read_file(SEL_FS "/policy", &self->found,
					   &self->found_len));
	SEL_NEED_NAMED(BASE);
	for (i = 0; i < L_N; i++) {
		struct sockaddr_un a;
		socklen_t len = l_addr(&a, getpid(), i);
		char ctx[128];

		snprintf(ctx, sizeof(ctx), CTX("%s"), l_types[i]);
		ASSERT_EQ(0, setsockcreatecon(ctx));
		self->lsn[i] = socket(AF_UNIX, SOCK_STREAM, 0);
		ASSERT_LE(0, self->lsn[i]);
		ASSERT_EQ(0, bind(self->lsn[i], (struct sockaddr *)&a, len));
		ASSERT_EQ(0, listen(self->lsn[i], 16));
	}
	ASSERT_EQ(0, setsockcreatecon(NULL));
	snprintf(self->file, sizeof(self->file), "/tmp/lsmconf-rl-%d",
		 getpid());
	i = open(self->file, O_CREAT | O_RDWR | O_CLOEXEC, 0600);
	ASSERT_LE(0, i);
	close(i);
	ASSERT_EQ(0, setfilecon(self->file, FILE_CTX("lsmconf_rl_gone_t")));
	for (i = 0; i < C_N; i++) {
		int cmd[2], res[2];
		pid_t owner = getpid();

		ASSERT_EQ(0, pipe2(cmd, O_CLOEXEC));
		ASSERT_EQ(0, pipe2(res, O_CLOEXEC));
		self->cl[i].pid = peer_fork();
		ASSERT_LE(0, self->cl[i].pid);
		if (!self->cl[i].pid) {
			close(cmd[1]);
			close(res[0]);
			client_loop(cmd[0], res[1], owner, c_types[i]);
		}
		close(cmd[0]);
		close(res[1]);
		self->cl[i].cmd = cmd[1];
		self->cl[i].res = res[0];
		ASSERT_EQ(0, pipe_read(res[0], &ready, sizeof(ready),
				       PEER_WAIT_MS));
		ASSERT_EQ(0, ready);
	}
}

FIXTURE_TEARDOWN(reload)
{
	int i;

	for (i = 0; i < C_N; i++) {
		if (self->cl[i].pid <= 0)
			continue;
		pipe_write(self->cl[i].cmd, "q", 1);
		waitpid(self->cl[i].pid, NULL, 0);
	}
	unlink(self->file);
}

static int ask_connect(struct client *c, char what, int *out)
{
	if (pipe_write(c->cmd, &what, 1))
		return -EPIPE;
	return pipe_read(c->res, out, sizeof(*out), PEER_WAIT_MS * 2);
}

/* 0 when @got is @want, else EBADMSG; a failed read stays its errno. */
static int ctx_outcome(int ret, const char *got, const char *want)
{
	if (ret)
		return ret;
	return strcmp(got, want) ? -EBADMSG : 0;
}

static int proc_ctx(pid_t pid, char *buf, size_t size)
{
	char path[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/attr/current", pid);
	n = read_text(path, buf, size);
	if (n < 0)
		return n;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* getxattr of @path in a child without CAP_MAC_ADMIN (R4). */
static int file_ctx_nocap(const char *path, char *buf, size_t size)
{
	int p[2], ret;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = peer_fork();
	if (!pid) {
		struct __user_cap_header_struct h = {
			.version = _LINUX_CAPABILITY_VERSION_3
		};
		struct __user_cap_data_struct d[2];
		char val[256] = "";
		ssize_t n;

		if (syscall(SYS_capget, &h, d))
			_exit(1);
		d[CAP_MAC_ADMIN / 32].effective &=
			~(1u << (CAP_MAC_ADMIN % 32));
		if (syscall(SYS_capset, &h, d))
			_exit(1);
		n = getxattr(path, "security.selinux", val, sizeof(val) - 1);
		if (n < 0)
			snprintf(val, sizeof(val), "E%d", errno);
		write(p[1], val, sizeof(val));
		_exit(0);
	}
	close(p[1]);
	ret = pid < 0 ? -errno : pipe_read(p[0], buf, size, PEER_WAIT_MS);
	close(p[0]);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return ret;
}

static void judge_ctx(struct __test_metadata *_metadata, enum phase p,
		      const char *op, const char *subject, int ret,
		      const char *got, const char *want)
{
	char id[64];
	struct record rec = {
		.abi = "cil",
		.subject = subject,
		.object = "-",
		.class = "context",
		.detail = want,
		.op = id,
		.depends = "-",
		.expected = 0,
		.observed = ctx_outcome(ret, got, want),
	};

	snprintf(id, sizeof(id), "%s/%s", ph_names[p], op);
	if (rec.observed)
		TH_LOG("%s: read \"%s\", model \"%s\"", id, got, want);
	JUDGE(&rec);
}

static void run_phase(struct __test_metadata *_metadata,
		      FIXTURE_DATA(reload) * self, enum phase p)
{
	char got[256], want[128], op[64];
	int ret, c, l;

	for (c = 0; c < C_N; c++) {
		snprintf(op, sizeof(op), "%s.getcon", c_names[c]);
		memset(got, 0, sizeof(got));
		ret = proc_ctx(self->cl[c].pid, got, sizeof(got));
		judge_ctx(_metadata, p, op, c_types[c], ret, got,
			  model_ctx(c_types[c], p, want, sizeof(want)));
	}
	/* The peer SID of the gone client's connection (SO_PEERSEC). */
	{
		char *con = NULL;

		ret = getpeercon(self->peer, &con) ? -errno : 0;
		judge_ctx(_metadata, p, "gone.getpeercon", c_types[C_GONE], ret,
			  con ? con : "",
			  model_ctx(c_types[C_GONE], p, want, sizeof(want)));
		freecon(con);
	}
	/* The file: the raw string with CAP_MAC_ADMIN, as process without. */
	{
		char *con = NULL;

		ret = getfilecon(self->file, &con) < 0 ? -errno : 0;
		judge_ctx(_metadata, p, "file.getfilecon", "kernel_t", ret,
			  con ? con : "", FILE_CTX("lsmconf_rl_gone_t"));
		freecon(con);
		memset(got, 0, sizeof(got));
		ret = file_ctx_nocap(self->file, got, sizeof(got));
		judge_ctx(_metadata, p, "file.getfilecon_nocap", "kernel_t",
			  ret, got,
			  p == PH_VARIANT ? UNLABELED_CTX :
					    FILE_CTX("lsmconf_rl_gone_t"));
	}
	for (c = 0; c < C_N; c++)
		for (l = 0; l < L_N; l++) {
			char dep[96];
			struct record rec = {
				.abi = "cil",
				.subject = c_types[c],
				.object = l_types[l],
				.class = "unix_stream_socket",
				.detail = "abstract",
				.op = op,
				.depends = dep,
				.expected = model_connect(c, l, p),
			};

			snprintf(op, sizeof(op), "%s/%s.connect.%s",
				 ph_names[p], c_names[c], l_names[l]);
			snprintf(dep, sizeof(dep), "%s->%s:connectto",
				 eff(c_types[c], p), eff(l_types[l], p));
			ret = ask_connect(&self->cl[c], '0' + l, &rec.observed);
			ASSERT_EQ(0, ret);
			JUDGE(&rec);
		}
}

TEST_F(reload, objects)
{
	struct record rec = {
		.abi = "cil",
		.subject = "kernel_t",
		.object = "-",
		.class = "security",
		.detail = "-",
		.op = "policy.restored",
		.depends = "-",
	};
	int ret;
	char *now;
	size_t now_len;

	/* The gone client's connection, accepted under base. */
	ASSERT_EQ(0, ask_connect(&self->cl[C_GONE], 'p', &ret));
	ASSERT_EQ(0, ret);
	self->peer = accept4(self->lsn[L_KEEP], NULL, NULL, SOCK_CLOEXEC);
	ASSERT_LE(0, self->peer);

	run_phase(_metadata, self, PH_BASE0);
	ASSERT_LE(0, sel_need_named(VARIANT, &(long long){ 0 }));
	run_phase(_metadata, self, PH_VARIANT);
	ASSERT_LE(0, sel_need_named(BASE, &(long long){ 0 }));
	run_phase(_metadata, self, PH_BASE1);

	/* Back to the policy found (none found: base stays, as loaded). */
	if (self->found) {
		ASSERT_EQ(0,
			  security_load_policy(self->found, self->found_len));
		if (sel_loaded_name)
			sel_loaded_name[0] = '\0';
		ASSERT_EQ(0, sel_read_file(SEL_FS "/policy", &now, &now_len));
		rec.observed =
			now_len == self->found_len &&
					!memcmp(now, self->found, now_len) ?
				0 :
				-EBADMSG;
		free(now);
		free(self->found);
		JUDGE(&rec);
	}
}

LSM_HARNESS_MAIN
