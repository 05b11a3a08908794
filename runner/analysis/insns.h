/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The bench's instruction profile: what the QEMU plugin counted per
 * translated block inside each point's measured rounds
 * (runner/qemu/insn_plugin.c), named by the guest kernel's text symbols
 * (ksyms.txt), as path_set rows of instructions per function that
 * path_compare() then compares between A, B and A2.
 */
#ifndef LSMCONF_INSNS_H
#define LSMCONF_INSNS_H

#include <stddef.h>

struct path_set;
struct bench_set;

/* Blocks below this address are the bench's own (user space). */
#define INSN_KERNEL_START 0xffff800000000000ull
/* The function name of every user-space block. */
#define INSN_USER "[user]"

struct insn_syms {
	unsigned long long *addr; /* ascending */
	char **name;
	size_t n;
};

/*
 * Parses ksyms.txt ("ADDRESS NAME" per line, hex) into @s, sorted by
 * address. Returns the number of malformed lines.
 */
size_t insn_syms_parse(const char *text, struct insn_syms *s);
void insn_syms_free(struct insn_syms *s);
/*
 * The function at @addr: the symbol with the greatest address not above
 * it, INSN_USER below INSN_KERNEL_START, NULL when no symbol precedes it.
 */
const char *insn_syms_find(const struct insn_syms *s, unsigned long long addr);

/*
 * Adds to @out one row per (point, function) of @raw, the plugin's file
 * ("POINT VADDR INSNS EXECS" lines, "# POINT windows N" lines): the
 * instructions the function executed in the point's windows, with
 * calls -1 (not counted) and messages = the measured messages of that
 * point in @samples (the point's index is its position in @points, a
 * space-separated list as unix_send_bench got it). Blocks with no symbol
 * count as "[unknown]"; a compiler clone (NAME.constprop.0, NAME.cold...)
 * counts as NAME. A point without measured samples is left out.
 * Returns the number of malformed lines.
 */
size_t insn_profile_rows(const char *raw, const struct insn_syms *syms,
			 const char *points, const struct bench_set *samples,
			 struct path_set *out);

#endif
