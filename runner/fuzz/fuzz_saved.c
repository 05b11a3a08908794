// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for results/saved.c: a saved run as `compare --saved`
 * and `kcidb` read it back. The input is the run's files (fuzz_part()):
 * two boots' kernel.txt, ktap.txt, records.tsv and known.tsv, and the
 * run's compare.tsv, written into a private directory (a part left out,
 * its file too). A refusal is one line; a run loaded has a spec, a suite
 * and a directory for every boot, and the loader leaves nothing behind.
 */
#include "fuzz.h"
#include "results/saved.h"

#include <stdlib.h>
#include <unistd.h>

static const char *const files[] = {
	"run/a/kernel.txt",  "run/a/ktap.txt",	 "run/a/records.tsv",
	"run/a/known.tsv",   "run/b/kernel.txt", "run/b/ktap.txt",
	"run/b/records.tsv", "run/compare.tsv",
};

static char *base;

static void cleanup(void)
{
	remove_tree(base);
}

static void check(const struct saved_kernel *k, int n)
{
	int i;
	size_t j;

	for (i = 0; i < n; i++) {
		if (!k[i].spec || !k[i].ident || !k[i].n ||
		    k[i].n > SAVED_MAX_BOOTS)
			__builtin_trap();
		for (j = 0; j < k[i].n; j++)
			if (!k[i].dir[j] || !k[i].lsm[j] || !k[i].lsm[j][0])
				__builtin_trap();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct saved_kernel k[2];
	struct err e;
	char *dir;
	size_t i, len;
	int n, sw;

	if (!base) {
		base = fuzz_tmpdir("saved");
		atexit(cleanup);
	}
	remove_tree(base);
	for (i = 0; i < ARRAY_SIZE(files); i++) {
		const char *part = fuzz_part(data, size, i, &len);
		char *path = xasprintf("%s/%s", base, files[i]);
		char *slash = strrchr(path, '/');

		*slash = '\0';
		mkdir_p(path);
		*slash = '/';
		if (part)
			write_file(path, part, len);
		free(path);
	}
	dir = xasprintf("%s/run", base);
	n = saved_load(dir, k, 2, &e);
	if (n < 0) {
		fuzz_one_line(e.msg);
	} else {
		if (n < 1 || n > 2)
			__builtin_trap();
		check(k, n);
		sw = saved_swapped(dir, k[n - 1].spec, &e);
		if (sw < 0)
			fuzz_one_line(e.msg);
		for (i = 0; i < (size_t)n; i++)
			saved_kernel_free(&k[i]);
	}
	free(dir);
	/* One boot's own directory. */
	dir = xasprintf("%s/run/a", base);
	n = saved_load(dir, k, 1, &e);
	if (n < 0) {
		fuzz_one_line(e.msg);
	} else {
		check(k, n);
		saved_kernel_free(&k[0]);
	}
	free(dir);
	return 0;
}
