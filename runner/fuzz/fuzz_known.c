// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for results/known.c: a fixtures/known-kernel-bugs
 * list, then one boot's worth of look-ups against it.
 */
#include "fuzz.h"
#include "results/known.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const releases[] = { "7.2.13+deb14-amd64",
						"6.12.117+deb13-amd64", "" };
	char *cols[REC_N_COLS] = {
		"unix_lifecycle_test/lifecycle.a.b/new.client.write",
		"5.0",
		"confined",
		"unconfined",
		"dgram",
		"abstract",
		"write",
		"-",
		"allow",
		"EACCES",
	};
	static const char trace[] =
		"BUG: kernel NULL pointer dereference, address: 0000000000000008\n"
		"RIP: 0010:aa_label_merge+0x71/0x3a0\n"
		"Call Trace:\n"
		" <TASK>\n"
		" aa_unix_file_perm+0x786/0x9a0\n";
	struct record r = { .known = NULL };
	struct record_set recs = { 0 };
	struct known_list l = { 0 };
	char why[512];
	struct err e;
	size_t i, k;

	/* A refusal is one line that says something. */
	if (known_parse((const char *)data, size, &l, &e)) {
		if (!e.msg[0] || strchr(e.msg, '\n'))
			abort();
		return 0;
	}
	for (k = 0; k < REC_N_COLS; k++)
		r.col[k] = cols[k];
	for (i = 0; i < sizeof(releases) / sizeof(releases[0]); i++) {
		known_reset(&l);
		for (k = 0; k < l.n; k++)
			(void)known_applies(&l.v[k], releases[i]);
		(void)known_case(&l, releases[i],
				 "unix_lifecycle_test/lifecycle.a.b", true,
				 &recs, why, sizeof(why));
		(void)known_case(&l, releases[i], "features_test/x", false,
				 &recs, why, sizeof(why));
		(void)known_crash(&l, releases[i],
				  "unix_lifecycle_test/lifecycle.a.b", trace,
				  "kernel panic", why, sizeof(why));
		(void)known_crash(&l, releases[i],
				  "unix_lifecycle_test/lifecycle.a.b", NULL,
				  "a hang", why, sizeof(why));
		(void)known_record(&l, releases[i], &r);
		(void)known_crash_record(
			&l, "unix_lifecycle_test/lifecycle.a.b\ta\tboot 1\n",
			r.col[REC_ID]);
		(void)known_unreproduced(&l, releases[i]);
	}
	known_free(&l);
	return 0;
}
