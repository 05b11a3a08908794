/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Each case announces itself in the kernel's log before its body runs:
 * "kselftest: PROGRAM: RUN CASE". A case that brings the kernel down is
 * then named by the console's last lines, which the kernel prints even
 * as it panics. The harness's own "#  RUN" line cannot promise that: it
 * goes to stdout, and a pipe (run_kselftest.sh's prefixing, a tee) can
 * still hold it when the kernel dies.
 *
 * Include it after kselftest_harness.h and end the file with
 * LSM_HARNESS_MAIN (or call lsm_harness_run() from a main of its own).
 */
#ifndef LSMCONF_KMSG_MARK_H
#define LSMCONF_KMSG_MARK_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef void (*lsm_case_fn)(struct __test_metadata *t,
			    struct __fixture_variant_metadata *v);

/* Each test's own body, by test: the harness knows only the wrapper. */
struct lsm_case_body {
	struct __test_metadata *test;
	lsm_case_fn fn;
};

static struct lsm_case_body *lsm_case_bodies;
/* The program's name, as run_kselftest.sh names it: argv[0]'s last part. */
static const char *lsm_case_program = "";
static size_t lsm_case_count;

/*
 * Runs in the case's child, before its body. /dev/kmsg is opened per
 * case: the kernel rate-limits writes per open file (10 per 5 s by
 * default). Without /dev/kmsg (not root, no devtmpfs) the case runs
 * unannounced.
 */
static void lsm_case_announced(struct __test_metadata *t,
			       struct __fixture_variant_metadata *v)
{
	int fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	char line[1024];
	size_t i;
	int n;

	/* One write() is one record (dprintf() cannot: kmsg has no SEEK_CUR). */
	n = snprintf(line, sizeof(line), "<6>kselftest: %s: RUN %s%s%s.%s\n",
		     lsm_case_program, t->fixture->name, v->name[0] ? "." : "",
		     v->name, t->name);
	if (fd >= 0) {
		if (n > 0 && (size_t)n < sizeof(line) && write(fd, line, n) < 0)
			n = -errno; /* the case runs unannounced */
		close(fd);
	}
	for (i = 0; i < lsm_case_count; i++) {
		if (lsm_case_bodies[i].test == t) {
			lsm_case_bodies[i].fn(t, v);
			return;
		}
	}
}

/* The harness's test_harness_run(), every case announced first. */
static inline int lsm_harness_run(int argc, char **argv)
{
	struct __fixture_metadata *f;
	struct __test_metadata *t;
	const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
	size_t n = 0;

	if (argc > 0)
		lsm_case_program = slash ? slash + 1 : argv[0];
	for (f = __fixture_list; f; f = f->next)
		for (t = f->tests; t; t = t->next)
			n++;
	lsm_case_bodies = calloc(n ? n : 1, sizeof(*lsm_case_bodies));
	if (lsm_case_bodies) {
		for (f = __fixture_list; f; f = f->next) {
			for (t = f->tests; t; t = t->next) {
				lsm_case_bodies[lsm_case_count].test = t;
				lsm_case_bodies[lsm_case_count++].fn = t->fn;
				t->fn = lsm_case_announced;
			}
		}
	}
	return test_harness_run(argc, argv);
}

#define LSM_HARNESS_MAIN                            \
	int main(int argc, char **argv)             \
	{                                           \
		return lsm_harness_run(argc, argv); \
	}

#endif /* LSMCONF_KMSG_MARK_H */
