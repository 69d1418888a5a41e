/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The lock kernel's timed loops. LK_DEFINE_RUN stamps out one loop per lock kind with the
 * acquire and release operations written into it, so the compiler inlines them: the only
 * dispatch is one table lookup per run() call, never a call through a pointer per acquisition.
 */
#include "harness/clock.h"
#include "kernels/lock_internal.h"

/*
 * The exclusive critical section: a read-modify-write of the protected counter that spans the
 * critical-section work, so a broken lock loses updates with high probability, and cs_lines
 * shared lines incremented the same way (each migrates to the holder's cache). It also counts
 * hand-offs: acquisitions whose previous holder was another thread.
 */
static inline void lk_cs_write(struct lk_state *st, uint64_t me, uint64_t *handoffs)
{
	uint64_t v = atomic_load_explicit(&st->counter, memory_order_relaxed);

	*handoffs += atomic_load_explicit(&st->last_holder, memory_order_relaxed) != me;
	atomic_store_explicit(&st->last_holder, me, memory_order_relaxed);

	lab_clock_busy_loop(st->cs_loops);
	for (uint64_t i = 0; i < st->nlines; i++) {
		_Atomic uint64_t *w = st->lines + i * (LAB_CACHELINE / sizeof(uint64_t));
		atomic_store_explicit(w, atomic_load_explicit(w, memory_order_relaxed) + 1,
		                      memory_order_relaxed);
	}
	atomic_store_explicit(&st->counter, v + 1, memory_order_relaxed);
}

/* The shared critical section: read the pair (never torn under a read lock) and the lines. */
static inline void lk_cs_read(struct lk_state *st, uint64_t *torn, uint64_t *reads)
{
	uint64_t a = atomic_load_explicit(&st->pair[0], memory_order_relaxed), sum = 0;

	lab_clock_busy_loop(st->cs_loops);
	for (uint64_t i = 0; i < st->nlines; i++)
		sum += atomic_load_explicit(st->lines + i * (LAB_CACHELINE / sizeof(uint64_t)),
		                            memory_order_relaxed);
	lab_do_not_optimize(sum);
	*torn += a != atomic_load_explicit(&st->pair[1], memory_order_relaxed);
	++*reads;
}

#define LK_CS_WRITE lk_cs_write(st, me, &handoffs)
#define LK_CS_READ  lk_cs_read(st, &torn, &reads)

/*
 * One loop per lock kind. Every lat_every-th acquisition (on average, jittered so it cannot
 * lock onto a periodic hand-off pattern) is timed with two clock reads around the acquire.
 */
#define LK_DEFINE_RUN(kind, ACQUIRE, RELEASE, CS)                                                  \
	static uint64_t lk_run_##kind(struct lk_state *st, struct lk_thread *lt,                   \
	                              const struct lab_thread *t)                                  \
	{                                                                                          \
		uint64_t done = 0, torn = 0, reads = 0, handoffs = 0, countdown = lt->countdown;   \
		const unsigned batch = st->batch;                                                  \
		const uint64_t me = t->id + 1;                                                     \
		(void)me;                                                                          \
                                                                                                   \
		while (!lab_thread_should_stop(t)) {                                               \
			for (unsigned k = 0; k < batch; k++) {                                     \
				if (__builtin_expect(--countdown == 0, 0)) {                       \
					uint64_t t0 = lab_clock_ns();                              \
					ACQUIRE;                                                   \
					lh_add(&lt->hist, lab_clock_ns() - t0);                    \
					countdown = lk_next_countdown(lt, st->lat_every);          \
				} else {                                                           \
					ACQUIRE;                                                   \
				}                                                                  \
				CS;                                                                \
				RELEASE;                                                           \
				lab_clock_busy_loop(st->think_loops);                              \
			}                                                                          \
			done += batch;                                                             \
		}                                                                                  \
		lt->countdown = countdown;                                                         \
		lt->torn += torn;                                                                  \
		lt->reads += reads;                                                                \
		lt->handoffs = handoffs;                                                           \
		return done;                                                                       \
	}

LK_DEFINE_RUN(tas, lab_lock_tas_acquire(&st->tas), lab_lock_tas_release(&st->tas), LK_CS_WRITE)
LK_DEFINE_RUN(ttas, lab_lock_ttas_acquire(&st->tas), lab_lock_tas_release(&st->tas), LK_CS_WRITE)
LK_DEFINE_RUN(ttas_backoff, lab_lock_ttas_backoff_acquire(&st->tas), lab_lock_tas_release(&st->tas),
              LK_CS_WRITE)
LK_DEFINE_RUN(ticket, lab_lock_ticket_acquire(&st->ticket), lab_lock_ticket_release(&st->ticket),
              LK_CS_WRITE)
LK_DEFINE_RUN(mcs, lab_lock_mcs_acquire(&st->mcs, &lt->mcs),
              lab_lock_mcs_release(&st->mcs, &lt->mcs), LK_CS_WRITE)
LK_DEFINE_RUN(clh, lab_lock_clh_acquire(&st->clh, lt->clh_mine, &lt->clh_pred),
              lab_lock_clh_release(&lt->clh_mine, lt->clh_pred), LK_CS_WRITE)
LK_DEFINE_RUN(pthread_mutex, pthread_mutex_lock(&st->mutex), pthread_mutex_unlock(&st->mutex),
              LK_CS_WRITE)
LK_DEFINE_RUN(pthread_spin, pthread_spin_lock(&st->spin), pthread_spin_unlock(&st->spin),
              LK_CS_WRITE)
LK_DEFINE_RUN(rwlock_read, pthread_rwlock_rdlock(&st->rwlock), pthread_rwlock_unlock(&st->rwlock),
              LK_CS_READ)
LK_DEFINE_RUN(rwlock_write, pthread_rwlock_wrlock(&st->rwlock), pthread_rwlock_unlock(&st->rwlock),
              LK_CS_WRITE)
LK_DEFINE_RUN(none, (void)0, (void)0, LK_CS_WRITE)

#ifdef LK_CK
LK_DEFINE_RUN(ck_fas, ck_spinlock_fas_lock(&st->ck_fas), ck_spinlock_fas_unlock(&st->ck_fas),
              LK_CS_WRITE)
LK_DEFINE_RUN(ck_cas, ck_spinlock_cas_lock(&st->ck_cas), ck_spinlock_cas_unlock(&st->ck_cas),
              LK_CS_WRITE)
LK_DEFINE_RUN(ck_ticket, ck_spinlock_ticket_lock(&st->ck_ticket),
              ck_spinlock_ticket_unlock(&st->ck_ticket), LK_CS_WRITE)
LK_DEFINE_RUN(ck_mcs, ck_spinlock_mcs_lock(&st->ck_mcs, &lt->ck_mcs),
              ck_spinlock_mcs_unlock(&st->ck_mcs, &lt->ck_mcs), LK_CS_WRITE)
LK_DEFINE_RUN(ck_clh, ck_spinlock_clh_lock(&st->ck_clh, lt->ck_clh_mine),
              ck_spinlock_clh_unlock(&lt->ck_clh_mine), LK_CS_WRITE)
#endif

const lk_run_fn lk_runs[LK_NKINDS] = {
    [LK_TAS] = lk_run_tas,
    [LK_TTAS] = lk_run_ttas,
    [LK_TTAS_BACKOFF] = lk_run_ttas_backoff,
    [LK_TICKET] = lk_run_ticket,
    [LK_MCS] = lk_run_mcs,
    [LK_CLH] = lk_run_clh,
    [LK_PTHREAD_MUTEX] = lk_run_pthread_mutex,
    [LK_PTHREAD_SPIN] = lk_run_pthread_spin,
    [LK_RWLOCK_READ] = lk_run_rwlock_read,
    [LK_RWLOCK_WRITE] = lk_run_rwlock_write,
#ifdef LK_CK
    [LK_CK_FAS] = lk_run_ck_fas,
    [LK_CK_CAS] = lk_run_ck_cas,
    [LK_CK_TICKET] = lk_run_ck_ticket,
    [LK_CK_MCS] = lk_run_ck_mcs,
    [LK_CK_CLH] = lk_run_ck_clh,
#endif
    [LK_NONE] = lk_run_none,
};
