/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/counters_derive.h"

#include <math.h>
#include <stddef.h>

double lab_an_ctr_ratio(double num, double den, double scale, const char **reason)
{
	*reason = NULL;
	if (isnan(num) || isnan(den)) {
		*reason = "not counted";
		return NAN;
	}
	if (den == 0) {
		*reason = "denominator is 0";
		return NAN;
	}
	double r = num / den * scale;
	if (!isfinite(r)) /* 1e308 cycles in 1e-308 ns: no rate a machine runs at */
		*reason = "the ratio overflows (counts out of any machine's range)";
	return isfinite(r) ? r : NAN;
}

double lab_an_ctr_ipc(double instructions, double cycles, const char **reason)
{
	return lab_an_ctr_ratio(instructions, cycles, 1, reason);
}

double lab_an_ctr_ghz(double cycles, double task_clock_ns, const char **reason)
{
	return lab_an_ctr_ratio(cycles, task_clock_ns, 1, reason);
}

double lab_an_ctr_mpki(double misses, double instructions, const char **reason)
{
	return lab_an_ctr_ratio(misses, instructions, 1000, reason);
}

double lab_an_ctr_cycles_estimated(double task_clock_ns, double core_ghz, const char **reason)
{
	*reason = NULL;
	if (isnan(task_clock_ns) || !(core_ghz > 0)) {
		*reason =
		    isnan(task_clock_ns) ? "task-clock not counted" : "no core clock measured";
		return NAN;
	}
	return task_clock_ns * core_ghz;
}

double lab_an_ctr_flops_intel_dp(double sd, double pd128, double pd256, double pd512,
                                 const char **reason)
{
	double f = sd + 2 * pd128 + 4 * pd256 + 8 * pd512;

	*reason = isnan(f) ? "not counted" : NULL;
	return f;
}
