/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Top-down (TMA) level 1 and 2 from counter values: pure functions, one per method, so a view
 * can call them on a point's counts (medians per unit of work, or sums; only ratios matter).
 * Formulas and fixture vectors: research/counters.md §3 and §7.4.
 *
 *   intel_4wide         Skylake-SP / Cascade Lake: 4 slots per cycle (Yasin).
 *   intel_perf_metrics  Ice Lake and later: slots + topdown-* (level 2 fields on SPR+).
 *   amd_pipeline        Zen 4 (width 6) and Zen 5 (width 8): dispatch-slot events.
 * Zen 3 and unknown CPUs have no method: lab_an_tma_unavailable() says why.
 *
 * Fractions are of all pipeline slots. Each is clamped to [0, 1]; bad speculation, which the
 * AMD op-based formula can push slightly below 0, keeps its unclamped value in
 * bad_speculation_raw. A missing input (NaN) leaves the fields that need it NaN.
 */
#ifndef LAB_ANALYZE_TOPDOWN_H
#define LAB_ANALYZE_TOPDOWN_H

struct lab_an_tma {
	const char *method; /* "intel_4wide", "intel_perf_metrics", "amd_pipeline", "none" */
	int level;          /* deepest level computed: 0 (nothing), 1 or 2 */
	const char *reason; /* why level < 1 (or why level 2 is missing); NULL otherwise */
	double retiring, bad_speculation, frontend_bound, backend_bound;
	double smt_contention; /* amd_pipeline; NaN elsewhere */
	double bad_speculation_raw;
	/* level 2 */
	double memory_bound, core_bound;
	double heavy_ops, light_ops;               /* intel_perf_metrics (SPR+) */
	double branch_mispredicts, machine_clears; /* perf_metrics: machine clears; amd: restarts */
	double fetch_latency, fetch_bandwidth;     /* perf_metrics, amd_pipeline */
	double few_uops_cycles, backend_bound_cycles; /* intel_4wide intermediates */
};

/* Intel 4-wide inputs (event names as in the perf JSON). Level 2 fields may be NaN. */
struct lab_an_tma_intel4_in {
	double cpu_clk_unhalted_thread;
	double idq_uops_not_delivered_core;
	double uops_issued_any;
	double uops_retired_retire_slots;
	double int_misc_recovery_cycles;
	double cycle_activity_stalls_mem_any;
	double exe_activity_bound_on_stores;
	double cycle_activity_stalls_total;
	double exe_activity_1_ports_util;
	double exe_activity_2_ports_util;
};

/* Intel perf-metrics inputs: slots and the topdown-* values (level 2 ones NaN before SPR). */
struct lab_an_tma_pm_in {
	double slots;
	double retiring, bad_spec, fe_bound, be_bound;
	double heavy_ops, br_mispredict, fetch_lat, mem_bound;
};

/* AMD pipeline inputs (Zen 4: width 6, fe_no_ops_cmask at cmask 6; Zen 5: 8 and 8). */
struct lab_an_tma_amd_in {
	unsigned width;
	double ls_not_halted_cyc;
	double no_ops_from_frontend, backend_stalls, smt_contention;
	double ex_ret_ops, de_src_op_disp_all;
	double load_not_complete, not_complete;
	double no_ops_from_frontend_cmask;
	double ex_ret_brn_misp, resyncs_or_nc_redirects;
};

/* Each fills out and returns its level (0 when level 1 cannot be computed: out->reason). */
int lab_an_tma_intel_4wide(const struct lab_an_tma_intel4_in *in, struct lab_an_tma *out);
int lab_an_tma_intel_perf_metrics(const struct lab_an_tma_pm_in *in, struct lab_an_tma *out);
int lab_an_tma_amd_pipeline(const struct lab_an_tma_amd_in *in, struct lab_an_tma *out);

/* Method "none" with the reason (e.g. "AMD Zen 3 lacks dispatch-slot events"). */
void lab_an_tma_unavailable(const char *reason, struct lab_an_tma *out);

/* retiring + bad_speculation + frontend_bound + backend_bound (+ smt_contention when known). */
double lab_an_tma_l1_sum(const struct lab_an_tma *t);

#endif
