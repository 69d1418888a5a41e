/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The self-check every run records: the harness's cost per iteration of an empty kernel, and a
 * known 50 us spin measured through the same runner path. If the spin does not read 50 us, no
 * other number of the run should be trusted. It also estimates the core clock (no cycle counter is
 * needed), so cycles can be estimated as task-clock x core_ghz where no PMU exists.
 */
#ifndef LAB_HARNESS_SELFCHECK_H
#define LAB_HARNESS_SELFCHECK_H

#include "harness/runner.h"

#define LAB_SELFCHECK_SPIN_NS 50000

struct lab_selfcheck {
	double overhead_ns_per_iter; /* median over samples of elapsed / iterations */
	double spin_50us_ns;         /* median measured length of one 50 us spin */
	double spin_error;           /* (spin_50us_ns - 50000) / 50000 */
	double core_ghz; /* estimated core clock: a chain of dependent adds, one per cycle */
};

/* How core_ghz is measured; cycles derived from it are estimates, and say so. */
#define LAB_SELFCHECK_GHZ_METHOD                                                                   \
	"estimated: a dependent chain of register adds (1 cycle each), fastest of 7 tries in "     \
	"thread CPU time"

/* Runs both checks on one thread pinned to cpu. Returns 0 or the runner's error. */
int lab_selfcheck_run(struct lab_runner *r, int cpu, struct lab_selfcheck *out,
                      struct lab_err *err);

#endif
