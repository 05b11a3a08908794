/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One boot of one kernel: the guest image (guest.h; image.h is private),
 * QEMU started and watched (boot.h; accel.h, qmp.h and watch.h are
 * private), and what comes back: the data channel (xfer.h), the console's
 * findings (console.h) and what a crash leaves (crash.h). Uses provision/
 * (the kernel, the guest's packages) and lib/.
 */
#ifndef LSMCONF_VM_H
#define LSMCONF_VM_H

#include "boot.h"
#include "console.h"
#include "crash.h"
#include "guest.h"
#include "seed.h"
#include "xfer.h"

#endif
