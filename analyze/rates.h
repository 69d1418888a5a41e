/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Rates derived from a point's declared work per unit (run.json "work_per_unit"), as
 * likwid-bench derives them: GB/s (GB = 1e9 bytes) of bytes read + written (the STREAM count),
 * the same plus declared write-allocate traffic, GFLOP/s, and flops per byte. The cost is in
 * ns per unit, so bytes/cost is bytes per ns = GB/s. The 95 % interval of a rate is the image of
 * the cost's t-interval under r = w/c (decreasing): [w/c_hi, w/c_lo], the upper end unbounded
 * when c_lo <= 0; none when the point has fewer than 2 samples.
 */
#ifndef LAB_ANALYZE_RATES_H
#define LAB_ANALYZE_RATES_H

#include <stddef.h>

#include "analyze/data.h"

struct lab_an_rate {
	double v, lo, hi; /* NaN without samples; lo/hi NaN without an interval, hi +inf open */
};

struct lab_an_rates {
	int has;                       /* the point declares work_per_unit */
	double bytes, bytes_wa, flops; /* per unit: read + written, write-allocate, flops */
	double bytes_written;          /* per unit: of bytes, those written */
	struct lab_an_rate gbytes, gbytes_wa, gflops;
	double flops_per_byte; /* exact (declared); NaN without bytes */
	/* work_per_unit's "bandwidth_bound": 1 its GB/s may set a bandwidth ceiling, 0 not, -1
	 * not declared (results of a lab from before the key) */
	int bandwidth_bound;
	/* work_per_unit's "adds_only": 1 every flop is an add (held under an add peak), else 0 */
	int adds_only;
};

/* Fills r for point p of d from its run.json entry's work_per_unit (r->has = 0 when p declares
 * no work or d is external data). */
void lab_an_rates_compute(const struct lab_an_data *d, const struct lab_an_point *p,
                          struct lab_an_rates *r);

#endif
