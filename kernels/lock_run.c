/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The timed loops of the lab's own lock kinds and the pthread references, one per kind
 * (kernels/lock_run.h): the only dispatch is one table lookup per run() call, never a call
 * through a pointer per acquisition. Concurrency Kit's kinds are in kernels/lock_ck.c.
 */
#include "kernels/lock_run.h"

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

const lk_run_fn lk_lab_runs[LK_NKINDS] = {
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
};
