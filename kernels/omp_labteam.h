/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lab's own pthread team for the OpenMP kernels' `team = lab` variants: what the runtime's
 * fork-join and barrier would cost if they were a spinning counter. Threads 1..n-1 are pinned
 * to the plan with lab_ctx_omp_bind (so run.json records their CPUs like an OpenMP team's); the
 * harness worker is thread 0. komp_team_run is one "fork-join": bump a generation counter the
 * workers spin on, do thread 0's share, spin until the others have counted themselves done.
 * Idle workers yield after a while, so a team parked between points does not starve others.
 */
#ifndef LAB_KERNELS_OMP_LABTEAM_H
#define LAB_KERNELS_OMP_LABTEAM_H

#include <pthread.h>
#include <sched.h>
#include <stdlib.h>

#include "harness/kernel_api.h"

/* One thread's share of a komp_team_run: thread i of n. */
typedef void (*komp_job_fn)(void *arg, unsigned i, unsigned n);

struct komp_team {
	const struct lab_ctx *ctx;
	pthread_t *th;
	unsigned nth; /* workers started (threads 1..nth) */
	komp_job_fn job;
	void *arg;
	alignas(LAB_SLOT) _Atomic uint64_t go;
	alignas(LAB_SLOT) _Atomic unsigned done;
	alignas(LAB_SLOT) _Atomic unsigned bar_count; /* komp_team_barrier */
	alignas(LAB_SLOT) _Atomic unsigned bar_sense;
	_Atomic int quit;
	_Atomic int bad; /* a worker could not bind */
};

struct komp_worker_arg {
	struct komp_team *team;
	unsigned i;
};

static inline void *komp_worker(void *argp)
{
	struct komp_worker_arg *a = argp;
	struct komp_team *tm = a->team;
	unsigned i = a->i, n = tm->ctx->nthreads;
	uint64_t seen = 0;

	free(a);
	if (lab_ctx_omp_bind(tm->ctx, i) != 0)
		atomic_store(&tm->bad, 1);
	for (;;) {
		uint64_t g;
		unsigned spins = 0;
		while ((g = atomic_load_explicit(&tm->go, memory_order_acquire)) == seen)
			if (++spins < (1u << 20))
				lab_cpu_relax();
			else
				sched_yield();
		seen = g;
		if (atomic_load(&tm->quit))
			return NULL;
		tm->job(tm->arg, i, n);
		atomic_fetch_add_explicit(&tm->done, 1, memory_order_release);
	}
}

/* Runs job(arg, i, n) on every thread of the team, thread 0 being the caller; returns after all. */
static inline void komp_team_run(struct komp_team *tm, komp_job_fn job, void *arg)
{
	unsigned n = tm->ctx->nthreads;

	tm->job = job;
	tm->arg = arg;
	/* Nobody is in a barrier between runs: every run's barriers start from sense 0. */
	atomic_store_explicit(&tm->bar_count, 0, memory_order_relaxed);
	atomic_store_explicit(&tm->bar_sense, 0, memory_order_relaxed);
	atomic_store_explicit(&tm->done, 0, memory_order_relaxed);
	atomic_fetch_add_explicit(&tm->go, 1, memory_order_release);
	job(arg, 0, n);
	while (atomic_load_explicit(&tm->done, memory_order_acquire) != n - 1)
		lab_cpu_relax();
}

/*
 * A sense-reversing spin barrier for the n threads of a komp_team_run job; *sense is the
 * caller's own, 0 at the start of every job.
 */
static inline void komp_team_barrier(struct komp_team *tm, unsigned n, unsigned *sense)
{
	*sense ^= 1;
	if (atomic_fetch_add_explicit(&tm->bar_count, 1, memory_order_acq_rel) == n - 1) {
		atomic_store_explicit(&tm->bar_count, 0, memory_order_relaxed);
		atomic_store_explicit(&tm->bar_sense, *sense, memory_order_release);
	} else {
		while (atomic_load_explicit(&tm->bar_sense, memory_order_acquire) != *sense)
			lab_cpu_relax();
	}
}

/* Tells the workers to leave, and joins them. Safe on a team never started. */
static inline void komp_team_stop(struct komp_team *tm)
{
	if (!tm->th)
		return;
	atomic_store(&tm->quit, 1);
	atomic_fetch_add_explicit(&tm->go, 1, memory_order_release);
	for (unsigned k = 0; k < tm->nth; k++)
		pthread_join(tm->th[k], NULL);
	free(tm->th);
	tm->th = NULL;
	tm->nth = 0;
}

static inline void komp_team_nop(void *arg, unsigned i, unsigned n)
{
	(void)arg;
	(void)i;
	(void)n;
}

/*
 * Starts threads 1..n-1 pinned to the plan and binds the caller as thread 0. tm must be
 * zeroed. Returns 0 once every worker runs where planned, or -LAB_ESYS / -LAB_ENOMEM (the
 * team is stopped then).
 */
static inline int komp_team_start(struct komp_team *tm, const struct lab_ctx *ctx,
                                  struct lab_err *err)
{
	unsigned n = ctx->nthreads;

	tm->ctx = ctx;
	if (lab_ctx_omp_bind(ctx, 0) != 0)
		return lab_err_set(err, LAB_ESYS, "the lab team's thread 0 could not bind");
	tm->th = calloc(n, sizeof(*tm->th));
	if (!tm->th)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (unsigned i = 1; i < n; i++) {
		struct komp_worker_arg *a = malloc(sizeof(*a));
		if (a)
			*a = (struct komp_worker_arg){tm, i};
		if (!a || pthread_create(&tm->th[tm->nth], NULL, komp_worker, a) != 0) {
			free(a);
			komp_team_stop(tm);
			return lab_err_set(err, LAB_ESYS, "cannot start lab team thread %u", i);
		}
		tm->nth++;
	}
	/* After one empty run every worker has bound, or failed to. */
	komp_team_run(tm, komp_team_nop, NULL);
	if (atomic_load(&tm->bad)) {
		komp_team_stop(tm);
		return lab_err_set(err, LAB_ESYS, "a lab team thread could not bind to its CPU");
	}
	return 0;
}

#endif
