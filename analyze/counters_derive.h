/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Metrics derived from counter columns (ctr_<event> of samples.csv): pure functions. Each
 * returns the value, or NaN with *reason saying why (an input was not counted, a denominator
 * is 0). A view shows NaN as null with the reason, never as 0.
 */
#ifndef LAB_ANALYZE_COUNTERS_DERIVE_H
#define LAB_ANALYZE_COUNTERS_DERIVE_H

/* num / den * scale. */
double lab_an_ctr_ratio(double num, double den, double scale, const char **reason);

/* Instructions per cycle. */
double lab_an_ctr_ipc(double instructions, double cycles, const char **reason);

/* Average core clock while running: cycles / task-clock ns. */
double lab_an_ctr_ghz(double cycles, double task_clock_ns, const char **reason);

/* Misses per kilo-instruction. */
double lab_an_ctr_mpki(double misses, double instructions, const char **reason);

/*
 * Cycles estimated without a PMU: task-clock ns x the self-check's core_ghz (run.json). Label
 * the result "estimated" wherever it appears.
 */
double lab_an_ctr_cycles_estimated(double task_clock_ns, double core_ghz, const char **reason);

/* Intel FP_ARITH_INST_RETIRED, double precision: SD + 2 x 128PD + 4 x 256PD + 8 x 512PD. */
double lab_an_ctr_flops_intel_dp(double sd, double pd128, double pd256, double pd512,
                                 const char **reason);

#endif
