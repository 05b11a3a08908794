/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf bench, the guest side of the instruction profile: marks around
 * each measured round, and the kernel's text symbols. The host's
 * instruction profile (`lsmconf bench --profile on`: a QEMU plugin,
 * runner/qemu/insn_plugin.c, counts the instructions each kernel function
 * executes between a point's begin and end marks). A mark is a no-op
 * instruction, nopl INSN_MARK_BASE + 2 * POINT + END(%rax), that the plugin
 * recognises by its bytes; without the plugin it does nothing.
 */
#ifndef LSMCONF_INSN_PROFILE_H
#define LSMCONF_INSN_PROFILE_H

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "LSM\0": the displacement of mark 0; the plugin uses the same base. */
#define INSN_MARK_BASE 0x4c534d00
#define INSN_MARK_POINTS 16

#if defined(__x86_64__)
#define INSN_MARK_ONE(code)                               \
	case code:                                        \
		asm volatile("nopl %c0(%%rax)"            \
			     :                            \
			     : "i"(INSN_MARK_BASE + code) \
			     : "memory");                 \
		break
#define INSN_MARK_TWO(p)        \
	INSN_MARK_ONE(2 * (p)); \
	INSN_MARK_ONE(2 * (p) + 1)

/* Marks the start (@end false) or the end of a measured round of @point. */
static inline void insn_mark(int point, bool end)
{
	if (point < 0 || point >= INSN_MARK_POINTS)
		return;
	switch (2 * point + end) {
		INSN_MARK_TWO(0);
		INSN_MARK_TWO(1);
		INSN_MARK_TWO(2);
		INSN_MARK_TWO(3);
		INSN_MARK_TWO(4);
		INSN_MARK_TWO(5);
		INSN_MARK_TWO(6);
		INSN_MARK_TWO(7);
		INSN_MARK_TWO(8);
		INSN_MARK_TWO(9);
		INSN_MARK_TWO(10);
		INSN_MARK_TWO(11);
		INSN_MARK_TWO(12);
		INSN_MARK_TWO(13);
		INSN_MARK_TWO(14);
		INSN_MARK_TWO(15);
	}
}
#else
static inline void insn_mark(int point, bool end)
{
	(void)point;
	(void)end;
}
#endif

/*
 * The kernel's text symbols, "ADDRESS NAME" per line, to @path: the host
 * names the function of each block the plugin counted (the addresses are
 * this boot's, KASLR included). 0, or -errno; -EPERM when the kernel
 * shows no addresses (kptr_restrict).
 */
static inline int insn_write_ksyms(const char *path)
{
	FILE *in = fopen("/proc/kallsyms", "r"), *out;
	char line[512], addr[32], type, name[256];
	unsigned long long a, shown = 0;
	int ret = 0;

	if (!in)
		return -errno;
	out = fopen(path, "w");
	if (!out) {
		ret = -errno;
		fclose(in);
		return ret;
	}
	while (fgets(line, sizeof(line), in)) {
		if (sscanf(line, "%31s %c %255s", addr, &type, name) != 3 ||
		    (type != 't' && type != 'T'))
			continue;
		a = strtoull(addr, NULL, 16);
		shown |= a;
		fprintf(out, "%s %s\n", addr, name);
	}
	if (fclose(out))
		ret = -EIO;
	fclose(in);
	return ret ? ret : shown ? 0 : -EPERM;
}

#endif /* LSMCONF_INSN_PROFILE_H */
