// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "kernel.h"
#include "apt.h"
#include "build.h"
#include "lib/lib.h"
#include "deb.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int bzimage_check(const char *path, char *release, size_t size)
{
	unsigned char hdr[0x210];
	uint16_t ver_off;
	int fd, ret = 0;
	ssize_t n;

	/* A FIFO never blocks here: pread() refuses it. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + 0x202, "HdrS", 4)) {
		ret = -ENOEXEC;
		goto out;
	}
	/* kernel_version: offset of a NUL-terminated string, minus 0x200. */
	ver_off = hdr[0x20e] | hdr[0x20f] << 8;
	if (release && size) {
		char buf[256];

		release[0] = '\0';
		n = pread(fd, buf, sizeof(buf) - 1, ver_off + 0x200);
		if (ver_off && n > 0) {
			buf[n] = '\0';
			buf[strcspn(buf, " ")] = '\0';
			snprintf(release, size, "%s", buf);
		}
	}
out:
	close(fd);
	return ret;
}

struct pick {
	const char *dir;
	int found_image, found_config;
};

/* Keeps the kernel image and its config; everything else stays packed. */
static char *pick_kernel_files(const char *path, void *ctx)
{
	struct pick *p = ctx;

	if (!fnmatch("boot/vmlinuz-*", path, 0) ||
	    !fnmatch("usr/lib/modules/*/vmlinuz", path, FNM_PATHNAME)) {
		p->found_image++;
		return xasprintf("%s/vmlinuz", p->dir);
	}
	if (!fnmatch("boot/config-*", path, 0) ||
	    !fnmatch("usr/lib/modules/*/config", path, FNM_PATHNAME)) {
		p->found_config++;
		return xasprintf("%s/config", p->dir);
	}
	return NULL;
}

static int extract_kernel(const struct kernel *k, const char *deb,
			  const char *dir, struct err *e)
{
	struct pick p = { .dir = dir };
	char err[512];

	progress("extracting the kernel from %s", deb);
	if (deb_extract(deb, NULL, pick_kernel_files, &p, err, sizeof(err)) < 0)
		return err_set(e, "%s: %s", k->spec.text, err);
	progress_done();
	if (p.found_image != 1)
		return err_set(
			e, "%s: package %s holds %d kernel images, expected 1",
			k->spec.text, deb, p.found_image);
	return 0;
}

static int finish_identity(struct kernel *k, struct err *e)
{
	char release[256];
	int ret = bzimage_check(k->image, release, sizeof(release));

	if (ret == -ENOEXEC)
		return err_set(e, "%s: %s is not an x86 bzImage", k->spec.text,
			       k->image);
	if (ret)
		return err_set(e, "%s: cannot read %s: %s", k->spec.text,
			       k->image, strerror(-ret));
	if (!k->release)
		k->release = xstrdup(release);
	if (sha256_file(k->image, k->image_sha256))
		return err_set(e, "%s: cannot read %s", k->spec.text, k->image);
	if (k->config && sha256_file(k->config, k->config_sha256))
		return err_set(e, "%s: cannot read config %s", k->spec.text,
			       k->config);
	if (!k->source && k->package && k->version)
		k->source = xasprintf("package %s %s", k->package, k->version);
	else if (!k->source)
		k->source = xasprintf("image sha256 %s", k->image_sha256);
	return 0;
}

/* Resolves debian:SUITE or debian:VERSION to the package with the image. */
static int resolve_debian(struct kernel *k, bool refresh, struct err *e)
{
	const char *v = k->spec.value;
	char *abi = NULL, *pkg, *madison, *stanza, *dep, *binary, *pv;

	if (apt_ready(refresh, e))
		return -1;
	if (apt_is_suite(v)) {
		char *meta_ver;

		madison = apt_cache("madison", "linux-image-amd64", e);
		if (!madison)
			return -1;
		meta_ver = apt_madison_pick(madison, "linux-image-amd64", v);
		free(madison);
		if (!meta_ver)
			return err_set(e,
				       "%s: suite %s has no linux-image-amd64",
				       k->spec.text, v);
		pv = xasprintf("linux-image-amd64=%s", meta_ver);
		free(meta_ver);
		stanza = apt_cache("show", pv, e);
		if (!stanza) {
			free(pv);
			return -1;
		}
		dep = apt_stanza_field(stanza, "Depends");
		abi = dep ? apt_depends_find(dep, "linux-image-", "-amd64") :
			    NULL;
		free(dep);
		free(stanza);
		if (!abi) {
			err_set(e,
				"%s: cannot find the kernel package behind %s",
				k->spec.text, pv);
			free(pv);
			return -1;
		}
		pkg = abi;
		free(pv);
	} else if (kspec_is_version(v)) {
		pkg = xasprintf("linux-image-%s-amd64", v);
	} else {
		char list[256] = "";
		const char *const *s;

		for (s = apt_suites(); *s; s++) {
			strncat(list, " ", sizeof(list) - strlen(list) - 1);
			strncat(list, *s, sizeof(list) - strlen(list) - 1);
		}
		return err_set(e, "%s: unknown suite (known:%s)", k->spec.text,
			       list);
	}

	madison = apt_cache("madison", pkg, e);
	if (!madison) {
		free(pkg);
		return -1;
	}
	k->version = apt_madison_pick(madison, pkg, NULL);
	free(madison);
	if (!k->version) {
		err_set(e, "%s: no package %s in the archive", k->spec.text,
			pkg);
		free(pkg);
		return -1;
	}
	k->release = xstrdup(pkg + strlen("linux-image-"));

	/* Newer Debian kernels keep the image in linux-binary-*. */
	pv = xasprintf("%s=%s", pkg, k->version);
	stanza = apt_cache("show", pv, e);
	free(pv);
	if (!stanza) {
		free(pkg);
		return -1;
	}
	dep = apt_stanza_field(stanza, "Depends");
	binary = dep ? apt_depends_find(dep, "linux-binary-", "-amd64") : NULL;
	free(dep);
	free(stanza);
	if (binary) {
		free(pkg);
		pkg = binary;
	}
	k->package = pkg;
	return 0;
}

/* The image and, when the package had one, the config extracted into @dir. */
static void extracted_files(struct kernel *k, const char *dir)
{
	char *config = xasprintf("%s/config", dir);

	k->image = xasprintf("%s/vmlinuz", dir);
	if (path_exists(config))
		k->config = config;
	else
		free(config);
}

static int provision_debian(struct kernel *k, bool refresh, struct err *e)
{
	char *sub, *dir, *stamp, *debs, *deb;
	int rc = 0;

	if (resolve_debian(k, refresh, e))
		return -1;
	sub = xasprintf("kernels/%s_%s", k->package, k->version);
	dir = cache_path(sub);
	free(sub);
	stamp = xasprintf("%s/.complete", dir);
	if (!path_exists(stamp)) {
		debs = cache_path("debs");
		deb = apt_download(k->package, k->version, debs, e);
		free(debs);
		if (!deb) {
			rc = -1;
			goto out;
		}
		rc = extract_kernel(k, deb, dir, e);
		/* The extracted kernel is the cache; the package is not kept. */
		unlink(deb);
		free(deb);
		if (rc)
			goto out;
		write_file(stamp, "", 0);
	}
	extracted_files(k, dir);
out:
	free(stamp);
	free(dir);
	return rc;
}

static int provision_deb(struct kernel *k, struct err *e)
{
	char hex[65], *sub, *dir, *stamp;

	if (access(k->spec.value, R_OK))
		return err_set(e, "%s: cannot read %s: %s", k->spec.text,
			       k->spec.value, strerror(errno));
	if (sha256_file(k->spec.value, hex))
		return err_set(e, "%s: cannot read %s", k->spec.text,
			       k->spec.value);
	sub = xasprintf("kernels/deb-%.16s", hex);
	dir = cache_path(sub);
	stamp = xasprintf("%s/.complete", dir);
	if (!path_exists(stamp)) {
		if (extract_kernel(k, k->spec.value, dir, e)) {
			free(stamp);
			free(dir);
			free(sub);
			return -1;
		}
		write_file(stamp, "", 0);
	}
	k->package = deb_field(k->spec.value, "Package");
	k->version = deb_field(k->spec.value, "Version");
	extracted_files(k, dir);
	free(sub);
	free(stamp);
	free(dir);
	return 0;
}

static int provision_file(struct kernel *k, struct err *e)
{
	if (access(k->spec.value, R_OK))
		return err_set(e, "%s: cannot read %s: %s", k->spec.text,
			       k->spec.value, strerror(errno));
	k->image = xstrdup(k->spec.value);
	if (k->spec.config) {
		if (access(k->spec.config, R_OK))
			return err_set(e, "%s: cannot read config %s: %s",
				       k->spec.text, k->spec.config,
				       strerror(errno));
		k->config = xstrdup(k->spec.config);
	}
	if (k->spec.modules) {
		if (access(k->spec.modules, R_OK | X_OK))
			return err_set(
				e, "%s: cannot read modules directory %s: %s",
				k->spec.text, k->spec.modules, strerror(errno));
		k->modules = xstrdup(k->spec.modules);
	}
	return 0;
}

/* A file a spec names, regular: 0, or -1 and @e naming the spec. */
static int spec_file(const struct kspec *s, const char *what, const char *path,
		     struct err *e)
{
	struct err fe;
	int ret = input_regular(path, &fe);

	if (ret == -ENOENT || ret == -EACCES)
		return err_set(e, "%s: cannot read %s%s: %s", s->text, what,
			       path, strerror(-ret));
	if (ret)
		return err_set(e, "%s: %s%s", s->text, what, fe.msg);
	return 0;
}

/* A patch of a build: spec, read and checked as a unified diff. */
static int spec_patch(const struct kspec *s, const char *path, struct err *e)
{
	struct err fe;
	size_t len;
	char *text;
	int ret = read_input(path, INPUT_MAX_BIG, INPUT_TEXT, &text, &len, &fe);

	/* build_kernel()'s own words, should it meet the same. */
	if (ret == -ENOENT || ret == -EACCES)
		return err_set(e, "%s: cannot read patch %s: %s", s->text, path,
			       strerror(-ret));
	if (ret)
		return err_set(e, "%s: patch %s", s->text, fe.msg);
	ret = diff_check(text, len, path, &fe);
	free(text);
	if (ret < 0)
		return err_set(e, "%s: %s", s->text, fe.msg);
	return 0;
}

/* build:SOURCE+PATCH...: the source's form and every patch. */
static int check_build(const struct kspec *s, struct err *e)
{
	char *src = xstrdup(s->value), *tok, *save = NULL, *mk;
	int ret = 0;

	tok = strtok_r(src, "+", &save);
	if (!strncmp(tok, "debian-source:", 14)) {
		const char *v = tok + 14;
		size_t major = strspn(v, "0123456789");

		/* The series is asked of the archive later: its form now. */
		if (!major || v[major] != '.' || !v[major + 1] ||
		    strspn(v + major + 1, "0123456789") !=
			    strlen(v + major + 1))
			ret = err_set(
				e,
				"%s: %s is not a Debian source series (want debian-source:X.Y, e.g. debian-source:7.2)",
				s->text, tok);
	} else {
		mk = xasprintf("%s/security/apparmor/af_unix.c", tok);
		if (input_regular(mk, e))
			ret = err_set(
				e,
				"%s: %s is not a kernel tree with AppArmor (no %s)",
				s->text, tok, mk);
		free(mk);
	}
	while (!ret && (tok = strtok_r(NULL, "+", &save)))
		ret = spec_patch(s, tok, e);
	free(src);
	return ret;
}

/* The first bytes of every Debian package: an ar archive's. */
#define AR_MAGIC "!<arch>\n"

static int check_deb(const struct kspec *s, struct err *e)
{
	char head[sizeof(AR_MAGIC) - 1];
	int fd;
	ssize_t n;

	if (spec_file(s, "", s->value, e))
		return -1;
	fd = open(s->value, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	n = fd < 0 ? -1 : pread(fd, head, sizeof(head), 0);
	if (fd >= 0)
		close(fd);
	if (n != (ssize_t)sizeof(head) || memcmp(head, AR_MAGIC, sizeof(head)))
		return err_set(
			e,
			"%s: %s: corrupt or truncated package (not an ar archive, as a .deb is)",
			s->text, s->value);
	return 0;
}

static int check_file(const struct kspec *s, struct err *e)
{
	struct err fe;
	int ret;

	if (spec_file(s, "", s->value, e))
		return -1;
	ret = bzimage_check(s->value, NULL, 0);
	if (ret == -ENOEXEC)
		return err_set(e, "%s: %s is not an x86 bzImage", s->text,
			       s->value);
	if (ret)
		return err_set(e, "%s: cannot read %s: %s", s->text, s->value,
			       strerror(-ret));
	if (s->config && spec_file(s, "config ", s->config, e))
		return -1;
	if (s->modules && input_directory(s->modules, &fe))
		return err_set(e, "%s: modules directory %s", s->text, fe.msg);
	return 0;
}

int kernel_check_spec(const char *text, struct err *e)
{
	struct kspec s;
	char err[512];
	int ret = 0;

	if (kspec_parse(text, &s, err, sizeof(err)))
		return err_set(e, "%s", err);
	if (s.kind == KSPEC_FILE)
		ret = check_file(&s, e);
	else if (s.kind == KSPEC_DEB)
		ret = check_deb(&s, e);
	else if (s.kind == KSPEC_BUILD)
		ret = check_build(&s, e);
	kspec_free(&s);
	return ret;
}

int kernel_provision(const char *text, struct kernel *k, bool refresh,
		     struct err *e)
{
	double t0 = now_seconds();
	char err[512];
	int rc = 0;

	memset(k, 0, sizeof(*k));
	if (kspec_parse(text, &k->spec, err, sizeof(err)))
		return err_set(e, "%s", err);
	switch (k->spec.kind) {
	case KSPEC_DEBIAN:
		rc = provision_debian(k, refresh, e);
		break;
	case KSPEC_DEB:
		rc = provision_deb(k, e);
		break;
	case KSPEC_FILE:
		rc = provision_file(k, e);
		break;
	case KSPEC_BUILD:
		rc = build_kernel(k, e);
		break;
	}
	if (!rc)
		rc = finish_identity(k, e);
	if (rc) {
		kernel_free(k);
		memset(k, 0, sizeof(*k));
		return -1;
	}
	k->fetch_seconds = now_seconds() - t0;
	return 0;
}

void kernel_free(struct kernel *k)
{
	kspec_free(&k->spec);
	free(k->package);
	free(k->version);
	free(k->release);
	free(k->known_name);
	free(k->known_base);
	free(k->tree_version);
	free(k->image);
	free(k->config);
	free(k->modules);
	free(k->build_log);
	free(k->source);
}

char *kernel_identity(const struct kernel *k)
{
	if (k->package)
		return xasprintf("%s -> %s %s (release %s, image sha256 %.12s)",
				 k->spec.text, k->package,
				 k->version ? k->version : "?", k->release,
				 k->image_sha256);
	return xasprintf("%s -> %s (release %s, image sha256 %.12s)",
			 k->spec.text, k->image, k->release, k->image_sha256);
}
