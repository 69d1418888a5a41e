/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Whether the busy-loop delay a lock point's results rest on held (issue 21 finding 6): its
 * calibration drifted from the run's fastest, its achieved critical section is off the asked
 * cs_ns, or its throughput lies above the limit one section at a time allows (1/cs_ns). The
 * locks view flags such a row; a lesson that reads the point says so after its verdict.
 */
#ifndef LAB_ANALYZE_VIEWS_LOCKS_DELAY_H
#define LAB_ANALYZE_VIEWS_LOCKS_DELAY_H

#include <stddef.h>

#include "analyze/data.h"

/* How far (%) a delay may move before a lock point is flagged. */
#define LAB_AN_DELAY_TOL_PCT 10.0
/* An achieved critical section closer than this (ns) to the asked one is not flagged. */
#define LAB_AN_DELAY_RES_NS 50.0

/* What a point's delay came to: the medians of its cs_achieved_ns and delay_drift_pct (and
 * how many samples have them; 0: none; a cs_median of NaN: below the clock's resolution, not
 * checked) and the lower end of its throughput (acquisitions per second, all threads; NaN:
 * unknown), thr_n samples behind it. */
struct lab_an_delay {
	double cs_median, drift_median, thr_lo;
	size_t cs_n, drift_n, thr_n;
};

/* "DELAY FLAGGED: " and the reasons ("; " between them) of a point of params (its cs_ns,
 * think_ns and lock) into buf, or NULL when its delay held; a cs_ns that is no duration (a
 * file's "inf", "0x10") is a reason, not a number. */
const char *lab_an_delay_flag(const char *params, const struct lab_an_delay *x, char *buf,
                              size_t len);
/* The same of point p of d, from its metric medians and its cost's interval (the rate's lower
 * end is 1e9 over the cost's upper end); NULL too when p records no delay metric. */
const char *lab_an_delay_point(const struct lab_an_data *d, const struct lab_an_point *p, char *buf,
                               size_t len);

#endif
