/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lsmconf bench, the guest side of the instruction profile: marks around
 * each measured round, and the kernel's text symbols. With `lsmconf bench
 * --profile on`, a QEMU plugin on the host counts the instructions each
 * kernel function executes between a point's begin and end marks. A mark
 * is a no-op instruction, nopl INSN_MARK_BASE + 2 * POINT + END(%rax), that
 * the plugin recognises by its bytes; without the plugin it does nothing.
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
/* Points with marks: the first eight of a run (the default list has 7). */
#define INSN_MARK_POINTS 8

#if defined(__x86_64__)
/* Marks the start (@end false) or the end of a measured round of @point. */
static inline void insn_mark(int point, bool end)
{
	if (point < 0 || point >= INSN_MARK_POINTS)
		return;
	/* The displacement is INSN_MARK_BASE + 2 * point + end, written out. */
	switch (2 * point + end) {
	case 0:
		asm volatile("nopl 0x4c534d00(%%rax)" ::: "memory");
		break;
	case 1:
		asm volatile("nopl 0x4c534d01(%%rax)" ::: "memory");
		break;
	case 2:
		asm volatile("nopl 0x4c534d02(%%rax)" ::: "memory");
		break;
	case 3:
		asm volatile("nopl 0x4c534d03(%%rax)" ::: "memory");
		break;
	case 4:
		asm volatile("nopl 0x4c534d04(%%rax)" ::: "memory");
		break;
	case 5:
		asm volatile("nopl 0x4c534d05(%%rax)" ::: "memory");
		break;
	case 6:
		asm volatile("nopl 0x4c534d06(%%rax)" ::: "memory");
		break;
	case 7:
		asm volatile("nopl 0x4c534d07(%%rax)" ::: "memory");
		break;
	case 8:
		asm volatile("nopl 0x4c534d08(%%rax)" ::: "memory");
		break;
	case 9:
		asm volatile("nopl 0x4c534d09(%%rax)" ::: "memory");
		break;
	case 10:
		asm volatile("nopl 0x4c534d0a(%%rax)" ::: "memory");
		break;
	case 11:
		asm volatile("nopl 0x4c534d0b(%%rax)" ::: "memory");
		break;
	case 12:
		asm volatile("nopl 0x4c534d0c(%%rax)" ::: "memory");
		break;
	case 13:
		asm volatile("nopl 0x4c534d0d(%%rax)" ::: "memory");
		break;
	case 14:
		asm volatile("nopl 0x4c534d0e(%%rax)" ::: "memory");
		break;
	case 15:
		asm volatile("nopl 0x4c534d0f(%%rax)" ::: "memory");
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
