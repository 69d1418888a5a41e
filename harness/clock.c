/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "harness/clock.h"

#include <stdlib.h>

double lab_clock_resolution_ns(void)
{
	struct timespec res;

	if (clock_getres(CLOCK_MONOTONIC, &res) != 0)
		return 1.0;
	return (double)res.tv_sec * 1e9 + (double)res.tv_nsec;
}

static int clock_cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

double lab_clock_read_cost_ns(void)
{
	enum { BATCH = 1000, ROUNDS = 31 };
	uint64_t per[ROUNDS];

	for (int r = 0; r < ROUNDS; r++) {
		uint64_t t0 = lab_clock_ns(), t = t0;
		for (int i = 0; i < BATCH; i++)
			t = lab_clock_ns();
		per[r] = t - t0;
	}
	qsort(per, ROUNDS, sizeof(per[0]), clock_cmp_u64);
	return (double)per[ROUNDS / 2] / BATCH;
}
