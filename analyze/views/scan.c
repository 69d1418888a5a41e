/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The scan view: speedup vs input size per method (and tile, which blocked alone takes), one
 * group per thread count. Speedup = the
 * baseline's mean cost / this mean cost (Fieller 95 % interval); the baseline is the `serial`
 * method at the same size with the fewest threads (none when it has no usable samples), else
 * the same method with the fewest threads. Only runs that declare the view get it (the kernel
 * writes no metric column).
 */
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

static const struct lab_an_cv_spec an_spec = {
    .view = "scan",
    .title = "Prefix-sum speedup",
    .about = "Speedup = baseline ns per element / this ns per element (mean, Fieller 95 % "
             "interval, clipped at 0), vs the input size; the baseline is the "
             "serial method at the same size (none when its samples were lost), else "
             "the same method at the fewest threads. two_pass reads the input twice: "
             "in DRAM a second core must make up for the extra read, which it can only "
             "where one core leaves bandwidth unused (omp_triad's 2-thread speedup tells) "
             "and the loop is not held by something else; blocked keeps the second read in "
             "cache (a curve per tile: the other methods take none). At 1 thread the "
             "parallel methods do more work than serial: a speedup above 1 there is "
             "setup-to-setup noise (runs >= 3 shows it).",
    .note = "speedup: the serial method's mean / this mean at the same size, else the same "
            "method's at the fewest threads (Fieller CI; the scaling tables' speedup is over 1 "
            "thread of the same method); ns_per_elem (all threads together) median | mean [95% "
            "CI]",
    .curve = {"method", "tile"},
    .curve1_some = 1,
    .x = "size",
    .xcolunit = "bytes",
    .xlabel = "input size, bytes",
    .logx = 1,
    .base = "serial",
    .col = {{.key = "speedup", .src = LAB_AN_CV_SPEEDUP, .bounded = LAB_AN_CV_LOWER},
            {.key = "ns_per_elem", .src = LAB_AN_CV_COST, .bounded = LAB_AN_CV_LOWER}},
    .ncol = 2,
    .fig = {{.ylabel = "speedup over the baseline (mean, 95% CI)"}},
};

const struct lab_an_view lab_an_view_scan = LAB_AN_CV_VIEW("scan", an_spec, 0);
