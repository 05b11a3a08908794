// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for results/kcidb_cases.c: a boot's ktap.txt read
 * into programs and cases for `lsmconf kcidb`; and the test path each
 * case name becomes (results/kcidb.c), which must match KCIDB's pattern.
 */
#include "fuzz.h"
#include "results/kcidb.h"

#include <stdlib.h>
#include <string.h>

/* ^([a-zA-Z0-9_-]+(\.[a-zA-Z0-9_-]+)*)?$, the schema's path pattern. */
static int path_ok(const char *p)
{
	const char *s;
	int seg = 0;

	for (s = p; *s; s++) {
		if (*s == '.') {
			if (!seg)
				return 0;
			seg = 0;
		} else if (strchr("abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
				  *s)) {
			seg = 1;
		} else {
			return 0;
		}
	}
	return !*p || seg;
}

static void check_path(const char *name)
{
	char *p = kcidb_path("kselftest.apparmor", name);

	if (!path_ok(p))
		abort();
	free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct kcidb_prog *p;
	struct err e;
	size_t n, i, j;

	check_path(text);
	if (kcidb_progs((const char *)data, size, &p, &n, &e)) {
		if (!e.msg[0])
			abort();
		free(text);
		return 0;
	}
	for (i = 0; i < n; i++) {
		if (!p[i].name || p[i].status >= KCIDB_N_STATUS)
			abort();
		check_path(p[i].name);
		for (j = 0; j < p[i].n; j++) {
			const struct kcidb_case *c = &p[i].cases[j];

			if (!c->name || c->status >= KCIDB_N_STATUS ||
			    c->crash_boot < 0)
				abort();
			check_path(c->name);
		}
	}
	kcidb_progs_free(p, n);
	free(text);
	return 0;
}
