/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Path evidence of the bench: the calls (and, when measured, instructions)
 * per message of each function of the LSM path, as the guest's path probe
 * writes them to probe.tsv, and the functions whose numbers differ between
 * the A and B boots with A2 as the control.
 */
#ifndef LSMCONF_PATH_H
#define LSMCONF_PATH_H

#include <stdbool.h>
#include <stddef.h>

enum path_status {
	PATH_COUNTED,
	PATH_ABSENT, /* no such symbol in that kernel */
	PATH_UNPROBEABLE, /* the kernel refused a kprobe on it */
};

struct path_row {
	char point[40];
	char function[64];
	enum path_status status;
	long long calls, messages;
	double instructions; /* total over the messages; < 0: not measured */
};

struct path_skip {
	char point[40];
	char reason[160];
};

struct path_tracer {
	char point[40];
	long long cost; /* instructions the tracer adds per traced call */
};

struct path_set {
	struct path_row *v;
	size_t n;
	struct path_skip *skip;
	size_t n_skip;
	struct path_tracer *tracer;
	size_t n_tracer;
	size_t malformed;
};

/*
 * Parses probe.tsv text: "POINT FUNCTION CALLS MESSAGES INSTRUCTIONS" with
 * CALLS a number, "absent" or "unprobeable" and INSTRUCTIONS a number or
 * "-", "# POINT skipped: REASON" and "# POINT tracer: INSTRUCTIONS" lines.
 * Bad lines are counted.
 */
void path_parse(const char *text, struct path_set *set);
void path_free(struct path_set *set);

/* The reason @point's probe was skipped in @set, or NULL. */
const char *path_skipped(const struct path_set *set, const char *point);
/* The tracer's cost per traced call of @point's probe, or -1. */
long long path_tracer_cost(const struct path_set *set, const char *point);

enum path_kind { PATH_CALLS, PATH_INSTRUCTIONS };

/* One function's numbers per message in the boots A, B, A2. */
struct path_change {
	char function[64];
	enum path_kind kind;
	double v[3]; /* per message; 0 when absent */
	bool absent[3]; /* no number in that boot (absent, unprobeable, none) */
	bool changed; /* B differs from A beyond the floor and the control */
	bool control_ok; /* A and A2 agree (within the floor) */
};

/*
 * Every function of @point with a number in some boot, in the order of
 * A's file (then B's, A2's), for both kinds when measured; malloc'd, count
 * in *@n. A function changed when |B - A| per message exceeds both the
 * floor (0.01 calls per message; for instructions 1 per message or 0.5%
 * of A, whichever is larger) and |A2 - A|; the control holds when
 * |A2 - A| is within the floor. A function absent from
 * a kernel counts 0 there.
 */
struct path_change *path_compare(const struct path_set set[3],
				 const char *point, size_t *n);

/* The floor of @kind at A's @a: differences up to it are noise or rounding. */
double path_floor(enum path_kind kind, double a);
const char *path_kind_name(enum path_kind kind);

#endif
