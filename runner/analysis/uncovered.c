// SPDX-License-Identifier: GPL-2.0
/* The functions a coverage run never called, by hook (uncovered.h). */
#include "uncovered.h"

#include "hookreasons.h"
#include "lcov.h"

#include <string.h>

static const struct hook_verdict *verdict_of(const struct hook_verdict *v,
					     size_t nv, const char *function)
{
	size_t i;

	for (i = 0; i < nv; i++)
		if (!strcmp(v[i].function, function))
			return &v[i];
	return NULL;
}

void uncovered_rows(const struct lcov_file *f, const char *path,
		    const struct hook_verdict *v, size_t nv,
		    const struct hookreasons *helpers, const char *lsm,
		    struct sbuf *out, struct uncovered_sum *sum)
{
	size_t i;

	for (i = 0; i < f->n_funcs; i++) {
		const struct lcov_func *fn = &f->funcs[i];
		const struct hookreason_row *why = NULL;
		const struct hook_verdict *h;
		const char *status, *reason;

		if (fn->count)
			continue;
		h = verdict_of(v, nv, fn->name);
		if (!h && helpers)
			why = hookreasons_match(helpers, lsm, fn->name);
		sum->never++;
		if (h) {
			sum->gap += h->gap;
			sum->reasoned += !h->gap;
			status = h->status;
			reason = h->reason ? h->reason : "-";
		} else if (why) {
			sum->helper_reasoned++;
			status = hookreason_kind_name(why->kind);
			reason = why->why;
		} else {
			sum->helper++;
			status = "no hook";
			reason = "-";
		}
		sbuf_printf(out, "%s\t%s\t%lu\t%s\t%s\t%s\n", path, fn->name,
			    fn->line, h ? h->hook : "-", status, reason);
	}
}
