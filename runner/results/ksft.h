/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksft.h - one program's part of what run_kselftest.sh prints
 *
 * kselftest's runner (kselftest/runner.sh) prints, for each program, a
 * header "# selftests: COLLECTION: NAME", the program's own KTAP with
 * every line prefixed "# ", then its own result line for the program:
 * "ok N selftests: C: NAME", "... # SKIP", "not ok N ... # exit=RC" or
 * "not ok N ... # TIMEOUT S seconds". Pure library code: no I/O.
 */
#ifndef LSMCONF_KSFT_H
#define LSMCONF_KSFT_H

#include <stdbool.h>
#include <stddef.h>

struct ksft_run {
	bool finished; /* the runner printed its result line */
	int rc; /* the program's exit status it stands for, -1 unknown */
	bool timed_out; /* "# TIMEOUT S seconds" */
	long timeout_s; /* S, or "# timeout set to S", or -1 */
};

/*
 * When @text (@len bytes) is run_kselftest.sh's output for one program,
 * returns the program's own output (its lines without the runner's "# ")
 * in a malloc'd NUL-terminated *@inner of *@inner_len bytes, and what the
 * runner said of it in @run; returns 1. Returns 0 (*@inner NULL) when
 * @text has no "# selftests: " header: it is a program's output as it is.
 * Returns -ENOMEM when out of memory.
 */
int ksft_unwrap(const char *text, size_t len, char **inner, size_t *inner_len,
		struct ksft_run *run);

/*
 * The next program's part of what "run_kselftest.sh -c COLLECTION"
 * printed for a whole collection, from offset *@pos of @text: from its
 * "# timeout set to" (or "# overriding timeout to") line or, without
 * one, its "# selftests: C: NAME" header, to the runner's result line
 * for it, or to the end when the output stops before that line. Returns
 * 1 with the part in *@part (*@part_len bytes, as ksft_unwrap() takes
 * it), NAME in @name (at most @size - 1 bytes) and *@pos after the
 * part; 0 when no header is left.
 */
int ksft_next(const char *text, size_t len, size_t *pos, const char **part,
	      size_t *part_len, char *name, size_t size);

#endif /* LSMCONF_KSFT_H */
