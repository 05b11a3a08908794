// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for vm/xfer.c: the bytes of the guest's data channel.
 * The frames carry a SHA-256 no fuzzer forges, so the tar reader also gets
 * the raw input, as if a frame had held it; it unpacks into out/ of a
 * private directory, which must hold nothing else afterwards.
 */
#include "fuzz.h"
#include "vm/xfer.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>

static char *base, *out;

/* True when @dir holds only "out" (nothing escaped from out/). */
static bool only_out(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	bool ok = true;

	if (!d)
		abort();
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "out"))
			ok = false;
	closedir(d);
	return ok;
}

static void cleanup(void)
{
	remove_tree(base);
}

static void untar(const char *tar, size_t len)
{
	struct sbuf names = { 0 };
	char err[256];

	xfer_untar_names(tar, len, out, &names, err, sizeof(err));
	sbuf_free(&names);
	if (!only_out(base))
		abort();
	remove_tree(out);
	mkdir_p(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *buf = (const char *)data, *payload;
	size_t pos = 0, plen;
	char err[256];

	if (!base) {
		char tmpl[] = "/tmp/lsmconf-fuzz-xfer-XXXXXX";

		if (!mkdtemp(tmpl))
			abort();
		base = xstrdup(tmpl);
		out = xasprintf("%s/out", base);
		mkdir_p(out);
		atexit(cleanup);
	}
	xfer_parse(buf, size, &payload, &plen, err, sizeof(err));
	while (!xfer_next(buf, size, &pos, &payload, &plen, err, sizeof(err)))
		untar(payload, plen);
	untar(buf, size);
	return 0;
}
