// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "xfer.h"
#include "lib/lib.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEAD "LSMCONF-RESULTS "
#define TAIL "LSMCONF-END\n"

static int parse_frame(const char *buf, size_t len, const char **payload,
		       size_t *plen, size_t *used, char *err, size_t size)
{
	const char *head = NULL, *nl, *p;
	unsigned long long want;
	char sum[65], got[65], line[128], digits[21];
	size_t hlen = strlen(HEAD), tlen = strlen(TAIL), have;

	if (!len) {
		snprintf(err, size, "no results received (empty data channel)");
		return -1;
	}
	for (p = buf; p + hlen <= buf + len; p++) {
		p = memchr(p, 'L', buf + len - p);
		if (!p || p + hlen > buf + len)
			break;
		if (!memcmp(p, HEAD, hlen)) {
			head = p;
			break;
		}
	}
	if (!head) {
		snprintf(err, size, "no results header in %zu bytes received",
			 len);
		return -1;
	}
	nl = memchr(head, '\n', buf + len - head);
	/* Parse a bounded copy: @buf need not be NUL-terminated. */
	if (nl && (size_t)(nl - head) < sizeof(line)) {
		memcpy(line, head, nl - head);
		line[nl - head] = '\0';
	}
	if (!nl || (size_t)(nl - head) >= sizeof(line) ||
	    sscanf(line + hlen, "%20[0-9] %64[0-9a-f]", digits, sum) != 2 ||
	    strlen(sum) != 64) {
		snprintf(err, size, "malformed results header");
		return -1;
	}
	errno = 0;
	want = strtoull(digits, NULL, 10);
	have = buf + len - (nl + 1);
	if (errno || want > have || have - want < tlen) {
		snprintf(
			err, size,
			"truncated results: %zu of %llu bytes and no end marker",
			have < want ? have : (size_t)want, want);
		return -1;
	}
	if (memcmp(nl + 1 + want, TAIL, tlen)) {
		snprintf(err, size,
			 "results end marker missing after %llu bytes", want);
		return -1;
	}
	sha256_buf(nl + 1, want, got);
	if (strcmp(got, sum)) {
		snprintf(err, size,
			 "results checksum mismatch (corrupted transfer)");
		return -1;
	}
	*payload = nl + 1;
	*plen = want;
	if (used)
		*used = nl + 1 + want + tlen - buf;
	return 0;
}

int xfer_parse(const char *buf, size_t len, const char **payload, size_t *plen,
	       char *err, size_t size)
{
	return parse_frame(buf, len, payload, plen, NULL, err, size);
}

int xfer_next(const char *buf, size_t len, size_t *pos, const char **payload,
	      size_t *plen, char *err, size_t size)
{
	size_t used;

	if (*pos >= len) {
		snprintf(err, size, "no more frames");
		return 1;
	}
	if (parse_frame(buf + *pos, len - *pos, payload, plen, &used, err,
			size))
		return -1;
	*pos += used;
	return 0;
}

int xfer_untar_names(const char *tar, size_t len, const char *dir,
		     struct sbuf *names, char *err, size_t size)
{
	struct archive *a = archive_read_new(), *w = archive_write_disk_new();
	struct archive_entry *e;
	int count = 0, r;

	archive_read_support_format_tar(a);
	/* The guest gzips its frames: the serial port is the slow part. */
	archive_read_support_filter_gzip(a);
	archive_write_disk_set_options(w, ARCHIVE_EXTRACT_SECURE_SYMLINKS);
	if (archive_read_open_memory(a, tar, len) != ARCHIVE_OK) {
		snprintf(err, size, "results: %s", archive_error_string(a));
		count = -1;
		goto out;
	}
	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname(e);
		const void *buf;
		size_t n;
		la_int64_t off;
		char *path;

		/* Only plain files and directories, never outside @dir. */
		if (archive_entry_hardlink(e) || name[0] == '/' ||
		    !strcmp(name, "..") || !strncmp(name, "../", 3) ||
		    strstr(name, "/../") ||
		    (strlen(name) >= 3 &&
		     !strcmp(name + strlen(name) - 3, "/.."))) {
			snprintf(err, size, "results: unsafe path %s", name);
			count = -1;
			goto out;
		}
		/* Before the rename below, which frees @name. */
		if (names && archive_entry_filetype(e) == AE_IFREG)
			sbuf_printf(names, "%s\n", name);
		path = xasprintf("%s/%s", dir, name);
		archive_entry_set_pathname(e, path);
		free(path);
		if (archive_entry_filetype(e) != AE_IFREG &&
		    archive_entry_filetype(e) != AE_IFDIR)
			continue;
		if (archive_write_header(w, e) != ARCHIVE_OK) {
			snprintf(err, size, "results: %s",
				 archive_error_string(w));
			count = -1;
			goto out;
		}
		/* A short write (disk full, file size limit) fails the frame. */
		while ((r = archive_read_data_block(a, &buf, &n, &off)) ==
		       ARCHIVE_OK)
			if (archive_write_data_block(w, buf, n, off) <
			    ARCHIVE_OK) {
				snprintf(err, size, "results: %s: %s",
					 archive_entry_pathname(e),
					 archive_error_string(w));
				count = -1;
				goto out;
			}
		if (r != ARCHIVE_EOF) {
			snprintf(err, size, "results: %s",
				 archive_error_string(a));
			count = -1;
			goto out;
		}
		if (archive_write_finish_entry(w) < ARCHIVE_OK) {
			snprintf(err, size, "results: %s: %s",
				 archive_entry_pathname(e),
				 archive_error_string(w));
			count = -1;
			goto out;
		}
		count += archive_entry_filetype(e) == AE_IFREG;
	}
	if (r != ARCHIVE_EOF) {
		snprintf(err, size, "results: %s", archive_error_string(a));
		count = -1;
	}
out:
	archive_read_free(a);
	archive_write_free(w);
	return count;
}

int xfer_untar(const char *tar, size_t len, const char *dir, char *err,
	       size_t size)
{
	return xfer_untar_names(tar, len, dir, NULL, err, size);
}
