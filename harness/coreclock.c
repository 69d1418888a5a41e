/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/coreclock.h"

#include <math.h>
#include <time.h>

#include "harness/clock.h"
#include "harness/kernel_api.h"

/*
 * Dependent register adds written out (a loop would add a taken branch per add). The step comes
 * through an empty asm so it is a register, not an immediate: some cores (Golden Cove) fold
 * add-immediate chains at rename and would read faster than their clock. The empty asm after
 * each add makes it wait for the last and stops the compiler folding them.
 */
#define CC_ADD1(x, y)                                                                              \
	x += y;                                                                                    \
	__asm__ volatile("" : "+r"(x))
#define CC_ADD8(x, y)                                                                              \
	CC_ADD1(x, y);                                                                             \
	CC_ADD1(x, y);                                                                             \
	CC_ADD1(x, y);                                                                             \
	CC_ADD1(x, y);                                                                             \
	CC_ADD1(x, y);                                                                             \
	CC_ADD1(x, y);                                                                             \
	CC_ADD1(x, y);                                                                             \
	CC_ADD1(x, y)

void lab_coreclock_add_chain(uint64_t blocks)
{
	uint64_t x = 0, y = 1;

	__asm__ volatile("" : "+r"(y));
	for (uint64_t i = 0; i < blocks; i++) {
		CC_ADD8(x, y);
		CC_ADD8(x, y);
		CC_ADD8(x, y);
		CC_ADD8(x, y);
		CC_ADD8(x, y);
		CC_ADD8(x, y);
		CC_ADD8(x, y);
		CC_ADD8(x, y);
	}
	lab_do_not_optimize(x);
}

double lab_coreclock_ghz(void)
{
	const uint64_t blocks = 100000; /* 6.4 M adds: a few ms */
	double best = 0;

	for (int k = 0; k < 7; k++) {
		uint64_t t0 = lab_thread_cpu_ns();
		lab_coreclock_add_chain(blocks);
		uint64_t ns = lab_thread_cpu_ns() - t0;
		double ghz = ns ? (double)(blocks * LAB_CORECLOCK_CHAIN_BLOCK) / (double)ns : 0;
		best = ghz > best ? ghz : best;
	}
	return best > 0 ? best : NAN;
}
