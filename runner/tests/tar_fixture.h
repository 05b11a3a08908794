/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Tar archives built in memory for the unit tests, as the guest sends its
 * results (xfer_fixture.h) and as a .deb holds its files (test_deb).
 */
#ifndef LSMCONF_TAR_FIXTURE_H
#define LSMCONF_TAR_FIXTURE_H

#include <archive.h>
#include <archive_entry.h>
#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct tar_ent {
	const char *path;
	unsigned int type; /* AE_IFREG, AE_IFDIR, AE_IFLNK */
	const char *data; /* AE_IFREG */
	const char *link; /* symlink target, or hardlink target of AE_IFREG */
};

/* A ustar archive of @ents, gzipped when @gzip (as the guest sends it). */
static inline char *tar_make(const struct tar_ent *ents, size_t n, bool gzip,
			     size_t *len)
{
	size_t cap = 1 << 20, used = 0, i;
	char *buf = malloc(cap);
	struct archive *a = archive_write_new();

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(archive_write_set_format_ustar(a), ARCHIVE_OK);
	if (gzip)
		ck_assert_int_eq(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	ck_assert_int_eq(archive_write_set_bytes_in_last_block(a, 1),
			 ARCHIVE_OK);
	ck_assert_int_eq(archive_write_open_memory(a, buf, cap, &used),
			 ARCHIVE_OK);
	for (i = 0; i < n; i++) {
		struct archive_entry *e = archive_entry_new();
		size_t size = ents[i].data ? strlen(ents[i].data) : 0;

		archive_entry_set_pathname(e, ents[i].path);
		archive_entry_set_filetype(e, ents[i].type);
		archive_entry_set_perm(e,
				       ents[i].type == AE_IFDIR ? 0755 : 0644);
		archive_entry_set_mtime(e, 1700000000, 0);
		if (ents[i].link && ents[i].type == AE_IFLNK)
			archive_entry_set_symlink(e, ents[i].link);
		else if (ents[i].link)
			archive_entry_set_hardlink(e, ents[i].link);
		archive_entry_set_size(e, size);
		ck_assert_int_eq(archive_write_header(a, e), ARCHIVE_OK);
		if (size)
			ck_assert_int_eq(
				archive_write_data(a, ents[i].data, size),
				(la_ssize_t)size);
		archive_entry_free(e);
	}
	ck_assert_int_eq(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
	*len = used;
	return buf;
}

#endif
