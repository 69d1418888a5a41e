/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Metric domains and the interval clip (analyze/domain.h). */
#include "analyze/domain.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

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

int lab_an_domain_allows(enum lab_domain dom, long threads, double x)
{
	double lo, hi;

	if (dom == LAB_DOM_UNKNOWN || dom == LAB_DOM_ANY || dom == LAB_DOM_SPAN_DIFF)
		return 1;
	lab_domain_range(dom, threads, &lo, &hi);
	return x >= lo - 1e-9 * fabs(lo) && x <= hi + 1e-9 * fabs(hi);
}

int lab_an_domain_span_ok(double x, double elapsed_ns)
{
	/* the lock kernel's percentiles are a histogram bucket's middle, up to 1/16 above the
	 * latency measured (kernels/lat_hist.h) */
	return x <= elapsed_ns * 1.08 + 1000;
}

int lab_an_domain_fits(enum lab_domain dom, double x, double elapsed_ns)
{
	if (dom == LAB_DOM_SPAN)
		return lab_an_domain_span_ok(x, elapsed_ns);
	if (dom == LAB_DOM_SPAN_DIFF)
		return lab_an_domain_span_ok(fabs(x), elapsed_ns);
	return 1;
}

const char *lab_an_domain_text(enum lab_domain dom, long threads, char *buf, size_t len)
{
	double lo, hi;

	lab_domain_range(dom, threads, &lo, &hi);
	if (isinf(hi))
		snprintf(buf, len, "a finite number >= %.6g, or empty", lo);
	else
		snprintf(buf, len, "a number in [%.6g, %.6g], or empty", lo, hi);
	return buf;
}

void lab_an_domain_clip(enum lab_domain dom, long threads, double min, double *lo, double *hi)
{
	double a, b;

	lab_domain_range(dom, threads, &a, &b);
	/* a drift from the fastest calibration (kernels/delay.h) is >= 0; files before it could
	 * drift below 0, and their samples say so */
	if ((dom == LAB_DOM_UNKNOWN || dom == LAB_DOM_PCT_CHANGE) && min >= 0)
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
