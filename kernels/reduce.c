/* SPDX-License-Identifier: GPL-3.0-or-later */
/* reduce: one integer sum, five ways, by an OpenMP team or the lab's own pthread team. */
#include <stdlib.h>
#include <string.h>

#include "kernels/omp_common.h"
#include "kernels/reduce_team.h"

static const char rd_description[] =
    "Sums `elems` 64-bit integers with the whole team, five ways. omp_reduction:\n"
    "reduction(+) (each thread keeps a private sum in a register, combined once at the end):\n"
    "the fast baseline. padded_partials: each thread adds into its own slot in memory, 128\n"
    "bytes from the next: as fast, the slots\n"
    "never share a line. packed_partials: the same slots 8 bytes apart, so neighbours' slots\n"
    "share a line: false sharing at 2+ threads where the core pays for stores to a line another\n"
    "core holds (each add is a load and a store; how much depends on its store buffer: compare\n"
    "it with padded_partials, and across sockets). atomic: one atomic add per element to one\n"
    "shared counter: serialised on the line under contention.\n"
    "critical: one critical section (or mutex) per element: the slowest. team = openmp runs it\n"
    "with the OpenMP runtime (a parallel region per pass); team = lab runs the same code on the\n"
    "lab's own pinned pthread team woken by a spinning counter: the difference at small elems is\n"
    "the runtime's fork-join cost. Work unit: one element (8 bytes read). Knobs: strategy,\n"
    "team, elems, threads.";

struct rd_params {
	int strategy;
	int team;
	uint64_t elems;
};

static const struct lab_enum_val rd_strategies[] = {
    {"omp_reduction", RD_OMP_REDUCTION, "private sums combined once (reduction clause)"},
    {"padded_partials", RD_PADDED, "per-thread sums in memory, 128 bytes apart"},
    {"packed_partials", RD_PACKED, "per-thread sums in memory, 8 bytes apart (false sharing)"},
    {"atomic", RD_ATOMIC, "one atomic add per element to a shared sum"},
    {"critical", RD_CRITICAL, "one critical section (lab: mutex) per element"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val rd_teams[] = {
    {"openmp", RDT_OPENMP, "the OpenMP runtime's team, one parallel region per pass"},
    {"lab", RDT_LAB, "the lab's own pinned pthread team, woken by a spinning counter"},
    {NULL, 0, NULL},
};

static const struct lab_param rd_params_table[] = {
    LAB_P_ENUM(struct rd_params, strategy, "strategy", "omp_reduction", rd_strategies,
               "How the threads combine their sums."),
    LAB_P_ENUM(struct rd_params, team, "team", "openmp", rd_teams, "Which team runs it."),
    LAB_P_U64(struct rd_params, elems, "elems", "65536", 1, 1ull << 30, "elements",
              "Elements summed per pass (8 bytes each)."),
    LAB_PARAM_END,
};

static const struct lab_metric rd_metrics[] = {LAB_METRIC_END};

static int rd_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	(void)params;
	(void)nthreads;
	return komp_check(env, err);
}

static void rd_work(const void *params, struct lab_work *w)
{
	(void)params;
	w->bytes_read = 8;
	w->bytes_written = 0;
	w->flops = 0;
}

#ifdef _OPENMP
static int rd_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct rd_params *p = ctx->params;
	/* Aligned: the state holds 128-byte-aligned counters. */
	struct rd_state *st = aligned_alloc(LAB_SLOT, sizeof(*st));

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	memset(st, 0, sizeof(*st));
	st->n = p->elems;
	st->seed = ctx->seed;
	st->strategy = p->strategy;
	st->slots = aligned_alloc(LAB_SLOT, (ctx->nthreads + 1) * LAB_SLOT);
	if (!st->slots) {
		free(st);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	/* Untouched: the team first-touches its blocks in thread_setup. */
	if (lab_buf_alloc(&st->vbuf, p->elems * 8,
	                  &(struct lab_buf_opts){.align_bytes = 4096, .no_touch = true}, err)) {
		free(st->slots);
		free(st);
		return lab_err_prefix(err,
		                      "an array of %llu elements: ", (unsigned long long)p->elems);
	}
	st->v = st->vbuf.p;
	pthread_mutex_init(&st->mutex, NULL);
	ctx->priv = st;
	return 0;
}

/* Binds the team and first-touches each thread's block of the array where it will be read. */
static int rd_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct rd_params *p = ctx->params;
	struct rd_state *st = ctx->priv;
	int rc;

	(void)t;
	if (p->team == RDT_LAB) {
		rc = rd_team_start(st, ctx, err); /* first-touches the array too */
		if (rc)
			return rc;
	} else {
		rc = komp_bind_team(ctx, err);
		if (rc)
			return rc;
#pragma omp parallel for num_threads(ctx->nthreads) schedule(static)
		for (uint64_t i = 0; i < st->n; i++)
			st->v[i] = rd_value(st, i);
	}
	st->expect = 0;
	for (uint64_t i = 0; i < st->n; i++)
		st->expect += st->v[i];
	return 0;
}

/* One pass with the OpenMP team; the strategy is chosen once per pass, not per element. */
static uint64_t rd_pass_omp(struct rd_state *st, int nt)
{
	const uint64_t *v = st->v;
	uint64_t n = st->n, s = 0;

	switch (st->strategy) {
	case RD_OMP_REDUCTION:
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : s)
		for (uint64_t i = 0; i < n; i++)
			s += v[i];
		return s;
	case RD_ATOMIC:
#pragma omp parallel for num_threads(nt) schedule(static)
		for (uint64_t i = 0; i < n; i++) {
#pragma omp atomic
			s += v[i];
		}
		return s;
	case RD_CRITICAL:
#pragma omp parallel for num_threads(nt) schedule(static)
		for (uint64_t i = 0; i < n; i++) {
#pragma omp critical
			s += v[i];
		}
		return s;
	default: /* partials */
#pragma omp parallel num_threads(nt)
		rd_partial(st, (unsigned)omp_get_thread_num(), (unsigned)nt);
		return rd_combine(st, (unsigned)nt);
	}
}

static void rd_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct rd_params *p = ctx->params;
	struct rd_state *st = ctx->priv;
	uint64_t total = 0;

	for (uint64_t it = 0; it < t->iters; it++)
		total +=
		    p->team == RDT_LAB ? rd_team_pass(st) : rd_pass_omp(st, (int)ctx->nthreads);
	st->total += total;
	st->passes += t->iters;
	t->work = t->iters * p->elems;
}

static int rd_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	struct rd_state *st = ctx->priv;
	uint64_t want = st->expect * st->passes;

	(void)n;
	if (st->passes * st->n != threads[0]->work_total)
		return lab_err_set(err, LAB_EVERIFY, "%llu passes of %llu elements, %llu reported",
		                   (unsigned long long)st->passes, (unsigned long long)st->n,
		                   (unsigned long long)threads[0]->work_total);
	if (st->total != want)
		return lab_err_set(err, LAB_EVERIFY, "%llu passes summed to %llu, expected %llu",
		                   (unsigned long long)st->passes, (unsigned long long)st->total,
		                   (unsigned long long)want);
	return 0;
}

static void rd_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct rd_state *st = ctx->priv;

	(void)threads;
	(void)n;
	if (!st)
		return;
	komp_team_stop(&st->team);
	pthread_mutex_destroy(&st->mutex);
	lab_buf_free(&st->vbuf);
	free(st->slots);
	free(st);
}

/* The team first-touches its blocks of the array at once; a pass reads them. */
static void rd_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct rd_params *p = params;
	double block = 8.0 * (double)p->elems / (nthreads ? nthreads : 1);

	est->touch_bytes = block;
	est->iter_ns = block * LAB_EST_STREAM_NS_PER_BYTE;
}
#endif

/* The analyzer's view: ns per element per strategy and team vs threads (analyze/views/reduce.c). */
static const char *const rd_views[] = {"reduce", NULL};

static const char rd_verifies[] =
    "passes x elements equals the work counted, and the passes' sums add up exactly to "
    "passes x the sum computed once in setup";

const struct lab_kernel lab_kernel_reduce = {
    .abi = LAB_KERNEL_ABI,
    .name = "reduce",
    .summary = "one integer sum five ways (reduction, padded/packed partials, atomic, critical)",
    .description = rd_description,
    .flags = LAB_KF_OPENMP,
    .params = rd_params_table,
    .params_size = sizeof(struct rd_params),
    .metrics = rd_metrics,
    .work_unit = "element",
    .views = rd_views,
    .verifies = rd_verifies,
    .work_per_unit = rd_work,
    .check = rd_check,
#ifdef _OPENMP
    .setup = rd_setup,
    .estimate = rd_estimate,
    .thread_setup = rd_thread_setup,
    .run = rd_run,
    .verify = rd_verify,
    .teardown = rd_teardown,
#else
    .run = komp_absent_run,
#endif
};
