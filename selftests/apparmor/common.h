/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf AppArmor selftests: helpers shared by every *_test.c.
 *
 * Helpers return 0 or -errno so that assertions read like a table:
 *	EXPECT_EQ(-EACCES, aa_policy_load(&policy));
 */

#ifndef LSMCONF_APPARMOR_COMMON_H
#define LSMCONF_APPARMOR_COMMON_H

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <sys/apparmor.h>

#include "../lsmconf/lsmconf.h"

#define AA_FS "/sys/kernel/security/apparmor"
#define AA_FEATURES AA_FS "/features"
#define AA_PROFILES AA_FS "/profiles"

/* Every profile a test loads starts with this, so leftovers are findable. */
#define AA_TEST_PREFIX "lsmconf_t_"

/*
 * Feature probe: 1 if the kernel advertises @feature (a path below
 * features/, e.g. "network_v9/af_unix"), 0 if not. A file must read "yes";
 * a directory is present by existing; a word in a file's list by being
 * there (libapparmor's aa_features_supports()).
 */
static inline int aa_feature(const char *feature)
{
	char path[PATH_MAX], val[64];
	struct stat st;
	ssize_t ret;

	snprintf(path, sizeof(path), AA_FEATURES "/%s", feature);
	if (stat(path, &st) && errno == ENOTDIR) {
		/* A word of a list ("namespaces/mask/userns_create"). */
		aa_features *f;

		if (aa_features_new_from_kernel(&f))
			return -errno;
		ret = aa_features_supports(f, feature);
		aa_features_unref(f);
		return ret;
	}
	if (stat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISDIR(st.st_mode))
		return 1;
	ret = read_text(path, val, sizeof(val));
	if (ret < 0)
		return ret;
	return !strncmp(val, "yes", 3);
}

/*
 * The file a policy build last found missing (its -ENOENT): a profile
 * template, a pinned feature set, or the parser (whatever its exec exited
 * 127 for). AA_REQUIRE_BUILT() names it.
 */
static char aa_missing[PATH_MAX + 64];

static inline int aa_missing_file(const char *path, int ret)
{
	if (ret == -ENOENT)
		snprintf(aa_missing, sizeof(aa_missing), "%s", path);
	return ret;
}

/*
 * After a policy build (in the test's own process): -ENOENT means a part
 * of the suite is missing (AA_MISSING names it). Where policy may be
 * loaded (lsmconf's guest sets ALLOW_POLICY_ENV and installs the parser,
 * the templates and the pinned sets) that is a broken installation, and
 * a skip would keep the run green and make two kernels that skip alike
 * compare as identical: the test fails, naming the path. Elsewhere (plain
 * kselftest on a machine without the parser) it skips with that reason.
 */
#define AA_MISSING (aa_missing[0] ? aa_missing : "a file (no path recorded)")
#define AA_REQUIRE_BUILT(_metadata, ret)                                     \
	do {                                                                 \
		if ((ret) != -ENOENT)                                        \
			break;                                               \
		if (policy_load_allowed()) {                                 \
			TH_LOG("missing %s (set LSMCONF_APPARMOR_PARSER, "   \
			       "LSMCONF_PROFILES, LSMCONF_ABI_DIR)",         \
			       AA_MISSING);                                  \
			ASSERT_NE(-ENOENT, (ret));                           \
		}                                                            \
		SKIP(return, "missing %.900s (set LSMCONF_APPARMOR_PARSER)", \
			   AA_MISSING);                                      \
	} while (0)

/*
 * Expands @tmpl from profiles/ into @out, replacing @NAME@, @ABI@, and
 * @PERMS@ or @RULES@ with @perms: the text the test supplies (a unix
 * permission list for the missing-permission sweep, whole rules for
 * unix_rules_test). Returns 0 or -errno (-ENAMETOOLONG when @out is too
 * small).
 */
static inline int profile_expand(const char *tmpl, const char *name,
				 const char *abi, const char *perms, char *out,
				 size_t size)
{
	char path[PATH_MAX], src[8192];
	const char *p;
	size_t len = 0;
	ssize_t ret;

	if (snprintf(path, sizeof(path), "%s/%s.profile", profiles_dir(),
		     tmpl) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	ret = read_text(path, src, sizeof(src));
	if (ret < 0)
		return aa_missing_file(path, ret);
	for (p = src; *p; p++) {
		const char *val = NULL;
		size_t skip = 0, vlen;

		if (!strncmp(p, "@NAME@", 6)) {
			val = name;
			skip = 6;
		} else if (!strncmp(p, "@ABI@", 5)) {
			val = abi;
			skip = 5;
		} else if ((!strncmp(p, "@PERMS@", 7) ||
			    !strncmp(p, "@RULES@", 7)) &&
			   perms) {
			val = perms;
			skip = 7;
		}
		if (val) {
			vlen = strlen(val);
			if (len + vlen + 1 > size)
				return -ENAMETOOLONG;
			memcpy(out + len, val, vlen);
			len += vlen;
			p += skip - 1;
			continue;
		}
		if (len + 2 > size)
			return -ENAMETOOLONG;
		out[len++] = *p;
	}
	out[len] = '\0';
	return 0;
}

static inline const char *parser_path(void)
{
	const char *env = getenv("LSMCONF_APPARMOR_PARSER");

	return env && *env ? env : "apparmor_parser";
}

/*
 * True when parser_path() names an executable file, or a name found in
 * one of $PATH's directories (execvp()'s search): every test that loads
 * policy compiles it first.
 */
static inline bool parser_found(void)
{
	const char *name = parser_path(), *dirs = getenv("PATH"), *p;
	char path[PATH_MAX];

	if (strchr(name, '/'))
		return !access(name, X_OK);
	for (p = dirs ? dirs : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		if (snprintf(path, sizeof(path), "%.*s/%s", (int)len, p, name) <
			    (int)sizeof(path) &&
		    !access(path, X_OK))
			return true;
		p += len;
		if (*p)
			p++;
	}
	return false;
}

/*
 * In a test or fixture setup (it expands the harness's SKIP): skips, with
 * the reason, unless AppArmor is active and, when @need_load, this
 * machine and process may load policy (policy_load_refusal()) and the
 * parser that compiles it is there.
 */
#define REQUIRE_APPARMOR(_metadata, need_load)                         \
	do {                                                           \
		int __active = lsm_is_active("apparmor");              \
		bool __need = (need_load);                             \
		if (__active < 0)                                      \
			SKIP(return, "cannot read " LSM_LIST ": %s",   \
				   strerror(-__active));               \
		if (!__active)                                         \
			SKIP(return, "AppArmor is not an active LSM"); \
		if (__need && policy_load_refusal())                   \
			SKIP(return, "%s", policy_load_refusal());     \
		if (__need && !parser_found())                         \
			SKIP(return,                                   \
				   "no %.900s (set "                   \
				   "LSMCONF_APPARMOR_PARSER)",         \
				   parser_path());                     \
	} while (0)

/*
 * Drops CAP_MAC_ADMIN from the task's effective, permitted and
 * inheritable sets: 0 or -errno.
 */
static inline int drop_mac_admin(void)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2];
	unsigned int bit = 1u << (CAP_MAC_ADMIN % 32);

	if (syscall(SYS_capget, &h, d))
		return -errno;
	d[CAP_MAC_ADMIN / 32].effective &= ~bit;
	d[CAP_MAC_ADMIN / 32].permitted &= ~bit;
	d[CAP_MAC_ADMIN / 32].inheritable &= ~bit;
	if (syscall(SYS_capset, &h, d))
		return -errno;
	return 0;
}

/*
 * The introspection directory of profile @name under @profiles (a
 * policy/.../profiles directory): "<name>.<N>" (apparmorfs.c,
 * __aafs_profile_mkdir(): the mangled name, '.', a counter). 0 with its
 * path in @out, -ENOENT when there is none, or -errno.
 */
static inline int aa_profile_dir(const char *profiles, const char *name,
				 char *out, size_t size)
{
	size_t nlen = strlen(name);
	struct dirent *d;
	DIR *dp = opendir(profiles);
	int ret = -ENOENT, n;

	if (!dp)
		return -errno;
	while ((d = readdir(dp)))
		if (!strncmp(d->d_name, name, nlen) && d->d_name[nlen] == '.' &&
		    d->d_name[nlen + 1] >= '0' && d->d_name[nlen + 1] <= '9') {
			n = snprintf(out, size, "%s/%s", profiles, d->d_name);
			ret = n < (int)size ? 0 : -ENAMETOOLONG;
			break;
		}
	closedir(dp);
	return ret;
}

/* A compiled, possibly loaded, test profile. */
struct aa_policy {
	char name[128];
	char blob[PATH_MAX];
	char log[PATH_MAX];
	bool loaded;
};

/* Per-boot cache of compiled blobs: they match this boot's kernel only. */
static inline int policy_cache_dir(char *dir, size_t size)
{
	char boot_id[64] = "noboot";

	read_text("/proc/sys/kernel/random/boot_id", boot_id, sizeof(boot_id));
	boot_id[8] = '\0';
	snprintf(dir, size, "/tmp/lsmconf-policy-%s-%u", boot_id, getuid());
	if (mkdir(dir, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

/* The pinned feature sets compile-time policy may be built against. */
#define AA_FEATURES_ENV "LSMCONF_AA_FEATURES"

/*
 * The directory of the pinned feature sets: $LSMCONF_ABI_DIR, else abi/
 * beside the test binary, where kselftest installs it (TEST_FILES).
 */
static inline const char *abi_dir(void)
{
	static char dir[PATH_MAX];

	return beside_binary("LSMCONF_ABI_DIR", "abi", dir, sizeof(dir));
}

/*
 * The pinned set every test compiles for ($LSMCONF_AA_FEATURES, set by
 * `lsmconf run --abi NAME`), or NULL: the running kernel's features.
 */
static inline const char *pinned_features(void)
{
	const char *env = getenv(AA_FEATURES_ENV);

	return env && *env ? env : NULL;
}

/* Opens pinned set @name (abi/NAME). Returns 0 or -errno. */
static inline int aa_pinned_open(const char *name, aa_features **f)
{
	char path[PATH_MAX];
	int fd, ret = 0;

	if (strchr(name, '/'))
		return -EINVAL;
	if (snprintf(path, sizeof(path), "%s/%s", abi_dir(), name) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return aa_missing_file(path, -errno);
	if (aa_features_new_from_file(f, fd))
		ret = -errno;
	close(fd);
	return ret;
}

/*
 * 1 when feature set @f advertises @feature (a directory, or a file that
 * reads "yes"), 0 when not: the same test as aa_feature() on securityfs.
 */
static inline int aa_features_has(aa_features *f, const char *feature)
{
	size_t len = 0;
	char *val;

	if (!aa_features_supports(f, feature))
		return 0;
	val = aa_features_value(f, feature, &len);
	/* A directory has no value of its own. */
	if (!val || !len)
		return 1;
	return !strncmp(val, "yes", 3);
}

/* The number a file feature holds ("0x000003"), 0 when absent. */
static inline unsigned long aa_features_num(aa_features *f, const char *feature)
{
	size_t len = 0;
	char *val;

	if (!aa_features_supports(f, feature))
		return 0;
	val = aa_features_value(f, feature, &len);
	return val && len ? strtoul(val, NULL, 0) : 0;
}

/*
 * Whether policy the tests compile is enforced with @feature: the running
 * kernel advertises it and, when the policy is compiled for a pinned set,
 * so does that set (the parser writes no rules for what its compile
 * features lack). 1, 0 or -errno.
 */
static inline int aa_policy_feature(const char *feature)
{
	const char *pinned = pinned_features();
	aa_features *f;
	int ret = aa_feature(feature);

	if (ret <= 0 || !pinned)
		return ret;
	ret = aa_pinned_open(pinned, &f);
	if (ret)
		return ret;
	ret = aa_features_has(f, feature);
	aa_features_unref(f);
	return ret;
}

/*
 * Enters the label of profile @name[0] (aa_change_profile) stacked with
 * @name[1] (aa_stack_profile), either NULL, and reads the task's own
 * context back into @context. With @prove, the context must show the
 * label entered: each profile named in it, "unconfined" when none was
 * (-ESRCH when not: the case would test another label). 0 or -errno.
 */
static inline int aa_enter_label(const char *const name[2], bool prove,
				 char *context, size_t size)
{
	char *con = NULL, *mode = NULL;
	int i;

	context[0] = '\0';
	for (i = 0; i < 2; i++)
		if (name[i] && (i == 0 ? aa_change_profile(name[i]) :
					 aa_stack_profile(name[i])))
			return -errno;
	if (aa_getcon(&con, &mode) < 0)
		return -errno;
	snprintf(context, size, "%s", con);
	free(con);
	if (!prove)
		return 0;
	for (i = 0; i < 2; i++)
		if (name[i] && !strstr(context, name[i]))
			return -ESRCH;
	if (!name[0] && !name[1] && strcmp(context, "unconfined"))
		return -ESRCH;
	return 0;
}

/*
 * aa_enter_label() of the test profiles AA_TEST_PREFIX @tag[i], the first
 * @n of them (0: stays unconfined), proven by the context read back into
 * @ctx (NULL: not kept).
 */
static inline int aa_enter_tags(const char *const tag[2], int n, char *ctx,
				size_t size)
{
	const char *names[2] = { NULL, NULL };
	char name[2][160], own[256];
	int i;

	for (i = 0; i < n && i < 2; i++) {
		snprintf(name[i], sizeof(name[i]), AA_TEST_PREFIX "%s", tag[i]);
		names[i] = name[i];
	}
	if (!ctx) {
		ctx = own;
		size = sizeof(own);
	}
	return aa_enter_label(names, true, ctx, size);
}

/* Writes @text to a new file @path (mode 0600). Returns 0 or -errno. */
static inline int write_text_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int ret;

	if (fd < 0)
		return -errno;
	ret = write_all(fd, text, strlen(text));
	close(fd);
	return ret;
}

/*
 * Runs the parser with the arguments of @argv (a NULL-terminated list, the
 * program name not included), its messages to @log (NULL: thrown away).
 * Returns 0, -ENOENT when there is no parser, -ENOEXEC when it failed, or
 * -errno.
 */
/*
 * Where a run's time goes: each parser call's seconds and exit status,
 * appended to $LSMCONF_RESULTS/policy.time when lsmconf runs the tests.
 */
static inline void parser_time(const struct timespec *t0, int status)
{
	const char *dir = getenv("LSMCONF_RESULTS");
	char path[PATH_MAX], line[64];
	struct timespec t1;
	int fd, n;

	if (!dir || !*dir)
		return;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	snprintf(path, sizeof(path), "%s/policy.time", dir);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%.3f\t%d\n",
		     (t1.tv_sec - t0->tv_sec) +
			     (t1.tv_nsec - t0->tv_nsec) / 1e9,
		     status);
	/*
	 * One write with O_APPEND: forked cases' lines do not mix. A line
	 * that fails to go costs a figure of the timing, never a result.
	 */
	if (write(fd, line, n) != n)
		fprintf(stderr, "# %s: short write\n", path);
	close(fd);
}

static inline int parser_run(const char *const *argv, const char *log)
{
	const char *args[80];
	struct timespec t0;
	int status, i;
	pid_t pid;

	args[0] = parser_path();
	for (i = 0; argv[i]; i++) {
		if (i + 2 >= (int)ARRAY_SIZE(args))
			return -E2BIG;
		args[i + 1] = argv[i];
	}
	args[i + 1] = NULL;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = peer_fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int out = open(log ? log : "/dev/null",
			       O_WRONLY | O_CREAT | O_TRUNC, 0600);

		if (out >= 0) {
			dup2(out, STDOUT_FILENO);
			dup2(out, STDERR_FILENO);
		}
		execvp(args[0], (char **)args);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0)
		return -errno;
	parser_time(&t0, status);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		char what[PATH_MAX + 64];

		snprintf(what, sizeof(what), "%s (its exec exited 127)",
			 args[0]);
		return aa_missing_file(what, -ENOENT);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return -ENOEXEC;
	return 0;
}

/*
 * Blobs compiled in earlier boots: lsmconf's policy seed. With
 * $LSMCONF_POLICY_SEED naming a directory that holds "parser" (the
 * parser's identity) and KEY.bin blobs, a profile whose key is there is
 * not compiled again; each blob compiled here is also left as
 * $LSMCONF_RESULTS/policy-seed/KEY.bin for lsmconf to keep. The key is
 * everything the parser's output depends on: the parser's identity (the
 * seed's "parser" and parser_path(), the program run), the
 * feature set's (libapparmor's aa_features_id() of the running kernel's
 * or the pinned set's), how it was compiled and the profile's source.
 * Without the variable (as kselftest runs the tests) every profile is
 * compiled, as before.
 */
static inline const char *policy_seed_dir(void)
{
	static int found = -1;
	const char *dir = getenv("LSMCONF_POLICY_SEED");

	if (!dir || !*dir)
		return NULL;
	/* A machine without the parser compiles nothing, seeded or not. */
	if (found < 0)
		found = parser_found();
	return found ? dir : NULL;
}

/* FNV-1a, 64 bits, of @len bytes of @data, continuing from @h. */
static inline unsigned long long fnv1a64(unsigned long long h, const void *data,
					 size_t len)
{
	const unsigned char *p = data;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

/* aa_features_id() of the pinned set at @feat_path, or of the kernel's. */
static inline int features_identity(const char *feat_path, char *out,
				    size_t size)
{
	static char kernel_id[256];
	aa_features *f;
	char *id;
	int ret;

	if (!feat_path && kernel_id[0]) {
		snprintf(out, size, "%s", kernel_id);
		return 0;
	}
	ret = feat_path ? aa_features_new(&f, AT_FDCWD, feat_path) :
			  aa_features_new_from_kernel(&f);
	if (ret)
		return -errno;
	id = aa_features_id(f);
	aa_features_unref(f);
	if (!id)
		return -ENOMEM;
	snprintf(out, size, "%s", id);
	if (!feat_path)
		snprintf(kernel_id, sizeof(kernel_id), "%s", id);
	free(id);
	return 0;
}

/*
 * The seed key of @text compiled as @how against @feat_path (NULL: the
 * kernel's features): "HASH-LENGTH". Returns 0, or -errno when there is
 * no seed to use (no seed directory, no parser identity).
 */
static inline int policy_seed_key(const char *feat_path, const char *how,
				  const char *text, char *key, size_t size)
{
	const char *dir = policy_seed_dir();
	char path[PATH_MAX], parser[256], feat[256];
	unsigned long long h = 0xcbf29ce484222325ULL;
	int ret;

	if (!dir)
		return -ENOENT;
	snprintf(path, sizeof(path), "%s/parser", dir);
	ret = read_text(path, parser, sizeof(parser));
	if (ret < 0)
		return ret;
	ret = features_identity(feat_path, feat, sizeof(feat));
	if (ret)
		return ret;
	/* Each part with its NUL: no two splits of one string collide. */
	h = fnv1a64(h, parser, strlen(parser) + 1);
	h = fnv1a64(h, parser_path(), strlen(parser_path()) + 1);
	h = fnv1a64(h, feat, strlen(feat) + 1);
	h = fnv1a64(h, how, strlen(how) + 1);
	h = fnv1a64(h, text, strlen(text) + 1);
	snprintf(key, size, "%016llx-%zu", h, strlen(text));
	return 0;
}

/* Copies @from to @to, whole or not at all (a temporary, then rename). */
static inline int copy_whole(const char *from, const char *to)
{
	char tmp[PATH_MAX + 16], buf[65536];
	int in, out, ret = 0;
	ssize_t n;

	in = open(from, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	snprintf(tmp, sizeof(tmp), "%s.%d", to, getpid());
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		ret = -errno;
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0 && !ret)
		ret = write_all(out, buf, n);
	if (n < 0 && !ret)
		ret = -errno;
	close(in);
	if (close(out) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, to))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

/* The seed's blob of @key copied to @blob: true when it was there. */
static inline bool policy_seed_take(const char *key, const char *blob)
{
	char path[PATH_MAX];

	if (snprintf(path, sizeof(path), "%s/%s.bin", policy_seed_dir(), key) >=
	    (int)sizeof(path))
		return false;
	return !access(path, R_OK) && !copy_whole(path, blob);
}

/* Blob @blob, just compiled, left for lsmconf to keep (best effort). */
static inline void policy_seed_give(const char *key, const char *blob)
{
	const char *results = getenv("LSMCONF_RESULTS");
	char path[PATH_MAX];

	if (!results || !*results ||
	    snprintf(path, sizeof(path), "%s/policy-seed", results) >=
		    (int)sizeof(path) ||
	    (mkdir(path, 0755) && errno != EEXIST) ||
	    snprintf(path, sizeof(path), "%s/policy-seed/%s.bin", results,
		     key) >= (int)sizeof(path))
		return;
	copy_whole(blob, path);
}

/*
 * Compiles profile template @tmpl for policy ABI @abi against feature set
 * @features: a pinned set of abi/ (its name), or NULL for the running
 * kernel's (the parser reads them from securityfs). Once per boot: the
 * blob is cached under @tag (and the set's name), so @tag must name the
 * template, ABI and permissions uniquely. The profile is named
 * AA_TEST_PREFIX<name>, or AA_TEST_PREFIX<tag> when @name is NULL.
 * Returns 0, -ENOEXEC when the parser rejected the profile (its messages
 * are in @p->log), or -errno.
 */
static inline int aa_policy_build_for(struct aa_policy *p, const char *tmpl,
				      const char *abi, const char *perms,
				      const char *tag, const char *name,
				      const char *features)
{
	char dir[128], src_path[PATH_MAX], tmp[PATH_MAX], text[8192];
	char file[200], feat_path[PATH_MAX], key[64];
	bool seeded;
	/*
	 * -Q: compile only; loading is the test's own, checked step.
	 * -M: the pinned set is both the compile and the kernel features
	 * (the parser reads nothing of the running kernel); the profile's
	 * own "abi" rule still sets the policy ABI.
	 */
	const char *pinned[] = { "-Q", "-q", "-M",     feat_path,
				 "-o", tmp,  src_path, NULL };
	const char *running[] = { "-Q", "-q", "-o", tmp, src_path, NULL };
	int ret;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), AA_TEST_PREFIX "%s",
		 name ? name : tag);
	if (features) {
		if (strchr(features, '/'))
			return -EINVAL;
		if (snprintf(feat_path, sizeof(feat_path), "%s/%s", abi_dir(),
			     features) >= (int)sizeof(feat_path))
			return -ENAMETOOLONG;
		if (access(feat_path, R_OK))
			return aa_missing_file(feat_path, -errno);
	}
	/*
	 * Two templates may be compiled under one name (replacements); the
	 * same template for two feature sets gives two blobs.
	 */
	snprintf(file, sizeof(file), "%s%s%s%s%s", tag, name ? "-as-" : "",
		 name ? name : "", features ? "@" : "",
		 features ? features : "");
	tag = file;
	ret = policy_cache_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(p->blob, sizeof(p->blob), "%s/%s.bin", dir, tag);
	snprintf(p->log, sizeof(p->log), "%s/%s.log", dir, tag);
	if (!access(p->blob, R_OK))
		return 0;
	ret = profile_expand(tmpl, p->name, abi, perms, text, sizeof(text));
	if (ret)
		return ret;
	seeded = !policy_seed_key(features ? feat_path : NULL, "-Q -q -o", text,
				  key, sizeof(key));
	if (seeded && policy_seed_take(key, p->blob))
		return 0;
	snprintf(src_path, sizeof(src_path), "%s/%s.profile", dir, tag);
	snprintf(tmp, sizeof(tmp), "%s/%s.bin.%d", dir, tag, getpid());
	ret = write_text_file(src_path, text);
	if (ret)
		return ret;
	ret = parser_run(features ? pinned : running, p->log);
	if (ret) {
		unlink(tmp);
		return ret;
	}
	/* Whole blobs only: a crashed compile leaves nothing behind. */
	if (rename(tmp, p->blob))
		return -errno;
	if (seeded)
		policy_seed_give(key, p->blob);
	return 0;
}

/*
 * Compiles as aa_policy_build_for(), for the pinned set the run asked for
 * ($LSMCONF_AA_FEATURES) or else the running kernel.
 */
static inline int aa_policy_build_as(struct aa_policy *p, const char *tmpl,
				     const char *abi, const char *perms,
				     const char *tag, const char *name)
{
	return aa_policy_build_for(p, tmpl, abi, perms, tag, name,
				   pinned_features());
}

static inline int aa_policy_build(struct aa_policy *p, const char *tmpl,
				  const char *abi, const char *perms,
				  const char *tag)
{
	return aa_policy_build_as(p, tmpl, abi, perms, tag, NULL);
}

static inline int aa_policy_compile(struct aa_policy *p, const char *tmpl,
				    const char *abi, const char *tag)
{
	return aa_policy_build(p, tmpl, abi, NULL, tag);
}

/* One profile source for aa_policy_build_all(): as aa_policy_build(). */
struct aa_policy_src {
	const char *tmpl;
	const char *perms;
	const char *tag;
};

/* The one directory below @dir (the parser's features-hash cache). */
static inline int only_subdir(const char *dir, char *out, size_t size)
{
	struct dirent *d;
	DIR *dp = opendir(dir);
	int ret = -ENOENT;

	if (!dp)
		return -errno;
	while ((d = readdir(dp)))
		if (d->d_name[0] != '.' && d->d_type == DT_DIR) {
			snprintf(out, size, "%s/%s", dir, d->d_name);
			ret = 0;
			break;
		}
	closedir(dp);
	return ret;
}

/*
 * Compiles every source of @src not yet in this boot's cache in ONE parser
 * run (its start-up, not the compilation, costs most under emulation),
 * into the blobs aa_policy_build() then finds. Returns 0 or -errno; on
 * any failure the caller's aa_policy_build() compiles each on its own
 * and reports the one the parser rejects.
 */
static inline int aa_policy_build_all(const char *abi,
				      const struct aa_policy_src *src, int n)
{
	char dir[128], out[160], sub[512], from[PATH_MAX];
	char text[8192], name[160], path[PATH_MAX], key[64][64];
	const char *argv[64 + 8];
	int argc = 0, i, ret;

	if (n > 64)
		return -E2BIG;
	ret = policy_cache_dir(dir, sizeof(dir));
	if (ret)
		return ret;
	snprintf(out, sizeof(out), "%s/all.%d", dir, getpid());
	argv[argc++] = "-Q";
	argv[argc++] = "-q";
	argv[argc++] = "-W";
	argv[argc++] = "-L";
	argv[argc++] = out;
	for (i = 0; i < n; i++) {
		key[i][0] = '\0';
		snprintf(path, sizeof(path), "%s/%s.bin", dir, src[i].tag);
		if (!access(path, R_OK))
			continue;
		snprintf(name, sizeof(name), AA_TEST_PREFIX "%s", src[i].tag);
		ret = profile_expand(src[i].tmpl, name, abi, src[i].perms, text,
				     sizeof(text));
		if (ret)
			return ret;
		if (!policy_seed_key(NULL, "-Q -q -W -L", text, key[i],
				     sizeof(key[i])) &&
		    policy_seed_take(key[i], path))
			continue;
		snprintf(path, sizeof(path), "%s/%s.profile", dir, src[i].tag);
		ret = write_text_file(path, text);
		if (ret)
			return ret;
		argv[argc++] = strdup(path);
	}
	argv[argc] = NULL;
	if (argc == 5)
		return 0;
	ret = parser_run(argv, NULL);
	for (i = 5; i < argc; i++)
		free((char *)argv[i]);
	if (ret)
		return ret;
	/* No cache directory written is no missing file: not -ENOENT. */
	ret = only_subdir(out, sub, sizeof(sub));
	if (ret)
		return ret == -ENOENT ? -ENODATA : ret;
	for (i = 0; i < n; i++) {
		snprintf(from, sizeof(from), "%s/%s.profile", sub, src[i].tag);
		snprintf(path, sizeof(path), "%s/%s.bin", dir, src[i].tag);
		/* Whole blobs only, as aa_policy_build() leaves them. */
		if (access(from, R_OK))
			continue;
		if (rename(from, path))
			return -errno;
		if (key[i][0])
			policy_seed_give(key[i], path);
	}
	snprintf(from, sizeof(from), "%s/.features", sub);
	unlink(from);
	rmdir(sub);
	rmdir(out);
	return 0;
}

/* A compiled blob in memory, at most AA_BLOB_MAX bytes. */
#define AA_BLOB_MAX (1 << 20)

struct aa_blob {
	char *data;
	size_t len;
};

/* Reads the compiled blob @path whole into @b (freed by the caller). */
static inline int aa_blob_read(const char *path, struct aa_blob *b)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	b->data = NULL;
	b->len = 0;
	if (fd < 0)
		return -errno;
	b->data = malloc(AA_BLOB_MAX);
	if (!b->data) {
		close(fd);
		return -ENOMEM;
	}
	while ((n = read(fd, b->data + b->len, AA_BLOB_MAX - b->len)) > 0)
		b->len += n;
	close(fd);
	if (n < 0)
		return -errno;
	return b->len == AA_BLOB_MAX ? -EFBIG : 0;
}

/* Loads (or replaces) a compiled profile. Returns 0 or -errno. */
static inline int aa_policy_load(struct aa_policy *p)
{
	aa_kernel_interface *kif;
	int ret = 0;

	if (!policy_load_allowed())
		return -EPERM;
	if (aa_kernel_interface_new(&kif, NULL, NULL))
		return -errno;
	if (aa_kernel_interface_replace_policy_from_file(kif, AT_FDCWD,
							 p->blob))
		ret = -errno;
	else
		p->loaded = true;
	aa_kernel_interface_unref(kif);
	return ret;
}

/* Removes a profile by name. Returns 0 or -errno (-ENOENT if absent). */
static inline int aa_profile_remove(const char *name)
{
	aa_kernel_interface *kif;
	int ret = 0;

	if (aa_kernel_interface_new(&kif, NULL, NULL))
		return -errno;
	if (aa_kernel_interface_remove_policy(kif, name))
		ret = -errno;
	aa_kernel_interface_unref(kif);
	return ret;
}

/* Unloads the profile if loaded; the compiled blob stays cached. */
static inline int aa_policy_destroy(struct aa_policy *p)
{
	int ret = 0;

	if (p->loaded) {
		ret = aa_profile_remove(p->name);
		p->loaded = false;
	}
	return ret;
}

/*
 * The kernel's loaded profile list, one "name (mode)" per line. Returns
 * the length or -errno.
 */
static inline ssize_t aa_profile_list(char *buf, size_t size)
{
	return read_text(AA_PROFILES, buf, size);
}

/*
 * How every fixture that loads profiles ends: the kernel's profile list is
 * again @before, the one taken at setup (the suite never leaves policy
 * loaded). A macro because it expects inside the running case.
 */
#define EXPECT_PROFILES_AS_BEFORE(before)                              \
	do {                                                           \
		static char _after[65536];                             \
		EXPECT_LE(0, aa_profile_list(_after, sizeof(_after))); \
		EXPECT_STREQ(before, _after);                          \
	} while (0)

/* True when @list holds a line for exactly profile @name. */
static inline bool aa_list_has(const char *list, const char *name)
{
	size_t nlen = strlen(name);
	const char *line = list;

	while (line && *line) {
		if (!strncmp(line, name, nlen) && line[nlen] == ' ')
			return true;
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return false;
}

/*
 * Removes test profiles a crashed run may have left behind, so the suite
 * never leaves policy loaded. Returns how many were removed or -errno.
 */
static inline int aa_remove_leftovers(void)
{
	char list[65536], name[256];
	const char *line = list;
	int removed = 0;
	ssize_t ret;

	ret = aa_profile_list(list, sizeof(list));
	if (ret < 0)
		return ret;
	while (*line) {
		size_t len = strcspn(line, "\n ");

		if (!strncmp(line, AA_TEST_PREFIX, strlen(AA_TEST_PREFIX)) &&
		    len < sizeof(name)) {
			memcpy(name, line, len);
			name[len] = '\0';
			if (!aa_profile_remove(name))
				removed++;
		}
		line += strcspn(line, "\n");
		if (*line)
			line++;
	}
	return removed;
}

/*
 * Loads @p unless a profile of its name is loaded already, and leaves it
 * loaded: a test binary that uses AA_HARNESS_MAIN keeps the labels its
 * cases share from first use to its end, where all of them are removed.
 * Loading and removing them case by case was half of unix_peer_test's time
 * under TCG. Safe because a name always holds the same profile: the tag a
 * profile is named after names its template, ABI and permissions. Returns
 * 0 or -errno.
 */
static inline int aa_policy_load_shared(struct aa_policy *p)
{
	static char list[65536];
	ssize_t ret = aa_profile_list(list, sizeof(list));

	if (ret < 0)
		return ret;
	if (!aa_list_has(list, p->name)) {
		ret = aa_policy_load(p);
		if (ret)
			return ret;
	}
	/* Not this case's to remove: the binary removes it at its end. */
	p->loaded = false;
	return 0;
}

#endif /* LSMCONF_APPARMOR_COMMON_H */
