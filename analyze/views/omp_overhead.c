/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The construct-overhead view: ns per construct instance (the overhead_ns metric column, test
 * minus reference of the same sample, so the interval over reps is a CI of the mean overhead;
 * also test_ns and ref_ns) per construct and team vs threads, one curve each (team = lab
 * dashed). Older files without a views key: points with an overhead_ns column and a
 * `construct` param. It stands in place of the points' scaling series: their cost, elapsed_ns /
 * work, is test + reference per instance, which the series called "a per-instance latency or
 * overhead" beside this table's overhead (lessons33).
 */
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

static const struct lab_an_cv_spec an_spec = {
    .view = "omp_overhead",
    .title = "Construct overhead",
    .about = "ns per construct instance: overhead_ns = test - reference of "
             "the same sample (a paired difference, so its interval is a confidence interval "
             "of the mean overhead; where it reaches below 0 it is clamped at 0 and said to be "
             "not clearly above 0, and a mean below 0 is not measurable), with test_ns "
             "and ref_ns (intervals clipped at "
             "0). team=lab curves (dashed, where one experiment runs both teams) run the same "
             "instances on the lab's own pinned pthreads: the gap to team=openmp is what the "
             "runtime adds.",
    .note = "ns per construct instance: median | mean [95% CI] over reps (over run means with runs "
            ">= 2); overhead_ns = "
            "test_ns - ref_ns per sample",
    .curve = {"construct", "team"},
    .cond_some = "delay", /* atomic takes none */
    .xlabel = "threads",
    .logx = 1,
    .match_metric = "overhead_ns",
    .col = {{.key = "overhead_ns", .resolution = 1},
            {.key = "test_ns", .bounded = LAB_AN_CV_LOWER},
            {.key = "ref_ns", .bounded = LAB_AN_CV_LOWER}},
    .ncol = 3,
    .fig = {{.ylabel = "overhead, ns per instance (mean, 95% CI)"}},
};

const struct lab_an_view lab_an_view_omp_overhead =
    LAB_AN_CV_VIEW_COST("omp_overhead", an_spec, 1,
                        "test + reference per instance, not the construct's overhead "
                        "(overhead_ns)",
                        "overhead_ns");
