/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer harnesses share (one harness a parser, see the
 * Makefile's fuzz targets). Built with clang only, never by the gcc build.
 */
#ifndef LSMCONF_FUZZ_H
#define LSMCONF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A NUL-terminated copy of the input, for the parsers that take C strings:
 * an input with NUL bytes is cut at the first one (the callers' files,
 * read with read_input(), never hold one).
 */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/*
 * The harnesses that fuzz a directory of files take one input as its
 * files, separated by this byte (the seeds hold it): part @i of the
 * input, its bytes in *@len, NULL when the input has fewer parts.
 */
#define FUZZ_SEP '\001'

static inline const char *fuzz_part(const uint8_t *data, size_t size, size_t i,
				    size_t *len)
{
	const char *p = (const char *)data, *end = p + size, *sep;

	for (;;) {
		sep = memchr(p, FUZZ_SEP, end - p);
		if (!i--) {
			*len = (sep ? sep : end) - p;
			return p;
		}
		if (!sep)
			return NULL;
		p = sep + 1;
	}
}

/*
 * A private directory for a harness that writes files, in memory when
 * the host has /dev/shm (a disk makes every input ten times slower).
 */
static inline char *fuzz_tmpdir(const char *name)
{
	char *dir = xasprintf("/dev/shm/lsmconf-fuzz-%s-XXXXXX", name);

	if (!mkdtemp(dir)) {
		free(dir);
		dir = xasprintf("/tmp/lsmconf-fuzz-%s-XXXXXX", name);
		if (!mkdtemp(dir))
			__builtin_trap();
	}
	return dir;
}

/* A one-line, non-empty refusal, or the harness fails. */
static inline void fuzz_one_line(const char *msg)
{
	if (!msg[0] || strchr(msg, '\n'))
		__builtin_trap();
}

#endif
