// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: probe AppArmor and its advertised features, and prove that a
 * test profile can be loaded and removed without leaving a trace.
 */

#define _GNU_SOURCE
#include <dirent.h>

#include "../kselftest_harness.h"
#include "common.h"

TEST(apparmor_active)
{
	struct stat st;

	REQUIRE_APPARMOR(_metadata, false);
	/* An active AppArmor must expose its policy interface. */
	ASSERT_EQ(0, stat(AA_FEATURES, &st));
	ASSERT_TRUE(S_ISDIR(st.st_mode));
	ASSERT_EQ(0, access(AA_FS "/.replace", W_OK));
	ASSERT_EQ(0, access(AA_FS "/.remove", W_OK));
	ASSERT_EQ(1, aa_is_enabled());
}

/* Each named feature the suite's expectations may depend on. */
FIXTURE(feature){};

FIXTURE_VARIANT(feature)
{
	const char *path;
	/* The feature this one refines: it cannot exist without it. */
	const char *parent;
};

/* clang-format off */
FIXTURE_VARIANT_ADD(feature, network) {
	.path = "network",
	.parent = NULL,
};

FIXTURE_VARIANT_ADD(feature, network_v8) {
	.path = "network_v8",
	.parent = NULL,
};

FIXTURE_VARIANT_ADD(feature, network_v9) {
	.path = "network_v9",
	.parent = NULL,
};

FIXTURE_VARIANT_ADD(feature, network_v9_af_unix) {
	.path = "network_v9/af_unix",
	.parent = "network_v9",
};

FIXTURE_VARIANT_ADD(feature, policy_versions) {
	.path = "policy/versions",
	.parent = "policy",
};
/* clang-format on */

FIXTURE_SETUP(feature)
{
	REQUIRE_APPARMOR(_metadata, false);
}

FIXTURE_TEARDOWN(feature)
{
}

TEST_F(feature, advertised)
{
	char path[PATH_MAX], val[4096];
	struct stat st;
	int present;

	present = aa_feature(variant->path);
	ASSERT_LE(0, present)
	{
		TH_LOG("cannot probe feature %s: %s", variant->path,
		       strerror(-present));
	}
	/* The line the host reads to report features per kernel. */
	TH_LOG("feature %s: %s", variant->path, present ? "yes" : "no");
	if (!present)
		return;

	/* A refinement never appears without what it refines. */
	if (variant->parent)
		ASSERT_EQ(1, aa_feature(variant->parent));

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
	if (ret == -ENOENT)
		SKIP(return,
			   "no apparmor_parser (set LSMCONF_APPARMOR_PARSER)");
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

TEST_HARNESS_MAIN
