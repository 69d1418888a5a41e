/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/coreclock.h"

#include <math.h>

#include "harness/clock.h"

#if defined(__x86_64__)
bool lab_coreclock_available(void)
{
	return true;
}

void lab_coreclock_chain(uint64_t loops)
{
	uint64_t x = 0, one = 1;

	/*
	 * Ten adds into one register, each waiting for the last; the loop counter runs beside
	 * them. The addend is a register: newer Intel cores fold chains of add-immediate in the
	 * renamer (zero latency), which would read as a 20 GHz clock.
	 */
	while (loops--)
		__asm__ volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
		                 "add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\t"
		                 "add %1, %0\n\tadd %1, %0"
		                 : "+r"(x)
		                 : "r"(one));
}
#else
bool lab_coreclock_available(void)
{
	return false;
}

void lab_coreclock_chain(uint64_t loops)
{
	(void)loops;
}
#endif

double lab_coreclock_ghz(void)
{
	const uint64_t loops = 500000; /* 5 M adds, about 1.4 ms at 3.6 GHz */
	double best = 0;

	if (!lab_coreclock_available())
		return NAN;
	lab_coreclock_chain(loops); /* wake the core up from a low clock */
	for (int i = 0; i < 5; i++) {
		uint64_t t0 = lab_clock_ns();
		lab_coreclock_chain(loops);
		uint64_t ns = lab_clock_ns() - t0;
		double ghz = ns ? (double)(loops * LAB_CORECLOCK_ADDS_PER_LOOP) / (double)ns : 0;
		best = ghz > best ? ghz : best;
	}
	return best;
}
