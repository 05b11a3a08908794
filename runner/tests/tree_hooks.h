/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hooks each LSM of the kernel tree make fetched (build/ksrc, the 7.2
 * tree) registers, for the unit tests that check the project's hook
 * tables against it. Include after check.h and analysis/analysis.h.
 */
#ifndef LSMCONF_TREE_HOOKS_H
#define LSMCONF_TREE_HOOKS_H

#include <stdbool.h>

#define TREE_LSMS 2
static const char *const tree_lsm_names[TREE_LSMS] = { "apparmor", "selinux" };

/*
 * Each LSM's LSM_HOOK_INIT list into @h and @n (lsm_hooks_free() each):
 * true, or false when the tree is not fetched yet (the unit tests run
 * before make fetches one).
 */
static inline bool tree_hooks(struct lsm_hook *h[TREE_LSMS],
			      size_t n[TREE_LSMS])
{
	static const char *const lists[TREE_LSMS] = {
		"security/apparmor/lsm.c", "security/selinux/hooks.c"
	};
	char *ksrc = NULL, *text;
	size_t len, l;

	if (read_file(LSMCONF_ROOT "/build/ksrc", &ksrc, &len))
		return false;
	while (len && ksrc[len - 1] == '\n')
		ksrc[--len] = '\0';
	for (l = 0; l < TREE_LSMS; l++) {
		char *path = xasprintf("%s/%s", ksrc, lists[l]);

		ck_assert_int_eq(read_file(path, &text, &len), 0);
		ck_assert_uint_eq(lsm_hooks_parse(text, &h[l], &n[l]), 0);
		free(text);
		free(path);
	}
	free(ksrc);
	return true;
}

#endif
