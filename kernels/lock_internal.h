/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shared between kernels/lock.c (descriptor, setup, verify, metrics), kernels/lock_run.c (the
 * stamped-out timed loops of the lab's kinds) and kernels/lock_ck.c (Concurrency Kit's kinds,
 * built only where ck is found: kernels/lock_ck_none.c stands in otherwise). Not for other
 * kernels.
 */
#ifndef LAB_KERNELS_LOCK_INTERNAL_H
#define LAB_KERNELS_LOCK_INTERNAL_H

#include <pthread.h>
#include <stdint.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"
#include "kernels/delay.h"
#include "kernels/lat_hist.h"
#include "kernels/lock_algos.h"

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
	LK_NKINDS,
};

struct lk_params {
	int lock;
	uint64_t cs_ns;
	uint64_t cs_lines;
	uint64_t think_ns;
	uint64_t lat_every;
};

/* The parameters after `lock`, shared with tests that define their own `lock` choices. */
#define LK_COMMON_PARAMS                                                                           \
	LAB_P_DURATION(                                                                            \
	    struct lk_params, cs_ns, "cs_ns", "0", 0, 1000000000,                                  \
	    "Busy-loop work inside the critical section (calibrated, no clock reads)."),           \
	    LAB_P_U64(struct lk_params, cs_lines, "cs_lines", "0", 0, 65536, "lines",              \
	              "Shared cache lines read and written inside the critical section."),         \
	    LAB_P_DURATION(struct lk_params, think_ns, "think_ns", "0", 0, 1000000000,             \
	                   "Busy-loop work between a release and the next acquire."),              \
	    LAB_P_U64(struct lk_params, lat_every, "lat_every", "64", 0, 1000000, "acquisitions",  \
	              "Time one acquire in this many (on average) for the latency "                \
	              "percentiles; 0 = none (an unfair lock's hand-offs and fairness untouched "  \
	              "by the timing).")

enum {
	LK_M_LAT_SAMPLES,
	LK_M_LAT_P50,
	LK_M_LAT_P99,
	LK_M_JAIN,
	LK_M_MAX_MIN,
	LK_M_HANDOFFS,
	LK_M_HANDOFF_RATIO,
	LK_M_CS_ACHIEVED,
	LK_M_DELAY_NS_PER_LOOP,
	LK_M_DELAY_DRIFT
};

struct lk_ck_state;  /* kernels/lock_ck.c */
struct lk_ck_thread; /* kernels/lock_ck.c */

/* Everything the threads share, each lock and each hot word on a 128-byte slot of its own. */
struct lk_state {
	struct lab_lock_tas tas; /* tas, ttas, ttas_backoff */
	struct lab_lock_ticket ticket;
	struct lab_lock_mcs mcs;
	struct lab_lock_clh clh;
	alignas(LAB_SLOT) pthread_mutex_t mutex;
	alignas(LAB_SLOT) pthread_spinlock_t spin;
	alignas(LAB_SLOT) pthread_rwlock_t rwlock;
	/*
	 * The data the lock protects: a counter and the last holder's id (one line: the holder's
	 * own when it takes the lock again, the previous holder's after a hand-off, so a timed
	 * section then holds its transfer, about a line's move), the pair readers check, the
	 * touched lines.
	 */
	alignas(LAB_SLOT) _Atomic uint64_t counter;
	_Atomic uint64_t last_holder; /* thread id + 1; 0 before the first acquisition */
	alignas(LAB_SLOT) _Atomic uint64_t pair[2];
	_Atomic uint64_t *lines; /* cs_lines lines, 64 bytes apart; word 0 of each is used */
	struct lab_buf lines_buf;

	/* Read-only while running. */
	alignas(LAB_SLOT) struct lab_lock_clh_node *clh_nodes; /* nthreads + 1 */
	struct lk_ck_state *ck; /* Concurrency Kit's locks, on their own pages (lock_ck.c) */
	uint64_t cs_loops, think_loops, nlines, lat_every;
	/* This point's calibration of lab_delay_loops and its drift from the process's first. */
	double ns_per_loop, drift_pct;
	double read_cost_ns; /* one lab_clock_ns() call, removed from cs_achieved_ns */
	unsigned batch;      /* acquisitions between polls of the stop flag */
	unsigned nthreads;
	bool pthread_ready[3]; /* mutex, spin, rwlock initialised */
};

/* One thread's private state: its queue nodes, its read counts and its latency histogram. */
struct lk_thread {
	struct lab_lock_mcs_node mcs;
	alignas(LAB_SLOT) struct lab_lock_clh_node *clh_mine, *clh_pred;
	struct lk_ck_thread *ck;                /* this thread's ck queue nodes (lock_ck.c) */
	alignas(LAB_SLOT) uint64_t reads, torn; /* rwlock_read: critical sections, torn pairs */
	uint64_t handoffs;                      /* this sample: acquisitions after another holder */
	uint64_t rng;                           /* xorshift state for the latency sampling */
	uint64_t countdown;                     /* acquisitions until the next timed one */
	struct lh_hist hist;                    /* this sample's timed acquire latencies */
	struct lh_hist cs_hist;                 /* ... and their critical sections' lengths, */
	uint64_t cs_sum[LH_BUCKETS];            /* ... summed exactly per bucket */
};

typedef uint64_t (*lk_run_fn)(struct lk_state *st, struct lk_thread *lt,
                              const struct lab_thread *t);

/* The timed loops of the lab's kinds and of ck's (NULL where not built; lock_run.h). */
extern const lk_run_fn lk_lab_runs[LK_NKINDS];
extern const lk_run_fn lk_ck_runs[LK_NKINDS];

/* Why ck's kinds are not built ("" where they are). */
extern const char lk_ck_missing[];

/* ck's locks for n threads into st->ck / one thread's nodes into lt->ck; 0 or -LAB_ENOMEM. */
int lk_ck_setup(struct lk_state *st, unsigned n, struct lab_err *err);
int lk_ck_thread_setup(struct lk_state *st, struct lk_thread *lt, unsigned id, struct lab_err *err);
/* Frees what lk_ck_setup / lk_ck_thread_setup made; NULL members are fine. */
void lk_ck_teardown(struct lk_state *st);
void lk_ck_thread_teardown(struct lk_thread *lt);

/* The timed loop of kind, or NULL when it is not built. */
static inline lk_run_fn lk_run_of(int kind)
{
	if (kind < 0 || kind >= LK_NKINDS)
		return NULL;
	return lk_lab_runs[kind] ? lk_lab_runs[kind] : lk_ck_runs[kind];
}

/* lock's run hook with the timed loop fn: runs it and fills the per-thread metrics. */
void lk_run_with(struct lab_ctx *ctx, struct lab_thread *t, lk_run_fn fn);

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
