/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The reductions view: ns per element (the cost per work unit) per strategy and team vs
 * threads, one curve each (team = lab dashed). The kernel writes no metric column of its own,
 * so only runs that declare the view get it.
 */
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

static const struct lab_an_cv_spec an_spec = {
    .view = "reduce",
    .title = "Reductions",
    .about = "ns per element summed, all threads together (wall time / "
             "elements of the whole array), per strategy and team (interval clipped at 0). "
             "packed_partials can false-share: the per-thread sums sit 8 bytes apart on one "
             "cache line, so where the core pays for stores to a line another core holds "
             "(how much depends on its store buffer) the adds pull the line across cores; "
             "compare it with padded_partials (128 bytes apart) at 2+ threads. atomic and "
             "critical serialise "
             "on one line or lock; team=lab (dashed) shows what is left without "
             "the OpenMP runtime's fork-join.",
    .note = "ns per element, all threads together: median | mean [95% CI] over reps (over run "
            "means with runs >= 2); "
            "packed_partials: per-thread sums on one line",
    .curve = {"strategy", "team"},
    .xlabel = "threads",
    .logx = 1,
    .col = {{.key = "ns_per_elem", .src = LAB_AN_CV_COST, .bounded = LAB_AN_CV_LOWER}},
    .ncol = 1,
    .fig = {{.ylabel = "ns per element, all threads together (mean, 95% CI)", .logy = 1}},
};

const struct lab_an_view lab_an_view_reduce = LAB_AN_CV_VIEW("reduce", an_spec, 0);
