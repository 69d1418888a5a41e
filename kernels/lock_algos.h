/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The textbook spinlocks of the lock kernel, in C11 atomics: every shared access is an atomic
 * with the weakest order that keeps the lock correct, so ThreadSanitizer sees every
 * synchronisation and stays useful. All functions are static inline so each variant's timed loop
 * has its lock operations compiled in. Each lock word sits on its own 128-byte slot (a line and
 * its prefetch buddy) so nothing else shares its coherence traffic.
 */
#ifndef LAB_KERNELS_LOCK_ALGOS_H
#define LAB_KERNELS_LOCK_ALGOS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "harness/kernel_api.h"

/* ---- test-and-set: every waiter hammers the line with exchanges ---- */

struct lab_lock_tas {
	alignas(LAB_SLOT) atomic_uint held;
};

static inline void lab_lock_tas_acquire(struct lab_lock_tas *l)
{
	while (atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
		lab_cpu_relax();
}

static inline void lab_lock_tas_release(struct lab_lock_tas *l)
{
	atomic_store_explicit(&l->held, 0, memory_order_release);
}

/* ---- test-and-test-and-set: waiters spin on a shared copy, exchange only when it looks free ----
 */

static inline void lab_lock_ttas_acquire(struct lab_lock_tas *l)
{
	for (;;) {
		if (!atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
			return;
		while (atomic_load_explicit(&l->held, memory_order_relaxed))
			lab_cpu_relax();
	}
}

/* ---- TTAS with exponential backoff: a loser waits 2x longer each time, up to a cap ---- */

#define LAB_LOCK_BACKOFF_MIN 4u    /* PAUSEs after the first failed attempt */
#define LAB_LOCK_BACKOFF_MAX 1024u /* ... and at most */

static inline void lab_lock_ttas_backoff_acquire(struct lab_lock_tas *l)
{
	unsigned delay = LAB_LOCK_BACKOFF_MIN;

	for (;;) {
		if (!atomic_load_explicit(&l->held, memory_order_relaxed) &&
		    !atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
			return;
		for (unsigned i = 0; i < delay; i++)
			lab_cpu_relax();
		if (delay < LAB_LOCK_BACKOFF_MAX)
			delay *= 2;
	}
}

/* ---- ticket: FIFO by a take-a-number counter; all waiters spin on `owner` ---- */

struct lab_lock_ticket {
	alignas(LAB_SLOT) atomic_uint next;
	atomic_uint owner;
};

static inline void lab_lock_ticket_acquire(struct lab_lock_ticket *l)
{
	unsigned me = atomic_fetch_add_explicit(&l->next, 1, memory_order_relaxed);

	while (atomic_load_explicit(&l->owner, memory_order_acquire) != me)
		lab_cpu_relax();
}

static inline void lab_lock_ticket_release(struct lab_lock_ticket *l)
{
	/* Only the holder writes owner, so a relaxed read of it is exact. */
	unsigned cur = atomic_load_explicit(&l->owner, memory_order_relaxed);

	atomic_store_explicit(&l->owner, cur + 1, memory_order_release);
}

/* ---- MCS: a queue of per-thread nodes; each waiter spins on its own line ---- */

struct lab_lock_mcs_node {
	alignas(LAB_SLOT) _Atomic(struct lab_lock_mcs_node *) next;
	atomic_bool locked;
};

struct lab_lock_mcs {
	alignas(LAB_SLOT) _Atomic(struct lab_lock_mcs_node *) tail;
};

static inline void lab_lock_mcs_acquire(struct lab_lock_mcs *l, struct lab_lock_mcs_node *me)
{
	atomic_store_explicit(&me->next, NULL, memory_order_relaxed);
	atomic_store_explicit(&me->locked, true, memory_order_relaxed);
	/* acq_rel: acquire the last holder's release of the tail; publish our node's init. */
	struct lab_lock_mcs_node *prev =
	    atomic_exchange_explicit(&l->tail, me, memory_order_acq_rel);
	if (!prev)
		return;
	atomic_store_explicit(&prev->next, me, memory_order_release);
	while (atomic_load_explicit(&me->locked, memory_order_acquire))
		lab_cpu_relax();
}

static inline void lab_lock_mcs_release(struct lab_lock_mcs *l, struct lab_lock_mcs_node *me)
{
	struct lab_lock_mcs_node *next = atomic_load_explicit(&me->next, memory_order_acquire);

	if (!next) {
		struct lab_lock_mcs_node *expect = me;
		if (atomic_compare_exchange_strong_explicit(
		        &l->tail, &expect, NULL, memory_order_release, memory_order_relaxed))
			return;
		/* A successor swapped itself in but has not linked yet: wait for the link. */
		while (!(next = atomic_load_explicit(&me->next, memory_order_acquire)))
			lab_cpu_relax();
	}
	atomic_store_explicit(&next->locked, false, memory_order_release);
}

/* ---- CLH: an implicit queue; each waiter spins on its predecessor's node, then adopts it ---- */

struct lab_lock_clh_node {
	alignas(LAB_SLOT) atomic_bool locked;
};

struct lab_lock_clh {
	alignas(LAB_SLOT) _Atomic(struct lab_lock_clh_node *) tail;
};

/* dummy: an unlocked node that becomes some thread's node after the first hand-off. */
static inline void lab_lock_clh_init(struct lab_lock_clh *l, struct lab_lock_clh_node *dummy)
{
	atomic_init(&dummy->locked, false);
	atomic_init(&l->tail, dummy);
}

/* *mine is the caller's node; on return *pred holds the predecessor's (needed to release). */
static inline void lab_lock_clh_acquire(struct lab_lock_clh *l, struct lab_lock_clh_node *mine,
                                        struct lab_lock_clh_node **pred)
{
	atomic_store_explicit(&mine->locked, true, memory_order_relaxed);
	struct lab_lock_clh_node *p =
	    atomic_exchange_explicit(&l->tail, mine, memory_order_acq_rel);
	while (atomic_load_explicit(&p->locked, memory_order_acquire))
		lab_cpu_relax();
	*pred = p;
}

/* Frees the lock; the caller's node becomes the predecessor's (no one spins on it any more). */
static inline void lab_lock_clh_release(struct lab_lock_clh_node **mine,
                                        struct lab_lock_clh_node *pred)
{
	atomic_store_explicit(&(*mine)->locked, false, memory_order_release);
	*mine = pred;
}

#endif
