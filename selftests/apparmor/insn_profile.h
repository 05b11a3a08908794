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
#define INSN_NOP(code)                                      \
	do {                                                \
		asm volatile("nopl %c0(%%rax)"              \
			     :                              \
			     : "i"(INSN_MARK_BASE + (code)) \
			     : "memory");                   \
	} while (0)

/* Marks the start (@end false) or the end of a measured round of @point. */
static inline void insn_mark(int point, bool end)
{
	if (point < 0 || point >= INSN_MARK_POINTS)
		return;
	/* The displacement is an immediate: one instruction per mark. */
	switch (2 * point + end) {
	case 0:
		INSN_NOP(0);
		break;
	case 1:
		INSN_NOP(1);
		break;
	case 2:
		INSN_NOP(2);
		break;
	case 3:
		INSN_NOP(3);
		break;
	case 4:
		INSN_NOP(4);
		break;
	case 5:
		INSN_NOP(5);
		break;
	case 6:
		INSN_NOP(6);
		break;
	case 7:
		INSN_NOP(7);
		break;
	case 8:
		INSN_NOP(8);
		break;
	case 9:
		INSN_NOP(9);
		break;
	case 10:
		INSN_NOP(10);
		break;
	case 11:
		INSN_NOP(11);
		break;
	case 12:
		INSN_NOP(12);
		break;
	case 13:
		INSN_NOP(13);
		break;
	case 14:
		INSN_NOP(14);
		break;
	case 15:
		INSN_NOP(15);
		break;
	case 16:
		INSN_NOP(16);
		break;
	case 17:
		INSN_NOP(17);
		break;
	case 18:
		INSN_NOP(18);
		break;
	case 19:
		INSN_NOP(19);
		break;
	case 20:
		INSN_NOP(20);
		break;
	case 21:
		INSN_NOP(21);
		break;
	case 22:
		INSN_NOP(22);
		break;
	case 23:
		INSN_NOP(23);
		break;
	case 24:
		INSN_NOP(24);
		break;
	case 25:
		INSN_NOP(25);
		break;
	case 26:
		INSN_NOP(26);
		break;
	case 27:
		INSN_NOP(27);
		break;
	case 28:
		INSN_NOP(28);
		break;
	case 29:
		INSN_NOP(29);
		break;
	case 30:
		INSN_NOP(30);
		break;
	case 31:
		INSN_NOP(31);
		break;
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
