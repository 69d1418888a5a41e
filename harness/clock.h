/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lab's clock: CLOCK_MONOTONIC in nanoseconds. The TSC is not the core clock on the machines
 * the lab runs on (2.6 GHz TSC vs ~3.6 GHz core here), so the lab reports time, and cycles only
 * from a measured core frequency. Kernels may include this header.
 */
#ifndef LAB_HARNESS_CLOCK_H
#define LAB_HARNESS_CLOCK_H

#include <stdint.h>
#include <time.h>

#include "harness/kernel_api.h"

/* Monotonic time in ns from an arbitrary origin. Safe from any thread; never fails on Linux. */
static inline uint64_t lab_clock_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* CPU time of the calling thread in ns (its system time included): what a cost is when other
 * threads take the CPU in between. */
static inline uint64_t lab_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Busy-waits until at least ns nanoseconds have passed on the lab clock; returns the time spent. */
static inline uint64_t lab_clock_spin_ns(uint64_t ns)
{
	uint64_t t0 = lab_clock_ns(), t;

	do
		t = lab_clock_ns();
	while (t - t0 < ns);
	return t - t0;
}

/*
 * A fixed amount of work with no memory traffic: n dependent adds that the compiler cannot fold.
 * Used for critical-section and think-time work whose length must not depend on the clock.
 */
static inline void lab_clock_busy_loop(uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("" : "+r"(i));
}

/* Reported resolution of CLOCK_MONOTONIC in ns (clock_getres). */
double lab_clock_resolution_ns(void);

/* Median cost of one lab_clock_ns() call in ns, measured over many calls. */
double lab_clock_read_cost_ns(void);

#endif
