// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor's policy interface (issue #23). Loading, replacing and
 * removing profiles through securityfs (.load, .replace, .remove), what
 * each write must refuse and with which errno, what a confined task sees
 * after its profile is replaced and after it is removed, a profile in a
 * policy namespace and the namespace's removal, and what the
 * introspection files (profiles, policy/profiles/<name>.N/{name,mode,
 * attach}) report after each step.
 *
 * The test writes the blobs itself (one write() each, as libapparmor
 * does) so that it controls every byte: a whole blob, one cut short, one
 * with an old interface version, a text that is no blob at all.
 *
 * The model: each expected outcome below names the kernel function whose
 * rule gives it (security/apparmor/ of 6.1, 6.12 and 7.2 alike; nothing
 * here depends on an advertised feature).
 */

#define _GNU_SOURCE
#include <linux/capability.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "../lsmconf/judge.h"
#include "harness_main.h"

#define ABI "3.0"
/* The profile replaced and removed: AA_TEST_PREFIX "pi_a". */
#define PI_A AA_TEST_PREFIX "pi_a"
/* Its replacing version's attachment (policy_iface.profile's @RULES@). */
#define PI_A2_ATTACH "/lsmconf/pi/bin"
/* The namespace of policy_iface_ns.profile, written out there. */
#define PI_NS "lsmconf_t_pins"
#define PI_NS_PROFILE AA_TEST_PREFIX "pi_ns"

/*
 * One write() of @len bytes of @buf to AA_FS/@file (".load", ".replace",
 * ".remove"): 0 when the kernel took it whole, else -errno.
 */
static int iface_write(const char *file, const void *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, ret;

	snprintf(path, sizeof(path), AA_FS "/%s", file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	ret = n < 0 ? -errno : (size_t)n == len ? 0 : -EIO;
	close(fd);
	return ret;
}

static int iface_remove(const char *name)
{
	return iface_write(".remove", name, strlen(name));
}

/*
 * The line of the profiles file for @fqname: 0 when it reads
 * "<fqname> (<mode>)", -ESRCH when it is there in another mode, -ENOENT
 * when it is not there.
 */
static int list_state(const char *fqname, const char *mode)
{
	static char list[65536];
	char want[256];
	const char *line;
	size_t nlen = strlen(fqname);
	ssize_t ret = aa_profile_list(list, sizeof(list));

	if (ret < 0)
		return ret;
	snprintf(want, sizeof(want), "%s (%s)", fqname, mode);
	for (line = list; line && *line;) {
		size_t len = strcspn(line, "\n");

		if (!strncmp(line, fqname, nlen) && line[nlen] == ' ')
			return len == strlen(want) &&
					       !strncmp(line, want, len) ?
				       0 :
				       -ESRCH;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return -ENOENT;
}

/*
 * 0 when @dir/@file reads @want (one line), -ESRCH when it reads
 * something else (logged), or -errno.
 */
static int file_is(struct __test_metadata *_metadata, const char *dir,
		   const char *file, const char *want)
{
	char path[PATH_MAX], got[256];
	ssize_t ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	ret = read_text(path, got, sizeof(got));
	if (ret < 0)
		return ret;
	got[strcspn(got, "\n")] = '\0';
	if (strcmp(got, want)) {
		TH_LOG("%s reads \"%s\", the model says \"%s\"", path, got,
		       want);
		return -ESRCH;
	}
	return 0;
}

/* One decision of this test: subject is the test task unless named. */
static void pi_judge(struct __test_metadata *_metadata, const char *subject,
		     const char *object, const char *class, const char *detail,
		     const char *op, int expected, int observed)
{
	struct record rec = {
		.abi = ABI,
		.subject = subject,
		.object = object,
		.class = class,
		.detail = detail,
		.op = op,
		.depends = "-",
		.expected = expected,
		.observed = observed,
	};

	JUDGE(&rec);
}

FIXTURE(iface)
{
	char before[65536];
	struct aa_policy a, a2, ns;
	struct aa_blob blob_a, blob_a2, blob_ns;
};

FIXTURE_SETUP(iface)
{
	int ret;

	REQUIRE_APPARMOR(_metadata, true);
	ASSERT_LE(0, aa_remove_leftovers());
	/* A namespace a crashed run left (the list names it with ':'). */
	ret = iface_remove(":" PI_NS ":");
	ASSERT_TRUE(ret == 0 || ret == -ENOENT);
	ASSERT_LE(0, aa_profile_list(self->before, sizeof(self->before)));
	/* Two versions of one profile, and one in a namespace. */
	ret = aa_policy_build_as(&self->a, "policy_iface", ABI, "", "pi_a_" ABI,
				 "pi_a");
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ret = aa_policy_build_as(&self->a2, "policy_iface", ABI,
				 PI_A2_ATTACH " flags=(complain)", "pi_a2_" ABI,
				 "pi_a");
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ret = aa_policy_build_as(&self->ns, "policy_iface_ns", ABI, NULL,
				 "pi_ns_" ABI, "pi_ns");
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, aa_blob_read(self->a.blob, &self->blob_a));
	ASSERT_EQ(0, aa_blob_read(self->a2.blob, &self->blob_a2));
	ASSERT_EQ(0, aa_blob_read(self->ns.blob, &self->blob_ns));
}

FIXTURE_TEARDOWN(iface)
{
	int ret;

	free(self->blob_a.data);
	free(self->blob_a2.data);
	free(self->blob_ns.data);
	/* A setup that skipped (no AppArmor, no leave to load) loaded nothing. */
	if (!self->before[0])
		return;
	/* Each case removes what it loaded; a failed one may not have. */
	ret = iface_remove(PI_A);
	EXPECT_TRUE(ret == 0 || ret == -ENOENT);
	ret = iface_remove(":" PI_NS ":");
	EXPECT_TRUE(ret == 0 || ret == -ENOENT);
	EXPECT_PROFILES_AS_BEFORE(self->before);
}

/* What a write to the interface carries. */
enum pi_blob {
	PI_WHOLE, /* a compiled profile as the parser wrote it */
	PI_GARBAGE, /* text that is no policy blob */
	PI_OLD_VERSION, /* the whole blob, its interface version set to 4 */
	PI_TRUNCATED, /* the header, then 4 bytes of the profile */
};

static const char *const pi_blob_name[] = {
	[PI_WHOLE] = "whole",
	[PI_GARBAGE] = "garbage",
	[PI_OLD_VERSION] = "version_4",
	[PI_TRUNCATED] = "truncated",
};

/* One step of the sequence: a load, a replace or a remove. */
struct pi_step {
	const char *op;
	const char *file; /* ".load", ".replace", ".remove" */
	enum pi_blob blob; /* loads */
	const char *name; /* removes: what is written ("" is one NUL) */
};

/*
 * The blob's header (policy_unpack.c, verify_header()): the name chunk
 * "version" (AA_NAME, u16 length 8, "version\0") then AA_U32 and the
 * version: the u32 starts at byte 12.
 */
#define PI_VERSION_AT 12

/*
 * The bytes step @s writes (from the whole blob @b) into @out. Returns
 * the length, or -errno when the blob is not laid out as the model says.
 */
static ssize_t pi_bytes(const struct pi_step *s, const struct aa_blob *b,
			char *out)
{
	static const char garbage[] = "lsmconf: this is no policy blob\n";
	static const unsigned char head[] = { 4,   8,	0,   'v', 'e', 'r',
					      's', 'i', 'o', 'n', 0,   2 };
	unsigned int v4 = 4;

	switch (s->blob) {
	case PI_GARBAGE:
		memcpy(out, garbage, sizeof(garbage) - 1);
		return sizeof(garbage) - 1;
	case PI_WHOLE:
	case PI_OLD_VERSION:
	case PI_TRUNCATED:
		if (b->len < PI_VERSION_AT + 8 ||
		    memcmp(b->data, head, sizeof(head)))
			return -EBADMSG;
		memcpy(out, b->data, b->len);
		if (s->blob == PI_OLD_VERSION)
			/* Little-endian on the wire (aa_unpack_u32()). */
			memcpy(out + PI_VERSION_AT, &v4, sizeof(v4));
		return s->blob == PI_TRUNCATED ? PI_VERSION_AT + 8 :
						 (ssize_t)b->len;
	}
	return -EINVAL;
}

/*
 * The model of a load, replace or remove by a task that may manage
 * policy, given whether PI_A is loaded (@loaded, updated):
 */
static int pi_expect(const struct pi_step *s, bool *loaded)
{
	if (!strcmp(s->file, ".remove")) {
		/* aa_remove_profiles(): "no profile specified". */
		if (!s->name[0])
			return -ENOENT;
		/* aa_remove_profiles(): aa_lookupn_ns() found no namespace. */
		if (s->name[0] == ':')
			return -ENOENT;
		/* aa_remove_profiles(): __lookup_profile() found none. */
		if (strcmp(s->name, PI_A) || !*loaded)
			return -ENOENT;
		*loaded = false;
		return 0;
	}
	switch (s->blob) {
	case PI_GARBAGE:
		/*
		 * verify_header(): the first header must hold "version"
		 * (required at the blob's start): -EPROTONOSUPPORT.
		 */
		return -EPROTONOSUPPORT;
	case PI_OLD_VERSION:
		/* verify_header(): VERSION_LT(version, v5). */
		return -EPROTONOSUPPORT;
	case PI_TRUNCATED:
		/*
		 * unpack_profile(): the "profile" struct is not there whole
		 * (aa_unpack_nameX() fails): -EPROTO. The header is checked
		 * first, the existing profile last.
		 */
		return -EPROTO;
	case PI_WHOLE:
		break;
	}
	/*
	 * aa_replace_profiles() -> __lookup_replace() ->
	 * replacement_allowed(): .load (no AA_MAY_REPLACE_POLICY) of a
	 * profile that exists is "profile already exists", -EEXIST; .replace
	 * replaces it, or loads it when absent.
	 */
	if (*loaded && !strcmp(s->file, ".load"))
		return -EEXIST;
	*loaded = true;
	return 0;
}

/* The sequence: each step's outcome follows from the ones before. */
static const struct pi_step pi_steps[] = {
	{ "remove.absent", ".remove", PI_WHOLE, PI_A },
	{ "load.garbage", ".load", PI_GARBAGE, NULL },
	{ "load.truncated", ".load", PI_TRUNCATED, NULL },
	{ "load.new", ".load", PI_WHOLE, NULL },
	{ "load.exists", ".load", PI_WHOLE, NULL },
	{ "load.version_4", ".load", PI_OLD_VERSION, NULL },
	{ "replace.truncated", ".replace", PI_TRUNCATED, NULL },
	{ "replace.exists", ".replace", PI_WHOLE, NULL },
	{ "remove.empty", ".remove", PI_WHOLE, "" },
	{ "remove.ns_absent", ".remove", PI_WHOLE, ":lsmconf_t_no_ns:" },
	{ "remove.exists", ".remove", PI_WHOLE, PI_A },
	{ "remove.again", ".remove", PI_WHOLE, PI_A },
	{ "replace.new", ".replace", PI_WHOLE, NULL },
	{ "remove.last", ".remove", PI_WHOLE, PI_A },
};

/* What each write must refuse, and that the refusals leave no trace. */
TEST_F(iface, refusals)
{
	bool loaded = false;
	char *buf = malloc(AA_BLOB_MAX);
	size_t i;

	ASSERT_NE(NULL, buf);
	for (i = 0; i < ARRAY_SIZE(pi_steps); i++) {
		const struct pi_step *s = &pi_steps[i];
		int expected = pi_expect(s, &loaded), observed;
		ssize_t len;

		if (!strcmp(s->file, ".remove")) {
			/* "" is written as one NUL byte. */
			observed = iface_write(
				".remove", s->name[0] ? s->name : "",
				s->name[0] ? strlen(s->name) : 1);
		} else {
			len = pi_bytes(s, &self->blob_a, buf);
			ASSERT_LE(0, len)
			TH_LOG("%s: the blob's header is not laid out as the model says (%s)",
			       s->op, self->a.blob);
			observed = iface_write(s->file, buf, len);
		}
		pi_judge(_metadata, "unconfined", PI_A, s->file + 1,
			 s->name ? (s->name[0] ? s->name : "empty") :
				   pi_blob_name[s->blob],
			 s->op, expected, observed);
		/* The profiles file agrees with the model after each step. */
		{
			char op[64];

			snprintf(op, sizeof(op), "%s/listed", s->op);
			pi_judge(_metadata, "unconfined", PI_A, "profiles",
				 loaded ? "enforce" : "absent", op,
				 loaded ? 0 : -ENOENT,
				 list_state(PI_A, "enforce"));
		}
	}
	free(buf);
}

/*
 * A task without CAP_MAC_ADMIN (a forked child, still uid 0, that opens
 * the files itself) may not load, replace or remove: every write is
 * refused before the blob is read.
 */
TEST_F(iface, no_mac_admin)
{
	static const char *const ops[] = { "load", "replace", "remove" };
	int res[4], i, p[2], status;
	pid_t pid;

	ASSERT_EQ(0, iface_write(".load", self->blob_a.data, self->blob_a.len));
	ASSERT_EQ(0, pipe2(p, O_CLOEXEC));
	pid = peer_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(p[0]);
		res[0] = drop_mac_admin();
		if (!res[0]) {
			res[1] = iface_write(".load", self->blob_a.data,
					     self->blob_a.len);
			res[2] = iface_write(".replace", self->blob_a2.data,
					     self->blob_a2.len);
			res[3] = iface_remove(PI_A);
		}
		pipe_write(p[1], res, sizeof(res));
		_exit(0);
	}
	close(p[1]);
	memset(res, 0, sizeof(res));
	EXPECT_EQ(0, pipe_read(p[0], res, sizeof(res), PEER_WAIT_MS));
	close(p[0]);
	status = peer_reap(pid);
	EXPECT_EQ(0, status);
	ASSERT_EQ(0, res[0]) TH_LOG("capset: %s", strerror(-res[0]));
	for (i = 0; i < 3; i++)
		/*
		 * policy_update() / profile_remove() -> aa_may_manage_policy()
		 * -> aa_policy_admin_capable() -> policy_ns_capable():
		 * cap_capable(CAP_MAC_ADMIN) fails: "not policy admin",
		 * -EACCES (before the load's -EEXIST, the replace, the remove).
		 */
		pi_judge(_metadata, "unconfined-no-cap_mac_admin", PI_A, ops[i],
			 "-", ops[i], -EACCES, res[i + 1]);
	/* Nothing the child wrote took effect: the first version is there. */
	pi_judge(_metadata, "unconfined", PI_A, "profiles", "enforce",
		 "after/listed", 0, list_state(PI_A, "enforce"));
	pi_judge(_metadata, "unconfined", PI_A, "remove", "-", "after/remove",
		 0, iface_remove(PI_A));
}

/* What a peer confined by PI_A reports: its aa_getcon(). */
struct pi_con {
	int err;
	char con[200];
};

/*
 * The confined peer: enters PI_A, then reports its context on every 'g'
 * from @cmd until 'q' or the end of the pipe.
 */
static void pi_peer(int cmd, int rep)
{
	struct pi_con r = { 0 };
	char c;
	int enter = aa_change_profile(PI_A) ? -errno : 0;

	while (!pipe_read(cmd, &c, 1, PEER_WAIT_MS) && c == 'g') {
		char *con = NULL, *mode = NULL;

		memset(&r, 0, sizeof(r));
		r.err = enter;
		if (!r.err && aa_getcon(&con, &mode) < 0)
			r.err = -errno;
		if (!r.err)
			snprintf(r.con, sizeof(r.con), mode ? "%s (%s)" : "%s",
				 con, mode);
		free(con);
		if (pipe_write(rep, &r, sizeof(r)))
			break;
	}
	_exit(0);
}

/* Asks the peer for its context: 0 when it is @want, -ESRCH or -errno. */
static int pi_ask(struct __test_metadata *_metadata, int cmd, int rep,
		  const char *want)
{
	struct pi_con r;
	int ret = pipe_write(cmd, "g", 1);

	if (!ret)
		ret = pipe_read(rep, &r, sizeof(r), PEER_WAIT_MS);
	if (ret)
		return ret;
	if (r.err)
		return r.err;
	if (strcmp(r.con, want)) {
		TH_LOG("the peer's context is \"%s\", the model says \"%s\"",
		       r.con, want);
		return -ESRCH;
	}
	return 0;
}

/*
 * The introspection files of PI_A's directory (apparmorfs.c,
 * seq_profile_{name,mode,attach}_show(): they read the newest label of
 * the directory's proxy): name, mode and attach as the model says.
 */
static void pi_intro(struct __test_metadata *_metadata, const char *step,
		     const char *mode, const char *attach)
{
	char dir[PATH_MAX], op[64];
	int ret = aa_profile_dir(AA_FS "/policy/profiles", PI_A, dir,
				 sizeof(dir));

	snprintf(op, sizeof(op), "%s/dir", step);
	pi_judge(_metadata, "unconfined", PI_A, "policy/profiles", "present",
		 op, 0, ret);
	if (ret)
		return;
	snprintf(op, sizeof(op), "%s/name", step);
	pi_judge(_metadata, "unconfined", PI_A, "policy/profiles", PI_A, op, 0,
		 file_is(_metadata, dir, "name", PI_A));
	snprintf(op, sizeof(op), "%s/mode", step);
	pi_judge(_metadata, "unconfined", PI_A, "policy/profiles", mode, op, 0,
		 file_is(_metadata, dir, "mode", mode));
	snprintf(op, sizeof(op), "%s/attach", step);
	pi_judge(_metadata, "unconfined", PI_A, "policy/profiles", attach, op,
		 0, file_is(_metadata, dir, "attach", attach));
	snprintf(op, sizeof(op), "%s/listed", step);
	pi_judge(_metadata, "unconfined", PI_A, "profiles", mode, op, 0,
		 list_state(PI_A, mode));
}

/*
 * Whether blob @b carries the "attach" string (the name chunk AA_NAME,
 * u16 length 7, "attach\0"). The parser always compiles an attachment
 * into the profile's xmatch DFA; whether it also sends the text is its
 * own choice (5.0.2, the guest's, does not). seq_profile_attach_show()
 * prints that text when unpack_profile() found it (attach.xmatch_str),
 * else "<unknown>" when the profile has an xmatch DFA, else the name.
 */
static bool blob_has_attach(const struct aa_blob *b)
{
	static const char chunk[] = {
		4, 7, 0, 'a', 't', 't', 'a', 'c', 'h', 0
	};

	return memmem(b->data, b->len, chunk, sizeof(chunk)) != NULL;
}

/*
 * A task confined by PI_A while PI_A is replaced by a version in complain
 * mode with an attachment, then removed.
 */
TEST_F(iface, confined_task)
{
	char dir[PATH_MAX];
	int cmd[2], rep[2];
	pid_t pid;

	ASSERT_EQ(0, iface_write(".load", self->blob_a.data, self->blob_a.len));
	/*
	 * Loaded: mode enforce (no flags); attach is the profile's own name
	 * when it has no attachment (seq_profile_attach_show()).
	 */
	pi_intro(_metadata, "loaded", "enforce", PI_A);
	ASSERT_EQ(0, pipe2(cmd, O_CLOEXEC));
	ASSERT_EQ(0, pipe2(rep, O_CLOEXEC));
	pid = peer_fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		close(cmd[1]);
		close(rep[0]);
		pi_peer(cmd[0], rep[1]);
	}
	close(cmd[0]);
	close(rep[1]);
	/* aa_change_profile(): the task's label is PI_A, enforcing. */
	pi_judge(_metadata, PI_A, PI_A, "context", PI_A " (enforce)",
		 "loaded/peer.context", 0,
		 pi_ask(_metadata, cmd[1], rep[0], PI_A " (enforce)"));

	pi_judge(
		_metadata, "unconfined", PI_A, "replace", "whole", "replace", 0,
		iface_write(".replace", self->blob_a2.data, self->blob_a2.len));
	/*
	 * __replace_profile() -> aa_label_replace(): the old label's proxy
	 * points at the new profile; the peer's context is read through
	 * aa_get_newest_label() (apparmor_getprocattr()): the new version's
	 * mode. The directory moves to the new profile
	 * (__aafs_profile_migrate_dents()): same directory, new contents.
	 */
	pi_judge(_metadata, PI_A, PI_A, "context", PI_A " (complain)",
		 "replaced/peer.context", 0,
		 pi_ask(_metadata, cmd[1], rep[0], PI_A " (complain)"));
	pi_intro(_metadata, "replaced", "complain",
		 blob_has_attach(&self->blob_a2) ? PI_A2_ATTACH : "<unknown>");

	pi_judge(_metadata, "unconfined", PI_A, "remove", "-", "remove", 0,
		 iface_remove(PI_A));
	/*
	 * __remove_profile() -> aa_label_remove(): __label_remove()
	 * redirects the proxy to the namespace's unconfined label; the
	 * peer is unconfined.
	 */
	pi_judge(_metadata, PI_A, PI_A, "context", "unconfined",
		 "removed/peer.context", 0,
		 pi_ask(_metadata, cmd[1], rep[0], "unconfined"));
	/* __aafs_profile_rmdir(): the directory is gone; so is the line. */
	pi_judge(_metadata, "unconfined", PI_A, "policy/profiles", "absent",
		 "removed/dir", -ENOENT,
		 aa_profile_dir(AA_FS "/policy/profiles", PI_A, dir,
				sizeof(dir)));
	pi_judge(_metadata, "unconfined", PI_A, "profiles", "absent",
		 "removed/listed", -ENOENT, list_state(PI_A, "complain"));
	pipe_write(cmd[1], "q", 1);
	close(cmd[1]);
	close(rep[0]);
	EXPECT_EQ(0, peer_reap(pid));
}

/*
 * A profile loaded as ":PI_NS:name": aa_replace_profiles() ->
 * aa_prepare_ns() creates the namespace, with its directory
 * policy/namespaces/PI_NS (__aafs_ns_mkdir()); writing ":PI_NS:" to
 * .remove removes the namespace and its profiles (aa_remove_profiles(),
 * no profile name: __aa_remove_ns()).
 */
TEST_F(iface, namespace)
{
	const char *nsdir = AA_FS "/policy/namespaces/" PI_NS;
	const char *fq = ":" PI_NS ":" PI_NS_PROFILE;
	char profiles[PATH_MAX], dir[PATH_MAX];
	int ret;

	if (path_state(AA_FS "/policy/namespaces"))
		SKIP(return, "no policy/namespaces directory on this kernel");
	pi_judge(_metadata, "unconfined", fq, "namespace", "absent",
		 "before/dir", -ENOENT, path_state(nsdir));
	pi_judge(_metadata, "unconfined", fq, "load", "whole", "load", 0,
		 iface_write(".load", self->blob_ns.data, self->blob_ns.len));
	pi_judge(_metadata, "unconfined", fq, "namespace", "present",
		 "loaded/dir", 0, path_state(nsdir));
	/* aa_label_snxprint() from the root namespace: ":ns:name (mode)". */
	pi_judge(_metadata, "unconfined", fq, "profiles", "enforce",
		 "loaded/listed", 0, list_state(fq, "enforce"));
	snprintf(profiles, sizeof(profiles), "%s/profiles", nsdir);
	ret = aa_profile_dir(profiles, PI_NS_PROFILE, dir, sizeof(dir));
	pi_judge(_metadata, "unconfined", fq, "policy/profiles", "present",
		 "loaded/profile_dir", 0, ret);
	/* seq_profile_name_show(): the base name, without the namespace. */
	pi_judge(_metadata, "unconfined", fq, "policy/profiles", PI_NS_PROFILE,
		 "loaded/name", ret ? NOT_RUN : 0,
		 ret ? NOT_RUN :
		       file_is(_metadata, dir, "name", PI_NS_PROFILE));
	/* The same blob again: the profile exists in that namespace. */
	pi_judge(_metadata, "unconfined", fq, "load", "whole", "load.exists",
		 -EEXIST,
		 iface_write(".load", self->blob_ns.data, self->blob_ns.len));
	pi_judge(_metadata, "unconfined", ":" PI_NS ":", "remove", "-",
		 "remove_ns", 0, iface_remove(":" PI_NS ":"));
	pi_judge(_metadata, "unconfined", fq, "namespace", "absent",
		 "removed/dir", -ENOENT, path_state(nsdir));
	pi_judge(_metadata, "unconfined", fq, "profiles", "absent",
		 "removed/listed", -ENOENT, list_state(fq, "enforce"));
	/* aa_lookupn_ns() finds no namespace: "namespace does not exist". */
	pi_judge(_metadata, "unconfined", ":" PI_NS ":", "remove", "-",
		 "remove_ns.again", -ENOENT, iface_remove(":" PI_NS ":"));
}

AA_HARNESS_MAIN
