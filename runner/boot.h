/* SPDX-License-Identifier: GPL-2.0 */
/* The one place that starts QEMU. */
#ifndef LSMCONF_BOOT_H
#define LSMCONF_BOOT_H

#include <stdbool.h>

struct boot_opts {
	const char *kernel; /* bzImage */
	const char *initrd;
	const char *append; /* extra kernel command line, or NULL */
	const char
		*dir; /* results directory: console.log, data.bin, qemu.log */
	int memory_mb;
	int cpus;
	int timeout_s;
	bool icount; /* -icount shift=0: guest time counts instructions */
};

struct boot_result {
	int status; /* QEMU's exit status, or SPAWN_TIMEOUT */
	double seconds;
	bool kvm;
	char *cmdline; /* the QEMU command line, for the record */
};

/* Boots once, bounded by o->timeout_s; never dies on a guest failure. */
void boot_run(const struct boot_opts *o, struct boot_result *r);
bool kvm_usable(void);

#endif
