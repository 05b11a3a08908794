// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "deb.h"
#include "lib/lib.h"

#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *strip_dot(const char *p)
{
	if (p[0] == '.' && p[1] == '/')
		return p + 2;
	return p[0] == '/' ? p + 1 : p;
}

static int write_member(struct archive *a, struct archive_entry *e,
			const char *dest, char *err, size_t size)
{
	char *dir = xstrdup(dest), *slash = strrchr(dir, '/');
	char *tmp = xasprintf("%s.part", dest);
	const void *buf;
	size_t len;
	la_int64_t off;
	int fd, r;

	if (slash) {
		*slash = '\0';
		mkdir_p(dir);
	}
	free(dir);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		  archive_entry_perm(e) | 0600);
	if (fd < 0) {
		snprintf(err, size, "cannot write %s: %s", tmp,
			 strerror(errno));
		free(tmp);
		return -1;
	}
	while ((r = archive_read_data_block(a, &buf, &len, &off)) ==
	       ARCHIVE_OK) {
		if (pwrite(fd, buf, len, off) != (ssize_t)len) {
			snprintf(err, size, "cannot write %s: %s", tmp,
				 strerror(errno));
			r = ARCHIVE_FATAL;
			break;
		}
	}
	close(fd);
	if (r != ARCHIVE_EOF) {
		if (!err[0])
			snprintf(err, size, "%s",
				 archive_error_string(a) ?
					 archive_error_string(a) :
					 "read error");
		unlink(tmp);
		free(tmp);
		return -1;
	}
	if (rename(tmp, dest)) {
		snprintf(err, size, "cannot rename %s: %s", tmp,
			 strerror(errno));
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}

/* walk()'s answer for a member it refused: the package is hostile, not bad. */
#define UNSAFE (-2)

/* True when @path has a ".." component. */
static bool has_dotdot(const char *path)
{
	const char *p = path;

	for (;;) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return true;
		if (!p[n])
			return false;
		p += n + 1;
	}
}

/* @path without empty and "." components ("a//./b/" is "a/b"), malloc'd. */
static char *norm_path(const char *path)
{
	char *out = xmalloc(strlen(path) + 2), *o = out;
	const char *p = path;

	if (*p == '/')
		*o++ = '/';
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n && !(n == 1 && *p == '.')) {
			if (o > out && o[-1] != '/')
				*o++ = '/';
			memcpy(o, p, n);
			o += n;
		}
		p += n + !!p[n];
	}
	*o = '\0';
	return out;
}

/*
 * The symlink of @links (normalised destinations made so far) that @dest
 * is under, or NULL.
 */
static const char *under_link(char *const *links, size_t n, const char *dest)
{
	char *d = norm_path(dest);
	const char *found = NULL;
	size_t i, len;

	for (i = 0; i < n && !found; i++) {
		len = strlen(links[i]);
		if (!strncmp(d, links[i], len) && d[len] == '/')
			found = links[i];
	}
	free(d);
	return found;
}

/*
 * Extracts what @select picks. A member with a ".." component, or one whose
 * destination lies under a symlink this walk created, would be written
 * outside the destination: the package is refused instead (UNSAFE).
 */
static int walk(struct archive *a, deb_select_fn select, void *ctx, char *err,
		size_t size)
{
	struct archive_entry *e;
	char **links = NULL;
	size_t n_links = 0, i;
	int count = 0, r;

	while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
		const char *path = strip_dot(archive_entry_pathname(e));
		const char *link;
		char *dest;

		if (archive_entry_filetype(e) != AE_IFREG &&
		    archive_entry_filetype(e) != AE_IFLNK)
			continue;
		if (has_dotdot(path)) {
			snprintf(err, size,
				 "refusing member %s: it has a '..' component",
				 path);
			count = UNSAFE;
			break;
		}
		dest = select(path, ctx);
		if (!dest)
			continue;
		link = under_link(links, n_links, dest);
		if (link) {
			snprintf(
				err, size,
				"refusing member %s: it is under the symlink %s the package made",
				path, link);
			free(dest);
			count = UNSAFE;
			break;
		}
		if (archive_entry_filetype(e) == AE_IFLNK) {
			char *dir = xstrdup(dest), *slash = strrchr(dir, '/');

			if (slash) {
				*slash = '\0';
				mkdir_p(dir);
			}
			free(dir);
			unlink(dest);
			if (symlink(archive_entry_symlink(e), dest)) {
				snprintf(err, size, "cannot create %s: %s",
					 dest, strerror(errno));
				free(dest);
				count = -1;
				break;
			}
			links = xrealloc(links, (n_links + 1) * sizeof(*links));
			links[n_links++] = norm_path(dest);
			free(dest);
			count++;
			continue;
		} else if (write_member(a, e, dest, err, size)) {
			free(dest);
			count = -1;
			break;
		}
		free(dest);
		count++;
	}
	for (i = 0; i < n_links; i++)
		free(links[i]);
	free(links);
	if (count >= 0 && r != ARCHIVE_EOF) {
		snprintf(err, size, "%s",
			 archive_error_string(a) ? archive_error_string(a) :
						   "bad archive");
		return -1;
	}
	return count;
}

/* Feeds the nested tarball to a second reader, straight from the first. */
static la_ssize_t nested_read(struct archive *inner, void *data,
			      const void **buf)
{
	static char block[1 << 16];
	la_ssize_t n = archive_read_data(data, block, sizeof(block));

	(void)inner;
	*buf = block;
	return n;
}

static int walk_nested(struct archive *outer, const char *nested,
		       deb_select_fn select, void *ctx, char *err, size_t size)
{
	struct archive_entry *e;
	int r;

	while ((r = archive_read_next_header(outer, &e)) == ARCHIVE_OK) {
		struct archive *in;
		int count;

		if (strcmp(strip_dot(archive_entry_pathname(e)), nested))
			continue;
		in = archive_read_new();
		archive_read_support_filter_all(in);
		archive_read_support_format_tar(in);
		if (archive_read_open(in, outer, NULL, nested_read, NULL) !=
		    ARCHIVE_OK) {
			snprintf(err, size, "%s: %s", nested,
				 archive_error_string(in));
			archive_read_free(in);
			return -1;
		}
		count = walk(in, select, ctx, err, size);
		archive_read_free(in);
		return count;
	}
	if (r != ARCHIVE_EOF)
		snprintf(err, size, "%s", archive_error_string(outer));
	else
		snprintf(err, size, "package has no member %s", nested);
	return -1;
}

int deb_extract(const char *deb, const char *nested, deb_select_fn select,
		void *ctx, char *err, size_t size)
{
	char *argv[] = { "dpkg-deb", "--fsys-tarfile", (char *)deb, NULL };
	char errpath[] = "/tmp/lsmconf-dpkg-XXXXXX", status[128];
	int pipefd[2], errfd, pidfd, count, ret;
	struct archive *a;
	pid_t pid;

	err[0] = '\0';
	if (access(deb, R_OK)) {
		snprintf(err, size, "cannot read %s: %s", deb, strerror(errno));
		return -1;
	}
	errfd = mkstemp(errpath);
	if (errfd < 0 || pipe2(pipefd, O_CLOEXEC)) {
		snprintf(err, size, "cannot create a pipe: %s",
			 strerror(errno));
		if (errfd >= 0) {
			close(errfd);
			unlink(errpath);
		}
		return -1;
	}
	unlink(errpath);
	pid = spawn_start(argv,
			  &(struct spawn_opts){ .stdin_fd = -1,
						.stdout_fd = pipefd[1],
						.stderr_fd = errfd },
			  &pidfd);
	close(pipefd[1]);
	if (pid < 0) {
		snprintf(err, size, "cannot run dpkg-deb: %s", strerror(-pid));
		close(pipefd[0]);
		close(errfd);
		return -1;
	}

	a = archive_read_new();
	archive_read_support_filter_all(a);
	archive_read_support_format_tar(a);
	if (archive_read_open_fd(a, pipefd[0], 1 << 16) != ARCHIVE_OK) {
		snprintf(err, size, "%s", archive_error_string(a));
		count = -1;
	} else if (nested) {
		count = walk_nested(a, nested, select, ctx, err, size);
	} else {
		count = walk(a, select, ctx, err, size);
	}
	if (count >= 0) {
		struct archive_entry *e;

		/* Read to the end so dpkg-deb finishes without SIGPIPE. */
		while (archive_read_next_header(a, &e) == ARCHIVE_OK)
			;
	} else {
		char sink[1 << 16];

		/*
		 * The same after a refused member: then dpkg-deb succeeds
		 * and the refusal is the error reported, not its SIGPIPE.
		 */
		while (read(pipefd[0], sink, sizeof(sink)) > 0)
			;
	}
	archive_read_free(a);
	close(pipefd[0]);
	ret = spawn_finish(pid, pidfd, 600);
	if (ret) {
		/* dpkg-deb's own words say best what is wrong with the file. */
		char line[256] = "";
		ssize_t n = pread(errfd, line, sizeof(line) - 1, 0);

		if (n > 0) {
			line[n] = '\0';
			line[strcspn(line, "\n")] = '\0';
		}
		snprintf(err, size, "corrupt or truncated package %s: %s", deb,
			 line[0] ?
				 line :
				 spawn_strstatus(ret, status, sizeof(status)));
		count = -1;
	} else if (count < 0) {
		char *why = xstrdup(err);

		snprintf(err, size, "%s package %s: %s",
			 count == UNSAFE ? "unsafe" : "corrupt or truncated",
			 deb, why);
		free(why);
		count = -1;
	}
	close(errfd);
	return count;
}

char *deb_field(const char *deb, const char *field)
{
	char *argv[] = { "dpkg-deb", "--field", (char *)deb, (char *)field,
			 NULL };
	char *out;
	int ret;

	ret = spawn_capture(argv,
			    &(struct spawn_opts){ .stdin_fd = -1,
						  .stderr_fd = -1,
						  .timeout_s = 60 },
			    &out, NULL, NULL);
	if (ret) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	return out;
}
