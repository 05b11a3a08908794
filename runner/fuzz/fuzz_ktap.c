// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for results/ktap.c: a test binary's KTAP output; and
 * results/ksft.c's split of run_kselftest.sh -c output into programs.
 */
#include "fuzz.h"
#include "results/ktap.h"
#include "results/ksft.h"

#include <stdlib.h>
#include <string.h>

/* Every part ksft_next() finds lies in the input, in order, named. */
static void split(const char *text, size_t len)
{
	size_t pos = 0, plen, last = 0, n;
	const char *part;
	char name[16], *inner;
	struct ksft_run run;

	while (ksft_next(text, len, &pos, &part, &plen, name, sizeof(name))) {
		if (part < text + last || part + plen > text + len ||
		    text + pos != part + plen || pos <= last ||
		    strlen(name) >= sizeof(name))
			abort();
		last = pos;
		if (ksft_unwrap(part, plen, &inner, &n, &run) < 0)
			abort();
		free(inner);
	}
	if (pos != len)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ktap_doc doc;
	char out[64];
	size_t i;

	split((const char *)data, size);
	if (ktap_parse((const char *)data, size, &doc))
		return 0;
	/* Every result the parser kept must be readable as it promises. */
	for (i = 0; i < doc.n_results; i++) {
		if (!doc.results[i].name || doc.results[i].status > KTAP_XFAIL)
			abort();
		(void)ktap_status_name(doc.results[i].status);
	}
	if (doc.pass + doc.fail + doc.skip + doc.xfail != doc.n_results)
		abort();
	/* The keys the session reads from a test's diagnostics. */
	ktap_diag_value(&doc, "features", out, sizeof(out));
	ktap_diag_value(&doc, "lsmconf", out, 1);
	ktap_free(&doc);
	return 0;
}
