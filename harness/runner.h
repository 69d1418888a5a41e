/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The runner: executes points. Per point: create and bind the team, setup and thread_setup,
 * calibrate the iterations so a sample lasts >= min_time and >= 1000x the clock resolution,
 * warm up, take `reps` samples (all threads start at a spinning barrier, each timestamps its
 * own run; elapsed = max(end) - min(start)), read the foreign-load guard around each sample
 * and each worker's run-queue wait (a sample is flagged when the foreign load exceeds the
 * point's limit or a worker waited for its CPU more than max_runq_wait of the sample; a flagged
 * sample is taken again, up to retry_flagged times, each after waiting up to quiet_wait for the
 * load to drop), verify, teardown. Results go to a sink as each point finishes;
 * the runner never prints.
 */
#ifndef LAB_HARNESS_RUNNER_H
#define LAB_HARNESS_RUNNER_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/counters.h"
#include "harness/err.h"
#include "harness/facts.h"
#include "harness/kernel_api.h"
#include "harness/load.h"
#include "harness/plan.h"
#include "harness/precision.h"
#include "harness/topo.h"

struct lab_sample_rec {
	uint64_t elapsed_ns; /* max(end) - min(start) over the team */
	uint64_t work;       /* units of work done by all threads */
	double foreign_cpu;  /* vCPUs used by others (NaN when unknown) */
	/* The largest share of the sample any worker spent runnable but waiting for its CPU
	 * (lab_runq_read; NaN when unknown). */
	double runq_wait;
	/* foreign_cpu above the point's load limit (lab_runner_load_limit), or runq_wait above
	 * max_runq_wait (then flagged_runq too) */
	bool flagged, flagged_runq;
	unsigned attempts; /* times this sample was taken: 1, or more when flagged ones retried */
	double metric[LAB_METRICS_MAX];
	double ctr[LAB_CTR_EVENTS_MAX]; /* counter values summed over threads (NaN: not counted) */
	double ctr_mux;                 /* smallest running/enabled of any thread's group */
};

struct lab_thread_rec {
	int cpu_start, cpu_end;    /* sched_getcpu() before and after run() */
	uint64_t start_ns, end_ns; /* relative to the runner's origin */
	uint64_t work;
	double
	    runq_wait; /* share of its run spent runnable but waiting for its CPU (NaN unknown) */
	double metric[LAB_METRICS_MAX];
	double ctr[LAB_CTR_EVENTS_MAX]; /* this thread's counter values (NaN: not counted) */
	double ctr_mux;                 /* its smallest running/enabled (1: not multiplexed) */
};

enum lab_point_status {
	LAB_STATUS_OK,
	LAB_STATUS_SKIPPED,
	LAB_STATUS_FAILED,
};

enum lab_verify_result {
	LAB_VERIFY_NONE, /* the kernel has no verify hook, or the point did not run */
	LAB_VERIFY_PASS,
	LAB_VERIFY_FAIL,
};

/* What one point produced. */
struct lab_point_rec {
	const struct lab_point *pt;
	enum lab_point_status status;
	enum lab_verify_result verify;
	char reason[LAB_ERR_MSG_MAX];
	uint64_t iters;    /* per thread per sample; 0 for timed kernels */
	unsigned nthreads; /* the point's threads */
	unsigned nworkers; /* rows per sample in threads: nthreads, or 1 for an OpenMP kernel */
	int *omp_cpus;     /* OpenMP kernels: where each OpenMP thread ran (-1: never bound) */
	unsigned nreps;    /* samples recorded */
	unsigned nflagged; /* samples kept flagged (after every retry) */
	unsigned nflagged_runq;         /* of those, flagged for run-queue wait */
	unsigned attempts;              /* samples taken, retries of flagged ones included */
	double load_limit;              /* foreign vCPUs above which a sample was flagged */
	struct lab_sample_rec *samples; /* nreps */
	struct lab_thread_rec *threads; /* nreps x nworkers, row-major by rep */
	bool has_work;
	struct lab_work work;     /* declared traffic per unit, when has_work */
	struct lab_ctr_info *ctr; /* what the counters were; NULL with counters = off */
	struct lab_facts facts;   /* what the kernel reported with lab_ctx_fact_* */
	/* The run level: this record is run `run` (0-based) of the point, its samples are reps
	 * rep0 .. rep0 + nreps - 1 of the point, and last_run says no later run of the point
	 * follows (lab_runner_run sets these; lab_runner_point leaves run 0, rep0 0, last). */
	unsigned run, rep0;
	bool last_run;
	/* The runs the runner plans for the point as this record is handed over: `runs`, Stein's
	 * total, or fewer once a run failed or the budget ran out (1 from lab_runner_point). The
	 * last record of a point that ran to its end has last_run and run + 1 == runs_planned; one
	 * without last_run that no later record follows was cut short (an interrupted run). */
	unsigned runs_planned;
	int pid; /* the process that measured it (fresh_process = on: a new one per run) */
	/* The timed windows each sample's elapsed_ns adds up: 1 (elapsed_ns is max(end_ns) -
	 * min(start_ns) of its threads), or the chunks of a long iteration-count sample (its
	 * threads' start_ns .. end_ns then also span the untimed gaps between the chunks). */
	unsigned windows;
	/* With a precision target: what it came to so far (final when last_run). */
	struct lab_prec_rec prec;
};

/* Everything a point needs, so the self-check can run internal kernels through the same path. */
struct lab_point_spec {
	const struct lab_kernel *kernel;
	const void *kparams;
	const struct lab_hparams *h;
	const int *cpus;
	unsigned n;
};

/* Where finished points go (the result files, a test's array). */
struct lab_sink {
	void *ctx;
	/* A point finished (or was skipped or failed). Nonzero return stops the run. */
	int (*point)(void *ctx, const struct lab_point_rec *rec, struct lab_err *err);
	/* Point pt (done of total finished so far) is about to start; optional. With runs >= 2 a
	 * point starts once per run, and total counts the runs planned so far. */
	void (*progress)(void *ctx, unsigned done, unsigned total, const struct lab_point *pt);
};

#define LAB_RUNNER_PERSIST_MAX 8

/* Consecutive points of one team size whose foreign load outlasted every retry. */
struct lab_runner_persist {
	unsigned nthreads, points;
};

struct lab_runner {
	const struct lab_topo *topo;
	const struct lab_env *env;
	const atomic_int *interrupt; /* set by a signal handler; polled between samples */
	bool bind;            /* pin threads (false on topologies that are not this system) */
	struct lab_load load; /* the foreign-load guard */
	bool load_ok;
	/*
	 * Where foreign load readings come from: NULL reads the guard (a snapshot, then
	 * lab_load_foreign); tests inject a sequence. Returns vCPUs, NaN when unknown.
	 */
	double (*foreign)(void *ctx);
	void *foreign_ctx;
	/*
	 * Where each worker's run-queue wait comes from: NULL reads its schedstat (lab_runq_read);
	 * tests inject one. Called on worker tid just before and after its timed run: the running
	 * total of ns it waited into *ns, 0, or nonzero when unknown. For an OpenMP kernel, tid is
	 * each OpenMP thread's number in turn (the one worker answers for its team).
	 */
	int (*runq)(void *ctx, unsigned tid, uint64_t *ns);
	void *runq_ctx;
	/*
	 * Per team size, consecutive points whose foreign load outlasted every retry
	 * (runner_internal.h: RUNNER_PERSISTENT_POINTS of them shorten the retries of the next
	 * point of that size). By size, because a neighbour on one CPU of two outlasts every
	 * 2-thread point while the 1-thread points between them run clean.
	 */
	struct lab_runner_persist persist[LAB_RUNNER_PERSIST_MAX];
	uint64_t origin_ns;                  /* thread timestamps are written relative to this */
	const struct lab_ctr_host *ctr_host; /* this machine's PMU (tests: a fixture) */
	const struct lab_pe_ops *pe_ops;     /* the perf syscalls (tests: fakes) */
	uint64_t start_ns; /* when lab_runner_run began: total_budget counts from here (0: unset) */
	/*
	 * Where a run of a point with fresh_process = on is measured: a new process (lab run starts
	 * one of itself, lab/run_fresh.c), with lab_runner_point's contract; it fills rec->pid.
	 * NULL: such a point fails with the reason.
	 */
	int (*elsewhere)(void *ctx, const struct lab_point *pt, struct lab_point_rec *rec,
	                 struct lab_err *err);
	void *elsewhere_ctx;
};

/*
 * rec as bytes for another process of this build (runner_wire.c), with the origin its thread
 * times count from: a new buffer into *buf. 0 or -LAB_ENOMEM.
 */
int lab_point_rec_pack(const struct lab_point_rec *rec, uint64_t origin_ns, char **buf,
                       size_t *len);

/*
 * The record in buf (len bytes from lab_point_rec_pack) into rec, its thread times moved to count
 * from origin_ns; rec->pt is left NULL for the caller. 0, or -LAB_EIO (bytes that are not such a
 * record, named in err) or -LAB_ENOMEM; rec is then empty.
 */
int lab_point_rec_unpack(const char *buf, size_t len, uint64_t origin_ns, struct lab_point_rec *rec,
                         struct lab_err *err);

/* The runner's count for team size n (lab_runner.persist), a slot for it when new. */
struct lab_runner_persist *lab_runner_persist(struct lab_runner *r, unsigned n);

/* Prepares a runner; bind follows lab_topo_is_thissystem(topo). */
void lab_runner_init(struct lab_runner *r, const struct lab_topo *topo, const struct lab_env *env,
                     const atomic_int *interrupt);

/*
 * Runs one point into rec (which the caller frees with lab_point_rec_free). Returns 0 (rec says
 * ok, skipped or failed), or -LAB_EINTR when interrupted (rec is then incomplete).
 */
int lab_runner_point(struct lab_runner *r, const struct lab_point_spec *spec,
                     struct lab_point_rec *rec, struct lab_err *err);

/*
 * Runs every point of plan, handing each run of each point to sink. With every point at runs =
 * 1 the points go in plan order; otherwise run r visits the points that
 * take an r-th run in an order shuffled with lab_prec_order_seed(lab_runner_order_seed(plan),
 * r), so slow drift of the machine does not line up with one parameter. A precision target adds
 * samples (one run) or runs (runs >= 2) by Stein's rule within the point's budget and, once the
 * whole run has lasted total_budget, adds none (budget_exhausted, total_exhausted). Returns 0,
 * -LAB_EINTR when interrupted (finished runs were handed over; a point whose last record has no
 * last_run got fewer runs than its runs_planned), or the sink's error.
 */
int lab_runner_run(struct lab_runner *r, const struct lab_plan *plan, const struct lab_sink *sink,
                   struct lab_err *err);

/*
 * The foreign load above which a sample of a team of nthreads is flagged on a machine of ncpus
 * CPUs: load_threshold plus the CPUs the team leaves idle. Load that fits on idle CPUs does not
 * take a CPU from the team; more than that must share the team's CPUs. (Shared caches and
 * memory bandwidth are not covered: a memory-bound neighbour on an idle CPU is not flagged.)
 * ncpus 0 (unknown) counts no idle CPUs.
 */
double lab_runner_load_limit(const struct lab_hparams *h, unsigned nthreads, unsigned ncpus);

/* The seed of the run order of plan: the seed key of its first point (run.json records it). */
uint64_t lab_runner_order_seed(const struct lab_plan *plan);

/* True when lab_runner_run shuffles plan's order (some point has runs >= 2). */
bool lab_runner_shuffles(const struct lab_plan *plan);

/* Frees the arrays of rec. */
void lab_point_rec_free(struct lab_point_rec *rec);

#endif
