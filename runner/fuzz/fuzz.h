/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the libFuzzer harnesses share (one harness a parser, see the
 * Makefile's fuzz targets). Built with clang only, never by the gcc build.
 */
#ifndef LSMCONF_FUZZ_H
#define LSMCONF_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/lib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A NUL-terminated copy of the input, for the parsers that take C strings:
 * an input with NUL bytes is cut at the first one, as the callers' files
 * read with read_file() are.
 */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
