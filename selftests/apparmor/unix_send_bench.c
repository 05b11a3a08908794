// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AF_UNIX datagram send cost. A benchmark, not a test: it times
 * only the send calls (sendmmsg, or io_uring submit-and-wait of SENDs);
 * draining and payload checks happen outside the timed interval, and
 * every payload is checked. Samples go to $LSMCONF_RESULTS/samples.tsv,
 * one line per round; KTAP says whether each point ran cleanly.
 *
 *   unix_send_bench [-i INVOCATIONS] [-W WARMUP] [-r ROUNDS] [-n MESSAGES]
 *                   [-P PROBE_MESSAGES [-C]] POINT...
 *                                 (POINT: WORKLOAD:CONFINEMENT)
 * -P: after every point's timed rounds, an untimed path probe per point
 * (path_probe.h) writes calls and instructions per function to probe.tsv;
 * -C: calls only.
 * -K: the kernel's text symbols to ksyms.txt, for the host's instruction
 * profile of the measured rounds (insn_profile.h).
 * WORKLOAD: socketpair, twoproc, uring, and the connection workloads of
 * bench_workloads.h: stream, streamcred, tcpSIZE, udpSIZE (SIZE 64 to
 * 16384); CONFINEMENT: none, sender, receiver, both, stacked, and inet
 * (tcp and udp only: both processes under explicit network inet rules).
 */

#define _GNU_SOURCE
#include <liburing.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <time.h>

#include "../kselftest.h"
#include "bench_workloads.h"
#include "peer.h"
#include "insn_profile.h"
#include "path_probe.h"

#define BATCH 32
#define MSG_SIZE 128
#define QLEN "64"

struct opts {
	int invocations, warmup, rounds, messages;
};

struct point {
	char workload[16], confinement[16];
	int index; /* among the points: its insn_mark() windows */
};

static void fill(char (*buf)[MSG_SIZE], unsigned int first)
{
	int i;

	for (i = 0; i < BATCH; i++) {
		memset(buf[i], 0, MSG_SIZE);
		memcpy(buf[i], &(unsigned int){ first + i },
		       sizeof(unsigned int));
		memset(buf[i] + 4, 'a' + (first + i) % 26, MSG_SIZE - 4);
	}
}

/* Receives one batch and checks every payload; 0 or -errno/-EBADMSG. */
static int drain_batch(int fd, unsigned int first)
{
	char buf[MSG_SIZE];
	int i, j;

	for (i = 0; i < BATCH; i++) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);
		unsigned int seq;

		if (n < 0)
			return -errno;
		memcpy(&seq, buf, sizeof(seq));
		if (n != MSG_SIZE || seq != first + i)
			return -EBADMSG;
		for (j = 4; j < MSG_SIZE; j++)
			if (buf[j] != 'a' + (char)((first + i) % 26))
				return -EBADMSG;
	}
	return 0;
}

static int send_batch(int fd, char (*buf)[MSG_SIZE], long long *ns)
{
	struct mmsghdr mm[BATCH];
	struct iovec iov[BATCH];
	long long t0;
	int i, n;

	memset(mm, 0, sizeof(mm));
	for (i = 0; i < BATCH; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = MSG_SIZE;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now_ns();
	n = sendmmsg(fd, mm, BATCH, 0);
	*ns += now_ns() - t0;
	if (n < 0)
		return -errno;
	return n == BATCH ? 0 : -EMSGSIZE;
}

static int uring_batch(struct io_uring *ring, int fd, char (*buf)[MSG_SIZE],
		       long long *ns)
{
	struct io_uring_cqe *cqe;
	long long t0;
	int i, ret = 0;

	for (i = 0; i < BATCH; i++)
		io_uring_prep_send(io_uring_get_sqe(ring), fd, buf[i], MSG_SIZE,
				   0);
	t0 = now_ns();
	i = io_uring_submit_and_wait(ring, BATCH);
	*ns += now_ns() - t0;
	if (i < 0)
		return i;
	for (i = 0; i < BATCH; i++) {
		if (io_uring_wait_cqe(ring, &cqe))
			return -EIO;
		if (cqe->res != MSG_SIZE && !ret)
			ret = cqe->res < 0 ? cqe->res : -EMSGSIZE;
		io_uring_cqe_seen(ring, cqe);
	}
	return ret;
}

static void enter_label(const char *confinement, bool sender)
{
	bool confine = !strcmp(confinement, "both") ||
		       !strcmp(confinement, "stacked") ||
		       !strcmp(confinement, sender ? "sender" : "receiver");

	/* Seed 003: explicit "network inet" rules, for both processes. */
	if (!strcmp(confinement, "inet")) {
		if (aa_change_profile(AA_TEST_PREFIX "bench_inet"))
			_exit(92);
		return;
	}
	if (!confine)
		return;
	if (aa_change_profile(AA_TEST_PREFIX "bench_allow"))
		_exit(90);
	if (sender && !strcmp(confinement, "stacked") &&
	    aa_stack_profile(AA_TEST_PREFIX "bench_stacked"))
		_exit(91);
}

static void write_sample(const struct point *p, int inv, int round, bool warm,
			 int messages, long long ns)
{
	const char *dir = getenv("LSMCONF_RESULTS");
	char path[PATH_MAX], line[256];
	int fd, len;

	/* The boot warm-up invocation (inv < 0) is not a sample. */
	if (!dir || inv < 0)
		return;
	snprintf(path, sizeof(path), "%s/samples.tsv", dir);
	len = snprintf(line, sizeof(line), "%s:%s\t%d\t%d\t%d\t%d\t%lld\n",
		       p->workload, p->confinement, inv, round, warm, messages,
		       ns);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0) {
		write_all(fd, line, len);
		close(fd);
	}
}

/* The receiving process of twoproc: drains batches, credits the sender. */
static void receiver(int fd, int credit, int rounds_total, int batches)
{
	uint64_t one = 1;
	int r, b;

	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	sched_setaffinity(0, sizeof(set), &set);
	for (r = 0; r < rounds_total; r++)
		for (b = 0; b < batches; b++) {
			if (drain_batch(fd, (unsigned int)b * BATCH))
				_exit(80);
			if (write(credit, &one, sizeof(one)) != sizeof(one))
				_exit(81);
		}
	_exit(0);
}

/*
 * One invocation of a connection workload (bench_workloads.h): the
 * receiver on CPU 1, the sender on CPU 0, in lockstep batch by batch.
 */
static int wl_invocation(const struct point *p, const struct opts *o, int inv,
			 const struct wl *w)
{
	static char buf[WL_BATCH_BYTES + WL_MAX_SIZE];
	int batches = o->messages / w->batch, total = o->warmup + o->rounds;
	int go = eventfd(0, EFD_CLOEXEC), credit = eventfd(0, EFD_CLOEXEC);
	int fd, r, b, i, ret = 0;
	char name[64];
	cpu_set_t set;
	uint64_t port;
	pid_t rpid;

	if (!batches)
		batches = 1;
	snprintf(name, sizeof(name), "lsmconf-bench-%d", getpid());
	rpid = peer_fork();
	if (rpid == 0) {
		CPU_ZERO(&set);
		CPU_SET(1, &set);
		sched_setaffinity(0, sizeof(set), &set);
		enter_label(p->confinement, false);
		wl_receiver(w, go, credit, total * batches, name);
	}
	if (rpid < 0 || wl_take(credit, &port))
		return -EIO;
	enter_label(p->confinement, true);
	fd = wl_connect(w, (unsigned int)port, name);
	if (fd < 0)
		return fd;
	/* Connected; ready: accepted, and SO_PASSCRED set for streamcred. */
	if (wl_post(go, 1) || wl_take(credit, &port))
		return -EIO;
	for (r = 0; r < total && !ret; r++) {
		bool marked = inv >= 0 && r >= o->warmup;
		long long ns = 0;

		if (marked)
			insn_mark(p->index, false);
		for (b = 0; b < batches && !ret; b++) {
			unsigned int first = (unsigned int)(b * w->batch);

			for (i = 0; i < w->batch; i++)
				wl_fill(buf + (size_t)i * w->size, w->size,
					first + i);
			ret = wl_send_batch(fd, w, buf, &ns);
			/* Outside the timed interval: post, wait for credit. */
			if (!ret)
				ret = wl_post(go, first + 1);
			if (!ret)
				ret = wl_take(credit, &port);
		}
		if (marked)
			insn_mark(p->index, true);
		if (!ret)
			write_sample(p, inv, r, r < o->warmup,
				     batches * w->batch, ns);
	}
	if (peer_reap(rpid))
		ret = ret ? ret : -ECHILD;
	return ret;
}

/* One invocation: a fresh process runs warm-up and measured rounds. */
static int invocation(const struct point *p, const struct opts *o, int inv)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char buf[BATCH][MSG_SIZE];
	int batches = o->messages / BATCH, total = o->warmup + o->rounds;
	int sv[2], credit = -1, r, b, ret = 0, rfd = -1;
	bool two = !strcmp(p->workload, "twoproc");
	struct io_uring ring;
	socklen_t len;
	pid_t rpid = -1;
	cpu_set_t set;
	struct wl w;

	ret = wl_parse(p->workload, &w);
	if (ret != -ENOENT)
		return ret ? ret : wl_invocation(p, o, inv, &w);
	ret = 0;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	if (two) {
		/* Connected abstract datagram sockets, one per process. */
		snprintf(sun.sun_path + 1, sizeof(sun.sun_path) - 1,
			 "lsmconf-bench-%d", getpid());
		len = offsetof(struct sockaddr_un, sun_path) + 1 +
		      strlen(sun.sun_path + 1);
		credit = eventfd(0, EFD_CLOEXEC);
		rpid = peer_fork();
		if (rpid == 0) {
			int fd;

			enter_label(p->confinement, false);
			fd = socket(AF_UNIX, SOCK_DGRAM, 0);
			if (fd < 0 || bind(fd, (void *)&sun, len))
				_exit(82);
			if (write(credit, &(uint64_t){ 1 }, 8) != 8)
				_exit(83);
			receiver(fd, credit, total, batches);
		}
		/* Ready: the receiver's socket is bound. */
		if (read(credit, &(uint64_t){ 0 }, 8) != 8)
			return -EIO;
	}
	enter_label(p->confinement, true);
	if (two) {
		sv[0] = socket(AF_UNIX, SOCK_DGRAM, 0);
		if (sv[0] < 0 || connect(sv[0], (void *)&sun, len))
			return -errno;
	} else {
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
			return -errno;
		rfd = sv[1];
	}
	if (!strcmp(p->workload, "uring")) {
		ret = io_uring_queue_init(BATCH, &ring, 0);
		if (ret)
			return ret;
	}
	for (r = 0; r < total && !ret; r++) {
		bool marked = inv >= 0 && r >= o->warmup;
		long long ns = 0;

		if (marked)
			insn_mark(p->index, false);
		for (b = 0; b < batches && !ret; b++) {
			fill(buf, (unsigned int)b * BATCH);
			if (!strcmp(p->workload, "uring"))
				ret = uring_batch(&ring, sv[0], buf, &ns);
			else
				ret = send_batch(sv[0], buf, &ns);
			/* Outside the timed interval: drain or wait. */
			if (!ret && two &&
			    read(credit, &(uint64_t){ 0 }, 8) != 8)
				ret = -EIO;
			if (!ret && !two)
				ret = drain_batch(rfd, (unsigned int)b * BATCH);
		}
		if (marked)
			insn_mark(p->index, true);
		if (!ret)
			write_sample(p, inv, r, r < o->warmup, batches * BATCH,
				     ns);
	}
	if (rpid > 0 && peer_reap(rpid))
		ret = ret ? ret : -ECHILD;
	return ret;
}

static int load(struct aa_policy *p, const char *name)
{
	int ret =
		aa_policy_build_as(p, "allow", "5.0", NULL, "allow_5.0", name);

	return ret ? ret : aa_policy_load(p);
}

#define MAX_SETTLE 20

/* The kernel's clocksource is still the early TSC one. */
static bool early_clocksource(void)
{
	char buf[32];

	return read_text(
		       "/sys/devices/system/clocksource/clocksource0/current_clocksource",
		       buf, sizeof(buf)) > 0 &&
	       !strcmp(buf, "tsc-early\n");
}

/* The path probe's run: an untimed invocation (inv -1: no samples). */
static struct opts probe_opts;
static bool probe_calls_only;

static int probe_run(const void *ctx, int rounds)
{
	struct opts o = probe_opts;
	pid_t pid = peer_fork();
	int status;

	o.warmup = 0;
	o.rounds = rounds;
	if (pid == 0)
		_exit(-invocation(ctx, &o, -1));
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -ECHILD;
	return -WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	struct opts o = {
		.invocations = 3, .warmup = 3, .rounds = 15, .messages = 65536
	};
	struct aa_policy pol[3];
	int c, i, inv, failed = 0, fd, *rets;
	bool confined = false, inet = false, inet_label = false, ksyms = false;

	while ((c = getopt(argc, argv, "i:W:r:n:P:CK")) != -1) {
		int v = c == 'C' || c == 'K' ? 1 : atoi(optarg);

		if (v < (c == 'W' || c == 'P' ? 0 : 1)) {
			fprintf(stderr, "bad -%c %s\n", c, optarg);
			return 2;
		}
		if (c == 'i')
			o.invocations = v;
		else if (c == 'W')
			o.warmup = v;
		else if (c == 'r')
			o.rounds = v;
		else if (c == 'n')
			o.messages = v - v % BATCH;
		else if (c == 'P')
			probe_opts.messages = v - v % BATCH;
		else if (c == 'C')
			probe_calls_only = true;
		else if (c == 'K')
			ksyms = true;
		else
			return 2;
	}
	ksft_print_header();
	ksft_set_plan(argc - optind);
	if (ksyms) {
		const char *dir = getenv("LSMCONF_RESULTS");
		char path[PATH_MAX];
		int ret;

		snprintf(path, sizeof(path), "%s/ksyms.txt", dir ? dir : ".");
		ret = insn_write_ksyms(path);
		if (ret)
			ksft_exit_fail_msg("-K: cannot write %s: %s\n", path,
					   strerror(-ret));
	}
	for (i = optind; i < argc; i++) {
		confined |= !strstr(argv[i], ":none");
		inet |= !strncmp(argv[i], "tcp", 3) ||
			!strncmp(argv[i], "udp", 3);
		inet_label |= strstr(argv[i], ":inet") != NULL;
	}
	if (confined) {
		if (!policy_load_allowed() || lsm_is_active("apparmor") != 1)
			ksft_exit_skip(
				"confined points need AppArmor and " ALLOW_POLICY_ENV
				"=1\n");
		if (load(&pol[0], "bench_allow") ||
		    load(&pol[1], "bench_stacked"))
			ksft_exit_fail_msg("cannot load the bench profiles\n");
	}
	/* Only runs with an inet point load its label. */
	if (inet_label &&
	    (aa_policy_build_as(&pol[2], "bench_inet", "5.0", NULL,
				"bench_inet_5.0", "bench_inet") ||
	     aa_policy_load(&pol[2])))
		ksft_exit_fail_msg("cannot load the bench_inet profile\n");
	if (inet && wl_loopback_up())
		ksft_exit_fail_msg("cannot bring lo up\n");
	/* Batches of 32 must fit a datagram queue: raise its length. */
	fd = open("/proc/sys/net/unix/max_dgram_qlen", O_WRONLY);
	if (fd < 0 || write(fd, QLEN, strlen(QLEN)) < 0)
		ksft_exit_fail_msg("cannot raise net.unix.max_dgram_qlen\n");
	close(fd);

	/*
	 * The first benchmark process after boot runs slower for a while:
	 * untimed invocations of the first point absorb that. One, and more
	 * while the kernel still runs on its early TSC clocksource: it
	 * switches to the refined one about a second of guest time after
	 * boot, and the messages before that cost about 1% more here (at
	 * most MAX_SETTLE invocations).
	 */
	if (optind < argc) {
		struct opts warm = o;
		struct point p = { 0 };
		int n = 0;

		warm.warmup = 0;
		warm.rounds = o.warmup ? o.warmup : 1;
		if (sscanf(argv[optind], "%15[a-z0-9]:%15[a-z]", p.workload,
			   p.confinement) != 2)
			n = MAX_SETTLE;
		for (; n < MAX_SETTLE && (!n || early_clocksource()); n++) {
			pid_t pid = peer_fork();

			if (pid == 0)
				_exit(-invocation(&p, &warm, -1));
			if (pid < 0 || waitpid(pid, NULL, 0) < 0)
				break;
		}
		if (early_clocksource())
			ksft_print_msg(
				"still on the early clocksource after %d warm-up invocations\n",
				n);
	}
	rets = calloc(argc, sizeof(*rets));
	if (!rets)
		ksft_exit_fail_msg("out of memory\n");
	for (i = optind; i < argc; i++) {
		struct point p = { 0 };

		if (sscanf(argv[i], "%15[a-z0-9]:%15[a-z]", p.workload,
			   p.confinement) != 2) {
			rets[i] =
				1; /* not a point: no invocation returns > 0 */
			continue;
		}
		p.index = i - optind;
		for (inv = 0; inv < o.invocations && !rets[i]; inv++) {
			pid_t pid = peer_fork();
			int status;

			if (pid == 0)
				_exit(-invocation(&p, &o, inv));
			if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
				rets[i] = -ECHILD;
			else
				rets[i] = -WEXITSTATUS(status);
		}
	}
	/*
	 * The probes after every point's timed rounds (path_probe.h: its
	 * events stay from the first probe to path_probe_end()).
	 */
	for (i = optind; i < argc && probe_opts.messages; i++) {
		struct point p = { 0 };

		if (!rets[i] && sscanf(argv[i], "%15[a-z0-9]:%15[a-z]",
				       p.workload, p.confinement) == 2)
			path_probe_point(argv[i], probe_opts.messages,
					 !probe_calls_only, probe_run, &p);
	}
	path_probe_end();
	for (i = optind; i < argc; i++) {
		if (rets[i] > 0) {
			ksft_test_result_fail("%s: not WORKLOAD:CONFINEMENT\n",
					      argv[i]);
			failed++;
		} else if (rets[i]) {
			ksft_test_result_fail("%s: %s\n", argv[i],
					      strerror(-rets[i]));
			failed++;
		} else {
			ksft_test_result_pass("%s\n", argv[i]);
		}
	}
	free(rets);
	if (confined) {
		aa_policy_destroy(&pol[0]);
		aa_policy_destroy(&pol[1]);
	}
	if (inet_label)
		aa_policy_destroy(&pol[2]);
	if (failed)
		ksft_exit_fail();
	ksft_exit_pass();
}
