/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metric domains and the interval clip (analyze/domain.h). */
#include "analyze/domain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The lab's metrics by name (kernels/ *.c declare them; samples.csv names the columns). The
 * harness's own columns follow: counters (ctr_ prefix) and the run-queue wait. */
static const struct {
	const char *name;
	enum lab_an_domain dom;
} dm_names[] = {
    {"jain_fairness", LAB_AN_DOM_JAIN},
    {"handoff_ratio", LAB_AN_DOM_UNIT},
    {"max_min_ratio", LAB_AN_DOM_ATLEAST1},
    {"imbalance", LAB_AN_DOM_MAX_MEAN},
    {"cs_achieved_ns", LAB_AN_DOM_SPAN_DIFF},
    {"delay_drift_pct", LAB_AN_DOM_PCT_CHANGE},
    {"overhead_ns", LAB_AN_DOM_SPAN_DIFF},
    {"lat_samples", LAB_AN_DOM_NONNEG},
    {"acq_lat_p50_ns", LAB_AN_DOM_SPAN},
    {"acq_lat_p99_ns", LAB_AN_DOM_SPAN},
    {"handoffs", LAB_AN_DOM_NONNEG},
    {"delay_ns_per_loop", LAB_AN_DOM_NONNEG},
    {"retries", LAB_AN_DOM_NONNEG},
    {"retries_per_op", LAB_AN_DOM_NONNEG},
    {"one_way_ns", LAB_AN_DOM_SPAN},
    {"one_way_p10_ns", LAB_AN_DOM_SPAN},
    {"one_way_p50_ns", LAB_AN_DOM_SPAN},
    {"one_way_p90_ns", LAB_AN_DOM_SPAN},
    {"batches", LAB_AN_DOM_NONNEG},
    {"flops_per_cycle", LAB_AN_DOM_NONNEG},
    {"core_ghz", LAB_AN_DOM_NONNEG},
    {"test_ns", LAB_AN_DOM_SPAN},
    {"ref_ns", LAB_AN_DOM_SPAN},
    {"delay_ns", LAB_AN_DOM_NONNEG},
    {"makespan_ns", LAB_AN_DOM_SPAN},
    {"ideal_ns", LAB_AN_DOM_NONNEG},
    {"busy_max_ns", LAB_AN_DOM_SPAN},
    {"busy_mean_ns", LAB_AN_DOM_SPAN},
    {"busy_min_ns", LAB_AN_DOM_SPAN},
    {"iters_per_pixel", LAB_AN_DOM_NONNEG},
    {"pixels_per_thread", LAB_AN_DOM_NONNEG},
    {"elems_per_thread", LAB_AN_DOM_NONNEG},
    {"ns_per_load", LAB_AN_DOM_SPAN},
    {"stream_gb_per_s", LAB_AN_DOM_NONNEG},
    /* the largest share of the sample a worker waited for its CPU (harness/runner.h) */
    {"runq_wait", LAB_AN_DOM_UNIT},
    /* the smallest share of its enabled time an event was counted (running / enabled) */
    {"ctr_mux_ratio", LAB_AN_DOM_UNIT},
};

/* Metrics of one sample that are ordered: each pair's first is at most its second. */
static const char *const dm_order[][2] = {
    {"one_way_p10_ns", "one_way_p50_ns"}, {"one_way_p50_ns", "one_way_p90_ns"},
    {"acq_lat_p50_ns", "acq_lat_p99_ns"}, {"busy_min_ns", "busy_mean_ns"},
    {"busy_mean_ns", "busy_max_ns"},
};

const char *lab_an_domain_below(const char *name)
{
	for (size_t i = 0; i < sizeof(dm_order) / sizeof(dm_order[0]); i++)
		if (!strcmp(name, dm_order[i][0]))
			return dm_order[i][1];
	return NULL;
}

enum lab_an_domain lab_an_domain_of(const char *name)
{
	for (size_t i = 0; i < sizeof(dm_names) / sizeof(dm_names[0]); i++)
		if (!strcmp(name, dm_names[i].name))
			return dm_names[i].dom;
	return strncmp(name, "ctr_", 4) ? LAB_AN_DOM_UNKNOWN : LAB_AN_DOM_NONNEG;
}

void lab_an_domain_range(enum lab_an_domain dom, long threads, double *lo, double *hi)
{
	*lo = -INFINITY;
	*hi = INFINITY;
	switch (dom) {
	case LAB_AN_DOM_NONNEG:
	case LAB_AN_DOM_SPAN: /* its upper end is each sample's own (lab_an_domain_span_ok) */
		*lo = 0;
		break;
	case LAB_AN_DOM_UNIT:
		*lo = 0;
		*hi = 1;
		break;
	case LAB_AN_DOM_ATLEAST1:
		*lo = 1;
		break;
	case LAB_AN_DOM_MAX_MEAN:
		*lo = 1;
		*hi = threads > 0 ? (double)threads : INFINITY;
		break;
	case LAB_AN_DOM_JAIN:
		*lo = threads > 0 ? 1.0 / (double)threads : 0;
		*hi = 1;
		break;
	case LAB_AN_DOM_PCT_CHANGE:
		*lo = -100;
		break;
	default:
		break;
	}
}

int lab_an_domain_allows(enum lab_an_domain dom, long threads, double x)
{
	double lo, hi;

	if (dom == LAB_AN_DOM_UNKNOWN || dom == LAB_AN_DOM_ANY || dom == LAB_AN_DOM_SPAN_DIFF)
		return 1;
	lab_an_domain_range(dom, threads, &lo, &hi);
	return x >= lo - 1e-9 * fabs(lo) && x <= hi + 1e-9 * fabs(hi);
}

int lab_an_domain_span_ok(double x, double elapsed_ns)
{
	/* the lock kernel's percentiles are a histogram bucket's middle, up to 1/16 above the
	 * latency measured (kernels/lat_hist.h) */
	return x <= elapsed_ns * 1.08 + 1000;
}

int lab_an_domain_fits(enum lab_an_domain dom, double x, double elapsed_ns)
{
	if (dom == LAB_AN_DOM_SPAN)
		return lab_an_domain_span_ok(x, elapsed_ns);
	if (dom == LAB_AN_DOM_SPAN_DIFF)
		return lab_an_domain_span_ok(fabs(x), elapsed_ns);
	return 1;
}

const char *lab_an_domain_text(enum lab_an_domain dom, long threads, char *buf, size_t len)
{
	double lo, hi;

	lab_an_domain_range(dom, threads, &lo, &hi);
	if (isinf(hi))
		snprintf(buf, len, "a finite number >= %.6g, or empty", lo);
	else
		snprintf(buf, len, "a number in [%.6g, %.6g], or empty", lo, hi);
	return buf;
}

void lab_an_domain_clip(enum lab_an_domain dom, long threads, double min, double *lo, double *hi)
{
	double a, b;

	lab_an_domain_range(dom, threads, &a, &b);
	/* a drift from the fastest calibration (kernels/delay.h) is >= 0; files before it could
	 * drift below 0, and their samples say so */
	if ((dom == LAB_AN_DOM_UNKNOWN || dom == LAB_AN_DOM_PCT_CHANGE) && min >= 0)
		a = 0;
	if (*lo < a)
		*lo = a;
	if (*hi > b)
		*hi = b;
	if (*hi < a) /* wholly outside: only with samples outside the domain (refused) */
		*hi = a;
	if (*lo > b)
		*lo = b;
}
