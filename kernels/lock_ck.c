/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Concurrency Kit's spinlocks as lock kinds (ck_fas, ck_cas, ck_ticket, ck_mcs, ck_clh), the
 * reference the lab's own locks are compared with. ck is header-only. CMake builds this file
 * only where ck_spinlock.h is found and the build is not ThreadSanitizer's (ck's atomics are
 * inline assembly TSan cannot see: it would report every hand-off as a race and drown the
 * reports about the lab's locks); kernels/lock_ck_none.c says why otherwise.
 */
#include <ck_spinlock.h>

#include "kernels/lock_run.h"

struct lk_ck_clh_slot {
	alignas(LAB_SLOT) struct ck_spinlock_clh node;
};

/* Each lock word on a 128-byte slot of its own, like the lab's. */
struct lk_ck_state {
	alignas(LAB_SLOT) ck_spinlock_fas_t fas;
	alignas(LAB_SLOT) ck_spinlock_cas_t cas;
	alignas(LAB_SLOT) ck_spinlock_ticket_t ticket;
	alignas(LAB_SLOT) struct ck_spinlock_mcs *mcs;
	alignas(LAB_SLOT) struct ck_spinlock_clh *clh;
	alignas(LAB_SLOT) struct lk_ck_clh_slot *clh_nodes; /* nthreads + 1 */
};

struct lk_ck_thread {
	alignas(LAB_SLOT) struct ck_spinlock_mcs mcs;
	alignas(LAB_SLOT) struct ck_spinlock_clh *clh_mine;
};

const char lk_ck_missing[] = "";

int lk_ck_setup(struct lk_state *st, unsigned n, struct lab_err *err)
{
	struct lk_ck_state *ck = lab_buf_obj_alloc(sizeof(*ck), err);

	if (!ck)
		return -err->code;
	st->ck = ck;
	ck_spinlock_fas_init(&ck->fas);
	ck_spinlock_cas_init(&ck->cas);
	ck_spinlock_ticket_init(&ck->ticket);
	ck_spinlock_mcs_init(&ck->mcs);
	ck->clh_nodes = lab_buf_obj_alloc((n + 1) * sizeof(*ck->clh_nodes), err);
	if (!ck->clh_nodes)
		return -err->code;
	ck_spinlock_clh_init(&ck->clh, &ck->clh_nodes[n].node);
	return 0;
}

int lk_ck_thread_setup(struct lk_state *st, struct lk_thread *lt, unsigned id, struct lab_err *err)
{
	struct lk_ck_thread *ct = lab_buf_obj_alloc(sizeof(*ct), err);

	if (!ct)
		return -err->code;
	ct->clh_mine = &st->ck->clh_nodes[id].node;
	lt->ck = ct;
	return 0;
}

void lk_ck_teardown(struct lk_state *st)
{
	if (!st->ck)
		return;
	lab_buf_obj_free(st->ck->clh_nodes);
	lab_buf_obj_free(st->ck);
	st->ck = NULL;
}

void lk_ck_thread_teardown(struct lk_thread *lt)
{
	lab_buf_obj_free(lt->ck);
	lt->ck = NULL;
}

#define LK_CK_LOCALS                                                                               \
	struct lk_ck_state *const ck = st->ck;                                                     \
	struct lk_ck_thread *const ct = lt->ck;                                                    \
	(void)ck;                                                                                  \
	(void)ct

LK_DEFINE_RUN_WITH(ck_fas, LK_CK_LOCALS, ck_spinlock_fas_lock(&ck->fas),
                   ck_spinlock_fas_unlock(&ck->fas), LK_CS_WRITE)
LK_DEFINE_RUN_WITH(ck_cas, LK_CK_LOCALS, ck_spinlock_cas_lock(&ck->cas),
                   ck_spinlock_cas_unlock(&ck->cas), LK_CS_WRITE)
LK_DEFINE_RUN_WITH(ck_ticket, LK_CK_LOCALS, ck_spinlock_ticket_lock(&ck->ticket),
                   ck_spinlock_ticket_unlock(&ck->ticket), LK_CS_WRITE)
LK_DEFINE_RUN_WITH(ck_mcs, LK_CK_LOCALS, ck_spinlock_mcs_lock(&ck->mcs, &ct->mcs),
                   ck_spinlock_mcs_unlock(&ck->mcs, &ct->mcs), LK_CS_WRITE)
LK_DEFINE_RUN_WITH(ck_clh, LK_CK_LOCALS, ck_spinlock_clh_lock(&ck->clh, ct->clh_mine),
                   ck_spinlock_clh_unlock(&ct->clh_mine), LK_CS_WRITE)

const lk_run_fn lk_ck_runs[LK_NKINDS] = {
    [LK_CK_FAS] = lk_run_ck_fas, [LK_CK_CAS] = lk_run_ck_cas, [LK_CK_TICKET] = lk_run_ck_ticket,
    [LK_CK_MCS] = lk_run_ck_mcs, [LK_CK_CLH] = lk_run_ck_clh,
};
