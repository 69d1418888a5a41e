/* SPDX-License-Identifier: GPL-3.0-or-later */
/* omp_triad: the memory-bound half of the scaling pair, a[i] = b[i] + s * c[i]. */
#include <stdlib.h>

#include "harness/buffer.h"
#include "kernels/omp_common.h"

static const char tr_description[] =
    "The memory-bound loop of chapter 29's scaling pair: a[i] = b[i] + 3 * c[i] over three\n"
    "arrays of doubles, split statically over the OpenMP team (each thread first-touches its\n"
    "own block). Per element it reads 16 and writes 8 bytes for 2 flops, so once the arrays\n"
    "outgrow the caches the loop runs at the memory bandwidth, which a few cores already\n"
    "saturate: strong-scaling speedup flattens early (Amdahl's serial fraction looks large,\n"
    "though nothing is serial: the shared resource is the bus), and weak scaling (scaling =\n"
    "weak with per_thread = true: `size` bytes per array per thread) shows an efficiency\n"
    "below 1: each thread's time per element rises with threads, so the team's cost per\n"
    "element falls by less than the thread count. Compare with omp_fractal, which is\n"
    "compute-bound and scales. Knobs: size, per_thread, threads. Work unit: one element.";

struct tr_params {
	uint64_t size;
	bool per_thread;
};

static const struct lab_param tr_params_table[] = {
    LAB_P_SIZE(struct tr_params, size, "size", "32MiB", 64, 1ull << 36,
               "Bytes of each of the three arrays (per thread when per_thread is true)."),
    LAB_P_BOOL(struct tr_params, per_thread, "per_thread", "false",
               "Size is per thread (weak scaling: set scaling = weak too)."),
    LAB_PARAM_END,
};

static const struct lab_metric tr_metrics[] = {
    {"elems_per_thread", "elements", LAB_AGG_MEAN,
     "elements per thread per pass: constant along a weak-scaling series"},
    LAB_METRIC_END,
};

static int tr_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	(void)params;
	(void)nthreads;
	return komp_check(env, err);
}

static void tr_work(const void *params, struct lab_work *w)
{
	(void)params;
	w->bytes_read = 16;
	w->bytes_written = 8;
	w->flops = 2;
}

#ifdef _OPENMP
struct tr_state {
	struct lab_buf buf[3]; /* behind a, b and c */
	double *a, *b, *c;
	uint64_t n;
	uint64_t passes;
};

static void tr_free(struct tr_state *st)
{
	if (!st)
		return;
	for (int k = 0; k < 3; k++)
		lab_buf_free(&st->buf[k]);
	free(st);
}

/* Maps the arrays untouched: the OpenMP team first-touches its blocks in thread_setup. */
static int tr_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct tr_params *p = ctx->params;
	struct tr_state *st = calloc(1, sizeof(*st));
	uint64_t n = p->size / 8 * (p->per_thread ? ctx->nthreads : 1);
	struct lab_buf_opts o = {.align_bytes = 4096, .no_touch = true};

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	st->n = n;
	for (int k = 0; k < 3; k++)
		if (lab_buf_alloc(&st->buf[k], n * 8, &o, err)) {
			tr_free(st);
			return lab_err_prefix(
			    err, "triad arrays of %llu bytes: ", (unsigned long long)(n * 8));
		}
	st->a = st->buf[0].p;
	st->b = st->buf[1].p;
	st->c = st->buf[2].p;
	ctx->priv = st;
	return 0;
}

static int tr_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	struct tr_state *st = ctx->priv;
	int rc = komp_bind_team(ctx, err);

	(void)t;
	if (rc)
		return rc;
		/* Small integers: b + 3c is exact, so verify can compare with ==. */
#pragma omp parallel for num_threads(ctx->nthreads) schedule(static)
	for (uint64_t i = 0; i < st->n; i++) {
		st->a[i] = 0;
		st->b[i] = (double)(i % 1024);
		st->c[i] = (double)(i % 7);
	}
	return 0;
}

static void tr_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	struct tr_state *st = ctx->priv;
	double *restrict a = st->a;
	const double *restrict b = st->b, *restrict c = st->c;
	uint64_t n = st->n;

	for (uint64_t it = 0; it < t->iters; it++) {
#pragma omp parallel for num_threads(ctx->nthreads) schedule(static)
		for (uint64_t i = 0; i < n; i++)
			a[i] = b[i] + 3.0 * c[i];
		lab_clobber_memory();
	}
	st->passes += t->iters;
	t->work = t->iters * n;
	t->metric[0] = (double)n / (double)ctx->nthreads;
}

static int tr_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	struct tr_state *st = ctx->priv;

	(void)n;
	if (st->passes * st->n != threads[0]->work_total)
		return lab_err_set(err, LAB_EVERIFY, "%llu passes of %llu elements, %llu reported",
		                   (unsigned long long)st->passes, (unsigned long long)st->n,
		                   (unsigned long long)threads[0]->work_total);
	for (uint64_t i = 0; i < st->n; i++)
		if (st->a[i] != (double)(i % 1024) + 3.0 * (double)(i % 7))
			return lab_err_set(err, LAB_EVERIFY, "a[%llu] = %g, expected %g",
			                   (unsigned long long)i, st->a[i],
			                   (double)(i % 1024) + 3.0 * (double)(i % 7));
	return 0;
}

static void tr_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct tr_state *st = ctx->priv;

	(void)threads;
	(void)n;
	tr_free(st);
}

/* The team first-touches its blocks of the three arrays at once; a pass streams them. */
static void tr_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct tr_params *p = params;
	double n = nthreads ? nthreads : 1, block = 3.0 * (double)p->size / (p->per_thread ? 1 : n);

	est->touch_bytes = block;
	est->iter_ns = block * LAB_EST_STREAM_NS_PER_BYTE;
}
#endif

/* No view beyond the scaling series (its speedup is the lesson). */
static const char *const tr_views[] = {NULL};

static const char tr_verifies[] =
    "passes x elements equals the work counted, and every element of a equals b + 3c "
    "(b[i] = i mod 1024, c[i] = i mod 7)";

const struct lab_kernel lab_kernel_omp_triad = {
    .abi = LAB_KERNEL_ABI,
    .name = "omp_triad",
    .summary = "a = b + s*c with an OpenMP team: the memory-bound half of the scaling pair",
    .description = tr_description,
    .flags = LAB_KF_OPENMP,
    .params = tr_params_table,
    .params_size = sizeof(struct tr_params),
    .metrics = tr_metrics,
    .work_unit = "element",
    .views = tr_views,
    .verifies = tr_verifies,
    .work_per_unit = tr_work,
    .check = tr_check,
#ifdef _OPENMP
    .setup = tr_setup,
    .estimate = tr_estimate,
    .thread_setup = tr_thread_setup,
    .run = tr_run,
    .verify = tr_verify,
    .teardown = tr_teardown,
#else
    .run = komp_absent_run,
#endif
};
