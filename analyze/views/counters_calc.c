/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The counters view's derived metrics and top-down, from a point's medians (pure formulas in
 * analyze/counters_derive.c and analyze/topdown.c). */
#include <math.h>
#include <string.h>

#include "analyze/counters_derive.h"
#include "analyze/views/counters.h"

const char *const lab_an_ctr_derived_name[LAB_AN_CD_N] = {
    "ipc", "ghz", "cycles_estimated", "cache_mpki", "branch_mpki", "l1d_mpki"};

/* num / den x scale from columns: NaN with the reason of the missing input, or the formula's. */
static void an_ratio(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                     struct lab_an_ctr_pt *e, int k, const char *num, const char *den, double scale)
{
	struct lab_an_ctr_val *v = &e->dv[k];
	double a = lab_an_ctrs_med(c, e, num), b = lab_an_ctrs_med(c, e, den);
	const char *why = NULL;

	v->v = lab_an_ctr_ratio(a, b, scale, &why);
	if (isnan(a) || isnan(b))
		lab_an_ctrs_why(d, c, e->pt, isnan(a) ? num : den, v->reason, sizeof(v->reason));
	else if (why)
		snprintf(v->reason, sizeof(v->reason), "%s", why);
}

/* GHz from cycles, else the self-check's estimated core clock; cycles estimated without a
 * cycle counter. */
static void an_clock(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                     struct lab_an_ctr_pt *e)
{
	struct lab_an_ctr_val *g = &e->dv[LAB_AN_CD_GHZ], *y = &e->dv[LAB_AN_CD_CYC_EST];
	const char *why = NULL;

	an_ratio(d, c, e, LAB_AN_CD_GHZ, "ctr_cycles", "ctr_task_clock", 1);
	y->v = NAN;
	if (!isnan(lab_an_ctrs_med(c, e, "ctr_cycles"))) {
		snprintf(y->reason, sizeof(y->reason), "cycles counted");
		return;
	}
	y->v =
	    lab_an_ctr_cycles_estimated(lab_an_ctrs_med(c, e, "ctr_task_clock"), c->core_ghz, &why);
	y->estimated = !isnan(y->v);
	snprintf(y->reason, sizeof(y->reason), "%s",
	         why ? why : "estimated: task-clock x the self-check's core clock");
	if (c->core_ghz > 0) {
		g->v = c->core_ghz;
		g->estimated = 1;
		snprintf(g->reason, sizeof(g->reason),
		         "estimated: the self-check's core clock (no cycle counter)");
	}
}

static double an_m(const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e, const char *n)
{
	return lab_an_ctrs_med(c, e, n);
}

static void an_tma_intel4(const struct lab_an_ctrs *c, struct lab_an_ctr_pt *e)
{
	struct lab_an_tma_intel4_in in = {
	    .cpu_clk_unhalted_thread = an_m(c, e, "ctr_cpu_clk_unhalted_thread"),
	    .idq_uops_not_delivered_core = an_m(c, e, "ctr_idq_uops_not_delivered_core"),
	    .uops_issued_any = an_m(c, e, "ctr_uops_issued_any"),
	    .uops_retired_retire_slots = an_m(c, e, "ctr_uops_retired_retire_slots"),
	    .int_misc_recovery_cycles = an_m(c, e, "ctr_int_misc_recovery_cycles"),
	    .cycle_activity_stalls_mem_any = an_m(c, e, "ctr_cycle_activity_stalls_mem_any"),
	    .exe_activity_bound_on_stores = an_m(c, e, "ctr_exe_activity_bound_on_stores"),
	    .cycle_activity_stalls_total = an_m(c, e, "ctr_cycle_activity_stalls_total"),
	    .exe_activity_1_ports_util = an_m(c, e, "ctr_exe_activity_1_ports_util"),
	    .exe_activity_2_ports_util = an_m(c, e, "ctr_exe_activity_2_ports_util"),
	};

	lab_an_tma_intel_4wide(&in, &e->tma);
}

static void an_tma_pm(const struct lab_an_ctrs *c, struct lab_an_ctr_pt *e)
{
	struct lab_an_tma_pm_in in = {
	    .slots = an_m(c, e, "ctr_slots"),
	    .retiring = an_m(c, e, "ctr_topdown_retiring"),
	    .bad_spec = an_m(c, e, "ctr_topdown_bad_spec"),
	    .fe_bound = an_m(c, e, "ctr_topdown_fe_bound"),
	    .be_bound = an_m(c, e, "ctr_topdown_be_bound"),
	    .heavy_ops = an_m(c, e, "ctr_topdown_heavy_ops"),
	    .br_mispredict = an_m(c, e, "ctr_topdown_br_mispredict"),
	    .fetch_lat = an_m(c, e, "ctr_topdown_fetch_lat"),
	    .mem_bound = an_m(c, e, "ctr_topdown_mem_bound"),
	};

	lab_an_tma_intel_perf_metrics(&in, &e->tma);
}

/* Zen 5 (family 0x1a) dispatches 8 ops a cycle and its latency event uses cmask 8; Zen 4: 6. */
static void an_tma_amd(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                       struct lab_an_ctr_pt *e)
{
	const struct lab_an_json *h = lab_an_json_get(lab_an_json_get(d->run, "host"), "counters");
	int zen5 = lab_an_json_num(h, "family", 0) == 0x1a;
	struct lab_an_tma_amd_in in = {
	    .width = zen5 ? 8 : 6,
	    .ls_not_halted_cyc = an_m(c, e, "ctr_ls_not_halted_cyc"),
	    .no_ops_from_frontend = an_m(c, e, "ctr_de_no_dispatch_per_slot_no_ops_from_frontend"),
	    .backend_stalls = an_m(c, e, "ctr_de_no_dispatch_per_slot_backend_stalls"),
	    .smt_contention = an_m(c, e, "ctr_de_no_dispatch_per_slot_smt_contention"),
	    .ex_ret_ops = an_m(c, e, "ctr_ex_ret_ops"),
	    .de_src_op_disp_all = an_m(c, e, "ctr_de_src_op_disp_all"),
	    .load_not_complete = an_m(c, e, "ctr_ex_no_retire_load_not_complete"),
	    .not_complete = an_m(c, e, "ctr_ex_no_retire_not_complete"),
	    .no_ops_from_frontend_cmask =
	        an_m(c, e,
	             zen5 ? "ctr_de_no_dispatch_per_slot_no_ops_from_frontend_cmask8"
	                  : "ctr_de_no_dispatch_per_slot_no_ops_from_frontend_cmask6"),
	    .ex_ret_brn_misp = an_m(c, e, "ctr_ex_ret_brn_misp"),
	    .resyncs_or_nc_redirects = an_m(c, e, "ctr_resyncs_or_nc_redirects"),
	};

	lab_an_tma_amd_pipeline(&in, &e->tma);
}

/* The first event a level-1 method needs (the reason when it was not counted). */
static const char *an_tma_lead(const char *method)
{
	if (!strcmp(method, "intel_4wide"))
		return "ctr_cpu_clk_unhalted_thread";
	if (!strcmp(method, "intel_perf_metrics"))
		return "ctr_slots";
	return "ctr_ls_not_halted_cyc";
}

static void an_topdown(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                       struct lab_an_ctr_pt *e)
{
	const struct lab_an_json *h = lab_an_json_get(lab_an_json_get(d->run, "host"), "counters");
	const char *why = lab_an_json_str(h, "topdown_reason");
	char buf[200];

	if (!strcmp(c->method, "intel_4wide"))
		an_tma_intel4(c, e);
	else if (!strcmp(c->method, "intel_perf_metrics"))
		an_tma_pm(c, e);
	else if (!strcmp(c->method, "amd_pipeline"))
		an_tma_amd(d, c, e);
	else
		lab_an_tma_unavailable(why && *why ? why
		                       : h         ? "no top-down method for this CPU"
		                                   : "run.json records no host.counters",
		                       &e->tma);
	if (e->tma.level == 0 && strcmp(c->method, "none")) {
		lab_an_ctrs_why(d, c, e->pt, an_tma_lead(c->method), buf, sizeof(buf));
		snprintf(e->tma_reason, sizeof(e->tma_reason), "%s (%s)",
		         e->tma.reason ? e->tma.reason : "not computed", buf);
	} else if (e->tma.level < 2 && e->tma.reason) {
		snprintf(e->tma_reason, sizeof(e->tma_reason), "%s", e->tma.reason);
	}
}

void lab_an_ctrs_derive(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                        struct lab_an_ctr_pt *e)
{
	an_ratio(d, c, e, LAB_AN_CD_IPC, "ctr_instructions", "ctr_cycles", 1);
	an_clock(d, c, e);
	an_ratio(d, c, e, LAB_AN_CD_CACHE_MPKI, "ctr_cache_misses", "ctr_instructions", 1000);
	an_ratio(d, c, e, LAB_AN_CD_BRANCH_MPKI, "ctr_branch_misses", "ctr_instructions", 1000);
	an_ratio(d, c, e, LAB_AN_CD_L1D_MPKI, "ctr_l1_dcache_load_misses", "ctr_instructions",
	         1000);
	an_topdown(d, c, e);
}
