/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Scaling analysis of loaded data: series (points of one experiment and one parameter set that
 * differ only in thread count), speedup with Fieller intervals, efficiency, Karp–Flatt, and the
 * Amdahl / USL / Gustafson fits with the model choice. Pure computation on struct lab_an_data.
 */
#ifndef LAB_ANALYZE_ANALYSIS_H
#define LAB_ANALYZE_ANALYSIS_H

#include <stddef.h>

#include "analyze/data.h"
#include "analyze/fit.h"
#include "analyze/lessons.h"
#include "analyze/rates.h"
#include "analyze/stats.h"

/* One point of a series with the quantities derived from the baseline. */
struct lab_an_row {
	struct lab_an_point *pt;
	int has_speedup;             /* 0: no baseline, or the point has no usable samples */
	struct lab_an_ratio speedup; /* 95 % Fieller interval */
	double eff, eff_lo, eff_hi;  /* S/N and its image */
	double kf, kf_lo, kf_hi;     /* Karp–Flatt e(N), N > 1; NaN otherwise */
	const char *kf_why;          /* why e(N) is NaN though S is known (outside [0, 1]); NULL */
	const char *kf_note;         /* e(N) is its bound (0 or 1) within the speedup's noise */
	int superlinear;             /* efficiency interval above 1 (beyond noise) */
	const char *speedup_level;   /* "runs": S from the run means of both points (K >= 2 each:
	                              * run-to-run noise included), "mixed" (one of them: the
	                              * other borrows its between-run share, lab_an_cost_ratio),
	                              * else "samples" */
	struct lab_an_rates rates;   /* GB/s, GFLOP/s from declared work (rates.has = 0: none) */
};

#define LAB_AN_FINDINGS_MAX 6

struct lab_an_series {
	char *experiment, *params;
	int weak;    /* run.json says "scaling": "weak" */
	int latency; /* run.json says "cost_kind": "latency": no speedup, efficiency, fits */
	struct lab_an_row *row; /* sorted by threads */
	size_t nrow;
	int has_baseline;         /* a threads = 1 point with samples */
	size_t n_fit, n_excluded; /* samples in the fits, flagged samples left out */
	const char *fit_level;    /* "runs": fitted on run means (every point K >= 2; n_fit counts
	                           * them), else "samples" (run-to-run noise not in the intervals) */
	struct lab_an_fit amdahl, usl, gustafson;
	struct lab_an_peak peak;
	struct lab_an_choice choice;
	const char *model; /* "amdahl", "usl", "gustafson" or "none" */
	char note[256];    /* why there is no model, or other caveats; "" when none */
	enum lab_an_objective objective;
	const char *domain;   /* what the fits ran on: "cost" or "throughput" */
	int amdahl_rejected;  /* USL chosen: the F-test rejects kappa = 0 */
	int peak_beyond_data; /* the USL peak N* lies past the largest measured N */
	/* What the data shows, in sentences (superlinear points, extrapolation...). */
	char *finding[LAB_AN_FINDINGS_MAX];              /* owned; only those said take memory */
	unsigned char finding_info[LAB_AN_FINDINGS_MAX]; /* 1: said for context, not a warning */
	size_t nfinding;
};

/* The note of a latency series (lab_an_series.latency). */
#define LAB_AN_LATENCY_NOTE                                                                        \
	"the cost is a per-instance latency or overhead (cost_kind latency): speedup, "            \
	"efficiency, Karp-Flatt and fits do not apply"

struct lab_an_view_exps;

struct lab_an_analysis {
	struct lab_an_data *data;
	int include_flagged;
	enum lab_an_objective objective;
	struct lab_an_series *s;
	size_t ns;
	struct lab_an_view_run *views; /* every view of analyze/views/views.def, computed */
	size_t nviews;
	struct lab_an_view_exps *exps; /* the experiments the views cover (views.c) */
	struct lab_an_lessons lessons; /* the config's [lessons] with verdicts (lessons.h) */
	/* 1: nothing draws this analysis's plots (lab analyze --no-plots), so a view may leave
	 * out the figures of a document whose data is written elsewhere (only plots show them) */
	int no_plots;
};

/*
 * Groups d's points into series and computes everything; d must be summarized with the same
 * include_flagged. a keeps pointers into d. Returns 0 or -LAB_ENOMEM.
 */
int lab_an_analysis_run(struct lab_an_data *d, int include_flagged, struct lab_an_analysis *a,
                        struct lab_err *err);
/* The same with the fit objective chosen (lab_an_analysis_run uses the relative one). */
int lab_an_analysis_run_obj(struct lab_an_data *d, int include_flagged, enum lab_an_objective obj,
                            struct lab_an_analysis *a, struct lab_err *err);

/* The same knowing whether plots will be drawn (no_plots: see struct lab_an_analysis). */
int lab_an_analysis_run_plots(struct lab_an_data *d, int include_flagged, enum lab_an_objective obj,
                              int no_plots, struct lab_an_analysis *a, struct lab_err *err);

/* Fills s->finding from the computed series (superlinear points, f or sigma < 0, a peak past the
 * data, Amdahl rejected). Called by the analysis; exposed for tests. */
void lab_an_series_findings(struct lab_an_series *s);
/* Frees s's findings; nfinding is 0 after. */
void lab_an_series_findings_free(struct lab_an_series *s);

/* Amdahl's bound 1/f as text into buf: "max speedup 20 [15, 30]", or why there is none (f <= 0:
 * no bound; USL chosen: the Amdahl line is rejected). Returns buf. */
const char *lab_an_amdahl_bound_text(const struct lab_an_series *s, char *buf, size_t len);
void lab_an_analysis_free(struct lab_an_analysis *a);

/* The series' points as fit input: threads[i], cost[i] of every used sample of every point
 * with status ok. Allocates *threads and *cost (caller frees); returns the count or -1. */
long lab_an_series_samples(const struct lab_an_series *s, int include_flagged, double **threads,
                           double **cost);

#endif
