/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Curves of one quantity vs one knob, shared by the views atomics, fs_layout, locks, omp_overhead,
 * omp_schedule, reduce, scan, simd_speedup and stride: a view is a struct lab_an_cv_spec saying
 * which params name a curve (construct and team; or the thread count), which knob is the x axis
 * (threads, or a param such as chunk, size or stride) and which columns each entry shows (a
 * metric column, the cost per work unit, a rate, the speedup over a baseline curve, the point's
 * samples, cost modes or id). The engine groups the points the view applies to by their
 * conditions (params without the curve and x keys; with threads when x is a param and the
 * curves are not the thread counts), one curve per curve-key combination, entries in ascending x,
 * and describes each group as a table and its figures (analyze/render/doc.h). Nothing here
 * names a kernel.
 *
 * Every interval is the 95 % t-interval of the mean over the used samples (df = n-1), clipped
 * at the column's lower bound when it has one (a time is never negative, an imbalance never
 * below 1) and kept inside the range its metric's mean can take (analyze/domain.h: Jain's
 * index in [1/threads, 1]), as summary.csv's is; a rate's is the cost's on the log scale,
 * inverted (it stays > 0). A difference whose true value cannot be
 * negative (overhead_ns = makespan - ideal) is never printed below 0 (issue 21 finding 6): an
 * interval reaching below 0 is clamped at 0 and said to be "below resolution"; a mean below 0
 * is "not measurable" (no value, only the interval's upper end when that is above 0). A
 * negative overhead is the reference's calibration having drifted, not a result.
 */
#ifndef LAB_ANALYZE_VIEWS_CURVES_H
#define LAB_ANALYZE_VIEWS_CURVES_H

#include <stdbool.h>
#include <stddef.h>

#include "analyze/data.h"
#include "analyze/err.h"
#include "analyze/index.h"

#define LAB_AN_CV_MAXCOL 10
#define LAB_AN_CV_MAXKEY 2
#define LAB_AN_CV_MAXFIG 4
#define LAB_AN_CV_MAXALT 3

enum lab_an_cv_src {
	LAB_AN_CV_METRIC,  /* (the default) the metric column named by col.key */
	LAB_AN_CV_COST,    /* the cost per work unit (elapsed_ns / work) */
	LAB_AN_CV_SPEEDUP, /* baseline cost / this cost (see spec.base) */
	/* per second: 1e9 / the mean cost (costs > 0), its interval the cost's on the log scale,
	 * inverted: the mean a lesson's throughput() judges (the mean of each sample's 1e9 / cost
	 * read 10.85 M/s where 1e9 / the mean cost is 2.05 M/s, precision33); the lesson inverts
	 * the cost's t-interval */
	LAB_AN_CV_RATE,
	/* table only: the point's used samples, its cost modes (the centers in a note), its id */
	LAB_AN_CV_N,
	LAB_AN_CV_MODES,
	LAB_AN_CV_POINT,
};

enum lab_an_cv_bound {
	LAB_AN_CV_FREE,  /* the t-interval as it is */
	LAB_AN_CV_LOWER, /* clipped below at lo_bound */
};

struct lab_an_cv_col {
	const char *key; /* JSON key and table header; also the metric column for METRIC */
	enum lab_an_cv_src src;
	enum lab_an_cv_bound bounded;
	double lo_bound;
	int resolution;   /* 1: a difference >= 0 in truth: clamped at 0, "below resolution" */
	const char *unit; /* the table's unit; NULL: none, or see cost_unit */
	double scale;     /* shown (table, figures) times this; 0: 1 */
	int cost_unit;    /* 1: the unit is the cost's of the group's points (lab_an_cost_label) */
};

/* A figure of one column vs x, one curve per curve of the group. */
struct lab_an_cv_fig {
	const char *key;    /* NULL: "curves" */
	const char *title;  /* after "EXPERIMENT: "; NULL: the view's title */
	const char *ylabel; /* NULL: "KEY (UNIT; mean and 95% CI)" of the column */
	size_t col;
	int logy;
	double ymin, ymax; /* the y range when ymin < ymax */
	/* points at fewer threads are not drawn (their rows stay in the table): a hand-off
	 * ratio at 1 thread is 0 by construction, no measurement (review42); 0: all */
	int min_threads;
};

struct lab_an_cv_pt;
struct lab_doc;

struct lab_an_cv_spec {
	const char *view;  /* the view's name */
	const char *title; /* the view's heading */
	const char *about; /* what it shows and how (plain text) */
	const char *note;  /* the text tables' footnote */
	int about_own;     /* 1: about says how columns are summarized */
	/* params naming a curve; curve[1] may be NULL; curve[0] "threads": the thread count */
	const char *curve[LAB_AN_CV_MAXKEY];
	/* 1: curve[1] is a param that applies at some curve[0] values alone (scan's tile, at
	 * method = blocked): a point without it is the curve of its curve[0] value, and a baseline
	 * is found at the point's own value of it, else without it */
	int curve1_some;
	/* Optional: a condition param that applies at some curve values alone (omp_overhead's
	 * delay, which atomic takes none of): a point without it joins the one group of its
	 * experiment whose other conditions are its own, unless points with it made its curve
	 * there (a delay removed by hand); with none or several (a swept delay) it is a group of
	 * its own. */
	const char *cond_some;
	/* param of the x axis, read with the configs' size suffixes (4K: 4096); NULL: threads */
	const char *x;
	const char *xunit; /* its unit: the table shows x read as a number (4K: 4096) */
	/* without xunit: the table column's unit, x keeps its spelling (size 16K: bytes; a size
	 * without a unit read as bytes or elements, newcomer44) */
	const char *xcolunit;
	const char *xlabel;
	int logx;
	/* Files without a views key: the view applies to points with this metric column and a
	 * curve[0] param; NULL: only where the run declares the view. */
	const char *match_metric;
	int match_kept; /* 1: files without a views key: every point keep takes */
	/* Optional: 0 leaves out a point the view would otherwise take (say, by a param value). */
	int (*keep)(const struct lab_an_point *p);
	/* Optional: 1 when p's x param means nothing for it (a static schedule has no chunk): the
	 * entry's x is NaN, "-" in the text, null in the JSON, and it is not drawn against x; a
	 * point without x there fits the view (misfit: the lab leaves such a param out). */
	int (*x_ignored)(const struct lab_an_point *p);
	/* SPEEDUP: the curve[0] value of the baseline (its point at the same conditions and x with
	 * the fewest threads); without one, the same curve's point with the fewest threads. */
	const char *base;
	/* SPEEDUP: 1 when the baseline must match every other param, threads included, and there
	 * is no fallback (simd: the vector gain alone, never mixed with a thread gain); a point
	 * without such a baseline gets no speedup, and the tables say so (val.nobase). */
	int base_same_threads;
	struct lab_an_cv_col col[LAB_AN_CV_MAXCOL];
	size_t ncol;
	struct lab_an_cv_fig fig[LAB_AN_CV_MAXFIG]; /* fig[0], then those with a key */
	/* Optional: the note after e's row (a flag), a string of doc; NULL: none. */
	const char *(*rnote)(struct lab_doc *doc, const struct lab_an_cv_pt *e);
	/* Optional: specs like this one against another x param (NULL after the last): an
	 * experiment that runs one value of x (or none) and two or more of an alt's x is shown
	 * against the first such alt's, with that alt's figures (ch28's accumulators and
	 * misalign at one size were 16 one-point figures against size, plots38). An alt has
	 * this spec's view, curves and columns; its own alts are not read. */
	const struct lab_an_cv_spec *alt[LAB_AN_CV_MAXALT];
};

/* One column at one entry: median, mean and its (clipped) 95 % interval; n = 0: none. */
struct lab_an_cv_val {
	size_t n;
	double median, mean, lo, hi;
	/* SPEEDUP: p ran but no usable baseline point matches it; base is the one that matches
	 * with no usable samples (its own reason the row gives), NULL when none matches */
	bool nobase;
	const struct lab_an_point *base;
	/* col.resolution: 1 the interval reached below 0 and starts at 0 now ("not clearly above
	 * 0"); 2 the mean was
	 * below 0: median and mean are NaN, lo 0, hi the upper end (NaN when that was <= 0). */
	int below_res;
	/* 1: the samples' spread overflows a double (values near 1.8e308): lo, hi NaN */
	int overflow;
	/* 1: the point kept two runs or more and this column has values in one of them: its
	 * interval is that run's samples', nothing in it of the run-to-run spread (a metric
	 * removed from the other runs' rows by hand, hostile40) */
	bool one_run;
	/* SPEEDUP: one side at the run level, the other one run's samples with the first's
	 * between-run variance (above 0) lent (lab_an_cost_moments): wider than either cost's
	 * interval */
	bool mixed;
};

struct lab_an_cv_pt {
	const struct lab_an_point *pt;
	double x;
	struct lab_an_cv_val v[LAB_AN_CV_MAXCOL];
};

struct lab_an_cv_curve {
	/* the curve params' values ("?" when absent; curve1_some: "" when curve[1] is) */
	char *key[LAB_AN_CV_MAXKEY];
	char *label; /* "parallel", "parallel team=lab", "2 threads, placement=cores" */
	size_t lab0; /* the length of its first key's part ("parallel", "2 threads") */
	int style[LAB_AN_CV_MAXKEY]; /* first-seen index of each key's value (colour, dashes) */
	struct lab_an_cv_pt *pt;     /* ascending x */
	size_t npt, cap;
};

struct lab_an_cv_group {
	const struct lab_an_cv_spec *spec; /* the view's, or the alt its experiment takes */
	const char *experiment;
	char *params;   /* the conditions */
	char unit[160]; /* the cost unit of its first point (lab_an_cost_label) */
	struct lab_an_cv_curve *c;
	size_t nc, cap;
	struct lab_an_index ix; /* its curves by their keys */
};

struct lab_an_cv {
	const struct lab_an_cv_spec *spec;
	struct lab_an_cv_group *g;
	size_t ng, cap;
	struct lab_an_index ix; /* the groups by experiment and conditions */
};

struct lab_an_view;
/* The view hooks of every spec view (view->spec is its struct lab_an_cv_spec): applies when the
 * view is declared (else by match_metric or match_kept); compute groups the points (*state stays
 * NULL when none applies); describe makes one section per group: a table of the entries (the
 * curve keys, x, the columns) and the figures, one curve each. */
int lab_an_cv_applies(const struct lab_an_view *view, const struct lab_an_data *d,
                      const struct lab_an_point *p);
/* The params p lacks of those the spec groups and draws by (its curve keys and x). */
const char *lab_an_cv_misfit(const struct lab_an_view *view, const struct lab_an_data *d,
                             const struct lab_an_point *p, char *buf, size_t len);
struct lab_an_analysis;
int lab_an_cv_compute(const struct lab_an_view *view, const struct lab_an_analysis *a, void **state,
                      struct lab_err *err);
void lab_an_cv_free(void *state);
int lab_an_cv_describe(const struct lab_an_view *view, const void *state, struct lab_doc *doc);

/* The points a SPEEDUP column divides by (curves_base.c), found by their key in O(1): per
 * (experiment, params without curve[0][, threads]) the base curve's point with the fewest
 * threads, and per (experiment, params) the point with the fewest threads (a scan of every
 * point for each one was quadratic). */
struct lab_an_cv_bases {
	const struct lab_an_cv_spec *s;
	const struct lab_an_data *d;
	/* 0: of the base curve, 1: own params, 2: the base curve's points without usable samples
	 * (said as such, not as missing); item: a slot */
	struct lab_an_index ix[3];
	size_t *pt[3], n[3]; /* per slot, the point (its index in d) */
	char **rest;         /* per point of d: its params without curve[0], or NULL */
};
/* Fills b for s over d (nothing when s has no SPEEDUP column). Returns 0 or -LAB_ENOMEM. */
int lab_an_cv_bases_init(struct lab_an_cv_bases *b, const struct lab_an_cv_spec *s,
                         const struct lab_an_data *d);
void lab_an_cv_bases_free(struct lab_an_cv_bases *b);
/* The SPEEDUP column of p into v. Returns 0, or -1 when out of memory. */
int lab_an_cv_speedup(const struct lab_an_cv_bases *b, const struct lab_an_point *p,
                      struct lab_an_cv_val *v);

/* The view struct of spec view NAME (SPEC: its struct lab_an_cv_spec; HIDES: hides_series;
 * COST: cost_is; FIGURE: figure). */
#define LAB_AN_CV_VIEW_COST(NAME, SPEC, HIDES, COST, FIGURE)                                       \
	{                                                                                          \
		.name = NAME, .spec = &SPEC, .applies = lab_an_cv_applies,                         \
		.compute = lab_an_cv_compute, .free = lab_an_cv_free,                              \
		.describe = lab_an_cv_describe, .misfit = lab_an_cv_misfit, .hides_series = HIDES, \
		.cost_is = COST, .figure = FIGURE,                                                 \
	}
#define LAB_AN_CV_VIEW(NAME, SPEC, HIDES) LAB_AN_CV_VIEW_COST(NAME, SPEC, HIDES, NULL, NULL)

#endif
