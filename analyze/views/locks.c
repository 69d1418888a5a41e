/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Locks under contention (issue 4): for experiments of kernel `lock`, the points grouped by
 * their conditions (params without `lock`: critical-section and think time, placement), one
 * curve per lock kind, one entry per thread count. Per entry: throughput in acquisitions per
 * second = 1e9 / the mean cost of the used samples (as a lesson's throughput() reads it), with
 * the cost's 95 % interval on the log scale, inverted;
 * Jain's fairness with its interval inside [1/threads, 1]; the hand-off ratio, acquire latency
 * p99, the max/min ratio, then the delay the results depend on (issue 21 finding 6):
 * cs_achieved_ns and delay_drift_pct. No p50 column: on a contended lock it sits at the clock's
 * floor and teaches nothing. A point whose delay moved is DELAY FLAGGED in its row's note.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analyze/render/doc.h"
#include "analyze/views/curves.h"
#include "analyze/views/locks_delay.h"
#include "analyze/views/view.h"

/* The columns (the spec's col[]). */
enum { LK_N, LK_THR, LK_JAIN, LK_HANDOFF, LK_P99, LK_MAXMIN, LK_CS, LK_DRIFT, LK_MODES, LK_POINT };

/* The delay checks of e (locks_delay.c): "DELAY FLAGGED: " and the reasons, or NULL when
 * the delay held. */
static const char *lk_delay(struct lab_doc *doc, const struct lab_an_cv_pt *e)
{
	const struct lab_an_cv_val *cs = &e->v[LK_CS], *drift = &e->v[LK_DRIFT],
	                           *thr = &e->v[LK_THR];
	struct lab_an_delay x = {.cs_median = cs->median,
	                         .cs_n = cs->n,
	                         .drift_median = drift->median,
	                         .drift_n = drift->n,
	                         .thr_lo = isfinite(thr->lo) ? thr->lo : thr->mean,
	                         .thr_n = thr->n};
	char buf[448];
	const char *why = lab_an_delay_flag(e->pt->params, &x, buf, sizeof(buf));

	return why ? lab_doc_printf(doc, "%s", why) : NULL;
}

static const struct lab_an_cv_spec lk_spec = {
    .view = "locks",
    .title = "Locks under contention",
    .about =
        "Throughput = millions of acquisitions per second, all threads together (work / "
        "elapsed of each sample; mean and 95 % interval on the log scale, so it stays "
        "positive). Jain's fairness index over the threads' acquisition counts (1 = fair; "
        "interval inside [1/threads, 1]). Hand-off ratio: the share of acquisitions that went "
        "to another thread than the last holder (near 0: one thread keeps re-taking the lock). "
        "Acquire latency p99 and the max/min ratio of per-thread acquisitions. "
        "cs_achieved_ns: the critical section achieved, with the protected counter's line it "
        "writes (after a hand-off that line comes from the last holder's core: a fair lock "
        "shows its transfer even at cs_ns = 0); delay_drift_pct: how much slower the "
        "busy-loop calibration was than the run's fastest. Metrics: median over samples, and the "
        "mean with its 95 % t-interval (over the run means for a point of two or more runs). "
        "A point whose delay moved beyond 10 % or whose "
        "throughput exceeds 1/cs_ns is DELAY FLAGGED with the reason: compare it with care.",
    .about_own = 1,
    .note = "throughput: 1e9 / the mean cost, all threads together, its interval the "
            "cost's on the log scale; jain_fairness: the per-sample index, interval inside "
            "[1/threads, 1]; handoff_ratio: share of acquisitions that went to "
            "another thread; the other columns: median | mean [95% t-interval] "
            "over samples (over the run means with runs >= 2); cs_achieved_ns: the critical "
            "section achieved, the protected counter's line included, "
            "delay_drift_pct: how much slower the busy-loop calibration was than "
            "the run's fastest; a point whose delay moved beyond 10 % or whose throughput "
            "exceeds 1/cs_ns is DELAY FLAGGED: compare it with care; modes: of the "
            "cost (8 or more samples), MULTIMODAL with their centers",
    .curve = {"lock", NULL},
    .xlabel = "threads",
    .logx = 1,
    .match_metric = "jain_fairness",
    .col = {[LK_N] = {.key = "n", .src = LAB_AN_CV_N},
            [LK_THR] = {.key = "throughput",
                        .src = LAB_AN_CV_RATE,
                        .unit = "M acquisitions/s",
                        .scale = 1e-6},
            [LK_JAIN] = {.key = "jain_fairness"},
            [LK_HANDOFF] = {.key = "handoff_ratio"},
            [LK_P99] = {.key = "acq_lat_p99_ns", .unit = "ns"},
            [LK_MAXMIN] = {.key = "max_min_ratio"},
            /* one clock read is removed: a short section may read below 0 */
            [LK_CS] = {.key = "cs_achieved_ns", .unit = "ns", .resolution = 1},
            [LK_DRIFT] = {.key = "delay_drift_pct", .unit = "%"},
            [LK_MODES] = {.key = "modes", .src = LAB_AN_CV_MODES},
            [LK_POINT] = {.key = "point", .src = LAB_AN_CV_POINT}},
    .ncol = LK_POINT + 1,
    /* short y labels: gnuplot cuts a long one */
    .fig = {{.key = "throughput",
             .title = "throughput vs threads",
             .ylabel = "M acquisitions/s, all threads (95% CI)",
             .col = LK_THR},
            /* from 2 threads: at 1 the index is 1 by construction, and a line from it drew a
             * trend no measurement showed (plots43) */
            {.key = "fairness",
             .title = "fairness vs threads (2 or more)",
             .ylabel = "Jain fairness index (95% CI)",
             .col = LK_JAIN,
             .ymax = 1.05,
             .min_threads = 2},
            {.key = "p99",
             .title = "p99 vs threads",
             .ylabel = "p99 acquire latency, ns (log scale)",
             .col = LK_P99,
             .logy = 1},
            /* the lessons on hand-offs read it (ticket_hands_over, tas_keeps_the_lock), and
             * no figure drew it (plots40) */
            {.key = "handoff",
             .title = "hand-offs vs threads (2 or more)",
             .ylabel = "hand-off ratio, acquisitions by another thread (95% CI)",
             .col = LK_HANDOFF,
             .ymax = 1.05,
             .min_threads = 2}},
    .rnote = lk_delay,
};

const struct lab_an_view lab_an_view_locks = LAB_AN_CV_VIEW("locks", lk_spec, 0);
