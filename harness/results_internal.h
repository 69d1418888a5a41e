/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by results.c (the files), results_json.c (run.json's document) and results_claim.c (the
 * directory's claim) only. */
#ifndef LAB_HARNESS_RESULTS_INTERNAL_H
#define LAB_HARNESS_RESULTS_INTERNAL_H

#include <stdio.h>

#include "harness/results.h"

#define LAB_RESULTS_COLS_MAX 128
/* The shortest interval between two rewrites of run.json while running. */
#define LAB_RESULTS_WRITE_NS 200000000ull

/* What run.json says of a point once it finished. */
struct lab_results_pt {
	bool done;
	bool running; /* handed to the runner, not finished */
	enum lab_point_status status;
	enum lab_verify_result verify;
	uint64_t iters;
	unsigned windows; /* timed windows per sample (lab_point_rec.windows) */
	unsigned nreps, nflagged;
	unsigned nflagged_runq;    /* of the flagged ones, those flagged for run-queue wait */
	unsigned attempts;         /* samples taken, retries of flagged ones included */
	unsigned *sample_attempts; /* nreps: times each kept sample was taken; NULL: none */
	double load_limit;         /* foreign vCPUs above which a sample was flagged */
	bool has_work;
	struct lab_work work;
	int *omp_cpus;            /* OpenMP kernels: where each OpenMP thread ran; NULL otherwise */
	struct lab_ctr_info *ctr; /* the point's counters; NULL with counters = off */
	struct lab_facts *facts;  /* the kernel's point facts; NULL when none */
	char reason[LAB_ERR_MSG_MAX];
	unsigned runs;            /* runs handed over (runs = K: fresh setups of the point) */
	unsigned runs_planned;    /* the runner's plan for the point at its last run handed over */
	bool complete;            /* that run was its last (last_run): no run was cut off */
	int *pids;                /* fresh_process = on: the process of each run (runs of them) */
	struct lab_prec_rec prec; /* its precision target; prec.on false without one */
	uint64_t started_ns;      /* when its current run was handed to the runner */
	uint64_t wall_ns;         /* its runs' wall time, setup to teardown, summed */
};

struct lab_results {
	char *dir;
	const struct lab_plan *plan;
	struct lab_results_info info;
	FILE *samples, *threads;
	struct lab_results_pt *pts; /* one per plan point */
	unsigned ndone;             /* points whose last run was handed over */
	uint64_t written_ns;        /* when run.json was last rewritten while running; 0: not yet */
	uint64_t write_gap_ns; /* the time until the next such rewrite (results_write_running) */
	char error[LAB_ERR_MSG_MAX]; /* why the run failed, "" when it did not */
	const char **cols;           /* metric columns: the union over experiments */
	unsigned ncols;
	unsigned *col_of;  /* [exp * LAB_METRICS_MAX + metric] -> column */
	uint64_t ctr_mask; /* counter columns (catalogue events) after the metric columns */
};

/*
 * Claims dir for this run: creates it (and missing parents) unless it exists, then creates the
 * lock file in it with O_EXCL, so of two runs given the same new or empty directory exactly one
 * gets it (a check for emptiness alone let both through, and one run's samples were lost). The
 * directory must then hold nothing but the lock. Returns 0; -LAB_EINVAL when dir is the wrong
 * name (empty, not a directory, not empty, taken by another run); -LAB_EIO when a system call
 * failed (a full disk, no permission). On failure nothing this call made stays.
 */
int lab__results_claim(const char *dir, bool *created, struct lab_err *err);
/* Gives up the claim of lab__results_claim: the run is over and its files say so. */
void lab__results_unclaim(const char *dir);

/* Writes run.json's document with the given status to f (results_json.c). */
void lab__results_run_json(FILE *f, const struct lab_results *res, const char *status);

#endif
