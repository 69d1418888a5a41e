/* SPDX-License-Identifier: GPL-3.0-or-later */
/* noop: the harness's own test subject. */
#include <stdlib.h>

#include "harness/buffer.h"
#include "harness/clock.h"
#include "harness/kernel_api.h"

static const char noop_description[] =
    "Does nothing, on purpose: each unit of work is one trip round an empty loop (plus\n"
    "`delay_loops` iterations of a register-only busy loop). It exists to test the harness\n"
    "itself: planning, pinning, calibration, files and the analyzer, without measuring any\n"
    "hardware effect. The cost per unit is the loop overhead (a cycle or so) and should fall\n"
    "as 1/threads: perfect strong scaling, the baseline every other kernel departs from; a\n"
    "departure is the harness's or the host's doing. Knob: delay_loops makes each unit longer.";

struct noop_params {
	uint64_t delay_loops;
};

static const struct lab_param noop_params_table[] = {
    LAB_P_U64(struct noop_params, delay_loops, "delay_loops", "0", 0, 1000000000, "loops",
              "Busy-loop iterations per unit of work (0 = an empty loop)."),
    LAB_PARAM_END,
};

/* Per-thread count of units done, in the thread's own slot. */
struct noop_thread {
	alignas(LAB_SLOT) uint64_t units;
};

static int noop_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	(void)ctx;
	t->priv = lab_buf_obj_alloc(sizeof(struct noop_thread), err);
	return t->priv ? 0 : -err->code;
}

static void noop_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct noop_params *p = ctx->params;
	struct noop_thread *nt = t->priv;
	uint64_t i;

	if (p->delay_loops == 0) {
		for (i = 0; i < t->iters; i++)
			lab_do_not_optimize(i);
	} else {
		for (i = 0; i < t->iters; i++)
			lab_clock_busy_loop(p->delay_loops);
	}
	nt->units += i;
}

static int noop_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                       struct lab_err *err)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++) {
		const struct noop_thread *nt = threads[i]->priv;
		if (nt->units != threads[i]->work_total)
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u counted %llu units, the harness %llu", i,
			                   (unsigned long long)nt->units,
			                   (unsigned long long)threads[i]->work_total);
	}
	return 0;
}

static void noop_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++)
		lab_buf_obj_free(threads[i]->priv);
}

static const struct lab_metric noop_metrics[] = {LAB_METRIC_END};

/* No view beyond the scaling series: there is nothing to show but the harness. */
static const char *const noop_views[] = {NULL};

static const char noop_verifies[] =
    "each thread's own count of loop trips equals the units the harness gave it: "
    "bookkeeping only, there is no result to check";

const struct lab_kernel lab_kernel_noop = {
    .abi = LAB_KERNEL_ABI,
    .name = "noop",
    .summary = "does nothing: tests the harness (a loop trip per unit, perfect scaling)",
    .description = noop_description,
    .params = noop_params_table,
    .params_size = sizeof(struct noop_params),
    .metrics = noop_metrics,
    .work_unit = "iteration",
    .views = noop_views,
    .verifies = noop_verifies,
    .thread_setup = noop_thread_setup,
    .run = noop_run,
    .verify = noop_verify,
    .teardown = noop_teardown,
};
