// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: AppArmor policy replaced while AF_UNIX peers talk.
 *
 * A profile is replaced by loading another blob under the same name. The
 * expectations follow the unix_peer_test model: with fine-grained
 * mediation (kernel network_v9/af_unix and ABI 5.0 policy) a send_deny
 * version denies sending; otherwise its deny rule is not enforced.
 */

#define _GNU_SOURCE
#include <stdatomic.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <time.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/unix_addr.h"
#include "../lsmconf/worker.h"
#include "peer.h"

#define ABI "5.0"
#define FLIPS 16
/* Operations per phase the free-running sender must make before a flip. */
#define OPS_PER_PHASE 4
#define MAX_LIVE_OPS 65536

struct live_op {
	unsigned int seq;
	int err;
};

/* Shared between the test and its peers (MAP_SHARED). */
struct live_shared {
	atomic_int stop; /* sender: stop sending */
	atomic_int rx_stop; /* receiver: the sender is gone; drain, end */
	atomic_uint n_ops;
	struct live_op ops[MAX_LIVE_OPS];
	/* Receiver: how often each sequence number arrived intact. */
	unsigned char got[MAX_LIVE_OPS];
	atomic_uint corrupt;
};

/*
 * A replacement, placed by the sender's operation count (not by clocks:
 * under emulation a clock tick can hold many operations). Operations
 * below n_before ended before it began; those above n_after began after
 * it ended; those between overlap it.
 */
struct boundary {
	unsigned int n_before, n_after;
};

FIXTURE(live)
{
	char before[65536];
	bool fine;
	struct live_shared *sh;
	int ev_op; /* sender -> test: one per operation */
	int ev_drain; /* receiver -> sender: queue drained */
	struct sockaddr_un addr;
	socklen_t addrlen;
	struct aa_policy loaded[6];
	int n_loaded;
};

FIXTURE_VARIANT(live)
{
	int type;
	const char *type_id;
};

FIXTURE_VARIANT_ADD(live, dgram) {
	.type = SOCK_DGRAM,
	.type_id = "dgram",
};

FIXTURE_VARIANT_ADD(live, stream) {
	.type = SOCK_STREAM,
	.type_id = "stream",
};

/* Compiles @tmpl under profile name @name (so versions replace each other). */
static int live_build(struct aa_policy *p, const char *tmpl, const char *name)
{
	char tag[96];

	snprintf(tag, sizeof(tag), "%s_%s", tmpl, ABI);
	return aa_policy_build_as(p, tmpl, ABI, NULL, tag, name);
}

/* Loads @tmpl as profile @name; remembered for removal at teardown. */
static int live_load(FIXTURE_DATA(live) * self, const char *tmpl,
		     const char *name)
{
	struct aa_policy p;
	int ret = live_build(&p, tmpl, name), i;

	if (ret)
		return ret;
	ret = aa_policy_load(&p);
	if (ret)
		return ret;
	for (i = 0; i < self->n_loaded; i++)
		if (!strcmp(self->loaded[i].name, p.name))
			return 0;
	self->loaded[self->n_loaded++] = p;
	return 0;
}

FIXTURE_SETUP(live)
{
	REQUIRE_APPARMOR(_metadata, true);
	ASSERT_LE(0, aa_remove_leftovers());
	ASSERT_LE(0, aa_profile_list(self->before, sizeof(self->before)));
	/* The model of unix_peer_test: fine only with both sides' support. */
	self->fine = aa_policy_feature("network_v9/af_unix") == 1;
	self->sh = mmap(NULL, sizeof(*self->sh), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, self->sh);
	self->ev_op = eventfd(0, EFD_CLOEXEC);
	self->ev_drain = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ASSERT_LE(0, self->ev_op);
	ASSERT_LE(0, self->ev_drain);
	self->addrlen = unix_abstract(&self->addr, "lsmconf-live-%d", getpid());
}

FIXTURE_TEARDOWN(live)
{
	int i;

	for (i = 0; i < self->n_loaded; i++) {
		/* Removal scenarios remove their own: -ENOENT is fine. */
		int ret = aa_profile_remove(self->loaded[i].name);

		EXPECT_TRUE(ret == 0 || ret == -ENOENT);
	}
	if (self->before[0])
		EXPECT_PROFILES_AS_BEFORE(self->before);
}

static void enter(const char *change, const char *stack)
{
	char name[160];

	if (change) {
		snprintf(name, sizeof(name), AA_TEST_PREFIX "%s", change);
		if (aa_change_profile(name))
			_exit(100);
	}
	if (stack) {
		snprintf(name, sizeof(name), AA_TEST_PREFIX "%s", stack);
		if (aa_stack_profile(name))
			_exit(101);
	}
}

/*
 * A sending child enters its label, then makes its datagram socket (or
 * -errno: a denied socket() is its operations' decision); -1 for a
 * stream, whose every operation is a new connection (live_send).
 */
static int enter_sender(const char *change, const char *stack, int type)
{
	int fd;

	enter(change, stack);
	if (type != SOCK_DGRAM)
		return -1;
	fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	return fd < 0 ? -errno : fd;
}

/* One sender operation: a datagram, or a new connection carrying one. */
static int live_send(int type, int dfd, const struct sockaddr_un *to,
		     socklen_t tolen, unsigned int seq)
{
	struct payload p;
	int fd, ret;

	payload_make(&p, seq);
	/* A datagram socket() that was denied: its -errno. */
	if (type == SOCK_DGRAM && dfd < 0)
		return dfd;
	if (type == SOCK_DGRAM)
		return sys_ret(sendto(dfd, &p, sizeof(p), MSG_DONTWAIT,
				      (void *)to, tolen));
	/* A stream is checked at connect, never per message. */
	fd = socket(AF_UNIX, type, 0);
	if (fd < 0)
		return -errno;
	set_timeouts(fd);
	ret = sys_ret(connect(fd, (void *)to, tolen));
	if (!ret)
		ret = sys_ret(send(fd, &p, sizeof(p), MSG_DONTWAIT));
	close(fd);
	return ret;
}

/* Sends until told to stop, logging every operation's outcome and times. */
static void sender_loop(FIXTURE_DATA(live) * self, int type, const char *change,
			const char *stack)
{
	struct pollfd pfd = { .fd = self->ev_drain, .events = POLLIN };
	uint64_t one = 1, drained;
	unsigned int seq = 0;
	int dfd = -1;

	enter(change, stack);
	while (!atomic_load(&self->sh->stop) && seq < MAX_LIVE_OPS) {
		struct live_op *op = &self->sh->ops[seq];

		op->seq = seq;
		/*
		 * A denied socket() is this operation's decision (a kernel
		 * may mediate creation instead of sending); the next one
		 * tries again, so a flip back to allow is seen.
		 */
		if (type == SOCK_DGRAM && dfd < 0) {
			dfd = socket(AF_UNIX, SOCK_DGRAM, 0);
			if (dfd < 0)
				dfd = -errno;
			else
				set_timeouts(dfd);
		}
		op->err = live_send(type, dfd, &self->addr, self->addrlen, seq);
		/* A full receive queue is back-pressure, not a decision. */
		if (op->err == -EAGAIN) {
			if (poll(&pfd, 1, PEER_WAIT_MS) <= 0)
				_exit(103);
			if (read(self->ev_drain, &drained, sizeof(drained)) < 0)
				_exit(104);
			continue;
		}
		seq++;
		atomic_store(&self->sh->n_ops, seq);
		if (write(self->ev_op, &one, sizeof(one)) < 0)
			_exit(105);
	}
	_exit(0);
}

/* Receives until told to stop, counting every sequence number once. */
static void receiver_loop(FIXTURE_DATA(live) * self, int type,
			  const char *change)
{
	uint64_t one = 1;
	int fd;

	enter(change, NULL);
	fd = socket(AF_UNIX, type, 0);
	if (fd < 0 || bind(fd, (void *)&self->addr, self->addrlen))
		_exit(110);
	if (type != SOCK_DGRAM && listen(fd, 64))
		_exit(111);
	/* Take what is there; never wait in accept() or recv(). */
	fcntl(fd, F_SETFL, O_NONBLOCK);
	if (write(self->ev_drain, &one, sizeof(one)) < 0)
		_exit(112);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		int stop = atomic_load(&self->sh->rx_stop);

		if (poll(&pfd, 1, stop ? 0 : 20) < 0 && errno != EINTR)
			_exit(113);
		for (;;) {
			struct payload p;
			int cfd = fd;
			ssize_t n;

			if (type != SOCK_DGRAM) {
				cfd = accept4(fd, NULL, NULL, 0);
				if (cfd < 0)
					break;
				/* Bounded by SO_RCVTIMEO; the sender writes
				 * right after it connects.
				 */
				set_timeouts(cfd);
				n = recv(cfd, &p, sizeof(p), MSG_WAITALL);
				close(cfd);
			} else {
				n = recv(fd, &p, sizeof(p), MSG_DONTWAIT);
				if (n < 0)
					break;
			}
			if (n == sizeof(p) && payload_ok(&p) &&
			    p.seq < MAX_LIVE_OPS)
				self->sh->got[p.seq]++;
			else if (n != 0)
				atomic_fetch_add(&self->sh->corrupt, 1);
		}
		if (write(self->ev_drain, &one, sizeof(one)) < 0)
			_exit(114);
		if (stop)
			_exit(0);
	}
}

/* Forks the receiver (in @change, or unconfined); its pid, or -1. */
static pid_t receiver_start(FIXTURE_DATA(live) * self, int type,
			    const char *change)
{
	pid_t pid = peer_fork();

	if (pid == 0)
		receiver_loop(self, type, change);
	return pid;
}

/*
 * Waits until the sender has made @more operations that began after this
 * call: the one in progress now is not counted.
 */
static int wait_ops(FIXTURE_DATA(live) * self, unsigned int more)
{
	struct pollfd pfd = { .fd = self->ev_op, .events = POLLIN };
	unsigned int target = atomic_load(&self->sh->n_ops) + 1 + more;
	uint64_t n;

	while (atomic_load(&self->sh->n_ops) < target) {
		if (poll(&pfd, 1, PEER_WAIT_MS) <= 0)
			return -ETIMEDOUT;
		if (read(self->ev_op, &n, sizeof(n)) < 0)
			return -errno;
	}
	return 0;
}

/* Stops the sender, then lets the receiver take the rest and end. */
static void stop_peers(struct __test_metadata *_metadata,
		       FIXTURE_DATA(live) * self, pid_t spid, pid_t rpid)
{
	atomic_store(&self->sh->stop, 1);
	if (spid > 0)
		EXPECT_EQ(0, peer_reap(spid));
	atomic_store(&self->sh->rx_stop, 1);
	if (rpid > 0)
		EXPECT_EQ(0, peer_reap(rpid));
}

/* judge_flips()'s summary of a scenario, one line. */
#define LIVE_SUMMARY \
	"%s: %u operations, %d replacements, %d mismatches, %d flaps, %d lost, %d duplicated, %u corrupt"

static int wait_ready(FIXTURE_DATA(live) * self)
{
	struct pollfd pfd = { .fd = self->ev_drain, .events = POLLIN };
	uint64_t n;

	if (poll(&pfd, 1, PEER_WAIT_MS) <= 0)
		return -ETIMEDOUT;
	return read(self->ev_drain, &n, sizeof(n)) < 0 ? -errno : 0;
}

/* One decision: its op names the phase or the step of the case. */
static void live_judge(struct __test_metadata *_metadata,
		       const FIXTURE_VARIANT(live) * v, bool fine,
		       const char *what, const char *sender,
		       const char *receiver, int expected, int observed)
{
	const char *depends =
		fine ? "network_v9/af_unix=yes" : "network_v9/af_unix=no";
	struct record rec = {
		.abi = ABI,
		.subject = sender,
		.object = receiver,
		.class = v->type_id,
		.detail = "abstract",
		.op = what,
		.depends = depends,
		.expected = expected,
		.observed = observed,
	};

	JUDGE(&rec);
}

/*
 * Free-running flips: judges every logged operation against the phase it
 * ran in. An operation overlapping a replacement is "in flight": either
 * outcome is right, but within one boundary the outcomes may switch from
 * the old policy's to the new one's only once.
 */
static void judge_flips(struct __test_metadata *_metadata,
			FIXTURE_DATA(live) * self,
			const FIXTURE_VARIANT(live) * variant,
			const char *scenario, const struct boundary *b, int nb,
			int (*expect)(bool fine, int phase), const char *sender,
			const char *receiver)
{
	unsigned int n = atomic_load(&self->sh->n_ops), i;
	int in_flight[FLIPS] = { 0 }, switched[FLIPS] = { 0 };
	int allowed[FLIPS + 1] = { 0 }, denied[FLIPS + 1] = { 0 };
	int first_err[FLIPS + 1], judged[FLIPS + 1] = { 0 };
	int mismatch = 0, flaps = 0, lost = 0, dup = 0, k;
	int want[FLIPS + 1];

	for (k = 0; k <= nb; k++) {
		want[k] = expect(self->fine, k);
		first_err[k] = NOT_RUN;
	}
	for (i = 0; i < n; i++) {
		const struct live_op *op = &self->sh->ops[i];
		int phase = 0, flight = -1;

		/*
		 * n_ops counts finished operations and the sender starts
		 * operation n right after n_ops becomes n: so operation i
		 * ended before a count of more than i was read, and began
		 * after a count below i was.
		 */
		for (k = 0; k < nb; k++) {
			if (i > b[k].n_after)
				phase = k + 1;
			else if (i >= b[k].n_before)
				flight = k;
		}
		if (flight >= 0) {
			/*
			 * Overlapping a replacement: the old policy's outcome
			 * until the switch, the new one's after it, once.
			 */
			in_flight[flight]++;
			if (op->err == want[flight + 1] &&
			    op->err != want[flight])
				switched[flight] = 1;
			else if (op->err != want[flight] ||
				 (switched[flight] &&
				  want[flight] != want[flight + 1])) {
				flaps++;
				TH_LOG("%s op %u during replacement %d: %s %s (old %s, new %s)",
				       scenario, i, flight,
				       outcome_name(op->err),
				       "after the switch",
				       outcome_name(want[flight]),
				       outcome_name(want[flight + 1]));
			}
		} else {
			op->err ? denied[phase]++ : allowed[phase]++;
			if (!judged[phase]++)
				first_err[phase] = op->err;
			if (op->err != want[phase]) {
				mismatch++;
				TH_LOG("%s op %u in phase %d: expected %s, observed %s",
				       scenario, i, phase,
				       outcome_name(want[phase]),
				       outcome_name(op->err));
			}
		}
		/* Allowed means delivered once; denied means never. */
		if (!op->err && self->sh->got[i] != 1)
			self->sh->got[i] ? dup++ : lost++;
		if (op->err && self->sh->got[i])
			dup++;
	}
	for (k = 0; k <= nb; k++)
		TH_LOG("%s phase %d (%s): %d allowed, %d denied; then %d %s",
		       scenario, k, outcome_name(want[k]), allowed[k],
		       denied[k], k < nb ? in_flight[k] : 0,
		       "in flight during the replacement");
	TH_LOG(LIVE_SUMMARY, scenario, n, nb, mismatch, flaps, lost, dup,
	       atomic_load(&self->sh->corrupt));
	EXPECT_EQ(FLIPS, nb);
	EXPECT_EQ(0, mismatch);
	EXPECT_EQ(0, flaps);
	EXPECT_EQ(0, lost);
	EXPECT_EQ(0, dup);
	EXPECT_EQ(0, atomic_load(&self->sh->corrupt));
	/* One record per phase: the outcome its operations had. */
	for (k = 0; k <= nb; k++) {
		char what[32];

		EXPECT_LT(0, judged[k]);
		snprintf(what, sizeof(what), "phase_%02d", k);
		live_judge(_metadata, variant, self->fine, what, sender,
			   receiver, want[k],
			   allowed[k] && denied[k] ? -EPROTO : first_err[k]);
	}
}

/* Phases alternate allow, deny, allow...: deny denies only when fine. */
static int sender_flip_expect(bool fine, int phase)
{
	return phase % 2 && fine ? -EACCES : 0;
}

/* The sender denies every send itself, whatever the receiver's phase. */
static int fixed_deny_expect(bool fine, int phase)
{
	(void)phase;
	return fine ? -EACCES : 0;
}

static void
run_flips(struct __test_metadata *_metadata, FIXTURE_DATA(live) * self,
	  const FIXTURE_VARIANT(live) * variant, const char *scenario,
	  const char *s_change, const char *r_change, const char *flip_name,
	  int (*expect)(bool, int), const char *sender, const char *receiver)
{
	struct aa_policy ver[2];
	struct boundary b[FLIPS];
	pid_t rpid, spid;
	int k;

	ASSERT_EQ(0, live_build(&ver[0], "allow", flip_name));
	ASSERT_EQ(0,
		  live_build(&ver[1],
			     flip_name[0] == 'r' ? "receive_deny" : "send_deny",
			     flip_name));
	rpid = receiver_start(self, variant->type, r_change);
	ASSERT_LE(0, rpid);
	ASSERT_EQ(0, wait_ready(self));
	spid = peer_fork();
	ASSERT_LE(0, spid);
	if (spid == 0)
		sender_loop(self, variant->type, s_change, NULL);
	for (k = 0; k < FLIPS; k++) {
		ASSERT_EQ(0, wait_ops(self, OPS_PER_PHASE));
		b[k].n_before = atomic_load(&self->sh->n_ops);
		/* Phase k+1 runs version (k+1) % 2 of the flipping profile. */
		ASSERT_EQ(0, aa_policy_load(&ver[(k + 1) % 2]));
		b[k].n_after = atomic_load(&self->sh->n_ops);
	}
	ASSERT_EQ(0, wait_ops(self, OPS_PER_PHASE));
	stop_peers(_metadata, self, spid, rpid);
	judge_flips(_metadata, self, variant, scenario, b, FLIPS, expect,
		    sender, receiver);
}

/* 1. The sender's profile flips allow <-> send_deny while it sends. */
TEST_F_TIMEOUT(live, sender_flips, 60)
{
	ASSERT_EQ(0, live_load(self, "allow", "live_sender"));
	run_flips(_metadata, self, variant, "sender_flips", "live_sender", NULL,
		  "live_sender", sender_flip_expect, "live_sender",
		  "unconfined");
}

/* 2. A sender that denies sending, while the receiver's profile flips. */
TEST_F_TIMEOUT(live, receiver_flips_sender_denied, 60)
{
	ASSERT_EQ(0, live_load(self, "send_deny", "live_fixed_deny"));
	ASSERT_EQ(0, live_load(self, "allow", "live_rx"));
	run_flips(_metadata, self, variant, "receiver_flips", "live_fixed_deny",
		  "live_rx", "live_rx", fixed_deny_expect, "live_fixed_deny",
		  "live_rx");
}

/* fixed_phases' sender: a fresh process per operation. */
struct one_tx {
	int type;
	const char *change, *stack;
	const struct sockaddr_un *to;
	socklen_t tolen;
};

/* Its one request (the sequence number): enter, make a socket, send. */
static void one_tx_serve(const void *req, void *rep, void *state)
{
	const struct one_tx *tx = state;
	int dfd = enter_sender(tx->change, tx->stack, tx->type);

	*(int *)rep = live_send(tx->type, dfd, tx->to, tx->tolen,
				*(const unsigned int *)req);
}

/*
 * One operation from a fresh process and socket, after the policy of a
 * phase is in: its outcome, or -ETIMEDOUT / -EPIPE from a sender that
 * never answered.
 */
static int one_op(FIXTURE_DATA(live) * self, int type, const char *change,
		  const char *stack, unsigned int seq)
{
	struct one_tx tx = { type, change, stack, &self->addr, self->addrlen };
	struct worker w = { 0 };
	int err, ret;

	ret = worker_start(&w, sizeof(seq), sizeof(err), one_tx_serve, &tx);
	if (ret)
		return ret;
	ret = worker_run(&w, &seq, &err);
	worker_stop(&w);
	return ret ? ret : err;
}

/*
 * 6. Fixed phases: replace, then exactly one operation from a new process
 * and socket (serial replacement followed by socket recreation); plain and
 * with the flipping profile stacked under a fixed allow profile.
 */
static void fixed_phases(struct __test_metadata *_metadata,
			 FIXTURE_DATA(live) * self,
			 const FIXTURE_VARIANT(live) * variant,
			 const char *scenario, const char *change,
			 const char *stack, const char *flip)
{
	struct aa_policy ver[2];
	pid_t rpid;
	int k;

	ASSERT_EQ(0, live_build(&ver[0], "allow", flip));
	ASSERT_EQ(0, live_build(&ver[1], "send_deny", flip));
	rpid = receiver_start(self, variant->type, NULL);
	ASSERT_LE(0, rpid);
	ASSERT_EQ(0, wait_ready(self));
	for (k = 0; k <= FLIPS; k++) {
		char what[32];
		int want = sender_flip_expect(self->fine, k), got;

		ASSERT_EQ(0, aa_policy_load(&ver[k % 2]));
		got = one_op(self, variant->type, change, stack, k);
		snprintf(what, sizeof(what), "phase_%02d", k);
		live_judge(_metadata, variant, self->fine, what,
			   stack ? "live_base//&live_stacked" : flip,
			   "unconfined", want, got);
	}
	stop_peers(_metadata, self, -1, rpid);
	for (k = 0; k <= FLIPS; k++)
		EXPECT_EQ(sender_flip_expect(self->fine, k) ? 0 : 1,
			  self->sh->got[k]);
}

TEST_F_TIMEOUT(live, fixed_phase_sender, 60)
{
	ASSERT_EQ(0, live_load(self, "allow", "live_phase"));
	fixed_phases(_metadata, self, variant, "fixed_phase", "live_phase",
		     NULL, "live_phase");
}

/* 4. Stacked labels replaced live: allow//&X where X flips. */
TEST_F_TIMEOUT(live, fixed_phase_stacked, 60)
{
	ASSERT_EQ(0, live_load(self, "allow", "live_base"));
	ASSERT_EQ(0, live_load(self, "allow", "live_stacked"));
	fixed_phases(_metadata, self, variant, "fixed_phase_stacked",
		     "live_base", "live_stacked", "live_stacked");
}

/*
 * first_send's sender: it must send before it reads its command (a read
 * may refresh its label), which the generic worker (worker.h), reading
 * each request before serving it, cannot do. One-byte commands on a
 * pipe; bounded waits.
 */
struct agent {
	pid_t pid;
	int cmd[2], rep[2];
};

static int agent_start(struct agent *a)
{
	if (pipe2(a->cmd, O_CLOEXEC) || pipe2(a->rep, O_CLOEXEC))
		return -errno;
	a->pid = peer_fork();
	if (a->pid < 0)
		return -errno;
	return 0;
}

static char agent_next(struct agent *a)
{
	char c = 'q';

	if (pipe_read(a->cmd[0], &c, 1, PEER_WAIT_MS))
		return 'q';
	return c;
}

/* Waits for a command without taking it: poll() has no LSM hook. */
static bool agent_wait(struct agent *a)
{
	struct pollfd pfd = { .fd = a->cmd[0], .events = POLLIN };

	return poll(&pfd, 1, PEER_WAIT_MS) > 0;
}

/* Sends command @c and reads the int the agent answers with. */
static int agent_ask(struct agent *a, char c, int *answer)
{
	int ret = pipe_write(a->cmd[1], &c, 1);

	if (ret)
		return ret;
	return pipe_read(a->rep[0], answer, sizeof(*answer), PEER_WAIT_MS);
}

static int listen_on(int type, const struct sockaddr_un *addr, socklen_t len)
{
	int fd = socket(AF_UNIX, type, 0);

	if (fd < 0)
		return -errno;
	if (bind(fd, (void *)addr, len) ||
	    (type != SOCK_DGRAM && listen(fd, 8)))
		return -errno;
	return fd;
}

/*
 * revocation's receiver, in live_revoke: request 'a' binds the socket
 * made before the update, 'b' one made after it; the reply is its fd or
 * -errno. It holds both open until the worker stops.
 */
struct revoke_rx {
	int type;
	struct sockaddr_un addr[2];
	socklen_t len[2];
	int fd[2];
	bool entered;
};

static void revoke_rx_serve(const void *req, void *rep, void *state)
{
	struct revoke_rx *rx = state;
	int i = *(const char *)req == 'b';

	if (!rx->entered) {
		enter("live_revoke", NULL);
		rx->entered = true;
	}
	rx->fd[i] = listen_on(rx->type, &rx->addr[i], rx->len[i]);
	*(int *)rep = rx->fd[i];
}

/*
 * 3. Revocation audit. The receiver's profile is replaced by a
 * receive_deny version while its socket exists. A socket keeps the label
 * it was created with (unix_may_send and the stream connect check use the
 * label stored on the socket, not the newest version of its profile), so
 * delivery to the existing socket is not revoked; a socket created after
 * the update carries the new version and, when fine, refuses. A connected
 * stream is never checked per message.
 */
TEST_F_TIMEOUT(live, revocation, 60)
{
	struct sockaddr_un addr2 = self->addr;
	socklen_t len2 = self->addrlen;
	struct aa_policy deny;
	struct revoke_rx rx;
	struct worker w = { 0 };
	struct payload p;
	int ready, ret, want, sfd, fd2;

	ASSERT_EQ(0, live_load(self, "allow", "live_revoke"));
	ASSERT_EQ(0, live_build(&deny, "receive_deny", "live_revoke"));
	/* A second name: the first byte after the leading NUL changes. */
	addr2.sun_path[1] ^= 1;

	rx = (struct revoke_rx){ .type = variant->type,
				 .addr = { self->addr, addr2 },
				 .len = { self->addrlen, len2 },
				 .fd = { -1, -1 } };
	ASSERT_EQ(0, worker_start(&w, 1, sizeof(int), revoke_rx_serve, &rx));
	ASSERT_EQ(0, worker_run(&w, "a", &ready));
	ASSERT_LE(0, ready);

	/* Before the update: allowed; a stream connects now and stays. */
	sfd = socket(AF_UNIX, variant->type, 0);
	ASSERT_LE(0, sfd);
	ASSERT_EQ(0, set_timeouts(sfd));
	payload_make(&p, 0);
	if (variant->type == SOCK_DGRAM)
		ret = sys_ret(sendto(sfd, &p, sizeof(p), MSG_DONTWAIT,
				     (void *)&self->addr, self->addrlen));
	else
		ret = sys_ret(connect(sfd, (void *)&self->addr, self->addrlen));
	live_judge(_metadata, variant, self->fine, "before_update",
		   "unconfined", "live_revoke", 0, ret);
	ASSERT_EQ(0, aa_policy_load(&deny));

	/* The existing socket after the update: not revoked. */
	payload_make(&p, 1);
	if (variant->type == SOCK_DGRAM)
		ret = sys_ret(sendto(sfd, &p, sizeof(p), MSG_DONTWAIT,
				     (void *)&self->addr, self->addrlen));
	else
		ret = sys_ret(send(sfd, &p, sizeof(p), MSG_DONTWAIT));
	TH_LOG("revocation: delivery through the existing socket %s",
	       ret ? "revoked" : "not revoked");
	live_judge(_metadata, variant, self->fine, "existing_socket",
		   "unconfined", "live_revoke", 0, ret);

	/* A socket the receiver creates after the update. */
	ASSERT_EQ(0, worker_run(&w, "b", &ready));
	ASSERT_LE(0, ready);
	if (variant->type == SOCK_DGRAM) {
		ret = sys_ret(sendto(sfd, &p, sizeof(p), MSG_DONTWAIT,
				     (void *)&addr2, len2));
	} else {
		fd2 = socket(AF_UNIX, variant->type, 0);
		set_timeouts(fd2);
		ret = sys_ret(connect(fd2, (void *)&addr2, len2));
		close(fd2);
	}
	want = self->fine ? -EACCES : 0;
	TH_LOG("revocation: a socket created after the update is %s",
	       ret ? "denied" : "allowed");
	live_judge(_metadata, variant, self->fine, "new_socket", "unconfined",
		   "live_revoke", want, ret);
	/* The receiver held its sockets open until now. */
	worker_stop(&w);
	close(sfd);
}

/*
 * removal's sender, in live_removed from its first request on (its
 * datagram socket made then): each request is one send, answered with
 * its outcome.
 */
struct removal_tx {
	int type, dfd;
	struct sockaddr_un to;
	socklen_t tolen;
	unsigned int seq;
	bool entered;
};

static void removal_tx_serve(const void *req, void *rep, void *state)
{
	struct removal_tx *tx = state;

	(void)req;
	if (!tx->entered) {
		tx->dfd = enter_sender("live_removed", NULL, tx->type);
		tx->entered = true;
	}
	*(int *)rep =
		live_send(tx->type, tx->dfd, &tx->to, tx->tolen, tx->seq++);
}

/*
 * 5. Profile removal while a confined task sends: a removed profile's
 * label is replaced by its namespace's unconfined label, so the same task
 * (same socket, for datagrams) stops being denied.
 */
TEST_F_TIMEOUT(live, removal, 60)
{
	struct removal_tx tx;
	struct worker w = { 0 };
	struct aa_policy p;
	pid_t rpid;
	int before, after, want;

	ASSERT_EQ(0, live_build(&p, "send_deny", "live_removed"));
	ASSERT_EQ(0, aa_policy_load(&p));
	self->loaded[self->n_loaded++] = p;
	rpid = receiver_start(self, variant->type, NULL);
	ASSERT_LE(0, rpid);
	ASSERT_EQ(0, wait_ready(self));
	tx = (struct removal_tx){ .type = variant->type,
				  .to = self->addr,
				  .tolen = self->addrlen };
	ASSERT_EQ(0, worker_start(&w, 1, sizeof(int), removal_tx_serve, &tx));
	ASSERT_EQ(0, worker_run(&w, "s", &before));
	want = self->fine ? -EACCES : 0;
	live_judge(_metadata, variant, self->fine, "before_removal",
		   "live_removed", "unconfined", want, before);
	ASSERT_EQ(0, aa_profile_remove(p.name));
	ASSERT_EQ(0, worker_run(&w, "s", &after));
	live_judge(_metadata, variant, self->fine, "after_removal",
		   "live_removed", "unconfined", 0, after);
	worker_stop(&w);
	stop_peers(_metadata, self, -1, rpid);
	/* The allowed send arrived; the denied one never did. */
	EXPECT_EQ(before ? 0 : 1, self->sh->got[0]);
	EXPECT_EQ(1, self->sh->got[1]);
}

/*
 * 7. The first send after a replacement, from a task that made no other
 * system call since. A replacement leaves the task's cred pointing at the
 * old label version; a hook may refresh it (the cred is updated on the way
 * back to user space), but every decision must already use the newest
 * version. The sender sleeps in poll() (which has no LSM hook) with its
 * socket made beforehand, and sends as soon as it wakes: no read or write
 * comes first to refresh its label. Phases alternate allow, send_deny.
 */
TEST_F_TIMEOUT(live, first_send, 60)
{
	struct aa_policy ver[2];
	struct agent tx;
	pid_t rpid;
	int k;

	ASSERT_EQ(0, live_load(self, "allow", "live_first"));
	ASSERT_EQ(0, live_build(&ver[0], "allow", "live_first"));
	ASSERT_EQ(0, live_build(&ver[1], "send_deny", "live_first"));
	rpid = receiver_start(self, variant->type, NULL);
	ASSERT_LE(0, rpid);
	ASSERT_EQ(0, wait_ready(self));
	ASSERT_EQ(0, agent_start(&tx));
	if (tx.pid == 0) {
		int dfd = enter_sender("live_first", NULL, variant->type);
		unsigned int seq = 0;

		/* Send first, take the command after. */
		while (agent_wait(&tx)) {
			int err = live_send(variant->type, dfd, &self->addr,
					    self->addrlen, seq++);

			if (agent_next(&tx) != 's')
				break;
			pipe_write(tx.rep[1], &err, sizeof(err));
		}
		_exit(0);
	}
	for (k = 0; k <= FLIPS; k++) {
		int want = sender_flip_expect(self->fine, k), got = NOT_RUN;
		char what[32];

		ASSERT_EQ(0, aa_policy_load(&ver[k % 2]));
		ASSERT_EQ(0, agent_ask(&tx, 's', &got));
		snprintf(what, sizeof(what), "phase_%02d", k);
		live_judge(_metadata, variant, self->fine, what, "live_first",
			   "unconfined", want, got);
	}
	/* Its last send goes out before it reads 'q'. */
	pipe_write(tx.cmd[1], "q", 1);
	stop_peers(_metadata, self, tx.pid, rpid);
	for (k = 0; k <= FLIPS; k++)
		EXPECT_EQ(sender_flip_expect(self->fine, k) ? 0 : 1,
			  self->sh->got[k]);
}

LSM_HARNESS_MAIN
