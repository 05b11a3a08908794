// SPDX-License-Identifier: GPL-2.0
/*
 * lsmconf: SELinux executable memory (issue 40): anonymous memory, the
 * heap and the stack made executable (policy/lsmconf-mem.cil). An actor
 * lsmconf_mem_ok_t, or lsmconf_mem_no_PERM_t for each of execmem,
 * execheap and execstack, makes each call in a new child:
 *
 *   anon_mmap       mmap() of anonymous memory, PROT_READ | PROT_EXEC
 *   anon_mprotect   mprotect() of anonymous read-write memory to
 *                   PROT_READ | PROT_EXEC
 *   heap_mprotect   mprotect() of a page the program break gave (sbrk())
 *                   to PROT_READ | PROT_WRITE | PROT_EXEC
 *   stack_mprotect  mprotect() of the page of the main thread's stack in
 *                   use to PROT_READ | PROT_WRITE | PROT_EXEC
 *
 * The rule (security/selinux/hooks.c, 6.1 to 7.2 alike; default_noexec
 * holds on every architecture whose data is not executable by default):
 * selinux_file_mprotect() asks execheap for a range within the heap
 * (start_brk to brk), execstack for the initial stack or the task's own,
 * and then file_map_prot_check() (also selinux_mmap_file()'s) asks
 * execmem for anonymous memory made executable; each of process class,
 * the task on itself. The first permission the actor lacks refuses the
 * call with EACCES and logs its denial ("OP/log.record",
 * "OP/log.fields"); an allowed call logs none.
 */
#define _GNU_SOURCE
#include <sys/mman.h>

#include "../kselftest_harness.h"
#include "../lsmconf/kmsg_mark.h"
#include "avc_log.h"
#include "../lsmconf/judge.h"

#define LEVEL "s0"
#define CATS 4
#define MAX_CHECKS 2

enum mem_op { OP_ANON_MMAP, OP_ANON_MPROTECT, OP_HEAP, OP_STACK, N_OPS };

static const struct {
	const char *name;
	const char *checks[MAX_CHECKS]; /* process, in the order asked */
} ops[N_OPS] = {
	[OP_ANON_MMAP] = { "anon_mmap", { "execmem" } },
	[OP_ANON_MPROTECT] = { "anon_mprotect", { "execmem" } },
	[OP_HEAP] = { "heap_mprotect", { "execheap", "execmem" } },
	[OP_STACK] = { "stack_mprotect", { "execstack", "execmem" } },
};

FIXTURE(mem)
{
	char ratelimit[32]; /* printk_ratelimit as found */
};

FIXTURE_VARIANT(mem)
{
	const char *actor;
	const char *lacks; /* NULL: nothing */
};

/* Each actor, named after the permission it lacks (none: ok). */
/* clang-format off */
#define ACTOR(p) { .actor = "lsmconf_mem_no_" #p "_t", .lacks = #p }
FIXTURE_VARIANT_ADD(mem, ok) { .actor = "lsmconf_mem_ok_t" };
FIXTURE_VARIANT_ADD(mem, no_execmem) ACTOR(execmem);
FIXTURE_VARIANT_ADD(mem, no_execheap) ACTOR(execheap);
FIXTURE_VARIANT_ADD(mem, no_execstack) ACTOR(execstack);
/* clang-format on */

/* The permission of @op the actor lacks, the first asked, or NULL. */
static const char *mem_denial(const FIXTURE_VARIANT(mem) * v, enum mem_op op)
{
	return avc_chain_refused(ops[op].checks, MAX_CHECKS, v->lacks);
}

static int mem_expect(const FIXTURE_VARIANT(mem) * v, enum mem_op op)
{
	return mem_denial(v, op) ? -EACCES : 0;
}

static int mprotect_page_of(void *addr, int prot)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p = (void *)((unsigned long)addr & ~(page - 1));

	return mprotect(p, page, prot) ? -errno : 0;
}

/* The call itself, in the actor's domain: 0 or -errno. */
static int mem_run(enum mem_op op)
{
	long page = sysconf(_SC_PAGESIZE);
	char on_stack = 0; /* its address escapes: it lives on the stack */
	void *p;

	switch (op) {
	case OP_ANON_MMAP:
		p = mmap(NULL, page, PROT_READ | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		munmap(p, page);
		return 0;
	case OP_ANON_MPROTECT:
		p = mmap(NULL, page, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			return -errno;
		return mprotect(p, page, PROT_READ | PROT_EXEC) ? -errno : 0;
	case OP_HEAP:
		/* Two pages past the break: one is whole within the heap. */
		p = sbrk(2 * page);
		if (p == (void *)-1)
			return -errno;
		return mprotect_page_of((char *)p + page,
					PROT_READ | PROT_WRITE | PROT_EXEC);
	case OP_STACK:
		return mprotect_page_of((void *)&on_stack,
					PROT_READ | PROT_WRITE | PROT_EXEC);
	default:
		return -EINVAL;
	}
}

struct mem_case {
	const char *actor;
	enum mem_op op;
};

struct mem_report {
	int setup; /* entering the domain */
	int result;
};

/* The child (child_run()): enters the actor, makes the call. */
static void mem_child(void *arg, void *reply)
{
	const struct mem_case *k = arg;
	struct mem_report *r = reply;

	r->result = NOT_RUN;
	r->setup = sel_enter(k->actor, LEVEL);
	if (!r->setup)
		r->result = mem_run(k->op);
}

FIXTURE_SETUP(mem)
{
	SEL_SETUP(CATS);
	if (access(KMSG, R_OK))
		SKIP(return, "cannot read " KMSG);
	ASSERT_EQ(0, kmsg_unlimit(self->ratelimit, sizeof(self->ratelimit)));
}

FIXTURE_TEARDOWN(mem)
{
	if (self->ratelimit[0])
		EXPECT_EQ(0, kmsg_relimit(self->ratelimit));
}

TEST_F(mem, exec)
{
	struct record rec = {
		.abi = "selinux-c4",
		.subject = variant->actor,
		.object = variant->actor,
		.class = "process",
		.depends = "-",
	};
	char id[96];
	int op;

	for (op = 0; op < N_OPS; op++) {
		struct mem_case k = { variant->actor, op };
		const char *const *last = ops[op].checks;
		const char *denial = mem_denial(variant, op);
		struct mem_report r;
		struct avcs got;

		ASSERT_EQ(0, avc_call_logged(_metadata, ops[op].name, "mem", op,
					     variant->actor, mem_child, &k, &r,
					     sizeof(r), &got));
		ASSERT_EQ(0, r.setup)
		{
			TH_LOG("%s: no domain", ops[op].name);
		}
		/* Named after the last permission it asks. */
		while (last + 1 < ops[op].checks + MAX_CHECKS && last[1])
			last++;
		rec.detail = *last;
		rec.op = ops[op].name;
		rec.expected = mem_expect(variant, op);
		rec.observed = r.result;
		JUDGE(&rec);
		/* The record a refusal logs, or proven absent by the marker. */
		JUDGE_LOG(&rec, id, ops[op].name, denial, got.n,
			  avc_judge_one(_metadata, ops[op].name, &got, denial,
					variant->actor, "process"));
	}
}

LSM_HARNESS_MAIN
