// SPDX-License-Identifier: GPL-2.0
#include "lsm.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

/*
 * AppArmor is in the default LSM list of Debian's kernels and of
 * lsmconf.config; SELinux is exclusive with it, so it gets a boot of its
 * own with an lsm= list naming it (selinux=1 does nothing without
 * CONFIG_SECURITY_SELINUX_BOOTPARAM). Only AppArmor compiles policy in
 * the guest (apparmor_parser, for a pinned ABI); SELinux's is compiled on
 * the host.
 */
const struct lsm lsms[] = {
	{
		.name = "apparmor",
		.boot_append = NULL,
		.tests = "apparmor",
		.src_dir = "security/apparmor",
		.hooks_src = "security/apparmor/lsm.c",
		.pins_abi = true,
	},
	{
		.name = "selinux",
		.boot_append = "lsm=landlock,lockdown,yama,selinux,bpf",
		.tests = "selinux",
		.src_dir = "security/selinux",
		.hooks_src = "security/selinux/hooks.c",
		.pins_abi = false,
	},
};
const size_t n_lsms = ARRAY_SIZE(lsms);

const struct lsm *lsm_find(const char *name)
{
	size_t i;

	for (i = 0; i < n_lsms; i++)
		if (!strcmp(lsms[i].name, name))
			return &lsms[i];
	return NULL;
}

const struct lsm *lsm_of_source(const char *path)
{
	size_t i, n;

	for (i = 0; i < n_lsms; i++) {
		n = strlen(lsms[i].src_dir);
		/* A file below the folder: "security/selinuxfs.c" is not. */
		if (!strncmp(path, lsms[i].src_dir, n) && path[n] == '/')
			return &lsms[i];
	}
	return NULL;
}

const struct lsm *lsm_pinning(void)
{
	size_t i;

	for (i = 0; i < n_lsms; i++)
		if (lsms[i].pins_abi)
			return &lsms[i];
	bug("no LSM in the table pins an ABI");
}

/* The names joined by @sep into @buf, once. */
static const char *joined(char *buf, size_t size, const char *sep)
{
	size_t i, len = 0;

	if (!*buf)
		for (i = 0; i < n_lsms; i++)
			len += snprintf(buf + len, size - len, "%s%s",
					i ? sep : "", lsms[i].name);
	return buf;
}

const char *lsm_names(void)
{
	static char buf[256];

	return joined(buf, sizeof(buf), ", ");
}

const char *lsm_all(void)
{
	static char buf[256];

	return joined(buf, sizeof(buf), ",");
}

bool lsm_listed(const char *lsms, const char *lsm)
{
	size_t n = strlen(lsm);
	const char *p = lsms;

	while (p && *p) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, lsm, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}
