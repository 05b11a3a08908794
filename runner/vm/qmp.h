/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The few QMP messages the boot watcher reads (one JSON object a line, as
 * QEMU writes them). Pure library code: no I/O.
 */
#ifndef LSMCONF_QMP_H
#define LSMCONF_QMP_H

#include <stdbool.h>
#include <stddef.h>

enum qmp_kind {
	QMP_OTHER, /* anything else (a reply without a status, noise) */
	QMP_GREETING, /* {"QMP": ...}: send qmp_capabilities */
	QMP_EVENT, /* {"event": "NAME", ...}: @value is NAME */
	QMP_STATUS, /* a query-status reply: @value is its "status" */
};

/*
 * Classifies one line and copies its event name or status into @value
 * (truncated to @size, always NUL-terminated when @size is not 0).
 */
enum qmp_kind qmp_parse(const char *line, char *value, size_t size);

/*
 * Whether a run state means the guest still runs (or is on its way to a
 * clean end): anything else (internal-error, guest-panicked, io-error,
 * paused...) means it will never produce results.
 */
bool qmp_status_alive(const char *status);

/*
 * Whether @line is the SHUTDOWN event of a QEMU the host ended (its
 * "reason" host-signal or host-ui: a SIGTERM, SIGINT or SIGHUP from the
 * host, which QEMU answers by exiting 0), not the guest.
 */
bool qmp_host_shutdown(const char *line);

#endif
