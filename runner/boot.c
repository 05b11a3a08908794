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

bool kvm_usable(void)
{
	int fd;

	if (getenv("LSMCONF_NO_KVM"))
		return false;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return false;
	close(fd);
	return true;
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
