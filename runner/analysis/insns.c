// SPDX-License-Identifier: GPL-2.0
/*
 * The bench's instruction profile: the plugin's block counts named by the
 * kernel's symbols, as rows of instructions per function and point.
 */
#include "insns.h"
#include "bench.h"
#include "path.h"
#include "lib/lib.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INSN_UNKNOWN "[unknown]"

struct sym {
	unsigned long long addr;
	char *name;
};

static int sym_cmp(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

size_t insn_syms_parse(const char *text, struct insn_syms *s)
{
	struct sym *v = NULL;
	size_t n = 0, bad = 0, i;
	const char *p = text;
	char *line;
	bool cut;

	memset(s, 0, sizeof(*s));
	while ((line = next_line(&p, &cut))) {
		char name[256], *end;
		unsigned long long a = strtoull(line, &end, 16);

		if (end == line || *end != ' ' ||
		    sscanf(end, " %255s", name) != 1) {
			bad++;
		} else {
			v = xrealloc(v, (n + 1) * sizeof(*v));
			v[n].addr = a;
			v[n++].name = xstrdup(name);
		}
		free(line);
	}
	bad += cut;
	qsort(v, n, sizeof(*v), sym_cmp);
	s->addr = xcalloc(n ? n : 1, sizeof(*s->addr));
	s->name = xcalloc(n ? n : 1, sizeof(*s->name));
	for (i = 0; i < n; i++) {
		s->addr[i] = v[i].addr;
		s->name[i] = v[i].name;
	}
	s->n = n;
	free(v);
	return bad;
}

void insn_syms_free(struct insn_syms *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->addr);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

const char *insn_syms_find(const struct insn_syms *s, unsigned long long addr)
{
	size_t lo = 0, hi = s->n;

	if (addr < INSN_KERNEL_START)
		return INSN_USER;
	/* The first symbol above @addr is at lo when the loop ends. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->addr[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? s->name[lo - 1] : NULL;
}

/* The name of point @index in the space-separated @points, or NULL. */
static char *point_name(const char *points, long index)
{
	char *copy = xstrdup(points), *tok, *save = NULL, *name = NULL;
	long i = 0;

	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (i++ == index) {
			name = xstrdup(tok);
			break;
		}
	free(copy);
	return name;
}

/* The measured messages of @point in @samples. */
static long long measured(const struct bench_set *samples, const char *point)
{
	long long n = 0;
	size_t i;

	for (i = 0; i < samples->n; i++)
		if (!samples->v[i].warmup && samples->v[i].invocation >= 0 &&
		    !strcmp(samples->v[i].point, point))
			n += samples->v[i].messages;
	return n;
}

/* Adds @insns to @point's row of @fn in @out (a new row if none). */
static void add(struct path_set *out, const char *point, const char *fn,
		long long messages, double insns)
{
	struct path_row *r;
	size_t i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].point, point) &&
		    !strcmp(out->v[i].function, fn)) {
			out->v[i].instructions += insns;
			return;
		}
	out->v = xrealloc(out->v, (out->n + 1) * sizeof(*out->v));
	r = &out->v[out->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->point, sizeof(r->point), "%s", point);
	snprintf(r->function, sizeof(r->function), "%s", fn);
	r->status = PATH_COUNTED;
	r->calls = -1;
	r->messages = messages;
	r->instructions = insns;
}

size_t insn_profile_rows(const char *raw, const struct insn_syms *syms,
			 const char *points, const struct bench_set *samples,
			 struct path_set *out)
{
	const char *p = raw;
	size_t bad = 0;
	char *line;
	bool cut;

	while ((line = next_line(&p, &cut))) {
		unsigned long long va, insns, execs;
		long index;
		char *name;
		long long msgs;
		const char *fn;
		int used;

		if (line[0] == '#') {
			unsigned int w;

			bad += sscanf(line, "# %ld windows %u", &index, &w) !=
			       2;
			free(line);
			continue;
		}
		if (sscanf(line, "%ld\t%llx\t%llu\t%llu%n", &index, &va, &insns,
			   &execs, &used) != 4 ||
		    line[used] || index < 0) {
			bad++;
			free(line);
			continue;
		}
		free(line);
		name = point_name(points, index);
		if (!name) {
			bad++;
			continue;
		}
		msgs = measured(samples, name);
		fn = insn_syms_find(syms, va);
		if (msgs > 0) {
			/*
			 * A function and its compiler clones (.constprop.0,
			 * .isra.0, .part.0, .cold) are one: a patch can make
			 * the compiler clone a function it did not touch.
			 */
			char *base = xstrdup(fn ? fn : INSN_UNKNOWN);

			base[strcspn(base, ".")] = '\0';
			add(out, name, base, msgs,
			    (double)insns * (double)execs);
			free(base);
		}
		free(name);
	}
	return bad + cut;
}
