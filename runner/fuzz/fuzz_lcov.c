// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for lcov_parse() (analysis/lcov.c): any bytes as an
 * lcov tracefile. Refused or read, never a crash; a file read has no more
 * hits than lines, branches or functions, and its reason is one line.
 */
#include "fuzz.h"
#include "analysis/lcov.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lcov l;
	char err[256];
	size_t i;

	if (lcov_parse((const char *)data, size, &l, err, sizeof(err))) {
		if (strchr(err, '\n') || l.files)
			__builtin_trap();
		return 0;
	}
	for (i = 0; i < l.n; i++)
		if (l.files[i].lines_hit > l.files[i].lines ||
		    l.files[i].branches_hit > l.files[i].branches ||
		    l.files[i].funcs_hit > l.files[i].n_funcs)
			__builtin_trap();
	lcov_free(&l);
	return 0;
}
