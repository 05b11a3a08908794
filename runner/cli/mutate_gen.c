// SPDX-License-Identifier: GPL-2.0
/*
 * `mutate --generate N --seed S [--files GLOB]`: N mutants drawn by the
 * seed from every site of every operator (analysis/mutgen.h) in the
 * chosen files of the source tree, per LSM (its own C files) unless
 * --files names them, written as the corpus' patches for mutate to run.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "mutate.h"
#include "analysis/analysis.h"
#include "provision/provision.h"
#include "lib/lib.h"

#include <errno.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A site of a file of the group. */
struct gen_site {
	size_t file;
	struct mutgen_site s;
};

struct gen_group {
	char **files; /* paths in the tree */
	char **texts;
	size_t n_files;
	struct gen_site *sites;
	size_t n_sites;
};

static char *tree_of(const char *source, struct err *e)
{
	if (!strncmp(source, "debian-source:", 14))
		return debian_source_tree(source, source + 14, NULL, e);
	return realpath(source, NULL);
}

/*
 * The files of @pattern (relative to @tree) into @g, each read once;
 * @lsm_default: an LSM's own files, without its KUnit tests.
 */
static int add_files(struct gen_group *g, const char *tree, const char *pattern,
		     bool lsm_default, struct err *e)
{
	char *full = xasprintf("%s/%s", tree, pattern);
	size_t i, tl = strlen(tree) + 1;
	glob_t gl;
	int rc = 0;

	if (glob(full, 0, NULL, &gl)) {
		free(full);
		return 0;
	}
	for (i = 0; !rc && i < gl.gl_pathc; i++) {
		const char *rel = gl.gl_pathv[i] + tl;
		char *text = NULL;
		size_t j;
		bool seen = false;

		for (j = 0; j < g->n_files; j++)
			seen |= !strcmp(g->files[j], rel);
		if (seen || strcmp(rel + strlen(rel) - 2, ".c") ||
		    (lsm_default && !mutgen_default_file(rel)))
			continue;
		if (read_file(gl.gl_pathv[i], &text, NULL)) {
			rc = err_set(e, "cannot read %s", gl.gl_pathv[i]);
			break;
		}
		g->files =
			xrealloc(g->files, (g->n_files + 1) * sizeof(char *));
		g->texts =
			xrealloc(g->texts, (g->n_files + 1) * sizeof(char *));
		g->files[g->n_files] = xstrdup(rel);
		g->texts[g->n_files++] = text;
	}
	globfree(&gl);
	free(full);
	return rc;
}

static void group_sites(struct gen_group *g)
{
	size_t f, i, n;
	struct mutgen_site *s;

	for (f = 0; f < g->n_files; f++) {
		n = mutgen_sites(g->texts[f], &s);
		g->sites = xrealloc(g->sites,
				    (g->n_sites + n + 1) * sizeof(*g->sites));
		for (i = 0; i < n; i++)
			g->sites[g->n_sites++] =
				(struct gen_site){ .file = f, .s = s[i] };
		free(s); /* the sites' lines now belong to the group */
	}
}

static void group_free(struct gen_group *g)
{
	size_t i;

	for (i = 0; i < g->n_files; i++) {
		free(g->files[i]);
		free(g->texts[i]);
	}
	for (i = 0; i < g->n_sites; i++)
		free(g->sites[i].s.after);
	free(g->files);
	free(g->texts);
	free(g->sites);
	memset(g, 0, sizeof(*g));
}

/* "af_unix" of "security/apparmor/af_unix.c". */
static char *stem(const char *file)
{
	const char *base = strrchr(file, '/');

	base = base ? base + 1 : file;
	return xstrndup(base, strlen(base) - 2);
}

/* Draws @n of group @g by @seed into @dir, names numbered from *@next. */
static int write_group(struct gen_group *g, size_t n, uint64_t seed,
		       const char *dir, size_t *next, struct err *e)
{
	size_t *pick = xcalloc(n ? n : 1, sizeof(*pick)), k, i;
	int rc = 0;

	k = mutgen_draw(seed, g->n_sites, n, pick);
	for (i = 0; !rc && i < k; i++) {
		const struct gen_site *gs = &g->sites[pick[i]];
		char *base = stem(g->files[gs->file]);
		char *patch = mutgen_patch(g->files[gs->file],
					   g->texts[gs->file], &gs->s);
		char *path = xasprintf("%s/g%03zu-%s-%s-%lu.patch", dir,
				       ++*next, gs->s.op, base, gs->s.line);

		if (write_file(path, patch, strlen(patch)))
			rc = err_set(e, "cannot write %s", path);
		free(path);
		free(patch);
		free(base);
	}
	free(pick);
	return rc;
}

char *mutate_generate(const struct mutate_gen *gen, const char *source,
		      const char *want, struct err *e)
{
	char *tree = tree_of(source, e), *dir = NULL, *tmp, hex[65];
	struct sbuf key = { 0 };
	size_t i, j, next = 0, groups = 0, sites = 0, files = 0;
	int rc = 0;

	if (!tree)
		return NULL;
	/* The same inputs, the same directory and the same patches. */
	sbuf_printf(&key, "operators %d\n%s\n%zu\n%llu\n", MUTGEN_VERSION, tree,
		    gen->n, (unsigned long long)gen->seed);
	for (i = 0; i < gen->n_files; i++)
		sbuf_printf(&key, "files %s\n", gen->files[i]);
	sbuf_printf(&key, "lsms %s\n", gen->n_files ? "-" : want);
	sha256_buf(key.buf, key.len, hex);
	sbuf_free(&key);
	dir = cache_path("mutants");
	{
		char *d = xasprintf("%s/generated-%llu-%zu-%.12s", dir,
				    (unsigned long long)gen->seed, gen->n, hex);

		free(dir);
		dir = d;
	}
	/*
	 * Written apart, then renamed into place: units planned from one
	 * command (GNU parallel, Slurm) each draw the same patches, and one
	 * may be reading them while another draws; what is in place stays.
	 */
	tmp = xasprintf("%s.tmp.%d", dir, (int)getpid());
	remove_tree(tmp);
	if (mkdir_p(tmp)) {
		err_set(e, "cannot create %s", tmp);
		free(tmp);
		free(dir);
		free(tree);
		return NULL;
	}
	if (gen->n_files) {
		struct gen_group g = { 0 };

		for (i = 0; !rc && i < gen->n_files; i++)
			rc = add_files(&g, tree, gen->files[i], false, e);
		if (!rc && !g.n_files)
			rc = err_set(e, "--files: no C file of %s matches",
				     tree);
		group_sites(&g);
		if (!rc)
			rc = write_group(&g, gen->n, gen->seed, tmp, &next, e);
		groups = 1;
		sites = g.n_sites;
		files = g.n_files;
		group_free(&g);
	} else {
		/* Per LSM: its own C files, N drawn from each. */
		for (j = 0; !rc && j < n_lsms; j++) {
			struct gen_group g = { 0 };
			char *p1, *p2;

			if (!lsm_listed(want, lsms[j].name))
				continue;
			p1 = xasprintf("%s/*.c", lsms[j].src_dir);
			p2 = xasprintf("%s/*/*.c", lsms[j].src_dir);
			rc = add_files(&g, tree, p1, true, e);
			if (!rc)
				rc = add_files(&g, tree, p2, true, e);
			group_sites(&g);
			/* Each LSM its own stream of the seed. */
			if (!rc)
				rc = write_group(
					&g, gen->n,
					gen->seed ^ (0x9e3779b97f4a7c15ULL *
						     (j + 1)),
					tmp, &next, e);
			groups++;
			sites += g.n_sites;
			files += g.n_files;
			group_free(&g);
			free(p1);
			free(p2);
		}
	}
	if (!rc && !next)
		rc = err_set(e, "--generate: no mutation site in the files");
	if (!rc && rename(tmp, dir) && errno != EEXIST && errno != ENOTEMPTY)
		rc = err_set(e, "cannot rename %s to %s: %s", tmp, dir,
			     strerror(errno));
	remove_tree(tmp);
	free(tmp);
	if (rc) {
		free(dir);
		dir = NULL;
	} else if (!replanning) {
		printf("lsmconf: mutate --generate %zu --seed %llu: %zu mutants drawn from %zu sites in %zu files (%zu group%s) into %s\n",
		       gen->n, (unsigned long long)gen->seed, next, sites,
		       files, groups, groups == 1 ? "" : "s", dir);
		fflush(stdout);
	}
	free(tree);
	return dir;
}
