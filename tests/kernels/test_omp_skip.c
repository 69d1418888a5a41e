/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Every kernel that needs OpenMP says so (LAB_KF_OPENMP) and skips, with the reason, where the
 * lab was built without it. Built with and without LAB_OPENMP: without it, the kernels really
 * are the stubs, and the planner's environment says openmp = false.
 */
#include <stdlib.h>
#include <string.h>

#include "harness/kernel_api.h"
#include "kernels/registry.h"
#include "tests/testlib.h"

static const char *const omp_kernels[] = {"omp_fractal", "omp_overhead", "omp_schedule",
                                          "omp_triad",   "reduce",       "scan"};

static const struct lab_kernel *omp_find(const char *name)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
		if (strcmp((*k)->name, name) == 0)
			return *k;
	return NULL;
}

LAB_TEST(openmp_kernels_are_flagged)
{
	for (size_t i = 0; i < sizeof(omp_kernels) / sizeof(*omp_kernels); i++) {
		const struct lab_kernel *k = omp_find(omp_kernels[i]);
		REQUIRE(k != NULL);
		CHECK(k->flags & LAB_KF_OPENMP);
		CHECK(k->check != NULL);
	}
}

LAB_TEST(openmp_kernels_skip_without_openmp)
{
	struct lab_env env = {.ncpus = 2, .thissystem = true, .openmp = false};

	for (size_t i = 0; i < sizeof(omp_kernels) / sizeof(*omp_kernels); i++) {
		const struct lab_kernel *k = omp_find(omp_kernels[i]);
		struct lab_err err = {0};
		void *params = calloc(1, k->params_size);

		REQUIRE(params != NULL);
		CHECK_EQ_I64(k->check(params, 2, &env, &err), LAB_SKIP);
		CHECK(strstr(err.msg, "without OpenMP") != NULL);
		free(params);
	}
}

/*
 * Without LAB_OPENMP the kernels are stubs: even an environment claiming OpenMP cannot run
 * them. With it, the same environment runs them.
 */
LAB_TEST(openmp_kernels_follow_the_build)
{
	struct lab_env env = {.ncpus = 2, .thissystem = true, .openmp = true};
#ifdef LAB_HAVE_OPENMP
	int want = 0;
#else
	int want = LAB_SKIP;
#endif

	for (size_t i = 0; i < sizeof(omp_kernels) / sizeof(*omp_kernels); i++) {
		const struct lab_kernel *k = omp_find(omp_kernels[i]);
		struct lab_err err = {0};
		void *params = calloc(1, k->params_size);

		REQUIRE(params != NULL);
		/* one thread: scan's default method, serial, is skipped at more */
		CHECK_EQ_I64(k->check(params, 1, &env, &err), want);
		free(params);
	}
}
