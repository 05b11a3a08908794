/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The numbers and verdicts of the measuring subcommands, pure of I/O but
 * for reading the mutant corpus: statistics (stats.h), send-cost samples
 * (bench.h), path evidence (path.h), SELinux message cost
 * (msgcost.h), their points (points.h), lcov's coverage tracefiles (lcov.h)
 * and the functions they never saw called (uncovered.h), mutants (mutate.h), the bisection of a patch series
 * (bisect.h) and its report (series_report.h). Uses lib/ only.
 */
#ifndef LSMCONF_ANALYSIS_H
#define LSMCONF_ANALYSIS_H

#include "bench.h"
#include "bisect.h"
#include "msgcost.h"
#include "path.h"
#include "insns.h"
#include "hooks.h"
#include "hookops.h"
#include "hookreasons.h"
#include "lcov.h"
#include "mutgen.h"
#include "series_report.h"
#include "mutate.h"
#include "stats.h"
#include "uncovered.h"

#endif
