// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "series.h"
#include "lib/lib.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* git on a few mails or a short range: seconds; a bound all the same. */
#define GIT_TIMEOUT_S 120
/* git format-patch keeps names short: 4 digits, '-', this, ".patch". */
#define SLUG_MAX 52

char *series_strip_subject(const char *subject)
{
	const char *s = subject;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (*s != '[' || !strchr(s, ']'))
			break;
		s = strchr(s, ']') + 1;
	}
	/* No leading space left: trim() cuts only the end of the copy. */
	return trim(xstrdup(s));
}

bool series_numbering(const char *subject, unsigned int *i, unsigned int *total)
{
	const char *s = subject;

	for (;;) {
		const char *end, *p;

		while (isspace((unsigned char)*s))
			s++;
		end = *s == '[' ? strchr(s, ']') : NULL;
		if (!end)
			return false;
		/* A word "i/N" inside the brackets, digits on both sides. */
		for (p = s + 1; p < end; p++) {
			unsigned int a, b;
			int len;

			if (!isdigit((unsigned char)*p) ||
			    (p[-1] != ' ' && p[-1] != '['))
				continue;
			if (sscanf(p, "%u/%u%n", &a, &b, &len) == 2 &&
			    (p[len] == ']' || p[len] == ' ') &&
			    p + len <= end) {
				*i = a;
				*total = b;
				return true;
			}
		}
		s = end + 1;
	}
}

char *series_slug(const char *subject)
{
	char *slug = xmalloc(SLUG_MAX + 1);
	size_t n = 0;
	bool dash = false;

	for (; *subject && n < SLUG_MAX; subject++) {
		unsigned char c = *subject;

		if (isalnum(c) || c == '_' || c == '.') {
			if (dash && n)
				slug[n++] = '-';
			if (n < SLUG_MAX)
				slug[n++] = c;
			dash = false;
		} else {
			dash = true;
		}
	}
	/* No leading or trailing '.' or '-': as format-patch. */
	while (n && slug[n - 1] == '.')
		n--;
	slug[n] = '\0';
	if (!n) {
		free(slug);
		return xstrdup("patch");
	}
	return slug;
}

/* Whether @text starts with mail headers ("Name: value" lines). */
static bool is_mail(const char *text)
{
	const char *colon = strchr(text, ':'), *nl = strchr(text, '\n');

	if (!strncmp(text, "From ", 5))
		return true;
	return colon && (!nl || colon < nl) && colon > text &&
	       !strchr(" \t", text[0]) && !memchr(text, ' ', colon - text);
}

char *series_header_subject(const char *text)
{
	const char *p = text;
	struct sbuf sb = { 0 };
	bool found = false, cut;
	char *line, *subject;

	if (!is_mail(text)) {
		line = next_line(&p, &cut);
		if (!line && *text)
			line = xstrdup(text);
		subject = line && *trim(line) ? xstrdup(trim(line)) : NULL;
		free(line);
		return subject;
	}
	/* The headers end at the first empty line. */
	for (; (line = next_line(&p, &cut)); free(line)) {
		bool fold = *line == ' ' || *line == '\t';

		if (!*line || (found && !fold)) {
			free(line);
			break;
		}
		if (found) {
			sbuf_printf(&sb, " %s", trim(line));
		} else if (!strncasecmp(line, "Subject:", 8)) {
			found = true;
			sbuf_printf(&sb, "%s", trim(line + 8));
		}
	}
	if (!found)
		return NULL;
	return sb.buf ? sb.buf : xstrdup("");
}

bool series_has_diff(const char *text)
{
	const char *minus;

	if (!strncmp(text, "diff --git ", 11) || strstr(text, "\ndiff --git "))
		return true;
	minus = !strncmp(text, "--- ", 4) ? text : strstr(text, "\n--- ");
	return minus && strstr(minus, "\n+++ ");
}

void series_free(struct series *s)
{
	size_t i;

	for (i = 0; i < s->n; i++) {
		free(s->p[i].path);
		free(s->p[i].subject);
	}
	free(s->p);
	memset(s, 0, sizeof(*s));
}

/* Adds @text as patch number s->n + 1 under @out. */
static int add_patch(struct series *s, const char *out, const char *subject,
		     const char *text, size_t len, struct err *e)
{
	char *slug = series_slug(subject);
	char *path = xasprintf("%s/%04zu-%s.patch", out, s->n + 1, slug);

	free(slug);
	if (write_file(path, text, len)) {
		err_set(e, "cannot write %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	s->p = xrealloc(s->p, (s->n + 1) * sizeof(*s->p));
	s->p[s->n].path = path;
	s->p[s->n].subject = xstrdup(subject);
	s->n++;
	return 0;
}

static int git(char *const argv[], const char *what, char **out, struct err *e)
{
	char status[128], *err_text = NULL, *o = NULL;
	size_t len;
	int rc;

	rc = spawn_capture(argv,
			   &(struct spawn_opts){ .stdin_fd = -1,
						 .stdout_fd = -1,
						 .stderr_fd = -1,
						 .timeout_s = GIT_TIMEOUT_S },
			   &o, &len, &err_text);
	if (rc) {
		/* git's own first line says best what is wrong. */
		char *msg = err_text ? trim(err_text) : "";

		msg[strcspn(msg, "\n")] = '\0';
		err_set(e, "%s failed (%s)%s%s", what,
			spawn_strstatus(rc, status, sizeof(status)),
			*msg ? ": " : "", msg);
	}
	free(err_text);
	if (out && !rc)
		*out = o;
	else
		free(o);
	return rc ? -1 : 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names in @dir ending in @suffix, sorted; -1 when it cannot be read. */
static int list_dir(const char *dir, const char *suffix, char ***names,
		    size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t sl = strlen(suffix);

	*names = NULL;
	*n = 0;
	if (!d)
		return -1;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || l < sl ||
		    strcmp(de->d_name + l - sl, suffix))
			continue;
		*names = xrealloc(*names, (*n + 1) * sizeof(char *));
		(*names)[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (*n)
		qsort(*names, *n, sizeof(char *), cmp_str);
	return 0;
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* A patch of a directory: its file name and its number. */
struct numbered {
	char *name;
	unsigned long n;
	int width; /* digits in the name, to print the number as it is */
};

static int cmp_numbered(const void *a, const void *b)
{
	const struct numbered *x = a, *y = b;

	return x->n < y->n ? -1 : x->n > y->n;
}

/*
 * Every number of @v (sorted), as the names have them: "0001, 0003".
 * Malloc'd.
 */
static char *numbers(const struct numbered *v, size_t n)
{
	struct sbuf sb = { 0 };
	size_t i;

	for (i = 0; i < n; i++)
		sbuf_printf(&sb, "%s%0*lu", i ? ", " : "", v[i].width, v[i].n);
	return sb.buf ? sb.buf : xstrdup("");
}

/*
 * The patches of @dir by number (NNNN-name.patch, the cover letter left
 * out): each must have one, none twice, and 1..N with no gap unless
 * @allow_gaps. 0, or -1 and @e.
 */
static int number_patches(const char *dir, char **names, size_t n,
			  bool allow_gaps, struct numbered **out, size_t *m,
			  struct err *e)
{
	struct numbered *v = xcalloc(n + 1, sizeof(*v));
	size_t i, k = 0;
	char *list;

	for (i = 0; i < n; i++) {
		size_t d = strspn(names[i], "0123456789");

		if (!strcmp(names[i], "0000-cover-letter.patch"))
			continue;
		if (!d || d > 9 || names[i][d] != '-') {
			free(v);
			return err_set(
				e,
				"%s: %s has no number (want NNNN-name.patch, as git format-patch writes)",
				dir, names[i]);
		}
		v[k].name = names[i];
		v[k].n = strtoul(names[i], NULL, 10);
		v[k++].width = d;
	}
	qsort(v, k, sizeof(*v), cmp_numbered);
	for (i = 1; i < k; i++)
		if (v[i].n == v[i - 1].n) {
			err_set(e, "%s: two patches numbered %lu (%s and %s)",
				dir, v[i].n, v[i - 1].name, v[i].name);
			free(v);
			return -1;
		}
	for (i = 0; i < k && !allow_gaps; i++)
		if (v[i].n != i + 1) {
			/* Patches 2, 4 and 5 may be in the mail still. */
			list = numbers(v, k);
			err_set(e,
				"%s: the numbering has gaps (%s; want 1 to %zu, each once); --allow-gaps takes them in order",
				dir, list, k);
			free(list);
			free(v);
			return -1;
		}
	*out = v;
	*m = k;
	return 0;
}

static int load_dir(const char *dir, const char *out, bool allow_gaps,
		    struct series *s, struct err *e)
{
	struct numbered *v = NULL;
	char **names;
	size_t n, m = 0, i;
	int rc = 0;

	if (list_dir(dir, ".patch", &names, &n))
		return err_set(e, "cannot read %s: %s", dir, strerror(errno));
	rc = number_patches(dir, names, n, allow_gaps, &v, &m, e);
	for (i = 0; !rc && i < m; i++) {
		char *path, *text, *subject, *stripped;
		size_t len;

		path = xasprintf("%s/%s", dir, v[i].name);
		if (read_input(path, INPUT_MAX_BIG, INPUT_TEXT, &text, &len,
			       e)) {
			rc = -1;
			free(path);
			break;
		}
		subject = series_header_subject(text);
		if (!subject)
			rc = err_set(e, "%s: no subject in it", path);
		else if (diff_check(text, len, path, e) < 0)
			rc = -1;
		stripped = subject ? series_strip_subject(subject) : NULL;
		if (!rc)
			rc = add_patch(s, out, stripped, text, len, e);
		free(stripped);
		free(subject);
		free(text);
		free(path);
	}
	free(v);
	free_names(names, n);
	if (!rc && !s->n)
		rc = err_set(e,
			     "%s: no patch in it (want NNNN-name.patch files)",
			     dir);
	return rc;
}

/* One mail of an mbox, as git mailinfo decodes it. */
struct mail {
	unsigned int i, total;
	bool numbered;
	char *subject; /* stripped */
	char *text; /* headers, message and patch, as format-patch writes */
};

/*
 * Decodes @path with git mailinfo -k; 1 when it holds no diff, -1 and
 * @e when it cannot, or when its diff is no unified diff (@label names
 * the mail: "MBOX, mail 3's diff", whose lines it counts).
 */
static int read_mail(const char *path, const char *label, const char *tmp,
		     struct mail *m, struct err *e)
{
	char *msg_path = xasprintf("%s/msg", tmp), *patch_path;
	char *info = NULL, *msg = NULL, *patch = NULL;
	char *author = NULL, *email = NULL, *date = NULL, *subject = NULL;
	const char *p;
	char *line;
	bool cut;
	int fd, rc;

	patch_path = xasprintf("%s/patch", tmp);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = err_set(e, "cannot read %s", path);
		goto out;
	}
	rc = spawn_capture((char *[]){ "git", "mailinfo", "-k", msg_path,
				       patch_path, NULL },
			   &(struct spawn_opts){ .stdin_fd = fd,
						 .stdout_fd = -1,
						 .stderr_fd = -1,
						 .timeout_s = GIT_TIMEOUT_S },
			   &info, NULL, NULL);
	close(fd);
	if (rc || read_file(msg_path, &msg, NULL) ||
	    read_file(patch_path, &patch, NULL)) {
		rc = err_set(e, "git mailinfo cannot read mail %s", path);
		goto out;
	}
	for (p = info; (line = next_line(&p, &cut)); free(line)) {
		if (!strncmp(line, "Author: ", 8))
			author = xstrdup(line + 8);
		else if (!strncmp(line, "Email: ", 7))
			email = xstrdup(line + 7);
		else if (!strncmp(line, "Date: ", 6))
			date = xstrdup(line + 6);
		else if (!strncmp(line, "Subject: ", 9))
			subject = xstrdup(line + 9);
	}
	if (!subject)
		subject = xstrdup("");
	m->numbered = series_numbering(subject, &m->i, &m->total);
	m->subject = series_strip_subject(subject);
	if (!series_has_diff(patch)) {
		rc = 1;
		goto out;
	}
	if (diff_check(patch, strlen(patch), label, e) < 0) {
		rc = -1;
		goto out;
	}
	/* Mail-formatted again: git am and patch(1) both take it. */
	m->text = xasprintf(
		"From: %s <%s>\nDate: %s\nSubject: [PATCH] %s\n\n%s%s",
		author ? author : "", email ? email : "", date ? date : "",
		m->subject, msg, patch);
	rc = 0;
out:
	free(author);
	free(email);
	free(date);
	free(subject);
	free(info);
	free(msg);
	free(patch);
	free(msg_path);
	free(patch_path);
	return rc;
}

static void mails_free(struct mail *m, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(m[i].subject);
		free(m[i].text);
	}
	free(m);
}

static int cmp_mail(const void *a, const void *b)
{
	const struct mail *x = a, *y = b;

	return x->i < y->i ? -1 : x->i > y->i;
}

/*
 * The numbering of the patches (covers left out already): all numbered
 * or none; one length; 1..N each once (with @allow_gaps, a number may be
 * missing).
 */
static int check_numbering(const char *mbox, struct mail *m, size_t n,
			   unsigned int cover_total, bool allow_gaps,
			   struct err *e)
{
	unsigned int total = cover_total, want;
	size_t i, numbered = 0;
	struct sbuf have = { 0 };

	for (i = 0; i < n; i++)
		numbered += m[i].numbered;
	if (!numbered)
		return 0;
	if (numbered != n)
		return err_set(e, "%s: numbered and unnumbered patches mixed",
			       mbox);
	for (i = 0; i < n; i++) {
		if (!total)
			total = m[i].total;
		if (m[i].total != total)
			return err_set(
				e, "%s: mixed series lengths (of %u and of %u)",
				mbox, total, m[i].total);
	}
	qsort(m, n, sizeof(*m), cmp_mail);
	for (i = 0; i < n; i++)
		sbuf_printf(&have, "%s%u", i ? ", " : "", m[i].i);
	for (i = 0, want = 1; want <= total; want++) {
		if (i < n && m[i].i == want) {
			if (i + 1 < n && m[i + 1].i == want) {
				sbuf_free(&have);
				return err_set(e,
					       "%s: patch %u/%u appears twice",
					       mbox, want, total);
			}
			i++;
			continue;
		}
		if (allow_gaps)
			continue;
		err_set(e,
			"%s: patch %u/%u is missing (have %s); --allow-gaps takes them in order",
			mbox, want, total, have.buf);
		sbuf_free(&have);
		return -1;
	}
	sbuf_free(&have);
	if (i < n)
		return err_set(e, "%s: patch %u/%u is beyond the series", mbox,
			       m[i].i, total);
	return 0;
}

static int load_mbox(const char *mbox, const char *out, bool allow_gaps,
		     struct series *s, struct err *e)
{
	char tmpl[] = "/tmp/lsmconf-mbox.XXXXXX", *tmp, *split = NULL;
	char *head = NULL, *arg = NULL, **names = NULL;
	struct mail *mails = NULL;
	size_t n_names = 0, n = 0, i;
	unsigned int cover_total = 0;
	int rc = -1;

	if (read_input(mbox, INPUT_MAX_BIG, INPUT_TEXT, &head, NULL, e))
		return -1;
	if (strncmp(head, "From ", 5)) {
		free(head);
		return err_set(
			e,
			"%s: not an mbox (it does not start with a \"From \" line)",
			mbox);
	}
	free(head);
	tmp = mkdtemp(tmpl);
	if (!tmp)
		return err_set(e, "mkdtemp: %s", strerror(errno));
	split = xasprintf("%s/split", tmp);
	arg = xasprintf("-o%s", split);
	if (mkdir_p(split)) {
		err_set(e, "cannot create %s", split);
		goto out;
	}
	if (git((char *[]){ "git", "mailsplit", arg, (char *)mbox, NULL },
		"git mailsplit", NULL, e))
		goto out;
	if (list_dir(split, "", &names, &n_names)) {
		err_set(e, "cannot read %s", split);
		goto out;
	}
	for (i = 0; i < n_names; i++) {
		char *path = xasprintf("%s/%s", split, names[i]);
		char *label = xasprintf("%s, mail %zu's diff", mbox, i + 1);
		struct mail m = { 0 };
		int r = read_mail(path, label, tmp, &m, e);

		free(path);
		free(label);
		if (r < 0)
			goto out;
		/*
		 * A cover letter: numbered 0, and no diff. Any other mail
		 * without one (a reply, a patch its mailer broke) is named,
		 * never dropped.
		 */
		if (r && !(m.numbered && !m.i)) {
			err_set(e,
				"%s: mail %zu (\"%.60s\") holds no diff (only a cover letter, numbered 0, may have none)",
				mbox, i + 1, m.subject);
			free(m.subject);
			goto out;
		}
		if (!r && m.numbered && !m.i) {
			err_set(e,
				"%s: mail %zu (\"%.60s\") is numbered 0, a cover letter's number, and holds a diff",
				mbox, i + 1, m.subject);
			free(m.subject);
			free(m.text);
			goto out;
		}
		if (r) {
			cover_total = m.total;
			free(m.subject);
			continue;
		}
		mails = xrealloc(mails, (n + 1) * sizeof(*mails));
		mails[n++] = m;
	}
	if (!n) {
		err_set(e, "%s: no patch in it", mbox);
		goto out;
	}
	if (check_numbering(mbox, mails, n, cover_total, allow_gaps, e))
		goto out;
	for (i = 0; i < n; i++)
		if (add_patch(s, out, mails[i].subject, mails[i].text,
			      strlen(mails[i].text), e))
			goto out;
	rc = 0;
out:
	mails_free(mails, n);
	free_names(names, n_names);
	remove_tree(tmp);
	free(split);
	free(arg);
	return rc;
}

/* "BASE..TIP" with both ends named and no third dot. */
static bool is_range(const char *s)
{
	const char *dots = strstr(s, "..");

	return dots && dots != s && *s != '-' && dots[2] && dots[2] != '.' &&
	       !strstr(dots + 2, "..");
}

static int load_range(const char *range, const char *git_dir, const char *out,
		      struct series *s, struct err *e)
{
	char tmpl[] = "/tmp/lsmconf-range.XXXXXX", *tmp, *what;
	int rc;

	if (!is_range(range))
		return err_set(e, "%s: not a git range (want BASE..TIP)",
			       range);
	tmp = mkdtemp(tmpl);
	if (!tmp)
		return err_set(e, "mkdtemp: %s", strerror(errno));
	what = xasprintf("git format-patch %s in %s", range, git_dir);
	rc = git((char *[]){ "git", "-C", (char *)git_dir, "format-patch",
			     "--no-signature", "-o", tmp, (char *)range, NULL },
		 what, NULL, e);
	free(what);
	if (!rc) {
		rc = load_dir(tmp, out, false, s, e);
		/* load_dir's word for it names a temporary directory. */
		if (rc && !s->n && strstr(e->msg, "no patch in it"))
			err_set(e, "%s: the range is empty", range);
	}
	remove_tree(tmp);
	return rc;
}

/* @out, created, with nothing in it. */
static int empty_out(const char *out, struct err *e)
{
	char **names;
	size_t n;

	if (mkdir_p(out))
		return err_set(e, "cannot create %s: %s", out, strerror(errno));
	if (list_dir(out, "", &names, &n))
		return err_set(e, "cannot read %s: %s", out, strerror(errno));
	free_names(names, n);
	if (n)
		return err_set(e, "%s is not empty", out);
	return 0;
}

int series_load(const char *input, const char *git_dir, const char *out,
		bool allow_gaps, struct series *s, struct err *e)
{
	struct stat st;
	int rc;

	memset(s, 0, sizeof(*s));
	if (empty_out(out, e))
		return -1;
	if (!stat(input, &st) && S_ISDIR(st.st_mode))
		rc = load_dir(input, out, allow_gaps, s, e);
	else if (!stat(input, &st) && S_ISREG(st.st_mode))
		rc = load_mbox(input, out, allow_gaps, s, e);
	else if (git_dir && strstr(input, ".."))
		rc = load_range(input, git_dir, out, s, e);
	else
		rc = err_set(
			e,
			"%s: not a series (want an mbox, a directory of patches or BASE..TIP)",
			input);
	if (rc)
		series_free(s);
	return rc;
}
