// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "series_report.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLS SERIES_REPORT_COLS
/* What a text cut short ends with: the reader sees it was cut. */
#define CUT_MARK "..."

/* @text in at most @width columns: cut with CUT_MARK when longer. */
static void add_fitted(struct sbuf *sb, const char *text, size_t width)
{
	size_t len = strlen(text);

	if (len <= width) {
		sbuf_add(sb, text, len);
		return;
	}
	if (width < strlen(CUT_MARK)) {
		sbuf_add(sb, CUT_MARK, width);
		return;
	}
	sbuf_add(sb, text, width - strlen(CUT_MARK));
	sbuf_add(sb, CUT_MARK, strlen(CUT_MARK));
}

/*
 * @text's words after @first, then on lines after @cont, each line at
 * most COLS columns; a line that goes on ends with @brk (" \\" keeps a
 * command one command). A word too long for a line alone is cut.
 */
static void add_wrapped(struct sbuf *sb, const char *first, const char *cont,
			const char *text, const char *brk)
{
	size_t col, room;
	const char *w = text;
	bool fresh = true;

	sbuf_printf(sb, "%s", first);
	col = strlen(first);
	for (;;) {
		size_t len;
		char *word;

		while (*w == ' ')
			w++;
		if (!*w)
			break;
		len = strcspn(w, " ");
		/*
		 * Room for the word, and for @brk should another follow
		 * (compared before subtracting: a line filled to COLS
		 * exactly leaves none).
		 */
		if (!fresh && col + 1 + len + strlen(brk) > COLS) {
			sbuf_printf(sb, "%s\n%s", brk, cont);
			col = strlen(cont);
			fresh = true;
		}
		room = COLS - col - (fresh ? 0 : 1) - strlen(brk);
		if (!fresh) {
			sbuf_add(sb, " ", 1);
			col++;
		}
		/* The last word needs no room for @brk. */
		if (!w[len + strspn(w + len, " ")])
			room += strlen(brk);
		word = xstrndup(w, len);
		add_fitted(sb, word, room);
		free(word);
		col += MIN(len, room);
		fresh = false;
		w += len;
	}
	sbuf_add(sb, "\n", 1);
}

static const char *apply_word(const struct series_report_patch *p)
{
	return p->apply == SERIES_APPLIES ? "yes" :
	       p->apply == SERIES_REFUSED ? "NO" :
					    "-";
}

static const char *build_word(const struct series_report_patch *p)
{
	return p->build_failed ? "NO" : p->built ? "yes" : "-";
}

/* The columns of a patch line, the subject last, cut to fit. */
static void add_row(struct sbuf *sb, const char *num, const char *apply,
		    const char *build, const char *dec, const char *cost,
		    const char *subject)
{
	size_t start = sb->len, used;

	sbuf_printf(sb, "%2s %-3s %-3s %-10s %-21s ", num, apply, build, dec,
		    cost);
	used = sb->len - start;
	add_fitted(sb, subject, used < COLS ? COLS - used : 0);
	sbuf_add(sb, "\n", 1);
}

static void add_patch(struct sbuf *sb, const struct series_report_patch *p)
{
	char num[16], dec[32], cost[64];

	snprintf(num, sizeof(num), "%u", p->number);
	if (p->boot_failed)
		snprintf(dec, sizeof(dec), "no boot");
	else if (!p->observed)
		snprintf(dec, sizeof(dec), "-");
	else if (!p->n_changed)
		snprintf(dec, sizeof(dec), "same");
	/* The column is 10 wide: "118 changed" would shift the others. */
	else if (snprintf(dec, sizeof(dec), "%zu changed", p->n_changed) > 10)
		snprintf(dec, sizeof(dec), "%zu chg", p->n_changed);
	/* Two decimals while they fit the column (21), else one. */
	if (!p->observed || !p->has_cost)
		snprintf(cost, sizeof(cost), "-");
	else if (snprintf(cost, sizeof(cost), "%+.2f%% [%+.2f,%+.2f]",
			  p->cost_pct, p->cost_lo, p->cost_hi) > 21)
		snprintf(cost, sizeof(cost), "%+.1f%% [%+.1f,%+.1f]",
			 p->cost_pct, p->cost_lo, p->cost_hi);
	add_row(sb, num, apply_word(p), build_word(p), dec, cost, p->subject);
}

/* Up to @max (0: all) names, one a line, then how many were left out. */
static void add_list(struct sbuf *sb, const char *what,
		     const char *const *names, size_t n, size_t max)
{
	size_t i, shown = max && max < n ? max : n;

	if (!n)
		return;
	sbuf_printf(sb, "    %s:\n", what);
	for (i = 0; i < shown; i++) {
		sbuf_printf(sb, "      ");
		add_fitted(sb, names[i], COLS - 6);
		sbuf_add(sb, "\n", 1);
	}
	if (shown < n)
		sbuf_printf(sb, "      (and %zu more)\n", n - shown);
}

static void add_culprit(struct sbuf *sb, const struct series_report_culprit *c,
			size_t n_patches, size_t max_cases)
{
	char *text;

	if (c->inconclusive)
		text = xasprintf(
			"%s: inconclusive at patch %u/%zu \"%s\": its kernel showed it in one boot and not in the next, so no patch is named (the change lies in patches %u-%u)",
			c->kind, c->first, n_patches, c->subject, c->first,
			c->last);
	else if (c->last > c->first)
		text = xasprintf(
			"%s: one of patches %u-%u/%zu (the kernels between could not be observed), from \"%s\"",
			c->kind, c->first, c->last, n_patches, c->subject);
	else
		text = xasprintf("%s: patch %u/%zu \"%s\"", c->kind, c->first,
				 n_patches, c->subject);
	add_wrapped(sb, "  ", "    ", text, "");
	free(text);
	add_list(sb, "cases", c->cases, c->n_cases, max_cases);
	add_list(sb, "functions", c->functions, c->n_functions, 0);
}

char *series_report_text(const struct series_report *r)
{
	struct sbuf sb = { 0 };
	size_t i;

	sbuf_printf(&sb, "Series of %zu patches, each against the base:\n",
		    r->n_patches);
	add_row(&sb, "#", "app", "bld", "decisions", "cost [95% interval]",
		"subject");
	for (i = 0; i < r->n_patches; i++)
		add_patch(&sb, &r->patches[i]);
	sbuf_printf(&sb, "(-: not built, the bisection skipped it)\n\n");
	if (!r->n_culprits)
		sbuf_printf(&sb, "Culprits: none\n");
	else
		sbuf_printf(&sb, "Culprits:\n");
	for (i = 0; i < r->n_culprits; i++)
		add_culprit(&sb, &r->culprits[i], r->n_patches, r->max_cases);
	if (r->n_kernels)
		sbuf_printf(&sb, "\nKernels:\n");
	for (i = 0; i < r->n_kernels; i++)
		add_wrapped(&sb, "  ", "    ", r->kernels[i], "");
	if (r->n_commands)
		sbuf_printf(&sb, "\nTo reproduce:\n");
	for (i = 0; i < r->n_commands; i++)
		add_wrapped(&sb, "  ", "      ", r->commands[i], " \\");
	return sb.buf;
}

int series_report_exit(const struct series_report *r)
{
	size_t i;

	if (r->n_culprits)
		return 1;
	for (i = 0; i < r->n_patches; i++) {
		const struct series_report_patch *p = &r->patches[i];

		if (p->apply == SERIES_REFUSED || p->build_failed ||
		    p->boot_failed || p->n_changed ||
		    (p->has_cost && p->cost_significant))
			return 1;
	}
	return 0;
}
