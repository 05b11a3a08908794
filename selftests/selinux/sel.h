/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf SELinux selftests: loading the project's CIL policies (compiled
 * by secilc into profiles/lsmconf-cN.bin, N categories) and entering test
 * domains. Helpers return 0 or -errno.
 *
 * An SELinux policy cannot be unloaded: these tests load one only where
 * the operator allowed it and only over no policy or over one of their own,
 * so they never replace a real machine's policy.
 */

#ifndef LSMCONF_SEL_H
#define LSMCONF_SEL_H

#include "../lsmconf/lsmconf.h"

#include <assert.h>
#include <selinux/selinux.h>
#include <stdarg.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/un.h>

#define SEL_FS "/sys/fs/selinux"
#define SEL_USER_ROLE "lsmconf_u:lsmconf_r:"
/* A type only the project's policy has: marks a loaded policy as ours. */
#define SEL_OWN_MARK "lsmconf_srv_t"

/* libselinux finds selinuxfs through /proc/mounts: mount it first. */
static inline int sel_mount(void)
{
	struct stat st;

	if (!stat(SEL_FS "/enforce", &st))
		return 0;
	if (mount("selinuxfs", SEL_FS, "selinuxfs", 0, NULL))
		return -errno;
	set_selinuxmnt(SEL_FS);
	return 0;
}

/* Reads a whole binary file into a malloc'ed buffer. */
static inline int sel_read_file(const char *path, char **data, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = 0;

	if (!buf || fd < 0) {
		ret = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *bigger = realloc(buf, cap *= 2);

			if (!bigger) {
				ret = -ENOMEM;
				goto out;
			}
			buf = bigger;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			goto out;
		}
		if (!r)
			break;
		n += r;
	}
out:
	if (fd >= 0)
		close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	*data = buf;
	*len = n;
	return 0;
}

/*
 * 1 when the loaded policy is one of ours, 0 when no policy is loaded,
 * -EPERM when someone else's is: that one must stay.
 */
static inline int sel_loaded_policy_is_ours(void)
{
	char *data;
	size_t len;
	int ret = sel_read_file(SEL_FS "/policy", &data, &len);

	/* selinuxfs refuses to read the policy before one is loaded. */
	if (ret == -EINVAL || ret == -ENOENT)
		return 0;
	if (ret)
		return ret;
	ret = memmem(data, len, SEL_OWN_MARK, strlen(SEL_OWN_MARK)) ? 1 :
								      -EPERM;
	free(data);
	return ret;
}

#define SEL_NAME_MAX 64

/* The name of the project's policy with @cats categories, in @buf. */
static inline const char *sel_cats_name(int cats, char buf[SEL_NAME_MAX])
{
	snprintf(buf, SEL_NAME_MAX, "lsmconf-c%d.bin", cats);
	return buf;
}

/*
 * The name of the policy this binary loaded last, or "": shared memory,
 * since the harness runs each case in a child of its own. Only this
 * binary's loads change the policy while it runs, so a case finds here
 * whether the one it needs is in place (sel_need_named()).
 */
static char *sel_loaded_name;

static void __attribute__((constructor)) sel_loaded_init(void)
{
	void *p = mmap(NULL, SEL_NAME_MAX, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	sel_loaded_name = p == MAP_FAILED ? NULL : p;
}

/*
 * Loads the project's compiled policy @name from profiles/ (in one write,
 * as the kernel wants it) and switches to enforcing.
 */
static inline int sel_load_named(const char *name)
{
	char path[PATH_MAX * 2], *data;
	size_t len;
	int ret;

	if (!policy_load_allowed())
		return -EPERM;
	if (strlen(name) >= SEL_NAME_MAX)
		return -ENAMETOOLONG;
	ret = sel_mount();
	if (ret)
		return ret;
	ret = sel_loaded_policy_is_ours();
	if (ret < 0)
		return ret;
	snprintf(path, sizeof(path), "%s/%s", profiles_dir(), name);
	ret = sel_read_file(path, &data, &len);
	if (ret)
		return ret;
	/* Whatever a failed load leaves is no known policy. */
	if (sel_loaded_name)
		sel_loaded_name[0] = '\0';
	ret = security_load_policy(data, len) ? -errno : 0;
	free(data);
	if (ret)
		return ret;
	if (sel_loaded_name)
		strcpy(sel_loaded_name, name);
	return security_setenforce(1) ? -errno : 0;
}

/*
 * The one way a case gets its policy: loads @name unless this binary
 * loaded it last (a load costs a reload and an AVC flush), and makes sure
 * SELinux enforces. 1 when it loaded (@load_ms: what it cost), 0 when the
 * policy was in place, or -errno.
 */
static inline int sel_need_named(const char *name, long long *load_ms)
{
	long long start = now_ns();
	int ret;

	*load_ms = 0;
	if (sel_loaded_name && !strcmp(sel_loaded_name, name))
		return security_setenforce(1) ? -errno : 0;
	ret = sel_load_named(name);
	*load_ms = (now_ns() - start) / 1000000;
	return ret ?: 1;
}

/* The policy with @cats categories (lsmconf-c@cats.bin) as above. */
static inline int sel_need(int cats, long long *load_ms)
{
	char name[SEL_NAME_MAX];

	return sel_need_named(sel_cats_name(cats, name), load_ms);
}

/*
 * A fixture's setup (kselftest_harness.h): policy @name in place and
 * enforcing, or the case fails.
 */
#define SEL_NEED_NAMED(name)                                               \
	do {                                                               \
		long long _ms;                                             \
		int _ret = sel_need_named(name, &_ms);                     \
		ASSERT_LE(0, _ret);                                        \
		if (_ret)                                                  \
			TH_LOG("loaded %s in %lld ms", (const char *)name, \
			       _ms);                                       \
		ASSERT_EQ(1, sel_enforcing());                             \
	} while (0)

#define SEL_NEED(cats)                                      \
	do {                                                \
		char _name[SEL_NAME_MAX];                   \
		SEL_NEED_NAMED(sel_cats_name(cats, _name)); \
	} while (0)

/* The project's policy with @cats categories (lsmconf-c@cats.bin). */
static inline int sel_load(int cats)
{
	char name[SEL_NAME_MAX];

	return sel_load_named(sel_cats_name(cats, name));
}

/* 1 enforcing, 0 permissive, as the kernel reports it; or -errno. */
static inline int sel_enforcing(void)
{
	char val[8];
	ssize_t ret = read_text(SEL_FS "/enforce", val, sizeof(val));

	if (ret < 0)
		return ret;
	return val[0] == '1';
}

static inline int sel_set_enforcing(int on)
{
	if (security_setenforce(on))
		return -errno;
	return sel_enforcing() == on ? 0 : -EIO;
}

/*
 * A context of the test policy, its levels as sets of categories of the
 * one sensitivity s0 (c0 is bit 0): the form the MLS models compute with.
 */
struct sel_ctx {
	const char *user, *role, *type;
	unsigned int low, high;
};

/* @a dominates @b: one sensitivity, so a superset of categories. */
static inline bool sel_dom(unsigned int a, unsigned int b)
{
	return (a & b) == b;
}

/* A level as the policy writes it: "s0", "s0:c0,c1". */
static inline void sel_level_text(unsigned int set, char *out, size_t size)
{
	int c, n = snprintf(out, size, "s0");

	for (c = 0; c < 32 && n > 0 && (size_t)n < size; c++)
		if (set & (1u << c))
			n += snprintf(out + n, size - n, "%sc%d",
				      n == 2 ? ":" : ",", c);
}

/* "USER:ROLE:TYPE:LOW", and "-HIGH" when the range has two levels. */
static inline void sel_ctx_text(const struct sel_ctx *c, char *out, size_t size)
{
	char low[160], high[160];

	sel_level_text(c->low, low, sizeof(low));
	sel_level_text(c->high, high, sizeof(high));
	snprintf(out, size, "%s:%s:%s:%s%s%s", c->user, c->role, c->type, low,
		 c->low == c->high ? "" : "-", c->low == c->high ? "" : high);
}

/* Switches the calling (single-threaded) process to @type at @level. */
static inline int sel_enter(const char *type, const char *level)
{
	char ctx[256];

	snprintf(ctx, sizeof(ctx), SEL_USER_ROLE "%s:%s", type, level);
	return setcon(ctx) ? -errno : 0;
}

/* Reads @path into @out ("" when empty), dropping the NUL the kernel adds. */
static inline int sel_read_attr(const char *path, char *out, size_t size)
{
	ssize_t n = read_text(path, out, size);

	if (n < 0) {
		out[0] = '\0';
		return n;
	}
	out[strcspn(out, "\n")] = '\0';
	return 0;
}

/*
 * A selinuxfs transaction file (access, context, create, relabel, member): one write of the query,
 * then one read of the answer on the same descriptor (simple_transaction).
 */
static inline int sel_transact(const char *file, const char *query,
			       char *answer, size_t size)
{
	int fd = open(file, O_RDWR | O_CLOEXEC), ret = 0;
	ssize_t n;

	answer[0] = '\0';
	if (fd < 0)
		return -errno;
	if (write(fd, query, strlen(query)) < 0) {
		ret = -errno;
		goto out;
	}
	n = read(fd, answer, size - 1);
	if (n < 0) {
		ret = -errno;
		goto out;
	}
	answer[n] = '\0';
	answer[strcspn(answer, "\n")] = '\0';
out:
	close(fd);
	return ret;
}

/* The guard every test's setup runs: SKIP reasons, or 0. */
static inline const char *sel_unusable(void)
{
	int active = lsm_is_active("selinux");

	if (active < 0)
		return "cannot read " LSM_LIST;
	if (!active)
		return "SELinux is not an active LSM (boot with lsm=...,selinux)";
	return policy_load_refusal();
}

/*
 * The permission a test domain lacks, read from its name
 * (lsmconf_s_no_write_t lacks "write"), or "" when it lacks none.
 */
static inline void sel_lacks(const char *type, char *perm, size_t size)
{
	const char *p = strstr(type, "_no_");
	size_t n;

	perm[0] = '\0';
	if (!p)
		return;
	p += 4;
	n = strlen(p);
	if (n < 2 || strcmp(p + n - 2, "_t"))
		return;
	snprintf(perm, size, "%.*s", (int)(n - 2), p);
}

/* A System V message as the tests send it (msgsnd/msgrcv's msgbuf). */
struct sel_msg {
	long mtype;
	char text[64];
};

/* True when the domain @type lacks @perm (see sel_lacks()). */
static inline bool sel_domain_lacks(const char *type, const char *perm)
{
	char missing[64];

	sel_lacks(type, missing, sizeof(missing));
	return !strcmp(missing, perm);
}

/*
 * Fills @a with the abstract AF_UNIX address named by @fmt (no file, gone
 * with its socket) and returns its length for bind() and connect().
 */
__attribute__((format(printf, 2, 3))) static inline socklen_t
sel_abstract_addr(struct sockaddr_un *a, const char *fmt, ...)
{
	va_list ap;
	int n;

	memset(a, 0, sizeof(*a));
	a->sun_family = AF_UNIX;
	va_start(ap, fmt);
	n = vsnprintf(a->sun_path + 1, sizeof(a->sun_path) - 1, fmt, ap);
	va_end(ap);
	if (n < 0 || n >= (int)sizeof(a->sun_path) - 1)
		n = sizeof(a->sun_path) - 2; /* cut: still one name */
	return offsetof(struct sockaddr_un, sun_path) + 1 + n;
}

/*
 * A fixture's setup: SKIP where SELinux cannot be used, else the policy
 * with @cats categories in place and enforcing.
 */
#define SEL_SETUP(cats)                            \
	do {                                       \
		const char *_why = sel_unusable(); \
		if (_why)                          \
			SKIP(return, "%s", _why);  \
		SEL_NEED(cats);                    \
	} while (0)

#endif /* LSMCONF_SEL_H */
