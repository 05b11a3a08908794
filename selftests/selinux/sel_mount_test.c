// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: SELinux's mount options (issue 40): a tmpfs mounted with
 * context=, fscontext=, rootcontext=, defcontext= and seclabel, through
 * mount(2) and through the new mount API (fsopen(), fsconfig(),
 * fsmount(), move_mount()), then remounted with other options
 * (policy/lsmconf-mount.cil). Each case runs in a child with a mount
 * namespace of its own, as the harness's domain (kernel_t), which holds
 * every file and filesystem permission: only the options' rules decide.
 *
 * Decisions: "mount" or, through the new API, "fsmount" (0 or -errno,
 * the first step that fails), then, for a mount made, "options" (the
 * LSM's part of /proc/self/mountinfo's super options), "root.label" and
 * "file.label" (the mount's root and a file made in it, read back with
 * getfilecon: allow when they are the model's, EPROTO when not), and
 * "remount" (mount(2) MS_REMOUNT with the variant's remount options).
 *
 * The model (security/selinux/hooks.c, 6.1 to 7.2 alike):
 *   parse    selinux_add_opt(): seclabel is ignored; context after
 *            context or defcontext, defcontext after either, a second
 *            fscontext or rootcontext: EINVAL; a text that is no valid
 *            context: EINVAL (security_context_str_to_sid()).
 *   mount    selinux_set_mnt_opts(): defcontext only on a filesystem
 *            labelled by xattrs (tmpfs here is fs_use_trans): EINVAL.
 *   labels   the superblock is fscontext's, else the policy's fs_t; with
 *            context= every inode is the context (mountpoint labelling);
 *            the root is rootcontext's, else context's, else the
 *            transition of the mounting task to the superblock (no rule:
 *            user lsmconf_u, role object_r, the superblock's type, the
 *            task's low level s0); a file is context's, else the
 *            transition to its directory, the root.
 *   options  selinux_sb_show_options(): fscontext=, context=,
 *            rootcontext= for the options given, in that order (a
 *            context holding a comma in quotes), then seclabel unless
 *            context= was given (selinux_is_sblabel_mnt()).
 *   remount  selinux_sb_remount(): every option given must be one the
 *            mount was made with, with the same context (bad_option()),
 *            else EINVAL; no option: allowed.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <sys/mount.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"

#define CATS 4
#define MNT "/tmp/lsmconf_selmount"
#define TXT_MAX 256

#define CTX(t) "lsmconf_u:object_r:" t ":s0"
#define C_A CTX("lsmconf_mo_a_t")
#define C_B CTX("lsmconf_mo_b_t")
#define C_FS CTX("lsmconf_mo_fs_t")
#define C_ROOT CTX("lsmconf_mo_root_t")
#define C_COMMA "lsmconf_u:object_r:lsmconf_mo_a_t:s0:c0,c1"
#define C_BAD CTX("lsmconf_mo_nosuch_t")
#define C_TMPFS CTX("fs_t")

enum mo_api { OLD_API, NEW_API };

struct mo_opt {
	const char *key, *val; /* val NULL: a flag (seclabel) */
};

#define MAX_OPTS 3

FIXTURE(mount) {};

FIXTURE_VARIANT(mount)
{
	enum mo_api api;
	struct mo_opt opts[MAX_OPTS];
	bool remount; /* remount with @again after the mount */
	struct mo_opt again[MAX_OPTS];
};

/* clang-format off */
FIXTURE_VARIANT_ADD(mount, none) { OLD_API };
FIXTURE_VARIANT_ADD(mount, seclabel) { OLD_API, { { "seclabel" } } };
FIXTURE_VARIANT_ADD(mount, context) { OLD_API, { { "context", C_A } } };
FIXTURE_VARIANT_ADD(mount, fscontext) { OLD_API, { { "fscontext", C_FS } } };
FIXTURE_VARIANT_ADD(mount, rootcontext) {
	OLD_API, { { "rootcontext", C_ROOT } } };
FIXTURE_VARIANT_ADD(mount, defcontext) {
	OLD_API, { { "defcontext", C_B } } };
FIXTURE_VARIANT_ADD(mount, context_fscontext) {
	OLD_API, { { "context", C_A }, { "fscontext", C_FS } } };
FIXTURE_VARIANT_ADD(mount, context_rootcontext) {
	OLD_API, { { "context", C_A }, { "rootcontext", C_ROOT } } };
FIXTURE_VARIANT_ADD(mount, fscontext_rootcontext) {
	OLD_API, { { "fscontext", C_FS }, { "rootcontext", C_ROOT } } };
FIXTURE_VARIANT_ADD(mount, context_defcontext) {
	OLD_API, { { "context", C_A }, { "defcontext", C_B } } };
FIXTURE_VARIANT_ADD(mount, context_twice) {
	OLD_API, { { "context", C_A }, { "context", C_A } } };
FIXTURE_VARIANT_ADD(mount, fscontext_twice) {
	OLD_API, { { "fscontext", C_FS }, { "fscontext", C_B } } };
FIXTURE_VARIANT_ADD(mount, rootcontext_twice) {
	OLD_API, { { "rootcontext", C_ROOT }, { "rootcontext", C_ROOT } } };
FIXTURE_VARIANT_ADD(mount, context_invalid) {
	OLD_API, { { "context", C_BAD } } };
FIXTURE_VARIANT_ADD(mount, remount_same) {
	OLD_API, { { "context", C_A } }, true, { { "context", C_A } } };
FIXTURE_VARIANT_ADD(mount, remount_other) {
	OLD_API, { { "context", C_A } }, true, { { "context", C_B } } };
FIXTURE_VARIANT_ADD(mount, remount_none) {
	OLD_API, { { "context", C_A } }, true };
FIXTURE_VARIANT_ADD(mount, remount_new_option) {
	OLD_API, { { "context", C_A } }, true, { { "fscontext", C_FS } } };
FIXTURE_VARIANT_ADD(mount, remount_rootcontext_unset) {
	OLD_API, { { "context", C_A } }, true, { { "rootcontext", C_A } } };
FIXTURE_VARIANT_ADD(mount, remount_plain_given_one) {
	OLD_API, { }, true, { { "fscontext", C_TMPFS } } };
FIXTURE_VARIANT_ADD(mount, fsconfig_context) {
	NEW_API, { { "context", C_A } } };
FIXTURE_VARIANT_ADD(mount, fsconfig_context_comma) {
	NEW_API, { { "context", C_COMMA } } };
FIXTURE_VARIANT_ADD(mount, fsconfig_fscontext_rootcontext) {
	NEW_API, { { "fscontext", C_FS }, { "rootcontext", C_COMMA } } };
FIXTURE_VARIANT_ADD(mount, fsconfig_seclabel) {
	NEW_API, { { "seclabel" } } };
FIXTURE_VARIANT_ADD(mount, fsconfig_context_twice) {
	NEW_API, { { "context", C_A }, { "context", C_B } } };
FIXTURE_VARIANT_ADD(mount, fsconfig_defcontext) {
	NEW_API, { { "defcontext", C_B } } };
/* clang-format on */

/* The model's reading of a list of options. */
struct mo_model {
	const char *fs, *ctx, *root, *def;
	int parse; /* selinux_add_opt(): 0 or -EINVAL */
};

static bool is_valid(const char *val)
{
	return strcmp(val, C_BAD);
}

static void model_parse(const struct mo_opt *opts, struct mo_model *m)
{
	int i;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < MAX_OPTS && opts[i].key && !m->parse; i++) {
		const char *k = opts[i].key, **dst;

		if (!strcmp(k, "seclabel"))
			continue;
		if (!strcmp(k, "context"))
			dst = m->ctx || m->def ? NULL : &m->ctx;
		else if (!strcmp(k, "defcontext"))
			dst = m->ctx || m->def ? NULL : &m->def;
		else if (!strcmp(k, "fscontext"))
			dst = m->fs ? NULL : &m->fs;
		else
			dst = m->root ? NULL : &m->root;
		if (!dst || !is_valid(opts[i].val))
			m->parse = -EINVAL;
		else
			*dst = opts[i].val;
	}
}

/* The mount's outcome: parse, then defcontext on an fs_use_trans tmpfs. */
static int model_mount(const struct mo_model *m)
{
	if (m->parse)
		return m->parse;
	return m->def ? -EINVAL : 0;
}

/* "lsmconf_u:object_r:TYPE:s0", TYPE of context @ctx. */
static void trans_of(const char *ctx, char *out, size_t size)
{
	const char *t = strchr(strchr(ctx, ':') + 1, ':') + 1;
	size_t n = strcspn(t, ":");

	snprintf(out, size, "lsmconf_u:object_r:%.*s:s0", (int)n, t);
}

static void model_labels(const struct mo_model *m, char *root, char *file,
			 size_t size)
{
	if (m->root)
		snprintf(root, size, "%s", m->root);
	else if (m->ctx)
		snprintf(root, size, "%s", m->ctx);
	else
		trans_of(m->fs ? m->fs : C_TMPFS, root, size);
	if (m->ctx)
		snprintf(file, size, "%s", m->ctx);
	else
		trans_of(root, file, size);
}

static void put_opt(char *out, size_t size, const char *key, const char *val)
{
	size_t n = strlen(out);

	snprintf(out + n, size - n, "%s%s%s%s%s%s", n ? "," : "", key,
		 val ? "=" : "", val && strchr(val, ',') ? "\"" : "",
		 val ? val : "", val && strchr(val, ',') ? "\"" : "");
}

static void model_options(const struct mo_model *m, char *out, size_t size)
{
	out[0] = '\0';
	if (m->fs)
		put_opt(out, size, "fscontext", m->fs);
	if (m->ctx)
		put_opt(out, size, "context", m->ctx);
	if (m->root)
		put_opt(out, size, "rootcontext", m->root);
	if (!m->ctx)
		put_opt(out, size, "seclabel", NULL);
}

/* bad_option() for each option of @again on a mount made with @made. */
static int model_remount(const struct mo_model *made,
			 const struct mo_opt *again)
{
	struct mo_model r;

	model_parse(again, &r);
	if (r.parse)
		return r.parse;
	if ((r.fs && (!made->fs || strcmp(r.fs, made->fs))) ||
	    (r.ctx && (!made->ctx || strcmp(r.ctx, made->ctx))) ||
	    (r.root && (!made->root || strcmp(r.root, made->root))) ||
	    (r.def && (!made->def || strcmp(r.def, made->def))))
		return -EINVAL;
	return 0;
}

/* @opts as mount(2)'s data: "key=val,key". */
static void opts_text(const struct mo_opt *opts, char *out, size_t size)
{
	int i;

	out[0] = '\0';
	for (i = 0; i < MAX_OPTS && opts[i].key; i++) {
		size_t n = strlen(out);

		snprintf(out + n, size - n, "%s%s%s%s", n ? "," : "",
			 opts[i].key, opts[i].val ? "=" : "",
			 opts[i].val ? opts[i].val : "");
	}
}

struct mo_report {
	int setup, mount, root, file, remount;
	char options[TXT_MAX * 3];
	char root_label[TXT_MAX], file_label[TXT_MAX];
};

static int mount_new_api(const struct mo_opt *opts)
{
	int fs, mnt, i, ret = 0;

	fs = fsopen("tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return -errno;
	for (i = 0; i < MAX_OPTS && opts[i].key && !ret; i++)
		if (fsconfig(fs,
			     opts[i].val ? FSCONFIG_SET_STRING :
					   FSCONFIG_SET_FLAG,
			     opts[i].key, opts[i].val, 0))
			ret = -errno;
	if (!ret && fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0))
		ret = -errno;
	if (!ret) {
		mnt = fsmount(fs, FSMOUNT_CLOEXEC, 0);
		if (mnt < 0) {
			ret = -errno;
		} else {
			if (move_mount(mnt, "", AT_FDCWD, MNT,
				       MOVE_MOUNT_F_EMPTY_PATH))
				ret = -errno;
			close(mnt);
		}
	}
	close(fs);
	return ret;
}

/*
 * The LSM's options of MNT's line in /proc/self/mountinfo: the super
 * options' fscontext=, context=, rootcontext= and seclabel, in order.
 */
static int lsm_options(char *out, size_t size)
{
	static const char *const keys[] = { "fscontext=", "context=",
					    "defcontext=", "rootcontext=",
					    "seclabel" };
	char line[4096], *p, *tok;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int ret = -ENOENT;

	out[0] = '\0';
	if (!f)
		return -errno;
	while (ret && fgets(line, sizeof(line), f)) {
		char *field[5];
		size_t i, n = 0;

		if (!strstr(line, " " MNT " "))
			continue;
		p = strstr(line, " - ");
		if (!p)
			continue;
		p += 3;
		/* fstype, source, super options */
		for (tok = strtok(p, "\n "); tok && n < 5;
		     tok = strtok(NULL, "\n "))
			field[n++] = tok;
		if (n < 3)
			continue;
		ret = 0;
		/* Split on commas outside quotes. */
		for (p = field[2]; *p;) {
			char *end = p;
			bool quoted = false;

			while (*end && (quoted || *end != ',')) {
				if (*end == '"')
					quoted = !quoted;
				end++;
			}
			for (i = 0; i < ARRAY_SIZE(keys); i++) {
				if (strncmp(p, keys[i], strlen(keys[i])))
					continue;
				n = strlen(out);
				snprintf(out + n, size - n, "%s%.*s",
					 n ? "," : "", (int)(end - p), p);
			}
			p = *end ? end + 1 : end;
		}
	}
	fclose(f);
	return ret;
}

static int label_of(const char *path, char *out, size_t size)
{
	char *con = NULL;

	out[0] = '\0';
	if (getfilecon_raw(path, &con) < 0)
		return -errno;
	snprintf(out, size, "%s", con);
	freecon(con);
	return 0;
}

static void mount_child(void *arg, void *reply)
{
	const FIXTURE_VARIANT(mount) *v = arg;
	struct mo_report *r = reply;
	char data[TXT_MAX * 3];
	int fd;

	r->mount = r->remount = r->root = r->file = NOT_RUN;
	if (unshare(CLONE_NEWNS) ||
	    mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		r->setup = -errno;
		return;
	}
	opts_text(v->opts, data, sizeof(data));
	if (v->api == NEW_API)
		r->mount = mount_new_api(v->opts);
	else
		r->mount = mount("tmpfs", MNT, "tmpfs", 0, data) ? -errno : 0;
	if (r->mount)
		return;
	lsm_options(r->options, sizeof(r->options));
	r->root = label_of(MNT, r->root_label, sizeof(r->root_label));
	fd = open(MNT "/f", O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		r->file = -errno;
	} else {
		close(fd);
		r->file = label_of(MNT "/f", r->file_label,
				   sizeof(r->file_label));
	}
	if (!v->remount)
		return;
	opts_text(v->again, data, sizeof(data));
	r->remount =
		mount("tmpfs", MNT, "tmpfs", MS_REMOUNT, data) ? -errno : 0;
}

FIXTURE_SETUP(mount)
{
	SEL_SETUP(CATS);
	if (mkdir(MNT, 0700) && errno != EEXIST)
		ASSERT_EQ(0, -errno);
}

FIXTURE_TEARDOWN(mount)
{
	rmdir(MNT);
}

/* A label read back against the model's: allow or EPROTO. */
static void judge_text(struct __test_metadata *_metadata, struct record *rec,
		       const char *op, int read, const char *got,
		       const char *want)
{
	rec->op = op;
	rec->detail = want;
	rec->expected = 0;
	rec->observed = read ? read : strcmp(got, want) ? -EPROTO : 0;
	if (rec->observed)
		TH_LOG("%s: \"%s\", the model \"%s\"", op, got, want);
	JUDGE(rec);
}

TEST_F(mount, tmpfs)
{
	char data[TXT_MAX * 3], root[TXT_MAX], file[TXT_MAX];
	char options[TXT_MAX * 3];
	struct mo_model m;
	struct mo_report r;
	struct record rec = {
		.abi = "cil",
		.subject = "kernel_t",
		.object = "tmpfs",
		.class = "filesystem",
		.detail = data,
		.depends = variant->api == NEW_API ? "fsconfig" : "mount(2)",
	};

	model_parse(variant->opts, &m);
	opts_text(variant->opts, data, sizeof(data));
	ASSERT_EQ(0, child_run(mount_child, (void *)variant, &r, sizeof(r)));
	ASSERT_EQ(0, r.setup);
	rec.op = variant->api == NEW_API ? "fsmount" : "mount";
	rec.expected = model_mount(&m);
	rec.observed = r.mount;
	JUDGE(&rec);
	if (rec.expected || r.mount)
		return;
	model_options(&m, options, sizeof(options));
	model_labels(&m, root, file, sizeof(root));
	judge_text(_metadata, &rec, "options", 0, r.options, options);
	judge_text(_metadata, &rec, "root.label", r.root, r.root_label, root);
	judge_text(_metadata, &rec, "file.label", r.file, r.file_label, file);
	if (!variant->remount)
		return;
	opts_text(variant->again, data, sizeof(data));
	rec.op = "remount";
	rec.detail = data;
	rec.expected = model_remount(&m, variant->again);
	rec.observed = r.remount;
	JUDGE(&rec);
}

LSM_HARNESS_MAIN
