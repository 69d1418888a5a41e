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
    .about = "ns per element summed, <strong>all threads together</strong> (wall time / "
             "elements of the whole array), per strategy and team (interval clipped at 0). "
             "<strong><code>packed_partials</code> is the false-sharing trap</strong>: the "
             "per-thread sums sit 8 bytes apart on one cache line, so every add pulls the "
             "line across cores; compare it with <code>padded_partials</code> (128 bytes "
             "apart) at 2+ threads. <code>atomic</code> and <code>critical</code> serialise "
             "on one line or lock; <code>team=lab</code> (dashed) shows what is left without "
             "the OpenMP runtime's fork-join.",
    .note = "ns per element, all threads together: median | mean [95% CI] over reps; "
            "packed_partials = false sharing",
    .curve = {"strategy", "team"},
    .xlabel = "threads",
    .ylabel = "ns per element, all threads together (mean, 95% CI)",
    .logx = 1,
    .logy = 1,
    .col = {{"ns_per_elem", LAB_AN_CV_COST, 1, 0}},
    .ncol = 1,
    .plot_col = 0,
};

static int an_applies(const struct lab_an_data *d, const struct lab_an_point *p)
{
	return lab_an_cv_applies(&an_spec, d, p);
}

static int an_compute(const struct lab_an_data *d, int inc, void **state, struct lab_err *err)
{
	return lab_an_cv_compute(&an_spec, d, inc, state, err);
}

const struct lab_an_view lab_an_view_reduce = LAB_AN_CV_VIEW("reduce", an_applies, an_compute);
