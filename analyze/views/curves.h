/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Curves of one quantity vs one knob, shared by the views atomics, fs_layout, omp_overhead,
 * omp_schedule, reduce, scan and simd_speedup: a view is a struct lab_an_cv_spec saying which
 * params name a curve (construct and team), which knob is the x axis (threads, or a param such as
 * chunk or size) and which columns each entry shows (a metric column, the cost per work unit, or
 * the speedup over a baseline curve). The engine groups the points the view applies to by their
 * conditions (params without the curve and x keys; with threads when x is a param), one curve
 * per curve-key combination, entries in ascending x, and describes each group as a table and a
 * figure (analyze/render/doc.h). Nothing here names a kernel.
 *
 * Every interval is the 95 % t-interval of the mean over the used samples (df = n-1), clipped
 * at the column's lower bound when it has one (a time is never negative, an imbalance never
 * below 1). A difference whose true value cannot be negative (overhead_ns = makespan - ideal)
 * is never printed below 0 (issue 21 finding 6): an interval reaching below 0 is clamped at 0
 * and said to be "below resolution"; a mean below 0 is "not measurable" (no value, only the
 * interval's upper end when that is above 0). A negative overhead is the reference's
 * calibration having drifted, not a result.
 */
#ifndef LAB_ANALYZE_VIEWS_CURVES_H
#define LAB_ANALYZE_VIEWS_CURVES_H

#include <stddef.h>

#include "analyze/data.h"
#include "analyze/err.h"

#define LAB_AN_CV_MAXCOL 4
#define LAB_AN_CV_MAXKEY 2

enum lab_an_cv_src {
	LAB_AN_CV_METRIC,  /* the metric column named by col.metric */
	LAB_AN_CV_COST,    /* the cost per work unit (elapsed_ns / work) */
	LAB_AN_CV_SPEEDUP, /* baseline cost / this cost (see spec.base) */
};

struct lab_an_cv_col {
	const char *key; /* JSON key and table header; also the metric column for METRIC */
	enum lab_an_cv_src src;
	int bounded; /* 1: the interval is clipped below at lo_bound */
	double lo_bound;
	int resolution; /* 1: a difference >= 0 in truth: clamped at 0, "below resolution" */
};

struct lab_an_cv_spec {
	const char *view;                    /* the view's name */
	const char *title;                   /* the view's heading */
	const char *about;                   /* what it shows and how (plain text) */
	const char *note;                    /* the text tables' footnote */
	const char *curve[LAB_AN_CV_MAXKEY]; /* params naming a curve; curve[1] may be NULL */
	const char *x;                       /* param of the x axis; NULL: threads */
	const char *xlabel, *ylabel;
	int logx, logy;
	/* Files without a views key: the view applies to points with this metric column and a
	 * curve[0] param; NULL: only where the run declares the view. */
	const char *match_metric;
	/* Optional: 0 leaves out a point the view would otherwise take (say, by a param value). */
	int (*keep)(const struct lab_an_point *p);
	/* Optional: 1 when p's x param means nothing for it (a static schedule has no chunk): the
	 * entry's x is NaN, "-" in the text, null in the JSON, and it is not drawn against x. */
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
	size_t plot_col; /* the column drawn */
};

/* One column at one entry: median, mean and its (clipped) 95 % interval; n = 0: none. */
struct lab_an_cv_val {
	size_t n;
	double median, mean, lo, hi;
	int nobase; /* SPEEDUP: 1 when p ran but no baseline point matches it */
	/* col.resolution: 1 the interval reached below 0 and starts at 0 now; 2 the mean was
	 * below 0: median and mean are NaN, lo 0, hi the upper end (NaN when that was <= 0). */
	int below_res;
};

struct lab_an_cv_pt {
	const struct lab_an_point *pt;
	double x;
	struct lab_an_cv_val v[LAB_AN_CV_MAXCOL];
};

struct lab_an_cv_curve {
	char *key[LAB_AN_CV_MAXKEY]; /* the curve params' values ("?" when absent) */
	char *label;                 /* "parallel", "parallel team=lab" */
	int style[LAB_AN_CV_MAXKEY]; /* first-seen index of each key's value (colour, dashes) */
	struct lab_an_cv_pt *pt;     /* ascending x */
	size_t npt;
};

struct lab_an_cv_group {
	const char *experiment;
	char *params; /* the conditions */
	struct lab_an_cv_curve *c;
	size_t nc;
};

struct lab_an_cv {
	const struct lab_an_cv_spec *spec;
	struct lab_an_cv_group *g;
	size_t ng;
};

struct lab_an_view;
struct lab_doc;
/* The view hooks of every spec view (view->spec is its struct lab_an_cv_spec): applies when the
 * view is declared (else by match_metric); compute groups the points (*state stays NULL when
 * none applies); describe makes one section per group: a table of the entries (the curve keys,
 * x, the columns) and a figure of plot_col vs x, one curve each. */
int lab_an_cv_applies(const struct lab_an_view *view, const struct lab_an_data *d,
                      const struct lab_an_point *p);
struct lab_an_analysis;
int lab_an_cv_compute(const struct lab_an_view *view, const struct lab_an_analysis *a, void **state,
                      struct lab_err *err);
void lab_an_cv_free(void *state);
int lab_an_cv_describe(const struct lab_an_view *view, const void *state, struct lab_doc *doc);

/* The SPEEDUP column of p into v. Returns 0, or -1 when out of memory. */
int lab_an_cv_speedup(const struct lab_an_cv_spec *s, const struct lab_an_data *d,
                      const struct lab_an_point *p, int inc, struct lab_an_cv_val *v);

/* The x value of a param value: a number with an optional K/M/G (x1024) suffix; NaN if none. */
double lab_an_cv_num(const char *s);

/* The view struct of spec view NAME (SPEC: its struct lab_an_cv_spec; HIDES: hides_series). */
#define LAB_AN_CV_VIEW(NAME, SPEC, HIDES)                                                          \
	{                                                                                          \
		.name = NAME, .spec = &SPEC, .applies = lab_an_cv_applies,                         \
		.compute = lab_an_cv_compute, .free = lab_an_cv_free,                              \
		.describe = lab_an_cv_describe, .hides_series = HIDES,                             \
	}

#endif
