/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The loop-schedule view: makespan per loop instance, imbalance (busiest thread / mean) and
 * overhead vs the ideal (makespan - calibrated work / threads) per schedule vs chunk, one group
 * per imbalance distribution, cost and thread count. Older files without a views key: points
 * with a makespan_ns column and a `schedule` param.
 */
#include <string.h>

#include "analyze/views/curves.h"
#include "analyze/views/view.h"

/* schedule(static) deals equal blocks and takes no chunk: a chunk value there does not exist. */
static int an_no_chunk(const struct lab_an_point *p)
{
	char v[64];

	return lab_an_params_get(p->params, "schedule", v, sizeof(v)) && !strcmp(v, "static");
}

static const struct lab_an_cv_spec an_spec = {
    .view = "omp_schedule",
    .title = "Loop schedules",
    .about = "Per schedule and chunk: makespan_ns, the wall time of one loop "
             "instance; imbalance = busiest thread's time / mean thread time (1 = "
             "balanced); overhead_ns = makespan - ideal (calibrated work / "
             "threads): imbalance plus the cost of handing out chunks. static "
             "takes no chunk (shown as -). Intervals of times are clipped at 0, of imbalance "
             "to [1, threads] (the busiest thread takes at most all the time). An overhead "
             "interval reaching below 0 is clamped there (not clearly above 0); "
             "a mean below 0 is not measurable: the ideal's calibration drifted.",
    .note = "times in ns per loop instance, imbalance a ratio: median | mean [95% CI] over "
            "reps; overhead_ns = makespan - ideal",
    .curve = {"schedule", NULL},
    .x = "chunk",
    .xlabel = "chunk (iterations)",
    .logx = 1,
    .match_metric = "makespan_ns",
    .x_ignored = an_no_chunk,
    .col = {{.key = "makespan_ns", .bounded = LAB_AN_CV_LOWER},
            {.key = "imbalance", .bounded = LAB_AN_CV_LOWER, .lo_bound = 1},
            {.key = "overhead_ns", .resolution = 1},
            {.key = "ideal_ns", .bounded = LAB_AN_CV_LOWER}},
    .ncol = 4,
    /* imbalance too: the lesson static_leaves_a_ramp_unbalanced reads it (plots40) */
    .fig = {{.key = "makespan", .ylabel = "makespan, ns per loop (mean, 95% CI)"},
            {.key = "imbalance",
             .title = "imbalance (busiest thread / mean)",
             .col = 1,
             .ylabel = "imbalance, busiest / mean (1 = balanced; mean, 95% CI)"}},
};

const struct lab_an_view lab_an_view_omp_schedule = LAB_AN_CV_VIEW("omp_schedule", an_spec, 0);
