/* SPDX-License-Identifier: GPL-2.0 */
/*
 * KVM or TCG: KVM only where a real guest has run under it on this host.
 * The answer is remembered per host (cache_root()/accel.tsv) for a day.
 */
#ifndef LSMCONF_ACCEL_H
#define LSMCONF_ACCEL_H

#include <stdbool.h>
#include <stddef.h>

/* Seconds an answer is trusted before a boot tries KVM again. */
#define ACCEL_MEMO_TTL (24 * 3600L)

/* The emulator: $LSMCONF_QEMU, else qemu-system-x86_64 from PATH. */
const char *accel_qemu(void);

/*
 * Whether KVM is worth a try: not disabled by LSMCONF_NO_KVM and the
 * device ($LSMCONF_KVM_DEVICE, else /dev/kvm) opens.
 */
/*
 * Whether the QEMU of accel_qemu() loads @plugin: its -help lists -plugin,
 * and a paused QEMU with it is still up after a moment (a QEMU of another
 * plugin API version refuses it at once). Asked once per process.
 */
bool accel_qemu_plugins(const char *plugin);
bool accel_kvm_candidate(void);

enum accel_memo { ACCEL_UNKNOWN, ACCEL_KVM, ACCEL_TCG };

/* This host and emulator, as a memo key: host name, kernel, QEMU binary. */
char *accel_host_key(void);

/*
 * Pure: the answer for @key in a memo file's @text, if younger than @ttl
 * at @now; its reason goes to @reason.
 */
enum accel_memo accel_memo_find(const char *text, const char *key, long now,
				long ttl, char *reason, size_t size);
/* Pure: @text with @key's line replaced by the new answer (malloc'd). */
char *accel_memo_set(const char *text, const char *key, enum accel_memo v,
		     long now, const char *reason);

/* The remembered answer for this host, and remembering a new one. */
enum accel_memo accel_recall(char *reason, size_t size);
void accel_remember(enum accel_memo v, const char *reason);

#endif
