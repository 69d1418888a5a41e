/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The SIMD speedup table (ch28): per op, type and the other conditions, one curve per isa vs
 * size; each entry the speedup over isa=scalar at the same size and conditions, threads
 * included (the median ratio, and the Fieller interval of the ratio of mean costs) and the cost
 * per element. A point with no such scalar point has no speedup, and the table says so (a
 * point over itself would read 1, a scalar point at fewer threads would mix in the thread
 * gain). Only runs that declare the view get it.
 */
#include "analyze/views/curves.h"
#include "analyze/views/view.h"

/* What every x of the view shares: its name, text, curves, baseline and columns. */
#define AN_SIMD_COMMON                                                                             \
	.view = "simd_speedup", .title = "SIMD speedup over scalar",                               \
	.about = "Speedup of each ISA over isa=scalar at the same op, type, size, "                \
	         "thread count and other params: scalar's cost / this cost (median ratio; 95% "    \
	         "Fieller interval of the ratio of mean costs, with the scalar point's noise in "  \
	         "it). Where the speedup falls toward 1 as the size grows, memory binds and "      \
	         "vector width stops helping. An experiment at one size that sweeps the "          \
	         "accumulators or the misalignment is shown against that instead.",                \
	.note = "speedup over isa=scalar: median | mean [95% Fieller CI]; ns per element (all "    \
	        "threads together) beside it",                                                     \
	.curve = {"isa", NULL}, .base = "scalar", .base_same_threads = 1,                          \
	.col = {{.key = "speedup", .src = LAB_AN_CV_SPEEDUP, .bounded = LAB_AN_CV_LOWER},          \
	        {.key = "ns_per_elem", .src = LAB_AN_CV_COST, .bounded = LAB_AN_CV_LOWER}},        \
	.ncol = 2

/* One size, several accumulator counts: the cost per element against the count of
 * independent sums (ILP: more chains help until the loads or the adds' throughput bind). */
static const struct lab_an_cv_spec an_by_acc = {
    AN_SIMD_COMMON,
    .x = "accumulators",
    .xlabel = "accumulators (independent sums)",
    .logx = 1,
    .fig = {{.key = "cost",
             .title = "cost vs accumulators",
             .col = 1,
             .ylabel = "ns per element (mean, 95% CI)"},
            {.key = "speedup",
             .title = "speedup over scalar vs accumulators",
             .ylabel = "speedup over scalar (mean, 95% CI)"}},
};

/* One size, several offsets: what a split load costs each ISA. */
static const struct lab_an_cv_spec an_by_misalign = {
    AN_SIMD_COMMON,
    .x = "misalign",
    .xunit = "bytes",
    .xlabel = "misalignment (bytes)",
    .fig = {{.key = "cost",
             .title = "cost vs misalignment",
             .col = 1,
             .ylabel = "ns per element (mean, 95% CI)"},
            {.key = "speedup",
             .title = "speedup over scalar vs misalignment",
             .ylabel = "speedup over scalar (mean, 95% CI)"}},
};

static const struct lab_an_cv_spec an_spec = {
    AN_SIMD_COMMON,
    .x = "size",
    .xcolunit = "bytes",
    .xlabel = "size (bytes)",
    .logx = 1,
    /* the cost too: a lesson (dram_slows_the_vector_loop) reads it across sizes (plots40) */
    .fig = {{.key = "speedup", .ylabel = "speedup over scalar (mean, 95% CI)"},
            {.key = "cost",
             .title = "cost vs size",
             .col = 1,
             .ylabel = "ns per element (mean, 95% CI)"}},
    .alt = {&an_by_acc, &an_by_misalign},
};

const struct lab_an_view lab_an_view_simd_speedup = LAB_AN_CV_VIEW("simd_speedup", an_spec, 0);
