/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest-to-host data channel: the guest writes
 *	"LSMCONF-RESULTS <size> <sha256>\n" <size bytes of tar> "LSMCONF-END\n"
 * to its second serial port, once per test and once before and after them.
 */
#ifndef LSMCONF_XFER_H
#define LSMCONF_XFER_H

#include <stddef.h>

/*
 * Finds and checks the frame in @buf. On success points @payload into @buf
 * and returns 0; otherwise returns -1 with a one-line reason in @err
 * (nothing received, truncated, checksum mismatch...).
 */
int xfer_parse(const char *buf, size_t len, const char **payload, size_t *plen,
	       char *err, size_t size);

/*
 * The frame at *@pos (frames follow one another): 0 with *@pos moved past
 * it, 1 when no bytes are left, -1 with a reason in @err when what follows
 * is not a whole frame.
 */
int xfer_next(const char *buf, size_t len, size_t *pos, const char **payload,
	      size_t *plen, char *err, size_t size);

/* Unpacks a tar held in memory into @dir. Returns files written or -1. */
int xfer_untar(const char *tar, size_t len, const char *dir, char *err,
	       size_t size);
struct sbuf;
/* Same, and the names of the files written, one a line, into @names. */
int xfer_untar_names(const char *tar, size_t len, const char *dir,
		     struct sbuf *names, char *err, size_t size);

#endif
