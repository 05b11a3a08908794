// SPDX-License-Identifier: GPL-2.0
/* libFuzzer harness for results/ktap.c: a test binary's KTAP output. */
#include "fuzz.h"
#include "results/ktap.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ktap_doc doc;
	char out[64];
	size_t i;

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
