/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Locks under contention (issue 4): for experiments of kernel `lock`, the points grouped by
 * their conditions (params without `lock`: critical-section and think time, placement), one
 * curve per lock kind, one entry per thread count. Per entry: throughput in acquisitions per
 * second = work/elapsed of each used sample, its mean with a 95 % interval on the log scale; and
 * the median, mean and 95 % t-interval of the kernel's metric columns (n = 0 where a column is
 * absent or empty). The view "locks" (view.h) keeps a struct lab_an_locks as its state.
 */
#ifndef LAB_ANALYZE_VIEWS_LOCKS_H
#define LAB_ANALYZE_VIEWS_LOCKS_H

#include <stddef.h>

#include "analyze/data.h"

/*
 * The metric columns: jain_fairness, handoff_ratio, acq_lat_p99_ns, max_min_ratio, then the
 * delay the results depend on (issue 21 finding 6), cs_achieved_ns and delay_drift_pct. No p50
 * column: on a contended lock it sits at the clock's floor and teaches nothing.
 */
enum {
	LAB_AN_LK_JAIN,
	LAB_AN_LK_HANDOFF,
	LAB_AN_LK_P99,
	LAB_AN_LK_MAXMIN,
	LAB_AN_LK_CS,
	LAB_AN_LK_DRIFT,
	LAB_AN_LK_NMETRIC
};

/* How far (%) a delay may move before a lock point is flagged. */
#define LAB_AN_LK_DELAY_TOL_PCT 10.0
/* An achieved critical section closer than this (ns) to the asked one is not flagged. */
#define LAB_AN_LK_DELAY_RES_NS 50.0

struct lab_an_lock_pt {
	const struct lab_an_point *pt;
	struct lab_an_stats thr; /* acquisitions per second of the used samples */
	struct lab_an_msum m[LAB_AN_LK_NMETRIC];
	/* Intervals that respect the bounds (analyze/stats.h): throughput > 0 on the log scale,
	 * Jain in [1/threads, 1] on the logit scale. NaN when there is none (n <= 1, a
	 * degenerate or single-thread index). */
	double thr_lo, thr_hi, jain_lo, jain_hi;
	double cs_ns; /* the asked critical section (NaN when absent) */
	/* Why the point is flagged (empty: its delay held within LAB_AN_LK_DELAY_TOL_PCT): the
	 * calibration drifted, the achieved critical section is off cs_ns, or the throughput lies
	 * above the physical limit 1/cs_ns. */
	char delay_why[192];
};

struct lab_an_lock_curve {
	char *lock;                /* the `lock` param */
	struct lab_an_lock_pt *pt; /* ascending threads */
	size_t npt, cap;
};

struct lab_an_lock_group {
	const char *experiment;
	char *params;                /* the conditions: point params without `lock` */
	struct lab_an_lock_curve *c; /* in first-seen order */
	size_t nc, cap;
};

struct lab_an_locks {
	struct lab_an_lock_group *g;
	size_t ng, cap;
};

#endif
