// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for vm/console.c and vm/crash.c: a guest's console
 * (kernel log) and live output, as a boot that ended anywhere leaves them.
 */
#include "fuzz.h"
#include "vm/console.h"
#include "vm/crash.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data, *section;
	struct console_scan scan;
	char buf[256], name[128], **cases = NULL, *s;
	size_t slen;
	int i, n;

	console_scan(text, size, &scan);
	if (scan.bytes != size)
		abort();
	console_verdict(&scan, buf, sizeof(buf));
	console_verdict(&scan, buf, 8);

	section = crash_section(text, size, "features_test", &slen);
	if (section) {
		if (section < text || section + slen > text + size)
			abort();
		crash_open_case(section, slen, name, sizeof(name));
	}
	crash_open_case(text, size, name, 4);
	free(crash_trace(text, size, 50));

	s = fuzz_cstr(data, size);
	n = crash_list_cases(s, &cases);
	for (i = 0; i < n; i++)
		free(cases[i]);
	free(cases);
	free(s);
	return 0;
}
