/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/env.h"

#include "harness/clock.h"
#include "harness/cpufeat.h"

#ifdef LAB_HAVE_OPENMP
static const bool env_openmp = true;
#else
static const bool env_openmp = false;
#endif

int lab_env_probe(struct lab_env *env, const struct lab_topo *topo, struct lab_err *err)
{
	unsigned detected = lab_cpu_detect(), masked = 0;
	int rc = lab_cpu_mask_from_env(&masked, err);

	*env = (struct lab_env){0};
	if (topo)
		lab_topo_env(topo, env);
	env->clock_resolution_ns = lab_clock_resolution_ns();
	env->openmp = env_openmp;
	env->cpu_features = detected & ~masked;
	env->cpu_features_masked = detected & masked;
	return rc;
}

int lab_kernel_check(const struct lab_kernel *k, const void *params, unsigned nthreads,
                     const struct lab_env *env, struct lab_err *err)
{
	if ((k->flags & LAB_KF_NUMA) && env->numa_nodes < 2) {
		lab_err_set(err, LAB_EUNSUP, "needs 2 or more NUMA nodes; this machine has %u",
		            env->numa_nodes);
		return LAB_SKIP;
	}
	if ((k->flags & LAB_KF_OPENMP) && !env->openmp) {
		lab_err_set(err, LAB_EUNSUP,
		            "needs OpenMP; this lab was built without it (cmake -DLAB_OPENMP=OFF)");
		return LAB_SKIP;
	}
	if (k->cpu_features && lab_env_require_cpu(env, k->cpu_features, err) == LAB_SKIP)
		return LAB_SKIP;
	return k->check ? k->check(params, nthreads, env, err) : 0;
}
