// SPDX-License-Identifier: GPL-2.0
/*
 * `lsmconf selftests-series KSRC [--out DIR]`: a git format-patch series
 * that adds this repository's selftests (as committed at HEAD) to the
 * kernel tree KSRC: the shared headers, tools/testing/selftests/apparmor
 * and .../selinux with their TARGETS entries, each patch with the
 * MAINTAINERS F: lines of the directory it adds (so that checkpatch has
 * no FILE_PATH_CHANGES to report on any of them). KSRC is only read: the series is made in a throwaway git
 * repository whose baseline commit holds the two files it changes, as
 * KSRC has them, so the same patches come out whether KSRC is a git tree
 * or an unpacked one (Debian's linux-source). Every date is the lsmconf
 * HEAD commit's and git's own configuration is ignored, so a second run
 * on the same inputs writes the same bytes.
 */
#define _GNU_SOURCE
#include "cli.h"
#include "lib/lib.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ST "tools/testing/selftests"
#define GIT_TIMEOUT_S 300
#define PLACEHOLDER_NAME "Your Name"
#define PLACEHOLDER_EMAIL "you@example.org"

static const char msg_common[] =
	"selftests/lsmconf: add helpers shared by the LSM conformance tests\n"
	"\n"
	"The AppArmor and SELinux conformance tests that follow share their\n"
	"plumbing: peer processes that report back over a pipe with a bounded\n"
	"wait (worker.h), AF_UNIX address and SO_PEERSEC helpers (unix_addr.h,\n"
	"peersec.h), and the judging of each allow/deny decision against the\n"
	"outcome the test computed from its case (judge.h, lsmconf.h).\n"
	"\n"
	"Each decision is also written as one tab-separated record (the columns\n"
	"are in lsmconf_record.h). In a plain kselftest run the record is a KTAP\n"
	"diagnostic line, \"# record: ...\", so the log of run_kselftest.sh says\n"
	"which decision a failed case got wrong; LSM_SELFTEST_RECORDS=FILE\n"
	"appends the records to FILE instead, to compare two kernels decision by\n"
	"decision.\n"
	"\n"
	"Tests that load policy refuse to unless LSMCONF_ALLOW_POLICY_LOAD=1 is\n"
	"set: loading policy changes the machine, so only a test machine should.\n"
	"\n"
	"This directory is headers only; it is not a TARGETS entry. Both the\n"
	"AppArmor and the SELinux maintainers get changes to it (MAINTAINERS).\n";

static const char msg_apparmor[] =
	"selftests/apparmor: add AppArmor conformance tests\n"
	"\n"
	"There are no AppArmor selftests in the tree, so a change to AppArmor's\n"
	"mediation (or to the socket, IPC or exec paths it hooks) can alter an\n"
	"allow/deny decision without any test noticing.\n"
	"\n"
	"Add kselftest_harness tests that confine peer processes in named\n"
	"variants (unconfined, confined, stacked profiles) and check every\n"
	"decision with its exact errno: AF_UNIX stream, dgram and seqpacket\n"
	"peers on pathname, abstract and unnamed addresses, inet sockets,\n"
	"SCM_RIGHTS fd passing, task and signal peers, exec transitions, the\n"
	"policy and attr interfaces in securityfs and procfs, audit records,\n"
	"and the feature set the kernel advertises. Expected outcomes are\n"
	"computed from the case and the features the running kernel reports,\n"
	"with the rule that decides each one in a comment. The profiles are\n"
	"compiled by apparmor_parser at run time, from templates installed\n"
	"beside the binaries; pinned feature sets in abi/ let the same\n"
	"profiles be compiled for older policy ABIs.\n"
	"\n"
	"Build: libapparmor (static by default; LSMCONF_STATIC= links it\n"
	"dynamically) and liburing for the send benchmark. Run: a kernel with\n"
	"the options in config, booted with AppArmor, apparmor_parser in PATH,\n"
	"as root, with LSMCONF_ALLOW_POLICY_LOAD=1 for the tests that load\n"
	"profiles.\n"
	"\n"
	"Changes to the directory go to the AppArmor maintainers (MAINTAINERS).\n";

static const char msg_selinux[] =
	"selftests/selinux: add SELinux conformance tests\n"
	"\n"
	"There are no SELinux selftests in the tree. The SELinux testsuite\n"
	"lives out of tree and runs against the distribution policy; these\n"
	"tests instead bring a small CIL policy of their own, so each decision\n"
	"they check follows from rules in this directory.\n"
	"\n"
	"Add kselftest_harness tests that run peer processes in domains of\n"
	"that policy and check every decision with its exact errno: AF_UNIX\n"
	"and inet sockets and their peer labels, SysV IPC and message queues,\n"
	"MLS/MCS categories, extended permissions (ioctl), enforcing and\n"
	"permissive modes, the selinuxfs interfaces, and a policy reload while\n"
	"sockets and queues are open. The policy in policy/ is compiled with\n"
	"secilc at build time, once per category count (4, 256 and 1024).\n"
	"\n"
	"Build: libselinux, libsepol and pcre2 (static by default) and secilc.\n"
	"Run: a kernel with the options in config, booted with SELinux, as\n"
	"root, with LSMCONF_ALLOW_POLICY_LOAD=1: the tests load their own\n"
	"policy, which replaces the machine's, so they are meant for a test\n"
	"machine or a VM, and skip with that reason otherwise.\n"
	"\n"
	"Changes to the directory go to the SELinux maintainers (MAINTAINERS).\n";

static const char cover[] =
	"selftests: add AppArmor and SELinux conformance tests\n"
	"\n"
	"This series adds kselftests for AppArmor and SELinux mediation: each\n"
	"test puts peer processes under a policy of its own and checks every\n"
	"allow/deny decision with its exact errno, so a change that alters a\n"
	"decision fails a named case. Both directories build with\n"
	"\n"
	"  make -C tools/testing/selftests TARGETS=\"apparmor selinux\"\n"
	"\n"
	"and print KTAP that kunit.py parse accepts; each decision is also a\n"
	"\"# record: \" diagnostic line in that output.\n"
	"\n"
	"SELinux is included: like the AppArmor tests, its tests refuse to load\n"
	"policy unless LSMCONF_ALLOW_POLICY_LOAD=1, and they build in a kernel\n"
	"tree with secilc, libselinux, libsepol and pcre2 installed. It is its\n"
	"own patch, so it can be left out.\n";

/* Runs git (or another tool) in @cwd; dies with one line when it fails. */
static void run(const char *cwd, char *const argv[])
{
	struct spawn_opts o = { .cwd = cwd,
				.stdin_fd = -1,
				.stdout_fd = -1,
				.stderr_fd = -2,
				.timeout_s = GIT_TIMEOUT_S };
	char buf[64];
	int st = spawn_wait(argv, &o);

	if (st)
		die("selftests-series: %s %s: %s", argv[0], argv[1],
		    spawn_strstatus(st, buf, sizeof(buf)));
}

/* The first line git prints, or NULL when it fails or prints nothing. */
static char *git_out(const char *cwd, char *const argv[])
{
	struct spawn_opts o = { .cwd = cwd,
				.stdin_fd = -1,
				.stderr_fd = -1,
				.timeout_s = GIT_TIMEOUT_S };
	char *out = NULL;
	size_t len;

	if (spawn_capture(argv, &o, &out, &len, NULL) || !out) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	if (!*out) {
		free(out);
		return NULL;
	}
	return out;
}

static char *read_or_die(const char *path)
{
	char *buf;

	if (read_file(path, &buf, NULL))
		die("selftests-series: cannot read %s", path);
	return buf;
}

static void write_or_die(const char *path, const char *text)
{
	if (write_file(path, text, strlen(text)))
		die("selftests-series: cannot write %s", path);
}

/* Commits what @w's index holds, the message @msg and a sign-off. */
static void commit(const char *w, const char *tmp, const char *msg,
		   const char *signoff)
{
	char *path = xasprintf("%s/msg", tmp);
	char *text = xasprintf("%s\n%s\n", msg, signoff);

	write_or_die(path, text);
	run(w, (char *const[]){ "git", "commit", "-q", "--no-verify", "-F",
				path, NULL });
	free(text);
	free(path);
}

/* Adds the directory @name of the extracted sources to the tree. */
static void add_dir(const char *w, const char *tmp, const char *name)
{
	char *from = xasprintf("%s/src/selftests/%s", tmp, name);
	char *to = xasprintf("%s/" ST "/%s", w, name);
	char *rel = xasprintf(ST "/%s", name);

	run(NULL, (char *const[]){ "cp", "-R", from, to, NULL });
	run(w, (char *const[]){ "git", "add", "--", rel, NULL });
	free(from);
	free(to);
	free(rel);
}

static void edit(const char *w, const char *rel, const char *what,
		 char *(*fn)(const char *, const char *, const char *,
			     const char **),
		 const char *a, const char *b)
{
	char *path = xasprintf("%s/%s", w, rel);
	char *text = read_or_die(path), *out;
	const char *why = "";

	out = fn(text, a, b, &why);
	if (!out)
		die("selftests-series: %s %s (%s)", rel, why, what);
	write_or_die(path, out);
	run(w, (char *const[]){ "git", "add", "--", (char *)rel, NULL });
	free(out);
	free(text);
	free(path);
}

static char *targets_fn(const char *text, const char *target,
			const char *unused, const char **why)
{
	(void)unused;
	return kedit_targets(text, target, why);
}

static void add_target(const char *w, const char *target)
{
	edit(w, ST "/Makefile", target, targets_fn, target, NULL);
}

static void add_f(const char *w, const char *entry, const char *path)
{
	edit(w, "MAINTAINERS", entry, kedit_maintainers, entry, path);
}

/* Removes the NNNN-*.patch files an earlier run left in @out. */
static void clear_patches(const char *out)
{
	DIR *d = opendir(out);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d)))
		if (!fnmatch("[0-9][0-9][0-9][0-9]-*.patch", e->d_name, 0)) {
			char *p = xasprintf("%s/%s", out, e->d_name);

			unlink(p);
			free(p);
		}
	closedir(d);
}

int cmd_selftests_series(int argc, char **argv)
{
	const char *out = "selftests-series", *ksrc = NULL;
	char *name, *email, *date, *signoff, *tmp, *w, *p, *abs_out;
	char tmpl[] = "/tmp/lsmconf-series.XXXXXX";
	int a;

	for (a = 1; a < argc; a++) {
		if (!strcmp(argv[a], "--out"))
			out = opt_value("--out", argv[++a]);
		else if (argv[a][0] == '-')
			die("selftests-series: unknown option %s", argv[a]);
		else if (ksrc)
			die("selftests-series: one KSRC only (got %s and %s)",
			    ksrc, argv[a]);
		else
			ksrc = argv[a];
	}
	if (!ksrc)
		die("selftests-series: no KSRC (a kernel tree) given");
	p = xasprintf("%s/" ST "/Makefile", ksrc);
	if (!path_exists(p))
		die("selftests-series: %s is not a kernel tree (no " ST
		    "/Makefile)",
		    ksrc);
	free(p);

	/* The same dates, whoever runs it when: the lsmconf commit's. */
	date = git_out(LSMCONF_ROOT,
		       (char *const[]){ "git", "log", "-1",
					"--format=@%ct +0000", "HEAD", NULL });
	if (!date)
		die("selftests-series: %s is not a git checkout with a commit",
		    LSMCONF_ROOT);
	name = git_out(NULL,
		       (char *const[]){ "git", "config", "user.name", NULL });
	email = git_out(NULL,
			(char *const[]){ "git", "config", "user.email", NULL });
	if (!name || !email) {
		free(name);
		free(email);
		name = xstrdup(PLACEHOLDER_NAME);
		email = xstrdup(PLACEHOLDER_EMAIL);
		note("selftests-series: git config user.name/user.email not set: the patches carry \"Signed-off-by: %s <%s>\"; fill in yours before sending",
		     name, email);
	}
	signoff = xasprintf("Signed-off-by: %s <%s>", name, email);
	setenv("GIT_AUTHOR_NAME", name, 1);
	setenv("GIT_AUTHOR_EMAIL", email, 1);
	setenv("GIT_COMMITTER_NAME", name, 1);
	setenv("GIT_COMMITTER_EMAIL", email, 1);
	setenv("GIT_AUTHOR_DATE", date, 1);
	setenv("GIT_COMMITTER_DATE", date, 1);
	/* Nobody's format.* or diff.* settings change the patches. */
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);

	if (mkdir_p(out))
		die("selftests-series: cannot create %s: %s", out,
		    strerror(errno));
	abs_out = realpath(out, NULL);
	if (!abs_out)
		die("selftests-series: %s: %s", out, strerror(errno));
	tmp = mkdtemp(tmpl);
	if (!tmp)
		die("selftests-series: mkdtemp: %s", strerror(errno));
	w = xasprintf("%s/w", tmp);

	/* The baseline: the two files the series changes, as KSRC has them. */
	run(NULL,
	    (char *const[]){ "git", "init", "-q", "-b", "base", w, NULL });
	p = xasprintf("%s/" ST, w);
	if (mkdir_p(p))
		die("selftests-series: cannot create %s", p);
	free(p);
	{
		char *from = xasprintf("%s/" ST "/Makefile", ksrc);
		char *to = xasprintf("%s/" ST "/Makefile", w);
		char *mfrom = xasprintf("%s/MAINTAINERS", ksrc);
		char *mto = xasprintf("%s/MAINTAINERS", w);

		if (copy_file(from, to, 0644) || copy_file(mfrom, mto, 0644))
			die("selftests-series: cannot copy %s and %s", from,
			    mfrom);
		free(from);
		free(to);
		free(mfrom);
		free(mto);
	}
	run(w, (char *const[]){ "git", "add", "-A", NULL });
	run(w, (char *const[]){ "git", "commit", "-q", "--no-verify", "-m",
				"baseline", NULL });

	/* The tests as committed, not as the work tree has them. */
	p = xasprintf("%s/src.tar", tmp);
	run(LSMCONF_ROOT,
	    (char *const[]){ "git", "archive", "--format=tar", "-o", p, "HEAD",
			     "selftests/lsmconf", "selftests/apparmor",
			     "selftests/selinux", NULL });
	{
		char *src = xasprintf("%s/src", tmp);

		if (mkdir_p(src))
			die("selftests-series: cannot create %s", src);
		run(NULL, (char *const[]){ "tar", "-xf", p, "-C", src, NULL });
		free(src);
	}
	free(p);

	/* Each directory with its MAINTAINERS F: lines, in one patch. */
	add_dir(w, tmp, "lsmconf");
	add_f(w, "APPARMOR SECURITY MODULE", ST "/lsmconf/");
	add_f(w, "SELINUX SECURITY MODULE", ST "/lsmconf/");
	commit(w, tmp, msg_common, signoff);
	add_dir(w, tmp, "apparmor");
	add_target(w, "apparmor");
	add_f(w, "APPARMOR SECURITY MODULE", ST "/apparmor/");
	commit(w, tmp, msg_apparmor, signoff);
	add_dir(w, tmp, "selinux");
	add_target(w, "selinux");
	add_f(w, "SELINUX SECURITY MODULE", ST "/selinux/");
	commit(w, tmp, msg_selinux, signoff);

	/* The cover letter's subject and blurb: the branch description. */
	run(w, (char *const[]){ "git", "config", "branch.base.description",
				(char *)cover, NULL });
	clear_patches(abs_out);
	run(w, (char *const[]){ "git", "format-patch", "-q", "--cover-letter",
				"--cover-from-description=subject", "-o",
				abs_out, "HEAD~3", NULL });
	if (remove_tree(tmp))
		note("selftests-series: could not remove %s", tmp);
	printf("%s: 3 patches and a cover letter against %s\n", abs_out, ksrc);
	if (!strcmp(name, PLACEHOLDER_NAME))
		printf("fill in your name: Signed-off-by: %s <%s>\n", name,
		       email);
	free(abs_out);
	free(w);
	free(signoff);
	free(name);
	free(email);
	free(date);
	return 0;
}
