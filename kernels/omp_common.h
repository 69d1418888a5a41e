/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared by the chapter-29 OpenMP kernels (omp_overhead, omp_schedule, reduce, scan, fractal,
 * triad): the skip when the lab was built without OpenMP, binding the OpenMP team to the plan,
 * a calibrated delay and a seeded generator. Kernel code only; no state.
 *
 * Each kernel file keeps its OpenMP code under #ifdef _OPENMP; without OpenMP the descriptor
 * still exists (lab list, lab describe, quick.ini) and check() skips every point with a reason.
 */
#ifndef LAB_KERNELS_OMP_COMMON_H
#define LAB_KERNELS_OMP_COMMON_H

#include <stdint.h>

#include "harness/clock.h"
#include "harness/kernel_api.h"

#ifdef _OPENMP
#include <omp.h>
#endif

/* 0 when OpenMP kernels can run here, else LAB_SKIP with the reason in err. */
static inline int komp_check(const struct lab_env *env, struct lab_err *err)
{
#ifdef _OPENMP
	if (env->openmp)
		return 0;
#endif
	(void)env;
	lab_err_set(err, LAB_EUNSUP,
	            "the lab was built without OpenMP (cmake -DLAB_OPENMP=OFF); rebuild with "
	            "LAB_OPENMP=ON to run OpenMP kernels");
	return LAB_SKIP;
}

/* The run hook of a kernel built without OpenMP: never reached, check() skipped the point. */
static inline void komp_absent_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	(void)ctx;
	t->work = 0;
}

/* splitmix64: a small seeded generator; deterministic for a given seed on every machine. */
static inline uint64_t komp_rand(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/*
 * Dependent work the compiler cannot remove or fold: n increments of one register, each
 * waiting for the last (about a cycle each), unrolled by 4 so the loop's own counter and branch
 * run beside the chain instead of in it. Out of line and aligned: the calibration and the timed
 * loops run this one copy.
 */
__attribute__((noinline, aligned(64))) static void komp_delay(uint64_t n)
{
	uint64_t i = 0, x = 0;

	for (; i + 4 <= n; i += 4) {
		x++;
		__asm__ volatile("" : "+r"(x));
		x++;
		__asm__ volatile("" : "+r"(x));
		x++;
		__asm__ volatile("" : "+r"(x));
		x++;
		__asm__ volatile("" : "+r"(x));
	}
	for (; i < n; i++) {
		x++;
		__asm__ volatile("" : "+r"(x));
	}
}

/*
 * komp_delay increments per microsecond on this CPU when it is called for about ns at a time,
 * measured now: the fastest of 5 rounds of about 1 ms of such calls (interruptions only ever
 * slow a round down). At the length the kernel's loops use, not one long call's: calls of 200
 * ns ran 7 % faster than a 1 ms call's rate said (a Zen 5 guest), which made every 1-thread
 * ideal_ns long and its overhead negative. Kernels measure it in setup, each point.
 */
static inline double komp_delay_rate_for(uint64_t ns)
{
	uint64_t n = 1 << 12, t0, dt, b, calls = ns && ns < 1000000 ? 1000000 / ns : 1;
	double rate, best = 0;

	do { /* a first rate from one call of about 1 ms */
		n *= 2;
		t0 = lab_clock_ns();
		komp_delay(n);
		dt = lab_clock_ns() - t0;
	} while (dt < 1000000 && n < (1ull << 40));
	rate = (double)n / ((double)(dt ? dt : 1) / 1000.0);
	b = (uint64_t)((double)ns * rate / 1000.0 + 0.5);
	b = b ? b : 1;
	for (int r = 0; r < 5; r++) {
		t0 = lab_clock_ns();
		for (uint64_t c = 0; c < calls; c++)
			komp_delay(b);
		dt = lab_clock_ns() - t0;
		rate = (double)(calls * b) / ((double)(dt ? dt : 1) / 1000.0);
		best = rate > best ? rate : best;
	}
	return best;
}

/* komp_delay increments that take about ns nanoseconds at rate (at least 1). */
static inline uint64_t komp_delay_loops(double rate, uint64_t ns)
{
	double n = (double)ns * rate / 1000.0;

	return n < 1 ? 1 : (uint64_t)(n + 0.5);
}

/* ns that n komp_delay increments take at rate. */
static inline double komp_loops_ns(double rate, double n)
{
	return n * 1000.0 / rate;
}

#ifdef _OPENMP
/*
 * Opens the team once and binds OpenMP thread i to ctx->cpus[i] (the plan), as thread_setup
 * must for LAB_KF_OPENMP kernels. Returns 0, or -LAB_ESYS when a thread could not bind or the
 * runtime gave a smaller team than planned (OMP_THREAD_LIMIT, OMP_DYNAMIC).
 */
static inline int komp_bind_team(struct lab_ctx *ctx, struct lab_err *err)
{
	int bad = 0, size = 0;

	omp_set_dynamic(0);
#pragma omp parallel num_threads(ctx->nthreads) reduction(| : bad)
	{
		bad |= lab_ctx_omp_bind(ctx, (unsigned)omp_get_thread_num()) != 0;
#pragma omp master
		size = omp_get_num_threads();
	}
	if (size != (int)ctx->nthreads)
		return lab_err_set(err, LAB_ESYS,
		                   "the OpenMP runtime gave a team of %d, planned %u", size,
		                   ctx->nthreads);
	return bad ? lab_err_set(err, LAB_ESYS, "an OpenMP thread could not bind to its CPU") : 0;
}
#endif

#endif
