/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The roofline view (ch19): ceilings measured by the run, not typed in, and every other point
 * with declared work placed under them.
 * - Bandwidth: a point whose kernel declares it bandwidth-bound (work_per_unit "bandwidth_bound":
 *   stream's ops, simd sum/dot/saxpy; never count_if or gather; before the key: bytes and no
 *   flops); the best median GB/s per cache level (by run.json's topology; per `size` without
 *   cache sizes; in DRAM among the points of the largest `size`) is a ceiling. Compute: a
 *   point with flops and no bytes (peak); the best median GFLOP/s per isa and precision. Each
 *   at 1 thread and at the largest team its group ran.
 * - A point with both sits at its intensity (flops per byte read + written; intensity_wa adds
 *   write-allocate) with its median GFLOP/s, under min(compute, bandwidth x intensity) at its
 *   thread count: the highest compute ceiling of its ISA and precision (a scalar loop under
 *   the scalar peak), else of its precision, else any; a point whose flops are adds alone
 *   (work_per_unit "adds_only": a sum) under the add peak of its ISA and precision where one
 *   was measured (peak op=add: its own group, "avx2 f64 adds"), else as the others; the
 *   bandwidth ceiling of its level (without levels: the smallest size holding its `size`, else
 *   the largest). A level without one gives no roof (a note says why) unless a slower level's
 *   ceiling already puts the point right of the ridge. Above its roof: a note with the reason.
 * Rates use the median cost; their 95 % interval is the distribution-free interval of the
 * median (stats.h) mapped through work / cost, none below 6 samples.
 */
#ifndef LAB_ANALYZE_VIEWS_ROOFLINE_H
#define LAB_ANALYZE_VIEWS_ROOFLINE_H

#include "analyze/data.h"

enum { LAB_AN_RL_BW, LAB_AN_RL_COMPUTE };

/* A rate: work / median cost, work / mean cost, the median's 95 % interval (NaN: none), and
 * the samples it is over; with two or more runs the mean and interval are the run means'
 * (the FMA+add sentences: n the runs then). */
struct lab_an_rl_val {
	double median, mean, lo, hi;
	size_t n;
	size_t runs; /* >= 2: mean, lo and hi are over this many run means; 0: the samples' */
};

struct lab_an_rl_ceil {
	char name[80]; /* "L1 16KiB", "DRAM 1GiB", "16KiB"; "avx2 f64": it names its group */
	int kind, threads;
	struct lab_an_rl_val v;        /* GB/s or GFLOP/s */
	double size;                   /* bytes (bandwidth), NaN for compute */
	int level;                     /* bandwidth: 1..5 cache level, 6 DRAM, 0 unknown */
	char precision[16];            /* compute: "f64", "" when unknown */
	char isa[32];                  /* compute: its point's isa param ("avx2"), "" when none */
	int adds;                      /* compute: an add peak (adds_only): a group of its own */
	int reads_only;                /* bandwidth: its point writes no bytes (a load) */
	int no_wa;                     /* bandwidth: its stores allocate no line they do not read
	                                  (saxpy, update, a load): its bytes are all it moves */
	const struct lab_an_point *pt; /* the best point */
	/* the fastest median of its group and team passed over for having no interval (fewer
	 * than 6 samples), NaN: none was faster */
	double faster_unsure;
	/* a team's DRAM ceiling whose sets together (threads x size) are no more than a set at
	 * which one thread of the same kernel ran clearly faster than at its largest: why it may
	 * be partly cache; NULL otherwise (malloc'd, freed with the state: a candidate is one of
	 * an array as long as the run's points) */
	char *note;
};

struct lab_an_rl_pt {
	const struct lab_an_point *pt;
	double intensity, intensity_wa; /* flops per byte without and with write-allocate */
	struct lab_an_rl_val gf;        /* GFLOP/s */
	double size, roof, fraction;    /* size bytes (NaN: none), roof GFLOP/s, gflops / roof */
	const struct lab_an_rl_ceil *binds; /* the ceiling that gives roof, NULL: none */
	int level, bandwidth_bound;         /* as lab_an_rl_ceil's; as lab_an_rates' */
	int reads_only;                     /* it writes no bytes (a sum, a dot) */
	int adds_only;                      /* every flop an add: under an add peak if measured */
	int above;                          /* above its roof: note says why */
	char note[448]; /* why no roof was measured, or why the point is above it; "" */
};

struct lab_an_rl {
	struct lab_an_rl_ceil *c;
	struct lab_an_rl_pt *p;
	char (*pipes)[400]; /* FMA+add against FMA alone, one sentence each */
	size_t nc, np, npipes;
	char levels[400]; /* cache sizes measured or given in place of the reported ones; "" */
};

struct lab_an_view;
/* The view's applies: 1 when the run declares the view (v NULL: roofline) for p's experiment. */
int lab_an_rl_applies(const struct lab_an_view *v, const struct lab_an_data *d,
                      const struct lab_an_point *p);
/* Fills the ceilings, the placed points and the FMA+add sentences of s (each array holds
 * d->npt) from the points of d the view applies to. Returns 0 or -LAB_ENOMEM. */
int lab_an_rl_roofs(const struct lab_an_data *d, int inc, struct lab_an_rl *s);
/* The ceilings out of the n candidates cand into s->c (roofline_ceils.c): per group the best at
 * 1 thread and at its largest team, in O(n). Returns 0 or -LAB_ENOMEM. */
int lab_an_rl_ceilings(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n);
/* The notes of compute ceilings from the data (roofline_isa.c): one set by the FMA+add mix is
 * named "fma+add" and says what FMAs alone reached; one no faster than a narrower ISA's of the
 * same op says so. Returns 0 or -LAB_ENOMEM. */
int lab_an_rl_isa_notes(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n);
/* The note of each placed point of s that reads only and sits under a ceiling of read+write
 * traffic: what the read-only candidates of its group and team reach (roofline_ceils.c).
 * Returns 0 or -LAB_ENOMEM. */
int lab_an_rl_reads_notes(struct lab_an_rl *s, const struct lab_an_rl_ceil *cand, size_t n);
/* The cache levels whose size run.json says was measured here or given (--cache) in place of
 * the topology's, as one sentence into buf ("" when none was). */
void lab_an_rl_levels_note(const struct lab_an_data *d, char *buf, size_t len);
/* The rate work / cost of p (its samples as inc says) into v: work over the median and the mean
 * cost, and the median's distribution-free 95 % interval mapped through work / cost
 * (roofline_pipes.c). */
void lab_an_rl_rate(const struct lab_an_point *p, double work, int inc, struct lab_an_rl_val *v);
/* FMA+add against FMA alone, one sentence per FMA point of d and the first FMA+add point that
 * differs from it only in op, into s->pipes (d->npt of them). Returns 0 or -LAB_ENOMEM. */
int lab_an_rl_pipes(const struct lab_an_data *d, int inc, struct lab_an_rl *s);

#endif
