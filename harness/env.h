/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The facts a kernel's check() sees (struct lab_env) and the contract the harness keeps before
 * calling it: a kernel's flags and CPU features are enforced here, once, for every kernel.
 */
#ifndef LAB_HARNESS_ENV_H
#define LAB_HARNESS_ENV_H

#include "harness/kernel_api.h"
#include "harness/topo.h"

/*
 * Fills env: topology facts of topo (none when topo is NULL), the clock's resolution, whether
 * this build has OpenMP, and this CPU's features less those LAB_CPU_MASK hides. Returns 0, or
 * -LAB_ECONFIG when LAB_CPU_MASK does not parse (env is still filled, with nothing masked).
 */
int lab_env_probe(struct lab_env *env, const struct lab_topo *topo, struct lab_err *err);

/*
 * Whether kernel k can run point (params, nthreads) in env: LAB_SKIP with the reason in err when
 * a flag or feature it declares is missing (LAB_KF_NUMA on fewer than 2 NUMA nodes,
 * LAB_KF_OPENMP in a build without OpenMP, cpu_features this CPU lacks), else whatever k's own
 * check returns (0 when it has none): 0, LAB_SKIP or -LAB_ECONFIG.
 */
int lab_kernel_check(const struct lab_kernel *k, const void *params, unsigned nthreads,
                     const struct lab_env *env, struct lab_err *err);

#endif
