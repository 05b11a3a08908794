// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: what apparmorfs shows of the reader's own label and of the
 * policy it loaded (issue 40).
 *
 * self: .stacked, .ns_stacked, .ns_level and .ns_name, read by a child in
 * a label: unconfined, one profile, a stack of two, a profile of a policy
 * namespace, a stack across namespaces, a profile with no rule for them.
 * The model (apparmorfs.c, seq_ns_*_show(); label.h): the files are
 * opened through apparmor_file_open, so every profile of the label needs
 * a read rule (else -EACCES). .stacked is "yes" when the label holds more
 * than one profile; the label's namespace is its last profile's
 * (labels_ns(): vec_last(), the vector sorted by namespace level then
 * name: the deepest); .ns_stacked is "yes" when a profile of the label
 * is of another namespace; .ns_level and .ns_name are that namespace's
 * level (root 0, its children 1) and name ("root").
 *
 * rawdata: a profile loaded with the policy's export_binary and
 * hash_policy set per case (both restored), read back as root, as nobody
 * and as nobody in group root. The model (apparmorfs.c, policy.c,
 * policy_unpack.c):
 *
 *   exported  with export_binary, the profile's directory links raw_data,
 *             raw_abi (and the raw hash with hash_policy) to
 *             policy/raw_data/R/, R the namespace's revision before the
 *             load (__aa_fs_create_rawdata()); without, no link (-ENOENT).
 *   raw_data  rawdata_open(): aa_current_policy_view_capable(): euid 0
 *             or egid 0 in the initial user namespace, else -EACCES; it
 *             reads the very blob loaded, whatever the compression.
 *   abi       "v" and the blob's header version & 0x3ff (aa_unpack()).
 *   revision  of the raw data: R + 1, the revision the load made
 *             (__aa_bump_ns_revision(), __aa_loaddata_update()).
 *   hash      the profile's and the raw data's, with hash_policy: a
 *             file named after the kernel's algorithm (sha256, raw_sha256;
 *             sha1, raw_sha1 before AppArmor moved to SHA-256, as 6.1)
 *             holding its digest in hex; without, neither (-ENOENT).
 *   compressed_size  the blob's size when rawdata_compression_level is
 *             0 (compress_loaddata() keeps it), smaller when not (a blob
 *             zstd cannot shrink fails to load).
 *
 * The namespace's revision file (ns_revision_read(), _poll()): a fresh
 * open reads the revision at once; read again, without news, -EAGAIN
 * (O_NONBLOCK) and poll() reports nothing; a removal bumps the revision,
 * poll() reports POLLIN and the read gives the next number.
 */

#define _GNU_SOURCE
#include <dirent.h>
#include <endian.h>

#include "../kselftest_harness.h"
#include "harness_main.h"
#include "../lsmconf/judge.h"

#define ABI "5.0"
#define AAFS_NS "lsmconf_t_aafsns"
#define PARAMS "/sys/module/apparmor/parameters/"

/* The files about the reader's own label. */
static const char *const label_files[] = { ".stacked", ".ns_stacked",
					   ".ns_level", ".ns_name" };
#define NSELF ARRAY_SIZE(label_files)

/* The readers of profiles/aafs.profile and aafs_ns.profile. */
enum prof { P_READ, P_READ_B, P_NORULE, P_NS, NPROF };

static const struct {
	const char *name; /* as aa_change_profile() takes it */
	bool ns; /* in AAFS_NS, else the root namespace */
	bool rule; /* may read the files */
} profs[NPROF] = {
	[P_READ] = { AA_TEST_PREFIX "aafs", false, true },
	[P_READ_B] = { AA_TEST_PREFIX "aafs_b", false, true },
	[P_NORULE] = { AA_TEST_PREFIX "aafs_norule", false, false },
	[P_NS] = { ":" AAFS_NS ":" AA_TEST_PREFIX "aafs_ns", true, true },
};

FIXTURE(own)
{
	bool ns_loaded;
};

FIXTURE_VARIANT(own)
{
	int n; /* profiles in the label: 0 is unconfined */
	enum prof p[2];
};

/* clang-format off */
/* no, no, 0, root */
FIXTURE_VARIANT_ADD(own, unconfined) { .n = 0 };
/* no, no, 0, root */
FIXTURE_VARIANT_ADD(own, one) { .n = 1, .p = { P_READ } };
/* every file -EACCES: no rule */
FIXTURE_VARIANT_ADD(own, norule) { .n = 1, .p = { P_NORULE } };
/* yes, no, 0, root */
FIXTURE_VARIANT_ADD(own, stack) { .n = 2, .p = { P_READ, P_READ_B } };
/* no, no, 1, AAFS_NS */
FIXTURE_VARIANT_ADD(own, ns) { .n = 1, .p = { P_NS } };
/* yes, yes, 1, AAFS_NS: the deepest namespace is the label's */
FIXTURE_VARIANT_ADD(own, ns_stack) { .n = 2, .p = { P_READ, P_NS } };
/* clang-format on */

/* The model's text of label_files[@f] for the variant's label. */
static void self_model(const FIXTURE_VARIANT(own) * v, size_t f, char *out,
		       size_t size)
{
	bool in_ns = false, mixed = false;
	int i;

	for (i = 0; i < v->n; i++)
		in_ns |= profs[v->p[i]].ns;
	for (i = 0; i < v->n; i++)
		mixed |= profs[v->p[i]].ns != in_ns;
	switch (f) {
	case 0:
		snprintf(out, size, "%s\n", v->n > 1 ? "yes" : "no");
		break;
	case 1:
		snprintf(out, size, "%s\n", mixed ? "yes" : "no");
		break;
	case 2:
		snprintf(out, size, "%d\n", in_ns ? 1 : 0);
		break;
	default:
		snprintf(out, size, "%s\n", in_ns ? AAFS_NS : "root");
	}
}

static int self_expect(const FIXTURE_VARIANT(own) * v)
{
	int i;

	for (i = 0; i < v->n; i++)
		if (!profs[v->p[i]].rule)
			return -EACCES;
	return 0;
}

struct self_report {
	int enter;
	int result[NSELF];
	char text[NSELF][64];
};

/* The child (child_run()): the label, then each file read. */
static void self_child(void *arg, void *reply)
{
	const FIXTURE_VARIANT(own) *v = arg;
	struct self_report *r = reply;
	char path[128];
	size_t f;
	int i;

	for (f = 0; f < NSELF; f++)
		r->result[f] = NOT_RUN;
	for (i = 0; i < v->n && !r->enter; i++)
		r->enter = (i ? aa_stack_profile(profs[v->p[i]].name) :
				aa_change_profile(profs[v->p[i]].name)) ?
				   -errno :
				   0;
	if (r->enter)
		return;
	for (f = 0; f < NSELF; f++) {
		ssize_t n;

		snprintf(path, sizeof(path), AA_FS "/%s", label_files[f]);
		n = read_text(path, r->text[f], sizeof(r->text[f]));
		r->result[f] = n < 0 ? n : 0;
	}
}

/* Removes AAFS_NS and its profile: 0 or -errno. */
static int ns_remove(void)
{
	return aa_profile_remove(":" AAFS_NS ":");
}

FIXTURE_SETUP(own)
{
	struct aa_policy p;
	int i, ret;

	self->ns_loaded = false;
	REQUIRE_APPARMOR(_metadata, true);
	if (access(AA_FS "/.ns_name", R_OK))
		SKIP(return, "no " AA_FS "/.ns_name on this kernel");
	for (i = 0; i < variant->n; i++) {
		if (profs[variant->p[i]].ns) {
			ret = aa_policy_build_as(&p, "aafs_ns", ABI, NULL,
						 "aafs_ns", NULL);
			AA_REQUIRE_BUILT(_metadata, ret);
			ASSERT_EQ(0, ret);
			ASSERT_EQ(0, aa_policy_load(&p));
			self->ns_loaded = true;
			continue;
		}
		ret = aa_policy_share(_metadata, &p, "aafs", ABI, NULL, "aafs",
				      NULL);
		AA_REQUIRE_BUILT(_metadata, ret);
		ASSERT_EQ(0, ret);
	}
}

FIXTURE_TEARDOWN(own)
{
	if (self->ns_loaded)
		EXPECT_EQ(0, ns_remove());
}

TEST_F_TIMEOUT(own, reads, 60)
{
	struct record rec = {
		.abi = ABI,
		.subject =
			variant->n ? profs[variant->p[0]].name : "unconfined",
		.class = "apparmorfs",
		.detail = variant->n == 2 ? profs[variant->p[1]].name : "-",
		.depends = "-",
	};
	struct self_report r;
	char want[64], op[64];
	size_t f;

	ASSERT_EQ(0, child_run(self_child, (void *)variant, &r, sizeof(r)));
	ASSERT_EQ(0, r.enter)
	{
		TH_LOG("entering the label: %s", strerror(-r.enter));
	}
	for (f = 0; f < NSELF; f++) {
		rec.object = label_files[f];
		snprintf(op, sizeof(op), "read%s", label_files[f]);
		rec.op = op;
		rec.expected = self_expect(variant);
		rec.observed = r.result[f];
		JUDGE(&rec);
		if (rec.expected || r.result[f])
			continue;
		/* What it read, against the model: allow or -EPROTO. */
		self_model(variant, f, want, sizeof(want));
		snprintf(op, sizeof(op), "text%s", label_files[f]);
		rec.expected = 0;
		rec.observed = strcmp(want, r.text[f]) ? -EPROTO : 0;
		if (rec.observed)
			TH_LOG("%s: read \"%s\", the model \"%s\"",
			       label_files[f], r.text[f], want);
		JUDGE(&rec);
	}
}

/* The policy settings a raw data case loads under. */
FIXTURE(rawdata)
{
	char export[8], hash[8]; /* as read at setup, restored after */
	int level; /* rawdata_compression_level */
	bool loaded;
	struct aa_policy p;
	struct aa_blob blob;
	long before; /* the namespace's revision before the load */
};

FIXTURE_VARIANT(rawdata)
{
	const char *tag; /* the profile's: a blob of its own a case */
	const char *id; /* the reader, for the record */
	uid_t euid;
	gid_t egid;
	bool export; /* export_binary at the load */
	bool hash; /* hash_policy at the load */
	bool revision; /* also the revision file's steps (root only) */
};

/* clang-format off */
/* every file; the revision file's steps */
FIXTURE_VARIANT_ADD(rawdata, exported) {
	.tag = "aafs_raw_exported", .id = "root",
	.export = true, .hash = true, .revision = true };
/* raw_data -EACCES (view), the rest allowed */
FIXTURE_VARIANT_ADD(rawdata, exported_nobody) {
	.tag = "aafs_raw_exported_nobody", .id = "nobody",
	.euid = NOBODY, .egid = NOBODY, .export = true, .hash = true };
/* group root views: every file */
FIXTURE_VARIANT_ADD(rawdata, exported_root_group) {
	.tag = "aafs_raw_exported_root_group", .id = "nobody:root",
	.euid = NOBODY, .export = true, .hash = true };
/* no hash file, no raw hash link */
FIXTURE_VARIANT_ADD(rawdata, not_hashed) {
	.tag = "aafs_raw_not_hashed", .id = "root",
	.export = true, .hash = false };
/* no raw data links at all */
FIXTURE_VARIANT_ADD(rawdata, not_exported) {
	.tag = "aafs_raw_not_exported", .id = "root",
	.export = false, .hash = true };
/* clang-format on */

/* The reads of a raw data case, in the profile's directory. */
enum raw_file {
	R_DATA, /* raw_data, against the blob */
	R_ABI, /* raw_abi */
	R_SHA, /* raw_sha256 or raw_sha1 */
	R_PROF_SHA, /* sha256 or sha1 (the profile's own hash) */
	R_REVISION, /* raw_data/../revision */
	R_SIZE, /* raw_data/../compressed_size */
	NRAW
};
static const char *const raw_names[NRAW] = {
	"raw_data", "raw_abi",		 "raw_hash",
	"hash",	    "raw_data/revision", "raw_data/compressed_size",
};

struct raw_case {
	const FIXTURE_VARIANT(rawdata) * v;
	const char *dir; /* the profile's directory */
	const char *blob;
	size_t len;
};

struct raw_report {
	int setup;
	int digits; /* of the hash files found: 64 (SHA-256), 40 (SHA-1) */
	int result[NRAW];
	char text[NRAW][80];
};

/* "v" and the blob's header version (aa_unpack(): e.version & 0x3ff). */
static int blob_abi(const char *blob, size_t len, char *out, size_t size)
{
	static const char tag[] = "version";
	const char *p = memmem(blob, len, tag, sizeof(tag));
	uint32_t v;

	/* The name, then AA_U32 (2) and the little-endian number. */
	if (!p || p + sizeof(tag) + 5 > blob + len || p[sizeof(tag)] != 2)
		return -EINVAL;
	memcpy(&v, p + sizeof(tag) + 1, sizeof(v));
	snprintf(out, size, "v%u\n", le32toh(v) & 0x3ff);
	return 0;
}

/* Reads raw_data whole and compares it with the blob: 0, -EPROTO, -errno. */
static int raw_compare(const char *path, const char *blob, size_t len)
{
	char *buf = malloc(len + 1);
	size_t got = 0;
	ssize_t n = 0;
	int fd;

	if (!buf)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		free(buf);
		return -errno;
	}
	while (got <= len && (n = read(fd, buf + got, len + 1 - got)) > 0)
		got += n;
	n = n < 0 ? -errno : 0;
	close(fd);
	if (!n)
		n = got != len || memcmp(buf, blob, len) ? -EPROTO : 0;
	free(buf);
	return n;
}

/*
 * The directory of the raw data raw_data points at, from the link's text
 * ("../../raw_data/R/raw_data"): 0 with R in @name, or -errno.
 */
static int raw_dir_name(const char *dir, char *name, size_t size)
{
	char path[PATH_MAX], link[PATH_MAX], *slash;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/raw_data", dir);
	n = readlink(path, link, sizeof(link) - 1);
	if (n < 0)
		return -errno;
	link[n] = '\0';
	slash = strrchr(link, '/');
	if (!slash)
		return -EINVAL;
	*slash = '\0';
	slash = strrchr(link, '/');
	snprintf(name, size, "%.63s", slash ? slash + 1 : link);
	return 0;
}

/*
 * The hash file of the profile's directory @dir (@raw: of its raw data),
 * SHA-256's or SHA-1's: 0 with its text and @digits, or -errno.
 */
static int hash_read(const char *dir, bool raw, char *text, size_t size,
		     int *digits)
{
	static const struct {
		const char *name;
		int digits;
	} algs[] = { { "sha256", 64 }, { "sha1", 40 } };
	char path[PATH_MAX];
	ssize_t n = -ENOENT;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(algs) && n == -ENOENT; i++) {
		snprintf(path, sizeof(path), "%s/%s%s", dir, raw ? "raw_" : "",
			 algs[i].name);
		n = read_text(path, text, size);
		if (n >= 0)
			*digits = algs[i].digits;
	}
	return n < 0 ? n : 0;
}

/* The child (child_run()): the reader's identity, then each read. */
static void raw_child(void *arg, void *reply)
{
	const struct raw_case *k = arg;
	struct raw_report *r = reply;
	char path[PATH_MAX], rdir[256], name[64];
	int f;

	for (f = 0; f < NRAW; f++)
		r->result[f] = NOT_RUN;
	r->setup = become_user(k->v->euid, k->v->egid);
	if (r->setup)
		return;
	/* The raw data's own directory, through the link's text. */
	if (raw_dir_name(k->dir, name, sizeof(name)))
		snprintf(rdir, sizeof(rdir), "%s/raw_data/nosuch", AA_FS);
	else
		snprintf(rdir, sizeof(rdir), AA_FS "/policy/raw_data/%s", name);
	for (f = 0; f < NRAW; f++) {
		ssize_t n;

		if (f == R_REVISION || f == R_SIZE)
			snprintf(path, sizeof(path), "%s/%s", rdir,
				 strchr(raw_names[f], '/') + 1);
		else
			snprintf(path, sizeof(path), "%s/%s", k->dir,
				 raw_names[f]);
		if (f == R_DATA) {
			r->result[f] = raw_compare(path, k->blob, k->len);
			continue;
		}
		if (f == R_SHA || f == R_PROF_SHA) {
			r->result[f] =
				hash_read(k->dir, f == R_SHA, r->text[f],
					  sizeof(r->text[f]), &r->digits);
			continue;
		}
		n = read_text(path, r->text[f], sizeof(r->text[f]));
		r->result[f] = n < 0 ? n : 0;
	}
}

/* The outcome of reading raw file @f, by the model. */
static int raw_expect(const FIXTURE_VARIANT(rawdata) * v, enum raw_file f)
{
	bool view = v->euid == 0 || v->egid == 0;

	if (f == R_PROF_SHA)
		return v->hash ? 0 : -ENOENT;
	if (!v->export || (f == R_SHA && !v->hash))
		return -ENOENT;
	if (f == R_DATA && !view)
		return -EACCES;
	return 0;
}

/* The text of raw file @f by the model; 0, or 1 when it is checked apart. */
static int raw_model(FIXTURE_DATA(rawdata) * self, enum raw_file f, char *out,
		     size_t size)
{
	switch (f) {
	case R_ABI:
		return blob_abi(self->blob.data, self->blob.len, out, size);
	case R_REVISION:
		snprintf(out, size, "%ld\n", self->before + 1);
		return 0;
	default:
		return 1;
	}
}

/* Whether @text is @digits lowercase hex digits and a newline. */
static bool is_digest(const char *text, int digits)
{
	return digits && strspn(text, "0123456789abcdef") == (size_t)digits &&
	       !strcmp(text + digits, "\n");
}

/* compressed_size against the blob's size and the compression level. */
static bool size_fits(FIXTURE_DATA(rawdata) * self, const char *text)
{
	unsigned long long n = strtoull(text, NULL, 10);

	return self->level ? n < self->blob.len : n == self->blob.len;
}

/*
 * The namespace's revision, by one read of a fresh open: the file never
 * ends (a second read waits for the next revision), and a fresh open
 * waits too while the revision is still 0, the one it starts from
 * (nonblocking: -EAGAIN, so 0).
 */
static long read_revision(void)
{
	int fd = open(AA_FS "/revision", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	char text[32];
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, text, sizeof(text) - 1);
	if (n < 0)
		n = errno == EAGAIN ? 0 : -errno;
	close(fd);
	if (n <= 0)
		return n;
	text[n] = '\0';
	return strtol(text, NULL, 10);
}

/* Sets parameter @name to @value ("Y", "N"): 0 or -errno. */
static int param_set(const char *name, const char *value)
{
	char path[128];

	snprintf(path, sizeof(path), PARAMS "%s", name);
	return write_text(path, value);
}

FIXTURE_SETUP(rawdata)
{
	char text[16];
	int ret;

	self->loaded = false;
	self->blob.data = NULL;
	self->export[0] = self->hash[0] = '\0';
	REQUIRE_APPARMOR(_metadata, true);
	if (read_text(PARAMS "export_binary", self->export,
		      sizeof(self->export)) < 0)
		SKIP(return,
			   "no export_binary parameter (CONFIG_SECURITY_APPARMOR_EXPORT_BINARY)");
	ASSERT_LE(0, read_text(PARAMS "hash_policy", self->hash,
			       sizeof(self->hash)));
	ASSERT_LE(0, read_text(PARAMS "rawdata_compression_level", text,
			       sizeof(text)));
	self->level = atoi(text);
	if (read_text(PARAMS "lock_policy", text, sizeof(text)) > 0 &&
	    text[0] == 'Y')
		SKIP(return, "lock_policy is set: the settings cannot change");
	ret = aa_policy_build_as(&self->p, "aafs_raw", ABI, NULL, variant->tag,
				 NULL);
	AA_REQUIRE_BUILT(_metadata, ret);
	ASSERT_EQ(0, ret);
	ASSERT_EQ(0, aa_blob_read(self->p.blob, &self->blob));
	ASSERT_EQ(0, param_set("export_binary", variant->export ? "Y" : "N"));
	ASSERT_EQ(0, param_set("hash_policy", variant->hash ? "Y" : "N"));
	/* A blob loaded before holds its raw data: none of ours may be. */
	aa_profile_remove(self->p.name);
	self->before = read_revision();
	ASSERT_LE(0, self->before);
	ASSERT_EQ(0, aa_policy_load(&self->p));
	self->loaded = true;
}

FIXTURE_TEARDOWN(rawdata)
{
	if (self->loaded)
		EXPECT_EQ(0, aa_policy_destroy(&self->p));
	if (self->export[0])
		EXPECT_EQ(0, param_set("export_binary", self->export));
	if (self->hash[0])
		EXPECT_EQ(0, param_set("hash_policy", self->hash));
	free(self->blob.data);
}

/*
 * The revision file's steps after the load (ns_revision_read(), _poll()):
 * each step's outcome as a record of its own.
 */
static void revision_steps(struct __test_metadata *_metadata,
			   FIXTURE_DATA(rawdata) * self, struct record *rec)
{
	struct pollfd pfd = { .events = POLLIN };
	char text[32], want[32];
	ssize_t n;

	pfd.fd = open(AA_FS "/revision", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	ASSERT_LE(0, pfd.fd);
	rec->object = "revision";
	/* A fresh open reads the load's revision at once. */
	n = read(pfd.fd, text, sizeof(text) - 1);
	text[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "%ld\n", self->before + 1);
	rec->op = "revision.first_read";
	rec->expected = 0;
	rec->observed = n < 0 ? -errno : strcmp(text, want) ? -EPROTO : 0;
	JUDGE(rec);
	/* Nothing new: -EAGAIN, and poll() reports nothing. */
	rec->op = "revision.again";
	rec->expected = -EAGAIN;
	rec->observed = read(pfd.fd, text, sizeof(text)) < 0 ? -errno : 0;
	JUDGE(rec);
	rec->op = "revision.poll_quiet";
	rec->expected = -ETIMEDOUT;
	n = poll(&pfd, 1, 0);
	rec->observed = n < 0 ? -errno : n ? 0 : -ETIMEDOUT;
	JUDGE(rec);
	/* The removal bumps it. */
	ASSERT_EQ(0, aa_policy_destroy(&self->p));
	self->loaded = false;
	rec->op = "revision.poll_news";
	rec->expected = 0;
	n = poll(&pfd, 1, PEER_WAIT_MS);
	rec->observed = n < 0		      ? -errno :
			!n		      ? -ETIMEDOUT :
			pfd.revents != POLLIN ? -EPROTO :
						0;
	JUDGE(rec);
	n = read(pfd.fd, text, sizeof(text) - 1);
	text[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "%ld\n", self->before + 2);
	rec->op = "revision.next_read";
	rec->observed = n < 0 ? -errno : strcmp(text, want) ? -EPROTO : 0;
	JUDGE(rec);
	close(pfd.fd);
}

TEST_F_TIMEOUT(rawdata, files, 60)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->id,
		.class = "apparmorfs",
		.detail = "-",
	};
	char dir[PATH_MAX], depends[96], op[64], want[80];
	struct raw_case k = { variant, dir, self->blob.data, self->blob.len };
	struct raw_report r;
	int f;

	snprintf(depends, sizeof(depends),
		 "export_binary=%c,hash_policy=%c,compression=%s",
		 variant->export ? 'Y' : 'N', variant->hash ? 'Y' : 'N',
		 self->level ? "zstd" : "none");
	rec.depends = depends;
	ASSERT_EQ(0, aa_profile_dir(AA_FS "/policy/profiles", self->p.name, dir,
				    sizeof(dir)));
	ASSERT_EQ(0, child_run(raw_child, &k, &r, sizeof(r)));
	ASSERT_EQ(0, r.setup)
	{
		TH_LOG("taking the identity: %s", strerror(-r.setup));
	}
	for (f = 0; f < NRAW; f++) {
		int check;

		rec.object = raw_names[f];
		snprintf(op, sizeof(op), "read.%s", raw_names[f]);
		rec.op = op;
		rec.expected = raw_expect(variant, f);
		rec.observed = r.result[f];
		JUDGE(&rec);
		if (rec.expected || r.result[f] || f == R_DATA)
			continue;
		/* What it read, against the model: allow or -EPROTO. */
		check = raw_model(self, f, want, sizeof(want));
		snprintf(op, sizeof(op), "text.%s", raw_names[f]);
		rec.expected = 0;
		if (check < 0)
			rec.observed = check;
		else if (check == 0)
			rec.observed = strcmp(want, r.text[f]) ? -EPROTO : 0;
		else if (f == R_SIZE)
			rec.observed = size_fits(self, r.text[f]) ? 0 : -EPROTO;
		else
			rec.observed =
				is_digest(r.text[f], r.digits) ? 0 : -EPROTO;
		if (rec.observed)
			TH_LOG("%s: read \"%s\"", raw_names[f], r.text[f]);
		JUDGE(&rec);
	}
	if (variant->revision)
		revision_steps(_metadata, self, &rec);
}

/*
 * A policy namespace made and removed as a directory: mkdir and rmdir in
 * policy/namespaces (ns_mkdir_op(), ns_rmdir_op()). The model: the
 * directory's mode (0755, root's: generic_permission) first, -EACCES;
 * then aa_may_manage_policy(): policy admin (view, CAP_MAC_ADMIN,
 * lock_policy off), else -EACCES. A namespace made has its own
 * profiles directory; a second mkdir is -EEXIST (the VFS, before both);
 * rmdir of one that is not there is -ENOENT (the VFS's lookup first).
 */
#define MKDIR_NS "lsmconf_t_aafs_mkdir"
#define NSDIR AA_FS "/policy/namespaces"

FIXTURE(nsdir)
{
	bool locked;
};

FIXTURE_VARIANT(nsdir)
{
	const char *id;
	uid_t euid;
	gid_t egid;
	bool no_mac_admin;
};

/* clang-format off */
/* made, seen, removed */
FIXTURE_VARIANT_ADD(nsdir, root) { .id = "root" };
/* not policy admin: -EACCES */
FIXTURE_VARIANT_ADD(nsdir, root_no_mac_admin) {
	.id = "root-mac_admin", .no_mac_admin = true };
/* the directory's mode: -EACCES */
FIXTURE_VARIANT_ADD(nsdir, nobody) {
	.id = "nobody", .euid = NOBODY, .egid = NOBODY };
/* clang-format on */

enum ns_step {
	NS_MKDIR,
	NS_PROFILES,
	NS_MKDIR_AGAIN,
	NS_RMDIR,
	NS_RMDIR_GONE,
	NNS
};
static const char *const ns_steps[NNS] = {
	"mkdir", "profiles_dir", "mkdir.exists", "rmdir", "rmdir.gone",
};

struct ns_report {
	int setup;
	int result[NNS];
};

/* The child (child_run()): the identity, then each step. */
static void ns_child(void *arg, void *reply)
{
	const FIXTURE_VARIANT(nsdir) *v = arg;
	struct ns_report *r = reply;
	const char *dir = NSDIR "/" MKDIR_NS;
	int i;

	for (i = 0; i < NNS; i++)
		r->result[i] = NOT_RUN;
	r->setup = v->no_mac_admin ? drop_mac_admin() :
				     become_user(v->euid, v->egid);
	if (r->setup)
		return;
	r->result[NS_MKDIR] = sys_ret(mkdir(dir, 0755));
	r->result[NS_PROFILES] = path_state(NSDIR "/" MKDIR_NS "/profiles");
	r->result[NS_MKDIR_AGAIN] = sys_ret(mkdir(dir, 0755));
	r->result[NS_RMDIR] = sys_ret(rmdir(dir));
	r->result[NS_RMDIR_GONE] = sys_ret(rmdir(dir));
}

static int ns_expect(const FIXTURE_VARIANT(nsdir) * v, bool locked,
		     enum ns_step step)
{
	/* The directory is root's, mode 0755: only root may write it. */
	bool admin = v->euid == 0 && !v->no_mac_admin && !locked;

	switch (step) {
	case NS_MKDIR:
		return admin ? 0 : -EACCES;
	case NS_RMDIR:
		/* Nothing made: the VFS finds no such entry first. */
		return admin ? 0 : -ENOENT;
	case NS_PROFILES:
		return admin ? 0 : -ENOENT;
	case NS_MKDIR_AGAIN:
		/* The name exists: the VFS refuses before any check. */
		return admin ? -EEXIST : -EACCES;
	default:
		return -ENOENT;
	}
}

FIXTURE_SETUP(nsdir)
{
	char text[8];

	REQUIRE_APPARMOR(_metadata, true);
	if (path_state(NSDIR))
		SKIP(return, "no " NSDIR " on this kernel");
	self->locked =
		read_text(PARAMS "lock_policy", text, sizeof(text)) > 0 &&
		text[0] == 'Y';
	/* A crashed run's namespace. */
	rmdir(NSDIR "/" MKDIR_NS);
}

FIXTURE_TEARDOWN(nsdir)
{
	if (!path_state(NSDIR "/" MKDIR_NS))
		EXPECT_EQ(0, rmdir(NSDIR "/" MKDIR_NS));
}

TEST_F_TIMEOUT(nsdir, steps, 60)
{
	struct record rec = {
		.abi = ABI,
		.subject = variant->id,
		.object = MKDIR_NS,
		.class = "apparmorfs",
		.detail = "-",
		.depends = self->locked ? "lock_policy=Y" : "lock_policy=N",
	};
	struct ns_report r;
	int i;

	ASSERT_EQ(0, child_run(ns_child, (void *)variant, &r, sizeof(r)));
	ASSERT_EQ(0, r.setup)
	{
		TH_LOG("taking the identity: %s", strerror(-r.setup));
	}
	for (i = 0; i < NNS; i++) {
		rec.op = ns_steps[i];
		rec.expected = ns_expect(variant, self->locked, i);
		rec.observed = r.result[i];
		JUDGE(&rec);
	}
}

/*
 * The magic policy link (policy_readlink()): its text names apparmorfs
 * and the link's own inode, "apparmorfs:[INO]".
 */
TEST(policy_link)
{
	struct record rec = {
		.abi = ABI,
		.subject = "root",
		.object = "policy",
		.class = "apparmorfs",
		.detail = "-",
		.depends = "-",
		.op = "readlink",
	};
	char link[64], want[64];
	struct stat st;
	ssize_t n;

	REQUIRE_APPARMOR(_metadata, false);
	ASSERT_EQ(0, lstat(AA_FS "/policy", &st));
	n = readlink(AA_FS "/policy", link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	snprintf(want, sizeof(want), "apparmorfs:[%llu]",
		 (unsigned long long)st.st_ino);
	rec.expected = 0;
	rec.observed = n < 0 ? -errno : strcmp(link, want) ? -EPROTO : 0;
	if (rec.observed)
		TH_LOG("readlink: \"%s\", the model \"%s\"", link, want);
	JUDGE(&rec);
}

/*
 * The compression levels the kernel takes (seq_ns_compress_{min,max}
 * _show(); lsm.c clamps the boot's rawdata_compression_level to them):
 * min <= the level <= max.
 */
TEST(compression_levels)
{
	struct record rec = {
		.abi = ABI,
		.subject = "root",
		.object = "raw_data_compression_level",
		.class = "apparmorfs",
		.detail = "-",
		.depends = "-",
		.op = "level_within",
	};
	char text[32];
	long min, max, level;
	ssize_t n;

	REQUIRE_APPARMOR(_metadata, false);
	if (read_text(AA_FS "/raw_data_compression_level_min", text,
		      sizeof(text)) < 0)
		SKIP(return,
			   "no raw_data_compression_level_min on this kernel");
	min = strtol(text, NULL, 10);
	ASSERT_LE(0, read_text(AA_FS "/raw_data_compression_level_max", text,
			       sizeof(text)));
	max = strtol(text, NULL, 10);
	/* The parameter is root's (0400) and asks view. */
	n = read_text(PARAMS "rawdata_compression_level", text, sizeof(text));
	if (n < 0)
		SKIP(return, "cannot read rawdata_compression_level: %s",
			   strerror(-n));
	level = strtol(text, NULL, 10);
	rec.expected = 0;
	rec.observed = min <= level && level <= max ? 0 : -ERANGE;
	if (rec.observed)
		TH_LOG("level %ld outside [%ld, %ld]", level, min, max);
	JUDGE(&rec);
}

AA_HARNESS_MAIN
