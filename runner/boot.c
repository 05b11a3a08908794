// SPDX-License-Identifier: GPL-2.0
#define _GNU_SOURCE
#include "boot.h"
#include "spawn.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/*
 * Starts QEMU with the accelerator and CPU model boot_run() would use,
 * paused (-S), and asks it over QMP to quit: an opening /dev/kvm is not
 * enough (nested hosts that reject the host CPU's MSRs abort QEMU).
 */
static bool kvm_probe(void)
{
	static const char qmp[] = "{\"execute\":\"qmp_capabilities\"}\n"
				  "{\"execute\":\"quit\"}\n";
	char *argv[] = { "qemu-system-x86_64",
			 "-nodefaults",
			 "-no-user-config",
			 "-display",
			 "none",
			 "-accel",
			 "kvm",
			 "-cpu",
			 "host",
			 "-m",
			 "64",
			 "-S",
			 "-qmp",
			 "stdio",
			 NULL };
	struct spawn_opts so = { .stdin_fd = -1,
				 .stdout_fd = -1,
				 .stderr_fd = -1,
				 .timeout_s = 30 };
	int p[2], status;

	if (pipe2(p, O_CLOEXEC))
		return false;
	/* Fits in the pipe buffer: written before QEMU starts. */
	if (write(p[1], qmp, sizeof(qmp) - 1) != sizeof(qmp) - 1) {
		close(p[0]);
		close(p[1]);
		return false;
	}
	close(p[1]);
	so.stdin_fd = p[0];
	status = spawn_wait(argv, &so);
	close(p[0]);
	return status == 0;
}

bool kvm_usable(void)
{
	static int usable = -1;
	int fd;

	if (usable >= 0)
		return usable;
	usable = 0;
	if (getenv("LSMCONF_NO_KVM"))
		return false;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	usable = kvm_probe();
	return usable;
}

void boot_run(const struct boot_opts *o, struct boot_result *r)
{
	char *console = xasprintf("file:%s/console.log", o->dir);
	char *data = xasprintf("file:%s/data.bin", o->dir);
	char *qlog = xasprintf("%s/qemu.log", o->dir);
	char *mem = xasprintf("%d", o->memory_mb);
	char *smp = xasprintf("%d", o->cpus);
	/* panic=-1 with -no-reboot: a panicking guest ends QEMU at once. */
	char *append = xasprintf("console=ttyS0 panic=-1 quiet %s",
				 o->append ? o->append : "");
	char *argv[40];
	struct sbuf cmd = { 0 };
	int n = 0, i, fd;
	double t0;

	memset(r, 0, sizeof(*r));
	r->kvm = kvm_usable() && !o->icount;
	argv[n++] = "qemu-system-x86_64";
	argv[n++] = "-nodefaults";
	argv[n++] = "-no-user-config";
	argv[n++] = "-display";
	argv[n++] = "none";
	argv[n++] = "-no-reboot";
	argv[n++] = "-m";
	argv[n++] = mem;
	argv[n++] = "-smp";
	argv[n++] = smp;
	if (r->kvm) {
		argv[n++] = "-accel";
		argv[n++] = "kvm";
		argv[n++] = "-cpu";
		argv[n++] = "host";
	} else {
		argv[n++] = "-accel";
		/* icount needs one TCG thread for all vCPUs. */
		argv[n++] = o->icount ? "tcg,thread=single" : "tcg";
	}
	if (o->icount) {
		argv[n++] = "-icount";
		argv[n++] = "shift=0,sleep=off";
	}
	argv[n++] = "-serial";
	argv[n++] = console;
	argv[n++] = "-serial";
	argv[n++] = data;
	argv[n++] = "-kernel";
	argv[n++] = (char *)o->kernel;
	argv[n++] = "-initrd";
	argv[n++] = (char *)o->initrd;
	argv[n++] = "-append";
	argv[n++] = append;
	argv[n] = NULL;
	for (i = 0; i < n; i++)
		sbuf_printf(&cmd, "%s%s", i ? " " : "", argv[i]);
	r->cmdline = cmd.buf;

	fd = open(qlog, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		die("cannot create %s: %s", qlog, strerror(errno));
	t0 = now_seconds();
	r->status = spawn_wait(
		argv, &(struct spawn_opts){ .stdin_fd = -1,
					    .stdout_fd = fd,
					    .stderr_fd = fd,
					    .timeout_s = o->timeout_s });
	r->seconds = now_seconds() - t0;
	close(fd);
	free(console);
	free(data);
	free(qlog);
	free(mem);
	free(smp);
	free(append);
}
