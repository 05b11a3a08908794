// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: probe AppArmor and its advertised features, and prove that a
 * test profile can be loaded and removed without leaving a trace.
 */

#define _GNU_SOURCE
#include <dirent.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "../lsmconf/judge.h"
#include "common.h"

TEST(apparmor_active)
{
	struct stat st;

	REQUIRE_APPARMOR(_metadata, false);
	/* An active AppArmor must expose its policy interface. */
	ASSERT_EQ(0, stat(AA_FEATURES, &st));
	ASSERT_TRUE(S_ISDIR(st.st_mode));
	ASSERT_EQ(0, access(AA_FS "/.replace", F_OK));
	ASSERT_EQ(0, access(AA_FS "/.remove", F_OK));
	/* Both are root's (mode 0640 and 0220): others may not write them. */
	if (getuid())
		SKIP(return, "not root: .replace and .remove are root's");
	ASSERT_EQ(0, access(AA_FS "/.replace", W_OK));
	ASSERT_EQ(0, access(AA_FS "/.remove", W_OK));
	ASSERT_EQ(1, aa_is_enabled());
}

/*
 * Each named feature the suite's expectations depend on, and what must be
 * advertised with it, computed from the kernel's own features/ files: a
 * kernel whose advertisement is inconsistent fails here, by name, instead
 * of steering every other test's model (which reads these same files).
 */
FIXTURE(feature) {};

FIXTURE_VARIANT(feature)
{
	const char *path;
	/*
	 * The feature it is advertised together with: both or neither
	 * (NULL: it stands alone and @always says whether it must be there).
	 */
	const char *with;
	bool always;
	/* A feature that must be there whenever this one is (or NULL). */
	const char *needs;
};

/* clang-format off */
/*
 * The out-of-tree (Ubuntu) network ABI of the kernel-5.4-outoftree-network
 * policy: mainline apparmorfs.c registers network_v8 and network_v9 only,
 * so the suite's coarse model is network_v8's.
 */
FIXTURE_VARIANT_ADD(feature, network) {
	.path = "network",
	.always = false,
};

/*
 * Coarse socket mediation (net.c, since 4.17): every kernel the suite
 * targets has it; unix_coarse_test and inet_test model it.
 */
FIXTURE_VARIANT_ADD(feature, network_v8) {
	.path = "network_v8",
	.always = true,
};

/*
 * The v9 network ABI came with fine-grained AF_UNIX mediation (6.17):
 * net.c's aa_sfs_entry_networkv9 holds its af_unix entry, so a kernel has
 * both or neither (abi/6.12 neither, abi/7.2 both), and network_v8 stays
 * beside it for older policy.
 */
FIXTURE_VARIANT_ADD(feature, network_v9) {
	.path = "network_v9",
	.with = "network_v9/af_unix",
	.needs = "network_v8",
};

FIXTURE_VARIANT_ADD(feature, network_v9_af_unix) {
	.path = "network_v9/af_unix",
	.with = "network_v9",
	.needs = "network_v8",
};

/* Which policy versions the kernel unpacks: every blob needs one. */
FIXTURE_VARIANT_ADD(feature, policy_versions) {
	.path = "policy/versions",
	.always = true,
	.needs = "policy",
};
/* clang-format on */

FIXTURE_SETUP(feature)
{
	REQUIRE_APPARMOR(_metadata, false);
}

FIXTURE_TEARDOWN(feature)
{
}

/* 1 when @feature is advertised, 0 when not; fails the case on -errno. */
#define PROBE(_feature)                                                   \
	({                                                                \
		int __p = aa_feature(_feature);                           \
		ASSERT_LE(0, __p)                                         \
		{                                                         \
			TH_LOG("cannot probe feature %s: %s", (_feature), \
			       strerror(-__p));                           \
		}                                                         \
		__p;                                                      \
	})

TEST_F(feature, advertised)
{
	char path[PATH_MAX], val[4096], depends[128] = "-";
	struct record rec = { .class = "feature", .op = "advertised" };
	struct stat st;
	int present, want;

	present = PROBE(variant->path);
	/* The line the host reads to report features per kernel. */
	TH_LOG("feature %s: %s", variant->path, present ? "yes" : "no");
	want = variant->always;
	if (variant->with) {
		/* Advertised together: this one's model is the other's state. */
		want = PROBE(variant->with);
		snprintf(depends, sizeof(depends), "%s=%s", variant->with,
			 want ? "yes" : "no");
	}
	/* Advertised is "allow", not advertised ENOENT (no such file). */
	rec.depends = depends;
	rec.expected = want ? 0 : -ENOENT;
	rec.observed = present ? 0 : -ENOENT;
	JUDGE(&rec);
	if (want != present) {
		TH_LOG("%s is %sadvertised, but %s", variant->path,
		       present ? "" : "not ",
		       variant->with ? depends :
				       "the suite's kernels all agree");
		return;
	}
	if (!present)
		return;

	if (variant->needs)
		ASSERT_EQ(1, PROBE(variant->needs))
		{
			TH_LOG("%s is advertised without %s", variant->path,
			       variant->needs);
		}

	/* A present file feature must read exactly "yes" or list values. */
	snprintf(path, sizeof(path), AA_FEATURES "/%s", variant->path);
	ASSERT_EQ(0, stat(path, &st));
	if (S_ISREG(st.st_mode)) {
		ASSERT_LT(0, read_text(path, val, sizeof(val)));
		ASSERT_EQ('\n', val[strlen(val) - 1]);
	} else {
		DIR *dir = opendir(path);
		int entries = 0;
		struct dirent *de;

		/* A feature directory with nothing in it advertises nothing. */
		ASSERT_NE(NULL, dir);
		while ((de = readdir(dir)))
			entries += de->d_name[0] != '.';
		closedir(dir);
		ASSERT_LT(0, entries);
	}
}

FIXTURE(profile)
{
	struct aa_policy policy;
	char before[65536];
};

/* The policy ABIs the suite compiles for, oldest first. */
FIXTURE_VARIANT(profile)
{
	const char *abi;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(profile, abi_kernel_5_4_vanilla) {
	.abi = "kernel-5.4-vanilla",
};

FIXTURE_VARIANT_ADD(profile, abi_3_0) {
	.abi = "3.0",
};

FIXTURE_VARIANT_ADD(profile, abi_4_0) {
	.abi = "4.0",
};

FIXTURE_VARIANT_ADD(profile, abi_5_0) {
	.abi = "5.0",
};
/* clang-format on */

FIXTURE_SETUP(profile)
{
	char tag[64];
	ssize_t ret;

	REQUIRE_APPARMOR(_metadata, true);
	ASSERT_LE(0, aa_remove_leftovers());
	ret = aa_profile_list(self->before, sizeof(self->before));
	ASSERT_LE(0, ret);
	snprintf(tag, sizeof(tag), "trivial_%s", variant->abi);
	ret = aa_policy_compile(&self->policy, "trivial", variant->abi, tag);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret)
	{
		TH_LOG("compiling the trivial profile failed; see %s",
		       self->policy.log);
	}
}

FIXTURE_TEARDOWN(profile)
{
	EXPECT_EQ(0, aa_policy_destroy(&self->policy));
}

TEST_F(profile, load_list_remove)
{
	static char during[65536], after[65536];

	ASSERT_EQ(0, aa_policy_load(&self->policy));
	ASSERT_LE(0, aa_profile_list(during, sizeof(during)));
	ASSERT_TRUE(aa_list_has(during, self->policy.name));
	/* The test profile was not in the list before it was loaded. */
	ASSERT_FALSE(aa_list_has(self->before, self->policy.name));

	ASSERT_EQ(0, aa_profile_remove(self->policy.name));
	self->policy.loaded = false;
	/* A second removal finds nothing to remove. */
	ASSERT_EQ(-ENOENT, aa_profile_remove(self->policy.name));

	ASSERT_LE(0, aa_profile_list(after, sizeof(after)));
	ASSERT_STREQ(self->before, after);
}

TEST_F(profile, replace_keeps_one_entry)
{
	static char during[65536];
	const char *first;

	ASSERT_EQ(0, aa_policy_load(&self->policy));
	/* Replacing a profile by the same name must not duplicate it. */
	ASSERT_EQ(0, aa_policy_load(&self->policy));
	ASSERT_LE(0, aa_profile_list(during, sizeof(during)));
	first = strstr(during, self->policy.name);
	ASSERT_NE(NULL, first);
	ASSERT_EQ(NULL, strstr(first + 1, self->policy.name));
}

/* Loads @len bytes of @data as a policy blob; returns 0 or -errno. */
static int load_bytes(const char *data, size_t len)
{
	struct aa_policy bad = { 0 };
	int fd, ret;

	snprintf(bad.blob, sizeof(bad.blob), "/tmp/lsmconf-bad-%d", getpid());
	fd = open(bad.blob, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, data, len);
	close(fd);
	if (!ret)
		ret = aa_policy_load(&bad);
	unlink(bad.blob);
	return ret;
}

TEST_F(profile, junk_blob_rejected)
{
	static const char junk[] = "this is not a policy blob\n";
	static char list[65536];

	/* No "version" header at all: verify_header() says EPROTONOSUPPORT. */
	EXPECT_EQ(-EPROTONOSUPPORT, load_bytes(junk, sizeof(junk) - 1));
	ASSERT_LE(0, aa_profile_list(list, sizeof(list)));
	ASSERT_STREQ(self->before, list);
}

TEST_F(profile, truncated_blob_rejected)
{
	static char list[65536];
	char *blob;
	size_t len;
	int fd;

	blob = malloc(1 << 20);
	ASSERT_NE(NULL, blob);
	fd = open(self->policy.blob, O_RDONLY);
	ASSERT_LE(0, fd);
	len = read(fd, blob, 1 << 20);
	close(fd);
	ASSERT_LT(64, len);

	/* A valid header, then a profile cut in half: unpack fails, EPROTO. */
	EXPECT_EQ(-EPROTO, load_bytes(blob, len / 2));
	free(blob);
	ASSERT_LE(0, aa_profile_list(list, sizeof(list)));
	ASSERT_STREQ(self->before, list);
}

LSM_HARNESS_MAIN
