// SPDX-License-Identifier: GPL-2.0
/*
 * msg_cost: the cost of one msgsnd + msgrcv round trip on a SysV queue
 * under SELinux, for each policy category count and sender level:
 *
 *   msg_cost [-W warmup] [-r rounds] [-n iterations] CATS:LEVEL...
 *
 * CATS picks profiles/lsmconf-cCATS.bin; LEVEL is where the sender's
 * categories are: "none" (s0), "high" (s0-s0:c0.cN, only in the high
 * level) or "low" (s0:c0.cN, in the low level too, so every message
 * carries them). One process sends and receives, so a round is pure
 * syscall path. Samples go to $LSMCONF_RESULTS/msgcost.tsv, one line per
 * round:
 *
 *   cats level round warmup iterations ns ns_per_op
 *
 * Under QEMU -icount the guest clock counts instructions, so ns_per_op
 * is instructions per round trip. The host (lsmconf msgcost) judges them.
 *
 * Every point is measured twice, the first pass only to warm up: for a
 * second or two after boot a background kernel job inflates the first
 * process's path (3x seen here at 4 categories, fading during the next
 * policy), and warm-up rounds within a point do not outlast it.
 */

#define _GNU_SOURCE
#include <sys/ipc.h>
#include <sys/msg.h>
#include <time.h>

#include "../kselftest.h"
#include "sel.h"

#define COST_TYPE "lsmconf_cost_t"
#define MSG_LEN 64

struct opts {
	int warmup, rounds, iterations;
};

struct qmsg {
	long mtype;
	char text[MSG_LEN];
};

static int level_of(const char *name, int cats, char *level, size_t size)
{
	if (!strcmp(name, "none"))
		snprintf(level, size, "s0");
	else if (!strcmp(name, "high"))
		snprintf(level, size, "s0-s0:c0.c%d", cats - 1);
	else if (!strcmp(name, "low"))
		snprintf(level, size, "s0:c0.c%d", cats - 1);
	else
		return -EINVAL;
	return 0;
}

/* Runs in the child, in the cost domain: every round, timed. */
static int measure(int cats, const char *lname, const struct opts *o,
		   bool warm_pass, int out)
{
	struct qmsg m = { .mtype = 1 };
	int id, r, i, ret = 0;

	id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (id < 0)
		return -errno;
	memset(m.text, 'm', sizeof(m.text));
	for (r = 0; r < o->warmup + o->rounds && !ret; r++) {
		long long t0 = now_ns(), ns;
		char line[160];
		int len;

		for (i = 0; i < o->iterations; i++) {
			if (msgsnd(id, &m, MSG_LEN, 0) ||
			    msgrcv(id, &m, MSG_LEN, 0, 0) != MSG_LEN) {
				ret = -errno;
				break;
			}
		}
		ns = now_ns() - t0;
		if (ret)
			break;
		len = snprintf(line, sizeof(line),
			       "%d\t%s\t%d\t%d\t%d\t%lld\t%.2f\n", cats, lname,
			       r, warm_pass || r < o->warmup, o->iterations, ns,
			       (double)ns / o->iterations);
		ret = write_all(out, line, len);
	}
	msgctl(id, IPC_RMID, NULL);
	return ret;
}

static int run_point(int cats, const char *lname, const struct opts *o,
		     bool warm_pass, int out)
{
	char level[64];
	int ret, status, err = 0, p[2];
	pid_t pid;

	if (level_of(lname, cats, level, sizeof(level)))
		return -EINVAL;
	if (pipe2(p, O_CLOEXEC))
		return -errno;
	pid = peer_fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		err = sel_enter(COST_TYPE, level);
		if (!err)
			err = measure(cats, lname, o, warm_pass, out);
		write_all(p[1], (char *)&err, sizeof(err));
		_exit(0);
	}
	close(p[1]);
	/* A round is milliseconds; a whole point well under a minute. */
	ret = pipe_read(p[0], &err, sizeof(err), 600 * 1000);
	close(p[0]);
	if (ret)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	return ret ? ret : err;
}

int main(int argc, char **argv)
{
	struct opts o = { .warmup = 3, .rounds = 10, .iterations = 2000 };
	const char *dir = getenv("LSMCONF_RESULTS"), *why;
	char path[PATH_MAX];
	int c, i, pass, out, loaded = 0, *err;

	while ((c = getopt(argc, argv, "W:r:n:")) != -1) {
		switch (c) {
		case 'W':
			o.warmup = atoi(optarg);
			break;
		case 'r':
			o.rounds = atoi(optarg);
			break;
		case 'n':
			o.iterations = atoi(optarg);
			break;
		default:
			fprintf(stderr,
				"usage: %s [-W warmup] [-r rounds] [-n iterations] CATS:LEVEL...\n",
				argv[0]);
			return KSFT_FAIL;
		}
	}
	ksft_print_header();
	if (optind >= argc || o.rounds < 2 || o.iterations < 1 || o.warmup < 0)
		ksft_exit_fail_msg(
			"want CATS:LEVEL points, >= 2 rounds, >= 1 iteration\n");
	ksft_set_plan(argc - optind);
	why = sel_unusable();
	if (why)
		ksft_exit_skip("%s\n", why);
	snprintf(path, sizeof(path), "%s/msgcost.tsv", dir ? dir : ".");
	out = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (out < 0)
		ksft_exit_fail_msg("cannot write %s: %s\n", path,
				   strerror(errno));
	err = calloc(argc, sizeof(*err));
	if (!err)
		ksft_exit_fail_msg("out of memory\n");
	for (pass = 0; pass < 2; pass++) {
		for (i = optind; i < argc; i++) {
			char lname[16];
			int cats;

			if (err[i])
				continue;
			if (sscanf(argv[i], "%d:%15s", &cats, lname) != 2 ||
			    cats < 1) {
				err[i] = -EINVAL;
				continue;
			}
			/* Consecutive points of one policy share its load. */
			err[i] = cats == loaded ? 0 : sel_load(cats);
			loaded = err[i] ? 0 : cats;
			if (!err[i] && sel_enforcing() != 1)
				err[i] = -EIO;
			if (!err[i])
				err[i] = run_point(cats, lname, &o, pass == 0,
						   out);
		}
	}
	for (i = optind; i < argc; i++) {
		if (err[i])
			ksft_test_result_fail("%s: %s\n", argv[i],
					      strerror(-err[i]));
		else
			ksft_test_result_pass("%s\n", argv[i]);
	}
	free(err);
	close(out);
	ksft_finished();
}
