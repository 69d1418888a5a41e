/* SPDX-License-Identifier: GPL-3.0-or-later */
/* omp_schedule: how static, dynamic and guided schedules cope with imbalanced iterations. */
#include <math.h>
#include <stdlib.h>

#include "kernels/omp_common.h"

static const char os_description[] =
    "One worksharing loop of `iterations` iterations whose costs follow `imbalance` (seeded,\n"
    "mean `cost` ns): uniform (all equal), ramp (0 to 2x along the loop: the last block is the\n"
    "dearest), random (0 to 2x, shuffled), spike (one iteration in 64 costs 32x the others,\n"
    "scaled so that the mean stays `cost` when iterations is a multiple of 64).\n"
    "Each thread times its own share of every loop instance (nowait, then one barrier), so\n"
    "samples.csv gives makespan_ns (wall time per loop), ideal_ns (total work / threads),\n"
    "overhead_ns = makespan - ideal, and the per-thread busy times as busy_max_ns,\n"
    "busy_mean_ns, busy_min_ns and imbalance = max / mean busy. Compare schedules on one\n"
    "imbalance: static (one block per thread) balances uniform and not ramp (with 2 threads the\n"
    "second block holds 3/4 of a ramp's work, 1.5x the mean: the measured imbalance adds\n"
    "whatever else the busier thread's time holds, and can come out a little above);\n"
    "static_chunk interleaves and fixes the ramp; dynamic balances anything but pays one\n"
    "shared-counter grab per chunk (so chunk 1 on cheap iterations is slow: sweep chunk);\n"
    "guided starts with big chunks and ends with small ones, near static's cost with dynamic's\n"
    "balance.\n"
    "monotonic_dynamic is dynamic with the monotonic modifier (chunks handed out in order).\n"
    "Knobs: schedule, chunk, imbalance, cost, iterations, threads. Work unit: one iteration.";

enum os_sched { OS_STATIC, OS_STATIC_CHUNK, OS_DYNAMIC, OS_GUIDED, OS_MONOTONIC_DYNAMIC };
enum os_imb { OS_UNIFORM, OS_RAMP, OS_RANDOM, OS_SPIKE };

struct os_params {
	uint64_t iterations;
	int imbalance;
	int schedule;
	uint64_t chunk;
	uint64_t cost;
};

static const struct lab_enum_val os_scheds[] = {
    {"static", OS_STATIC, "schedule(static): one contiguous block per thread"},
    {"static_chunk", OS_STATIC_CHUNK, "schedule(static, chunk): chunks dealt round-robin"},
    {"dynamic", OS_DYNAMIC, "schedule(dynamic, chunk): threads grab chunks from a counter"},
    {"guided", OS_GUIDED, "schedule(guided, chunk): shrinking chunks, at least `chunk`"},
    {"monotonic_dynamic", OS_MONOTONIC_DYNAMIC, "schedule(monotonic: dynamic, chunk)"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val os_imbs[] = {
    {"uniform", OS_UNIFORM, "every iteration costs `cost`"},
    {"ramp", OS_RAMP, "cost grows linearly from 0 to 2x along the loop"},
    {"random", OS_RANDOM, "cost uniform in 0 .. 2x, seeded"},
    {"spike", OS_SPIKE,
     "one iteration in 64 costs 32x the others (the mean is `cost` over whole 64s)"},
    {NULL, 0, NULL},
};

static const struct lab_param os_params_table[] = {
    LAB_P_U64(struct os_params, iterations, "iterations", "1024", 1, 1u << 24, "iterations",
              "Iterations of one loop instance."),
    LAB_P_ENUM(struct os_params, imbalance, "imbalance", "uniform", os_imbs,
               "How the cost varies between iterations."),
    LAB_P_ENUM(struct os_params, schedule, "schedule", "static", os_scheds,
               "The loop's schedule clause."),
    LAB_P_U64(struct os_params, chunk, "chunk", "1", 1, 1u << 24, "iterations",
              "Chunk size (guided's minimum chunk).",
              LAB_APPLIES("schedule=static_chunk|dynamic|guided|monotonic_dynamic")),
    LAB_P_DURATION(struct os_params, cost, "cost", "1us", 1, 1000000,
                   "Mean cost of one iteration, as calibrated dependent work."),
    LAB_PARAM_END,
};

enum os_metric {
	OS_M_MAKESPAN,
	OS_M_IDEAL,
	OS_M_OVERHEAD,
	OS_M_BUSY_MAX,
	OS_M_BUSY_MEAN,
	OS_M_BUSY_MIN,
	OS_M_IMBALANCE,
};

static const struct lab_metric os_metrics[] = {
    {"makespan_ns", "ns", LAB_AGG_MEAN, "wall time of one loop instance"},
    {"ideal_ns", "ns", LAB_AGG_MEAN, "total calibrated work of a loop / threads"},
    {"overhead_ns", "ns", LAB_AGG_MEAN, "makespan - ideal: imbalance plus scheduling cost"},
    {"busy_max_ns", "ns", LAB_AGG_MEAN, "the busiest thread's time in its share, per loop"},
    {"busy_mean_ns", "ns", LAB_AGG_MEAN, "mean over threads of the time in their share"},
    {"busy_min_ns", "ns", LAB_AGG_MEAN, "the idlest thread's time in its share, per loop"},
    {"imbalance", "ratio", LAB_AGG_MEAN, "busy_max / busy_mean (1 = balanced)"},
    LAB_METRIC_END,
};

static int os_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	(void)params;
	(void)nthreads;
	return komp_check(env, err);
}

#ifdef _OPENMP
struct os_slot {
	alignas(LAB_SLOT) uint64_t busy; /* ns in this thread's share, this run() */
	uint64_t iters;                  /* iterations this thread ran, since setup */
};

struct os_state {
	uint32_t *loops; /* delay loops of each iteration */
	double total_loops;
	double rate; /* komp_delay increments per us (komp_delay_rate_for) */
	struct os_slot *slot;
};

static double os_weight(const struct os_params *p, uint64_t i, uint64_t *rng)
{
	uint64_t n = p->iterations;

	switch (p->imbalance) {
	case OS_RAMP:
		return n > 1 ? 2.0 * (double)i / (double)(n - 1) : 1.0;
	case OS_RANDOM:
		return 2.0 * (double)(komp_rand(rng) >> 11) / 9007199254740992.0;
	case OS_SPIKE: /* 63 of weight 1 and one of 32 average 95/64: scaled to a mean of 1 */
		return (i % 64 == 0 ? 32.0 : 1.0) * 64.0 / 95.0;
	default:
		return 1.0;
	}
}

static int os_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct os_params *p = ctx->params;
	struct os_state *st = calloc(1, sizeof(*st));
	double rate = komp_delay_rate_for(p->cost); /* at the iterations' length, this point */
	uint64_t rng = ctx->seed, base = komp_delay_loops(rate, p->cost);

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	st->rate = rate;
	st->loops = malloc(p->iterations * sizeof(*st->loops));
	st->slot = aligned_alloc(LAB_SLOT, ctx->nthreads * sizeof(*st->slot));
	if (!st->loops || !st->slot) {
		free(st->loops);
		free(st->slot);
		free(st);
		return lab_err_set(err, LAB_ENOMEM, "out of memory for %llu iterations",
		                   (unsigned long long)p->iterations);
	}
	for (unsigned i = 0; i < ctx->nthreads; i++)
		st->slot[i] = (struct os_slot){0};
	for (uint64_t i = 0; i < p->iterations; i++) {
		st->loops[i] = (uint32_t)(os_weight(p, i, &rng) * (double)base + 0.5);
		st->total_loops += st->loops[i];
	}
	ctx->priv = st;
	return 0;
}

static int os_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	(void)t;
	return komp_bind_team(ctx, err);
}

/* One stamped loop per schedule: the clause is part of the code, as in a real program. */
#define OS_LOOP(name, clause)                                                                      \
	static uint64_t name(const uint32_t *loops, uint64_t n, int chunk)                         \
	{                                                                                          \
		uint64_t done = 0;                                                                 \
		(void)chunk;                                                                       \
		_Pragma(clause) for (uint64_t i = 0; i < n; i++)                                   \
		{                                                                                  \
			komp_delay(loops[i]);                                                      \
			done++;                                                                    \
		}                                                                                  \
		return done;                                                                       \
	}
OS_LOOP(os_loop_static, "omp for schedule(static) nowait")
OS_LOOP(os_loop_static_chunk, "omp for schedule(static, chunk) nowait")
OS_LOOP(os_loop_dynamic, "omp for schedule(dynamic, chunk) nowait")
OS_LOOP(os_loop_guided, "omp for schedule(guided, chunk) nowait")
OS_LOOP(os_loop_monotonic, "omp for schedule(monotonic: dynamic, chunk) nowait")

typedef uint64_t (*os_loop_fn)(const uint32_t *, uint64_t, int);

/* One loop instance: iterations x the mean cost, shared by the team (an unbalanced static loop
 * runs longer: this is its floor). A sample is at least one instance: 16M iterations of 1 ms
 * planned as "under 1 s" and ran for hours. */
static void os_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct os_params *p = params;

	est->iter_ns = (double)p->iterations * (double)p->cost / (nthreads ? nthreads : 1);
}

static void os_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	static const os_loop_fn loops_of[] = {os_loop_static, os_loop_static_chunk, os_loop_dynamic,
	                                      os_loop_guided, os_loop_monotonic};
	const struct os_params *p = ctx->params;
	struct os_state *st = ctx->priv;
	os_loop_fn loop = loops_of[p->schedule];
	uint64_t reps = t->iters, t0 = lab_clock_ns(), wall;
	double bmax = 0, bsum = 0, bmin = INFINITY, n = (double)ctx->nthreads;

	/* One region per sample: the loop instances are what is timed, not the fork. */
#pragma omp parallel num_threads(ctx->nthreads)
	{
		struct os_slot *s = &st->slot[omp_get_thread_num()];
		s->busy = 0;
		for (uint64_t r = 0; r < reps; r++) {
			uint64_t b0 = lab_clock_ns();
			s->iters += loop(st->loops, p->iterations, (int)p->chunk);
			s->busy += lab_clock_ns() - b0;
#pragma omp barrier
		}
	}
	wall = lab_clock_ns() - t0;
	for (unsigned i = 0; i < ctx->nthreads; i++) {
		double b = (double)st->slot[i].busy / (double)reps;
		bmax = b > bmax ? b : bmax;
		bmin = b < bmin ? b : bmin;
		bsum += b;
	}
	t->work = reps * p->iterations;
	t->metric[OS_M_MAKESPAN] = (double)wall / (double)reps;
	t->metric[OS_M_IDEAL] = komp_loops_ns(st->rate, st->total_loops) / n;
	t->metric[OS_M_OVERHEAD] = t->metric[OS_M_MAKESPAN] - t->metric[OS_M_IDEAL];
	t->metric[OS_M_BUSY_MAX] = bmax;
	t->metric[OS_M_BUSY_MEAN] = bsum / n;
	t->metric[OS_M_BUSY_MIN] = bmin;
	t->metric[OS_M_IMBALANCE] = bsum > 0 ? bmax / (bsum / n) : 1.0;
}

static int os_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	struct os_state *st = ctx->priv;
	uint64_t sum = 0;

	(void)n;
	for (unsigned i = 0; i < ctx->nthreads; i++)
		sum += st->slot[i].iters;
	if (sum != threads[0]->work_total)
		return lab_err_set(err, LAB_EVERIFY, "the team ran %llu iterations, expected %llu",
		                   (unsigned long long)sum,
		                   (unsigned long long)threads[0]->work_total);
	return 0;
}

static void os_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct os_state *st = ctx->priv;

	(void)threads;
	(void)n;
	if (!st)
		return;
	free(st->loops);
	free(st->slot);
	free(st);
}
#endif

/* The analyzer's view: makespan and imbalance per schedule vs chunk (analyze/views/omp_schedule.c).
 */
static const char *const os_views[] = {"omp_schedule", NULL};

static const char os_verifies[] =
    "the iterations the team's threads ran add up to loop instances x iterations: a "
    "count, as the iterations compute nothing to check";

const struct lab_kernel lab_kernel_omp_schedule = {
    .abi = LAB_KERNEL_ABI,
    .name = "omp_schedule",
    .summary = "an imbalanced loop under static, dynamic and guided schedules: makespan, "
               "imbalance",
    .description = os_description,
    .flags = LAB_KF_OPENMP,
    .params = os_params_table,
    .params_size = sizeof(struct os_params),
    .metrics = os_metrics,
    .work_unit = "iteration",
    .views = os_views,
    .verifies = os_verifies,
    .check = os_check,
#ifdef _OPENMP
    .setup = os_setup,
    .estimate = os_estimate,
    .thread_setup = os_thread_setup,
    .run = os_run,
    .verify = os_verify,
    .teardown = os_teardown,
#else
    .run = komp_absent_run,
#endif
};
