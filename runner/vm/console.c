// SPDX-License-Identifier: GPL-2.0
/*
 * console.c - scan a guest kernel log for panics, oopses, BUGs, WARNINGs
 * and stalls
 *
 * Each line is stripped of an optional printk level ("<4>"), an optional
 * timestamp ("[    1.234567] ", possibly with a "[    T1]" caller id) and
 * then matched only at its start.  The input is treated as bytes.
 */
#include <stdio.h>
#include <string.h>

#include "console.h"
#include "lib/lib.h"

struct span {
	const char *p;
	size_t n;
};

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool starts(struct span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n >= n && !memcmp(s.p, lit, n);
}

static bool contains(struct span s, const char *lit)
{
	size_t n = strlen(lit);
	size_t i;

	for (i = 0; i + n <= s.n; i++) {
		if (!memcmp(s.p + i, lit, n))
			return true;
	}
	return false;
}

static void advance(struct span *s, size_t n)
{
	s->p += n;
	s->n -= n;
}

static size_t count_digits(struct span s, size_t from)
{
	size_t i = from;

	while (i < s.n && is_digit(s.p[i]))
		i++;
	return i - from;
}

/* "<N>" */
static void strip_level(struct span *s)
{
	size_t d;

	if (!s->n || s->p[0] != '<')
		return;
	d = count_digits(*s, 1);
	if (d < 1 || d > 3 || s->n < d + 2 || s->p[d + 1] != '>')
		return;
	advance(s, d + 2);
}

/* "[   12.345678]" and, after it, the caller id "[    T123]" */
static bool strip_timestamp(struct span *s)
{
	size_t i = 1, d;

	if (!s->n || s->p[0] != '[')
		return false;
	while (i < s->n && s->p[i] == ' ')
		i++;
	d = count_digits(*s, i);
	if (!d)
		return false;
	i += d;
	if (i < s->n && s->p[i] == '.') {
		d = count_digits(*s, i + 1);
		if (!d)
			return false;
		i += 1 + d;
	}
	while (i < s->n && s->p[i] == ' ')
		i++;
	if (i >= s->n || s->p[i] != ']')
		return false;
	advance(s, i + 1);

	/* CONFIG_PRINTK_CALLER */
	if (s->n && s->p[0] == '[') {
		i = 1;
		while (i < s->n && s->p[i] == ' ')
			i++;
		if (i < s->n && (s->p[i] == 'T' || s->p[i] == 'C')) {
			d = count_digits(*s, i + 1);
			if (d && i + 1 + d < s->n && s->p[i + 1 + d] == ']')
				advance(s, i + 2 + d);
		}
	}
	if (s->n && s->p[0] == ' ')
		advance(s, 1);
	return true;
}

static void strip_prefixes(struct span *s)
{
	strip_level(s);
	if (strip_timestamp(s))
		strip_level(s);
}

/* Returns the event the line reports, or CONSOLE_N_EVENTS for none. */
static enum console_event classify(struct span s)
{
	/*
	 * "PANIC: early exception" is the x86 early trap handler's panic:
	 * it comes before panic= is parsed, and the guest then halts.
	 */
	if (starts(s, "Kernel panic - not syncing") ||
	    starts(s, "---[ end Kernel panic") ||
	    starts(s, "PANIC: early exception"))
		return CONSOLE_PANIC;

	/* Stalls first: some of them print "BUG:". */
	if (starts(s, "watchdog: BUG: soft lockup") ||
	    starts(s, "BUG: soft lockup") || starts(s, "rcu: INFO: rcu_") ||
	    starts(s, "INFO: rcu_"))
		return CONSOLE_STALL;
	if (starts(s, "INFO: task ") && contains(s, "blocked for more than"))
		return CONSOLE_STALL;

	if (starts(s, "Oops:") || starts(s, "general protection fault") ||
	    starts(s, "BUG: unable to handle"))
		return CONSOLE_OOPS;

	if (starts(s, "BUG:") || starts(s, "kernel BUG at ") ||
	    starts(s, "UBSAN:") || starts(s, "KASAN:") ||
	    starts(s, "list_add corruption") ||
	    starts(s, "list_del corruption") || starts(s, "refcount_t:"))
		return CONSOLE_BUG;

	if (starts(s, "WARNING:"))
		return CONSOLE_WARNING;

	return CONSOLE_N_EVENTS;
}

static void record(struct console_scan *scan, enum console_event e,
		   unsigned int line, struct span s)
{
	struct console_finding *f = &scan->first[e];
	size_t i, n;

	if (scan->count[e]++)
		return;
	f->event = e;
	f->line = line;
	n = s.n < sizeof(f->text) - 1 ? s.n : sizeof(f->text) - 1;
	for (i = 0; i < n; i++)
		f->text[i] = s.p[i] ? s.p[i] : '?';
	f->text[n] = '\0';
}

enum console_line_kind console_line_kind(const char *line, size_t len)
{
	struct span s = { line, len };

	if (s.n && s.p[s.n - 1] == '\r')
		s.n--;
	strip_prefixes(&s);
	/*
	 * Each of these ends the kernel's useful life: a panic, an oops
	 * (oops=panic, or a halt before that is parsed), a BUG().
	 */
	if (starts(s, "Kernel panic - not syncing") ||
	    starts(s, "---[ end Kernel panic") ||
	    starts(s, "PANIC: early exception") ||
	    starts(s, "kernel BUG at ") || starts(s, "Oops:") ||
	    starts(s, "general protection fault") ||
	    starts(s, "BUG: unable to handle") ||
	    starts(s, "BUG: kernel NULL pointer dereference"))
		return CONSOLE_LINE_FATAL;
	if (contains(s, "[ cut here ]") || starts(s, "---[ end trace"))
		return CONSOLE_LINE_TRACE;
	return CONSOLE_LINE_OTHER;
}

void console_scan(const char *text, size_t len, struct console_scan *scan)
{
	unsigned int line = 0;
	size_t pos = 0;
	int e;

	memset(scan, 0, sizeof(*scan));
	scan->bytes = len;
	for (e = 0; e < CONSOLE_N_EVENTS; e++)
		scan->first[e].event = e;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		struct span s = { text + pos, len - pos };
		enum console_event ev;

		if (nl)
			s.n = nl - s.p;
		line++;
		pos += s.n + 1;
		if (s.n && s.p[s.n - 1] == '\r')
			s.n--;
		strip_prefixes(&s);
		ev = classify(s);
		if (ev != CONSOLE_N_EVENTS)
			record(scan, ev, line, s);
	}
}

const char *console_event_name(enum console_event e)
{
	switch (e) {
	case CONSOLE_PANIC:
		return "panic";
	case CONSOLE_OOPS:
		return "oops";
	case CONSOLE_BUG:
		return "BUG";
	case CONSOLE_WARNING:
		return "WARNING";
	case CONSOLE_STALL:
		return "stall";
	case CONSOLE_N_EVENTS:
		break;
	}
	return "unknown";
}

bool console_verdict(const struct console_scan *scan, char *buf, size_t size)
{
	int e;

	if (size)
		buf[0] = '\0';
	/* The enum is ordered by severity. */
	for (e = 0; e < CONSOLE_N_EVENTS; e++) {
		const struct console_finding *f = &scan->first[e];

		if (!scan->count[e])
			continue;
		if (size)
			snprintf(buf, size, "kernel %s at console line %u: %s",
				 console_event_name(e), f->line, f->text);
		return true;
	}
	return false;
}

/* A line of @text as a span without its line end; advances *@pos. */
static struct span console_line(const char *text, size_t len, size_t *pos)
{
	const char *nl = memchr(text + *pos, '\n', len - *pos);
	struct span s = { text + *pos, len - *pos };

	if (nl)
		s.n = nl - s.p;
	*pos += s.n + 1;
	if (s.n && s.p[s.n - 1] == '\r')
		s.n--;
	return s;
}

/* The length of @p up to the first @c, at most @n. */
static size_t strcspn_n(const char *p, size_t n, char c)
{
	const char *hit = memchr(p, c, n);

	return hit ? (size_t)(hit - p) : n;
}

/* Lines that only an oops prints (oops=panic makes the first one fatal). */
static bool oops_line(struct span s)
{
	return starts(s, "Oops:") || starts(s, "general protection fault") ||
	       starts(s, "kernel BUG at ");
}

/* A report's first line may stand this many lines before its next one. */
#define SAME_REPORT_LINES 8

unsigned int console_fatal_line(const char *text, size_t len)
{
	unsigned int line = 0, head = 0;
	size_t pos = 0;

	while (pos < len) {
		struct span s = console_line(text, len, &pos);
		enum console_event ev;

		line++;
		strip_prefixes(&s);
		if (starts(s, "---[ end trace"))
			head = 0;
		/* "BUG: kernel NULL pointer dereference" heads the oops. */
		if (oops_line(s))
			return head && line - head <= SAME_REPORT_LINES ? head :
									  line;
		ev = classify(s);
		if (ev == CONSOLE_PANIC && starts(s, "Kernel panic"))
			return line;
		if (ev == CONSOLE_BUG || ev == CONSOLE_OOPS)
			head = line;
	}
	return 0;
}

size_t console_problems(const char *text, size_t len,
			struct console_problem **out)
{
	unsigned int fatal = console_fatal_line(text, len), line = 0;
	unsigned int last = 0;
	size_t pos = 0, n = 0;
	char test[sizeof((*out)->test)] = "";
	bool open = false, prev_refcount = false;
	enum console_event prev = CONSOLE_N_EVENTS;

	*out = NULL;
	while (pos < len) {
		struct span s = console_line(text, len, &pos), w;
		enum console_event ev;

		line++;
		if (fatal && line >= fatal)
			break;
		/* The guest's markers: "lsmconf: run NAME LIMIT", "done". */
		if (starts(s, "lsmconf: run ")) {
			w = s;
			advance(&w, strlen("lsmconf: run "));
			w.n = strcspn_n(w.p, w.n, ' ');
			snprintf(test, sizeof(test), "%.*s", (int)w.n, w.p);
			continue;
		}
		if (starts(s, "lsmconf: done ")) {
			test[0] = '\0';
			continue;
		}
		strip_prefixes(&s);
		if (starts(s, "---[ end trace")) {
			open = false;
			continue;
		}
		ev = classify(s);
		if (ev == CONSOLE_N_EVENTS)
			continue;
		/*
		 * One report's second headline: "refcount_t: ..." then its
		 * "WARNING: ...", "BUG: ..." then its "Oops: ...".
		 */
		if (open && line - last <= SAME_REPORT_LINES &&
		    ((prev == CONSOLE_BUG && oops_line(s)) ||
		     (prev_refcount && ev == CONSOLE_WARNING))) {
			last = line;
			open = false;
			continue;
		}
		prev = ev;
		prev_refcount = starts(s, "refcount_t:");
		*out = xrealloc(*out, (n + 1) * sizeof(**out));
		memset(&(*out)[n], 0, sizeof(**out));
		(*out)[n].event = ev;
		(*out)[n].line = line;
		snprintf((*out)[n].text, sizeof((*out)[n].text), "%.*s",
			 (int)(s.n < sizeof((*out)[n].text) ?
				       s.n :
				       sizeof((*out)[n].text) - 1),
			 s.p);
		snprintf((*out)[n].test, sizeof((*out)[n].test), "%s", test);
		n++;
		open = true;
		last = line;
	}
	return n;
}
