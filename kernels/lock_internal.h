/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared between kernels/lock.c (descriptor, setup, verify, metrics) and kernels/lock_run.c
 * (the stamped-out timed loops, one per lock kind). Not for other kernels.
 */
#ifndef LAB_KERNELS_LOCK_INTERNAL_H
#define LAB_KERNELS_LOCK_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "harness/kernel_api.h"
#include "kernels/lat_hist.h"
#include "kernels/lock_algos.h"

/*
 * Concurrency Kit's spinlocks are header-only. They are left out of ThreadSanitizer builds:
 * their atomics are inline assembly that TSan cannot see, so it would report their hand-offs
 * as races and drown the reports about the lab's own locks.
 */
#if defined(__SANITIZE_THREAD__)
#define LK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LK_TSAN 1
#endif
#endif
#if defined(LAB_HAVE_CK) && !defined(LK_TSAN)
#define LK_CK 1
#include <ck_spinlock.h>
#endif

enum lk_kind {
	LK_TAS,
	LK_TTAS,
	LK_TTAS_BACKOFF,
	LK_TICKET,
	LK_MCS,
	LK_CLH,
	LK_PTHREAD_MUTEX,
	LK_PTHREAD_SPIN,
	LK_RWLOCK_READ,
	LK_RWLOCK_WRITE,
	LK_CK_FAS,
	LK_CK_CAS,
	LK_CK_TICKET,
	LK_CK_MCS,
	LK_CK_CLH,
	LK_NONE, /* no lock at all: only in the test descriptor, to show verify catches it */
	LK_NKINDS,
};

struct lk_params {
	int lock;
	uint64_t cs_ns;
	uint64_t cs_lines;
	uint64_t think_ns;
	uint64_t lat_every;
};

enum {
	LK_M_LAT_SAMPLES,
	LK_M_LAT_P50,
	LK_M_LAT_P99,
	LK_M_JAIN,
	LK_M_MAX_MIN,
	LK_M_HANDOFFS,
	LK_M_HANDOFF_RATIO
};

#ifdef LK_CK
struct lk_ck_clh_slot {
	alignas(LAB_SLOT) struct ck_spinlock_clh node;
};
#endif

/* Everything the threads share, each lock and each hot word on a 128-byte slot of its own. */
struct lk_state {
	struct lab_lock_tas tas; /* tas, ttas, ttas_backoff */
	struct lab_lock_ticket ticket;
	struct lab_lock_mcs mcs;
	struct lab_lock_clh clh;
	alignas(LAB_SLOT) pthread_mutex_t mutex;
	alignas(LAB_SLOT) pthread_spinlock_t spin;
	alignas(LAB_SLOT) pthread_rwlock_t rwlock;
#ifdef LK_CK
	alignas(LAB_SLOT) ck_spinlock_fas_t ck_fas;
	alignas(LAB_SLOT) ck_spinlock_cas_t ck_cas;
	alignas(LAB_SLOT) ck_spinlock_ticket_t ck_ticket;
	alignas(LAB_SLOT) struct ck_spinlock_mcs *ck_mcs;
	alignas(LAB_SLOT) struct ck_spinlock_clh *ck_clh;
	struct lk_ck_clh_slot *ck_clh_nodes; /* nthreads + 1 */
#endif
	/*
	 * The data the lock protects: a counter and the last holder's id (one line, already the
	 * holder's), the pair readers check, the touched lines.
	 */
	alignas(LAB_SLOT) _Atomic uint64_t counter;
	_Atomic uint64_t last_holder; /* thread id + 1; 0 before the first acquisition */
	alignas(LAB_SLOT) _Atomic uint64_t pair[2];
	_Atomic uint64_t *lines; /* cs_lines lines, 64 bytes apart; word 0 of each is used */

	/* Read-only while running. */
	alignas(LAB_SLOT) struct lab_lock_clh_node *clh_nodes; /* nthreads + 1 */
	uint64_t cs_loops, think_loops, nlines, lat_every;
	unsigned batch; /* acquisitions between polls of the stop flag */
	unsigned nthreads;
	bool pthread_ready[3]; /* mutex, spin, rwlock initialised */
};

/* One thread's private state: its queue nodes, its read counts and its latency histogram. */
struct lk_thread {
	struct lab_lock_mcs_node mcs;
	alignas(LAB_SLOT) struct lab_lock_clh_node *clh_mine, *clh_pred;
#ifdef LK_CK
	alignas(LAB_SLOT) struct ck_spinlock_mcs ck_mcs;
	alignas(LAB_SLOT) struct ck_spinlock_clh *ck_clh_mine;
#endif
	alignas(LAB_SLOT) uint64_t reads, torn; /* rwlock_read: critical sections, torn pairs */
	uint64_t handoffs;                      /* this sample: acquisitions after another holder */
	uint64_t rng;                           /* xorshift state for the latency sampling */
	uint64_t countdown;                     /* acquisitions until the next timed one */
	struct lh_hist hist;                    /* this sample's timed acquire latencies */
};

typedef uint64_t (*lk_run_fn)(struct lk_state *st, struct lk_thread *lt,
                              const struct lab_thread *t);

/* The timed loop of each lock kind (NULL where not built); returns acquisitions done. */
extern const lk_run_fn lk_runs[LK_NKINDS];

/* The next countdown to a timed acquisition: uniform in [every/2, 3*every/2), 0 = never. */
static inline uint64_t lk_next_countdown(struct lk_thread *lt, uint64_t every)
{
	if (every == 0)
		return UINT64_MAX;
	lt->rng ^= lt->rng << 13;
	lt->rng ^= lt->rng >> 7;
	lt->rng ^= lt->rng << 17;
	return every / 2 + 1 + lt->rng % every;
}

#endif
