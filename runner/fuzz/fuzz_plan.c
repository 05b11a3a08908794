// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for work/units.c: a store's plan.tsv as `lsmconf
 * unit` and `merge` read it. A refusal is one line naming its line; a
 * plan read has its dependencies planned before each unit, levels one
 * above the deepest dependency, and formats back to what reads the same.
 */
#include "fuzz.h"
#include "work/units.h"

#include <stdlib.h>

static void check(const struct unit_plan *p)
{
	size_t i, j;

	for (i = 0; i < p->n; i++) {
		const struct unit *u = &p->v[i];
		int level = 0;

		if (strlen(u->id) != UNIT_ID_LEN || !u->desc ||
		    u->kind >= UNIT_N_KINDS || u->n_deps > UNIT_MAX_DEPS)
			__builtin_trap();
		for (j = 0; j < u->n_deps; j++) {
			const struct unit *d = unit_find(p, u->deps[j]);

			if (!d || d >= u)
				__builtin_trap();
			if (d->level + 1 > level)
				level = d->level + 1;
		}
		if (u->level != level)
			__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_cstr(data, size);
	struct unit_plan p, q;
	struct sbuf a = { 0 }, b = { 0 };
	struct err e;

	if (unit_plan_parse(text, &p, &e)) {
		fuzz_one_line(e.msg);
		free(text);
		return 0;
	}
	check(&p);
	/* What the store writes back reads the same. */
	unit_plan_format(&p, &a);
	if (unit_plan_parse(a.buf ? a.buf : "", &q, &e))
		__builtin_trap();
	unit_plan_format(&q, &b);
	if (a.len != b.len || (a.len && memcmp(a.buf, b.buf, a.len)))
		__builtin_trap();
	sbuf_free(&a);
	sbuf_free(&b);
	unit_plan_free(&p);
	unit_plan_free(&q);
	free(text);
	return 0;
}
