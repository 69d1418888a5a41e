/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The reduce kernel's per-thread work, shared by its OpenMP team and the lab's own pthread team
 * (team = lab, kernels/omp_labteam.h): no OpenMP construct is involved there, so against
 * team = openmp it shows what the runtime's fork-join adds.
 */
#ifndef LAB_KERNELS_REDUCE_TEAM_H
#define LAB_KERNELS_REDUCE_TEAM_H

#include <pthread.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"
#include "kernels/omp_labteam.h"

enum rd_team_kind { RDT_OPENMP, RDT_LAB };
enum rd_strategy { RD_OMP_REDUCTION, RD_PADDED, RD_PACKED, RD_ATOMIC, RD_CRITICAL };

/* A pseudo-strategy of the lab team: write the array (first touch). */
#define RD_TOUCH 99

struct rd_state {
	struct lab_buf vbuf; /* behind v */
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
	struct komp_team team;                     /* team = lab */
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

/* Thread i's share of one pass on the lab team, by strategy (a komp_job_fn). */
static inline void rd_team_job(void *arg, unsigned i, unsigned nt)
{
	struct rd_state *st = arg;
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

/* One pass of the lab team, run by thread 0 (the harness worker); returns the sum. */
static inline uint64_t rd_team_pass(struct rd_state *st)
{
	uint64_t s;

	atomic_store_explicit(&st->shared, 0, memory_order_relaxed);
	st->locked_sum = 0;
	komp_team_run(&st->team, rd_team_job, st);
	if (st->strategy == RD_ATOMIC)
		return atomic_load_explicit(&st->shared, memory_order_relaxed);
	if (st->strategy == RD_CRITICAL) {
		pthread_mutex_lock(&st->mutex);
		s = st->locked_sum;
		pthread_mutex_unlock(&st->mutex);
		return s;
	}
	return rd_combine(st, st->team.ctx->nthreads);
}

/* Starts the lab team and first-touches the array with it (each block on its reader). */
static inline int rd_team_start(struct rd_state *st, const struct lab_ctx *ctx, struct lab_err *err)
{
	int strategy = st->strategy, rc = komp_team_start(&st->team, ctx, err);

	if (rc)
		return rc;
	st->strategy = RD_TOUCH;
	rd_team_pass(st);
	st->strategy = strategy;
	return 0;
}

#endif
