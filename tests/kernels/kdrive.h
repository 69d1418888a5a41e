/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Runs a kernel through the real runner at a tiny size, for kernel tests: params from the
 * kernel's defaults plus "key=value" overrides, a short min_time and few reps, pinned to the
 * first CPUs of this machine.
 */
#ifndef LAB_TESTS_KDRIVE_H
#define LAB_TESTS_KDRIVE_H

#include "harness/runner.h"

/*
 * Runs kernel k with n threads and the overrides (NULL-terminated "key=value" strings) into rec
 * (free it with lab_point_rec_free). Returns the runner's code; a bad override fails the test.
 * The kernel's state is torn down before return, so verify() was run on real work.
 */
int kdrive_run(const struct lab_kernel *k, unsigned n, const char *const *overrides,
               struct lab_point_rec *rec);

/* The number of CPUs this process may use. */
unsigned kdrive_ncpus(void);

#endif
