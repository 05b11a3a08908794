// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for provision/apt_parse.c: the system's sources
 * (deb822 and one-line), apt-cache madison and show answers.
 */
#include "fuzz.h"
#include "provision/apt.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const suites[] = { "bookworm", "trixie", "sid",
					      NULL };
	struct apt_source *v = NULL;
	size_t n = 0;
	char *s = fuzz_cstr(data, size);
	bool deb822;

	/* Both source formats see every input. */
	for (deb822 = false;; deb822 = true) {
		apt_parse_sources(s, deb822, &v, &n);
		if (deb822)
			break;
	}
	free(apt_private_sources(v, n, suites));
	apt_sources_free(v, n);

	free(apt_madison_pick(s, "linux-source", "sid"));
	free(apt_madison_pick(s, "linux-image-amd64", NULL));
	free(apt_stanza_field(s, "Depends"));
	free(apt_stanza_field(s, "SHA256"));
	free(apt_depends_find(s, "linux-source-", ""));
	free(apt_depends_find(s, "linux-image-", "-amd64"));
	free(s);
	return 0;
}
