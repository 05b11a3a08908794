// SPDX-License-Identifier: GPL-2.0
/*
 * SELinux System V IPC beyond msgsnd/msgrcv (msgq_test): semaphores, shared
 * memory and message queue control between two domains. An owner creates
 * the object (so it carries the owner's type), then the owner and another
 * process each run every operation on it; each domain lacks at most one
 * permission, and every call's outcome is computed from the table of which
 * permission it needs (rules[] below, one hook per row). A second fixture
 * sends to a receiver that is already asleep in msgrcv(): ipc/msg.c
 * pipelined_send() hands the message over only when the receiver task may
 * receive it.
 */

#define _GNU_SOURCE
#include <sched.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "sel.h"
#include "../lsmconf/judge.h"
#include "../lsmconf/worker.h"

#define LEVEL "s0"
#define POLICY_CATS 4
#define SEG_SIZE 4096
/* The default msgmnb: an IPC_SET that keeps the queue's size. */
#define QBYTES 16384

enum cls { SEM, SHM, MSGQ, N_CLS };

static const char *const cls_names[N_CLS] = { "sem", "shm", "msgq" };

enum op {
	OP_CREATE,
	OP_GET,
	OP_STAT,
	OP_STAT_ANY, /* SEM_STAT_ANY, SHM_STAT_ANY, MSG_STAT_ANY */
	OP_SET,
	OP_IPC_INFO,
	OP_INFO, /* SEM_INFO, SHM_INFO, MSG_INFO */
	OP_RMID,
	OP_GETVAL,
	OP_GETPID,
	OP_SETVAL,
	OP_WAIT0,
	OP_ALTER,
	OP_AT_RO,
	OP_AT_RW,
	OP_LOCK,
	OP_UNLOCK,
	OP_SND,
	OP_RCV,
	N_OPS
};

/*
 * What each call needs (security/selinux/hooks.c, ipc/{sem,shm,msg,util}.c).
 * @ipcperm: ipcperms() -> selinux_ipc_permission(): S_IRUGO asks unix_read,
 * S_IWUGO unix_write, in one check on the object, before the hook; a call
 * that goes through ipcctl_obtain_check() (IPC_SET, IPC_RMID) or the
 * lock, info and STAT_ANY paths asks none. @perms: the hook's check on the
 * object (both in one avc_has_perm when there are two). @queue: a check
 * whose subject is the message, which takes the queue's type, so the
 * owner's permission. @kernel: the hook checks "system" on the kernel SID
 * instead. Denials are EACCES, but for msgrcv's per-message check
 * (@enomsg): see [MSGQ][OP_RCV] below. A removed object's id is EINVAL
 * (ipc_obtain_object_check()) whatever the permissions.
 */
struct rule {
	const char *hook;
	const char *ipcperm[2];
	const char *perms[3];
	const char *queue;
	bool kernel;
	bool enomsg;
};

#define INFO_RULE(h)                                               \
	{                                                          \
		.hook = h, .perms = { "ipc_info" }, .kernel = true \
	}

/* clang-format off */
static const struct rule rules[N_CLS][N_OPS] = {
	[SEM] = {
		[OP_CREATE] = { "selinux_sem_alloc_security", {}, { "create" } },
		/* semget(key, 0, 0): ipcperms(flag 0) asks nothing. */
		[OP_GET] = { "selinux_sem_associate", {}, { "associate" } },
		/* semctl_stat() calls ipcperms(S_IRUGO) for IPC_STAT only. */
		[OP_STAT] = { "selinux_sem_semctl IPC_STAT", { "unix_read" },
			      { "getattr", "associate" } },
		/* SEM_STAT_ANY: no ipcperms(), the hook only. */
		[OP_STAT_ANY] = { "selinux_sem_semctl SEM_STAT_ANY", {},
				  { "getattr", "associate" } },
		[OP_SET] = { "selinux_sem_semctl IPC_SET", {}, { "setattr" } },
		[OP_IPC_INFO] = INFO_RULE("selinux_sem_semctl IPC_INFO"),
		[OP_INFO] = INFO_RULE("selinux_sem_semctl SEM_INFO"),
		[OP_RMID] = { "selinux_sem_semctl IPC_RMID", {}, { "destroy" } },
		/* semctl_main(): ipcperms(S_IRUGO) but for SETALL. */
		[OP_GETVAL] = { "selinux_sem_semctl GETVAL", { "unix_read" },
				{ "read" } },
		[OP_GETPID] = { "selinux_sem_semctl GETPID", { "unix_read" },
				{ "getattr" } },
		/* semctl_setval(): ipcperms(S_IWUGO). */
		[OP_SETVAL] = { "selinux_sem_semctl SETVAL", { "unix_write" },
				{ "write" } },
		/* do_semtimedop(): ipcperms(alter ? S_IWUGO : S_IRUGO). */
		[OP_WAIT0] = { "selinux_sem_semop !alter", { "unix_read" },
			       { "read" } },
		[OP_ALTER] = { "selinux_sem_semop alter", { "unix_write" },
			       { "read", "write" } },
	},
	[SHM] = {
		[OP_CREATE] = { "selinux_shm_alloc_security", {}, { "create" } },
		[OP_GET] = { "selinux_shm_associate", {}, { "associate" } },
		[OP_STAT] = { "selinux_shm_shmctl IPC_STAT", { "unix_read" },
			      { "getattr", "associate" } },
		[OP_STAT_ANY] = { "selinux_shm_shmctl SHM_STAT_ANY", {},
				  { "getattr", "associate" } },
		[OP_SET] = { "selinux_shm_shmctl IPC_SET", {}, { "setattr" } },
		[OP_IPC_INFO] = INFO_RULE("selinux_shm_shmctl IPC_INFO"),
		[OP_INFO] = INFO_RULE("selinux_shm_shmctl SHM_INFO"),
		[OP_RMID] = { "selinux_shm_shmctl IPC_RMID", {}, { "destroy" } },
		/* do_shmat(): ipcperms(S_IRUGO [| S_IWUGO]) first. */
		[OP_AT_RO] = { "selinux_shm_shmat SHM_RDONLY", { "unix_read" },
			       { "read" } },
		[OP_AT_RW] = { "selinux_shm_shmat", { "unix_read", "unix_write" },
			       { "read", "write" } },
		/* shmctl_do_lock(): the hook before any capability check. */
		[OP_LOCK] = { "selinux_shm_shmctl SHM_LOCK", {}, { "lock" } },
		[OP_UNLOCK] = { "selinux_shm_shmctl SHM_UNLOCK", {}, { "lock" } },
	},
	[MSGQ] = {
		[OP_CREATE] = { "selinux_msg_queue_alloc_security", {},
				{ "create" } },
		[OP_GET] = { "selinux_msg_queue_associate", {}, { "associate" } },
		[OP_STAT] = { "selinux_msg_queue_msgctl IPC_STAT", { "unix_read" },
			      { "getattr", "associate" } },
		[OP_STAT_ANY] = { "selinux_msg_queue_msgctl MSG_STAT_ANY", {},
				  { "getattr", "associate" } },
		[OP_SET] = { "selinux_msg_queue_msgctl IPC_SET", {},
			     { "setattr" } },
		[OP_IPC_INFO] = INFO_RULE("selinux_msg_queue_msgctl IPC_INFO"),
		[OP_INFO] = INFO_RULE("selinux_msg_queue_msgctl MSG_INFO"),
		[OP_RMID] = { "selinux_msg_queue_msgctl IPC_RMID", {},
			      { "destroy" } },
		/* do_msgsnd(): ipcperms(S_IWUGO), then write, send, enqueue. */
		[OP_SND] = { "selinux_msg_queue_msgsnd", { "unix_write" },
			     { "write", "send" }, .queue = "enqueue" },
		/*
		 * do_msgrcv(): ipcperms(S_IRUGO) fails the call; find_msg()
		 * then passes over every message selinux_msg_queue_msgrcv()
		 * refuses as if it were of another type, so a receiver lacking
		 * read or receive finds nothing: ENOMSG with IPC_NOWAIT.
		 */
		[OP_RCV] = { "selinux_msg_queue_msgrcv", { "unix_read" },
			     { "read", "receive" }, .enomsg = true },
	},
};
/* clang-format on */

/*
 * A case's script: who runs which call, in order. 'o' the owner, 'p' the
 * other process; '1' and '2' the two IPC_RMID attempts: first the side
 * whose domain lacks destroy (so that its denial shows; the other one when
 * none does), then the other side, which finds the object gone (EINVAL)
 * when the first removed it.
 */
struct step {
	char side;
	enum op op;
	long arg; /* msgsnd: mtype; msgrcv: msgtyp */
	int flags; /* msgrcv: MSG_EXCEPT */
	const char *name;
};

/* clang-format off */
#define MAX_STEPS 32

static const struct step scripts[N_CLS][MAX_STEPS] = {
	[SEM] = {
		{ 'o', OP_CREATE, 0, 0, "semget_create" },
		{ 'o', OP_GET, 0, 0, "semget" },
		{ 'o', OP_STAT, 0, 0, "semctl_ipc_stat" },
		{ 'o', OP_STAT_ANY, 0, 0, "semctl_sem_stat_any" },
		{ 'o', OP_GETVAL, 0, 0, "semctl_getval" },
		{ 'o', OP_GETPID, 0, 0, "semctl_getpid" },
		{ 'o', OP_SETVAL, 0, 0, "semctl_setval" },
		{ 'o', OP_WAIT0, 0, 0, "semop_wait_zero" },
		{ 'o', OP_ALTER, 0, 0, "semop_alter" },
		{ 'o', OP_SET, 0, 0, "semctl_ipc_set" },
		{ 'o', OP_IPC_INFO, 0, 0, "semctl_ipc_info" },
		{ 'o', OP_INFO, 0, 0, "semctl_sem_info" },
		{ 'p', OP_GET, 0, 0, "semget" },
		{ 'p', OP_STAT, 0, 0, "semctl_ipc_stat" },
		{ 'p', OP_STAT_ANY, 0, 0, "semctl_sem_stat_any" },
		{ 'p', OP_GETVAL, 0, 0, "semctl_getval" },
		{ 'p', OP_GETPID, 0, 0, "semctl_getpid" },
		{ 'p', OP_SETVAL, 0, 0, "semctl_setval" },
		{ 'p', OP_WAIT0, 0, 0, "semop_wait_zero" },
		{ 'p', OP_ALTER, 0, 0, "semop_alter" },
		{ 'p', OP_SET, 0, 0, "semctl_ipc_set" },
		{ 'p', OP_IPC_INFO, 0, 0, "semctl_ipc_info" },
		{ 'p', OP_INFO, 0, 0, "semctl_sem_info" },
		{ '1', OP_RMID, 0, 0, "semctl_ipc_rmid_1" },
		{ '2', OP_RMID, 0, 0, "semctl_ipc_rmid_2" },
	},
	[SHM] = {
		{ 'o', OP_CREATE, 0, 0, "shmget_create" },
		{ 'o', OP_GET, 0, 0, "shmget" },
		{ 'o', OP_STAT, 0, 0, "shmctl_ipc_stat" },
		{ 'o', OP_STAT_ANY, 0, 0, "shmctl_shm_stat_any" },
		{ 'o', OP_AT_RO, 0, 0, "shmat_rdonly" },
		{ 'o', OP_AT_RW, 0, 0, "shmat_rdwr" },
		{ 'o', OP_LOCK, 0, 0, "shmctl_shm_lock" },
		{ 'o', OP_UNLOCK, 0, 0, "shmctl_shm_unlock" },
		{ 'o', OP_SET, 0, 0, "shmctl_ipc_set" },
		{ 'o', OP_IPC_INFO, 0, 0, "shmctl_ipc_info" },
		{ 'o', OP_INFO, 0, 0, "shmctl_shm_info" },
		{ 'p', OP_GET, 0, 0, "shmget" },
		{ 'p', OP_STAT, 0, 0, "shmctl_ipc_stat" },
		{ 'p', OP_STAT_ANY, 0, 0, "shmctl_shm_stat_any" },
		{ 'p', OP_AT_RO, 0, 0, "shmat_rdonly" },
		{ 'p', OP_AT_RW, 0, 0, "shmat_rdwr" },
		{ 'p', OP_LOCK, 0, 0, "shmctl_shm_lock" },
		{ 'p', OP_UNLOCK, 0, 0, "shmctl_shm_unlock" },
		{ 'p', OP_SET, 0, 0, "shmctl_ipc_set" },
		{ 'p', OP_IPC_INFO, 0, 0, "shmctl_ipc_info" },
		{ 'p', OP_INFO, 0, 0, "shmctl_shm_info" },
		{ '1', OP_RMID, 0, 0, "shmctl_ipc_rmid_1" },
		{ '2', OP_RMID, 0, 0, "shmctl_ipc_rmid_2" },
	},
	/*
	 * Four messages of types 3, 1, 2, 1 (the last from the owner), then
	 * msgrcv by type 2, by -2 (the first of the lowest type <= 2), with
	 * MSG_EXCEPT 1, by 0 (the first one), and by 0 again on what is
	 * left: with every permission that last one finds the queue empty.
	 */
	[MSGQ] = {
		{ 'o', OP_CREATE, 0, 0, "msgget_create" },
		{ 'o', OP_GET, 0, 0, "msgget" },
		{ 'o', OP_STAT, 0, 0, "msgctl_ipc_stat" },
		{ 'o', OP_STAT_ANY, 0, 0, "msgctl_msg_stat_any" },
		{ 'o', OP_SET, 0, 0, "msgctl_ipc_set" },
		{ 'o', OP_IPC_INFO, 0, 0, "msgctl_ipc_info" },
		{ 'o', OP_INFO, 0, 0, "msgctl_msg_info" },
		{ 'p', OP_GET, 0, 0, "msgget" },
		{ 'p', OP_STAT, 0, 0, "msgctl_ipc_stat" },
		{ 'p', OP_STAT_ANY, 0, 0, "msgctl_msg_stat_any" },
		{ 'p', OP_SET, 0, 0, "msgctl_ipc_set" },
		{ 'p', OP_IPC_INFO, 0, 0, "msgctl_ipc_info" },
		{ 'p', OP_INFO, 0, 0, "msgctl_msg_info" },
		{ 'p', OP_SND, 3, 0, "msgsnd_1_type_3" },
		{ 'p', OP_SND, 1, 0, "msgsnd_2_type_1" },
		{ 'p', OP_SND, 2, 0, "msgsnd_3_type_2" },
		{ 'o', OP_SND, 1, 0, "msgsnd_4_type_1" },
		{ 'o', OP_RCV, 2, 0, "msgrcv_type_2" },
		{ 'o', OP_RCV, -2, 0, "msgrcv_type_minus_2" },
		{ 'p', OP_RCV, 1, MSG_EXCEPT, "msgrcv_except_1" },
		{ 'p', OP_RCV, 0, 0, "msgrcv_type_0" },
		{ 'o', OP_RCV, 0, 0, "msgrcv_type_0_again" },
		{ '1', OP_RMID, 0, 0, "msgctl_ipc_rmid_1" },
		{ '2', OP_RMID, 0, 0, "msgctl_ipc_rmid_2" },
	},
};
/* clang-format on */

struct roles {
	const char *owner;
	const char *other;
	char first; /* the side that tries IPC_RMID first */
};

/* 'o' or 'p': who runs a step (the removers resolved). */
static char side_of(const struct roles *r, char side)
{
	if (side == '1')
		return r->first;
	if (side == '2')
		return r->first == 'o' ? 'p' : 'o';
	return side;
}

static const char *subject_of(const struct roles *r, char side)
{
	return side_of(r, side) == 'o' ? r->owner : r->other;
}

/* The message text a send step puts in the queue. */
static void msg_text(const struct step *st, char *buf, size_t size)
{
	snprintf(buf, size, "lsmconf %s", st->name);
}

/* ipc/msg.c testmsg(): does a message of @mtype match this msgrcv? */
static bool type_matches(long mtype, long want, int flags)
{
	if (!want)
		return true;
	if (want < 0)
		return mtype <= -want;
	if (flags & MSG_EXCEPT)
		return mtype != want;
	return mtype == want;
}

/*
 * The queue the model keeps: the send steps whose message is still in it,
 * in order. find_msg(): the first match, but for a negative type the first
 * one of the lowest type <= -type.
 */
static int model_pick(const struct step *script, const int *queue, int n,
		      long want, int flags)
{
	int i, best = -1;

	for (i = 0; i < n; i++) {
		long t = script[queue[i]].arg;

		if (!type_matches(t, want, flags))
			continue;
		if (want >= 0)
			return i;
		if (best < 0 || t < script[queue[best]].arg)
			best = i;
	}
	return best;
}

/* The denial a missing permission gives this step, or 0. */
static int step_denial(enum cls cls, const struct step *st, const char *subject,
		       const char *owner)
{
	const struct rule *r = &rules[cls][st->op];
	int i;

	for (i = 0; i < 2 && r->ipcperm[i]; i++)
		if (sel_domain_lacks(subject, r->ipcperm[i]))
			return -EACCES;
	for (i = 0; i < 3 && r->perms[i]; i++)
		if (sel_domain_lacks(subject, r->perms[i]))
			return r->enomsg ? -ENOMSG : -EACCES;
	if (r->queue && sel_domain_lacks(owner, r->queue))
		return -EACCES;
	return 0;
}

/*
 * Every step's expected outcome; @want_msg[i] is the send step whose
 * message receive step i must return (-1 for none). Nothing runs once the
 * object could not be created.
 */
static void expect_case(enum cls cls, const struct roles *ro,
			int expected[MAX_STEPS], int want_msg[MAX_STEPS])
{
	const struct step *script = scripts[cls];
	int queue[MAX_STEPS], n = 0, i, j;
	bool created = false, removed = false;

	for (i = 0; script[i].name; i++) {
		const struct step *st = &script[i];
		const char *subject = subject_of(ro, st->side);
		int err;

		want_msg[i] = -1;
		if (st->op != OP_CREATE && !created) {
			expected[i] = NOT_RUN;
			continue;
		}
		/* ipc_obtain_object_check(): a removed id is EINVAL. */
		if (removed && !rules[cls][st->op].kernel)
			err = -EINVAL;
		else
			err = step_denial(cls, st, subject, ro->owner);
		if (st->op == OP_CREATE)
			created = !err;
		if (st->op == OP_RMID && !err)
			removed = true;
		if (st->op == OP_SND && !err)
			queue[n++] = i;
		if (st->op == OP_RCV && !err) {
			j = model_pick(script, queue, n, st->arg, st->flags);
			if (j < 0) {
				err = -ENOMSG;
			} else {
				want_msg[i] = queue[j];
				memmove(&queue[j], &queue[j + 1],
					(n - j - 1) * sizeof(queue[0]));
				n--;
			}
		}
		expected[i] = err;
	}
}

/*
 * *_STAT_ANY take the index, not the id: ipcid_to_idx(), the id modulo
 * IPCMNI (1 << 15 unless booted with ipcmni_extend).
 */
#define IPC_INDEX(id) ((id) & ((1 << 15) - 1))

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
	struct seminfo *__buf;
};

struct request {
	int step;
	int id;
	key_t key;
};

struct reply {
	int err;
	int id;
	key_t key;
	long mtype;
	char text[64];
};

/* A fresh object under a key no one else uses (the key is per class). */
static int create_obj(enum cls cls, struct reply *rp)
{
	int i, id = -1;

	for (i = 0; i < 64; i++) {
		rp->key = (key_t)(0x4c490000 | (cls << 16) |
				  ((getpid() + i * 7919) & 0xffff));
		if (cls == SEM)
			id = semget(rp->key, 2, IPC_CREAT | IPC_EXCL | 0600);
		else if (cls == SHM)
			id = shmget(rp->key, SEG_SIZE,
				    IPC_CREAT | IPC_EXCL | 0600);
		else
			id = msgget(rp->key, IPC_CREAT | IPC_EXCL | 0600);
		if (id >= 0 || errno != EEXIST)
			break;
	}
	rp->id = id;
	return sys_ret(id);
}

static int attach(int id, int flags)
{
	char *p = shmat(id, NULL, flags);

	if (p == (void *)-1)
		return -errno;
	if (!(flags & SHM_RDONLY))
		p[0] = 'w';
	return shmdt(p) ? -errno : 0;
}

static int run_sem(enum op op, int id, key_t key)
{
	struct sembuf wait0 = { .sem_num = 1,
				.sem_op = 0,
				.sem_flg = IPC_NOWAIT };
	struct sembuf alter = { .sem_num = 0,
				.sem_op = 1,
				.sem_flg = IPC_NOWAIT };
	struct semid_ds ds = { 0 };
	struct seminfo si;
	union semun arg = { .buf = &ds };

	switch (op) {
	case OP_GET:
		return sys_ret(semget(key, 0, 0));
	case OP_STAT:
		return sys_ret(semctl(id, 0, IPC_STAT, arg));
	case OP_STAT_ANY:
		return sys_ret(semctl(IPC_INDEX(id), 0, SEM_STAT_ANY, arg));
	case OP_SET:
		ds.sem_perm.uid = geteuid();
		ds.sem_perm.gid = getegid();
		ds.sem_perm.mode = 0600;
		return sys_ret(semctl(id, 0, IPC_SET, arg));
	case OP_IPC_INFO:
	case OP_INFO:
		arg.__buf = &si;
		return sys_ret(
			semctl(0, 0, op == OP_INFO ? SEM_INFO : IPC_INFO, arg));
	case OP_RMID:
		return sys_ret(semctl(id, 0, IPC_RMID));
	case OP_GETVAL:
		return sys_ret(semctl(id, 0, GETVAL));
	case OP_GETPID:
		return sys_ret(semctl(id, 0, GETPID));
	case OP_SETVAL:
		arg.val = 1;
		return sys_ret(semctl(id, 0, SETVAL, arg));
	case OP_WAIT0:
		return sys_ret(semop(id, &wait0, 1));
	case OP_ALTER:
		return sys_ret(semop(id, &alter, 1));
	default:
		return -EINVAL;
	}
}

static int run_shm(enum op op, int id, key_t key)
{
	struct shmid_ds ds = { 0 };
	struct shm_info info;

	switch (op) {
	case OP_GET:
		return sys_ret(shmget(key, 0, 0));
	case OP_STAT:
		return sys_ret(shmctl(id, IPC_STAT, &ds));
	case OP_STAT_ANY:
		return sys_ret(shmctl(IPC_INDEX(id), SHM_STAT_ANY, &ds));
	case OP_SET:
		ds.shm_perm.uid = geteuid();
		ds.shm_perm.gid = getegid();
		ds.shm_perm.mode = 0600;
		return sys_ret(shmctl(id, IPC_SET, &ds));
	case OP_IPC_INFO:
	case OP_INFO:
		return sys_ret(shmctl(0, op == OP_INFO ? SHM_INFO : IPC_INFO,
				      (struct shmid_ds *)&info));
	case OP_RMID:
		return sys_ret(shmctl(id, IPC_RMID, NULL));
	case OP_AT_RO:
		return attach(id, SHM_RDONLY);
	case OP_AT_RW:
		return attach(id, 0);
	case OP_LOCK:
		return sys_ret(shmctl(id, SHM_LOCK, NULL));
	case OP_UNLOCK:
		return sys_ret(shmctl(id, SHM_UNLOCK, NULL));
	default:
		return -EINVAL;
	}
}

static int run_msgq(const struct step *st, int id, key_t key, struct reply *rp)
{
	struct msqid_ds ds = { 0 };
	struct msginfo info;
	struct sel_msg m = { .mtype = st->arg };
	ssize_t n;

	switch (st->op) {
	case OP_GET:
		return sys_ret(msgget(key, 0));
	case OP_STAT:
		return sys_ret(msgctl(id, IPC_STAT, &ds));
	case OP_STAT_ANY:
		return sys_ret(msgctl(IPC_INDEX(id), MSG_STAT_ANY, &ds));
	case OP_SET:
		ds.msg_perm.uid = geteuid();
		ds.msg_perm.gid = getegid();
		ds.msg_perm.mode = 0600;
		ds.msg_qbytes = QBYTES;
		return sys_ret(msgctl(id, IPC_SET, &ds));
	case OP_IPC_INFO:
	case OP_INFO:
		return sys_ret(msgctl(0,
				      st->op == OP_INFO ? MSG_INFO : IPC_INFO,
				      (struct msqid_ds *)&info));
	case OP_RMID:
		return sys_ret(msgctl(id, IPC_RMID, NULL));
	case OP_SND:
		msg_text(st, m.text, sizeof(m.text));
		return sys_ret(msgsnd(id, &m, strlen(m.text) + 1, IPC_NOWAIT));
	case OP_RCV:
		n = msgrcv(id, &m, sizeof(m.text) - 1, st->arg,
			   IPC_NOWAIT | st->flags);
		if (n < 0)
			return -errno;
		m.text[n] = '\0';
		rp->mtype = m.mtype;
		memcpy(rp->text, m.text, sizeof(rp->text));
		return 0;
	default:
		return -EINVAL;
	}
}

/* A side of a case (worker.h): its class and its domain. */
struct side {
	enum cls cls;
	const char *type;
};

/* The request that enters the side's domain, before any step. */
#define STEP_ENTER -1

/* Runs the step it is sent (or enters @type) and replies its outcome. */
static void side_serve(const void *request, void *reply, void *state)
{
	const struct request *rq = request;
	const struct side *sd = state;
	struct reply *rp = reply;
	const struct step *st;

	if (rq->step == STEP_ENTER) {
		rp->err = sel_enter(sd->type, LEVEL);
		return;
	}
	st = &scripts[sd->cls][rq->step];
	if (st->op == OP_CREATE)
		rp->err = create_obj(sd->cls, rp);
	else if (sd->cls == SEM)
		rp->err = run_sem(st->op, rq->id, rq->key);
	else if (sd->cls == SHM)
		rp->err = run_shm(st->op, rq->id, rq->key);
	else
		rp->err = run_msgq(st, rq->id, rq->key, rp);
}

/* The harness (kernel_t) removes what a case left behind. */
static void remove_obj(enum cls cls, int id)
{
	if (cls == SEM)
		semctl(id, 0, IPC_RMID);
	else if (cls == SHM)
		shmctl(id, IPC_RMID, NULL);
	else
		msgctl(id, IPC_RMID, NULL);
}

/*
 * Runs a case's script with the owner and the other side in two processes;
 * @observed gets every step's outcome (-EBADMSG for a received message
 * that is not the one @want_msg names). Returns 0, or -1 when a side could
 * not be run at all (a harness failure).
 */
static int run_case(enum cls cls, const struct roles *ro,
		    const int want_msg[MAX_STEPS], int observed[MAX_STEPS])
{
	const struct step *script = scripts[cls];
	struct side sides[2] = { { cls, ro->owner }, { cls, ro->other } };
	struct worker w[2] = { 0 };
	int s, i, ret = 0, id = -1;
	key_t key = 0;

	for (i = 0; script[i].name; i++)
		observed[i] = NOT_RUN;
	for (s = 0; !ret && s < 2; s++) {
		struct request enter = { .step = STEP_ENTER };
		struct reply rp;

		if (worker_start(&w[s], sizeof(struct request),
				 sizeof(struct reply), side_serve, &sides[s]) ||
		    worker_run(&w[s], &enter, &rp) || rp.err)
			ret = -1;
	}
	for (i = 0; !ret && script[i].name; i++) {
		const struct step *st = &script[i];
		struct request rq = { .step = i, .id = id, .key = key };
		struct reply rp;

		s = side_of(ro, st->side) == 'o' ? 0 : 1;
		if (st->op != OP_CREATE && id < 0)
			break;
		if (worker_run(&w[s], &rq, &rp)) {
			ret = -1;
			break;
		}
		observed[i] = rp.err;
		if (st->op == OP_CREATE && !rp.err) {
			id = rp.id;
			key = rp.key;
		}
		if (st->op == OP_RCV && !rp.err) {
			char text[64];

			if (want_msg[i] < 0) {
				observed[i] = -EBADMSG;
				continue;
			}
			msg_text(&script[want_msg[i]], text, sizeof(text));
			if (rp.mtype != script[want_msg[i]].arg ||
			    strcmp(rp.text, text))
				observed[i] = -EBADMSG;
		}
	}
	for (s = 0; s < 2; s++)
		worker_stop(&w[s]);
	if (id >= 0)
		remove_obj(cls, id);
	return ret;
}

static const char *abi_name(void)
{
	static char abi[32];

	snprintf(abi, sizeof(abi), "selinux-c%d", POLICY_CATS);
	return abi;
}

/* The permissions a step needs, for the record: "unix_read+getattr+...". */
static void step_perms(enum cls cls, const struct step *st, char *buf,
		       size_t size)
{
	const struct rule *r = &rules[cls][st->op];
	const char *all[6];
	size_t len = 0;
	int n = 0, i;

	for (i = 0; i < 2 && r->ipcperm[i]; i++)
		all[n++] = r->ipcperm[i];
	for (i = 0; i < 3 && r->perms[i]; i++)
		all[n++] = r->perms[i];
	if (r->queue)
		all[n++] = r->queue;
	buf[0] = '\0';
	for (i = 0; i < n && len < size; i++)
		len += snprintf(buf + len, size - len, "%s%s", i ? "+" : "",
				all[i]);
}

FIXTURE(ipc)
{
	int unused;
};

FIXTURE_VARIANT(ipc)
{
	const char *cls;
	const char *owner;
	const char *other;
};

/*
 * One named variant: the class, the owner's and the other side's domain
 * lsmconf_ipc_<o>_t and lsmconf_ipc_<p>_t. NAME is written out so that a
 * printed case name greps to its line; the build fails when it is not
 * <class>_<o>_with_<p>.
 */
#define IPC_CASE(NAME, c, o, p)                                \
	enum { NAME##__variant = 1 };                          \
	static_assert(c##_##o##_with_##p##__variant,           \
		      #NAME " is not " #c "_" #o "_with_" #p); \
	FIXTURE_VARIANT_ADD(ipc, NAME)                         \
	{                                                      \
		.cls = #c, .owner = "lsmconf_ipc_" #o "_t",    \
		.other = "lsmconf_ipc_" #p "_t",               \
	}

/*
 * Per class: both sides with everything, the owner lacking each permission
 * the class has (and system ipc_info), the other side too (but create,
 * which it never asks for).
 */
/* clang-format off */
IPC_CASE(sem_ok_with_ok, sem, ok, ok);
IPC_CASE(sem_no_create_with_ok, sem, no_create, ok);
IPC_CASE(sem_no_destroy_with_ok, sem, no_destroy, ok);
IPC_CASE(sem_no_getattr_with_ok, sem, no_getattr, ok);
IPC_CASE(sem_no_setattr_with_ok, sem, no_setattr, ok);
IPC_CASE(sem_no_read_with_ok, sem, no_read, ok);
IPC_CASE(sem_no_write_with_ok, sem, no_write, ok);
IPC_CASE(sem_no_associate_with_ok, sem, no_associate, ok);
IPC_CASE(sem_no_unix_read_with_ok, sem, no_unix_read, ok);
IPC_CASE(sem_no_unix_write_with_ok, sem, no_unix_write, ok);
IPC_CASE(sem_no_ipc_info_with_ok, sem, no_ipc_info, ok);
IPC_CASE(sem_ok_with_no_destroy, sem, ok, no_destroy);
IPC_CASE(sem_ok_with_no_getattr, sem, ok, no_getattr);
IPC_CASE(sem_ok_with_no_setattr, sem, ok, no_setattr);
IPC_CASE(sem_ok_with_no_read, sem, ok, no_read);
IPC_CASE(sem_ok_with_no_write, sem, ok, no_write);
IPC_CASE(sem_ok_with_no_associate, sem, ok, no_associate);
IPC_CASE(sem_ok_with_no_unix_read, sem, ok, no_unix_read);
IPC_CASE(sem_ok_with_no_unix_write, sem, ok, no_unix_write);
IPC_CASE(sem_ok_with_no_ipc_info, sem, ok, no_ipc_info);
IPC_CASE(shm_ok_with_ok, shm, ok, ok);
IPC_CASE(shm_no_create_with_ok, shm, no_create, ok);
IPC_CASE(shm_no_destroy_with_ok, shm, no_destroy, ok);
IPC_CASE(shm_no_getattr_with_ok, shm, no_getattr, ok);
IPC_CASE(shm_no_setattr_with_ok, shm, no_setattr, ok);
IPC_CASE(shm_no_read_with_ok, shm, no_read, ok);
IPC_CASE(shm_no_write_with_ok, shm, no_write, ok);
IPC_CASE(shm_no_associate_with_ok, shm, no_associate, ok);
IPC_CASE(shm_no_unix_read_with_ok, shm, no_unix_read, ok);
IPC_CASE(shm_no_unix_write_with_ok, shm, no_unix_write, ok);
IPC_CASE(shm_no_lock_with_ok, shm, no_lock, ok);
IPC_CASE(shm_no_ipc_info_with_ok, shm, no_ipc_info, ok);
IPC_CASE(shm_ok_with_no_destroy, shm, ok, no_destroy);
IPC_CASE(shm_ok_with_no_getattr, shm, ok, no_getattr);
IPC_CASE(shm_ok_with_no_setattr, shm, ok, no_setattr);
IPC_CASE(shm_ok_with_no_read, shm, ok, no_read);
IPC_CASE(shm_ok_with_no_write, shm, ok, no_write);
IPC_CASE(shm_ok_with_no_associate, shm, ok, no_associate);
IPC_CASE(shm_ok_with_no_unix_read, shm, ok, no_unix_read);
IPC_CASE(shm_ok_with_no_unix_write, shm, ok, no_unix_write);
IPC_CASE(shm_ok_with_no_lock, shm, ok, no_lock);
IPC_CASE(shm_ok_with_no_ipc_info, shm, ok, no_ipc_info);
IPC_CASE(msgq_ok_with_ok, msgq, ok, ok);
IPC_CASE(msgq_no_create_with_ok, msgq, no_create, ok);
IPC_CASE(msgq_no_destroy_with_ok, msgq, no_destroy, ok);
IPC_CASE(msgq_no_getattr_with_ok, msgq, no_getattr, ok);
IPC_CASE(msgq_no_setattr_with_ok, msgq, no_setattr, ok);
IPC_CASE(msgq_no_read_with_ok, msgq, no_read, ok);
IPC_CASE(msgq_no_write_with_ok, msgq, no_write, ok);
IPC_CASE(msgq_no_associate_with_ok, msgq, no_associate, ok);
IPC_CASE(msgq_no_unix_read_with_ok, msgq, no_unix_read, ok);
IPC_CASE(msgq_no_unix_write_with_ok, msgq, no_unix_write, ok);
IPC_CASE(msgq_no_enqueue_with_ok, msgq, no_enqueue, ok);
IPC_CASE(msgq_no_send_with_ok, msgq, no_send, ok);
IPC_CASE(msgq_no_receive_with_ok, msgq, no_receive, ok);
IPC_CASE(msgq_no_ipc_info_with_ok, msgq, no_ipc_info, ok);
IPC_CASE(msgq_ok_with_no_destroy, msgq, ok, no_destroy);
IPC_CASE(msgq_ok_with_no_getattr, msgq, ok, no_getattr);
IPC_CASE(msgq_ok_with_no_setattr, msgq, ok, no_setattr);
IPC_CASE(msgq_ok_with_no_read, msgq, ok, no_read);
IPC_CASE(msgq_ok_with_no_write, msgq, ok, no_write);
IPC_CASE(msgq_ok_with_no_associate, msgq, ok, no_associate);
IPC_CASE(msgq_ok_with_no_unix_read, msgq, ok, no_unix_read);
IPC_CASE(msgq_ok_with_no_unix_write, msgq, ok, no_unix_write);
IPC_CASE(msgq_ok_with_no_enqueue, msgq, ok, no_enqueue);
IPC_CASE(msgq_ok_with_no_send, msgq, ok, no_send);
IPC_CASE(msgq_ok_with_no_receive, msgq, ok, no_receive);
IPC_CASE(msgq_ok_with_no_ipc_info, msgq, ok, no_ipc_info);
/* clang-format on */

FIXTURE_SETUP(ipc)
{
	SEL_SETUP(POLICY_CATS);
}

FIXTURE_TEARDOWN(ipc)
{
}

TEST_F(ipc, sweep)
{
	int expected[MAX_STEPS], observed[MAX_STEPS], want_msg[MAX_STEPS], i;
	struct roles ro = { variant->owner, variant->other, 'p' };
	enum cls cls = SEM;
	char perms[96];

	while (cls < N_CLS && strcmp(cls_names[cls], variant->cls))
		cls++;
	ASSERT_GT(N_CLS, cls);
	if (sel_domain_lacks(ro.owner, "destroy"))
		ro.first = 'o';
	expect_case(cls, &ro, expected, want_msg);
	ASSERT_EQ(0, run_case(cls, &ro, want_msg, observed));
	for (i = 0; scripts[cls][i].name; i++) {
		const struct step *st = &scripts[cls][i];
		const struct rule *r = &rules[cls][st->op];
		char op[96];
		struct record rec = {
			.abi = abi_name(),
			.subject = subject_of(&ro, st->side),
			/* A system-wide query is checked on the kernel. */
			.object = r->kernel ? "kernel_t" : ro.owner,
			.class = r->kernel ? "system" : cls_names[cls],
			.op = op,
			.depends = perms,
			.expected = expected[i],
			.observed = observed[i],
		};

		snprintf(op, sizeof(op), "%s_%s",
			 side_of(&ro, st->side) == 'o' ? "owner" : "other",
			 st->name);
		step_perms(cls, st, perms, sizeof(perms));
		JUDGE(&rec);
	}
}

/*
 * A receiver already asleep in msgrcv() when the message comes: ipc/msg.c
 * pipelined_send() hands the message to a waiting receiver whose type
 * matches only when security_msg_queue_msgrcv() allows it for THAT task
 * (selinux_msg_queue_msgrcv(): read on the queue and receive on the
 * message, with task_sid_obj(target) as subject); otherwise the message is
 * queued and the receiver sleeps on, until IPC_RMID wakes it with EIDRM
 * (expunge_all()). A receiver lacking unix_read never sleeps: do_msgrcv()
 * asks ipcperms(S_IRUGO) first (EACCES).
 *
 * Whether the message was handed over is read without a race after msgsnd()
 * returned: msg_qnum is 0 (handed) or 1 (queued). That the receiver sleeps
 * in msgrcv() before the send is read from /proc/PID/syscall: it shows the
 * syscall number only while the task is not running (task_current_syscall()
 * gives "running" for a runnable, even preempted, task), and the only place
 * do_msgrcv() sleeps before a message comes is the schedule() after it put
 * itself on q_receivers under the queue lock. The harness polls that file,
 * yielding the CPU, until it shows SYS_msgrcv, or the receiver reports an
 * early return, or PEER_WAIT_MS passes.
 */
enum { BL_SLEEP, BL_SEND, BL_HANDOVER, BL_RECV, BL_N };

static const char *const bl_names[BL_N] = { "msgrcv_sleeps", "msgsnd",
					    "handover", "msgrcv_result" };

/* Encodes "the message stays in the queue" for the handover record. */
#define QUEUED (-EAGAIN)
#define BL_MTYPE 1
#define BL_TEXT "lsmconf blocked payload"

static void expect_blocked(const char *receiver, const char *sender, long rtype,
			   int rflags, int expected[BL_N])
{
	bool sleeps = !sel_domain_lacks(receiver, "unix_read");

	expected[BL_SLEEP] = sleeps ? 0 : -EACCES;
	expected[BL_SEND] = 0;
	/* selinux_msg_queue_msgsnd (the queue is the receiver's). */
	if (sel_domain_lacks(sender, "unix_write") ||
	    sel_domain_lacks(sender, "write") ||
	    sel_domain_lacks(sender, "send") ||
	    sel_domain_lacks(receiver, "enqueue"))
		expected[BL_SEND] = -EACCES;
	if (expected[BL_SEND])
		expected[BL_HANDOVER] = NOT_RUN;
	else if (sleeps && type_matches(BL_MTYPE, rtype, rflags) &&
		 !sel_domain_lacks(receiver, "read") &&
		 !sel_domain_lacks(receiver, "receive"))
		expected[BL_HANDOVER] = 0;
	else
		expected[BL_HANDOVER] = QUEUED;
	if (!sleeps)
		expected[BL_RECV] = -EACCES;
	else
		expected[BL_RECV] = expected[BL_HANDOVER] ? -EIDRM : 0;
}

/* Receiver: creates the queue, reports its id, then sleeps in msgrcv(). */
/* A peer of a handover (worker.h): its domain and how it receives. */
struct bl_peer {
	const char *type;
	long rtype;
	int rflags;
};

/* The requests, in struct request's step. */
enum { BL_DO_ENTER, BL_DO_CREATE, BL_DO_RECV, BL_DO_SEND };

/*
 * Enters the domain; creates a private queue; receives from the queue
 * @id, asleep until a message comes (the test sees it sleep); or sends
 * one message of type BL_MTYPE to @id.
 */
static void bl_serve(const void *request, void *reply, void *state)
{
	struct sel_msg m = { .mtype = BL_MTYPE, .text = BL_TEXT };
	const struct request *rq = request;
	const struct bl_peer *p = state;
	struct reply *rp = reply;
	ssize_t n;

	switch (rq->step) {
	case BL_DO_ENTER:
		rp->err = sel_enter(p->type, LEVEL);
		break;
	case BL_DO_CREATE:
		rp->id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
		rp->err = sys_ret(rp->id);
		break;
	case BL_DO_RECV:
		n = msgrcv(rq->id, &m, sizeof(m.text) - 1, p->rtype, p->rflags);
		rp->err = n < 0 ? -errno : 0;
		if (n >= 0) {
			m.text[n] = '\0';
			rp->mtype = m.mtype;
			memcpy(rp->text, m.text, sizeof(rp->text));
		}
		break;
	case BL_DO_SEND:
		rp->err = sys_ret(
			msgsnd(rq->id, &m, sizeof(BL_TEXT), IPC_NOWAIT));
		break;
	default:
		rp->err = -EINVAL;
	}
}

/* 1 when /proc/@pid/syscall shows @pid asleep in msgrcv(), else 0. */
static int asleep_in_msgrcv(pid_t pid)
{
	char path[64], buf[128];
	long nr;

	snprintf(path, sizeof(path), "/proc/%d/syscall", pid);
	if (read_text(path, buf, sizeof(buf)) <= 0)
		return 0;
	return sscanf(buf, "%ld ", &nr) == 1 && nr == SYS_msgrcv;
}

/*
 * Waits until the receiver sleeps in msgrcv() (0) or has returned (its
 * reply in @early, 1); -ETIMEDOUT after PEER_WAIT_MS.
 */
static int wait_asleep(pid_t pid, int rep, struct reply *early)
{
	long long end = now_ns() + PEER_WAIT_MS * 1000000LL;
	struct pollfd pfd = { .fd = rep, .events = POLLIN };

	while (now_ns() < end) {
		if (poll(&pfd, 1, 0) > 0) {
			int ret = pipe_read(rep, early, sizeof(*early), 0);

			return ret ? ret : 1;
		}
		if (asleep_in_msgrcv(pid))
			return 0;
		sched_yield();
	}
	return -ETIMEDOUT;
}

/* One request to a handover peer; 0, or -1 (a harness failure). */
static int bl_do(struct worker *w, int what, int id, struct reply *rp)
{
	struct request rq = { .step = what, .id = id };

	return worker_run(w, &rq, rp) ? -1 : 0;
}

static int run_blocked(const char *receiver, const char *sender, long rtype,
		       int rflags, int observed[BL_N])
{
	struct bl_peer rpeer = { receiver, rtype, rflags }, speer = { sender };
	struct worker rw = { 0 }, sw = { 0 };
	int i, ret = -1, id = -1, w;
	struct request rq = { .step = BL_DO_RECV };
	struct msqid_ds ds;
	struct reply rp;

	for (i = 0; i < BL_N; i++)
		observed[i] = NOT_RUN;
	if (worker_start(&rw, sizeof(rq), sizeof(rp), bl_serve, &rpeer) ||
	    worker_start(&sw, sizeof(rq), sizeof(rp), bl_serve, &speer) ||
	    bl_do(&rw, BL_DO_ENTER, 0, &rp) || rp.err ||
	    bl_do(&sw, BL_DO_ENTER, 0, &rp) || rp.err ||
	    bl_do(&rw, BL_DO_CREATE, 0, &rp) || rp.err)
		goto out;
	id = rq.id = rp.id;
	/*
	 * The receive is the one request not awaited at once: its reply
	 * comes when msgrcv() returns, which the test watches for.
	 */
	if (pipe_write(rw.cmd, &rq, sizeof(rq)))
		goto out;
	w = wait_asleep(rw.pid, rw.rep, &rp);
	if (w < 0)
		goto out;
	observed[BL_SLEEP] = w ? rp.err : 0;
	if (w)
		observed[BL_RECV] = rp.err;
	if (bl_do(&sw, BL_DO_SEND, id, &rp))
		goto out;
	observed[BL_SEND] = rp.err;
	/* msgsnd() returned: the handover, if any, is done. */
	if (!observed[BL_SEND]) {
		if (msgctl(id, IPC_STAT, &ds))
			goto out;
		observed[BL_HANDOVER] = ds.msg_qnum ? QUEUED : 0;
	}
	ret = 0;
	if (w)
		goto out;
	/* A receiver that got nothing sleeps on: IPC_RMID wakes it. */
	if (observed[BL_HANDOVER] && msgctl(id, IPC_RMID, NULL))
		ret = -1;
	if (pipe_read(rw.rep, &rp, sizeof(rp), PEER_WAIT_MS)) {
		ret = -1;
		goto out;
	}
	observed[BL_RECV] = rp.err;
	if (!rp.err && (rp.mtype != BL_MTYPE || strcmp(rp.text, BL_TEXT)))
		observed[BL_RECV] = -EBADMSG;
out:
	/* First: a receiver still asleep wakes (EIDRM) and can end. */
	if (id >= 0)
		msgctl(id, IPC_RMID, NULL);
	worker_stop(&sw);
	worker_stop(&rw);
	return ret;
}

FIXTURE(blocked)
{
	int unused;
};

FIXTURE_VARIANT(blocked)
{
	const char *receiver;
	const char *sender;
	long rtype;
	int rflags;
};

/*
 * NAME: <receiver>_<how it waits>_from_<sender>; the message is of type 1.
 * The build fails when NAME is not that.
 */
#define BLOCKED(NAME, r, how, s, type, flags)                    \
	enum { NAME##__variant = 1 };                            \
	static_assert(r##_##how##_from_##s##__variant,           \
		      #NAME " is not " #r "_" #how "_from_" #s); \
	FIXTURE_VARIANT_ADD(blocked, NAME)                       \
	{                                                        \
		.receiver = "lsmconf_ipc_" #r "_t",              \
		.sender = "lsmconf_ipc_" #s "_t", .rtype = type, \
		.rflags = flags,                                 \
	}

/* clang-format off */
BLOCKED(ok_any_from_ok, ok, any, ok, 0, 0);
BLOCKED(ok_type_1_from_ok, ok, type_1, ok, 1, 0);
BLOCKED(ok_type_2_from_ok, ok, type_2, ok, 2, 0);
BLOCKED(ok_type_minus_1_from_ok, ok, type_minus_1, ok, -1, 0);
BLOCKED(ok_except_1_from_ok, ok, except_1, ok, 1, MSG_EXCEPT);
BLOCKED(no_read_any_from_ok, no_read, any, ok, 0, 0);
BLOCKED(no_receive_any_from_ok, no_receive, any, ok, 0, 0);
BLOCKED(no_unix_read_any_from_ok, no_unix_read, any, ok, 0, 0);
BLOCKED(no_enqueue_any_from_ok, no_enqueue, any, ok, 0, 0);
BLOCKED(ok_any_from_no_send, ok, any, no_send, 0, 0);
BLOCKED(ok_any_from_no_receive, ok, any, no_receive, 0, 0);
/* clang-format on */

FIXTURE_SETUP(blocked)
{
	SEL_SETUP(POLICY_CATS);
}

FIXTURE_TEARDOWN(blocked)
{
}

TEST_F(blocked, handover)
{
	int expected[BL_N], observed[BL_N], i;

	expect_blocked(variant->receiver, variant->sender, variant->rtype,
		       variant->rflags, expected);
	ASSERT_EQ(0, run_blocked(variant->receiver, variant->sender,
				 variant->rtype, variant->rflags, observed));
	for (i = 0; i < BL_N; i++) {
		struct record rec = {
			.abi = abi_name(),
			.subject = i == BL_SEND ? variant->sender :
						  variant->receiver,
			.object = variant->receiver,
			.class = "msgq",
			.op = bl_names[i],
			.depends = i == BL_SEND ?
					   "unix_write+write+send+enqueue" :
				   i == BL_SLEEP ? "unix_read" :
						   "read+receive",
			.expected = expected[i],
			.observed = observed[i],
		};

		JUDGE(&rec);
	}
}

LSM_HARNESS_MAIN
