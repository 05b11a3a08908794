// SPDX-License-Identifier: GPL-2.0
/*
 * The results directory's identity, ktap.txt, and the printed report.
 */
#define _GNU_SOURCE
#include "internal.h"
#include "vm/vm.h"
#include "provision/provision.h"
#include "results/results.h"
#include "lsmconf_record.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/*
 * A feature is advertised when features.tsv has it as a file reading "yes"
 * or as a directory (some file below it).
 */
static const char *feature_state(const char *tsv, const char *feature)
{
	size_t flen = strlen(feature);
	const char *line = tsv;

	if (!tsv)
		return "unknown";
	while (line && *line) {
		if (!strncmp(line, feature, flen)) {
			if (line[flen] == '/')
				return "yes";
			if (line[flen] == '\t')
				return strncmp(line + flen + 1, "yes", 3) ?
					       "no" :
					       "yes";
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return "no";
}

static const char *const reported_features[] = { "network", "network_v8",
						 "network_v9",
						 "network_v9/af_unix", NULL };

/* The top-level KTAP, as the kselftest runner prints it. */
void write_ktap(const struct kernel_run *kr)
{
	struct sbuf sb = { 0 };
	size_t i, j;

	sbuf_printf(&sb, "TAP version 13\n1..%zu\n", kr->plan.n);
	if (kr->problems) {
		const char *p = kr->problems;

		while (*p) {
			size_t n = strcspn(p, "\n");

			sbuf_printf(&sb, "# boot problem: %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	for (i = 0; i < kr->plan.n; i++) {
		const struct test_account *t = &kr->acct[i];
		char *kpath =
			xasprintf("%s/guest/tests/%s.ktap", kr->dir, t->name);
		char *buf = NULL;

		sbuf_printf(&sb, "# selftests: %s: %s\n", kr->lsm, t->name);
		if (!read_file(kpath, &buf, NULL)) {
			char *line = buf, *nl;

			for (; *line; line = nl + 1) {
				nl = strchr(line, '\n');
				if (!nl) {
					sbuf_printf(&sb, "# %s\n", line);
					break;
				}
				sbuf_printf(&sb, "# %.*s\n", (int)(nl - line),
					    line);
			}
		}
		free(buf);
		free(kpath);
		/* The cases that brought the kernel down report nowhere else. */
		for (j = 0; j < kr->fate[i].n_crashed; j++)
			sbuf_printf(
				&sb,
				"# not ok 0 %s # brought the kernel down in boot %d\n",
				kr->fate[i].crashed[j], kr->fate[i].boots[j]);
		if (account_ok(t) && !t->pass && t->skip)
			sbuf_printf(&sb, "ok %zu selftests: %s: %s # SKIP\n",
				    i + 1, kr->lsm, t->name);
		else if (account_ok(t))
			sbuf_printf(&sb, "ok %zu selftests: %s: %s\n", i + 1,
				    kr->lsm, t->name);
		else
			sbuf_printf(&sb, "not ok %zu selftests: %s: %s%s%s\n",
				    i + 1, kr->lsm, t->name,
				    t->problem[0] ? " # " : "", t->problem);
	}
	write_file_at(kr->dir, "ktap.txt", sb.buf, sb.len);
	sbuf_free(&sb);
}

/* A decision not as expected fails the run even if a test missed it. */
static bool kernel_run_ok(const struct kernel_run *kr)
{
	const struct run_totals *t = &kr->totals;

	return !kr->problems && !t->fail && !t->lost && !t->problems &&
	       !kr->mismatches;
}

void write_identity(const struct kernel_run *kr)
{
	const struct kernel *k = &kr->k;
	struct sbuf sb = { 0 };
	const char *const *f;

	sbuf_printf(&sb, "spec\t%s\n", k->spec.text);
	sbuf_printf(&sb, "package\t%s\n", k->package ? k->package : "-");
	sbuf_printf(&sb, "version\t%s\n", k->version ? k->version : "-");
	sbuf_printf(&sb, "release\t%s\n", k->release ? k->release : "-");
	/* compare: features are evidence only between different sources. */
	sbuf_printf(&sb, "source\t%s\n", k->source ? k->source : "-");
	sbuf_printf(&sb, "uname\t%s\n", kr->uname ? kr->uname : "-");
	/*
	 * compare: features explain a change only between two upstream
	 * versions (results/identity.h), whatever the specs are called.
	 */
	sbuf_printf(&sb, "upstream\t%s\n", kr->upstream ? kr->upstream : "-");
	sbuf_printf(&sb, "tree_version\t%s\n",
		    k->tree_version ? k->tree_version : "-");
	/* A build: kernel's name in the known kernel bugs list. */
	sbuf_printf(&sb, "known_name\t%s\n",
		    k->known_name ? k->known_name : "-");
	/* A patched build's base: its crash stanzas, by signature only. */
	sbuf_printf(&sb, "known_base\t%s\n",
		    k->known_base ? k->known_base : "-");
	sbuf_printf(&sb, "image\t%s\n", k->image);
	sbuf_printf(&sb, "image_sha256\t%s\n", k->image_sha256);
	sbuf_printf(&sb, "config_sha256\t%s\n",
		    k->config ? k->config_sha256 : "-");
	sbuf_printf(&sb, "suite\t%s\n", kr->lsm);
	sbuf_printf(&sb, "lsm\t%s\n", kr->lsm_list ? kr->lsm_list : "-");
	for (f = reported_features; *f; f++)
		sbuf_printf(&sb, "feature %s\t%s\n", *f,
			    feature_state(kr->features, *f));
	sbuf_printf(&sb, "parser\t%s\n", guest_parser_version());
	sbuf_printf(&sb, "abi\t%s\n", kr->abi ? kr->abi : "-");
	sbuf_printf(&sb, "skips_expected\t%s\n",
		    kr->skip_why ? kr->skip_why : "-");
	sbuf_printf(&sb, "accel\t%s\n", kr->accel_kvm ? "kvm" : "tcg");
	sbuf_printf(&sb, "qemu\t%s\n",
		    kr->qemu_cmdline ? kr->qemu_cmdline : "-");
	{
		/* RFC 3339, UTC: KCIDB's start_time of the boot's tests. */
		char when[32];
		struct tm tm;

		strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ",
			 gmtime_r(&kr->started, &tm));
		sbuf_printf(&sb, "started\t%s\n", when);
	}
	sbuf_printf(&sb, "boots\t%d\n", kr->boots);
	/* Seconds from QEMU's start to the first console byte, per boot. */
	sbuf_printf(&sb, "first_output_s\t%s\n",
		    kr->first_output.len ? kr->first_output.buf : "-");
	if (kr->boot_log.len) {
		const char *p = kr->boot_log.buf;
		int n = 0;

		while (*p) {
			size_t len = strcspn(p, "\n");

			sbuf_printf(&sb, "boot_ended %d\t%.*s\n", ++n, (int)len,
				    p);
			p += len + (p[len] == '\n');
		}
	}
	/* A finished unit with decisions must hold records.tsv (units.h). */
	sbuf_printf(&sb, "decisions\t%zu\n", kr->decisions);
	/* The run's PASS/FAIL, for `compare --saved` (cli/compare.c). */
	sbuf_printf(&sb, "verdict\t%s\n", kernel_run_ok(kr) ? "PASS" : "FAIL");
	write_file_at(kr->dir, "kernel.txt", sb.buf, sb.len);
	sbuf_free(&sb);
}

static const char *known_note(size_t n)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), ", %zu known kernel bug%s", n,
		 n == 1 ? "" : "s");
	return buf;
}

bool report(const struct kernel_run *kr)
{
	const struct run_totals *t = &kr->totals;
	const struct kernel *k = &kr->k;
	char *id = kernel_identity(k);
	const char *const *f;
	bool ok = kernel_run_ok(kr);
	size_t i;

	printf("== %s [%s]\n", id, kr->lsm);
	printf("   guest: uname %s (upstream %s); lsm %s; %s\n",
	       kr->uname ? kr->uname : "?", kr->upstream ? kr->upstream : "?",
	       kr->lsm_list ? kr->lsm_list : "?", guest_parser_version());
	if (kr->abi)
		printf("   policy compiled for the pinned feature set abi/%s (--abi)\n",
		       kr->abi);
	if (kr->skip_why)
		printf("   skips expected: %s\n", kr->skip_why);
	if (kr->features) {
		printf("   features:");
		for (f = reported_features; *f; f++)
			printf(" %s=%s", *f, feature_state(kr->features, *f));
		printf("\n");
	}
	for (i = 0; i < kr->plan.n; i++) {
		const struct test_account *a = &kr->acct[i];

		char took[32] = "";

		if (a->seconds >= 0)
			snprintf(took, sizeof(took), " in %.1f s", a->seconds);
		printf("   %-24s %s: %zu pass, %zu fail, %zu skip, %zu lost%s%s%s%s\n",
		       a->name, account_ok(a) ? "ok" : "NOT OK", a->pass,
		       a->fail, a->skip, a->lost,
		       a->known ? known_note(a->known) : "",
		       a->problem[0] ? "; " : "", a->problem, took);
	}
	if (kr->boot_log.len) {
		const char *p = kr->boot_log.buf;

		while (*p) {
			size_t n = strcspn(p, "\n");

			printf("   %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	if (kr->problems) {
		const char *p = kr->problems;

		while (*p) {
			size_t n = strcspn(p, "\n");

			printf("   problem: %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	if (kr->decisions)
		printf("   decisions: %zu recorded, %zu not as expected\n",
		       kr->decisions, kr->mismatches);
	for (i = 0; kr->known && i < kr->known->n; i++) {
		const struct known_bug *b = &kr->known->v[i];

		if (b->failed_cases || b->wrong_records)
			printf("   known kernel bug %s: %zu cases, %zu decisions (%s)\n",
			       b->name, b->failed_cases, b->wrong_records,
			       b->function);
	}
	printf("   totals: pass %zu, fail %zu, skip %zu, lost %zu%s -> %s\n",
	       t->pass, t->fail, t->skip, t->lost,
	       t->known ? known_note(t->known) : "", ok ? "PASS" : "FAIL");
	printf("   time: %s %.1f s, image %.1f s, boot+tests %.1f s in %d boot%s (guest: boot %.1f s, suite %.1f s)\n",
	       k->build_log ? "build" : "fetch", k->fetch_seconds, kr->image_s,
	       kr->boot_s, kr->boots, kr->boots == 1 ? "" : "s",
	       kr->guest_boot_s, kr->guest_suite_s);
	printf("   results: %s\n", kr->dir);
	fflush(stdout);
	free(id);
	return ok;
}
