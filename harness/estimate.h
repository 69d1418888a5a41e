/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The plan's time estimate of one run of a point (issue 21 finding 10), from what the kernel
 * declares (struct lab_kernel_est: setup and one iteration) and what the harness does with it
 * (harness/runner_sample.c): warm-up and calibration overlap (calibration grows the iteration
 * count from 1 until two samples in a row last min_time, and the warm-up keeps sampling until
 * its time is spent; a LAB_KF_TIMED kernel has no calibration and one warm-up sample), then
 * reps samples, each about LAB_EST_OVERSHOOT x min_time and never
 * shorter than one iteration, each with the harness's own cost per sample. runs, precision and
 * budget multiply or extend it in harness/precision.h (lab_prec_point_estimate). Retries of
 * flagged samples come on top (a busy machine). Pure arithmetic: tests/unit/test_estimate.c.
 */
#ifndef LAB_HARNESS_ESTIMATE_H
#define LAB_HARNESS_ESTIMATE_H

#include "harness/kernel_api.h"
#include "harness/plan.h"

/* A calibrated sample lasts about this times min_time (the count grows to 1.2 x the target). */
#define LAB_EST_OVERSHOOT 1.1
/* The harness's own cost per sample (barrier, clock, load and run-queue reads, records), ns. */
#define LAB_EST_SAMPLE_NS 2e5
/* Per run of a point: team creation, binding and the records written, ns. */
#define LAB_EST_POINT_NS 5e6
/* Once per lab run: the self-check (harness/selfcheck.h) and provenance, ns. */
#define LAB_EST_SELFCHECK_NS 2e8
/* Per run of a point with counters on, per thread: opening, reading and closing its events, ns
 * (software events on 2 threads cost 1-2 ms a run; 50 ms a run, the guess before, made ch29's
 * estimate twice its run). */
#define LAB_EST_COUNTERS_NS 1e6

/* The declared plan of one run of a point: the inputs of the arithmetic. */
struct lab_est_plan {
	double warmup_ns, min_time_ns;
	double floor_ns; /* 1000 x the clock's resolution: no sample is shorter */
	double reps;
	struct lab_kernel_est k;  /* what the kernel declares */
	double touch_ns_per_byte; /* the price of k.touch_bytes; 0 = LAB_EST_TOUCH_NS_PER_BYTE */
	int counters;             /* counters are on: LAB_EST_COUNTERS_NS per thread and run */
	unsigned nthreads;        /* the team (0 counts as 1) */
	int timed; /* LAB_KF_TIMED: no calibration, one warm-up sample, samples of min_time */
};

/* ns of one run of the point described by e (setup, warm-up and calibration, reps samples). */
double lab_est_run_ns(const struct lab_est_plan *e);

/* ns of the first touches in one run of e (in lab_est_run_ns too). */
double lab_est_touch_ns(const struct lab_est_plan *e);

/* The declared plan of pt (kernel k; clock_res_ns the clock's resolution, 0 when unknown). */
void lab_est_plan_of(const struct lab_point *pt, const struct lab_kernel *k, double clock_res_ns,
                     struct lab_est_plan *e);

#endif
