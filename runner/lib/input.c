// SPDX-License-Identifier: GPL-2.0
/* Inputs read without blocking and refused in one line: see input.h. */
#define _GNU_SOURCE
#include "input.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file that is not a regular one is, for the message. */
static const char *file_kind(mode_t mode)
{
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	return "not a regular file";
}

/*
 * @path opened for reading without blocking (a FIFO with no writer would
 * block open(), a device read()), and its status. The descriptor, or a
 * negative errno and @e.
 */
static int open_input(const char *path, struct stat *st, struct err *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	int ret;

	if (fd < 0) {
		ret = -errno;
		err_set(e, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, st)) {
		ret = -errno;
		err_set(e, "%s: %s", path, strerror(-ret));
		close(fd);
		return ret;
	}
	return fd;
}

int input_regular(const char *path, struct err *e)
{
	struct stat st;
	int fd = open_input(path, &st, e);

	if (fd < 0)
		return fd;
	close(fd);
	if (!S_ISREG(st.st_mode)) {
		err_set(e, "%s: %s, not a regular file", path,
			file_kind(st.st_mode));
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	return 0;
}

int input_directory(const char *path, struct err *e)
{
	struct stat st;
	int fd = open_input(path, &st, e);

	if (fd < 0)
		return fd;
	close(fd);
	if (!S_ISDIR(st.st_mode)) {
		err_set(e, "%s: %s, not a directory", path,
			S_ISREG(st.st_mode) ? "a file" : file_kind(st.st_mode));
		return -ENOTDIR;
	}
	return 0;
}

bool input_find_nul(const char *text, size_t len, size_t *off,
		    unsigned int *line)
{
	const char *nul = memchr(text, '\0', len), *p;

	if (!nul)
		return false;
	*off = nul - text;
	*line = 1;
	for (p = text; (p = memchr(p, '\n', nul - p)); p++)
		(*line)++;
	return true;
}

int read_input(const char *path, size_t max, unsigned int flags, char **buf,
	       size_t *len, struct err *e)
{
	struct sbuf sb = { 0 };
	struct stat st;
	unsigned int line;
	size_t off;
	int n, fd = open_input(path, &st, e);

	if (fd < 0)
		return fd;
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		err_set(e, "%s: %s, not a regular file", path,
			file_kind(st.st_mode));
		return S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
	}
	if ((unsigned long long)st.st_size > max) {
		close(fd);
		goto too_big;
	}
	/* The size may change under us: the limit holds for what is read. */
	n = read_fd(fd, max, &sb);
	close(fd);
	if (n == -EFBIG)
		goto too_big;
	if (n) {
		err_set(e, "%s: %s", path, strerror(-n));
		return n;
	}
	if ((flags & INPUT_TEXT) &&
	    input_find_nul(sb.buf, sb.len, &off, &line)) {
		sbuf_free(&sb);
		err_set(e,
			"%s: a NUL byte at offset %zu (line %u): not a text file",
			path, off, line);
		return -EILSEQ;
	}
	*buf = sb.buf;
	if (len)
		*len = sb.len;
	return 0;
too_big:
	if (max >= (1 << 20))
		err_set(e, "%s: larger than %zu MiB, the limit of this input",
			path, max >> 20);
	else
		err_set(e, "%s: larger than %zu bytes, the limit of this input",
			path, max);
	return -EFBIG;
}

/* @line split at its tabs into @f: NULL, or why it does not hold @fields. */
static const char *split_fields(char *line, size_t fields, char **f, char *why,
				size_t size)
{
	char *save = NULL, *tok;
	size_t n = 0;

	if (strstr(line, "\t\t") || line[0] == '\t' ||
	    line[strlen(line) - 1] == '\t')
		return "an empty field";
	for (tok = strtok_r(line, "\t", &save); tok;
	     tok = strtok_r(NULL, "\t", &save)) {
		if (n == fields) {
			snprintf(why, size,
				 "more than %zu tab-separated fields", fields);
			return why;
		}
		f[n++] = tok;
	}
	if (n == fields)
		return NULL;
	snprintf(why, size, "fewer than %zu tab-separated fields", fields);
	return why;
}

int input_rows(const char *text, size_t len, size_t fields,
	       const char *(*row)(char **f, unsigned int n, void *ctx),
	       void *ctx, char *err, size_t size)
{
	const char *p = text, *end = text + len, *nl, *why;
	char *copy, *f[INPUT_MAX_FIELDS], count[64];
	unsigned int line = 0;

	if (!fields || fields > INPUT_MAX_FIELDS) {
		snprintf(err, size, "%zu fields a row: 1 to %d", fields,
			 INPUT_MAX_FIELDS);
		return -1;
	}
	for (; p < end; p = nl + 1) {
		line++;
		nl = memchr(p, '\n', end - p);
		if (!nl) {
			snprintf(err, size, "line %u: no newline at the end",
				 line);
			return -1;
		}
		if (nl == p || *p == '#')
			continue;
		if (memchr(p, '\0', nl - p)) {
			snprintf(err, size, "line %u: a NUL byte", line);
			return -1;
		}
		copy = xstrndup(p, nl - p);
		why = split_fields(copy, fields, f, count, sizeof(count));
		if (!why)
			why = row(f, line, ctx);
		if (why)
			snprintf(err, size, "line %u: %s", line, why);
		free(copy);
		if (why)
			return -1;
	}
	return 0;
}
