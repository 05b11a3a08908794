// SPDX-License-Identifier: GPL-2.0
/*
 * The steps every command's units take: a kernel provisioned or built
 * (kernel.tsv), a kernel booted with one LSM (its verdict), and the key
 * of the run options that make one boot differ from another.
 */
#define _GNU_SOURCE
#include "work.h"
#include "provision/provision.h"
#include "lib/lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *unit_run_key(const struct run_opts *o)
{
	struct sbuf sb = { 0 };
	size_t i;

	/* Every option that changes what a boot does or records. */
	for (i = 0; i < o->n_tests; i++)
		sbuf_printf(&sb, "test %s\n", o->tests[i]);
	sbuf_printf(&sb, "args %s\nappend %s\nabi %s\ntests-dir %s\n",
		    o->args ? o->args : "-", o->append ? o->append : "-",
		    o->abi ? o->abi : "-", o->tests_dir ? o->tests_dir : "-");
	sbuf_printf(&sb, "timeout %d\nboot-timeout %d\nmemory %d\ncpus %d\n",
		    o->test_timeout_s, o->boot_timeout_s, o->memory_mb,
		    o->cpus);
	sbuf_printf(&sb, "collection %d\n", o->whole);
	return sb.buf;
}

int unit_provision(const struct run_opts *o, const struct unit *u,
		   const char *dir, bool failure_is_result, struct err *e)
{
	struct kernel k;
	struct sbuf sb = { 0 };
	char *path;

	if (kernel_provision(u->spec, &k, o->refresh, e)) {
		/*
		 * A patch refused or a compile error is the kernel's: it fails
		 * again, a result. Any other failure (a lock, a copy, a full
		 * disk, a build killed) is the host's: the unit fails, and
		 * running it again retries.
		 */
		if (!failure_is_result || !e->kernel)
			return -1;
		sbuf_printf(&sb, "status failed\nerror %s\n", e->msg);
		write_file_at(dir, "kernel.tsv", sb.buf, sb.len);
		sbuf_free(&sb);
		note("%s", e->msg);
		return 0;
	}
	sbuf_printf(
		&sb,
		"status ok\nspec %s\nsource %s\nfetch_seconds %.1f\nbuild_seconds %.1f\npackage %s\nrelease %s\nimage_sha256 %s\n",
		u->spec, k.source ? k.source : "-", k.fetch_seconds,
		k.build_seconds, k.package ? k.package : "-",
		k.release ? k.release : "-", k.image_sha256);
	/* The config is kept here: merge may run where the cache is not. */
	if (k.config) {
		path = xasprintf("%s/config", dir);
		if (copy_file(k.config, path, 0644))
			note("cannot copy %s: the config check will not run",
			     k.config);
		free(path);
	}
	write_file_at(dir, "kernel.tsv", sb.buf, sb.len);
	sbuf_free(&sb);
	kernel_free(&k);
	return 0;
}

size_t unit_plan_kernel(struct unit_plan *p, const char *spec,
			const char *const *lsm, size_t n_lsm,
			const char *run_key, size_t *boot)
{
	bool build = !strncmp(spec, "build:", 6);
	char *key = xasprintf("spec %s\n", spec);
	char *desc = xasprintf("%s %s", build ? "build" : "provision", spec);
	size_t prov = unit_add(p, build ? UNIT_BUILD : UNIT_PROVISION, key,
			       NULL, 0, desc),
	       i;

	free(p->v[prov].spec);
	p->v[prov].spec = xstrdup(spec);
	free(key);
	free(desc);
	for (i = 0; i < n_lsm; i++) {
		struct unit *u;

		key = xasprintf("spec %s\nlsm %s\n%s", spec, lsm[i], run_key);
		desc = xasprintf("boot %s %s", spec, lsm[i]);
		boot[i] = unit_add(p, UNIT_BOOT, key, &prov, 1, desc);
		u = &p->v[boot[i]];
		if (!u->spec) {
			u->spec = xstrdup(spec);
			u->lsm = xstrdup(lsm[i]);
			u->name = safe_name(spec);
		}
		free(key);
		free(desc);
	}
	return prov;
}

int unit_run_kernel(const struct run_opts *o, const struct unit *u,
		    const char *dir, struct err *e)
{
	if (u->kind == UNIT_BOOT)
		return unit_boot(o, u, dir, e);
	return unit_provision(o, u, dir, false, e);
}

int unit_boot(const struct run_opts *o, const struct unit *u, const char *dir,
	      struct err *e)
{
	struct run_opts ro = *o;
	char *key, *name;
	struct kernel k;
	int ok;

	/* In the cache after its provision unit; fetched or built here else. */
	if (kernel_provision(u->spec, &k, o->refresh, e))
		return -1;
	ro.lsm = u->lsm;
	ro.dir_name = u->name;
	key = reuse_key(o, u, &k);
	name = xasprintf("%s-%s", u->name, u->lsm);
	if (key && reuse_take(key, dir, name)) {
		ok = 1;
	} else {
		ok = run_kernel(&ro, dir, &k, NULL, e);
		/* Only a passing boot: a failure is always looked at again. */
		if (ok > 0 && key)
			reuse_keep(key, dir, name);
	}
	kernel_free(&k);
	free(key);
	free(name);
	if (ok < 0)
		return -1;
	write_file_at(dir, "verdict", ok ? "PASS\n" : "FAIL\n", 5);
	return 0;
}
