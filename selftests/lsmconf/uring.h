/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf selftests: a small io_uring without liburing, for the LSMs'
 * io_uring hooks: a ring of 4 entries set up and mapped, one request
 * submitted and waited for (its completion's result), and an SQPOLL
 * ring made and closed.
 */
#ifndef LSMCONF_URING_H
#define LSMCONF_URING_H

#include <errno.h>
#include <linux/io_uring.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

/* An SQPOLL ring of 4 entries, closed at once: 0 or -errno. */
static inline int sqpoll_ring(void)
{
	struct io_uring_params params = { .flags = IORING_SETUP_SQPOLL };
	long fd = syscall(__NR_io_uring_setup, 4, &params);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/* A ring of 4 entries, its rings mapped: what a request needs. */
struct ring {
	int fd;
	struct io_uring_params p;
	void *sq, *cq;
	size_t sq_size, cq_size;
	struct io_uring_sqe *sqes;
};

static inline void ring_close(struct ring *r)
{
	if (r->sqes && r->sqes != MAP_FAILED)
		munmap(r->sqes, r->p.sq_entries * sizeof(*r->sqes));
	if (r->cq && r->cq != MAP_FAILED)
		munmap(r->cq, r->cq_size);
	if (r->sq && r->sq != MAP_FAILED)
		munmap(r->sq, r->sq_size);
	if (r->fd >= 0)
		close(r->fd);
}

static inline int ring_open(struct ring *r)
{
	memset(r, 0, sizeof(*r));
	r->fd = syscall(__NR_io_uring_setup, 4, &r->p);
	if (r->fd < 0)
		return -errno;
	r->sq_size = r->p.sq_off.array + r->p.sq_entries * sizeof(__u32);
	r->cq_size = r->p.cq_off.cqes +
		     r->p.cq_entries * sizeof(struct io_uring_cqe);
	r->sq = mmap(NULL, r->sq_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		     r->fd, IORING_OFF_SQ_RING);
	r->cq = mmap(NULL, r->cq_size, PROT_READ | PROT_WRITE, MAP_SHARED,
		     r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->p.sq_entries * sizeof(*r->sqes),
		       PROT_READ | PROT_WRITE, MAP_SHARED, r->fd,
		       IORING_OFF_SQES);
	if (r->sq == MAP_FAILED || r->cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -errno;
	return 0;
}

/* Registers the caller's credentials: the personality's id or -errno. */
static inline int ring_personality(struct ring *r)
{
	long id = syscall(__NR_io_uring_register, r->fd,
			  IORING_REGISTER_PERSONALITY, NULL, 0);

	return id < 0 ? -errno : (int)id;
}

#define RING_U32(base, off) ((__u32 *)((char *)(base) + (off)))

/*
 * Submits @sqe and waits for it: its completion's result (0 or more, or
 * the -errno the request failed with), or the -errno of the submission.
 */
static inline int ring_submit(struct ring *r, const struct io_uring_sqe *sqe)
{
	__u32 tail = *RING_U32(r->sq, r->p.sq_off.tail), head;
	__u32 mask = *RING_U32(r->sq, r->p.sq_off.ring_mask);
	struct io_uring_cqe *cqe;
	long n;

	r->sqes[tail & mask] = *sqe;
	RING_U32(r->sq, r->p.sq_off.array)[tail & mask] = tail & mask;
	__atomic_store_n(RING_U32(r->sq, r->p.sq_off.tail), tail + 1,
			 __ATOMIC_RELEASE);
	n = syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS,
		    NULL, 0);
	if (n < 0)
		return -errno;
	head = __atomic_load_n(RING_U32(r->cq, r->p.cq_off.head),
			       __ATOMIC_ACQUIRE);
	if (head == __atomic_load_n(RING_U32(r->cq, r->p.cq_off.tail),
				    __ATOMIC_ACQUIRE))
		return -EPROTO; /* waited for one, none came */
	mask = *RING_U32(r->cq, r->p.cq_off.ring_mask);
	cqe = (struct io_uring_cqe *)((char *)r->cq + r->p.cq_off.cqes) +
	      (head & mask);
	n = cqe->res;
	__atomic_store_n(RING_U32(r->cq, r->p.cq_off.head), head + 1,
			 __ATOMIC_RELEASE);
	return n;
}

/* A no-op request run with @personality (0: the ring's own task's). */
static inline int ring_nop(struct ring *r, int personality)
{
	struct io_uring_sqe sqe = { .opcode = IORING_OP_NOP,
				    .personality = personality,
				    .user_data = 1 };

	return ring_submit(r, &sqe);
}

#endif /* LSMCONF_URING_H */
