/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Stands in for kernels/lock_ck.c where Concurrency Kit is not built: no ck kinds (their
 * points are skipped with lk_ck_missing as the reason), nothing to set up.
 */
#include "kernels/lock_internal.h"

#ifdef LK_CK_TSAN
const char lk_ck_missing[] = "Concurrency Kit is left out of ThreadSanitizer builds (its "
                             "inline-asm atomics are invisible to TSan)";
#else
const char lk_ck_missing[] = "built without Concurrency Kit (apt-get install libck-dev)";
#endif

const lk_run_fn lk_ck_runs[LK_NKINDS] = {NULL};

int lk_ck_setup(struct lk_state *st, unsigned n, struct lab_err *err)
{
	(void)n;
	(void)err;
	st->ck = NULL;
	return 0;
}

int lk_ck_thread_setup(struct lk_state *st, struct lk_thread *lt, unsigned id, struct lab_err *err)
{
	(void)st;
	(void)id;
	(void)err;
	lt->ck = NULL;
	return 0;
}

void lk_ck_teardown(struct lk_state *st)
{
	(void)st;
}

void lk_ck_thread_teardown(struct lk_thread *lt)
{
	(void)lt;
}
