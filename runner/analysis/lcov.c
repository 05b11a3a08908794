// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "lcov.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The summary lines read from a record, checked at its end. */
struct summary {
	long lf, lh, brf, brh, fnf, fnh; /* -1: absent */
};

static int bad(char *err, size_t size, unsigned long line, const char *fmt, ...)
{
	char why[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	snprintf(err, size, "line %lu: %s", line, why);
	return -1;
}

/* A decimal count of @s up to @end (the whole of it). */
static bool number(const char *s, const char *end, unsigned long long *out)
{
	char *stop;

	if (s == end || *s < '0' || *s > '9')
		return false;
	errno = 0;
	*out = strtoull(s, &stop, 10);
	return !errno && stop == end;
}

static struct lcov_func *find_func(struct lcov_file *f, const char *name,
				   size_t len)
{
	size_t i;

	/* An FNL: function has no name until its FNA: line. */
	for (i = 0; i < f->n_funcs; i++)
		if (f->funcs[i].name && strlen(f->funcs[i].name) == len &&
		    !memcmp(f->funcs[i].name, name, len))
			return &f->funcs[i];
	return NULL;
}

/* FN:LINE,NAME */
static int take_fn(struct lcov_file *f, const char *v, const char *end,
		   char *err, size_t size, unsigned long n)
{
	const char *comma = memchr(v, ',', end - v);
	unsigned long long line;

	if (!comma || !number(v, comma, &line) || comma + 1 == end)
		return bad(err, size, n, "FN: wants LINE,NAME");
	if (find_func(f, comma + 1, end - comma - 1))
		return 0;
	f->funcs = xrealloc(f->funcs, (f->n_funcs + 1) * sizeof(*f->funcs));
	f->funcs[f->n_funcs++] = (struct lcov_func){
		.name = xstrndup(comma + 1, end - comma - 1),
		.line = line,
		.index = -1,
	};
	return 0;
}

static struct lcov_func *find_index(struct lcov_file *f, unsigned long long i)
{
	size_t j;

	for (j = 0; j < f->n_funcs; j++)
		if (f->funcs[j].index >= 0 &&
		    (unsigned long long)f->funcs[j].index == i)
			return &f->funcs[j];
	return NULL;
}

/* lcov 2: FNL:INDEX,LINE[,END], a function its FNA: lines name. */
static int take_fnl(struct lcov_file *f, const char *v, const char *end,
		    char *err, size_t size, unsigned long n)
{
	const char *comma = memchr(v, ',', end - v), *stop;
	unsigned long long index, line, last;

	if (!comma || !number(v, comma, &index) || index > 0x7fffffffUL)
		return bad(err, size, n, "FNL: wants INDEX,LINE[,END]");
	stop = memchr(comma + 1, ',', end - comma - 1);
	if (!number(comma + 1, stop ? stop : end, &line) ||
	    (stop && !number(stop + 1, end, &last)))
		return bad(err, size, n, "FNL: wants INDEX,LINE[,END]");
	if (find_index(f, index))
		return bad(err, size, n, "FNL: index %llu twice", index);
	f->funcs = xrealloc(f->funcs, (f->n_funcs + 1) * sizeof(*f->funcs));
	f->funcs[f->n_funcs++] =
		(struct lcov_func){ .line = line, .index = (long)index };
	return 0;
}

/*
 * lcov 2: FNA:INDEX,COUNT,NAME. A function's aliases (one body, several
 * names) repeat its count: the first name is kept and counted.
 */
static int take_fna(struct lcov_file *f, const char *v, const char *end,
		    char *err, size_t size, unsigned long n)
{
	const char *c1 = memchr(v, ',', end - v), *c2;
	unsigned long long index, count;
	struct lcov_func *fn;

	c2 = c1 ? memchr(c1 + 1, ',', end - c1 - 1) : NULL;
	if (!c2 || !number(v, c1, &index) || !number(c1 + 1, c2, &count) ||
	    c2 + 1 == end)
		return bad(err, size, n, "FNA: wants INDEX,COUNT,NAME");
	fn = find_index(f, index);
	if (!fn)
		return bad(err, size, n, "FNA: of an index no FNL: named");
	if (fn->name)
		return 0;
	fn->name = xstrndup(c2 + 1, end - c2 - 1);
	fn->count = count;
	return 0;
}

/* FNDA:COUNT,NAME, of a function an FN: line named before. */
static int take_fnda(struct lcov_file *f, const char *v, const char *end,
		     char *err, size_t size, unsigned long n)
{
	const char *comma = memchr(v, ',', end - v);
	unsigned long long count;
	struct lcov_func *fn;

	if (!comma || !number(v, comma, &count))
		return bad(err, size, n, "FNDA: wants COUNT,NAME");
	fn = find_func(f, comma + 1, end - comma - 1);
	if (!fn)
		return bad(err, size, n, "FNDA: of a function no FN: named");
	fn->count += count;
	return 0;
}

/* BRDA:LINE,BLOCK,BRANCH,TAKEN with TAKEN "-" (never evaluated) or a count. */
static int take_brda(struct lcov_file *f, const char *v, const char *end,
		     char *err, size_t size, unsigned long n)
{
	const char *p = v, *comma;
	unsigned long long x = 0;
	bool never;
	int i;

	for (i = 0; i < 3; i++) {
		comma = memchr(p, ',', end - p);
		if (!comma || !number(p, comma, &x))
			return bad(err, size, n,
				   "BRDA: wants LINE,BLOCK,BRANCH,TAKEN");
		p = comma + 1;
	}
	never = end - p == 1 && *p == '-';
	if (!never && !number(p, end, &x))
		return bad(err, size, n,
			   "BRDA: TAKEN is neither - nor a count");
	f->br = xrealloc(f->br, (f->branches + 1) * sizeof(*f->br));
	f->br[f->branches].line = strtoul(v, NULL, 10);
	f->br[f->branches].taken = never ? -1 : (long long)x;
	f->branches++;
	f->branches_hit += !never && x > 0;
	return 0;
}

/* DA:LINE,COUNT[,CHECKSUM] */
static int take_da(struct lcov_file *f, const char *v, const char *end,
		   char *err, size_t size, unsigned long n)
{
	const char *comma = memchr(v, ',', end - v), *stop;
	unsigned long long x;

	if (!comma || !number(v, comma, &x))
		return bad(err, size, n, "DA: wants LINE,COUNT");
	stop = memchr(comma + 1, ',', end - comma - 1);
	if (!number(comma + 1, stop ? stop : end, &x))
		return bad(err, size, n, "DA: wants LINE,COUNT");
	f->da = xrealloc(f->da, (f->lines + 1) * sizeof(*f->da));
	f->da[f->lines].line = strtoul(v, NULL, 10);
	f->da[f->lines].count = x;
	f->lines++;
	f->lines_hit += x > 0;
	return 0;
}

static int check_summary(struct lcov_file *f, const struct summary *s,
			 char *err, size_t size, unsigned long n)
{
	size_t i;

	f->funcs_hit = 0;
	for (i = 0; i < f->n_funcs; i++) {
		if (!f->funcs[i].name)
			return bad(err, size, n, "%s: FNL %ld has no FNA name",
				   f->path, f->funcs[i].index);
		f->funcs_hit += f->funcs[i].count > 0;
	}
	if ((s->lf >= 0 && (unsigned long)s->lf != f->lines) ||
	    (s->lh >= 0 && (unsigned long)s->lh != f->lines_hit))
		return bad(err, size, n,
			   "%s: LF/LH say %ld/%ld, the DA lines %lu/%lu",
			   f->path, s->lf, s->lh, f->lines, f->lines_hit);
	if ((s->brf >= 0 && (unsigned long)s->brf != f->branches) ||
	    (s->brh >= 0 && (unsigned long)s->brh != f->branches_hit))
		return bad(err, size, n,
			   "%s: BRF/BRH say %ld/%ld, the BRDA lines %lu/%lu",
			   f->path, s->brf, s->brh, f->branches,
			   f->branches_hit);
	if ((s->fnf >= 0 && (size_t)s->fnf != f->n_funcs) ||
	    (s->fnh >= 0 && (unsigned long)s->fnh != f->funcs_hit))
		return bad(err, size, n,
			   "%s: FNF/FNH say %ld/%ld, the FN lines %zu/%lu",
			   f->path, s->fnf, s->fnh, f->n_funcs, f->funcs_hit);
	return 0;
}

/* A summary line's count into @slot. */
static int take_count(long *slot, const char *v, const char *end, char *err,
		      size_t size, unsigned long n, const char *key)
{
	unsigned long long x;

	if (!number(v, end, &x) || x > 0x7fffffffUL)
		return bad(err, size, n, "%s: wants a count", key);
	*slot = (long)x;
	return 0;
}

int lcov_parse(const char *text, size_t len, struct lcov *out, char *err,
	       size_t size)
{
	const char *p = text, *end = text + len;
	struct lcov_file *f = NULL;
	struct summary s;
	unsigned long n = 0;
	int rc = 0;

	memset(out, 0, sizeof(*out));
	while (!rc && p < end) {
		const char *nl = memchr(p, '\n', end - p);
		const char *le = nl ? nl : end, *colon, *v;

		n++;
		if (le > p && le[-1] == '\r')
			le--;
		colon = memchr(p, ':', le - p);
		v = colon ? colon + 1 : le;
		if (le == p) {
			/* A blank line. */
		} else if (!f && colon &&
			   ((colon - p == 2 && !memcmp(p, "TN", 2)) ||
			    (colon - p == 3 && !memcmp(p, "VER", 3)))) {
			/* The test's name, lcov 2's version: nothing to keep. */
		} else if (colon && colon - p == 2 && !memcmp(p, "SF", 2)) {
			if (f)
				rc = bad(err, size, n, "SF: inside a record");
			else if (v == le)
				rc = bad(err, size, n, "SF: without a path");
			else {
				out->files = xrealloc(
					out->files,
					(out->n + 1) * sizeof(*out->files));
				f = &out->files[out->n++];
				memset(f, 0, sizeof(*f));
				f->path = xstrndup(v, le - v);
				s = (struct summary){ -1, -1, -1, -1, -1, -1 };
			}
		} else if (!f) {
			rc = bad(err, size, n,
				 "%.*s outside SF...end_of_record",
				 (int)(le - p > 40 ? 40 : le - p), p);
		} else if (le - p == 13 && !memcmp(p, "end_of_record", 13)) {
			rc = check_summary(f, &s, err, size, n);
			f = NULL;
		} else if (!colon) {
			rc = bad(err, size, n, "not a tracefile record");
		} else {
			size_t k = colon - p;

#define KEY(name) (k == strlen(name) && !memcmp(p, name, k))
			if (KEY("FN"))
				rc = take_fn(f, v, le, err, size, n);
			else if (KEY("FNDA"))
				rc = take_fnda(f, v, le, err, size, n);
			else if (KEY("FNL"))
				rc = take_fnl(f, v, le, err, size, n);
			else if (KEY("FNA"))
				rc = take_fna(f, v, le, err, size, n);
			else if (KEY("VER"))
				rc = 0;
			else if (KEY("BRDA"))
				rc = take_brda(f, v, le, err, size, n);
			else if (KEY("DA"))
				rc = take_da(f, v, le, err, size, n);
			else if (KEY("LF"))
				rc = take_count(&s.lf, v, le, err, size, n,
						"LF");
			else if (KEY("LH"))
				rc = take_count(&s.lh, v, le, err, size, n,
						"LH");
			else if (KEY("BRF"))
				rc = take_count(&s.brf, v, le, err, size, n,
						"BRF");
			else if (KEY("BRH"))
				rc = take_count(&s.brh, v, le, err, size, n,
						"BRH");
			else if (KEY("FNF"))
				rc = take_count(&s.fnf, v, le, err, size, n,
						"FNF");
			else if (KEY("FNH"))
				rc = take_count(&s.fnh, v, le, err, size, n,
						"FNH");
			else
				rc = bad(err, size, n, "unknown record %.*s",
					 (int)(k > 20 ? 20 : k), p);
#undef KEY
		}
		p = nl ? nl + 1 : end;
	}
	if (!rc && f)
		rc = bad(err, size, n, "%s: no end_of_record", f->path);
	if (rc)
		lcov_free(out);
	return rc;
}

void lcov_free(struct lcov *l)
{
	size_t i, j;

	for (i = 0; i < l->n; i++) {
		for (j = 0; j < l->files[i].n_funcs; j++)
			free(l->files[i].funcs[j].name);
		free(l->files[i].funcs);
		free(l->files[i].da);
		free(l->files[i].br);
		free(l->files[i].path);
	}
	free(l->files);
	memset(l, 0, sizeof(*l));
}

const struct lcov_file *lcov_file(const struct lcov *l, const char *suffix)
{
	size_t i, sl = strlen(suffix);

	for (i = 0; i < l->n; i++) {
		const char *p = l->files[i].path;
		size_t pl = strlen(p);

		if (pl == sl && !strcmp(p, suffix))
			return &l->files[i];
		if (pl > sl && p[pl - sl - 1] == '/' &&
		    !strcmp(p + pl - sl, suffix))
			return &l->files[i];
	}
	return NULL;
}

long long lcov_line_count(const struct lcov *l, const char *suffix,
			  unsigned long line)
{
	const struct lcov_file *f = lcov_file(l, suffix);
	long long count = -1;
	size_t i;

	/* lcov sums a line named twice (an inline in several places). */
	for (i = 0; f && i < f->lines; i++)
		if (f->da[i].line == line)
			count = (count < 0 ? 0 : count) +
				(long long)f->da[i].count;
	return count;
}

unsigned long lcov_line_edges(const struct lcov *l, const char *suffix,
			      unsigned long line, unsigned long *taken)
{
	const struct lcov_file *f = lcov_file(l, suffix);
	unsigned long n = 0, i;

	*taken = 0;
	for (i = 0; f && i < f->branches; i++) {
		if (f->br[i].line != line)
			continue;
		n++;
		*taken += f->br[i].taken > 0;
	}
	return n;
}

const struct lcov_func *lcov_line_func(const struct lcov *l, const char *suffix,
				       unsigned long line)
{
	const struct lcov_file *f = lcov_file(l, suffix);
	const struct lcov_func *in = NULL;
	unsigned long next = (unsigned long)-1;
	size_t i;

	for (i = 0; f && i < f->n_funcs; i++) {
		const struct lcov_func *fn = &f->funcs[i];

		if (fn->line <= line && (!in || fn->line > in->line))
			in = fn;
		else if (fn->line > line && fn->line < next)
			next = fn->line;
	}
	for (i = 0; in && i < f->lines; i++)
		if (f->da[i].line > line && f->da[i].line < next)
			return in;
	return NULL;
}

const struct lcov_func *lcov_func(const struct lcov *l, const char *name)
{
	size_t i, j;

	for (i = 0; i < l->n; i++)
		for (j = 0; j < l->files[i].n_funcs; j++)
			if (l->files[i].funcs[j].name &&
			    !strcmp(l->files[i].funcs[j].name, name))
				return &l->files[i].funcs[j];
	return NULL;
}
