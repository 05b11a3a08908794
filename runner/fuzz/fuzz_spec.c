// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness for provision/spec.c: kernel specs as users write them. */
#include "fuzz.h"
#include "provision/spec.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct kspec spec;
	char err[128], *s = fuzz_cstr(data, size);

	/* A refusal must say why, on one line. */
	if (kspec_parse(s, &spec, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
	} else {
		if (!spec.text || !spec.value)
			abort();
		kspec_free(&spec);
	}
	(void)kspec_is_version(s);
	free(s);
	return 0;
}
