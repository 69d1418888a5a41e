/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metric domains by name (harness/metric_domain.h). */
#include "harness/metric_domain.h"

#include <math.h>
#include <string.h>

/* The lab's metrics by name (kernels/ *.c declare them; samples.csv names the columns). The
 * harness's own columns follow: counters (ctr_ prefix) and the run-queue wait. */
static const struct {
	const char *name;
	enum lab_domain dom;
} dm_names[] = {
    {"jain_fairness", LAB_DOM_JAIN},
    {"handoff_ratio", LAB_DOM_UNIT},
    {"max_min_ratio", LAB_DOM_ATLEAST1},
    {"imbalance", LAB_DOM_MAX_MEAN},
    {"cs_achieved_ns", LAB_DOM_SPAN_DIFF},
    {"delay_drift_pct", LAB_DOM_PCT_CHANGE},
    {"overhead_ns", LAB_DOM_SPAN_DIFF},
    {"lat_samples", LAB_DOM_NONNEG},
    {"acq_lat_p50_ns", LAB_DOM_SPAN},
    {"acq_lat_p99_ns", LAB_DOM_SPAN},
    {"handoffs", LAB_DOM_NONNEG},
    {"delay_ns_per_loop", LAB_DOM_NONNEG},
    {"retries", LAB_DOM_NONNEG},
    {"retries_per_op", LAB_DOM_NONNEG},
    {"one_way_ns", LAB_DOM_SPAN},
    {"one_way_p10_ns", LAB_DOM_SPAN},
    {"one_way_p50_ns", LAB_DOM_SPAN},
    {"one_way_p90_ns", LAB_DOM_SPAN},
    {"batches", LAB_DOM_NONNEG},
    {"flops_per_cycle", LAB_DOM_NONNEG},
    {"core_ghz", LAB_DOM_NONNEG},
    {"test_ns", LAB_DOM_SPAN},
    {"ref_ns", LAB_DOM_SPAN},
    {"delay_ns", LAB_DOM_NONNEG},
    {"makespan_ns", LAB_DOM_SPAN},
    {"ideal_ns", LAB_DOM_NONNEG},
    {"busy_max_ns", LAB_DOM_SPAN},
    {"busy_mean_ns", LAB_DOM_SPAN},
    {"busy_min_ns", LAB_DOM_SPAN},
    {"iters_per_pixel", LAB_DOM_NONNEG},
    {"pixels_per_thread", LAB_DOM_NONNEG},
    {"elems_per_thread", LAB_DOM_NONNEG},
    {"ns_per_load", LAB_DOM_SPAN},
    {"stream_gb_per_s", LAB_DOM_NONNEG},
    /* the largest share of the sample a worker waited for its CPU (harness/runner.h) */
    {"runq_wait", LAB_DOM_UNIT},
    /* the smallest share of its enabled time an event was counted (running / enabled) */
    {"ctr_mux_ratio", LAB_DOM_UNIT},
};

enum lab_domain lab_domain_of(const char *name)
{
	for (size_t i = 0; i < sizeof(dm_names) / sizeof(dm_names[0]); i++)
		if (!strcmp(name, dm_names[i].name))
			return dm_names[i].dom;
	return strncmp(name, "ctr_", 4) ? LAB_DOM_UNKNOWN : LAB_DOM_NONNEG;
}

void lab_domain_range(enum lab_domain dom, long threads, double *lo, double *hi)
{
	*lo = -INFINITY;
	*hi = INFINITY;
	switch (dom) {
	case LAB_DOM_NONNEG:
	case LAB_DOM_SPAN: /* its upper end is each sample's own (lab_an_domain_span_ok) */
		*lo = 0;
		break;
	case LAB_DOM_UNIT:
		*lo = 0;
		*hi = 1;
		break;
	case LAB_DOM_ATLEAST1:
		*lo = 1;
		break;
	case LAB_DOM_MAX_MEAN:
		*lo = 1;
		*hi = threads > 0 ? (double)threads : INFINITY;
		break;
	case LAB_DOM_JAIN:
		*lo = threads > 0 ? 1.0 / (double)threads : 0;
		*hi = 1;
		break;
	case LAB_DOM_PCT_CHANGE:
		*lo = -100;
		break;
	default:
		break;
	}
}
