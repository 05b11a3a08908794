// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <fcntl.h>
#include <ftw.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static bool progress_shown;

bool stderr_is_tty(void)
{
	static int tty = -1;

	if (tty < 0)
		tty = isatty(STDERR_FILENO) && !getenv("CI");
	return tty;
}

void progress_done(void)
{
	if (progress_shown)
		fputs("\r\033[K", stderr);
	progress_shown = false;
}

static void vnote(const char *fmt, va_list ap)
{
	progress_done();
	fflush(stdout);
	fputs("lsmconf: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(fmt, ap);
	va_end(ap);
	exit(1);
}

void oom(void)
{
	die("out of memory");
}

void bug(const char *fmt, ...)
{
	va_list ap;

	fputs("lsmconf: internal error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	abort();
}

int err_set(struct err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	e->kernel = false;
	e->host = false;
	return -1;
}

void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vnote(fmt, ap);
	va_end(ap);
}

void progress(const char *fmt, ...)
{
	va_list ap;

	if (!stderr_is_tty())
		return;
	fputs("\r\033[K", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	progress_shown = true;
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		die("out of memory");
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		die("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = strndup(s, n);

	if (!p)
		die("out of memory");
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	return p;
}

void sbuf_add(struct sbuf *sb, const char *data, size_t len)
{
	if (sb->len + len + 1 > sb->cap) {
		sb->cap = (sb->len + len + 1) * 2;
		sb->buf = xrealloc(sb->buf, sb->cap);
	}
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		die("out of memory");
	sbuf_add(sb, p, n);
	free(p);
}

void sbuf_free(struct sbuf *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}

int mkdir_p(const char *path)
{
	char *p = xstrdup(path), *s;
	int ret = 0;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) && errno != EEXIST)
			ret = -errno;
		*s = '/';
		if (ret)
			goto out;
	}
	if (mkdir(p, 0755) && errno != EEXIST)
		ret = -errno;
out:
	free(p);
	return ret;
}

static int remove_one(const char *path, const struct stat *st, int flag,
		      struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) ? -1 : 0;
}

int remove_tree(const char *path)
{
	if (!path_exists(path))
		return 0;
	return nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -errno : 0;
}

bool path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int read_fd(int fd, size_t max, struct sbuf *sb)
{
	char chunk[65536];
	ssize_t n;

	sbuf_add(sb, "", 0);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || sb->len + n > max) {
			n = n < 0 ? -errno : -EFBIG;
			sbuf_free(sb);
			return n;
		}
		sbuf_add(sb, chunk, n);
	}
	return 0;
}

int read_file(const char *path, char **buf, size_t *len)
{
	struct sbuf sb = { 0 };
	int fd, ret;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = read_fd(fd, SIZE_MAX, &sb);
	close(fd);
	if (ret)
		return ret;
	*buf = sb.buf;
	if (len)
		*len = sb.len;
	return 0;
}

static int write_fd_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

int write_file(const char *path, const char *buf, size_t len)
{
	char *tmp = xasprintf("%s.tmp.%d", path, getpid());
	int fd, ret;

	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		ret = -errno;
		free(tmp);
		return ret;
	}
	ret = write_fd_all(fd, buf, len);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	free(tmp);
	return ret;
}

int write_file_at(const char *dir, const char *name, const char *buf,
		  size_t len)
{
	char *path = xasprintf("%s/%s", dir, name);
	int ret = write_file(path, buf, len);

	free(path);
	return ret;
}

int copy_file(const char *from, const char *to, mode_t mode)
{
	size_t len;
	char *buf;
	int ret;

	ret = read_file(from, &buf, &len);
	if (ret)
		return ret;
	ret = write_file(to, buf, len);
	free(buf);
	if (!ret && chmod(to, mode))
		ret = -errno;
	return ret;
}

static void to_hex(const unsigned char *md, unsigned int n, char *hex)
{
	static const char digits[] = "0123456789abcdef";
	unsigned int i;

	for (i = 0; i < n; i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[2 * n] = '\0';
}

int sha256_file(const char *path, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE], chunk[65536];
	unsigned int mdlen;
	EVP_MD_CTX *ctx;
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ctx = EVP_MD_CTX_new();
	if (!ctx)
		die("out of memory");
	EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
	while ((n = read(fd, chunk, sizeof(chunk))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		EVP_DigestUpdate(ctx, chunk, n);
	}
	close(fd);
	EVP_DigestFinal_ex(ctx, md, &mdlen);
	EVP_MD_CTX_free(ctx);
	if (!ret)
		to_hex(md, mdlen, hex);
	return ret;
}

void sha256_buf(const void *data, size_t len, char hex[65])
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen;

	EVP_Digest(data, len, md, &mdlen, EVP_sha256(), NULL);
	to_hex(md, mdlen, hex);
}

char *next_line(const char **p, bool *cut)
{
	const char *nl;
	char *line;

	*cut = false;
	if (!*p || !**p)
		return NULL;
	nl = strchr(*p, '\n');
	if (!nl) {
		*cut = true;
		return NULL;
	}
	line = xstrndup(*p, nl - *p);
	*p = nl + 1;
	return line;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* @n digits at *@p as a number, moving *@p past them; -1 when not. */
static int digits(const char **p, int n)
{
	int v = 0;

	while (n--) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (*(*p)++ - '0');
	}
	return v;
}

bool is_rfc3339(const char *s)
{
	static const int mdays[] = { 31, 29, 31, 30, 31, 30,
				     31, 31, 30, 31, 30, 31 };
	int y, mo, d, h, mi, sec;

	y = digits(&s, 4);
	if (y < 0 || *s++ != '-' || (mo = digits(&s, 2)) < 1 || mo > 12 ||
	    *s++ != '-' || (d = digits(&s, 2)) < 1 || d > mdays[mo - 1])
		return false;
	/* February 29th only in a leap year. */
	if (mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400)))
		return false;
	if ((*s != 'T' && *s != 't') || (s++, h = digits(&s, 2)) < 0 ||
	    h > 23 || *s++ != ':' || (mi = digits(&s, 2)) < 0 || mi > 59 ||
	    *s++ != ':' || (sec = digits(&s, 2)) < 0 || sec > 60)
		return false;
	if (*s == '.') {
		s++;
		if (!isdigit((unsigned char)*s))
			return false;
		while (isdigit((unsigned char)*s))
			s++;
	}
	if (*s == 'Z' || *s == 'z')
		return !s[1];
	if (*s != '+' && *s != '-')
		return false;
	s++;
	return (h = digits(&s, 2)) >= 0 && h <= 23 && *s++ == ':' &&
	       (mi = digits(&s, 2)) >= 0 && mi <= 59 && !*s;
}

char *safe_name(const char *s)
{
	char *p = xstrdup(s), *q;

	for (q = p; *q; q++)
		if (!((*q >= 'a' && *q <= 'z') || (*q >= 'A' && *q <= 'Z') ||
		      (*q >= '0' && *q <= '9') || *q == '.' || *q == '_' ||
		      *q == '+' || *q == '-'))
			*q = '-';
	return p;
}

char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}
