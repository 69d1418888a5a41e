/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * omp_overhead's `team = lab` variants: the same instances on the lab's own pinned pthread
 * team (kernels/omp_labteam.h) with no OpenMP construct: a fork-join is one spinning wake-up
 * and count-down, a barrier a sense-reversing spin barrier, critical a pthread mutex, lock a
 * pthread spinlock, atomic a C11 fetch_add. Set against team = openmp, the difference is what
 * the runtime adds (libgomp's futex wake at every barrier, for one).
 */
#ifndef LAB_KERNELS_OMP_OVERHEAD_LAB_H
#define LAB_KERNELS_OMP_OVERHEAD_LAB_H

#include <pthread.h>
#include <stdbool.h>
#include <string.h>

#include "kernels/omp_common.h"
#include "kernels/omp_labteam.h"

enum oo_construct {
	OO_PARALLEL,
	OO_FOR,
	OO_PARALLEL_FOR,
	OO_BARRIER,
	OO_SINGLE,
	OO_CRITICAL,
	OO_LOCK,
	OO_ATOMIC,
	OO_REDUCTION,
	OO_ORDERED,
	OO_TASKLOOP,
};

enum oo_team { OO_TEAM_OPENMP, OO_TEAM_LAB };

static inline bool oo_lab_supports(int c)
{
	return c == OO_PARALLEL || c == OO_BARRIER || c == OO_CRITICAL || c == OO_LOCK ||
	       c == OO_ATOMIC || c == OO_REDUCTION;
}

struct oo_lab {
	struct komp_team team;
	int construct;
	uint64_t loops; /* delay per instance */
	uint64_t n;     /* instances of this run */
	pthread_mutex_t mutex;
	pthread_spinlock_t spin;
	uint64_t locked;                           /* entries counted under mutex or spinlock */
	alignas(LAB_SLOT) _Atomic uint64_t shared; /* the atomic construct's counter */
	uint64_t *slots;                           /* reduction partials, LAB_SLOT apart */
};

#define OO_LAB_SLOT (LAB_SLOT / 8)

/* The reference: each thread's own path of delays (atomic: private adds), no synchronisation. */
static inline void oo_lab_ref_job(void *arg, unsigned i, unsigned nt)
{
	struct oo_lab *lb = arg;
	uint64_t priv = 0;

	(void)i;
	if (lb->construct == OO_ATOMIC) {
		for (uint64_t k = 0; k < lb->n / nt; k++) {
			priv += k;
			lab_do_not_optimize(priv);
		}
		return;
	}
	for (uint64_t k = 0; k < lb->n; k++)
		komp_delay(lb->loops);
}

/* One instance of parallel or reduction: a delay (and the partial the reduction combines). */
static inline void oo_lab_fork_job(void *arg, unsigned i, unsigned nt)
{
	struct oo_lab *lb = arg;

	(void)nt;
	komp_delay(lb->loops);
	lb->slots[i * OO_LAB_SLOT] = 1;
}

/* barrier, critical, lock, atomic: every instance inside one run. */
static inline void oo_lab_inside_job(void *arg, unsigned i, unsigned nt)
{
	struct oo_lab *lb = arg;
	uint64_t per = lb->n / nt;
	unsigned sense = 0;

	(void)i;
	switch (lb->construct) {
	case OO_BARRIER:
		for (uint64_t k = 0; k < lb->n; k++) {
			komp_delay(lb->loops);
			komp_team_barrier(&lb->team, nt, &sense);
		}
		break;
	case OO_CRITICAL:
		for (uint64_t k = 0; k < per; k++) {
			pthread_mutex_lock(&lb->mutex);
			komp_delay(lb->loops);
			lb->locked++;
			pthread_mutex_unlock(&lb->mutex);
		}
		break;
	case OO_LOCK:
		for (uint64_t k = 0; k < per; k++) {
			pthread_spin_lock(&lb->spin);
			komp_delay(lb->loops);
			lb->locked++;
			pthread_spin_unlock(&lb->spin);
		}
		break;
	default: /* OO_ATOMIC */
		for (uint64_t k = 0; k < per; k++)
			atomic_fetch_add_explicit(&lb->shared, 1, memory_order_relaxed);
	}
}

static inline void oo_lab_reference(struct oo_lab *lb, uint64_t n)
{
	lb->n = n;
	komp_team_run(&lb->team, oo_lab_ref_job, lb);
}

/* Runs n instances; returns the instances that were seen to complete. */
static inline uint64_t oo_lab_test(struct oo_lab *lb, uint64_t n)
{
	unsigned nt = lb->team.ctx->nthreads;
	uint64_t count = 0, before = lb->locked + atomic_load(&lb->shared);

	lb->n = n;
	if (lb->construct == OO_PARALLEL || lb->construct == OO_REDUCTION) {
		for (uint64_t k = 0; k < n; k++) {
			uint64_t sum = 0;
			komp_team_run(&lb->team, oo_lab_fork_job, lb);
			for (unsigned i = 0; i < nt; i++) {
				sum += lb->slots[i * OO_LAB_SLOT];
				lb->slots[i * OO_LAB_SLOT] = 0;
			}
			count += sum == nt;
		}
		return count;
	}
	komp_team_run(&lb->team, oo_lab_inside_job, lb);
	if (lb->construct == OO_BARRIER)
		return n;
	return lb->locked + atomic_load(&lb->shared) - before;
}

static inline void oo_lab_destroy(struct oo_lab *lb)
{
	if (!lb)
		return;
	komp_team_stop(&lb->team);
	pthread_mutex_destroy(&lb->mutex);
	pthread_spin_destroy(&lb->spin);
	free(lb->slots);
	free(lb);
}

/* Creates the lab team for construct c with loops of delay per instance; NULL on error. */
static inline struct oo_lab *oo_lab_create(const struct lab_ctx *ctx, int c, uint64_t loops,
                                           struct lab_err *err)
{
	struct oo_lab *lb = aligned_alloc(LAB_SLOT, sizeof(*lb));

	if (!lb) {
		lab_err_set(err, LAB_ENOMEM, "out of memory");
		return NULL;
	}
	memset(lb, 0, sizeof(*lb));
	lb->construct = c;
	lb->loops = loops;
	pthread_mutex_init(&lb->mutex, NULL);
	pthread_spin_init(&lb->spin, PTHREAD_PROCESS_PRIVATE);
	lb->slots = aligned_alloc(LAB_SLOT, (size_t)ctx->nthreads * LAB_SLOT);
	if (!lb->slots) {
		lab_err_set(err, LAB_ENOMEM, "out of memory");
		oo_lab_destroy(lb);
		return NULL;
	}
	memset(lb->slots, 0, (size_t)ctx->nthreads * LAB_SLOT);
	if (komp_team_start(&lb->team, ctx, err) != 0) {
		oo_lab_destroy(lb);
		return NULL;
	}
	return lb;
}

#endif
