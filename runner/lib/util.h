/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers every runner module uses: errors, memory, files, hashes. */
#ifndef LSMCONF_UTIL_H
#define LSMCONF_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* The source tree (the Makefile passes it): fixtures, tests, the guest init. */
#ifndef LSMCONF_ROOT
#define LSMCONF_ROOT "."
#endif

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))

/*
 * An error as library code returns it: one line, without the "lsmconf: "
 * prefix. The command that called decides what to do with it, usually
 * die("%s", e.msg).
 */
struct err {
	char msg[4096];
	/*
	 * The failure is the kernel's own (a patch that does not apply, a
	 * compile error): a result, where any other is the host's.
	 */
	bool kernel;
	/*
	 * The host's failure, shown by nothing of the kernel's (a compiler
	 * killed without an error line, a full disk): worth a second try.
	 */
	bool host;
};
/* Formats @e's message (clearing ->kernel, ->host); returns -1, for `return err_set(e, ...);`. */
int err_set(struct err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * Prints "lsmconf: <message>" on one line and exits 1. The command line's
 * alone: the layers below it return errors (runner/tests/layers.sh).
 */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* "lsmconf: out of memory", exit 1: what no layer can recover from. */
void oom(void) __attribute__((noreturn));
/*
 * A broken invariant of lsmconf's own code, never of its input:
 * "lsmconf: internal error: <message>", then abort() for a core.
 */
void bug(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* Prints "lsmconf: <message>" on one line. */
void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Progress for long steps: shown on a terminal, silent otherwise. */
void progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void progress_done(void);
bool stderr_is_tty(void);

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string. */
struct sbuf {
	char *buf;
	size_t len, cap;
};
void sbuf_add(struct sbuf *sb, const char *data, size_t len);
void sbuf_printf(struct sbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void sbuf_free(struct sbuf *sb);

int mkdir_p(const char *path);
int remove_tree(const char *path);
bool path_exists(const char *path);
/* Reads a whole file, NUL-terminated. Returns 0 or -errno. */
int read_file(const char *path, char **buf, size_t *len);
/*
 * Everything left to read on @fd, at most @max bytes, appended to @sb
 * (NUL-terminated): 0, or -errno and @sb freed (-EFBIG beyond @max).
 */
int read_fd(int fd, size_t max, struct sbuf *sb);
/* Writes a whole file atomically (temporary name, then rename). */
int write_file(const char *path, const char *buf, size_t len);
/* write_file() of @dir/@name: a results file by its name. */
int write_file_at(const char *dir, const char *name, const char *buf,
		  size_t len);
int copy_file(const char *from, const char *to, mode_t mode);
/* SHA-256 of a file or buffer as 64 hex digits. Returns 0 or -errno. */
int sha256_file(const char *path, char hex[65]);
void sha256_buf(const void *data, size_t len, char hex[65]);

/*
 * The next whole line of the text at *@p (malloc'd, without its '\n'),
 * moving *@p past it; NULL at the end of the text. A last line without a
 * '\n' was cut short: it is not returned, and *@cut is set.
 */
char *next_line(const char **p, bool *cut);

double now_seconds(void);
/*
 * Whether @s is an RFC 3339 date-time ("2026-12-04T10:11:12Z", with an
 * optional fraction of a second and a "+HH:MM" offset for "Z"), its date
 * one the calendar has (month 1-12, the month's days, leap years).
 */
bool is_rfc3339(const char *s);
/* Turns a spec such as "debian:sid" into a directory-safe name. */
char *safe_name(const char *s);

/* @s without leading and trailing white space (cut in place). */
char *trim(char *s);

#endif
