/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files a user, a saved run or a store hands lsmconf: opened without ever
 * blocking (a FIFO, a device), refused in one line when they are not a
 * regular file, too large, or not text. read_file() (util.h) stays for
 * the files lsmconf itself has just written.
 */
#ifndef LSMCONF_INPUT_H
#define LSMCONF_INPUT_H

#include <stdbool.h>
#include <stddef.h>

struct err;

/* Size limits by kind of input; a larger file is refused, not truncated. */
#define INPUT_MAX_SMALL ((size_t)1 << 20) /* kernel.txt, a unit's done */
#define INPUT_MAX_LIST ((size_t)16 << 20) /* a known bugs list, plan.tsv */
#define INPUT_MAX_BIG ((size_t)256 << 20) /* records.tsv, ktap.txt, mboxes */

/* A text file: a NUL byte in it is refused (it would cut the text). */
#define INPUT_TEXT 1u

/*
 * Reads @path whole, NUL-terminated, into *@buf (and its length into
 * *@len when not NULL). Opened with O_NONBLOCK, then refused unless it
 * is a regular file (a directory, FIFO, socket or device is named as
 * such), over @max bytes, or (INPUT_TEXT) holding a NUL byte (its offset
 * and line named). Returns 0, or a negative errno with a one-line
 * message naming @path in @e: -ENOENT when there is no such file (the
 * callers for which a missing file means something test for it).
 */
int read_input(const char *path, size_t max, unsigned int flags, char **buf,
	       size_t *len, struct err *e);

/*
 * The first NUL byte of @text (@len bytes): true with its offset and
 * 1-based line in *@off and *@line; false when there is none.
 */
bool input_find_nul(const char *text, size_t len, size_t *off,
		    unsigned int *line);

/* The most fields a row of input_rows() may have. */
#define INPUT_MAX_FIELDS 8

/*
 * Each line of @text (@len bytes) that is neither empty nor a '#'
 * comment, split at its tabs into exactly @fields non-empty fields (at
 * most INPUT_MAX_FIELDS), to @row with its 1-based number; @row returns
 * NULL, or why the row is bad. 0, or -1 with "line N: why" in @err: a
 * line without its newline, one holding a NUL byte, an empty field, more
 * or fewer fields, or a row @row refused. The line-based tables
 * (hook-ops.tsv, hook-reasons.tsv).
 */
int input_rows(const char *text, size_t len, size_t fields,
	       const char *(*row)(char **f, unsigned int n, void *ctx),
	       void *ctx, char *err, size_t size);

/*
 * @path is a regular file (opened without blocking, never read): 0, or a
 * negative errno with a one-line message naming @path in @e.
 */
int input_regular(const char *path, struct err *e);
/* @path is a directory: 0, or a negative errno and @e as above. */
int input_directory(const char *path, struct err *e);

#endif
