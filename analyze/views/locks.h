/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Locks under contention (issue 4): for experiments of kernel `lock`, the points grouped by
 * their conditions (params without `lock`: critical-section and think time, placement), one
 * curve per lock kind, one entry per thread count. Per entry: throughput in acquisitions per
 * second = work/elapsed of each used sample, its mean with a 95 % t-interval (df = n-1); and
 * the median, mean and 95 % t-interval of the kernel's metric columns jain_fairness,
 * handoff_ratio, acq_lat_p99_ns and max_min_ratio (n = 0 where a column is absent or empty).
 * Pure computation on loaded, summarized data. The view "locks" (analyze/views/view.h): its
 * state is a struct lab_an_locks.
 */
#ifndef LAB_ANALYZE_VIEWS_LOCKS_H
#define LAB_ANALYZE_VIEWS_LOCKS_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/data.h"
#include "analyze/err.h"

/* No p50 column: on a contended lock it sits at the clock's floor and teaches nothing. */
enum { LAB_AN_LK_JAIN, LAB_AN_LK_HANDOFF, LAB_AN_LK_P99, LAB_AN_LK_MAXMIN, LAB_AN_LK_NMETRIC };

/* The metric column names, indexed by the enum above. */
extern const char *const lab_an_lock_metric[LAB_AN_LK_NMETRIC];

struct lab_an_lock_pt {
	const struct lab_an_point *pt;
	struct lab_an_stats thr; /* acquisitions per second of the used samples */
	struct lab_an_msum m[LAB_AN_LK_NMETRIC];
	/*
	 * Intervals that respect the bounds (analyze/stats.h): throughput > 0 on the log scale,
	 * Jain in [1/threads, 1] on the logit scale. NaN when there is none (n <= 1, a
	 * degenerate or single-thread index).
	 */
	double thr_lo, thr_hi, jain_lo, jain_hi;
	/*
	 * The delay the results depend on (issue 21 finding 6): cs_achieved_ns and
	 * delay_drift_pct (n = 0 where not recorded), the asked cs_ns (NaN when absent), and
	 * why the point is flagged (empty: its delay held within LAB_AN_LK_DELAY_TOL_PCT):
	 * the calibration drifted, the achieved critical section is off the asked one, or the
	 * throughput lies above the physical limit 1/cs_ns.
	 */
	struct lab_an_msum cs, drift;
	double cs_ns;
	char delay_why[192];
};

/* How far (%) a delay may move before a lock point is flagged. */
#define LAB_AN_LK_DELAY_TOL_PCT 10.0
/* An achieved critical section closer than this (ns) to the asked one is not flagged. */
#define LAB_AN_LK_DELAY_RES_NS 50.0

struct lab_an_lock_curve {
	char *lock;                /* the `lock` param */
	struct lab_an_lock_pt *pt; /* ascending threads */
	size_t npt;
};

struct lab_an_lock_group {
	const char *experiment;
	char *params;                /* the conditions: point params without `lock` */
	struct lab_an_lock_curve *c; /* in first-seen order */
	size_t nc;
};

struct lab_an_locks {
	struct lab_an_lock_group *g;
	size_t ng;
};

/* 1 when p is a lock point: declared "locks" view, or (older files) a `lock` param beside the
 * jain_fairness metric. */
int lab_an_locks_applies(const struct lab_an_data *d, const struct lab_an_point *p);
/* Groups every point the view applies to in d (summarized with the same include_flagged). Points
 * that are not ok stay in their curve with thr.n = 0. Returns 0 or -LAB_ENOMEM. */
int lab_an_locks_run(const struct lab_an_data *d, int include_flagged, struct lab_an_locks *l,
                     struct lab_err *err);
void lab_an_locks_free(struct lab_an_locks *l);

struct lab_json;
/* Writes "locks": {...} of experiment exp into the open object of w. */
void lab_an_locks_json(struct lab_json *w, const struct lab_an_locks *l, const char *exp);

struct lab_an_plots;
struct lab_an_pdir;
/* The view's emitters (state: a struct lab_an_locks): text tables (locks_text.c), the report
 * section (locks_html.c) and the plots (locks_plot.c). */
void lab_an_locks_text(FILE *f, const void *state);
void lab_an_locks_html(FILE *f, const void *state, const struct lab_an_plots *plots,
                       const char *dir);
int lab_an_lock_plots(const void *state, const struct lab_an_data *d,
                      const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                      struct lab_err *err);

#endif
