/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf selftests: abstract AF_UNIX addresses, written one way. The
 * name is printf-formatted after the leading NUL; the length covers the
 * name only (no trailing NUL), as the kernel compares abstract names.
 */
#ifndef LSMCONF_UNIX_ADDR_H
#define LSMCONF_UNIX_ADDR_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>

/* Fills @sun with the abstract name @fmt...; returns its length. */
static inline socklen_t __attribute__((format(printf, 2, 3)))
unix_abstract(struct sockaddr_un *sun, const char *fmt, ...)
{
	va_list ap;

	memset(sun, 0, sizeof(*sun));
	sun->sun_family = AF_UNIX;
	va_start(ap, fmt);
	vsnprintf(sun->sun_path + 1, sizeof(sun->sun_path) - 1, fmt, ap);
	va_end(ap);
	return offsetof(struct sockaddr_un, sun_path) + 1 +
	       strlen(sun->sun_path + 1);
}

#endif /* LSMCONF_UNIX_ADDR_H */
