/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "analyze/topdown.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

static double td_clamp(double x)
{
	return isnan(x) ? x : x < 0 ? 0 : x > 1 ? 1 : x;
}

/* A raw level-1 share as counts can give it: a little below 0 or above 1 (op-based), no more. */
static bool td_share_ok(double v)
{
	return v >= -1 && v <= 2;
}

static void td_init(struct lab_an_tma *t, const char *method)
{
	t->method = method;
	t->level = 0;
	t->reason = NULL;
	t->retiring = t->bad_speculation = t->frontend_bound = t->backend_bound = NAN;
	t->smt_contention = t->bad_speculation_raw = NAN;
	t->memory_bound = t->core_bound = t->heavy_ops = t->light_ops = NAN;
	t->branch_mispredicts = t->machine_clears = t->fetch_latency = t->fetch_bandwidth = NAN;
	t->few_uops_cycles = t->backend_bound_cycles = NAN;
}

static int td_none(struct lab_an_tma *t, const char *reason)
{
	t->reason = reason;
	return 0;
}

/* The denominator is usable: a number above 0. */
static bool td_den(double d)
{
	return isfinite(d) && d > 0;
}

void lab_an_tma_unavailable(const char *reason, struct lab_an_tma *out)
{
	td_init(out, "none");
	out->reason = reason;
}

double lab_an_tma_l1_sum(const struct lab_an_tma *t)
{
	double s = t->retiring + t->bad_speculation + t->frontend_bound + t->backend_bound;

	return isnan(t->smt_contention) ? s : s + t->smt_contention;
}

int lab_an_tma_intel_4wide(const struct lab_an_tma_intel4_in *in, struct lab_an_tma *t)
{
	td_init(t, "intel_4wide");
	double slots = 4 * in->cpu_clk_unhalted_thread;
	if (!td_den(slots))
		return td_none(t, "cycles (cpu_clk_unhalted.thread) not counted or 0");
	double fe = in->idq_uops_not_delivered_core / slots;
	double bs = (in->uops_issued_any - in->uops_retired_retire_slots +
	             4 * in->int_misc_recovery_cycles) /
	            slots;
	double ret = in->uops_retired_retire_slots / slots;
	if (isnan(fe) || isnan(bs) || isnan(ret))
		return td_none(t, "a level-1 event was not counted");
	if (!td_share_ok(fe) || !td_share_ok(bs) || !td_share_ok(ret))
		return td_none(t, "a level-1 share of slots is far outside 0 .. 1 (counts that "
		                  "describe no pipeline)");
	t->frontend_bound = td_clamp(fe);
	t->bad_speculation_raw = bs;
	t->bad_speculation = td_clamp(bs);
	t->retiring = td_clamp(ret);
	t->backend_bound = td_clamp(1 - fe - bs - ret);
	t->level = 1;
	/* Level 2: the share of back-end-bound cycles that wait on memory. */
	t->few_uops_cycles = in->exe_activity_1_ports_util + ret * in->exe_activity_2_ports_util;
	t->backend_bound_cycles =
	    in->cycle_activity_stalls_total + t->few_uops_cycles + in->exe_activity_bound_on_stores;
	if (!td_den(t->backend_bound_cycles)) {
		t->reason = "level 2 events not counted";
		return 1;
	}
	double mem = (in->cycle_activity_stalls_mem_any + in->exe_activity_bound_on_stores) /
	             t->backend_bound_cycles * t->backend_bound;
	if (isnan(mem)) {
		t->reason = "level 2 events not counted";
		return 1;
	}
	t->memory_bound = td_clamp(mem);
	t->core_bound = td_clamp(t->backend_bound - mem);
	t->level = 2;
	return 2;
}

int lab_an_tma_intel_perf_metrics(const struct lab_an_tma_pm_in *in, struct lab_an_tma *t)
{
	td_init(t, "intel_perf_metrics");
	/* The hardware keeps four 8-bit fractions summing to 0xff: normalise by their sum. */
	double s4 = in->retiring + in->bad_spec + in->fe_bound + in->be_bound;
	if (!td_den(s4))
		return td_none(t, "topdown-* events not counted or 0");
	t->retiring = td_clamp(in->retiring / s4);
	t->bad_speculation_raw = in->bad_spec / s4;
	t->bad_speculation = td_clamp(t->bad_speculation_raw);
	t->frontend_bound = td_clamp(in->fe_bound / s4);
	t->backend_bound = td_clamp(in->be_bound / s4);
	t->level = 1;
	if (isnan(in->heavy_ops) || isnan(in->br_mispredict) || isnan(in->fetch_lat) ||
	    isnan(in->mem_bound)) {
		t->reason =
		    "level 2 needs the topdown-* level-2 events (Sapphire Rapids and later)";
		return 1;
	}
	t->heavy_ops = td_clamp(in->heavy_ops / s4);
	t->light_ops = td_clamp(t->retiring - t->heavy_ops);
	t->branch_mispredicts = td_clamp(in->br_mispredict / s4);
	t->machine_clears = td_clamp(t->bad_speculation - t->branch_mispredicts);
	t->fetch_latency = td_clamp(in->fetch_lat / s4);
	t->fetch_bandwidth = td_clamp(t->frontend_bound - t->fetch_latency);
	t->memory_bound = td_clamp(in->mem_bound / s4);
	t->core_bound = td_clamp(t->backend_bound - t->memory_bound);
	t->level = 2;
	return 2;
}

/* AMD level 2: memory vs cpu, latency vs bandwidth, mispredicts vs restarts. */
static int td_amd_l2(const struct lab_an_tma_amd_in *in, double slots, double fe_raw,
                     struct lab_an_tma *t)
{
	double w = in->width;

	if (!td_den(in->not_complete) || isnan(in->load_not_complete) ||
	    isnan(in->no_ops_from_frontend_cmask)) {
		t->reason = "level 2 events not counted";
		return 1;
	}
	double mem_share = in->load_not_complete / in->not_complete;
	t->memory_bound = td_clamp(t->backend_bound * mem_share);
	t->core_bound = td_clamp(t->backend_bound * (1 - mem_share));
	t->fetch_latency = td_clamp(w * in->no_ops_from_frontend_cmask / slots);
	t->fetch_bandwidth = td_clamp(fe_raw - w * in->no_ops_from_frontend_cmask / slots);
	double redirects = in->ex_ret_brn_misp + in->resyncs_or_nc_redirects;
	if (td_den(redirects)) {
		t->branch_mispredicts =
		    td_clamp(t->bad_speculation * in->ex_ret_brn_misp / redirects);
		t->machine_clears =
		    td_clamp(t->bad_speculation * in->resyncs_or_nc_redirects / redirects);
	}
	t->level = 2;
	return 2;
}

int lab_an_tma_amd_pipeline(const struct lab_an_tma_amd_in *in, struct lab_an_tma *t)
{
	td_init(t, "amd_pipeline");
	double slots = in->width * in->ls_not_halted_cyc;
	if (in->width == 0 || !td_den(slots))
		return td_none(t, "cycles (ls_not_halted_cyc) not counted or 0");
	double fe = in->no_ops_from_frontend / slots;
	double bs = (in->de_src_op_disp_all - in->ex_ret_ops) / slots;
	double be = in->backend_stalls / slots;
	double ret = in->ex_ret_ops / slots;
	if (isnan(fe) || isnan(bs) || isnan(be) || isnan(ret))
		return td_none(t, "a level-1 event was not counted");
	/* a share of slots far outside [0, 1] (1e300 ops dispatched in 8e-300 slots) describes no
	 * pipeline: clamped one by one, the shares summed to 2 */
	if (!td_share_ok(fe) || !td_share_ok(bs) || !td_share_ok(be) || !td_share_ok(ret))
		return td_none(t, "a level-1 share of slots is far outside 0 .. 1 (counts that "
		                  "describe no pipeline)");
	t->frontend_bound = td_clamp(fe);
	t->bad_speculation_raw = bs;
	/* Op-based, not slot-based: it can come out slightly negative. */
	t->bad_speculation = td_clamp(bs);
	t->backend_bound = td_clamp(be);
	t->retiring = td_clamp(ret);
	t->smt_contention = isnan(in->smt_contention) ? 0 : td_clamp(in->smt_contention / slots);
	t->level = 1;
	return td_amd_l2(in, slots, fe, t);
}
