// SPDX-License-Identifier: GPL-2.0
/* The revocation table, built from decision records (table.h). */
#define _GNU_SOURCE
#include "table.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"

/* One decision in a cell. */
struct entry {
	const char *role; /* "client", "server", ... or "" */
	const char *step; /* "connect", "send", ... */
	size_t role_len;
	const char *observed, *expected;
};

struct row {
	char *key;
	char **cell; /* [col * 2 + phase], malloc'd strings */
	bool dead; /* merged into another row */
};

/* The order operations happen in a socket's life. */
static const char *const step_order[] = {
	"socket",      "bind",	 "listen", "connect", "accept", "inherit",
	"scm_receive", "sendto", "send",   "write",   "recv",	"socket_use",
};

static int step_rank(const char *step)
{
	size_t i;

	for (i = 0; i < sizeof(step_order) / sizeof(step_order[0]); i++)
		if (!strcmp(step, step_order[i]))
			return i;
	return sizeof(step_order) / sizeof(step_order[0]);
}

int table_phase(const char *op)
{
	if (!strncmp(op, "existing.", 9) || !strcmp(op, "existing_socket"))
		return 0;
	if (!strncmp(op, "new.", 4) || !strcmp(op, "new_socket"))
		return 1;
	return -1;
}

/* Splits "PHASE.ROLE.STEP" (or live_test's "PHASE_socket"). */
static void entry_of(const struct record *r, struct entry *e)
{
	const char *op = r->col[REC_OP], *dot = strchr(op, '.'), *dot2;

	e->observed = r->col[REC_OBSERVED];
	e->expected = r->col[REC_EXPECTED];
	e->role = "";
	e->role_len = 0;
	e->step = "socket_use";
	if (!dot)
		return;
	dot2 = strchr(dot + 1, '.');
	if (!dot2) {
		e->step = dot + 1;
		return;
	}
	e->role = dot + 1;
	e->role_len = dot2 - (dot + 1);
	e->step = dot2 + 1;
}

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	size_t n = a->role_len < b->role_len ? a->role_len : b->role_len;
	int c = strncmp(a->role, b->role, n);

	if (c)
		return c;
	if (a->role_len != b->role_len)
		return a->role_len < b->role_len ? -1 : 1;
	return step_rank(a->step) - step_rank(b->step);
}

/* Setup steps are shown only when they were not simply allowed. */
static bool entry_shown(const struct entry *e)
{
	bool setup = !strcmp(e->step, "socket") || !strcmp(e->step, "bind") ||
		     !strcmp(e->step, "listen");

	return !setup || strcmp(e->observed, "allow") ||
	       strcmp(e->expected, "allow");
}

static char *cell_format(struct entry *v, size_t n)
{
	struct sbuf sb = { 0 };
	const char *role = NULL;
	size_t role_len = 0, i;
	bool first = true;

	qsort(v, n, sizeof(*v), entry_cmp);
	for (i = 0; i < n; i++) {
		if (!entry_shown(&v[i]))
			continue;
		if (!role || role_len != v[i].role_len ||
		    strncmp(role, v[i].role, role_len)) {
			role = v[i].role;
			role_len = v[i].role_len;
			sbuf_printf(&sb, "%s%.*s%s", first ? "" : "; ",
				    (int)role_len, role, role_len ? ": " : "");
		} else {
			sbuf_printf(&sb, ", ");
		}
		first = false;
		sbuf_printf(&sb, "%s %s", v[i].step, v[i].observed);
		if (strcmp(v[i].observed, v[i].expected))
			sbuf_printf(&sb, " (expected %s)", v[i].expected);
	}
	if (first)
		return xstrdup("-");
	sbuf_add(&sb, "", 1);
	return sb.buf;
}

static int row_find(struct row *rows, size_t n, const char *key, size_t len)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(rows[i].key) == len &&
		    !strncmp(rows[i].key, key, len))
			return i;
	return -1;
}

/* The row of a record: its id without the final "/OP". */
static size_t row_key_len(const struct record *r)
{
	size_t id_len = strlen(r->col[REC_ID]), op_len = strlen(r->col[REC_OP]);

	if (id_len > op_len + 1 &&
	    !strcmp(r->col[REC_ID] + id_len - op_len, r->col[REC_OP]))
		return id_len - op_len - 1;
	return id_len;
}

static int row_cmp(const void *pa, const void *pb)
{
	const struct row *a = pa, *b = pb;

	return strcmp(a->key, b->key);
}

/*
 * When @a and @b have the same number of path elements and differ in
 * element @at only, the key naming both ("x|y" there); else NULL.
 */
static char *key_merge(const char *a, const char *b, int at)
{
	struct sbuf sb = { 0 };
	int differ = 0, pos = 0;

	/*
	 * Elements end at '/' or '.': a row is "<binary>/<KTAP case>", and
	 * the case's variant names its scenario as dot-separated parts.
	 */
	for (;; pos++) {
		size_t la = strcspn(a, "/."), lb = strcspn(b, "/.");

		if (la != lb || strncmp(a, b, la)) {
			/* The binary (element 0) is never merged. */
			differ += pos == at && pos ? 1 : 2;
			sbuf_printf(&sb, "%.*s|%.*s", (int)la, a, (int)lb, b);
		} else {
			sbuf_printf(&sb, "%.*s", (int)la, a);
		}
		a += la;
		b += lb;
		if (!*a || !*b || *a != *b)
			break;
		sbuf_add(&sb, a, 1);
		a++;
		b++;
	}
	if (*a || *b || differ != 1) {
		sbuf_free(&sb);
		return NULL;
	}
	sbuf_add(&sb, "", 1);
	return sb.buf;
}

static bool cells_equal(const struct row *a, const struct row *b, size_t n)
{
	size_t i;

	for (i = 0; i < n * 2; i++)
		if (strcmp(a->cell[i], b->cell[i]))
			return false;
	return true;
}

/* Markdown: a '|' in a cell is escaped. */
static void md_text(struct sbuf *sb, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			sbuf_add(sb, "\\", 1);
		sbuf_add(sb, s, 1);
	}
}

char *table_markdown(const struct table_col *cols, size_t n)
{
	struct row *rows = NULL;
	struct sbuf sb = { 0 };
	size_t n_rows = 0, c, i, j, k;
	int at;

	/* Every row any column has. */
	for (c = 0; c < n; c++) {
		for (i = 0; i < cols[c].recs->n; i++) {
			const struct record *r = &cols[c].recs->v[i];
			size_t len = row_key_len(r);

			if (table_phase(r->col[REC_OP]) < 0 ||
			    row_find(rows, n_rows, r->col[REC_ID], len) >= 0)
				continue;
			rows = xrealloc(rows, (n_rows + 1) * sizeof(*rows));
			rows[n_rows].key = xstrndup(r->col[REC_ID], len);
			rows[n_rows].cell = xcalloc(n * 2, sizeof(char *));
			rows[n_rows].dead = false;
			n_rows++;
		}
	}
	/* Each cell: the decisions of one row, column and phase. */
	for (k = 0; k < n_rows; k++) {
		size_t klen = strlen(rows[k].key);

		for (c = 0; c < n; c++) {
			const struct record_set *s = cols[c].recs;
			struct entry *v[2];
			size_t nv[2] = { 0, 0 };
			int p;

			v[0] = xcalloc(s->n + 1, sizeof(struct entry));
			v[1] = xcalloc(s->n + 1, sizeof(struct entry));
			for (i = 0; i < s->n; i++) {
				const struct record *r = &s->v[i];

				p = table_phase(r->col[REC_OP]);
				if (p < 0 || row_key_len(r) != klen ||
				    strncmp(r->col[REC_ID], rows[k].key, klen))
					continue;
				entry_of(r, &v[p][nv[p]++]);
			}
			for (p = 0; p < 2; p++) {
				rows[k].cell[c * 2 + p] =
					cell_format(v[p], nv[p]);
				free(v[p]);
			}
		}
	}
	qsort(rows, n_rows, sizeof(*rows), row_cmp);
	/*
	 * Rows that differ in one element only and decide alike: one row.
	 * One element at a time, from the first: "dgram|stream" before
	 * "change|stack" before the scenarios.
	 */
	for (at = 0; at < 16; at++) {
		for (i = 0; i < n_rows; i++) {
			for (j = i + 1; j < n_rows && !rows[i].dead; j++) {
				char *merged;

				if (rows[j].dead ||
				    !cells_equal(&rows[i], &rows[j], n))
					continue;
				merged =
					key_merge(rows[i].key, rows[j].key, at);
				if (!merged)
					continue;
				free(rows[i].key);
				rows[i].key = merged;
				rows[j].dead = true;
			}
		}
	}

	sbuf_printf(&sb, "| scenario |");
	for (c = 0; c < n; c++) {
		sbuf_printf(&sb, " ");
		md_text(&sb, cols[c].name);
		sbuf_printf(&sb, ": existing socket | ");
		md_text(&sb, cols[c].name);
		sbuf_printf(&sb, ": new socket |");
	}
	sbuf_printf(&sb, "\n|---|");
	for (c = 0; c < n; c++)
		sbuf_printf(&sb, "---|---|");
	sbuf_printf(&sb, "\n");
	for (k = 0; k < n_rows; k++) {
		if (!rows[k].dead) {
			sbuf_printf(&sb, "| `");
			md_text(&sb, rows[k].key);
			sbuf_printf(&sb, "` |");
			for (c = 0; c < n * 2; c++) {
				sbuf_printf(&sb, " ");
				md_text(&sb, rows[k].cell[c]);
				sbuf_printf(&sb, " |");
			}
			sbuf_printf(&sb, "\n");
		}
		for (c = 0; c < n * 2; c++)
			free(rows[k].cell[c]);
		free(rows[k].cell);
		free(rows[k].key);
	}
	free(rows);
	sbuf_add(&sb, "", 1);
	return sb.buf;
}
