// SPDX-License-Identifier: GPL-2.0
/*
 * The v1 ids of selftests/apparmor/'s socket-matrix tests mapped to
 * today's (legacy.h). Their v1 ids named the matrix point; today's name
 * the KTAP case, whose variant name is the same point with its values
 * joined by "__":
 *
 *   unix_peer/ABI/TYPE/ADDRESS/SENDER/RECEIVER/SIDE.OP
 *     -> unix_peer_test/unix_peer.ABI__TYPE__ADDRESS__SENDER__RECEIVER.decisions/SIDE.OP
 *   inet/ABI/FAMILY/TYPE/CLIENT/SERVER/SIDE.OP
 *     -> inet_test/inet.ABI__FAMILY__TYPE__CLIENT__SERVER.decisions/SIDE.OP
 *   unix_coarse/ABI/RULE/TYPE/ADDRESS/CASE/SIDE.OP (one KTAP case per ABI)
 *     -> unix_coarse_test/unix_coarse.ABI.decisions/RULE/TYPE/ADDRESS/CASE/SIDE.OP
 *
 * where ABI is the variant's: "5.0" -> abi_5_0, "kernel-5.4-vanilla" ->
 * abi_vanilla; and a stacked label "a//&b" is the variant's a_and_b.
 * An id of these areas of another shape is -EINVAL: no other rule knows it.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "results/legacy.h"

/* A v1 id's field is at most this long. */
#define V1_FIELD 128

/* The variant's name of policy ABI @abi in @out: 0 or -errno. */
static int abi_variant(const char *abi, char *out, size_t size)
{
	size_t i, n;

	if (!strcmp(abi, "kernel-5.4-vanilla"))
		return snprintf(out, size, "abi_vanilla") < (int)size ?
			       0 :
			       -ENAMETOOLONG;
	/* "N.M": the pinned ABIs (3.0, 4.0, 5.0). */
	n = strlen(abi);
	if (n < 3 || n + 4 >= size || !strchr(abi, '.'))
		return -EINVAL;
	memcpy(out, "abi_", 4);
	for (i = 0; i < n; i++) {
		if (abi[i] == '.')
			out[4 + i] = '_';
		else if (abi[i] >= '0' && abi[i] <= '9')
			out[4 + i] = abi[i];
		else
			return -EINVAL;
	}
	out[4 + n] = '\0';
	return 0;
}

/*
 * Splits @rest ("a/b/c...") into exactly @want fields, a stacked label's
 * "//&" becoming "_and_". 0, or -EINVAL when the shape is not the area's.
 */
static int split(const char *rest, char f[][V1_FIELD], int want)
{
	int n = 0;
	size_t len = 0;

	f[0][0] = '\0';
	while (*rest) {
		const char *add = rest;
		size_t step = 1, alen = 1;

		if (!strncmp(rest, "//&", 3)) {
			add = "_and_";
			alen = 5;
			step = 3;
		} else if (*rest == '/') {
			if (!len || ++n >= want)
				return -EINVAL;
			len = 0;
			f[n][0] = '\0';
			rest++;
			continue;
		}
		if (len + alen >= V1_FIELD)
			return -EINVAL;
		memcpy(f[n] + len, add, alen);
		len += alen;
		f[n][len] = '\0';
		rest += step;
	}
	return n == want - 1 && len ? 0 : -EINVAL;
}

/*
 * Each area: its v1 prefix and today's id, from the ABI's variant name and
 * the five other fields, in order.
 */
static const struct {
	const char *v1;
	const char *today;
} areas[] = {
	{ "unix_peer/",
	  "unix_peer_test/unix_peer.%s__%s__%s__%s__%s.decisions/%s" },
	{ "inet/", "inet_test/inet.%s__%s__%s__%s__%s.decisions/%s" },
	{ "unix_coarse/",
	  "unix_coarse_test/unix_coarse.%s.decisions/%s/%s/%s/%s/%s" },
};

int legacy_apparmor_id(const char *v1_id, const char *abi, char *out,
		       size_t size)
{
	char f[6][V1_FIELD], a[32];
	size_t i, n;
	int ret, len;

	(void)abi; /* every v1 id of these areas names its ABI */
	for (i = 0; i < sizeof(areas) / sizeof(areas[0]); i++) {
		n = strlen(areas[i].v1);
		if (strncmp(v1_id, areas[i].v1, n))
			continue;
		ret = split(v1_id + n, f, 6) ?: abi_variant(f[0], a, sizeof(a));
		if (ret)
			return ret;
		len = snprintf(out, size, areas[i].today, a, f[1], f[2], f[3],
			       f[4], f[5]);
		return len < 0 || (size_t)len >= size ? -ENAMETOOLONG : 0;
	}
	return -ENOENT;
}
