/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What kcidb.c and kcidb_runs.c share: building the document's objects.
 * Not for other files: kcidb.h is the API.
 */
#ifndef LSMCONF_KCIDB_INT_H
#define LSMCONF_KCIDB_INT_H
#include "kcidb.h"

/* Sets @key of @o to @value ("" for NULL); out of memory ends lsmconf. */
void kcidb_set_str(json_t *o, const char *key, const char *value);
/* Sets @key of @o to @value, a new reference. */
void kcidb_set_new(json_t *o, const char *key, json_t *value);
void kcidb_append(json_t *arr, json_t *v);
/*
 * A test of boot @boot on @build_id at @path with @misc (a new reference,
 * or NULL); its id hashes the run, the build, the boot and the path.
 */
json_t *kcidb_add_test(struct kcidb *k, const char *build_id, const char *boot,
		       const char *path, enum kcidb_status st, json_t *misc);

#endif
