/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the guest's data port carries, for test_xfer and test_untar: a
 * results archive framed by its header and end marker, amid boot noise.
 */
#ifndef LSMCONF_XFER_FIXTURE_H
#define LSMCONF_XFER_FIXTURE_H

#include "tar_fixture.h"

#include <stdio.h>

#include "lib/util.h"

#define TAIL "LSMCONF-END\n"

static const char uname_txt[] = "7.2.13+deb14-amd64\n";
static const char ktap_txt[] = "TAP version 13\n1..1\nok 1 a\n";

static const struct tar_ent results_tar[] = {
	{ "tests/", AE_IFDIR, NULL, NULL },
	{ "uname", AE_IFREG, uname_txt, NULL },
	{ "tests/a.ktap", AE_IFREG, ktap_txt, NULL },
};

/* Boot noise, with near misses of the header, a NUL and a lone 'L'. */
static const char noise[] = "\r\n\x00\xff[    1.0] LSM: initializing "
			    "L\nLSMCONF-RESULTS\nLSMCONF-RESULT 1 2\n"
			    "lsmconf: sending results\n";

/*
 * @pre, then the header for @tar, then @tar, then @post; NUL-terminated
 * like the buffers read_file() gives. *@off is where the payload starts.
 */
static inline char *frame(const char *pre, size_t prelen, const char *tar,
			  size_t tlen, const char *post, size_t *len,
			  size_t *off)
{
	char hex[65], head[128];
	size_t hlen, plen = strlen(post);
	char *buf;

	sha256_buf(tar, tlen, hex);
	hlen = snprintf(head, sizeof(head), "LSMCONF-RESULTS %zu %s\n", tlen,
			hex);
	*len = prelen + hlen + tlen + plen;
	buf = malloc(*len + 1);
	ck_assert_ptr_nonnull(buf);
	memcpy(buf, pre, prelen);
	memcpy(buf + prelen, head, hlen);
	memcpy(buf + prelen + hlen, tar, tlen);
	memcpy(buf + prelen + hlen + tlen, post, plen);
	buf[*len] = '\0';
	if (off)
		*off = prelen + hlen;
	return buf;
}

#endif
