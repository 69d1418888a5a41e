/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The atomics view (chapter 26): per operation, one chart of ns per operation vs threads with
 * one curve per target (shared, sharded, packed), instead of a speedup, efficiency and
 * Karp-Flatt plot per (op, target) series: the lesson is the gap between the targets. The
 * series it covers are not drawn again.
 */
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

static const struct lab_an_cv_spec an_spec = {
    .view = "atomics",
    .title = "Atomic read-modify-write under contention",
    .about = "ns per operation, <strong>all threads together</strong> (elapsed / operations "
             "done by the whole team; interval clipped at 0), per operation, one curve per "
             "target. <code>shared</code>: one counter, its line migrates on every operation; "
             "<code>sharded</code>: a counter per thread on its own 128 bytes (the "
             "uncontended atomic); <code>packed</code>: a counter per thread, 8 bytes apart "
             "in one line &mdash; nothing is shared, yet it behaves like <code>shared</code> "
             "(false sharing). Per thread, one operation takes threads &times; this time. "
             "retries_per_op: failed compare-exchange attempts per success (op = cas).",
    .note = "ns per operation, all threads together: median | mean [95% CI] over reps "
            "(per thread: x threads); retries_per_op: cas only",
    .curve = {"target", NULL},
    .xlabel = "threads",
    .ylabel = "ns per operation, all threads together",
    .logx = 1,
    .logy = 1,
    .match_metric = "retries_per_op",
    .col = {{"ns_per_op", LAB_AN_CV_COST, 1, 0}, {"retries_per_op", LAB_AN_CV_METRIC, 1, 0}},
    .ncol = 2,
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

const struct lab_an_view lab_an_view_atomics = {
    .name = "atomics",
    .applies = an_applies,
    .compute = an_compute,
    .free = lab_an_cv_free,
    .experiment = lab_an_cv_experiment,
    .json = lab_an_cv_json,
    .text = lab_an_cv_text,
    .html = lab_an_cv_html,
    .plots = lab_an_cv_plots,
    .hides_series = 1,
};
