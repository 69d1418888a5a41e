/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lock kernel's timed loop, as a macro: LK_DEFINE_RUN stamps out one loop per lock kind with
 * the acquire and release operations written into it, so the compiler inlines them. Included by
 * the files that define lock kinds (kernels/lock_run.c, kernels/lock_ck.c, a test's no-lock
 * kind); not for other kernels.
 */
#ifndef LAB_KERNELS_LOCK_RUN_H
#define LAB_KERNELS_LOCK_RUN_H

#include "harness/clock.h"
#include "kernels/delay.h"
#include "kernels/lock_internal.h"

/*
 * The exclusive critical section: a read-modify-write of the protected counter that spans the
 * critical-section work, so a broken lock loses updates with high probability, and cs_lines
 * shared lines incremented the same way (each migrates to the holder's cache). It also counts
 * hand-offs: acquisitions whose previous holder was another thread.
 */
static inline void lk_cs_write(struct lk_state *st, uint64_t me, uint64_t cs, uint64_t *handoffs)
{
	uint64_t v = atomic_load_explicit(&st->counter, memory_order_relaxed);

	*handoffs += atomic_load_explicit(&st->last_holder, memory_order_relaxed) != me;
	atomic_store_explicit(&st->last_holder, me, memory_order_relaxed);

	if (cs)
		lab_delay_loops(cs);
	for (uint64_t i = 0; i < st->nlines; i++) {
		_Atomic uint64_t *w = st->lines + i * (LAB_CACHELINE / sizeof(uint64_t));
		atomic_store_explicit(w, atomic_load_explicit(w, memory_order_relaxed) + 1,
		                      memory_order_relaxed);
	}
	atomic_store_explicit(&st->counter, v + 1, memory_order_relaxed);
}

/* The shared critical section: read the pair (never torn under a read lock) and the lines. */
static inline void lk_cs_read(struct lk_state *st, uint64_t cs, uint64_t *torn, uint64_t *reads)
{
	uint64_t a = atomic_load_explicit(&st->pair[0], memory_order_relaxed), sum = 0;

	if (cs)
		lab_delay_loops(cs);
	for (uint64_t i = 0; i < st->nlines; i++)
		sum += atomic_load_explicit(st->lines + i * (LAB_CACHELINE / sizeof(uint64_t)),
		                            memory_order_relaxed);
	lab_do_not_optimize(sum);
	*torn += a != atomic_load_explicit(&st->pair[1], memory_order_relaxed);
	++*reads;
}

/* A timed acquisition: its acquire latency and how long its critical section took. */
static inline void lk_timed(struct lk_thread *lt, uint64_t acq_ns, uint64_t cs_ns)
{
	lh_add(&lt->hist, acq_ns);

	unsigned b = lh_index(cs_ns);

	lt->cs_hist.bucket[b]++;
	lt->cs_hist.count++;
	lt->cs_sum[b] += cs_ns;
}

#define LK_CS_WRITE lk_cs_write(st, me, cs, &handoffs)
#define LK_CS_READ  lk_cs_read(st, cs, &torn, &reads)

/*
 * One loop per lock kind. Every lat_every-th acquisition (on average, jittered so it cannot
 * lock onto a periodic hand-off pattern) is timed with clock reads around the acquire and
 * around the critical section; the bookkeeping waits until the lock is released. The
 * critical-section and think work is the out-of-line lab_delay_loops (kernels/delay.h), so it
 * costs the same in every kind's loop; a zero count skips the call.
 */
#define LK_DEFINE_RUN(kind, ACQUIRE, RELEASE, CS)                                                  \
	LK_DEFINE_RUN_WITH(kind, (void)0, ACQUIRE, RELEASE, CS)

/* The same, with DECL (a statement) first: locals the operations use, loaded once per run. */
#define LK_DEFINE_RUN_WITH(kind, DECL, ACQUIRE, RELEASE, CS)                                       \
	static uint64_t lk_run_##kind(struct lk_state *st, struct lk_thread *lt,                   \
	                              const struct lab_thread *t)                                  \
	{                                                                                          \
		DECL;                                                                              \
		uint64_t done = 0, torn = 0, reads = 0, handoffs = 0, countdown = lt->countdown;   \
		const unsigned batch = st->batch;                                                  \
		const uint64_t me = t->id + 1, cs = st->cs_loops, think = st->think_loops;         \
		(void)me, (void)cs;                                                                \
                                                                                                   \
		while (!lab_thread_should_stop(t)) {                                               \
			for (unsigned k = 0; k < batch; k++) {                                     \
				if (__builtin_expect(--countdown == 0, 0)) {                       \
					uint64_t t0 = lab_clock_ns();                              \
					ACQUIRE;                                                   \
					uint64_t t1 = lab_clock_ns();                              \
					CS;                                                        \
					uint64_t t2 = lab_clock_ns();                              \
					RELEASE;                                                   \
					lk_timed(lt, t1 - t0, t2 - t1);                            \
					countdown = lk_next_countdown(lt, st->lat_every);          \
				} else {                                                           \
					ACQUIRE;                                                   \
					CS;                                                        \
					RELEASE;                                                   \
				}                                                                  \
				if (think)                                                         \
					lab_delay_loops(think);                                    \
			}                                                                          \
			done += batch;                                                             \
		}                                                                                  \
		lt->countdown = countdown;                                                         \
		lt->torn += torn;                                                                  \
		lt->reads += reads;                                                                \
		lt->handoffs = handoffs;                                                           \
		return done;                                                                       \
	}

#endif
