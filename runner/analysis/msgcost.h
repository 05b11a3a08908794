/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SELinux message-queue cost samples (selftests/selinux/msg_cost writes
 * them) and the check that the per-message cost does not grow with the
 * number of categories in the policy.
 */
#ifndef LSMCONF_MSGCOST_H
#define LSMCONF_MSGCOST_H

#include <stdbool.h>
#include <stddef.h>

struct msgcost_sample {
	int cats;
	char level[16]; /* none, high, low */
	int round;
	bool warmup;
	long long iterations, ns;
	double per_op; /* guest ns (instructions under icount) per round trip */
};

struct msgcost_set {
	struct msgcost_sample *v;
	size_t n;
	size_t malformed;
};

/* The sender levels msg_cost knows: "none", "high", "low". */
#define MSGCOST_N_LEVELS 3
extern const char *const msgcost_levels[MSGCOST_N_LEVELS];

/*
 * Checks @points, space-separated CATS:LEVEL: CATS one of the category
 * counts the SELinux policy is compiled for (4, 256, 1024), LEVEL one of
 * msgcost_levels. Returns 0, or -EINVAL with a one-line reason in @err
 * naming the bad point and the valid values.
 */
int msgcost_points_check(const char *points, char *err, size_t n);

/* Parses msgcost.tsv text; bad lines are counted, not fatal. */
void msgcost_parse(const char *text, struct msgcost_set *set);
void msgcost_free(struct msgcost_set *set);

/*
 * Defaults for msgcost_judge(), in instructions per category per round
 * trip (see the rule in msgcost.c): when the message carries no categories
 * (sender levels "none" and "high"), and when it carries them all ("low").
 */
#define MSGCOST_MAX_PER_CATEGORY 0.5
#define MSGCOST_MAX_PER_CARRIED_CATEGORY 8.0

/* The limit for @level: messages of level "low" carry the categories. */
double msgcost_limit(const char *level, double limit, double limit_carried);

struct msgcost_verdict {
	int cats_lo, cats_hi; /* fewest and most categories measured */
	double lo, hi; /* mean cost per op at cats_lo, cats_hi */
	double max_cv; /* largest CV of the two */
	double growth; /* hi - lo */
	double margin; /* 95% half-interval of growth (Welch) */
	double per_category; /* growth / (cats_hi - cats_lo) */
	bool grows; /* per_category > limit, beyond the margin */
};

/*
 * Judges one sender level: 0, or -1 when fewer than two category counts
 * (with two measured rounds each) were measured.
 */
int msgcost_judge(const struct msgcost_set *set, const char *level,
		  double limit, struct msgcost_verdict *v);
/* Mean cost per op of the measured rounds at @cats/@level (0 if none). */
double msgcost_mean(const struct msgcost_set *set, int cats, const char *level,
		    size_t *n);

#endif
