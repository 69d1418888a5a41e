/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Issue 21 finding 10: the plan's estimate is arithmetic on what the kernel declares
 * (harness/estimate.c). Declared plans with their hand-computed times; no timing is measured.
 * Before, the estimate was warm-up + (3 + reps) x min_time + 5 ms per point whatever the kernel
 * did: a setup of 1 s or an iteration longer than min_time was left out (7x too low).
 */
#include <string.h>

#include "harness/estimate.h"
#include "tests/testlib.h"

/* warm-up 10 ms, min_time 20 ms, 10 reps, nothing declared: calibration (10 + 2 x 22 ms + 2
 * harness costs) outlasts the warm-up; 10 samples of 22 ms + 0.2 ms; 5 ms per run. */
LAB_TEST(plain_point)
{
	struct lab_est_plan e = {.warmup_ns = 10e6, .min_time_ns = 20e6, .reps = 10};

	CHECK_NEAR(lab_est_run_ns(&e), 5e6 + (10e6 + 44e6 + 0.4e6) + 10 * 22.2e6, 1);
	e.counters = 1; /* 1 ms per thread and run */
	CHECK_NEAR(lab_est_run_ns(&e), 5e6 + 1e6 + (10e6 + 44e6 + 0.4e6) + 10 * 22.2e6, 1);
	e.nthreads = 8;
	CHECK_NEAR(lab_est_run_ns(&e), 5e6 + 8e6 + (10e6 + 44e6 + 0.4e6) + 10 * 22.2e6, 1);
}

/* A declared setup of 1 s and an iteration of 100 ms (over min_time): every sample lasts one
 * iteration, calibration takes two of them. */
LAB_TEST(declared_setup_and_long_iteration)
{
	struct lab_est_plan e = {.warmup_ns = 10e6,
	                         .min_time_ns = 20e6,
	                         .reps = 10,
	                         .k = {.setup_ns = 1e9, .iter_ns = 1e8}};

	CHECK_NEAR(lab_est_run_ns(&e), 5e6 + 1e9 + 2 * 100.2e6 + 10 * 100.2e6, 1);
}

/* A warm-up longer than calibration: it runs to its end plus half a sample; a 1 us iteration
 * grows to 1 ms in 3 steps of x16 (5 harness costs with the two full samples). */
LAB_TEST(long_warmup_short_iteration)
{
	struct lab_est_plan e = {
	    .warmup_ns = 500e6, .min_time_ns = 1e6, .reps = 5, .k = {.iter_ns = 1e3}};

	CHECK_NEAR(lab_est_run_ns(&e), 5e6 + 500e6 + 0.55e6 + 5 * 1.3e6, 1);
	/* The clock's floor: no sample shorter than 1000 resolutions. */
	e.min_time_ns = 0;
	e.floor_ns = 1e6;
	CHECK_NEAR(lab_est_run_ns(&e), 5e6 + 500e6 + 0.55e6 + 5 * 1.3e6, 1);
}

/* A kernel that runs until the stop flag: one warm-up sample, no calibration, samples of
 * exactly min_time. */
LAB_TEST(timed_kernel)
{
	struct lab_est_plan e = {.warmup_ns = 10e6, .min_time_ns = 20e6, .reps = 10, .timed = 1};

	CHECK_NEAR(lab_est_run_ns(&e), 5e6 + 10.2e6 + 10 * 20.2e6, 1);
	e.warmup_ns = 0;
	CHECK_NEAR(lab_est_run_ns(&e), 5e6 + 10 * 20.2e6, 1);
}

static void te_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	(void)params;
	est->setup_ns = 1e6 * nthreads;
	est->iter_ns = 3e7;
}

/* lab_est_plan_of takes the point's harness keys and asks the kernel. */
LAB_TEST(plan_of_asks_the_kernel)
{
	struct lab_kernel k = {.name = "est", .flags = LAB_KF_TIMED, .estimate = te_estimate};
	struct lab_point pt;
	struct lab_est_plan e;

	memset(&pt, 0, sizeof(pt));
	pt.nthreads = 4;
	pt.h.warmup = 1000000;
	pt.h.min_time = 2000000;
	pt.h.reps = 7;
	lab_est_plan_of(&pt, &k, 20, &e);
	CHECK_NEAR(e.warmup_ns, 1e6, 0);
	CHECK_NEAR(e.min_time_ns, 2e6, 0);
	CHECK_NEAR(e.floor_ns, 2e4, 0);
	CHECK_NEAR(e.reps, 7, 0);
	CHECK_NEAR(e.k.setup_ns, 4e6, 0);
	CHECK_NEAR(e.k.iter_ns, 3e7, 0);
	CHECK_EQ_I64(e.counters, 0);
	CHECK_EQ_U64(e.nthreads, 4);
	CHECK_EQ_I64(e.timed, 1);
	k.estimate = NULL;
	lab_est_plan_of(&pt, &k, 20, &e);
	CHECK_NEAR(e.k.setup_ns, 0, 0);
}

/* First touches are declared in bytes and priced by the harness: at what it measured on this
 * machine (10 us per 4 KiB page on a guest that shadows its page tables), or the rough quiet
 * default when nothing was measured. */
LAB_TEST(touched_bytes_at_the_measured_price)
{
	struct lab_est_plan e = {.min_time_ns = 20e6, .reps = 1, .k = {.touch_bytes = 1e9}};
	double bare = 5e6 + (10e6 + 44e6 + 0.4e6) + 22.2e6;

	CHECK_NEAR(lab_est_touch_ns(&e), 1e9 * LAB_EST_TOUCH_NS_PER_BYTE, 1);
	CHECK_NEAR(lab_est_run_ns(&e), bare + 1e9 * LAB_EST_TOUCH_NS_PER_BYTE, 1);
	e.touch_ns_per_byte = 2.5;
	CHECK_NEAR(lab_est_touch_ns(&e), 2.5e9, 1);
	CHECK_NEAR(lab_est_run_ns(&e), bare + 2.5e9, 1);
	e.k.touch_bytes = 0;
	CHECK_NEAR(lab_est_run_ns(&e), bare, 1);
}
