// SPDX-License-Identifier: GPL-2.0
/*
 * A kernel booted with the suite, once per LSM: the plan, the boots (again
 * after a crash, for the cases still to run), the guest's results taken
 * off the data channel, every case accounted for, and the results
 * directory (records.tsv, ktap.txt, identity, problems).
 */
#define _GNU_SOURCE
#include "session.h"
#include "vm/vm.h"
#include "provision/provision.h"
#include "results/results.h"
#include "../../selftests/lsmconf/lsmconf_record.h"
#include "lib/lib.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* Seconds a guest may take to boot and send results, beyond its tests. */
#define BOOT_ALLOWANCE_S 90
/* A guest that prints nothing for this long has failed (it prints in ~1 s). */
#define SILENCE_S 10
/*
 * A guest whose init has not said "tests start" by then has failed: Debian's
 * kernels reach it in 3-5 s under TCG here, 3-4 times that on a loaded host.
 */
#define INIT_S 60
/* Beyond a test's own bound (which the guest enforces) before it is hung. */
#define GRACE_S 15
/* Boots of one kernel: the first, a retry, and one per crashed case. */
#define MAX_BOOTS 8
/* Lines of a kernel's report kept per crash. */
#define TRACE_LINES 120

/*
 * How each LSM's suite boots. AppArmor is in the default LSM list of
 * Debian's kernels and of lsmconf.config; SELinux is exclusive with it, so
 * it gets a boot of its own with an lsm= list naming it (selinux=1 does
 * nothing without CONFIG_SECURITY_SELINUX_BOOTPARAM).
 */
static const struct {
	const char *name;
	const char *append;
} lsm_boots[] = {
	{ "apparmor", NULL },
	{ "selinux", "lsm=landlock,lockdown,yama,selinux,bpf" },
};

/* What happened to one planned test across the boots. */
struct test_fate {
	bool framed; /* its results arrived */
	int boot; /* the boot it ended in */
	char **crashed; /* the cases that brought the kernel down */
	char **traces; /* for each, the kernel's report, or NULL (a hang) */
	char **hows; /* for each, how its boot ended */
	int *boots; /* for each, its boot */
	size_t n_crashed;
	int crash_boot; /* the last boot that ended in it */
	char why[600]; /* how the last boot that ended in it ended, or "" */
	char *live; /* its live output when its results never arrived */
};

struct kernel_run {
	struct kernel k;
	const char *lsm;
	const char *abi; /* the pinned feature set policy is compiled for */
	char *dir;
	const char *tests_dir;
	struct plan plan;
	struct test_fate *fate;
	int boots, retries;
	struct sbuf boot_log; /* one line per boot that ended early */
	bool accel_kvm;
	char *qemu_cmdline; /* the first boot's */
	struct sbuf first_output; /* seconds to each boot's first output */
	struct test_account *acct;
	struct run_totals totals;
	char *problems; /* boot-level problems, one per line */
	double image_s, boot_s;
	char *uname, *lsm_list;
	/* What the known bugs list may call it: release, build: source. */
	char *names;
	char *features; /* features.tsv as read from the guest */
	size_t decisions, mismatches;
	struct known_list *known; /* NULL: no list */
	size_t known_decisions;
	double guest_boot_s,
		guest_suite_s; /* guest uptime at test start, end */
};

static void add_problem(struct kernel_run *kr, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void add_problem(struct kernel_run *kr, const char *fmt, ...)
{
	struct sbuf sb = { .buf = kr->problems,
			   .len = kr->problems ? strlen(kr->problems) : 0,
			   .cap = kr->problems ? strlen(kr->problems) + 1 : 0 };
	va_list ap;
	char *line;

	va_start(ap, fmt);
	if (vasprintf(&line, fmt, ap) < 0)
		die("out of memory");
	va_end(ap);
	sbuf_printf(&sb, "%s\n", line);
	free(line);
	kr->problems = sb.buf;
}

static char *guest_text(const struct kernel_run *kr, const char *name)
{
	char *path = xasprintf("%s/guest/%s", kr->dir, name), *buf;

	if (read_file(path, &buf, NULL))
		buf = NULL;
	free(path);
	return buf;
}

char *run_guest_file(const char *dir, const char *name, char **path)
{
	char *buf;

	*path = xasprintf("%s/guest/%s", dir, name);
	if (read_file(*path, &buf, NULL))
		buf = xstrdup("");
	return buf;
}

static void chomp(char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
}

/*
 * A feature is advertised when features.tsv has it as a file reading "yes"
 * or as a directory (some file below it).
 */
static const char *feature_state(const char *tsv, const char *feature)
{
	size_t flen = strlen(feature);
	const char *line = tsv;

	if (!tsv)
		return "unknown";
	while (line && *line) {
		if (!strncmp(line, feature, flen)) {
			if (line[flen] == '/')
				return "yes";
			if (line[flen] == '\t')
				return strncmp(line + flen + 1, "yes", 3) ?
					       "no" :
					       "yes";
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return "no";
}

static const char *const reported_features[] = { "network", "network_v8",
						 "network_v9",
						 "network_v9/af_unix", NULL };

/*
 * The guest's decision records, checked and written to the results
 * directory sorted by id (so two kernels' files diff line by line).
 */
static int collect_records(struct kernel_run *kr, struct err *e)
{
	char *path = xasprintf("%s/guest/records.tsv", kr->dir), *buf;
	struct record_set set;
	struct sbuf out = { 0 }, known = { 0 };
	size_t len, i;
	int c, ret = 0;

	if (read_file(path, &buf, &len)) {
		free(path);
		return 0;
	}
	free(path);
	if (records_parse(buf, len, &set))
		die("out of memory");
	free(buf);
	if (set.malformed)
		add_problem(kr,
			    "records.tsv: %zu malformed lines (first: line %u)",
			    set.malformed, set.first_bad_line);
	if (set.duplicates)
		add_problem(kr, "records.tsv: %zu case ids recorded twice",
			    set.duplicates);
	kr->decisions = set.n;
	kr->mismatches = set.mismatches;
	for (i = 0; kr->known && i < set.n; i++) {
		const struct known_bug *b =
			known_record(kr->known, kr->names, &set.v[i]);

		if (!b)
			continue;
		kr->mismatches--;
		kr->known_decisions++;
		sbuf_printf(&known, "%s\t%s\n", set.v[i].col[REC_ID], b->name);
	}
	if (known.len)
		write_file_at(kr->dir, "known.tsv", known.buf, known.len);
	sbuf_free(&known);
	sbuf_printf(&out, "%s", RECORD_HEADER);
	for (i = 0; i < set.n; i++)
		for (c = 0; c < REC_N_COLS; c++)
			sbuf_printf(&out, "%s%c", set.v[i].col[c],
				    c == REC_N_COLS - 1 ? '\n' : '\t');
	path = xasprintf("%s/records.tsv", kr->dir);
	if (write_file(path, out.buf, out.len))
		ret = err_set(e, "cannot write %s", path);
	free(path);
	sbuf_free(&out);
	records_free(&set);
	return ret;
}

/* The per-test files the guest sent, merged as one set in plan order. */
static void merge_outputs(struct kernel_run *kr, const char *file)
{
	struct sbuf all = { 0 };
	char *path, *buf;
	size_t i, len;

	for (i = 0; i < kr->plan.n; i++) {
		path = xasprintf("%s/guest/out/%s/%s", kr->dir,
				 kr->plan.items[i].name, file);
		if (!read_file(path, &buf, &len)) {
			sbuf_add(&all, buf, len);
			free(buf);
		}
		free(path);
	}
	if (all.len) {
		path = xasprintf("%s/guest/%s", kr->dir, file);
		write_file(path, all.buf, all.len);
		free(path);
	}
	sbuf_free(&all);
}

/*
 * Unpacks every whole frame of a boot's data channel into guest/; the
 * tests whose results arrived are marked. Returns whether the last frame
 * (sent after the tests) arrived.
 */
/* Whether @names (one a line, as xfer_untar_names() gives) holds @name. */
static bool has_name(const char *names, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = names; p && *p; p += strcspn(p, "\n") + 1) {
		if (!strncmp(p, "./", 2))
			p += 2;
		if (!strncmp(p, name, n) && p[n] == '\n')
			return true;
		if (!p[strcspn(p, "\n")])
			break;
	}
	return false;
}

static bool take_frames(struct kernel_run *kr, const char *bdir, int boot,
			bool *identity)
{
	char *path = xasprintf("%s/data.bin", bdir), *gdir, err[256];
	char *buf = NULL;
	const char *payload;
	size_t len = 0, plen, pos = 0, i;
	bool last = false;
	int ret;

	*identity = false;
	if (read_file(path, &buf, &len))
		len = 0;
	gdir = xasprintf("%s/guest", kr->dir);
	mkdir_p(gdir);
	while (!(ret = xfer_next(buf ? buf : "", len, &pos, &payload, &plen,
				 err, sizeof(err)))) {
		struct sbuf names = { 0 };

		/* What the frame holds says which part of the run it is. */
		if (xfer_untar_names(payload, plen, gdir, &names, err,
				     sizeof(err)) < 0) {
			add_problem(kr, "boot %d: %s", boot, err);
		} else {
			*identity |= has_name(names.buf, "uname");
			last |= has_name(names.buf, "dmesg.txt");
			for (i = 0; i < kr->plan.n; i++) {
				char *rc = xasprintf("tests/%s.rc",
						     kr->plan.items[i].name);

				if (has_name(names.buf, rc)) {
					kr->fate[i].framed = true;
					kr->fate[i].boot = boot;
				}
				free(rc);
			}
		}
		sbuf_free(&names);
	}
	/* A frame cut short is how a boot that died mid-transfer looks. */
	if (ret < 0 && pos < len)
		add_problem(kr, "boot %d: %s", boot, err);
	free(gdir);
	free(buf);
	free(path);
	return last;
}

/* The case list of test @name from the harness itself ("-l"). */
static int list_cases(const struct kernel_run *kr, const char *name,
		      char ***cases)
{
	char *prog = xasprintf("%s/%s", kr->tests_dir, name), *out, *err;
	char *argv[] = { prog, "-l", NULL };
	int ret, n = -1;

	ret = spawn_capture(
		argv, &(struct spawn_opts){ .stdin_fd = -1, .timeout_s = 30 },
		&out, NULL, &err);
	/* The harness lists on stderr (and exits with KSFT_SKIP). */
	if (ret >= 0 && ret < 128)
		n = crash_list_cases(err, cases);
	free(out);
	free(err);
	free(prog);
	return n;
}

/*
 * The plan after a boot ended in test @t: the test again without the case
 * that brought the kernel down (every other case, by the harness's own
 * "-r"), then the tests after it. Cases are rerun rather than kept from
 * the dead boot: their records went down with it.
 */
static void resume_plan(struct kernel_run *kr, size_t t, struct plan *next)
{
	const struct plan_item *it = &kr->plan.items[t];
	struct test_fate *f = &kr->fate[t];
	char **cases = NULL;
	int n = -1, i;
	size_t j, k = 0;

	next->items = xcalloc(kr->plan.n - t, sizeof(*next->items));
	/* With arguments of the user's, "every other case" is not known. */
	if (f->n_crashed && !it->args[0])
		n = list_cases(kr, it->name, &cases);
	if (n > 0) {
		struct sbuf args = { 0 };

		for (i = 0; i < n; i++) {
			bool crashed = false;

			for (j = 0; j < f->n_crashed; j++)
				crashed |= !strcmp(cases[i], f->crashed[j]);
			if (!crashed)
				sbuf_printf(&args, "%s-r %s",
					    args.len ? " " : "", cases[i]);
		}
		if (args.len) {
			next->items[k].name = xstrdup(it->name);
			next->items[k].timeout_s = it->timeout_s;
			next->items[k++].args = args.buf;
		}
	}
	for (i = 0; i < n; i++)
		free(cases[i]);
	free(cases);
	for (j = t + 1; j < kr->plan.n; j++) {
		next->items[k].name = xstrdup(kr->plan.items[j].name);
		next->items[k].timeout_s = kr->plan.items[j].timeout_s;
		next->items[k++].args = xstrdup(kr->plan.items[j].args);
	}
	next->n = k;
}

/* The index in the full plan of the first test of @p. */
static size_t plan_index(const struct kernel_run *kr, const struct plan *p)
{
	size_t i;

	for (i = 0; i < kr->plan.n; i++)
		if (p->n && !strcmp(kr->plan.items[i].name, p->items[0].name))
			return i;
	return kr->plan.n;
}

/*
 * One line on how boot @boot ended: the console's finding when there is
 * one (a panic names its cause), else the watcher's reason.
 */
static void boot_why(const char *bdir, const struct boot_result *br, char *out,
		     size_t size, char **trace)
{
	char *path = xasprintf("%s/console.log", bdir), *buf, verdict[300];
	struct console_scan scan;
	size_t len;

	*trace = NULL;
	snprintf(out, size, "%s", br->reason);
	if (!read_file(path, &buf, &len)) {
		console_scan(buf, len, &scan);
		/* A panic is the watcher's reason too: say it once. */
		if (console_verdict(&scan, verdict, sizeof(verdict)))
			snprintf(out, size, "%s%s%.200s", verdict,
				 br->end == BOOT_EXITED ? "" : "; ",
				 br->end == BOOT_EXITED ? "" : br->reason);
		*trace = crash_trace(buf, len, TRACE_LINES);
		free(buf);
	}
	free(path);
}

/* The whole plan, as the first boot runs it. */
static void resume_plan_all(const struct kernel_run *kr, struct plan *p)
{
	size_t i;

	p->items = xcalloc(kr->plan.n, sizeof(*p->items));
	p->n = kr->plan.n;
	for (i = 0; i < p->n; i++) {
		p->items[i].name = xstrdup(kr->plan.items[i].name);
		p->items[i].timeout_s = kr->plan.items[i].timeout_s;
		p->items[i].args = xstrdup(kr->plan.items[i].args);
	}
}

/*
 * A boot ended in test @t: the case it was running (from the live log),
 * the kernel's report (crash-N.txt), and the line for the report.
 */
static void crash_note(struct kernel_run *kr, const char *bdir, size_t t,
		       const char *why, const char *trace)
{
	struct test_fate *f = &kr->fate[t];
	const char *name = kr->plan.items[t].name, *sec = NULL;
	char *path = xasprintf("%s/live.log", bdir), *live, kase[512];
	size_t len = 0, slen = 0;
	struct sbuf out = { 0 };

	kase[0] = '\0';
	if (read_file(path, &live, &len))
		live = NULL;
	if (live)
		sec = crash_section(live, len, name, &slen);
	if (sec && crash_open_case(sec, slen, kase, sizeof(kase)) == 0) {
		size_t n = f->n_crashed + 1;

		f->crashed = xrealloc(f->crashed, n * sizeof(char *));
		f->traces = xrealloc(f->traces, n * sizeof(char *));
		f->hows = xrealloc(f->hows, n * sizeof(char *));
		f->boots = xrealloc(f->boots, n * sizeof(int));
		f->crashed[f->n_crashed] = xstrdup(kase);
		f->traces[f->n_crashed] = trace ? xstrdup(trace) : NULL;
		f->hows[f->n_crashed] = xstrdup(why);
		f->boots[f->n_crashed++] = kr->boots;
	}
	/* Until its results arrive, what it printed is all there is. */
	if (sec && !f->framed) {
		free(f->live);
		f->live = xstrndup(sec, slen);
	}
	f->crash_boot = kr->boots;
	snprintf(f->why, sizeof(f->why), "%s", why);
	free(path);
	free(live);

	path = xasprintf("%s/crash-%d.txt", kr->dir, kr->boots);
	sbuf_printf(&out, "boot %d ended in test %s, case %s\n%s\n\n%s",
		    kr->boots, name, kase[0] ? kase : "(none running)", why,
		    trace ? trace : "(no kernel report on the console)\n");
	write_file(path, out.buf, out.len);
	sbuf_free(&out);
	free(path);
	sbuf_printf(&kr->boot_log,
		    "boot %d ended in %s, case %s: %s (crash-%d.txt)\n",
		    kr->boots, name, kase[0] ? kase : "unknown", why,
		    kr->boots);
}

/*
 * Boots until every planned test has run: a boot that dies before its
 * tests is booted once more; one that dies in a test costs that test's
 * running case, and the next boot goes on after it.
 */
/* Boot @kr->boots of @cur into @bdir: its image, its bounds, the boot. */
static int boot_plan(struct kernel_run *kr, const struct run_opts *o,
		     const char *append, const struct plan *cur,
		     const char *bdir, struct boot_result *br, struct err *e)
{
	char *image = xasprintf("%s/initramfs.cpio", bdir);
	struct boot_opts bo = { 0 };
	double t0 = now_seconds();
	size_t i;

	progress("%s [%s]: building the guest image", kr->k.spec.text, kr->lsm);
	if (guest_image(image, &kr->k, cur, kr->tests_dir, e)) {
		free(image);
		return -1;
	}
	kr->image_s += now_seconds() - t0;
	bo.kernel = kr->k.image;
	bo.initrd = image;
	bo.append = append;
	bo.dir = bdir;
	bo.memory_mb = o->memory_mb;
	/*
	 * One vCPU under icount: with two vCPUs in single-threaded TCG the
	 * 6.12 guest hit a double fault in kmalloc during sendmmsg (seen
	 * here); twoproc then shares that CPU.
	 */
	bo.cpus = o->icount ? 1 : o->cpus;
	bo.icount = o->icount;
	bo.silence_s = SILENCE_S;
	bo.init_s = INIT_S;
	bo.grace_s = GRACE_S;
	bo.timeout_s = o->boot_timeout_s;
	if (!bo.timeout_s) {
		bo.timeout_s = BOOT_ALLOWANCE_S;
		for (i = 0; i < cur->n; i++)
			bo.timeout_s += cur->items[i].timeout_s;
	}
	progress("%s [%s]: boot %d (bounded to %d s)", kr->k.spec.text, kr->lsm,
		 kr->boots, bo.timeout_s);
	boot_run(&bo, br);
	progress_done();
	kr->boot_s += br->seconds;
	sbuf_printf(&kr->first_output, "%s%.1f", kr->boots > 1 ? " " : "",
		    br->first_output_s);
	if (kr->boots == 1) {
		kr->accel_kvm = br->kvm;
		kr->qemu_cmdline = br->cmdline;
	} else {
		free(br->cmdline);
	}
	br->cmdline = NULL;
	/* The image is rebuilt every boot; it is not a result. */
	unlink(image);
	free(image);
	return 0;
}

/*
 * Every report on boot @kr->boots's console before the one that ended it
 * (a WARNING in a boot that later oopsed counts too): each a problem of
 * the run, with the test that was running.
 */
/*
 * The harness case the boot watcher saw open when console line @line came
 * (console-cases.tsv: LINE, TEST, CASE), or "".
 */
static void problem_case_of(const char *cases, unsigned int line, char *out,
			    size_t size)
{
	const char *p;

	out[0] = '\0';
	for (p = cases; p && *p;) {
		size_t n = strcspn(p, "\n");
		unsigned int no;
		char kase[256];

		if (sscanf(p, "%u\t%*[^\t]\t%255[^\n]", &no, kase) == 2 &&
		    no == line) {
			snprintf(out, size, "%s", kase);
			return;
		}
		p += n + (p[n] == '\n');
	}
}

static void scan_boot(struct kernel_run *kr, const char *bdir)
{
	char *path = xasprintf("%s/console.log", bdir), *buf, *cases, *cpath;
	struct console_problem *p;
	size_t len, n, i;

	if (read_file(path, &buf, &len)) {
		add_problem(kr, "boot %d: console.log is missing", kr->boots);
		free(path);
		return;
	}
	n = console_problems(buf, len, &p);
	cpath = xasprintf("%s/console-cases.tsv", bdir);
	if (read_file(cpath, &cases, NULL))
		cases = NULL;
	for (i = 0; i < n; i++) {
		char kase[300] = "";

		problem_case_of(cases, p[i].line, kase, sizeof(kase));
		add_problem(
			kr,
			"boot %d: kernel %s in %s%s%s%s at console line %u: %s",
			kr->boots, console_event_name(p[i].event),
			p[i].test[0] ? "test " : "",
			p[i].test[0] ? p[i].test : "no test (boot)",
			kase[0] ? ", case " : "", kase, p[i].line, p[i].text);
	}
	free(cases);
	free(cpath);
	free(p);
	free(buf);
	free(path);
}

enum after_boot { ALL_DONE, BOOT_AGAIN, RESUME, GIVE_UP };

/*
 * What boot @kr->boots left: every test done, the same plan again (it
 * died before its tests, once), the rest after the test it ended in
 * (@next), or nothing more to do.
 */
static enum after_boot after_boot(struct kernel_run *kr, const char *bdir,
				  const struct boot_result *br,
				  const struct plan *cur, struct plan *next)
{
	char why[600], *trace;
	bool identity, last = take_frames(kr, bdir, kr->boots, &identity);
	size_t t = plan_index(kr, cur);

	while (t < kr->plan.n && kr->fate[t].framed)
		t++;
	/* A WARNING on the way is still a problem of the run. */
	scan_boot(kr, bdir);
	if (br->end == BOOT_DONE && last && t == kr->plan.n)
		return ALL_DONE;
	boot_why(bdir, br, why, sizeof(why), &trace);
	if (!br->tests_started || !identity) {
		/* Nothing of the plan ran: boot the same plan once more. */
		sbuf_printf(&kr->boot_log,
			    "boot %d died before its tests: %s\n", kr->boots,
			    why);
		free(trace);
		if (kr->retries++ || kr->boots >= MAX_BOOTS) {
			add_problem(
				kr,
				"the guest died before its tests in %d boots: %s",
				kr->boots, why);
			return GIVE_UP;
		}
		return BOOT_AGAIN;
	}
	if (t == kr->plan.n) {
		add_problem(
			kr,
			"boot %d: the results sent after the last test never arrived%s%s",
			kr->boots, why[0] ? ": " : "", why);
		free(trace);
		return GIVE_UP;
	}
	crash_note(kr, bdir, t, why, trace);
	free(trace);
	resume_plan(kr, t, next);
	if (next->n && kr->boots >= MAX_BOOTS) {
		add_problem(kr, "%d boots and still tests to run: giving up",
			    kr->boots);
		plan_free(next);
		return GIVE_UP;
	}
	return RESUME;
}

static int boot_all(struct kernel_run *kr, const struct run_opts *o,
		    const char *append, struct err *e)
{
	struct plan cur = { 0 }, next = { 0 };
	enum after_boot then = BOOT_AGAIN;
	int ret = 0;

	resume_plan_all(kr, &cur);
	while (cur.n && (then == BOOT_AGAIN || then == RESUME)) {
		struct boot_result br;
		char *bdir;

		kr->boots++;
		bdir = kr->boots == 1 ?
			       xstrdup(kr->dir) :
			       xasprintf("%s/boot-%d", kr->dir, kr->boots);
		mkdir_p(bdir);
		if (boot_plan(kr, o, append, &cur, bdir, &br, e)) {
			free(bdir);
			ret = -1;
			break;
		}
		then = after_boot(kr, bdir, &br, &cur, &next);
		free(bdir);
		if (then == RESUME) {
			plan_free(&cur);
			cur = next;
			memset(&next, 0, sizeof(next));
		}
	}
	plan_free(&cur);
	return ret;
}

/* The guest seconds test @name took (its start and end uptimes), or -1. */
static double test_seconds(const struct kernel_run *kr, const char *name)
{
	char *path = xasprintf("tests/%s.time", name), *text;
	double t0, t1, s = -1;

	text = guest_text(kr, path);
	if (text && sscanf(text, "%lf %lf", &t0, &t1) == 2 && t1 >= t0)
		s = t1 - t0;
	free(text);
	free(path);
	return s;
}

/* The decisions test @name recorded (its own records.tsv). */
static void test_records(const struct kernel_run *kr, const char *name,
			 struct record_set *set)
{
	char *path = xasprintf("%s/guest/out/%s/records.tsv", kr->dir, name);
	char *buf;
	size_t len;

	if (read_file(path, &buf, &len)) {
		buf = NULL;
		len = 0;
	}
	if (records_parse(buf ? buf : "", len, set))
		die("out of memory");
	free(buf);
	free(path);
}

/*
 * How many of @t's failed cases are a known kernel bug of this kernel: a
 * listed case whose test recorded the listed wrong decision. A listed
 * case that failed otherwise stays a failure, named as such.
 */
static size_t known_cases(struct kernel_run *kr, const struct test_account *t)
{
	struct record_set recs;
	size_t i, n = 0;
	char why[600];

	if (!kr->known)
		return 0;
	test_records(kr, t->name, &recs);
	for (i = 0; i < t->doc.n_results; i++) {
		const struct ktap_result *r = &t->doc.results[i];
		char *name = xasprintf("%s/%s", t->name, r->name);

		if (known_case(kr->known, kr->names, name,
			       r->status == KTAP_FAIL, &recs, why, sizeof(why)))
			n++;
		else if (why[0])
			add_problem(kr, "%s", why);
		free(name);
	}
	records_free(&recs);
	return n;
}

/*
 * The cases of @t that brought the kernel down: a known kernel bug's, when
 * the kernel's report is its signature, count as that bug (and are kept
 * in known-crashes.tsv, for compare), the others as failures
 * (account_crash()), named.
 */
static void account_crashes(struct kernel_run *kr, struct test_account *t,
			    const struct test_fate *f, struct sbuf *crashes)
{
	char **other = xcalloc(f->n_crashed + 1, sizeof(*other));
	size_t j, n_other = 0, n_known = 0;
	char why[800];

	for (j = 0; j < f->n_crashed; j++) {
		char *name = xasprintf("%s/%s", t->name, f->crashed[j]);
		const struct known_bug *b =
			kr->known ? known_crash(kr->known, kr->names, name,
						f->traces[j], f->hows[j], why,
						sizeof(why)) :
				    NULL;

		if (b) {
			n_known++;
			sbuf_printf(crashes, "%s\t%s\tboot %d\n", name, b->name,
				    f->boots[j]);
		} else {
			other[n_other++] = f->crashed[j];
			if (kr->known && why[0])
				add_problem(kr, "boot %d: %s", f->boots[j],
					    why);
		}
		free(name);
	}
	account_crash(t, f->framed, other, n_other, f->crash_boot,
		      n_known && !n_other ? "" : f->why);
	account_known_crash(t, f->framed, n_known);
	free(other);
}

/*
 * Lines test @name wrote to its own records.tsv, samples.tsv and
 * msgcost.tsv (decisions and measurements); absent files hold none.
 */
static size_t test_output_lines(const struct kernel_run *kr, const char *name)
{
	static const char *const files[] = { "records.tsv", "samples.tsv",
					     "msgcost.tsv" };
	size_t n = 0, len, i, j;
	char *path, *buf;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		path = xasprintf("%s/guest/out/%s/%s", kr->dir, name, files[i]);
		if (!read_file(path, &buf, &len)) {
			for (j = 0; j < len; j++)
				n += buf[j] == '\n';
			free(buf);
		}
		free(path);
	}
	return n;
}

static int collect(struct kernel_run *kr, struct err *e)
{
	struct sbuf crashes = { 0 };
	char *path, *buf;
	size_t len, i;

	merge_outputs(kr, "records.tsv");
	merge_outputs(kr, "samples.tsv");
	merge_outputs(kr, "msgcost.tsv");
	/* The release first: known kernel bugs are listed per kernel. */
	kr->uname = guest_text(kr, "uname");
	chomp(kr->uname);
	kr->names = xasprintf("%s%s%s", kr->uname ? kr->uname : "",
			      kr->k.known_name ? " " : "",
			      kr->k.known_name ? kr->k.known_name : "");
	if (kr->known)
		known_reset(kr->known);
	if (collect_records(kr, e))
		return -1;
	{
		char *t0 = guest_text(kr, "uptime.start");
		char *t1 = guest_text(kr, "uptime.end");

		if (t0)
			kr->guest_boot_s = atof(t0);
		if (t0 && t1)
			kr->guest_suite_s = atof(t1) - atof(t0);
		free(t0);
		free(t1);
	}
	kr->lsm_list = guest_text(kr, "lsm");
	chomp(kr->lsm_list);
	path = xasprintf("%s/guest/features.tsv", kr->dir);
	if (read_file(path, &kr->features, NULL))
		kr->features = NULL;
	free(path);

	kr->acct = xcalloc(kr->plan.n, sizeof(*kr->acct));
	for (i = 0; i < kr->plan.n; i++) {
		struct test_account *t = &kr->acct[i];
		char *rc;

		t->name = kr->plan.items[i].name;
		t->timeout_s = kr->plan.items[i].timeout_s;
		path = xasprintf("tests/%s.rc", t->name);
		rc = guest_text(kr, path);
		t->rc = rc ? atoi(rc) : RC_NEVER;
		free(rc);
		free(path);
		t->seconds = test_seconds(kr, t->name);
		path = xasprintf("%s/guest/tests/%s.ktap", kr->dir, t->name);
		if (!read_file(path, &buf, &len)) {
			if (ktap_parse(buf, len, &t->doc))
				die("out of memory");
			t->have_ktap = true;
			free(buf);
		}
		free(path);
		if (!t->have_ktap && kr->fate[i].live) {
			if (ktap_parse(kr->fate[i].live,
				       strlen(kr->fate[i].live), &t->doc))
				die("out of memory");
			t->have_ktap = true;
		}
		if (t->have_ktap)
			t->known = known_cases(kr, t);
		/* Counted where its results arrived: a planned test records. */
		t->counted = kr->fate[i].framed;
		if (t->counted)
			t->records = test_output_lines(kr, t->name);
		account_test(t);
		account_crashes(kr, t, &kr->fate[i], &crashes);
		totals_add(&kr->totals, t);
	}
	if (crashes.len)
		write_file_at(kr->dir, "known-crashes.tsv", crashes.buf,
			      crashes.len);
	sbuf_free(&crashes);
	if (kr->known) {
		const struct known_bug *b =
			known_unreproduced(kr->known, kr->names);

		if (b)
			add_problem(
				kr,
				"known kernel bug %s no longer shows on %s (a listed case or decision behaves otherwise now): update the known bugs list",
				b->name, kr->uname);
	}
	return 0;
}

/* The top-level KTAP, as the kselftest runner prints it. */
static void write_ktap(const struct kernel_run *kr)
{
	struct sbuf sb = { 0 };
	size_t i, j;

	sbuf_printf(&sb, "TAP version 13\n1..%zu\n", kr->plan.n);
	if (kr->problems) {
		const char *p = kr->problems;

		while (*p) {
			size_t n = strcspn(p, "\n");

			sbuf_printf(&sb, "# boot problem: %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	for (i = 0; i < kr->plan.n; i++) {
		const struct test_account *t = &kr->acct[i];
		char *kpath =
			xasprintf("%s/guest/tests/%s.ktap", kr->dir, t->name);
		char *buf = NULL;

		sbuf_printf(&sb, "# selftests: %s: %s\n", kr->lsm, t->name);
		if (!read_file(kpath, &buf, NULL)) {
			char *line = buf, *nl;

			for (; *line; line = nl + 1) {
				nl = strchr(line, '\n');
				if (!nl) {
					sbuf_printf(&sb, "# %s\n", line);
					break;
				}
				sbuf_printf(&sb, "# %.*s\n", (int)(nl - line),
					    line);
			}
		}
		free(buf);
		free(kpath);
		/* The cases that brought the kernel down report nowhere else. */
		for (j = 0; j < kr->fate[i].n_crashed; j++)
			sbuf_printf(
				&sb,
				"# not ok 0 %s # brought the kernel down in boot %d\n",
				kr->fate[i].crashed[j], kr->fate[i].crash_boot);
		if (account_ok(t) && !t->pass && t->skip)
			sbuf_printf(&sb, "ok %zu selftests: %s: %s # SKIP\n",
				    i + 1, kr->lsm, t->name);
		else if (account_ok(t))
			sbuf_printf(&sb, "ok %zu selftests: %s: %s\n", i + 1,
				    kr->lsm, t->name);
		else
			sbuf_printf(&sb, "not ok %zu selftests: %s: %s%s%s\n",
				    i + 1, kr->lsm, t->name,
				    t->problem[0] ? " # " : "", t->problem);
	}
	write_file_at(kr->dir, "ktap.txt", sb.buf, sb.len);
	sbuf_free(&sb);
}

/* A decision not as expected fails the run even if a test missed it. */
static bool kernel_run_ok(const struct kernel_run *kr)
{
	const struct run_totals *t = &kr->totals;

	return !kr->problems && !t->fail && !t->lost && !t->problems &&
	       !kr->mismatches;
}

static void write_identity(const struct kernel_run *kr)
{
	const struct kernel *k = &kr->k;
	struct sbuf sb = { 0 };
	const char *const *f;

	sbuf_printf(&sb, "spec\t%s\n", k->spec.text);
	sbuf_printf(&sb, "package\t%s\n", k->package ? k->package : "-");
	sbuf_printf(&sb, "version\t%s\n", k->version ? k->version : "-");
	sbuf_printf(&sb, "release\t%s\n", k->release ? k->release : "-");
	/* compare: features are evidence only between different sources. */
	sbuf_printf(&sb, "source\t%s\n", k->source ? k->source : "-");
	sbuf_printf(&sb, "uname\t%s\n", kr->uname ? kr->uname : "-");
	/* A build: kernel's name in the known kernel bugs list. */
	sbuf_printf(&sb, "known_name\t%s\n",
		    k->known_name ? k->known_name : "-");
	sbuf_printf(&sb, "image\t%s\n", k->image);
	sbuf_printf(&sb, "image_sha256\t%s\n", k->image_sha256);
	sbuf_printf(&sb, "config_sha256\t%s\n",
		    k->config ? k->config_sha256 : "-");
	sbuf_printf(&sb, "suite\t%s\n", kr->lsm);
	sbuf_printf(&sb, "lsm\t%s\n", kr->lsm_list ? kr->lsm_list : "-");
	for (f = reported_features; *f; f++)
		sbuf_printf(&sb, "feature %s\t%s\n", *f,
			    feature_state(kr->features, *f));
	sbuf_printf(&sb, "parser\t%s\n", guest_parser_version());
	sbuf_printf(&sb, "abi\t%s\n", kr->abi ? kr->abi : "-");
	sbuf_printf(&sb, "accel\t%s\n", kr->accel_kvm ? "kvm" : "tcg");
	sbuf_printf(&sb, "qemu\t%s\n",
		    kr->qemu_cmdline ? kr->qemu_cmdline : "-");
	sbuf_printf(&sb, "boots\t%d\n", kr->boots);
	/* Seconds from QEMU's start to the first console byte, per boot. */
	sbuf_printf(&sb, "first_output_s\t%s\n",
		    kr->first_output.len ? kr->first_output.buf : "-");
	if (kr->boot_log.len) {
		const char *p = kr->boot_log.buf;
		int n = 0;

		while (*p) {
			size_t len = strcspn(p, "\n");

			sbuf_printf(&sb, "boot_ended %d\t%.*s\n", ++n, (int)len,
				    p);
			p += len + (p[len] == '\n');
		}
	}
	/* The run's PASS/FAIL, for `compare --saved` (cli/compare.c). */
	sbuf_printf(&sb, "verdict\t%s\n", kernel_run_ok(kr) ? "PASS" : "FAIL");
	write_file_at(kr->dir, "kernel.txt", sb.buf, sb.len);
	sbuf_free(&sb);
}

static const char *known_note(size_t n)
{
	static char buf[64];

	snprintf(buf, sizeof(buf), ", %zu known kernel bug%s", n,
		 n == 1 ? "" : "s");
	return buf;
}

static bool report(const struct kernel_run *kr)
{
	const struct run_totals *t = &kr->totals;
	const struct kernel *k = &kr->k;
	char *id = kernel_identity(k);
	const char *const *f;
	bool ok = kernel_run_ok(kr);
	size_t i;

	printf("== %s [%s]\n", id, kr->lsm);
	printf("   guest: uname %s; lsm %s; %s\n", kr->uname ? kr->uname : "?",
	       kr->lsm_list ? kr->lsm_list : "?", guest_parser_version());
	if (kr->abi)
		printf("   policy compiled for the pinned feature set abi/%s (--abi)\n",
		       kr->abi);
	if (kr->features) {
		printf("   features:");
		for (f = reported_features; *f; f++)
			printf(" %s=%s", *f, feature_state(kr->features, *f));
		printf("\n");
	}
	for (i = 0; i < kr->plan.n; i++) {
		const struct test_account *a = &kr->acct[i];

		char took[32] = "";

		if (a->seconds >= 0)
			snprintf(took, sizeof(took), " in %.1f s", a->seconds);
		printf("   %-24s %s: %zu pass, %zu fail, %zu skip, %zu lost%s%s%s%s\n",
		       a->name, account_ok(a) ? "ok" : "NOT OK", a->pass,
		       a->fail, a->skip, a->lost,
		       a->known ? known_note(a->known) : "",
		       a->problem[0] ? "; " : "", a->problem, took);
	}
	if (kr->boot_log.len) {
		const char *p = kr->boot_log.buf;

		while (*p) {
			size_t n = strcspn(p, "\n");

			printf("   %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	if (kr->problems) {
		const char *p = kr->problems;

		while (*p) {
			size_t n = strcspn(p, "\n");

			printf("   problem: %.*s\n", (int)n, p);
			p += n + (p[n] == '\n');
		}
	}
	if (kr->decisions)
		printf("   decisions: %zu recorded, %zu not as expected\n",
		       kr->decisions, kr->mismatches);
	for (i = 0; kr->known && i < kr->known->n; i++) {
		const struct known_bug *b = &kr->known->v[i];

		if (b->failed_cases || b->wrong_records)
			printf("   known kernel bug %s: %zu cases, %zu decisions (%s)\n",
			       b->name, b->failed_cases, b->wrong_records,
			       b->function);
	}
	printf("   totals: pass %zu, fail %zu, skip %zu, lost %zu%s -> %s\n",
	       t->pass, t->fail, t->skip, t->lost,
	       t->known ? known_note(t->known) : "", ok ? "PASS" : "FAIL");
	printf("   time: %s %.1f s, image %.1f s, boot+tests %.1f s in %d boot%s (guest: boot %.1f s, suite %.1f s)\n",
	       k->build_log ? "build" : "fetch", k->fetch_seconds, kr->image_s,
	       kr->boot_s, kr->boots, kr->boots == 1 ? "" : "s",
	       kr->guest_boot_s, kr->guest_suite_s);
	printf("   results: %s\n", kr->dir);
	fflush(stdout);
	free(id);
	return ok;
}

char *run_results_root(const char *base, struct err *e)
{
	char stamp[64];
	time_t now = time(NULL);
	char *dir, *latest;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&now));
	dir = xasprintf("%s/%s-%d", base, stamp, getpid());
	if (mkdir_p(dir)) {
		err_set(e, "cannot create %s: %s", dir, strerror(errno));
		free(dir);
		return NULL;
	}
	latest = xasprintf("%s/latest", base);
	unlink(latest);
	if (symlink(strrchr(dir, '/') + 1, latest))
		note("cannot update %s: %s", latest, strerror(errno));
	free(latest);
	return dir;
}

static char *lsm_tests_dir(const struct run_opts *o, const char *lsm)
{
	if (o->tests_dir)
		return xstrdup(o->tests_dir);
	return xasprintf("%s/%s", o->tests_root, lsm);
}

/* The LSM's own boot parameters; false for an LSM this file does not know. */
static bool lsm_boot_append(const char *lsm, const char **append)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lsm_boots); i++)
		if (!strcmp(lsm_boots[i].name, lsm)) {
			*append = lsm_boots[i].append;
			return true;
		}
	return false;
}

/*
 * The LSM's boot parameters, the pinned feature set (lsmconf.abi=, which
 * the guest's init hands to the tests), then the user's (the kernel takes
 * the last).
 */
static char *lsm_append(const struct run_opts *o, const char *own,
			const char *abi)
{
	struct sbuf sb = { 0 };

	if (own)
		sbuf_printf(&sb, "%s", own);
	if (abi)
		sbuf_printf(&sb, "%slsmconf.abi=%s", sb.len ? " " : "", abi);
	if (o->append)
		sbuf_printf(&sb, "%s%s", sb.len ? " " : "", o->append);
	return sb.buf;
}

int run_check_cmdline(const struct run_opts *o, struct err *e)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(lsm_boots); i++) {
		char *append = lsm_append(o, lsm_boots[i].append, o->abi);
		char *line = boot_cmdline(append);
		size_t len = strlen(line);

		free(line);
		free(append);
		if (len > BOOT_CMDLINE_MAX)
			return err_set(
				e,
				"--append: the kernel command line would be %zu characters (%zu of them --append); x86 takes at most %d",
				len, strlen(o->append), BOOT_CMDLINE_MAX);
	}
	return 0;
}

/* The --test names whose program is in @lsm's test directory. */
static size_t tests_here(const struct run_opts *o, const char *lsm, char **out,
			 size_t max)
{
	char *dir = lsm_tests_dir(o, lsm);
	size_t i, n = 0;

	for (i = 0; i < o->n_tests && n < max; i++) {
		char *path = xasprintf("%s/%s", dir, o->tests[i]);

		if (!strchr(o->tests[i], '/') && !access(path, X_OK))
			out[n++] = o->tests[i];
		free(path);
	}
	free(dir);
	return n;
}

int run_lsms(const struct run_opts *o, const char **out, size_t max,
	     struct err *e)
{
	char *list = xstrdup(o->lsms ? o->lsms : lsm_boots[0].name);
	char *tok, *save = NULL, *only[16];
	size_t n = 0, i, j;

	for (tok = strtok_r(list, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < ARRAY_SIZE(lsm_boots); i++)
			if (!strcmp(lsm_boots[i].name, tok))
				break;
		if (i == ARRAY_SIZE(lsm_boots)) {
			err_set(e,
				"unknown LSM %s in --lsm (known: apparmor, selinux)",
				tok);
			free(list);
			return -1;
		}
		if (o->n_tests &&
		    !tests_here(o, lsm_boots[i].name, only, ARRAY_SIZE(only)))
			continue;
		if (n < max)
			out[n++] = lsm_boots[i].name;
	}
	free(list);
	/* Every named test must run somewhere. */
	for (j = 0; j < o->n_tests; j++) {
		bool found = false;

		for (i = 0; i < n && !found; i++) {
			char *dir = lsm_tests_dir(o, out[i]);
			char *path = xasprintf("%s/%s", dir, o->tests[j]);

			found = !strchr(o->tests[j], '/') &&
				!access(path, X_OK);
			free(path);
			free(dir);
		}
		if (!found)
			return err_set(e, "no test program %s for --lsm %s",
				       o->tests[j],
				       o->lsms ? o->lsms : lsm_boots[0].name);
	}
	if (!n)
		return err_set(e, "nothing to run for --lsm %s", o->lsms);
	return n;
}

int run_kernel_lsms(const struct run_opts *o, const char *root,
		    struct kernel *k, struct kernel_boots *kb, struct err *e)
{
	struct run_opts ro = *o;
	size_t i;
	int n, ok;

	memset(kb, 0, sizeof(*kb));
	n = run_lsms(o, kb->lsm, ARRAY_SIZE(kb->lsm), e);
	if (n < 0)
		return -1;
	kb->ok = true;
	for (i = 0; i < (size_t)n; i++) {
		ro.lsm = kb->lsm[i];
		ok = run_kernel(&ro, root, k, &kb->dir[i], e);
		if (ok < 0)
			return -1;
		kb->n = i + 1;
		kb->ok &= ok;
	}
	return 0;
}

/* The records of every boot (one per LSM) of a kernel, as one set. */
void run_load_records(const struct kernel_boots *kb, struct record_set *set)
{
	struct sbuf all = { 0 };
	size_t i, len;
	char *buf;

	for (i = 0; i < kb->n; i++) {
		char *path = xasprintf("%s/records.tsv", kb->dir[i]);
		const char *body;

		/* No records at all (the guest died): its cases are one-sided. */
		if (!read_file(path, &buf, &len)) {
			/* Each file has its own header: keep only the first. */
			body = all.len && !strncmp(buf, "id\t", 3) ?
				       buf + strcspn(buf, "\n") + 1 :
				       buf;
			sbuf_printf(&all, "%s", body);
			free(buf);
		}
		free(path);
	}
	if (records_parse(all.buf ? all.buf : "", all.len, set))
		die("out of memory");
	sbuf_free(&all);
	for (i = 0; i < kb->n; i++) {
		char *path = xasprintf("%s/known.tsv", kb->dir[i]);

		if (!read_file(path, &buf, &len)) {
			records_mark_known(set, buf);
			free(buf);
		}
		free(path);
	}
}

char *run_known_crashes(const struct kernel_boots *kb)
{
	struct sbuf all = { 0 };
	size_t i;
	char *buf;

	for (i = 0; i < kb->n; i++) {
		char *path = xasprintf("%s/known-crashes.tsv", kb->dir[i]);

		if (!read_file(path, &buf, NULL)) {
			sbuf_printf(&all, "%s", buf);
			free(buf);
		}
		free(path);
	}
	return all.buf;
}

void kernel_boots_free(struct kernel_boots *kb)
{
	size_t i;

	for (i = 0; i < kb->n; i++)
		free(kb->dir[i]);
	memset(kb, 0, sizeof(*kb));
}

static void fates_free(struct kernel_run *kr)
{
	size_t i, j;

	for (i = 0; i < kr->plan.n; i++) {
		for (j = 0; j < kr->fate[i].n_crashed; j++) {
			free(kr->fate[i].crashed[j]);
			free(kr->fate[i].traces[j]);
			free(kr->fate[i].hows[j]);
		}
		free(kr->fate[i].crashed);
		free(kr->fate[i].traces);
		free(kr->fate[i].hows);
		free(kr->fate[i].boots);
		free(kr->fate[i].live);
	}
	free(kr->fate);
}

int run_kernel(const struct run_opts *o, const char *root, struct kernel *k,
	       char **dir, struct err *e)
{
	struct kernel_run kr = { 0 };
	const char *spec = k->spec.text;
	const char *lsm = o->lsm ? o->lsm : lsm_boots[0].name;
	char *name, *tests_dir, *append, *only[16];
	size_t i, n_only = tests_here(o, lsm, only, ARRAY_SIZE(only));
	const char *own;
	bool ok = false, failed;

	kr.known = o->known;
	if (!lsm_boot_append(lsm, &own))
		return err_set(e, "unknown LSM %s (known: apparmor, selinux)",
			       lsm);

	/* The caller keeps the kernel; this run borrows it. */
	kr.k = *k;
	kr.lsm = lsm;
	{
		char *s = o->dir_name ? xstrdup(o->dir_name) : safe_name(spec);

		name = xasprintf("%s-%s", s, lsm);
		free(s);
	}
	kr.dir = xasprintf("%s/%s", root, name);
	free(name);
	if (mkdir_p(kr.dir)) {
		err_set(e, "cannot create %s", kr.dir);
		free(kr.dir);
		return -1;
	}
	tests_dir = lsm_tests_dir(o, lsm);
	kr.tests_dir = tests_dir;
	if (o->n_tests && !n_only) {
		err_set(e, "none of the named tests is in %s", tests_dir);
		free(tests_dir);
		free(kr.dir);
		return -1;
	}
	if (plan_make(&kr.plan, tests_dir, only, n_only, o->args,
		      o->test_timeout_s, e)) {
		free(tests_dir);
		free(kr.dir);
		return -1;
	}
	kr.fate = xcalloc(kr.plan.n, sizeof(*kr.fate));
	/* Only AppArmor compiles policy; SELinux's is compiled on the host. */
	kr.abi = !strcmp(lsm, "apparmor") ? o->abi : NULL;
	append = lsm_append(o, own, kr.abi);

	failed = boot_all(&kr, o, append, e) || collect(&kr, e);
	if (!failed) {
		write_identity(&kr);
		write_ktap(&kr);
		ok = report(&kr);
	}

	free(tests_dir);
	free(append);
	free(kr.qemu_cmdline);
	sbuf_free(&kr.boot_log);
	sbuf_free(&kr.first_output);
	if (kr.acct)
		for (i = 0; i < kr.plan.n; i++)
			ktap_free(&kr.acct[i].doc);
	free(kr.acct);
	fates_free(&kr);
	plan_free(&kr.plan);
	free(kr.problems);
	free(kr.uname);
	free(kr.names);
	free(kr.lsm_list);
	free(kr.features);
	if (failed) {
		free(kr.dir);
		return -1;
	}
	if (dir)
		*dir = kr.dir;
	else
		free(kr.dir);
	return ok ? 1 : 0;
}
