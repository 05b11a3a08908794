// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "bugreport.h"
#include "lib/lib.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

char *bug_source_file(const struct known_bug *b)
{
	const char *p = b->function, *s;

	for (; (s = strstr(p, ".c")); p = s + 2) {
		const char *start = s;

		while (start > b->function &&
		       (isalnum((unsigned char)start[-1]) ||
			strchr("/_-.", start[-1])))
			start--;
		if (memchr(start, '/', s - start))
			return xstrndup(start, s + 2 - start);
	}
	return NULL;
}

/* The first function @function names, "f" of "f() (file), ...". */
static char *first_function(const char *function)
{
	size_t n = strcspn(function, "( ,/");

	return xstrndup(function, n);
}

/* "a-b-c" after its first word ("apparmor-a-b" -> "a b"). */
static char *summary(const char *name)
{
	const char *dash = strchr(name, '-');
	char *s = xstrdup(dash ? dash + 1 : name), *p;

	for (p = s; *p; p++)
		if (*p == '-')
			*p = ' ';
	return s;
}

/* get_maintainer.pl's lines into To: (people) and Cc: (lists). */
static void addresses(const char *text, struct sbuf *to, struct sbuf *cc)
{
	const char *p = text;

	while (p && *p) {
		size_t n = strcspn(p, "\n");
		struct sbuf *sb = memchr(p, '<', n) ? to : cc;

		if (n && memchr(p, '@', n))
			sbuf_printf(sb, "%s%.*s", sb->len ? ", " : "", (int)n,
				    p);
		p += n + (p[n] == '\n');
	}
}

/* @text filled to lines of at most 72 columns, its first letter upper case. */
static void wrapped(struct sbuf *sb, const char *text)
{
	const char *p = text;
	size_t col = 0, n;

	while (*p) {
		p += strspn(p, " ");
		n = strcspn(p, " ");
		if (!n)
			break;
		if (col && col + 1 + n > 72) {
			sbuf_printf(sb, "\n");
			col = 0;
		}
		if (col)
			sbuf_printf(sb, " ");
		if (p == text)
			sbuf_printf(sb, "%c%.*s", toupper((unsigned char)*p),
				    (int)n - 1, p + 1);
		else
			sbuf_printf(sb, "%.*s", (int)n, p);
		col += (col ? 1 : 0) + n;
		p += n;
	}
	sbuf_printf(sb, "\n");
}

/* @text indented by two spaces, a line at a time. */
static void indented(struct sbuf *sb, const char *text)
{
	const char *p = text;

	while (*p) {
		size_t n = strcspn(p, "\n");

		sbuf_printf(sb, "%s%.*s\n", n ? "  " : "", (int)n, p);
		p += n + (p[n] == '\n');
	}
}

char *bug_report(const struct known_bug *b, const struct bug_files *f)
{
	struct sbuf sb = { 0 }, to = { 0 }, cc = { 0 };
	char *fn = first_function(b->function), *sum = summary(b->name), *line;
	size_t lsm = strcspn(b->name, "-");
	bool oops = !strcmp(b->observed, "oops");

	if (f->maintainers)
		addresses(f->maintainers, &to, &cc);
	sbuf_printf(&sb, "To: %s\nCc: %s\n", to.len ? to.buf : "",
		    cc.len ? cc.buf : "");
	sbuf_printf(&sb, "Subject: [BUG] %.*s: %s(): %s\n\n", (int)lsm, b->name,
		    fn, sum);
	sbuf_printf(&sb, "Hello,\n\n");
	wrapped(&sb, b->evidence);
	sbuf_printf(&sb, "\n");
	line = xasprintf("Kernels that show it (as tested): %s", b->kernels);
	wrapped(&sb, line);
	free(line);
	line = xasprintf("Code at fault: %s", b->function);
	wrapped(&sb, line);
	free(line);
	if (oops)
		line = xasprintf("What the kernel does: an oops, \"%s\", in %s",
				 b->fatal, b->trace);
	else
		line = xasprintf(
			"What the kernel does: %s where the rules say otherwise",
			b->observed);
	wrapped(&sb, line);
	free(line);
	if (f->repro_c && f->repro_profile) {
		sbuf_printf(
			&sb,
			"\nReproducer (one C file and its profile; root, AppArmor and\n"
			"apparmor_parser; it loads its profiles and removes them):\n\n"
			"  cc -static -o repro %s.c\n"
			"  ./repro %s.profile\n\n"
			"It prints KTAP and exits 1 when the kernel shows the bug, 0 when\n"
			"it does not.\n\n--- %s.c ---\n",
			b->name, b->name, b->name);
		indented(&sb, f->repro_c);
		sbuf_printf(&sb, "--- %s.profile ---\n", b->name);
		indented(&sb, f->repro_profile);
	} else {
		sbuf_printf(&sb, "\nThere is no standalone reproducer yet.\n");
	}
	if (f->fix)
		sbuf_printf(
			&sb,
			"\nA candidate fix follows; with it, the reproducer and the test\n"
			"cases below pass, and no other decision of the suite changes.\n\n%s",
			f->fix);
	else
		sbuf_printf(&sb, "\nThere is no candidate fix yet.\n");
	sbuf_printf(
		&sb,
		"\nFound by the lsmconf conformance tests; the cases that show it:\n");
	indented(&sb, b->cases);
	sbuf_printf(&sb, "and in lsmconf: %s\n", b->reproduce);
	free(fn);
	free(sum);
	sbuf_free(&to);
	sbuf_free(&cc);
	return sb.buf;
}
