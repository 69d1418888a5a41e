/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The atomics view (chapter 26): per operation, one chart of ns per operation vs threads with
 * one curve per target (shared, sharded, packed), instead of a speedup, efficiency and
 * Karp-Flatt plot per (op, target) series: the lesson is the gap between the targets; its
 * table gives each target's speedup over its fewest threads. The series it covers are not
 * shown again.
 */
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

static const struct lab_an_cv_spec an_spec = {
    .view = "atomics",
    .title = "Atomic read-modify-write under contention",
    .about = "ns per operation, all threads together (elapsed / operations "
             "done by the whole team; interval clipped at 0), per operation, one curve per "
             "target. shared: one counter, its line taken by the cores in turns; "
             "sharded: a counter per thread on its own 128 bytes (the "
             "uncontended atomic); packed: a counter per thread, 8 bytes apart "
             "in one line - nothing is logically shared, yet the cores take the line "
             "in turns as for shared (false sharing). Per thread, one operation takes "
             "threads x this time. "
             "speedup: ns per operation of the same target at the fewest threads / this "
             "(Fieller 95 % interval): about the threads where the operations run side by "
             "side, near or below 1 where the cores take one line in turns. "
             "retries_per_op: failed compare-exchange attempts per success (op = cas).",
    .note = "ns per operation, all threads together: median | mean [95% CI] over reps (over run "
            "means with runs >= 2) "
            "(per thread: x threads); speedup: the same target's mean at the fewest threads / "
            "this mean (Fieller CI); retries_per_op: cas only",
    .curve = {"target", NULL},
    .xlabel = "threads",
    .logx = 1,
    .match_metric = "retries_per_op",
    .col = {{.key = "ns_per_op", .src = LAB_AN_CV_COST, .bounded = LAB_AN_CV_LOWER},
            {.key = "speedup", .src = LAB_AN_CV_SPEEDUP, .bounded = LAB_AN_CV_LOWER},
            {.key = "retries_per_op", .bounded = LAB_AN_CV_LOWER}},
    .ncol = 3,
    .fig = {{.ylabel = "ns per operation, all threads together", .logy = 1}},
};

const struct lab_an_view lab_an_view_atomics = LAB_AN_CV_VIEW("atomics", an_spec, 1);
