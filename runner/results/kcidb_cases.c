// SPDX-License-Identifier: GPL-2.0
/*
 * A boot's ktap.txt as KCIDB sees it: programs and their cases, each with
 * a status (kcidb.h). ktap.txt is the runner's own top level (one result
 * line per program, its note after " # "), the guest's output of each
 * program nested as "# " lines, and the cases that brought the kernel
 * down as "# not ok 0 CASE # brought the kernel down in boot N".
 */
#define _GNU_SOURCE
#include "kcidb.h"
#include "ksft.h"
#include "ktap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CRASH_MARK " # brought the kernel down in boot "

/* Whether the @n bytes at @p (not NUL-terminated) start with @lit. */
static bool starts(const char *p, size_t n, const char *lit)
{
	size_t l = strlen(lit);

	return n >= l && !memcmp(p, lit, l);
}

static void add_case(struct kcidb_prog *p, const char *name,
		     enum kcidb_status st, const char *reason, int boot)
{
	struct kcidb_case *c;

	/* Doubled at each power of two: a plan of many lost cases is linear. */
	if (!(p->n & (p->n - 1)))
		p->cases = xrealloc(p->cases,
				    (p->n ? 2 * p->n : 1) * sizeof(*p->cases));
	c = &p->cases[p->n++];
	c->name = xstrdup(name);
	c->status = st;
	c->reason = reason ? xstrdup(reason) : NULL;
	c->crash_boot = boot;
}

static bool has_case(const struct kcidb_prog *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->cases[i].name, name))
			return true;
	return false;
}

/*
 * Takes the crash lines out of @text (in place, the rest kept in order)
 * into @p's cases; returns the length left.
 */
static size_t take_crashes(struct kcidb_prog *p, char *text, size_t len)
{
	char *in = text, *out = text, *end = text + len;

	while (in < end) {
		char *nl = memchr(in, '\n', end - in);
		size_t n = nl ? (size_t)(nl + 1 - in) : (size_t)(end - in);
		char *mark;

		if (starts(in, n, "not ok 0 ") &&
		    (mark = memmem(in, n, CRASH_MARK, strlen(CRASH_MARK)))) {
			char *name = xstrndup(in + 9, mark - (in + 9));

			add_case(p, name, KCIDB_FAIL, NULL,
				 atoi(mark + strlen(CRASH_MARK)));
			free(name);
		} else {
			memmove(out, in, n);
			out += n;
		}
		in += n;
	}
	return out - text;
}

/* The case the harness started last ("#  RUN   NAME ..."), or NULL. */
static char *last_run(const struct ktap_doc *doc)
{
	size_t i;

	for (i = doc->n_diag; i-- > 0;) {
		const char *d = doc->diag[i];
		size_t n;

		d += strspn(d, " ");
		if (strncmp(d, "RUN ", 4))
			continue;
		d += 4 + strspn(d + 4, " ");
		n = strcspn(d, " ");
		return n ? xstrndup(d, n) : NULL;
	}
	return NULL;
}

/*
 * More cases than any program of the suites plans (unix_peer_test plans
 * 782): a larger plan is corrupt, not that many lost cases.
 */
#define MAX_PLAN 100000

/*
 * The cases of one program's own KTAP, after its crash lines. Returns 0,
 * or -1 (@e says why) for a plan beyond MAX_PLAN.
 */
static int add_ktap_cases(struct kcidb_prog *p, const char *text, size_t len,
			  struct err *e)
{
	struct ktap_doc doc;
	struct ksft_run run;
	char *inner = NULL, *started;
	size_t n, i, lost, crashed = p->n, first;
	int wrapped = ksft_unwrap(text, len, &inner, &n, &run);

	if (wrapped < 0 ||
	    ktap_parse(wrapped ? inner : text, wrapped ? n : len, &doc))
		oom();
	free(inner);
	if (doc.plan > MAX_PLAN) {
		err_set(e,
			"ktap.txt: %s plans %ld cases, more than any test has (corrupt)",
			p->name, doc.plan);
		ktap_free(&doc);
		return -1;
	}
	for (i = 0; i < doc.n_results; i++) {
		const struct ktap_result *r = &doc.results[i];
		enum kcidb_status st = r->status == KTAP_FAIL ? KCIDB_FAIL :
				       r->status == KTAP_SKIP ? KCIDB_SKIP :
								KCIDB_PASS;

		add_case(p, r->name, st, st == KCIDB_SKIP ? r->reason : NULL,
			 0);
	}
	lost = doc.plan > (long)doc.n_results ? doc.plan - doc.n_results : 0;
	/* A case that brought the kernel down is planned here too. */
	lost -= lost < crashed ? lost : crashed;
	started = lost ? last_run(&doc) : NULL;
	/* The KTAP number the first unnamed lost case would have had. */
	first = doc.n_results + crashed + 1;
	if (started && !has_case(p, started)) {
		add_case(p, started, KCIDB_MISS, NULL, 0);
		lost--;
		first++;
	}
	free(started);
	for (i = 0; i < lost; i++) {
		char name[32];

		snprintf(name, sizeof(name), "lost_%zu", first + i);
		add_case(p, name, KCIDB_MISS, NULL, 0);
	}
	ktap_free(&doc);
	return 0;
}

/* The program's status from its result line @line and its cases. */
static enum kcidb_status prog_status(const struct kcidb_prog *p,
				     const char *line, size_t len)
{
	size_t i;
	bool fail = false, miss = false;

	if (starts(line, len, "ok "))
		return memmem(line, len, " # SKIP", 7) ? KCIDB_SKIP :
							 KCIDB_PASS;
	for (i = 0; i < p->n; i++) {
		fail |= p->cases[i].status == KCIDB_FAIL;
		miss |= p->cases[i].status == KCIDB_MISS;
	}
	if (fail)
		return KCIDB_FAIL;
	/* A program that said nothing at all lost its one case. */
	if (miss || !p->n)
		return KCIDB_MISS;
	return p->problem ? KCIDB_ERROR : KCIDB_FAIL;
}

/* The last line of @part (its result line) and its length. */
static const char *result_line(const char *part, size_t len, size_t *n)
{
	const char *end = part + len, *p;

	while (end > part && end[-1] == '\n')
		end--;
	for (p = end; p > part && p[-1] != '\n'; p--)
		;
	*n = end - p;
	return p;
}

int kcidb_progs(const char *ktap, size_t len, struct kcidb_prog **out,
		size_t *n, struct err *e)
{
	struct kcidb_prog *v = NULL;
	size_t pos = 0, k = 0, plen, rlen;
	const char *part, *rline;
	char name[256];
	long plan = -1;
	const char *p = ktap;

	*out = NULL;
	*n = 0;
	/* The top-level plan: "1..N" within the first lines. */
	while (p < ktap + len && plan < 0) {
		const char *nl = memchr(p, '\n', ktap + len - p);
		const char *end = nl ? nl : ktap + len, *d;

		if (starts(p, end - p, "1..")) {
			plan = 0;
			for (d = p + 3; d < end && *d >= '0' && *d <= '9' &&
					plan < 1000000;
			     d++)
				plan = plan * 10 + (*d - '0');
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	if (plan < 0)
		return err_set(
			e,
			"ktap.txt has no plan line (not a boot's results, or cut short)");
	while (ksft_next(ktap, len, &pos, &part, &plen, name, sizeof(name)) ==
	       1) {
		struct kcidb_prog *pr;
		struct ksft_run run;
		char *inner = NULL, *hash;
		size_t ilen;

		rline = result_line(part, plen, &rlen);
		if (!starts(rline, rlen, "ok ") &&
		    !starts(rline, rlen, "not ok ")) {
			kcidb_progs_free(v, k);
			return err_set(
				e,
				"ktap.txt: %s has no result line (cut short)",
				name);
		}
		v = xrealloc(v, (k + 1) * sizeof(*v));
		pr = &v[k++];
		*pr = (struct kcidb_prog){ .name = xstrdup(name) };
		hash = memmem(rline, rlen, " # ", 3);
		if (hash && rline[0] == 'n')
			pr->problem =
				xstrndup(hash + 3, rline + rlen - hash - 3);
		if (ksft_unwrap(part, plen, &inner, &ilen, &run) < 0)
			oom();
		if (inner) {
			ilen = take_crashes(pr, inner, ilen);
			if (add_ktap_cases(pr, inner, ilen, e)) {
				free(inner);
				kcidb_progs_free(v, k);
				return -1;
			}
		}
		free(inner);
		pr->status = prog_status(pr, rline, rlen);
	}
	if ((long)k < plan) {
		kcidb_progs_free(v, k);
		return err_set(
			e,
			"ktap.txt is cut short: %zu of its %ld programs reported",
			k, plan);
	}
	*out = v;
	*n = k;
	return 0;
}

void kcidb_progs_free(struct kcidb_prog *p, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < p[i].n; j++) {
			free(p[i].cases[j].name);
			free(p[i].cases[j].reason);
		}
		free(p[i].cases);
		free(p[i].name);
		free(p[i].problem);
	}
	free(p);
}
