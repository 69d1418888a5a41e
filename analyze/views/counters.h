/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The counters view (issue 11, "Derived metrics"): every point whose samples.csv rows carry
 * ctr_<event> values. Per point: the median per sample (sum over threads) of every counter
 * column over the used samples (all samples when every one was load-flagged: counts stay
 * meaningful), the samples in which a pinned thread was switched out or migrated (a defect of a
 * contention lab), the lowest ctr_mux_ratio (< 1: multiplexed, scaled estimates), derived
 * metrics (IPC, GHz or the self-check's estimated core clock, MPKI) each with a reason when
 * missing, and top-down level 1-2 by the method run.json's host.counters chose
 * (analyze/topdown.h). Ratios of medians: hardware groups count in passes (sample r counts
 * pass r % passes) and a point's samples all do the same work, so medians of different passes
 * compare. Pure computation on loaded, summarized data; the state is a struct lab_an_ctrs.
 */
#ifndef LAB_ANALYZE_VIEWS_COUNTERS_H
#define LAB_ANALYZE_VIEWS_COUNTERS_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/data.h"
#include "analyze/err.h"
#include "analyze/topdown.h"

/* The derived metrics, in the order of the tables. */
enum {
	LAB_AN_CD_IPC,
	LAB_AN_CD_GHZ,
	LAB_AN_CD_CYC_EST,
	LAB_AN_CD_CACHE_MPKI,
	LAB_AN_CD_BRANCH_MPKI,
	LAB_AN_CD_L1D_MPKI,
	LAB_AN_CD_N
};

/* Their names in analysis.json and counters.csv. */
extern const char *const lab_an_ctr_derived_name[LAB_AN_CD_N];

struct lab_an_ctr_val {
	double v;      /* NaN: not available (reason says why) */
	int estimated; /* from the self-check's core clock, not a cycle counter */
	char reason[200];
};

struct lab_an_ctr_pt {
	const struct lab_an_point *pt;
	size_t n;        /* samples the medians use */
	int all_flagged; /* every sample was load-flagged: the medians use all of them */
	double *med;     /* per counter column of the view (NaN: no value) */
	size_t *nval;    /* values behind each median */
	double mux_min;  /* lowest ctr_mux_ratio of those samples; NaN: none recorded */
	size_t csw_samples, mig_samples; /* of all samples: a switched-out / migrated thread */
	double runq_med;     /* median runq_wait of the used samples (share; NaN: not recorded) */
	int has_hw;          /* some hardware column has a value */
	char hw_reason[256]; /* !has_hw: why (the first hardware event's status and reason) */
	struct lab_an_ctr_val dv[LAB_AN_CD_N];
	struct lab_an_tma tma;
	char tma_reason[256]; /* tma.level < 2: why (level 0) or why level 2 is missing */
};

struct lab_an_ctrs {
	char **col;   /* the ctr_ columns of samples.csv, without ctr_mux_ratio */
	size_t *mcol; /* their indexes among the data's metrics */
	size_t ncol;
	long mux_m; /* index of ctr_mux_ratio, -1 when absent */
	struct lab_an_ctr_pt *p;
	size_t np;
	char **exp; /* distinct experiments in first-seen order */
	size_t nexp;
	int any_hw;          /* some point has hardware values */
	char hw_reason[256]; /* !any_hw: the one line's reason */
	double core_ghz;     /* self_check.core_ghz, NaN when absent */
	const char *method;  /* host.counters.topdown_method, or "none" */
};

/* 1 when samples.csv has ctr_ columns and p has a value in one of them. */
int lab_an_ctrs_applies(const struct lab_an_data *d, const struct lab_an_point *p);
int lab_an_ctrs_run(const struct lab_an_data *d, int include_flagged, struct lab_an_ctrs *c,
                    struct lab_err *err);
void lab_an_ctrs_free(struct lab_an_ctrs *c);
/* The median of column name ("ctr_cycles") at e, NaN when absent. */
double lab_an_ctrs_med(const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e,
                       const char *name);
/* The reason why column name has no value at point p (run.json's status and reason). */
void lab_an_ctrs_why(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                     const struct lab_an_point *p, const char *name, char *buf, size_t len);
/* Fills e->dv and e->tma from its medians (counters_derive.c). */
void lab_an_ctrs_derive(const struct lab_an_data *d, const struct lab_an_ctrs *c,
                        struct lab_an_ctr_pt *e);

struct lab_json;
struct lab_an_plots;
struct lab_an_pdir;
/* The emitters (state: a struct lab_an_ctrs): counters_out.c, counters_text.c,
 * counters_plot.c. */
void lab_an_ctrs_json(struct lab_json *w, const void *state, const char *exp);
int lab_an_ctrs_csv(const void *state, const char *path, struct lab_err *err);
void lab_an_ctrs_text(FILE *f, const void *state);
void lab_an_ctrs_html(FILE *f, const void *state, const struct lab_an_plots *plots,
                      const char *dir);
int lab_an_ctrs_plots(const void *state, const struct lab_an_data *d,
                      const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                      struct lab_err *err);

#endif
