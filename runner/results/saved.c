// SPDX-License-Identifier: GPL-2.0
/* Saved results directories read back: see saved.h. */
#define _GNU_SOURCE
#include "saved.h"
#include "records.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *saved_value(const char *text, const char *key)
{
	size_t klen = strlen(key);
	const char *p = text;

	while (p && *p) {
		size_t len = strcspn(p, "\n");

		if (len > klen && !strncmp(p, key, klen) && p[klen] == '\t')
			return xstrndup(p + klen + 1, len - klen - 1);
		p += len;
		if (*p)
			p++;
	}
	return NULL;
}

/* The keys whose value means something to a comparison: never empty. */
static bool needs_value(const char *key, size_t n)
{
	static const char *const keys[] = { "spec", "source", "suite",
					    "verdict", "started" };
	size_t i;

	for (i = 0; i < ARRAY_SIZE(keys); i++)
		if (n == strlen(keys[i]) && !strncmp(key, keys[i], n))
			return true;
	return false;
}

/* One "KEY<TAB>VALUE" line of kernel.txt (@n bytes, no newline). */
static int kv_line(const char *p, size_t n, unsigned int lineno,
		   const char *path, struct err *e)
{
	const char *tab = memchr(p, '\t', n);
	size_t k, i;

	if (n && p[n - 1] == '\r')
		return err_set(
			e,
			"%s: line %u: ends in CR (a CRLF file, not as lsmconf writes it)",
			path, lineno);
	if (!tab || tab == p || *p == ' ')
		return err_set(e, "%s: line %u: not KEY<TAB>VALUE", path,
			       lineno);
	k = tab - p;
	for (i = 0; i < n; i++)
		if ((unsigned char)p[i] < ' ' && p[i] != '\t')
			return err_set(e, "%s: line %u: a control byte", path,
				       lineno);
	if (k + 1 == n && needs_value(p, k))
		return err_set(e, "%s: line %u: %.*s has no value", path,
			       lineno, (int)k, p);
	return 0;
}

/* A key of kernel.txt: where it is, for the check of keys twice. */
struct kv_key {
	const char *p;
	size_t n;
	unsigned int line;
};

static int cmp_key(const void *a, const void *b)
{
	const struct kv_key *x = a, *y = b;
	int c = memcmp(x->p, y->p, MIN(x->n, y->n));

	if (c)
		return c;
	if (x->n != y->n)
		return x->n < y->n ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* A key twice (which value holds?): the earliest second one, named. */
static int keys_once(struct kv_key *k, size_t n, const char *path,
		     struct err *e)
{
	const struct kv_key *first = NULL, *again = NULL;
	size_t i;

	qsort(k, n, sizeof(*k), cmp_key);
	for (i = 1; i < n; i++)
		if (k[i].n == k[i - 1].n &&
		    !memcmp(k[i].p, k[i - 1].p, k[i].n) &&
		    (!again || k[i].line < again->line)) {
			again = &k[i];
			/* Sorted by line within a key: its first is before. */
			first = &k[i - 1];
			while (first > k && first[-1].n == first->n &&
			       !memcmp(first[-1].p, first->p, first->n))
				first--;
		}
	if (!again)
		return 0;
	return err_set(e, "%s: line %u: %.*s again (first on line %u)", path,
		       again->line, (int)MIN(again->n, 60), again->p,
		       first->line);
}

int saved_kernel_txt_check(const char *text, size_t len, const char *path,
			   struct err *e)
{
	const char *p = text, *end = text + len;
	struct kv_key *keys = NULL;
	unsigned int lineno = 0, line;
	int ret = 0;
	char *v;
	size_t off;

	if (!len)
		return err_set(e, "%s: empty (want KEY<TAB>VALUE lines)", path);
	if (input_find_nul(text, len, &off, &line))
		return err_set(e, "%s: line %u: a NUL byte", path, line);
	while (!ret && p < end) {
		const char *nl = memchr(p, '\n', end - p);
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);

		lineno++;
		if (!nl)
			ret = err_set(
				e,
				"%s: line %u: cut short (no newline at its end)",
				path, lineno);
		else
			ret = kv_line(p, n, lineno, path, e);
		if (!ret) {
			keys = xrealloc(keys, lineno * sizeof(*keys));
			keys[lineno - 1] =
				(struct kv_key){ p, strcspn(p, "\t"), lineno };
			p = nl + 1;
		}
	}
	if (!ret)
		ret = keys_once(keys, lineno, path, e);
	free(keys);
	if (ret)
		return -1;
	if (!(v = saved_value(text, "spec")))
		return err_set(e, "%s: no spec line", path);
	free(v);
	if (!(v = saved_value(text, "suite")))
		return err_set(e, "%s: no suite line", path);
	free(v);
	v = saved_value(text, "verdict");
	if (v && strcmp(v, "PASS") && strcmp(v, "FAIL")) {
		err_set(e, "%s: verdict %.40s (want PASS or FAIL)", path, v);
		free(v);
		return -1;
	}
	free(v);
	v = saved_value(text, "started");
	if (v && !is_rfc3339(v)) {
		err_set(e,
			"%s: started %.40s is not an RFC 3339 date-time (e.g. 2026-12-04T10:11:12Z)",
			path, v);
		free(v);
		return -1;
	}
	free(v);
	return 0;
}

size_t saved_group(const char *const *specs, size_t n, size_t *group)
{
	size_t i, j, k = 0;

	for (i = 0; i < n; i++) {
		/* Same spec as an earlier boot: that boot's kernel. */
		for (j = 0; j < i; j++)
			if (specs[i] && specs[j] && !strcmp(specs[i], specs[j]))
				break;
		group[i] = j < i ? group[j] : k++;
	}
	return k;
}

int saved_verdict(const char *kernel_txt, const char *ktap, int *from_ktap)
{
	char *v = saved_value(kernel_txt, "verdict");
	const char *p = ktap;
	int ok = -1;

	*from_ktap = !v;
	if (v) {
		ok = !strcmp(v, "PASS");
		free(v);
		return ok;
	}
	/* The top-level lines (one a test binary) carry no "# " prefix. */
	while (p && *p) {
		if (!strncmp(p, "not ok ", 7))
			return 0;
		if (!strncmp(p, "ok ", 3))
			ok = 1;
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	return ok;
}

/* What a boot directory's files may be, at most. */
static const struct {
	const char *name;
	size_t max;
} boot_files[] = {
	{ "kernel.txt", INPUT_MAX_SMALL },
	{ "ktap.txt", INPUT_MAX_BIG },
	{ "records.tsv", INPUT_MAX_BIG },
	{ "known.tsv", INPUT_MAX_LIST },
	{ "known-crashes.tsv", INPUT_MAX_LIST },
	{ "guest/features.tsv", INPUT_MAX_LIST },
};

int saved_check_files(const char *dir, struct err *e)
{
	size_t i;
	char *buf;
	int ret;

	for (i = 0; i < ARRAY_SIZE(boot_files); i++) {
		char *path = xasprintf("%s/%s", dir, boot_files[i].name);

		ret = read_input(path, boot_files[i].max, INPUT_TEXT, &buf,
				 NULL, e);
		free(path);
		if (!ret)
			free(buf);
		else if (ret != -ENOENT)
			return -1;
	}
	return 0;
}

int saved_check_records(const char *dir, struct err *e)
{
	char *path = xasprintf("%s/records.tsv", dir), *buf;
	char msg[1200], dup[1100];
	struct record_set set;
	size_t len;
	int ret;

	ret = read_input(path, INPUT_MAX_BIG, INPUT_TEXT, &buf, &len, e);
	if (ret) {
		free(path);
		return ret == -ENOENT ? 0 : -1;
	}
	ret = records_parse(buf, len, &set);
	if (ret) {
		records_error(&set, ret, msg, sizeof(msg));
	} else if (!(ret = records_check(&set, msg, sizeof(msg))) &&
		   records_first_duplicate(&set, dup, sizeof(dup))) {
		/* Two outcomes of one case: which one was the kernel's? */
		snprintf(msg, sizeof(msg), "a case id recorded twice: %s", dup);
		ret = -1;
	}
	records_free(&set);
	free(buf);
	if (ret)
		err_set(e, "%s: %s", path, msg);
	free(path);
	return ret ? -1 : 0;
}

/* @dir's file @name, read as an input (NULL and @e when missing too). */
static char *read_text(const char *dir, const char *name, size_t max,
		       size_t *len, struct err *e)
{
	char *path = xasprintf("%s/%s", dir, name), *text;

	if (read_input(path, max, INPUT_TEXT, &text, len, e))
		text = NULL;
	free(path);
	return text;
}

/* Whether @text holds nothing but white space. */
static bool blank(const char *text)
{
	return !text[strspn(text, " \t\r\n")];
}

/* Adds the boot in @dir (its kernel.txt read as @text) to @sk. */
static int add_boot(struct saved_kernel *sk, const char *dir, const char *text,
		    struct err *e)
{
	char *ktap, *suite;
	int from_ktap, ok;

	if (saved_check_files(dir, e) || saved_check_records(dir, e))
		return -1;
	ktap = read_text(dir, "ktap.txt", INPUT_MAX_BIG, NULL, e);
	if (!ktap)
		return err_set(
			e,
			"%s: no ktap.txt (not a finished boot's results): not a results directory",
			dir);
	ok = saved_verdict(text, ktap, &from_ktap);
	if (ok < 0) {
		err_set(e,
			"%s: not a results directory (no verdict in kernel.txt, and %s)",
			dir,
			blank(ktap) ? "an empty ktap.txt" :
				      "no test line in ktap.txt");
		free(ktap);
		return -1;
	}
	free(ktap);
	if (sk->n == SAVED_MAX_BOOTS)
		return err_set(e, "%s: more than %d boots of %s", dir,
			       SAVED_MAX_BOOTS, sk->spec);
	suite = saved_value(text, "suite");
	if (!sk->spec) {
		char *pkg = saved_value(text, "package");
		char *ver = saved_value(text, "version");
		char *rel = saved_value(text, "release");

		sk->spec = saved_value(text, "spec");
		sk->source = saved_value(text, "source");
		/* "-": the run knew no source for it; as old as no line. */
		if (sk->source && !strcmp(sk->source, "-")) {
			free(sk->source);
			sk->source = NULL;
		}
		sk->old_source = !sk->source;
		sk->ident = xasprintf("package %s, version %s, release %s",
				      pkg ? pkg : "?", ver ? ver : "?",
				      rel ? rel : "?");
		free(pkg);
		free(ver);
		free(rel);
		sk->ok = true;
	}
	sk->old_verdict |= from_ktap;
	sk->ok &= ok;
	sk->lsm[sk->n] = suite;
	sk->dir[sk->n++] = xstrdup(dir);
	return 0;
}

void saved_kernel_free(struct saved_kernel *sk)
{
	size_t i;

	for (i = 0; i < sk->n; i++) {
		free(sk->lsm[i]);
		free(sk->dir[i]);
	}
	free(sk->spec);
	free(sk->source);
	free(sk->ident);
	memset(sk, 0, sizeof(*sk));
}

static int subdir_filter(const struct dirent *d)
{
	return d->d_name[0] != '.' && strcmp(d->d_name, "latest");
}

/*
 * @dir's kernel.txt, checked: NULL and no error when @dir has none (it
 * is no boot's directory), NULL and @e when it is there but bad.
 */
static char *kernel_txt(const char *dir, bool *bad, struct err *e)
{
	char *path = xasprintf("%s/kernel.txt", dir), *text = NULL;
	size_t len;
	int ret;

	*bad = false;
	ret = read_input(path, INPUT_MAX_SMALL, INPUT_TEXT, &text, &len, e);
	/* ENOTDIR: @dir is a file beside the boots (compare.tsv). */
	if (ret == -ENOENT || ret == -ENOTDIR) {
		text = NULL;
	} else if (ret || saved_kernel_txt_check(text, len, path, e)) {
		free(ret ? NULL : text);
		text = NULL;
		*bad = true;
	}
	free(path);
	return text;
}

/* The boots of a run's directory @dir: its subdirectories with kernel.txt. */
static int run_boots(const char *dir, char **paths, char **texts, size_t *n,
		     struct err *e)
{
	struct dirent **ents;
	bool bad = false;
	int m, j, ret = 0;

	*n = 0;
	m = scandir(dir, &ents, subdir_filter, alphasort);
	if (m < 0)
		return err_set(e, "%s: not a results directory (%s)", dir,
			       strerror(errno));
	for (j = 0; j < m; j++) {
		char *sub = xasprintf("%s/%s", dir, ents[j]->d_name), *text;

		free(ents[j]);
		text = ret ? NULL : kernel_txt(sub, &bad, e);
		if (bad)
			ret = -1;
		if (text && *n == SAVED_MAX_DIRS) {
			ret = err_set(e, "%s: more than %d boots", dir,
				      SAVED_MAX_DIRS);
			free(text);
			text = NULL;
		}
		if (text) {
			paths[*n] = sub;
			texts[(*n)++] = text;
		} else {
			free(sub);
		}
	}
	free(ents);
	if (!ret && !*n)
		ret = err_set(
			e,
			"%s: not a results directory (no kernel.txt in it or its subdirectories)",
			dir);
	return ret;
}

int saved_load(const char *dir, struct saved_kernel *out, size_t max,
	       struct err *e)
{
	char *paths[SAVED_MAX_DIRS], *texts[SAVED_MAX_DIRS];
	char *specs[SAVED_MAX_DIRS] = { NULL };
	size_t group[SAVED_MAX_DIRS], i, n = 0, k = 0;
	bool bad;
	int ret = 0;

	memset(out, 0, max * sizeof(*out));
	texts[0] = kernel_txt(dir, &bad, e);
	if (bad)
		return -1;
	if (texts[0]) {
		/* A boot's own directory: one kernel. */
		paths[0] = xstrdup(dir);
		n = 1;
	} else if (run_boots(dir, paths, texts, &n, e)) {
		ret = -1;
	}
	for (i = 0; i < n; i++)
		specs[i] = saved_value(texts[i], "spec");
	if (!ret) {
		k = saved_group((const char *const *)specs, n, group);
		if (k > max)
			ret = err_set(e, "%s holds %zu kernels (want %zu)", dir,
				      k, max);
	}
	for (i = 0; !ret && i < n; i++)
		ret = add_boot(&out[group[i]], paths[i], texts[i], e);
	for (i = 0; i < n; i++) {
		free(paths[i]);
		free(texts[i]);
		free(specs[i]);
	}
	if (ret) {
		for (i = 0; i < max; i++)
			saved_kernel_free(&out[i]);
		return -1;
	}
	return k;
}

int saved_swapped(const char *dir, const char *spec_b, struct err *e)
{
	char *tsv = read_text(dir, "compare.tsv", INPUT_MAX_BIG, NULL, e);
	size_t len = strlen(spec_b);
	int swapped;

	if (!tsv) {
		char *path = xasprintf("%s/compare.tsv", dir);
		bool missing = !path_exists(path);

		free(path);
		return missing ? 0 : -1;
	}
	if (strncmp(tsv, "id\tclass\t", 9)) {
		free(tsv);
		return err_set(
			e,
			"%s/compare.tsv: line 1 is not compare's header (id<TAB>class<TAB>A<TAB>B...)",
			dir);
	}
	swapped = !strncmp(tsv + 9, spec_b, len) && tsv[9 + len] == '\t';
	free(tsv);
	return swapped;
}
