/* SPDX-License-Identifier: GPL-3.0-or-later */
/* omp_fractal: the compute-bound half of the scaling pair, an escape-time fractal. */
#include <stdlib.h>

#include "kernels/omp_common.h"

static const char fr_description[] =
    "The compute-bound loop of chapter 29's scaling pair: the escape-time (Mandelbrot) count\n"
    "of every pixel of an image 256 pixels wide, rows split over the OpenMP team. A pixel\n"
    "inside the set costs max_iter iterations, one outside a few, and the window's vertical\n"
    "offset is drawn from the seed, so rows cost very different amounts: with schedule =\n"
    "static (one block of rows per thread) the team waits for the dearest block; with dynamic\n"
    "(one row at a time) it balances. No memory traffic to speak of, so strong scaling is near\n"
    "linear with dynamic (Amdahl's fit finds a small serial fraction) and weak scaling\n"
    "(scaling = weak, per_thread = true: `pixels` per thread, the same window sampled finer)\n"
    "keeps its efficiency near 1 (Gustafson: each thread's time per pixel stays flat, the\n"
    "team's falls by the thread count). Compare with omp_triad, which is memory-bound.\n"
    "samples.csv: iters_per_pixel is the mean escape count, so ns per fractal iteration =\n"
    "cost per pixel / iters_per_pixel. Knobs: pixels, per_thread, max_iter, schedule, threads.";

enum fr_sched { FR_STATIC, FR_DYNAMIC };

struct fr_params {
	uint64_t pixels;
	bool per_thread;
	uint64_t max_iter;
	int schedule;
};

static const struct lab_enum_val fr_scheds[] = {
    {"static", FR_STATIC, "one contiguous block of rows per thread"},
    {"dynamic", FR_DYNAMIC, "rows handed out one at a time"},
    {NULL, 0, NULL},
};

static const struct lab_param fr_params_table[] = {
    LAB_P_U64(struct fr_params, pixels, "pixels", "65536", 256, 1ull << 30, "pixels",
              "Pixels of the image, rounded down to whole 256-pixel rows (per thread when "
              "per_thread is true)."),
    LAB_P_BOOL(struct fr_params, per_thread, "per_thread", "false",
               "Pixels are per thread (weak scaling: set scaling = weak too)."),
    LAB_P_U64(struct fr_params, max_iter, "max_iter", "256", 1, 1u << 20, "iterations",
              "Escape-time limit: the cost of a pixel inside the set."),
    LAB_P_ENUM(struct fr_params, schedule, "schedule", "dynamic", fr_scheds,
               "How rows are shared out."),
    LAB_PARAM_END,
};

enum fr_metric { FR_M_ITERS, FR_M_PER_THREAD };

static const struct lab_metric fr_metrics[] = {
    {"iters_per_pixel", "iterations", LAB_AGG_MEAN, "mean escape-time count of a pixel"},
    {"pixels_per_thread", "pixels", LAB_AGG_MEAN,
     "pixels per thread per pass: constant along a weak-scaling series"},
    LAB_METRIC_END,
};

#define FR_WIDTH 256

static int fr_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	(void)params;
	(void)nthreads;
	return komp_check(env, err);
}

#ifdef _OPENMP
struct fr_state {
	uint64_t rows;
	double y0, dy;  /* the window: rows from y0 in steps of dy */
	uint64_t total; /* escape counts of every pass, for verify */
	uint64_t passes;
};

static int fr_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct fr_params *p = ctx->params;
	struct fr_state *st = calloc(1, sizeof(*st));
	uint64_t rng = ctx->seed;

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	st->rows = p->pixels / FR_WIDTH * (p->per_thread ? ctx->nthreads : 1);
	/* A window 3 high, shifted by up to +-0.4 by the seed: the set covers some rows only. */
	st->y0 = -1.5 + 0.8 * ((double)(komp_rand(&rng) >> 11) / 9007199254740992.0 - 0.5);
	st->dy = 3.0 / (double)st->rows;
	ctx->priv = st;
	return 0;
}

static int fr_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	(void)t;
	return komp_bind_team(ctx, err);
}

/* The escape-time counts of one row, summed. */
static uint64_t fr_row(const struct fr_state *st, uint64_t r, uint64_t max_iter)
{
	double ci = st->y0 + (double)r * st->dy;
	uint64_t sum = 0;

	for (int x = 0; x < FR_WIDTH; x++) {
		double cr = -2.0 + 3.0 * x / FR_WIDTH, zr = 0, zi = 0;
		uint64_t k = 0;
		while (k < max_iter && zr * zr + zi * zi <= 4.0) {
			double t = zr * zr - zi * zi + cr;
			zi = 2.0 * zr * zi + ci;
			zr = t;
			k++;
		}
		sum += k;
	}
	return sum;
}

/* ns per escape-time iteration, roughly (a chain of dependent multiplies and adds). */
#define FR_EST_NS_PER_ITER 2.0

/* A pass: about a sixth of the window lies in the set, where a pixel costs max_iter
 * iterations; the rest escape within a few. The team shares a pass; verify does one alone. */
static void fr_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct fr_params *p = params;
	double n = nthreads ? nthreads : 1;
	double pixels = (double)(p->pixels / FR_WIDTH * FR_WIDTH) * (p->per_thread ? n : 1);
	double pass = pixels * ((double)p->max_iter / 6 + 8) * FR_EST_NS_PER_ITER;

	est->iter_ns = pass / n;
	est->setup_ns = pass;
}

static void fr_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct fr_params *p = ctx->params;
	struct fr_state *st = ctx->priv;
	uint64_t rows = st->rows, mi = p->max_iter, sum = 0;

	for (uint64_t it = 0; it < t->iters; it++) {
		if (p->schedule == FR_STATIC) {
#pragma omp parallel for num_threads(ctx->nthreads) schedule(static) reduction(+ : sum)
			for (uint64_t r = 0; r < rows; r++)
				sum += fr_row(st, r, mi);
		} else {
#pragma omp parallel for num_threads(ctx->nthreads) schedule(dynamic, 1) reduction(+ : sum)
			for (uint64_t r = 0; r < rows; r++)
				sum += fr_row(st, r, mi);
		}
	}
	st->total += sum;
	st->passes += t->iters;
	t->work = t->iters * rows * FR_WIDTH;
	t->metric[FR_M_PER_THREAD] = (double)(rows * FR_WIDTH) / (double)ctx->nthreads;
	t->metric[FR_M_ITERS] = t->iters ? (double)sum / (double)(t->iters * rows * FR_WIDTH) : 0;
}

static int fr_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	const struct fr_params *p = ctx->params;
	struct fr_state *st = ctx->priv;
	uint64_t one = 0;

	(void)n;
	if (st->passes * st->rows * FR_WIDTH != threads[0]->work_total)
		return lab_err_set(err, LAB_EVERIFY,
		                   "%llu passes of %llu rows, %llu pixels reported",
		                   (unsigned long long)st->passes, (unsigned long long)st->rows,
		                   (unsigned long long)threads[0]->work_total);
	for (uint64_t r = 0; r < st->rows; r++)
		one += fr_row(st, r, p->max_iter);
	if (st->total != one * st->passes)
		return lab_err_set(err, LAB_EVERIFY,
		                   "%llu passes counted %llu iterations, the serial pass %llu each",
		                   (unsigned long long)st->passes, (unsigned long long)st->total,
		                   (unsigned long long)one);
	return 0;
}

static void fr_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)threads;
	(void)n;
	free(ctx->priv);
}
#endif

/* No view beyond the scaling series (its speedup is the lesson). */
static const char *const fr_views[] = {NULL};

static const char fr_verifies[] =
    "passes x pixels equals the work counted, and the escape iterations summed over all "
    "passes equal passes x those of one serial recomputation of the image";

const struct lab_kernel lab_kernel_omp_fractal = {
    .abi = LAB_KERNEL_ABI,
    .name = "omp_fractal",
    .summary = "escape-time fractal rows with an OpenMP team: the compute-bound half of the "
               "scaling pair",
    .description = fr_description,
    .flags = LAB_KF_OPENMP,
    .params = fr_params_table,
    .params_size = sizeof(struct fr_params),
    .metrics = fr_metrics,
    .work_unit = "pixel",
    .views = fr_views,
    .verifies = fr_verifies,
    .check = fr_check,
#ifdef _OPENMP
    .setup = fr_setup,
    .estimate = fr_estimate,
    .thread_setup = fr_thread_setup,
    .run = fr_run,
    .verify = fr_verify,
    .teardown = fr_teardown,
#else
    .run = komp_absent_run,
#endif
};
