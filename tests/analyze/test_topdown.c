/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Top-down and derived counter metrics against the fixture vectors of research/counters.md
 * §7.4, plus invariants: level-1 fractions sum to 1 +- 0.02 and lie in [0, 1].
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "analyze/counters_derive.h"
#include "analyze/topdown.h"
#include "tests/testlib.h"

#define TOL 1e-6

static struct lab_an_tma_intel4_in intel4_fixture(void)
{
	return (struct lab_an_tma_intel4_in){
	    .cpu_clk_unhalted_thread = 1000000,
	    .idq_uops_not_delivered_core = 800000,
	    .uops_issued_any = 2200000,
	    .uops_retired_retire_slots = 2000000,
	    .int_misc_recovery_cycles = 25000,
	    .cycle_activity_stalls_mem_any = 150000,
	    .exe_activity_bound_on_stores = 10000,
	    .cycle_activity_stalls_total = 200000,
	    .exe_activity_1_ports_util = 60000,
	    .exe_activity_2_ports_util = 80000,
	};
}

LAB_TEST(tma_intel_4wide_fixture)
{
	struct lab_an_tma_intel4_in in = intel4_fixture();
	struct lab_an_tma t;

	CHECK_EQ_I64(lab_an_tma_intel_4wide(&in, &t), 2);
	CHECK_EQ_STR(t.method, "intel_4wide");
	CHECK_NEAR(t.frontend_bound, 0.200, TOL);
	CHECK_NEAR(t.bad_speculation, 0.075, TOL);
	CHECK_NEAR(t.retiring, 0.500, TOL);
	CHECK_NEAR(t.backend_bound, 0.225, TOL);
	CHECK_NEAR(lab_an_tma_l1_sum(&t), 1, TOL);
	CHECK_NEAR(t.few_uops_cycles, 100000, 1e-6);
	CHECK_NEAR(t.backend_bound_cycles, 310000, 1e-6);
	CHECK_NEAR(t.memory_bound, 0.116129, TOL);
	CHECK_NEAR(t.core_bound, 0.108871, TOL);
}

LAB_TEST(tma_intel_4wide_level1_only)
{
	struct lab_an_tma_intel4_in in = intel4_fixture();
	struct lab_an_tma t;

	in.cycle_activity_stalls_total = NAN;
	CHECK_EQ_I64(lab_an_tma_intel_4wide(&in, &t), 1);
	CHECK(isnan(t.memory_bound));
	CHECK(t.reason != NULL);
}

LAB_TEST(tma_intel_perf_metrics_fixture)
{
	struct lab_an_tma_pm_in in = {.slots = 6e6,
	                              .retiring = 2.4e6,
	                              .bad_spec = 0.6e6,
	                              .fe_bound = 1.2e6,
	                              .be_bound = 1.8e6,
	                              .heavy_ops = 0.3e6,
	                              .br_mispredict = 0.45e6,
	                              .fetch_lat = 0.9e6,
	                              .mem_bound = 1.2e6};
	struct lab_an_tma t;

	CHECK_EQ_I64(lab_an_tma_intel_perf_metrics(&in, &t), 2);
	CHECK_NEAR(t.retiring, .40, TOL);
	CHECK_NEAR(t.bad_speculation, .10, TOL);
	CHECK_NEAR(t.frontend_bound, .20, TOL);
	CHECK_NEAR(t.backend_bound, .30, TOL);
	CHECK_NEAR(t.heavy_ops, .05, TOL);
	CHECK_NEAR(t.light_ops, .35, TOL);
	CHECK_NEAR(t.branch_mispredicts, .075, TOL);
	CHECK_NEAR(t.machine_clears, .025, TOL);
	CHECK_NEAR(t.fetch_latency, .15, TOL);
	CHECK_NEAR(t.fetch_bandwidth, .05, TOL);
	CHECK_NEAR(t.memory_bound, .20, TOL);
	CHECK_NEAR(t.core_bound, .10, TOL);
	/* Ice Lake: level 1 only. */
	in.heavy_ops = in.br_mispredict = in.fetch_lat = in.mem_bound = NAN;
	CHECK_EQ_I64(lab_an_tma_intel_perf_metrics(&in, &t), 1);
	CHECK(isnan(t.memory_bound));
}

static struct lab_an_tma_amd_in amd_fixture(void)
{
	return (struct lab_an_tma_amd_in){.width = 6,
	                                  .ls_not_halted_cyc = 1e6,
	                                  .no_ops_from_frontend = 1.2e6,
	                                  .backend_stalls = 1.8e6,
	                                  .smt_contention = 0,
	                                  .ex_ret_ops = 2.7e6,
	                                  .de_src_op_disp_all = 3.0e6,
	                                  .load_not_complete = 300e3,
	                                  .not_complete = 500e3,
	                                  .no_ops_from_frontend_cmask = 100e3,
	                                  .ex_ret_brn_misp = 9e3,
	                                  .resyncs_or_nc_redirects = 1e3};
}

LAB_TEST(tma_amd_pipeline_fixture)
{
	struct lab_an_tma_amd_in in = amd_fixture();
	struct lab_an_tma t;

	CHECK_EQ_I64(lab_an_tma_amd_pipeline(&in, &t), 2);
	CHECK_EQ_STR(t.method, "amd_pipeline");
	CHECK_NEAR(t.frontend_bound, .20, TOL);
	CHECK_NEAR(t.bad_speculation, .05, TOL);
	CHECK_NEAR(t.backend_bound, .30, TOL);
	CHECK_NEAR(t.smt_contention, 0, TOL);
	CHECK_NEAR(t.retiring, .45, TOL);
	CHECK_NEAR(t.memory_bound, .18, TOL);
	CHECK_NEAR(t.core_bound, .12, TOL);
	CHECK_NEAR(t.fetch_latency, .10, TOL);
	CHECK_NEAR(t.fetch_bandwidth, .10, TOL);
	CHECK_NEAR(t.branch_mispredicts, .045, TOL);
	CHECK_NEAR(t.machine_clears, .005, TOL);
}

/* Zen 5: the same formulas with 8 slots per cycle. */
LAB_TEST(tma_amd_zen5_width8)
{
	struct lab_an_tma_amd_in in = amd_fixture();
	struct lab_an_tma t;

	in.width = 8;
	in.no_ops_from_frontend = 1.6e6;
	in.backend_stalls = 2.4e6;
	in.ex_ret_ops = 3.6e6;
	in.de_src_op_disp_all = 4.0e6;
	CHECK_EQ_I64(lab_an_tma_amd_pipeline(&in, &t), 2);
	CHECK_NEAR(t.frontend_bound, .20, TOL);
	CHECK_NEAR(t.bad_speculation, .05, TOL);
	CHECK_NEAR(t.retiring, .45, TOL);
	CHECK_NEAR(lab_an_tma_l1_sum(&t), 1, TOL);
}

/* §7.4 edge cases: denominator 0 -> null + reason; negative bad speculation clamped, raw kept. */
LAB_TEST(tma_edge_cases)
{
	struct lab_an_tma_amd_in in = amd_fixture();
	struct lab_an_tma t;

	in.ls_not_halted_cyc = 0;
	CHECK_EQ_I64(lab_an_tma_amd_pipeline(&in, &t), 0);
	CHECK(isnan(t.retiring) && t.reason != NULL);
	in = amd_fixture();
	in.de_src_op_disp_all = 2.64e6; /* fewer dispatched than retired ops */
	CHECK_EQ_I64(lab_an_tma_amd_pipeline(&in, &t), 2);
	CHECK_NEAR(t.bad_speculation, 0, 0);
	CHECK_NEAR(t.bad_speculation_raw, -0.01, TOL);
	/* counts of no pipeline (1e300 ops dispatched in a few slots): no shares, and why */
	in = amd_fixture();
	in.ls_not_halted_cyc = 1e-300;
	in.de_src_op_disp_all = 1e300;
	CHECK_EQ_I64(lab_an_tma_amd_pipeline(&in, &t), 0);
	CHECK(isnan(t.frontend_bound) && isnan(t.bad_speculation) && t.reason != NULL);
	struct lab_an_tma_intel4_in i4 = intel4_fixture();
	i4.cpu_clk_unhalted_thread = NAN;
	CHECK_EQ_I64(lab_an_tma_intel_4wide(&i4, &t), 0);
	CHECK(t.reason != NULL);
}

LAB_TEST(tma_zen3_and_unknown_are_unavailable)
{
	struct lab_an_tma t;

	lab_an_tma_unavailable(
	    "CPUID reads AMD Zen 3 (family 0x19), which lacks dispatch-slot events: no top-down",
	    &t);
	CHECK_EQ_STR(t.method, "none");
	CHECK_EQ_I64(t.level, 0);
	CHECK(isnan(t.retiring) && isnan(t.backend_bound));
	CHECK(strstr(t.reason, "Zen 3") != NULL);
}

static uint64_t td_rng = 88172645463325252ull;

static double td_uniform(void)
{
	td_rng ^= td_rng << 13;
	td_rng ^= td_rng >> 7;
	td_rng ^= td_rng << 17;
	return (double)(td_rng >> 11) / 9007199254740992.0;
}

static void td_check_l1(const struct lab_an_tma *t)
{
	double f[] = {t->retiring, t->bad_speculation, t->frontend_bound, t->backend_bound};

	CHECK_NEAR(lab_an_tma_l1_sum(t), 1, 0.02);
	for (int i = 0; i < 4; i++)
		CHECK(f[i] >= 0 && f[i] <= 1);
}

/* Random consistent machines: slots split into four shares, counts derived from them. */
LAB_TEST(tma_level1_invariants)
{
	for (int trial = 0; trial < 500; trial++) {
		double a = td_uniform(), b = td_uniform() * (1 - a), c = td_uniform() * (1 - a - b);
		double d = 1 - a - b - c, clk = 1e6 * (1 + 100 * td_uniform());
		struct lab_an_tma t;
		/* a = retiring, b = bad speculation, c = front end, d = back end */
		struct lab_an_tma_intel4_in i4 = intel4_fixture();
		i4.cpu_clk_unhalted_thread = clk;
		i4.uops_retired_retire_slots = 4 * clk * a;
		i4.int_misc_recovery_cycles = clk * b / 8;
		i4.uops_issued_any = 4 * clk * a + 4 * clk * b / 2;
		i4.idq_uops_not_delivered_core = 4 * clk * c;
		lab_an_tma_intel_4wide(&i4, &t);
		td_check_l1(&t);
		struct lab_an_tma_pm_in pm = {4 * clk, a * 255, b * 255, c * 255, d * 255,
		                              NAN,     NAN,     NAN,     NAN};
		lab_an_tma_intel_perf_metrics(&pm, &t);
		td_check_l1(&t);
		struct lab_an_tma_amd_in am = amd_fixture();
		am.ls_not_halted_cyc = clk;
		am.ex_ret_ops = 6 * clk * a;
		am.de_src_op_disp_all = 6 * clk * (a + b);
		am.no_ops_from_frontend = 6 * clk * c;
		am.backend_stalls = 6 * clk * d;
		lab_an_tma_amd_pipeline(&am, &t);
		td_check_l1(&t);
		CHECK(t.memory_bound + t.core_bound <= t.backend_bound + 1e-9);
	}
}

LAB_TEST(derived_ipc_ghz_mpki_flops)
{
	const char *why;

	CHECK_NEAR(lab_an_ctr_ipc(3e9, 1.5e9, &why), 2, 1e-12);
	CHECK(why == NULL);
	CHECK_NEAR(lab_an_ctr_ghz(3.6e9, 1e9, &why), 3.6, 1e-12);
	CHECK_NEAR(lab_an_ctr_mpki(5e6, 1e9, &why), 5, 1e-12);
	CHECK(isnan(lab_an_ctr_ipc(1, 0, &why)));
	CHECK_EQ_STR(why, "denominator is 0");
	CHECK(isnan(lab_an_ctr_ipc(NAN, 1, &why)));
	CHECK_EQ_STR(why, "not counted");
	CHECK(isnan(lab_an_ctr_ghz(1e308, 1e-308, &why))); /* no value, and why */
	CHECK(why && strstr(why, "overflows"));
	CHECK_NEAR(lab_an_ctr_flops_intel_dp(1000, 100, 50, 10, &why), 1480, 0);
	CHECK(isnan(lab_an_ctr_flops_intel_dp(1000, NAN, 50, 10, &why)));
	CHECK_NEAR(lab_an_ctr_cycles_estimated(2e6, 3.5, &why), 7e6, 1e-6);
	CHECK(isnan(lab_an_ctr_cycles_estimated(2e6, NAN, &why)));
	CHECK_EQ_STR(why, "no core clock measured");
}
