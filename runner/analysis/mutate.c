// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "mutate.h"
#include "path.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int mutant_header(const char *text, char **desc, char **equivalent)
{
	const char *line = text, *diff = strstr(text, "\n--- ");
	size_t n = strcspn(text, "\n");

	*desc = NULL;
	*equivalent = NULL;
	if (!n || !diff || !strncmp(text, "--- ", 4))
		return -1;
	*desc = xstrndup(text, n);
	for (; line && line < diff; line = strchr(line, '\n')) {
		if (*line == '\n')
			line++;
		if (!strncmp(line, "Equivalent: ", 12)) {
			*equivalent =
				xstrndup(line + 12, strcspn(line + 12, "\n"));
			break;
		}
	}
	return 0;
}

bool mutant_cost_only(const char *text)
{
	const char *diff = strstr(text, "\n--- "), *line;

	for (line = strstr(text, "\nCost-only: "); line && diff;
	     line = strstr(line + 1, "\nCost-only: "))
		if (line < diff)
			return true;
	return false;
}

const char *mutant_lsm(const char *patch)
{
	const char *found = NULL, *line;

	for (line = strstr(patch, "\n+++ "); line;
	     line = strstr(line + 1, "\n+++ ")) {
		const char *path = line + 5, *here = NULL;
		const struct lsm *l;

		/* "+++ b/security/selinux/hooks.c": skip the "b/" prefix. */
		path += strcspn(path, "/\n") + 1;
		l = lsm_of_source(path);
		if (l)
			here = l->name;
		if (!here || (found && found != here))
			return NULL;
		found = here;
	}
	return found;
}

static int cmp_mutant(const void *a, const void *b)
{
	return strcmp(((const struct mutant *)a)->name,
		      ((const struct mutant *)b)->name);
}

static bool wanted(const char *name, char *const *only, size_t n_only)
{
	size_t i;

	if (!n_only)
		return true;
	for (i = 0; i < n_only; i++)
		if (!strcmp(only[i], name))
			return true;
	return false;
}

int mutants_list(const char *dir, char *const *only, size_t n_only,
		 struct mutant **out, size_t *n, struct err *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t i, j;

	*out = NULL;
	*n = 0;
	if (!d)
		return err_set(e, "cannot read the mutants directory %s: %s",
			       dir, strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct mutant m = { 0 };
		char *text = NULL;
		size_t text_len;

		if (len <= 6 || strcmp(de->d_name + len - 6, ".patch"))
			continue;
		m.name = xstrndup(de->d_name, len - 6);
		if (!wanted(m.name, only, n_only)) {
			free(m.name);
			continue;
		}
		m.path = xasprintf("%s/%s", dir, de->d_name);
		/* Refused when planned, not when patch(1) meets it. */
		if (read_input(m.path, INPUT_MAX_BIG, INPUT_TEXT, &text,
			       &text_len, e) ||
		    diff_check(text, text_len, m.path, e) < 0 ||
		    (mutant_header(text, &m.desc, &m.equivalent) &&
		     err_set(e, "%s: no one-line description before the diff",
			     m.path))) {
			free(text);
			free(m.name);
			free(m.path);
			closedir(d);
			goto fail;
		}
		m.cost_only = mutant_cost_only(text);
		m.lsm = mutant_lsm(text);
		m.text = text;
		*out = xrealloc(*out, (*n + 1) * sizeof(m));
		(*out)[(*n)++] = m;
	}
	closedir(d);
	qsort(*out, *n, sizeof(**out), cmp_mutant);
	for (i = 0; i < n_only; i++) {
		for (j = 0; j < *n && strcmp((*out)[j].name, only[i]); j++)
			;
		if (j == *n) {
			err_set(e, "no mutant %s in %s", only[i], dir);
			goto fail;
		}
	}
	if (!*n)
		return err_set(e, "no mutants (*.patch) in %s", dir);
	return 0;
fail:
	mutants_free(*out, *n);
	*out = NULL;
	*n = 0;
	return -1;
}

void mutant_clear(struct mutant *m)
{
	free(m->name);
	free(m->path);
	free(m->desc);
	free(m->text);
	free(m->equivalent);
	memset(m, 0, sizeof(*m));
}

void mutants_free(struct mutant *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		mutant_clear(&m[i]);
	free(m);
}

bool mutant_diff_missing(const struct mutant_diff *d)
{
	return !strcmp(d->a, "-") || !strcmp(d->b, "-");
}

static size_t missing(const struct mutant_run *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->n_diffs; i++)
		n += mutant_diff_missing(&r->diffs[i]);
	return n;
}

const char *mutant_rerun_reason(const struct mutant_run *r)
{
	if (!r->reached)
		return "the guest never reached its tests";
	if (missing(r))
		return "a decision is recorded on one side only";
	/*
	 * A failure of its own (one the original does not show alike);
	 * with a decision changed, a failure on top kills no less.
	 */
	if (r->n_fails && !r->n_diffs)
		return "it failed with every decision as the original's";
	if (!r->ok && !r->n_alike && !r->n_diffs)
		return "it failed, and nothing of the kernel's says why";
	return NULL;
}

/* The same difference: the same case, the same two outcomes. */
static bool same_diff(const struct mutant_diff *x, const struct mutant_diff *y)
{
	return !strcmp(x->id, y->id) && !strcmp(x->a, y->a) &&
	       !strcmp(x->b, y->b);
}

static const struct mutant_fail *find_fail(const struct mutant_run *r,
					   const char *name)
{
	size_t i;

	for (i = 0; i < r->n_fails; i++)
		if (!strcmp(r->fails[i].name, name))
			return &r->fails[i];
	return NULL;
}

static void add_diff(struct mutant_judgement *j, const struct mutant_diff *d)
{
	j->diffs = xrealloc(j->diffs, (j->n_diffs + 1) * sizeof(*j->diffs));
	j->diffs[j->n_diffs++] = d;
	j->ways |= MUTANT_BY_DECISION;
}

/* Decisions: a complete second run's, or those the two runs share. */
static void repeated_diffs(const struct mutant_run *r1,
			   const struct mutant_run *r2,
			   struct mutant_judgement *j)
{
	size_t i, k;

	if (r2->reached && !missing(r2)) {
		for (i = 0; i < r2->n_diffs; i++)
			add_diff(j, &r2->diffs[i]);
		return;
	}
	for (i = 0; i < r2->n_diffs; i++)
		for (k = 0; k < r1->n_diffs; k++)
			if (same_diff(&r2->diffs[i], &r1->diffs[k])) {
				add_diff(j, &r2->diffs[i]);
				break;
			}
}

/* Failures of the same name in both (failed) runs. */
static void repeated_fails(const struct mutant_run *r1,
			   const struct mutant_run *r2,
			   struct mutant_judgement *j)
{
	size_t i;

	for (i = 0; i < r1->n_fails; i++) {
		const struct mutant_fail *f = &r1->fails[i];
		const struct mutant_fail *g = find_fail(r2, f->name);

		if (!g)
			continue;
		j->fails = xrealloc(j->fails,
				    (j->n_fails + 1) * sizeof(*j->fails));
		j->crashed = xrealloc(j->crashed,
				      (j->n_fails + 1) * sizeof(*j->crashed));
		/* A crash in one run and a plain failure in the other is not
		 * a repeated crash. */
		j->crashed[j->n_fails] = f->trace && g->trace;
		j->ways |= j->crashed[j->n_fails] ? MUTANT_BY_CRASH :
						    MUTANT_BY_FAILURE;
		j->fails[j->n_fails++] = f;
	}
}

void mutant_judge(bool built, const struct mutant_run *r1,
		  const struct mutant_run *r2, struct mutant_judgement *j)
{
	size_t i;

	memset(j, 0, sizeof(*j));
	if (!built) {
		j->verdict = MUTANT_STILLBORN;
		j->why =
			"the patch does not apply or the kernel does not build";
		return;
	}
	if (!mutant_rerun_reason(r1)) {
		/* A complete run: its decisions alone decide. */
		for (i = 0; i < r1->n_diffs; i++)
			add_diff(j, &r1->diffs[i]);
		j->verdict = j->n_diffs ? MUTANT_KILLED : MUTANT_SURVIVED;
		return;
	}
	if (!r2) {
		j->verdict = MUTANT_INCONCLUSIVE;
		j->why =
			"the first run decides nothing and there was no second";
		return;
	}
	if (!r1->reached && !r2->reached) {
		j->verdict = MUTANT_STILLBORN;
		j->why = "the guest never reached its tests, in two runs";
		return;
	}
	repeated_diffs(r1, r2, j);
	repeated_fails(r1, r2, j);
	if (j->ways) {
		j->verdict = MUTANT_KILLED;
		return;
	}
	j->verdict = MUTANT_INCONCLUSIVE;
	if (!r1->reached || !r2->reached)
		j->why = "the guest reached its tests in one run of two";
	else if (missing(r1))
		j->why = "a decision missing on one side did not repeat";
	else
		j->why = "a failure of the first run did not repeat";
}

void mutant_judgement_free(struct mutant_judgement *j)
{
	free(j->diffs);
	free(j->fails);
	free(j->crashed);
	memset(j, 0, sizeof(*j));
}

const char *mutant_verdict_name(enum mutant_verdict v)
{
	static const char *const names[] = { "killed", "survived", "stillborn",
					     "inconclusive" };

	return v < MUTANT_N_VERDICTS ? names[v] : "?";
}

const char *mutant_ways_name(unsigned int ways)
{
	static const char *const names[] = {
		"-",
		"decision",
		"failure",
		"decision+failure",
		"crash",
		"decision+crash",
		"failure+crash",
		"decision+failure+crash",
		"cost",
		"decision+cost",
		"failure+cost",
		"decision+failure+cost",
		"crash+cost",
		"decision+crash+cost",
		"failure+crash+cost",
		"decision+failure+crash+cost",
	};

	return names[ways & 15];
}

void mutant_judge_cost(struct mutant_judgement *j, int changed)
{
	if (j->verdict != MUTANT_KILLED && j->verdict != MUTANT_SURVIVED)
		return;
	if (changed > 0) {
		/* A cost change of its own kills, decisions or not. */
		j->ways |= MUTANT_BY_COST;
		j->verdict = MUTANT_KILLED;
	} else if (changed < 0 && j->verdict == MUTANT_SURVIVED) {
		j->verdict = MUTANT_INCONCLUSIVE;
		j->why =
			"its cost was not measured (the cost boot gave no samples)";
	}
}

/* Whether @set has an instruction row of @point. */
static bool profiled(const struct path_set *set, const char *point)
{
	size_t i;

	for (i = 0; i < set->n; i++)
		if (!strcmp(set->v[i].point, point) &&
		    set->v[i].status == PATH_COUNTED &&
		    set->v[i].instructions >= 0)
			return true;
	return false;
}

/* Why a claim is refused by the mutant's own runs, or NULL. */
static char *runs_refuse(const struct mutant_judgement *j,
			 const struct mutant_run *r1)
{
	switch (j->verdict) {
	case MUTANT_KILLED:
		return xasprintf("it is killed by %s",
				 mutant_ways_name(j->ways));
	case MUTANT_STILLBORN:
	case MUTANT_INCONCLUSIVE:
		return xasprintf("it is %s (%s)",
				 mutant_verdict_name(j->verdict),
				 j->why ? j->why : "-");
	default:
		break;
	}
	/* A survivor: its first run alone decided, and must show nothing. */
	if (!r1 || !r1->reached)
		return xstrdup("its guest never reached its tests");
	if (missing(r1))
		return xstrdup("a decision is recorded on one side only");
	if (r1->n_diffs)
		return xasprintf("%zu decisions differ from the original's",
				 r1->n_diffs);
	if (r1->n_fails)
		return xasprintf("a failure of its own: %s", r1->fails[0].name);
	if (!r1->ok && !r1->n_alike)
		return xstrdup("a boot of its failed");
	return NULL;
}

/* Why @point's profile refuses the claim, appended to @why. */
static void point_refuse(const char *point, const struct path_set *prof,
			 struct sbuf *why)
{
	static const char *const whose[3] = { "the original's A",
					      "the mutant's cost boot",
					      "the original's A2" };
	struct path_change *c;
	size_t n, i, shown = 0;
	int b;

	for (b = 0; b < 3; b++)
		if (!profiled(&prof[b], point)) {
			sbuf_printf(why, "%sno instruction profile at %s in %s",
				    why->len ? "; " : "", point, whose[b]);
			return;
		}
	c = path_compare(prof, point, &n);
	for (i = 0; i < n; i++) {
		/* The original's own spread; 1e-9: the per-message division. */
		double spread = fabs(c[i].v[2] - c[i].v[0]) + 1e-9;

		if (c[i].kind != PATH_INSTRUCTIONS ||
		    fabs(c[i].v[1] - c[i].v[0]) <= spread)
			continue;
		if (!shown)
			sbuf_printf(why,
				    "%sinstructions per message differ at %s:",
				    why->len ? "; " : "", point);
		if (shown++ < 3)
			sbuf_printf(
				why, "%s %s %.2f -> %.2f (%+.3g/msg, A2 %.2f)",
				shown > 1 ? "," : "", c[i].function, c[i].v[0],
				c[i].v[1], c[i].v[1] - c[i].v[0], c[i].v[2]);
	}
	if (shown > 3)
		sbuf_printf(why, " and %zu more", shown - 3);
	free(c);
}

char *mutant_equivalence_refused(const struct mutant_judgement *j,
				 const struct mutant_run *r1,
				 const char *points,
				 const struct path_set *prof)
{
	char *why = runs_refuse(j, r1), *copy, *tok, *save = NULL;
	struct sbuf sb = { 0 };

	if (why)
		return why;
	copy = xstrdup(points ? points : "");
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		point_refuse(tok, prof, &sb);
	free(copy);
	if (!sb.len && (!points || !*points))
		return xstrdup("no cost point was profiled");
	return sb.buf;
}

/* Numbers as "N": boot 3 and boot 2 say the same thing. */
static char *squash_numbers(const char *s, size_t len)
{
	struct sbuf sb = { 0 };
	size_t i;

	sbuf_printf(&sb, "%s", "");
	for (i = 0; i < len; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			sbuf_printf(&sb, "N");
			while (i + 1 < len && s[i + 1] >= '0' &&
			       s[i + 1] <= '9')
				i++;
		} else {
			sbuf_printf(&sb, "%c", s[i]);
		}
	}
	return sb.buf;
}

static void push_fail(struct mutant_fail **v, size_t *n, char *name, bool crash)
{
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[*n].name = name;
	/* The caller fills a crash's line from its crash-N.txt. */
	(*v)[*n].trace = crash ? xstrdup("") : NULL;
	(*n)++;
}

/*
 * A case's result line in a test's section of ktap.txt, or NULL: its own
 * KTAP is nested once ("# not ok 2 CASE", a program run alone, and the
 * session's "# not ok 0 CASE # brought the kernel down") or twice, under
 * run_kselftest.sh ("# # not ok 6 CASE"); the runner's own line for the
 * program ("# not ok 1 selftests: LSM: TEST # exit=1") is not a case.
 */
static const char *case_result(const char *line)
{
	int depth;

	for (depth = 0; depth < 2 && !strncmp(line, "# ", 2); depth++)
		line += 2;
	if (!depth || strncmp(line, "not ok ", 7))
		return NULL;
	line += 7;
	line += strspn(line, "0123456789 ");
	return strncmp(line, "selftests: ", 11) ? line : NULL;
}

/*
 * Whether a boot problem is the guest's own report ("boot N: kernel
 * WARNING in test T ... at console line L: ..."): the others (a frame
 * cut short, a boot that died, a list out of date) say nothing the
 * kernel showed, and a host's trouble must never kill.
 */
static bool kernel_report(const char *problem)
{
	const char *p = problem;

	if (strncmp(p, "boot ", 5))
		return false;
	p += 5;
	if (*p < '0' || *p > '9')
		return false;
	p += strspn(p, "0123456789");
	return !strncmp(p, ": kernel ", 9);
}

void mutant_ktap_failures(const char *ktap, struct mutant_fail **v, size_t *n)
{
	const char *line, *test = NULL, *name;
	size_t test_len = 0, cases = 0;

	for (line = ktap; line && *line;
	     line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		size_t len = strcspn(line, "\n");

		if (!strncmp(line, "# selftests: ", 13)) {
			/* "# selftests: LSM: TEST", the session's header */
			const char *t = strstr(line + 13, ": ");

			test = t && t < line + len ? t + 2 : NULL;
			test_len = test ? len - (test - line) : 0;
			cases = 0;
		} else if (test && (name = case_result(line)) &&
			   name < line + len) {
			const char *down;
			size_t k = strcspn(name, "\n #");

			/* How the session marks a case that took the kernel. */
			down = strstr(name, "# brought the kernel down");
			cases++;
			push_fail(v, n,
				  xasprintf("%.*s/%.*s", (int)test_len, test,
					    (int)k, name),
				  down && down < line + len);
		} else if (!strncmp(line, "not ok ", 7)) {
			/* "not ok N selftests: LSM: TEST[ # PROBLEM]" */
			const char *t = strstr(line, "selftests: ");

			name = t && t < line + len ? strstr(t + 11, ": ") :
						     NULL;
			const char *why = name ? strstr(name, " # ") : NULL;

			/*
			 * A test is named when no case of it is (a test
			 * failing by other cases in each run is not the same
			 * failure), or with its problem (lost cases, a
			 * timeout, an exit status) beside failed cases; a
			 * crash is named by its case already.
			 */
			if (why && (why > line + len ||
				    memmem(why, line + len - why,
					   "brought the kernel down", 23)))
				why = NULL;
			if (name && name < line + len && (!cases || why)) {
				char *what =
					why ? squash_numbers(why,
							     line + len - why) :
					      NULL;

				name += 2;
				push_fail(v, n,
					  xasprintf("%.*s%s",
						    (int)strcspn(name, "\n #"),
						    name, what ? what : ""),
					  false);
				free(what);
			}
		} else if (!strncmp(line, "# boot problem: ", 16) &&
			   kernel_report(line + 16)) {
			char *what = squash_numbers(line + 16, len - 16);

			push_fail(v, n, xasprintf("boot: %s", what), false);
			free(what);
		}
	}
}

int mutant_crash_note(const char *text, char **name, char **line)
{
	const char *test, *kase, *why, *report;
	size_t tl, cl;

	*name = *line = NULL;
	if (strncmp(text, "boot ", 5))
		return -1;
	test = strstr(text, " ended in test ");
	kase = strstr(text, ", case ");
	why = strchr(text, '\n');
	if (!test || !kase || !why || kase < test || why < kase)
		return -1;
	test += 15;
	tl = kase - test;
	kase += 7;
	cl = why - kase;
	why++;
	report = strstr(why, "\n\n");
	*name = xasprintf("%.*s/%.*s", (int)tl, test, (int)cl, kase);
	if (report && report[2] && report[2] != '(') {
		report += 2;
		/* The console's "[   48.492534] " says when, not what. */
		if (*report == '[' && strstr(report, "] ") &&
		    strstr(report, "] ") < report + strcspn(report, "\n"))
			report = strstr(report, "] ") + 2;
		*line = xstrndup(report, strcspn(report, "\n"));
	} else
		*line = xstrndup(why, strcspn(why, "\n"));
	return 0;
}

bool mutant_fail_shared(const struct mutant_fail *f,
			const struct mutant_fail *other, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(f->name, other[i].name) &&
		    !f->trace == !other[i].trace &&
		    (!f->trace || !strcmp(f->trace, other[i].trace)))
			return true;
	return false;
}

void mutant_fails_free(struct mutant_fail *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].trace);
	}
	free(v);
}
