/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "kernels/delay.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

#include "harness/clock.h"

/*
 * Out of line and aligned, so no caller's code layout changes it. On x86-64 the loop is a
 * macro-fused sub/jnz pair aligned to 32 bytes: it never straddles a 32-byte boundary, and one
 * iteration is one dependent subtract (about a cycle). Elsewhere a C loop the compiler cannot
 * fold; alignment of the function still fixes its placement.
 */
__attribute__((aligned(64), noinline)) void lab_delay_loops(uint64_t n)
{
	if (n == 0)
		return;
#if defined(__x86_64__)
	__asm__ volatile(".p2align 5\n"
	                 "1:\n\t"
	                 "sub $1, %0\n\t"
	                 "jnz 1b"
	                 : "+r"(n)
	                 :
	                 : "cc");
#else
	for (uint64_t i = 0; i < n; i++)
		__asm__ volatile("" : "+r"(i));
#endif
}

static int delay_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void lab_delay_calibrate(struct lab_delay_cal *cal, unsigned rounds, uint64_t round_ns)
{
	double per[LAB_DELAY_ROUNDS_MAX];
	uint64_t n = 1u << 12, t0, dt;

	rounds = rounds < 1 ? 1 : rounds > LAB_DELAY_ROUNDS_MAX ? LAB_DELAY_ROUNDS_MAX : rounds;
	/* Grow the count until one round lasts round_ns, then time the rounds at that count. */
	for (;;) {
		t0 = lab_clock_ns();
		lab_delay_loops(n);
		dt = lab_clock_ns() - t0;
		if (dt >= round_ns || n >= (1ull << 40))
			break;
		n *= 2;
	}
	for (unsigned r = 0; r < rounds; r++) {
		t0 = lab_clock_ns();
		lab_delay_loops(n);
		per[r] = (double)(lab_clock_ns() - t0) / (double)n;
	}
	qsort(per, rounds, sizeof(per[0]), delay_cmp);
	cal->ns_per_loop = per[rounds / 2];
	cal->at_ns = lab_clock_ns();
	cal->loops_per_round = n;
	cal->rounds = rounds;
}

static pthread_mutex_t delay_fastest_lock = PTHREAD_MUTEX_INITIALIZER;
static double delay_fastest_ns = NAN;

double lab_delay_fastest(double ns_per_loop)
{
	double v;

	pthread_mutex_lock(&delay_fastest_lock);
	if (ns_per_loop > 0 && !(delay_fastest_ns <= ns_per_loop))
		delay_fastest_ns = ns_per_loop;
	v = delay_fastest_ns;
	pthread_mutex_unlock(&delay_fastest_lock);
	return v;
}

uint64_t lab_delay_loops_for(const struct lab_delay_cal *cal, uint64_t ns)
{
	if (ns == 0 || !(cal->ns_per_loop > 0))
		return 0;
	return (uint64_t)llround((double)ns / cal->ns_per_loop);
}
