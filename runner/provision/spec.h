/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel specs as the user writes them. */
#ifndef LSMCONF_SPEC_H
#define LSMCONF_SPEC_H

#include <stdbool.h>
#include <stddef.h>

enum kspec_kind {
	KSPEC_DEBIAN, /* debian:SUITE or debian:VERSION */
	KSPEC_FILE, /* file:PATH[,modules=DIR][,config=FILE] */
	KSPEC_DEB, /* deb:PATH of a kernel image package */
	KSPEC_BUILD, /* build:SOURCE[+PATCH...][,coverage] */
};

struct kspec {
	enum kspec_kind kind;
	char *text; /* the spec as given */
	char *value; /* suite, version or path */
	char *modules; /* file: optional modules directory */
	char *config; /* file: optional kernel config */
	/* build: ",coverage": gcov counters in the LSMs' code (coverage.h) */
	bool coverage;
};

/*
 * Parses @text. Returns 0, or -EINVAL with a one-line reason in @err.
 * Suites and versions are told apart later, against the archive.
 */
int kspec_parse(const char *text, struct kspec *spec, char *err, size_t size);
void kspec_free(struct kspec *spec);

/* True when @v looks like a Debian kernel ABI version ("7.2.13+deb14", "6.1.0-57"). */
int kspec_is_version(const char *v);

#endif
