// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin: instructions executed per translated block inside the
 * windows the guest marks, for `lsmconf bench --profile on`. The bench
 * marks each measured round of point P with two no-op instructions,
 *   nopl INSN_MARK_BASE + 2 * P (%rax)        the round begins
 *   nopl INSN_MARK_BASE + 2 * P + 1 (%rax)    the round ends
 * (selftests/apparmor/insn_mark.h). Every block counts its executions with
 * an inline add (no call per block); a begin mark copies the counts, an
 * end mark adds what ran since to point P's totals. The guest's own
 * instruction count is untouched, so the timed rounds are measured as
 * without the plugin.
 *
 * At exit it writes out=FILE, one line per block that ran in a window:
 *   POINT VADDR INSNS EXECS
 * (hex address, INSNS the block's length in instructions), and one line
 *   # POINT windows N
 * per point. Built against QEMU's plugin API version 1 (QEMU 7.2 and
 * later accept it); the few functions it uses are declared here.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *p);
typedef void (*vcpu_udata_cb)(unsigned int vcpu, void *p);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb,
					      enum qemu_plugin_op op, void *ptr,
					      uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    vcpu_udata_cb cb,
					    enum qemu_plugin_cb_flags flags,
					    void *p);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *p);

#define EXPORT __attribute__((visibility("default")))

EXPORT int qemu_plugin_version = 1;

/* nopl disp32(%rax): 0f 1f 80 and the displacement, little-endian. */
#define INSN_MARK_BASE 0x4c534d00u
#define MAX_POINTS 16
#define TABLE_BITS 18

struct block {
	uint64_t vaddr, insns, execs;
	uint64_t at_begin; /* execs when the open window began */
	uint64_t in[MAX_POINTS]; /* execs inside each point's windows */
	struct block *next, *all;
};

static struct block *table[1u << TABLE_BITS];
static struct block *blocks; /* every block, for the marks' walks */
static unsigned int windows[MAX_POINTS];
static int open_point = -1;
static const char *out_path;

static struct block *block_of(uint64_t vaddr, uint64_t insns)
{
	size_t h = (size_t)((vaddr ^ (vaddr >> TABLE_BITS) ^ insns * 40503u) &
			    ((1u << TABLE_BITS) - 1));
	struct block *b;

	for (b = table[h]; b; b = b->next)
		if (b->vaddr == vaddr && b->insns == insns)
			return b;
	b = calloc(1, sizeof(*b));
	if (!b)
		abort();
	b->vaddr = vaddr;
	b->insns = insns;
	b->next = table[h];
	table[h] = b;
	b->all = blocks;
	blocks = b;
	return b;
}

/*
 * A mark. The block's inline count is added at the block's start, before
 * this runs, so a window holds the end mark's block once and not the begin
 * mark's: a few instructions per window, of the bench's own code.
 */
static void on_mark(unsigned int vcpu, void *p)
{
	unsigned int code = (unsigned int)(uintptr_t)p;
	int point = (int)(code >> 1);
	struct block *b;

	(void)vcpu;
	if (point >= MAX_POINTS)
		return;
	if (!(code & 1)) {
		for (b = blocks; b; b = b->all)
			b->at_begin = b->execs;
		open_point = point;
		return;
	}
	if (open_point != point)
		return; /* an end without its begin: not a window */
	for (b = blocks; b; b = b->all)
		b->in[point] += b->execs - b->at_begin;
	windows[point]++;
	open_point = -1;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	struct block *b = block_of(qemu_plugin_tb_vaddr(tb), n);

	(void)id;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
						 &b->execs, 1);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const unsigned char *d = qemu_plugin_insn_data(insn);
		uint32_t disp;

		if (qemu_plugin_insn_size(insn) != 7 || d[0] != 0x0f ||
		    d[1] != 0x1f || d[2] != 0x80)
			continue;
		memcpy(&disp, d + 3, sizeof(disp));
		if (disp - INSN_MARK_BASE >= 2 * MAX_POINTS)
			continue;
		qemu_plugin_register_vcpu_insn_exec_cb(
			insn, on_mark, QEMU_PLUGIN_CB_NO_REGS,
			(void *)(uintptr_t)(disp - INSN_MARK_BASE));
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out_path, "w");
	struct block *b;
	int i;

	(void)id;
	(void)p;
	if (!f)
		return;
	for (i = 0; i < MAX_POINTS; i++) {
		if (!windows[i])
			continue;
		fprintf(f, "# %d windows %u\n", i, windows[i]);
		for (b = blocks; b; b = b->all)
			if (b->in[i])
				fprintf(f, "%d\t%llx\t%llu\t%llu\n", i,
					(unsigned long long)b->vaddr,
					(unsigned long long)b->insns,
					(unsigned long long)b->in[i]);
	}
	fclose(f);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
			       const struct qemu_info_t *info, int argc,
			       char **argv)
{
	(void)info;
	if (argc != 1 || strncmp(argv[0], "out=", 4) || !argv[0][4]) {
		fprintf(stderr, "lsmconf insn plugin: needs out=FILE\n");
		return -1;
	}
	out_path = argv[0] + 4;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
