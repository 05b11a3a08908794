/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Provisioning: from a kernel spec to a bootable kernel with an exact
 * identity (kernel.h), by way of the private apt state (apt.h), package
 * extraction (deb.h), Debian's source trees and builds from source
 * (source.h, build.h: private to this folder), and the harness tree the
 * selftests build against (ksrc.h), a patch series split into one file a
 * patch (series.h). Errors come back as a struct err;
 * nothing here dies but for want of memory. Uses lib/ only.
 */
#ifndef LSMCONF_PROVISION_H
#define LSMCONF_PROVISION_H

#include "apt.h"
#include "deb.h"
#include "kconfig.h"
#include "kernel.h"
#include "ksrc.h"
#include "series.h"
#include "source.h"
#include "spec.h"

#endif
