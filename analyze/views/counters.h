/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The counters view (issue 11): every point whose samples.csv rows carry ctr_<event> values.
 * Per point, over the used samples (all when every one was load-flagged): the median per sample
 * (sum over threads) of every counter column, the samples in which a pinned thread was switched
 * out or migrated, the median run-queue wait, the lowest ctr_mux_ratio (< 1: multiplexed),
 * derived metrics (IPC, GHz or the self-check's core clock, MPKI) with a reason when missing,
 * and top-down level 1-2 by run.json's host.counters method (analyze/topdown.h). Ratios of
 * medians: groups count in passes (sample r counts pass r % passes) and a point's samples all
 * do the same work, so medians of different passes compare. counters_calc.c: one point.
 */
#ifndef LAB_ANALYZE_VIEWS_COUNTERS_H
#define LAB_ANALYZE_VIEWS_COUNTERS_H

#include <stddef.h>

#include "analyze/data.h"
#include "analyze/index.h"
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

struct lab_an_ctr_val {
	double v;           /* NaN: not available (reason says why) */
	int estimated;      /* from the self-check's core clock, not a cycle counter */
	const char *reason; /* in c->why, or a string literal; "" when none */
};

struct lab_an_ctr_pt {
	const struct lab_an_point *pt;
	size_t n;        /* samples the medians use */
	int all_flagged; /* every sample was load-flagged: the medians use all of them */
	double *med;     /* per counter column of the view (NaN: no value; in c->medv) */
	size_t *nval;    /* values behind each median (in c->nvalv) */
	double mux_min;  /* lowest ctr_mux_ratio of those samples; NaN: none recorded */
	size_t csw_samples, mig_samples; /* of all samples: a switched-out / migrated thread */
	double runq_med; /* median runq_wait of the used samples (share; NaN: not recorded) */
	int has_hw;      /* some hardware column has a value */
	/* !has_hw: why (the first hardware event's status and reason); in c->why, "" when none */
	const char *hw_reason;
	struct lab_an_ctr_val dv[LAB_AN_CD_N];
	struct lab_an_tma tma;
	const char *tma_reason; /* tma.level < 2: why (level 0) or why level 2 is missing */
};

struct lab_an_ctrs {
	const char **col; /* the ctr_ columns of samples.csv, without ctr_mux_ratio (the data's) */
	size_t *mcol;     /* their indexes among the data's metrics */
	size_t ncol;
	long mux_m;              /* index of ctr_mux_ratio, -1 when absent */
	struct lab_an_ctr_pt *p; /* one block with col, mcol, medv and nvalv */
	size_t np;
	double *medv;
	size_t *nvalv;       /* the points' med and nval, ncol each */
	int any_hw;          /* some point has hardware values */
	char hw_reason[256]; /* !any_hw: the one line's reason */
	double core_ghz;     /* self_check.core_ghz, NaN when absent */
	const char *method;  /* host.counters.topdown_method, or "none" */
	/* The reasons of the points, each text once (a point held 2 KB of them, mostly the same
	 * few sentences: 270 MB at 100 000 points); freed by lab_an_ctrs_free. */
	struct lab_an_strset why;
	int oom; /* a reason could not be kept: out of memory */
};

/* The median of column name ("ctr_cycles") at e, NaN when absent. */
double lab_an_ctrs_med(const struct lab_an_ctrs *c, const struct lab_an_ctr_pt *e,
                       const char *name);
/* c's columns and host facts from d, room for npoints of d's points in c->p; 0, or -1 out of
 * memory. */
int lab_an_ctrs_init(const struct lab_an_data *d, struct lab_an_ctrs *c, size_t npoints);
/* Frees what init and point gave c (not c itself). */
void lab_an_ctrs_free(struct lab_an_ctrs *c);
/* Adds point p to c: medians, counts, derived metrics, top-down; inc: with load-flagged samples
 * (all samples are used when every one was flagged); tmp holds 2 p->n doubles. c->oom says
 * when memory ran out. */
void lab_an_ctrs_point(const struct lab_an_data *d, struct lab_an_ctrs *c,
                       const struct lab_an_point *p, int inc, double *tmp);

#endif
