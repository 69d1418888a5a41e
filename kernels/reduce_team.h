/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The reduce kernel's per-thread work and the lab's own pthread team (team = lab): threads
 * 1..n-1 pinned to the plan with lab_ctx_omp_bind (so run.json records their CPUs), the harness
 * worker is thread 0; a pass is one bump of a generation counter the workers spin on, and a
 * count of finished workers the caller spins on. No OpenMP construct is involved, so against
 * team = openmp it shows what the runtime's fork-join adds.
 */
#ifndef LAB_KERNELS_REDUCE_TEAM_H
#define LAB_KERNELS_REDUCE_TEAM_H

#include <pthread.h>
#include <sched.h>

#include "harness/kernel_api.h"

enum rd_team_kind { RDT_OPENMP, RDT_LAB };
enum rd_strategy { RD_OMP_REDUCTION, RD_PADDED, RD_PACKED, RD_ATOMIC, RD_CRITICAL };

/* A pseudo-strategy of the lab team: write the array (first touch). */
#define RD_TOUCH 99

struct rd_state {
	uint64_t *v, n;
	uint64_t seed;
	int strategy;    /* enum rd_strategy, or RD_TOUCH */
	uint64_t expect; /* the sum of one pass, computed serially */
	uint64_t total;  /* the sum of every pass, for verify */
	uint64_t passes;
	char *slots; /* per-thread partial sums: LAB_SLOT apart (padded) or 8 (packed) */
	pthread_mutex_t mutex;
	uint64_t locked_sum;                       /* the critical strategy's sum, under mutex */
	alignas(LAB_SLOT) _Atomic uint64_t shared; /* the atomic strategy's sum */
	/* The lab team. */
	const struct lab_ctx *ctx;
	pthread_t *th;
	unsigned nth; /* threads started (1..n-1) */
	alignas(LAB_SLOT) _Atomic uint64_t go;
	alignas(LAB_SLOT) _Atomic unsigned done;
	_Atomic int quit;
	_Atomic int bad; /* a worker could not bind */
};

/* Element k's value: below 2^24, so no pass can overflow 64 bits. */
static inline uint64_t rd_value(const struct rd_state *st, uint64_t k)
{
	return (k * 0x9e3779b97f4a7c15ull + st->seed) >> 40;
}

/* The block of thread i of nt under a static schedule. */
static inline void rd_block(const struct rd_state *st, unsigned i, unsigned nt, uint64_t *lo,
                            uint64_t *hi)
{
	*lo = st->n * i / nt;
	*hi = st->n * (i + 1) / nt;
}

static inline _Atomic uint64_t *rd_slot(struct rd_state *st, unsigned i)
{
	return (_Atomic uint64_t *)(st->slots +
	                            (size_t)i * (st->strategy == RD_PACKED ? 8 : LAB_SLOT));
}

/*
 * Thread i's share in memory: every add is a load and a store of its slot (relaxed atomics,
 * so the compiler cannot keep the sum in a register), which is what makes packed slots slow.
 */
static inline void rd_partial(struct rd_state *st, unsigned i, unsigned nt)
{
	_Atomic uint64_t *slot = rd_slot(st, i);
	uint64_t lo, hi;

	rd_block(st, i, nt, &lo, &hi);
	atomic_store_explicit(slot, 0, memory_order_relaxed);
	for (uint64_t k = lo; k < hi; k++) {
		uint64_t s = atomic_load_explicit(slot, memory_order_relaxed);
		atomic_store_explicit(slot, s + st->v[k], memory_order_relaxed);
	}
}

static inline uint64_t rd_combine(struct rd_state *st, unsigned nt)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < nt; i++)
		s += atomic_load_explicit(rd_slot(st, i), memory_order_relaxed);
	return s;
}

/* Thread i's share of one pass on the lab team, by strategy. */
static inline void rd_team_job(struct rd_state *st, unsigned i, unsigned nt)
{
	uint64_t lo, hi, s = 0;

	rd_block(st, i, nt, &lo, &hi);
	switch (st->strategy) {
	case RD_TOUCH:
		for (uint64_t k = lo; k < hi; k++)
			st->v[k] = rd_value(st, k);
		break;
	case RD_OMP_REDUCTION: /* private sum, combined once: what reduction(+) does */
		for (uint64_t k = lo; k < hi; k++)
			s += st->v[k];
		atomic_store_explicit(rd_slot(st, i), s, memory_order_relaxed);
		break;
	case RD_ATOMIC:
		for (uint64_t k = lo; k < hi; k++)
			atomic_fetch_add_explicit(&st->shared, st->v[k], memory_order_relaxed);
		break;
	case RD_CRITICAL:
		for (uint64_t k = lo; k < hi; k++) {
			pthread_mutex_lock(&st->mutex);
			st->locked_sum += st->v[k];
			pthread_mutex_unlock(&st->mutex);
		}
		break;
	default:
		rd_partial(st, i, nt);
	}
}

struct rd_worker_arg {
	struct rd_state *st;
	unsigned i;
};

static void *rd_worker(void *argp)
{
	struct rd_worker_arg *a = argp;
	struct rd_state *st = a->st;
	unsigned i = a->i, nt = st->ctx->nthreads;
	uint64_t seen = 0;

	free(a);
	if (lab_ctx_omp_bind(st->ctx, i) != 0)
		atomic_store(&st->bad, 1);
	for (;;) {
		uint64_t g;
		unsigned spins = 0;
		/* Spin while a sample runs; yield when idle long (between points) not to starve. */
		while ((g = atomic_load_explicit(&st->go, memory_order_acquire)) == seen)
			if (++spins < (1u << 20))
				lab_cpu_relax();
			else
				sched_yield();
		seen = g;
		if (atomic_load(&st->quit))
			return NULL;
		rd_team_job(st, i, nt);
		atomic_fetch_add_explicit(&st->done, 1, memory_order_release);
	}
}

/* One pass of the lab team, run by thread 0 (the harness worker); returns the sum. */
static inline uint64_t rd_team_pass(struct rd_state *st)
{
	unsigned nt = st->ctx->nthreads;
	uint64_t s;

	atomic_store_explicit(&st->shared, 0, memory_order_relaxed);
	st->locked_sum = 0;
	atomic_store_explicit(&st->done, 0, memory_order_relaxed);
	atomic_fetch_add_explicit(&st->go, 1, memory_order_release);
	rd_team_job(st, 0, nt);
	while (atomic_load_explicit(&st->done, memory_order_acquire) != nt - 1)
		lab_cpu_relax();
	if (st->strategy == RD_ATOMIC)
		return atomic_load_explicit(&st->shared, memory_order_relaxed);
	if (st->strategy == RD_CRITICAL) {
		pthread_mutex_lock(&st->mutex);
		s = st->locked_sum;
		pthread_mutex_unlock(&st->mutex);
		return s;
	}
	return rd_combine(st, nt);
}

/* Wakes the lab team's workers to leave, and joins them. */
static inline void rd_team_stop(struct rd_state *st)
{
	if (!st->th)
		return;
	atomic_store(&st->quit, 1);
	atomic_fetch_add_explicit(&st->go, 1, memory_order_release);
	for (unsigned k = 0; k < st->nth; k++)
		pthread_join(st->th[k], NULL);
	free(st->th);
	st->th = NULL;
	st->nth = 0;
}

/* Starts threads 1..n-1 of the lab team, each pinned to its planned CPU; thread 0 is the caller. */
static inline int rd_team_start(struct rd_state *st, const struct lab_ctx *ctx, struct lab_err *err)
{
	unsigned nt = ctx->nthreads;

	st->ctx = ctx;
	if (lab_ctx_omp_bind(ctx, 0) != 0)
		return lab_err_set(err, LAB_ESYS, "the lab team's thread 0 could not bind");
	st->th = calloc(nt, sizeof(*st->th));
	if (!st->th)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	for (unsigned i = 1; i < nt; i++) {
		struct rd_worker_arg *a = malloc(sizeof(*a));
		if (a)
			*a = (struct rd_worker_arg){st, i};
		if (!a || pthread_create(&st->th[st->nth], NULL, rd_worker, a) != 0) {
			free(a);
			rd_team_stop(st);
			return lab_err_set(err, LAB_ESYS, "cannot start lab team thread %u", i);
		}
		st->nth++;
	}
	/* A first pass writes each block on the thread that reads it (first touch); after it
	 * every worker has bound, or failed to. */
	int strategy = st->strategy;
	st->strategy = RD_TOUCH;
	rd_team_pass(st);
	st->strategy = strategy;
	if (atomic_load(&st->bad)) {
		rd_team_stop(st);
		return lab_err_set(err, LAB_ESYS, "a lab team thread could not bind to its CPU");
	}
	return 0;
}

#endif
