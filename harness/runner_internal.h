/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the runner's files only: runner.c (points, records), runner_sample.c (samples,
 * calibration), runner_take.c, runner_prec.c and runner_runs.c. */
#ifndef LAB_HARNESS_RUNNER_INTERNAL_H
#define LAB_HARNESS_RUNNER_INTERNAL_H

#include <math.h>

#include "harness/counters.h"
#include "harness/runner.h"

/* Per-thread bookkeeping of the harness, one 128-byte slot each (written by its thread only). */
struct runner_slot {
	alignas(LAB_SLOT) uint64_t start_ns, end_ns;
	int cpu_start, cpu_end;
	int rc;
	int runq_fd; /* this worker's schedstat (lab_runq_open), -1 when there is none */
	/* Run-queue wait over the sample and the time it covers (summed over chunks); runq_ok
	 * false when a reading failed. */
	uint64_t runq_ns, runq_span_ns;
	bool runq_ok;
	struct lab_err err;
};

/*
 * A long iteration-count sample runs as chunks of about RUNNER_CHUNK_NS, with the stop flag
 * checked between them, so Ctrl-C ends it within ~100 ms (a kernel's timed loop cannot be
 * interrupted from outside). Only samples whose min_time exceeds two chunks are split.
 */
#define RUNNER_CHUNK_NS 50000000ull

/*
 * After this many consecutive points whose load outlasted every retry, a flagged sample is
 * retried once, after at most RUNNER_PERSISTENT_WAIT_NS, until a point runs clean again.
 */
#define RUNNER_PERSISTENT_POINTS  2
#define RUNNER_PERSISTENT_WAIT_NS 200000000ull

/* What a worker did over the chunks of one sample. */
struct runner_acc {
	uint64_t work, start_ns;
	uint64_t runq_ns, runq_span_ns;
	bool runq_ok;
	int cpu_start;
	double metric[LAB_METRICS_MAX];
};

struct runner_point {
	struct lab_runner *r;
	const struct lab_point_spec *spec;
	struct lab_ctx ctx;
	struct lab_team *team;
	struct lab_thread **threads;
	struct runner_slot *slots;
	atomic_int stop;
	atomic_uint started; /* workers past the start barrier in this sample */
	bool timed;
	unsigned chunks; /* per iteration-count sample, >= 1 */
	struct runner_acc *acc;
	unsigned nw; /* harness workers: spec->n, or 1 for an OpenMP kernel (its own team) */
	int *omp_cpus;
	/* An OpenMP kernel's: each OpenMP thread's schedstat (ctx.omp_runq_fd) and its run-queue
	 * total at the sample's start; NULL for other kernels. */
	int *omp_runq_fd;
	uint64_t *omp_rq0;
	struct lab_ctr_point *ctr; /* NULL with counters = off */
	/* Counters run from the first chunk of a sample to its last (both true when whole). */
	bool ctr_first, ctr_last;
	bool retries_spent; /* a sample stayed flagged after every retry: retry no more */
	uint64_t t0_ns;     /* when the point started (its precision budget counts from here) */
	uint64_t ts_ns;     /* when its first kept sample started */
	unsigned cap;       /* samples rec->samples (and its thread rows) has room for */
};

static inline bool lab__runner_interrupted(const struct lab_runner *r)
{
	return r->interrupt && atomic_load_explicit(r->interrupt, memory_order_relaxed);
}

/* One sample of iters per thread (or of duration_ns for timed kernels); returns elapsed ns. */
uint64_t lab__runner_sample(struct runner_point *p, uint64_t iters, uint64_t duration_ns);

/* Warm-up and calibration; returns the iterations per chunk of a sample (0 when timed). */
uint64_t lab__runner_calibrate(struct runner_point *p);

/* Chunks per iteration-count sample of p (>= 1). */
unsigned lab__runner_chunks(const struct runner_point *p);

/*
 * One recorded sample of p->chunks chunks of iters (see runner_sample.c for how they combine).
 * Returns false when interrupted between chunks.
 */
bool lab__runner_sample_whole(struct runner_point *p, uint64_t iters, uint64_t *elapsed);

/* The share of worker s's last sample it spent waiting for its CPU; NaN when unknown. */
static inline double lab__runner_slot_runq(const struct runner_slot *s)
{
	/* a share of the reads' span: at most 1 but for the clocks' granularity */
	return s->runq_ok && s->runq_span_ns
	           ? fmin(1.0, (double)s->runq_ns / (double)s->runq_span_ns)
	           : NAN;
}

/* True when share is over the point's max_runq_wait (never with 1, the guard off). */
static inline bool lab__runner_runq_over(const struct lab_hparams *h, double share)
{
	return h->max_runq_wait < 1 && share > h->max_runq_wait;
}

/*
 * Sample rep of the point, kept in rec (runner_take.c): retaken while flagged, within the retry
 * bounds. Returns 0 or -LAB_EINTR.
 */
int lab__runner_take(struct runner_point *p, struct lab_point_rec *rec, unsigned rep,
                     uint64_t iters, struct lab_err *err);

/* Samples of the first stage: reps, and at least LAB_PREC_PILOT_MIN when a one-run point has a
 * precision target (Stein's rule needs a pilot variance with some degrees of freedom). */
static inline unsigned lab__runner_pilot(const struct lab_hparams *h)
{
	double target = 0;
	struct lab_err err;

	if (h->runs <= 1 && lab_prec_parse(h->precision, &target, &err) == 0 && target > 0 &&
	    h->reps < LAB_PREC_PILOT_MIN)
		return LAB_PREC_PILOT_MIN;
	return (unsigned)h->reps;
}

/*
 * One-run precision target (runner_prec.c): after the pilot in rec, takes more samples by
 * Stein's rule within the budget and fills rec->prec. Returns 0 or -LAB_EINTR / -LAB_ENOMEM.
 */
int lab__runner_prec_samples(struct runner_point *p, struct lab_point_rec *rec, uint64_t iters,
                             double target, struct lab_err *err);

/* Room for n samples in rec (grows samples and thread rows). Returns 0 or -LAB_ENOMEM. */
int lab__runner_reserve(struct runner_point *p, struct lab_point_rec *rec, unsigned n,
                        struct lab_err *err);

/* The cost per unit of work of each kept sample of rec into x, returning how many: the
 * unflagged ones, as the analyzer keeps; with fallback, every sample when all are flagged (a
 * pilot that must plan from something). */
unsigned lab__runner_costs(const struct lab_point_rec *rec, double *x, bool fallback);

/* Fills the final fields of pr (mean, halfwidth, achieved, kept) from the observations
 * x[0..n-1]: the half-width is Stein's or the t-interval of x, whichever is wider (a machine
 * whose load changed after the pilot spreads the observations past s0; the analyzer's interval
 * then says so, and the record must not claim less). n < 2: achieved NaN. */
void lab__runner_prec_final(struct lab_prec_rec *pr, const double *x, unsigned n);

/* Sleeps ns on the monotonic clock, through signals. */
void lab__runner_sleep_ns(uint64_t ns);

#endif
