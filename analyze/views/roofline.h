/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The roofline view (ch19): ceilings measured by the run, not typed in, and every other point
 * with declared work placed under them.
 *
 * - A point whose kernel declares it bandwidth-bound (work_per_unit "bandwidth_bound": stream's
 *   ops, simd sum/dot/saxpy; triad and saxpy read and write, so a read-only load alone would be
 *   no bound for them) measures bandwidth: the best median GB/s per cache level (the level its
 *   `size` fits in when run.json's topology records cache sizes; per `size` without them) is a
 *   bandwidth ceiling: a ceiling is the best of the kernels that can reach it. Kernels bound by
 *   something else (count_if's compares, gather's random accesses) set none. Results from
 *   before the key: points with bytes and no flops, as then. A point that declares flops but
 *   no bytes (peak) measures compute: the best median GFLOP/s per isa and precision is a
 *   compute ceiling. Each for 1 thread and for the largest team that group ran.
 * - A point that declares both is placed at its intensity (flops per byte read + written, the
 *   STREAM count; with write-allocate bytes as intensity_wa) with its median GFLOP/s. Its roof at
 *   its thread count is min(compute, bandwidth x intensity): the compute ceiling is the highest
 *   at the point's precision (its `type` or `precision` param; any when it names none), the
 *   bandwidth one the ceiling of the point's cache level (without cache sizes: of the smallest
 *   measured size that holds the point's `size`, the largest past them all or without a size).
 *   With no bandwidth ceiling for its level the roof is not measured (NaN, binds NULL, a note
 *   says why), unless a slower level's ceiling already puts the point right of the ridge.
 *   A point above its roof gets a note with the likely reason, never a bare fraction > 1.
 * Rates use the median cost (GB/s = bytes / median ns); their 95 % interval is the
 * distribution-free interval of the median (stats.h) mapped through work / cost, none below 6
 * samples.
 */
#ifndef LAB_ANALYZE_VIEWS_ROOFLINE_H
#define LAB_ANALYZE_VIEWS_ROOFLINE_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/data.h"

enum { LAB_AN_RL_BW, LAB_AN_RL_COMPUTE };

struct lab_an_rl_ceil {
	char *name;  /* "L1 16KiB", "DRAM 1GiB", "16KiB"; "avx2 f64" */
	char *group; /* the size text, or "isa precision" */
	int kind;    /* LAB_AN_RL_BW or LAB_AN_RL_COMPUTE */
	int threads;
	double value, lo, hi;          /* GB/s or GFLOP/s; lo/hi NaN without an interval */
	double size;                   /* bytes (bandwidth), NaN for compute */
	int level;                     /* bandwidth: 1..4 cache level, 5 DRAM, 0 unknown */
	char precision[16];            /* compute: "f64", "" when unknown */
	const struct lab_an_point *pt; /* the best point */
};

struct lab_an_rl_pt {
	const struct lab_an_point *pt;
	double intensity, intensity_wa;       /* flops per byte without and with write-allocate */
	double gflops, lo, hi;                /* median GFLOP/s and its 95 % interval */
	double size;                          /* bytes of its `size` param, NaN without */
	const struct lab_an_rl_ceil *bw, *cp; /* its roofs at its thread count, NULL: none */
	double roof;                          /* min(cp, bw x intensity); NaN without either */
	const struct lab_an_rl_ceil *binds;   /* the ceiling that gives roof */
	double fraction;                      /* gflops / roof */
	int level;                            /* as lab_an_rl_ceil's; 0 unknown */
	int bandwidth_bound;                  /* as lab_an_rates' */
	int above;                            /* gflops above roof: note says why */
	char note[320]; /* why no roof was measured, or why the point is above it; "" */
};

struct lab_an_rl {
	struct lab_an_rl_ceil *c;
	size_t nc;
	struct lab_an_rl_pt *p;
	size_t np;
	int tcount[16]; /* the thread counts the ceilings were measured at, ascending */
	size_t nt;
	/* FMA+add against FMA alone per experiment, other params and threads, one sentence each
	 * (roofline_pipes.c): the add pipes help only where FMA+add's interval lies above. */
	char **pipes;
	size_t npipes;
};

/* The median-based rate work / cost of p and its interval (NaN where none). */
void lab_an_rl_rate(const struct lab_an_point *p, double work, int inc, double *v, double *lo,
                    double *hi);

/* Fills s->pipes from the points of d with op = fma and op = fma_add that differ in nothing
 * else. Returns 0 or -LAB_ENOMEM. */
int lab_an_rl_pipes(const struct lab_an_data *d, int inc, struct lab_an_rl *s);

struct lab_json;
struct lab_an_plots;
struct lab_an_pdir;
void lab_an_rl_json(struct lab_json *w, const void *state);
void lab_an_rl_text(FILE *f, const void *state);
void lab_an_rl_html(FILE *f, const void *state, const struct lab_an_plots *plots, const char *dir);
int lab_an_rl_plots(const void *state, const struct lab_an_data *d, const struct lab_an_pdir *pdir,
                    struct lab_an_plots *out, struct lab_err *err);

#endif
