/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The one busy-wait of the kernels that spend a configured time doing nothing in particular
 * (the lock kernel's critical section and think time). It is one out-of-line routine, aligned
 * to 64 bytes, whose loop is written in assembly and aligned to 32 bytes: its cost per
 * iteration is the same wherever the calling code lands. An inlined C loop is not: on Intel
 * cores a loop branch that crosses a 32-byte boundary (the JCC erratum mitigation) runs at
 * about half speed, so the same loop count gave one lock kind twice the critical section of
 * another. Durations become loop counts through a calibration that is measured, kept and
 * re-measured, never assumed.
 */
#ifndef LAB_KERNELS_DELAY_H
#define LAB_KERNELS_DELAY_H

#include <stdint.h>

/* Spins for n iterations of a register-only loop (no memory traffic); n = 0 returns at once. */
void lab_delay_loops(uint64_t n);

/* One calibration of lab_delay_loops. */
struct lab_delay_cal {
	double ns_per_loop;       /* the median round's ns per iteration */
	uint64_t at_ns;           /* when it was measured (lab clock, CLOCK_MONOTONIC) */
	uint64_t loops_per_round; /* iterations in each timed round */
	unsigned rounds;          /* rounds timed; the fastest one counts */
};

#define LAB_DELAY_ROUNDS_MAX 31

/*
 * Measures ns per iteration: `rounds` (1 .. LAB_DELAY_ROUNDS_MAX) rounds of lab_delay_loops,
 * each at least round_ns long (the count doubles until it is), timed with the lab clock. The
 * median round counts: on a shared host the loop's speed moves both ways (the host's frequency
 * and its other tenants), so the fastest round would be an optimistic outlier, and the median
 * still ignores a round that was interrupted. Takes about rounds * round_ns.
 */
void lab_delay_calibrate(struct lab_delay_cal *cal, unsigned rounds, uint64_t round_ns);

/*
 * The fastest ns per loop this process has calibrated, ns_per_loop (one more calibration's)
 * included: the reference a calibration's drift is measured against. Not the first
 * calibration: one taken before a vCPU came up to speed, or in a neighbour's burst, read 0.50 ns
 * where every later one read 0.28, and made all 142 points of a run "drifted -44 %". The loop is
 * fixed work, so the fastest reading is the machine at its speed. Values <= 0 or NaN are not
 * kept; returns NaN before any value. Thread-safe.
 */
double lab_delay_fastest(double ns_per_loop);

/* Iterations of lab_delay_loops for ns nanoseconds under cal (0 for 0 ns). */
uint64_t lab_delay_loops_for(const struct lab_delay_cal *cal, uint64_t ns);

#endif
