// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: writes the running kernel's AppArmor feature set, flattened by
 * libapparmor (aa_features_new_from_kernel), to $LSMCONF_RESULTS/features:
 * the text apparmor_parser reads with -M / --kernel-features. Not a test
 * (it is installed beside them, never run by the suite): `lsmconf abi`
 * runs it to pin a kernel's features in abi/.
 */

#define _GNU_SOURCE
#include <sys/utsname.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "common.h"

TEST(capture)
{
	const char *dir = getenv("LSMCONF_RESULTS");
	aa_features *kernel = NULL, *back = NULL;
	char path[PATH_MAX], release[PATH_MAX];
	struct utsname u;
	int active = lsm_is_active("apparmor"), fd;

	if (active < 0)
		SKIP(return, "cannot read " LSM_LIST ": %s", strerror(-active));
	if (!active)
		SKIP(return, "AppArmor is not an active LSM");
	if (!dir || !*dir)
		SKIP(return, "LSMCONF_RESULTS is not set: nowhere to write");

	ASSERT_EQ(0, aa_features_new_from_kernel(&kernel))
	{
		TH_LOG("reading the kernel's features: %s", strerror(errno));
	}
	snprintf(path, sizeof(path), "%s/features", dir);
	ASSERT_EQ(0, aa_features_write_to_file(kernel, AT_FDCWD, path))
	{
		TH_LOG("writing %s: %s", path, strerror(errno));
	}
	/* What was written reads back as the same set. */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, aa_features_new_from_file(&back, fd));
	close(fd);
	ASSERT_TRUE(aa_features_is_equal(kernel, back));
	aa_features_unref(back);
	aa_features_unref(kernel);

	/* The release it was captured on, for abi/SOURCES. */
	ASSERT_EQ(0, uname(&u));
	snprintf(release, sizeof(release), "%s/features.release", dir);
	fd = open(release, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ASSERT_LE(0, fd);
	ASSERT_EQ(0, write_all(fd, u.release, strlen(u.release)));
	close(fd);
	TH_LOG("features of %s written to %s", u.release, path);
}

LSM_HARNESS_MAIN
