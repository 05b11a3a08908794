// SPDX-License-Identifier: GPL-2.0
/*
 * The cost boots of `mutate --cost` and `series` as units (mutate.h):
 * how they run (decided where the plan is made), one bench boot a unit,
 * and the reference's A and A2 and a kernel's B read back from the store
 * and judged.
 */
#define _GNU_SOURCE
#include "mutate.h"
#include "provision/provision.h"
#include "lib/lib.h"
#include "vm/vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cost_plan_init(struct cost_plan *cp, const char *points)
{
	struct bench_opts bo = mutate_cost_sizes;

	cp->points = points;
	cp->icount = !boot_uses_kvm();
	/* The plugin counts what TCG runs: the profile comes with icount. */
	cp->profile = cp->icount && boot_can_profile();
	bo.points = points;
	bo.profile = cp->profile;
	cp->args = bench_args(&bo);
}

enum unit_kind cost_unit_kind(const struct cost_plan *cp)
{
	/* Counted in instructions, a cost boot may run beside others. */
	return cp->icount ? UNIT_COUNT : UNIT_BENCH;
}

char *cost_plan_key(const struct cost_plan *cp)
{
	return xasprintf("cost args %s\nicount %d\nprofile %d\n", cp->args,
			 cp->icount, cp->profile);
}

int cost_unit_run(const struct run_opts *o, const struct cost_plan *cp,
		  const struct unit *u, const char *store, const char *dir,
		  struct err *e)
{
	char *kt = unit_file(store, u->deps[0], "kernel.tsv");
	char *status = kt ? unit_value(kt, "status") : NULL;
	size_t len = strlen(u->name);
	struct path_set paths = { 0 }, prof = { 0 };
	struct run_opts po = *o;
	struct bench_set set;
	struct kernel k;
	bool ok = status && !strcmp(status, "ok");

	free(status);
	free(kt);
	if (!ok)
		return write_file_at(dir, "verdict", "NOBUILD\n", 8);
	if (kernel_provision(u->spec, &k, o->refresh, e))
		return -1;
	po.profile = cp->profile;
	ok = bench_boot(&po, cp->args, cp->icount,
			len > 3 && !strcmp(u->name + len - 3, "-A2") ?
				BENCH_SEED_A2 :
				BENCH_SEED_A,
			&k, dir, u->name, &set, &paths, cp->points, &prof);
	bench_free(&set);
	path_free(&paths);
	path_free(&prof);
	kernel_free(&k);
	return write_file_at(dir, "verdict", ok ? "PASS\n" : "FAIL\n", 5);
}

bool cost_saved(const char *store, const char *id, const char *name,
		const char *root, const struct cost_plan *cp,
		struct bench_set *set, struct path_set *paths,
		struct path_set *prof)
{
	struct kernel_boots kb;
	bool ok = unit_passed(store, id);

	memset(set, 0, sizeof(*set));
	mutate_boots_saved(store, id, name, root, &kb);
	if (root)
		unit_print_output(store, id, root);
	if (kb.n) {
		bench_samples_load(kb.dir[0], set);
		bench_path_load(kb.dir[0], paths);
		if (cp->profile)
			bench_profile_load(kb.dir[0], cp->points, set, prof);
	}
	ok &= kb.n > 0;
	kernel_boots_free(&kb);
	return ok;
}

void cost_reference_saved(const char *store, const char *const id[2],
			  const char *const name[2], const char *root,
			  const struct cost_plan *cp, const char *who,
			  struct cost_ref *ref)
{
	struct sbuf none = { 0 };
	size_t missing;

	ref->args = xstrdup(cp->args);
	ref->icount = cp->icount;
	ref->profile = cp->profile;
	if (!cost_saved(store, id[0], name[0], root, cp, &ref->a, &ref->pa,
			&ref->pra) ||
	    !cost_saved(store, id[1], name[1], root, cp, &ref->a2, &ref->pa2,
			&ref->pra2))
		die("the %s's cost boots failed: no other kernel's cost can be judged against it",
		    who);
	/* The reference against itself: its points must all have samples. */
	bench_cost_changes(cp->points, &ref->a, &ref->a2, &ref->a2, 0, &none,
			   &missing);
	if (missing)
		die("the %s's cost boots lack samples: %s", who, none.buf);
	sbuf_free(&none);
	if (root)
		printf("== %s cost (%s): %s\n", who, cp->points,
		       ref->icount ? "QEMU icount, guest ns = instructions" :
				     "real time under KVM");
}

void cost_ref_free(struct cost_ref *ref)
{
	bench_free(&ref->a);
	bench_free(&ref->a2);
	path_free(&ref->pa);
	path_free(&ref->pa2);
	path_free(&ref->pra);
	path_free(&ref->pra2);
	free(ref->args);
}

int cost_verdict_saved(const char *store, const char *id, const char *name,
		       const char *root, const struct cost_plan *cp,
		       const struct cost_ref *ref, struct sbuf *changes)
{
	struct path_set paths[3] = { ref->pa, { 0 }, ref->pa2 };
	struct path_set prof[3] = { ref->pra, { 0 }, ref->pra2 };
	char *copy = xstrdup(cp->points), *tok, *save = NULL;
	struct sbuf fn = { 0 };
	struct bench_set set;
	size_t changed, missing;

	cost_saved(store, id, name, root, cp, &set, &paths[1], &prof[1]);
	changed = bench_cost_changes(cp->points, &ref->a, &set, &ref->a2,
				     cost_min_diff(ref), changes, &missing);
	/* The functions behind it, from the probes after the timed rounds. */
	for (tok = strtok_r(copy, " ", &save); changed && tok;
	     tok = strtok_r(NULL, " ", &save)) {
		size_t len = fn.len;

		sbuf_printf(&fn, "%s%s: ", fn.len ? "; " : "", tok);
		len = fn.len;
		/* No probe lines on one side: nothing is known, say so. */
		if (!paths[0].n || !paths[1].n || !paths[2].n) {
			sbuf_printf(&fn, "no path evidence");
			continue;
		}
		bench_path_changed(tok, paths, &fn);
		if (fn.len == len)
			sbuf_printf(&fn, "none changed");
		/* Where the instructions went, when profiled. */
		if (ref->profile && prof[1].n) {
			sbuf_printf(&fn, "; instructions: ");
			len = fn.len;
			bench_profile_changed(tok, prof, &fn);
			if (fn.len == len)
				sbuf_printf(&fn, "none changed");
		}
	}
	if (fn.len)
		sbuf_printf(changes, "; functions behind it: %s", fn.buf);
	sbuf_free(&fn);
	free(copy);
	path_free(&paths[1]);
	path_free(&prof[1]);
	bench_free(&set);
	if (changed)
		return 1;
	return missing ? -1 : 0;
}
