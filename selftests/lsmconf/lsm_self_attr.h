/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsm_set_self_attr(2) and lsm_get_self_attr(2) (Linux 6.8): one LSM's
 * attribute of the caller. The numbers are include/uapi/linux/lsm.h's,
 * absent from older userspace headers.
 */
#ifndef LSMCONF_LSM_SELF_ATTR_H
#define LSMCONF_LSM_SELF_ATTR_H

#include <errno.h>
#include <linux/types.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LSM_SELF_ID_SELINUX 101
#define LSM_SELF_ID_APPARMOR 104
#define LSM_SELF_ATTR_CURRENT 100
#define LSM_SELF_ATTR_EXEC 101
#define LSM_SELF_ATTR_FSCREATE 102
#define LSM_SELF_ATTR_KEYCREATE 103
#define LSM_SELF_ATTR_PREV 104
#define LSM_SELF_ATTR_SOCKCREATE 105
#define LSM_SELF_FLAG_SINGLE 1
#ifndef SYS_lsm_get_self_attr
#define SYS_lsm_get_self_attr 459
#define SYS_lsm_set_self_attr 460
#endif

struct lsm_self_ctx {
	__u64 id;
	__u64 flags;
	__u64 len;
	__u64 ctx_len;
	__u8 ctx[];
};

/*
 * lsm_set_self_attr(@attr) of LSM @id: the @len bytes of @text as its
 * context, and a NUL after them counted in ctx_len when @nul (and @len
 * is not 0). 0 or -errno.
 */
static inline int lsm_self_attr_set(__u64 id, unsigned int attr,
				    const char *text, size_t len, bool nul)
{
	size_t ctx_len = len + (nul && len);
	size_t size = sizeof(struct lsm_self_ctx) + ctx_len;
	struct lsm_self_ctx *ctx = calloc(1, size + 1);
	int ret = 0;

	if (!ctx)
		return -ENOMEM;
	ctx->id = id;
	ctx->len = size;
	ctx->ctx_len = ctx_len;
	memcpy(ctx->ctx, text, len);
	if (syscall(SYS_lsm_set_self_attr, attr, ctx, size, 0) < 0)
		ret = -errno;
	free(ctx);
	return ret;
}

/*
 * lsm_get_self_attr(@attr) of LSM @id alone: its ctx_len bytes into @out
 * (@size), a NUL after them. 0, or -errno (-EFBIG: they do not fit).
 */
static inline int lsm_self_attr_get(__u64 id, unsigned int attr, char *out,
				    size_t size)
{
	union {
		struct lsm_self_ctx ctx;
		char raw[4096];
	} u;
	__u32 len = sizeof(u);
	size_t n;

	memset(&u, 0, sizeof(u));
	u.ctx.id = id;
	if (syscall(SYS_lsm_get_self_attr, attr, &u.ctx, &len,
		    LSM_SELF_FLAG_SINGLE) < 0)
		return -errno;
	n = u.ctx.ctx_len;
	if (n >= size || n > sizeof(u) - sizeof(u.ctx))
		return -EFBIG;
	memcpy(out, u.ctx.ctx, n);
	out[n] = '\0';
	return 0;
}

/* Whether the kernel has them: with no buffer, only one without says ENOSYS. */
static inline bool lsm_self_attr_present(void)
{
	__u32 len = 0;

	return !(syscall(SYS_lsm_get_self_attr, LSM_SELF_ATTR_CURRENT, NULL,
			 &len, 0) < 0 &&
		 errno == ENOSYS);
}

#endif
