/* SPDX-License-Identifier: GPL-3.0-or-later */
/* peak: the floating-point ceiling per ISA and precision, from independent chains. */
#include <math.h>
#include <stdlib.h>

#include "harness/buffer.h"
#include "harness/clock.h"
#include "harness/coreclock.h"
#include "harness/kernel_api.h"
#include "kernels/peak_impl.h"
#include "kernels/simd_isa.h"

static const char pk_description[] =
    "The compute ceiling of the roofline: enough independent chains of one operation to keep\n"
    "every floating-point pipe busy (latency x throughput: 4-cycle FMAs on 2 pipes need 8 chains\n"
    "in flight; the kernel runs 12, 24 with AVX-512's 32 registers), nothing loaded or stored.\n"
    "The bound to compare with is pipes x lanes x (2 for FMA) flops per cycle; how many pipes\n"
    "and how wide they are is the core's business (some cores split a 512-bit op in two, so\n"
    "AVX-512 may give no more than AVX2), so read flops_per_cycle per ISA side by side rather\n"
    "than against a number from a data sheet. op = fma_add runs as many FMA chains as fill the\n"
    "FMA pipes (10 with 16 registers, 12 with AVX-512) and add chains beside them (2, 12):\n"
    "where the core has add pipes apart from its FMA pipes it beats FMA alone; where the adds\n"
    "share the FMA pipes it comes out below FMA. The roofline view says which this machine\n"
    "shows: the add pipes help only where fma_add's interval lies above fma's. flops_per_cycle\n"
    "uses the core clock measured on each thread by a dependent-add chain, not the TSC. Each\n"
    "chain applies its op with +a then -a (x*2 then x/2 for mul), so it returns exactly to its\n"
    "start. A unit of work is one step of every chain.";

static const struct lab_enum_val pk_ops[] = {
    {"fma", PEAK_FMA, "fused multiply-add chains (2 flops per lane)"},
    {"add", PEAK_ADD, "add chains"},
    {"mul", PEAK_MUL, "multiply chains"},
    {"fma_add", PEAK_FMA_ADD, "FMA chains and add chains (separate pipes where the CPU has them)"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val pk_precisions[] = {
    {"f64", 0, "double precision"},
    {"f32", 1, "single precision"},
    {NULL, 0, NULL},
};

struct pk_params {
	int op;
	int isa;
	int precision;
};

static const struct lab_param pk_params_table[] = {
    LAB_P_ENUM(struct pk_params, op, "op", "fma", pk_ops, "The floating-point operation."),
    LAB_P_ENUM(struct pk_params, isa, "isa", "avx2", lab_simd_isa_choices,
               "Instruction set of the chains."),
    LAB_P_ENUM(struct pk_params, precision, "type", "f64", pk_precisions,
               "Element type (`type`, as in simd: `precision` is the harness's precision "
               "target)."),
    LAB_PARAM_END,
};

static const struct peak_variant *const pk_variants[LAB_ISA_N] = {
    &peak_v_scalar, &peak_v_auto, &peak_v_sse2, &peak_v_avx2, &peak_v_avx512,
};

enum { PK_M_FLOPS_PER_CYCLE, PK_M_CORE_GHZ };

static const struct lab_metric pk_metrics[] = {
    {"flops_per_cycle", "flop/cycle", LAB_AGG_MEAN,
     "flops per core cycle per thread, from the clock measured on that thread"},
    {"core_ghz", "GHz", LAB_AGG_MEAN, "the core clock measured on each thread before its run"},
    LAB_METRIC_END,
};

static peak_fn pk_fn(const struct pk_params *p)
{
	const struct peak_variant *v = pk_variants[p->isa];

	return p->precision ? v->f32[p->op] : v->f64[p->op];
}

static unsigned pk_elem(const struct pk_params *p)
{
	return p->precision ? 4 : 8;
}

/* Flops of one unit: every chain applies its op twice. */
static double pk_flops(const struct pk_params *p)
{
	double lanes = lab_simd_isa_lanes(p->isa, pk_elem(p));
	double chains = pk_variants[p->isa]->chains[p->op];

	switch (p->op) {
	case PEAK_FMA:
		return chains * lanes * 4;
	case PEAK_FMA_ADD: /* FMA: 2 flops, add: 1, twice each */
		return (pk_variants[p->isa]->mix_fma * 4.0 +
		        (chains - pk_variants[p->isa]->mix_fma) * 2.0) *
		       lanes;
	default:
		return chains * lanes * 2;
	}
}

static int pk_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct pk_params *p = params;
	/* the scalar file is built with -mfma; the other variants need FMA only where their fma
	 * is one instruction (sse2's is a multiply and an add: it ran nowhere without FMA) */
	bool fma = p->isa == LAB_ISA_SCALAR ||
	           ((p->op == PEAK_FMA || p->op == PEAK_FMA_ADD) && pk_variants[p->isa]->fused);

	(void)nthreads;
	int rc = lab_simd_isa_check(p->isa, fma, env, err);
	if (rc)
		return rc;
	if (env && env->thissystem && !pk_fn(p)) {
		lab_err_set(err, LAB_EUNSUP, "isa = %s: not built for this machine",
		            lab_simd_isa_choices[p->isa].name);
		return LAB_SKIP;
	}
	return 0;
}

struct pk_thread {
	alignas(64) double x[PEAK_XMAX / 2]; /* PEAK_XMAX floats or half as many doubles */
	alignas(64) double k[5];
	float kf[5];
	double ghz;
	uint64_t units; /* steps run since setup */
	peak_fn fn;
};

/* Chain value i at the start: small, exactly representable, different in every lane. */
static double pk_x0(unsigned i)
{
	return 1.0 + (double)i * 0.25;
}

static int pk_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct pk_params *p = ctx->params;
	struct pk_thread *pt = lab_buf_obj_alloc(sizeof(*pt), err);
	const double k[5] = {0.5, -0.5, 2.0, 0.5, 1.0};

	if (!pt)
		return -LAB_ENOMEM;
	t->priv = pt;
	pt->fn = pk_fn(p);
	pt->units = 0;
	for (unsigned i = 0; i < PEAK_XMAX / 2; i++) {
		if (p->precision) {
			((float *)pt->x)[2 * i] = (float)pk_x0(2 * i);
			((float *)pt->x)[2 * i + 1] = (float)pk_x0(2 * i + 1);
		} else {
			pt->x[i] = pk_x0(i);
		}
	}
	for (int i = 0; i < 5; i++) {
		pt->k[i] = k[i];
		pt->kf[i] = (float)k[i];
	}
	/* Measured on this thread, pinned, just before its runs: what its cycles are worth. */
	pt->ghz = lab_coreclock_ghz();
	return 0;
}

static void pk_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct pk_params *p = ctx->params;
	struct pk_thread *pt = t->priv;
	const void *k = p->precision ? (const void *)pt->kf : (const void *)pt->k;
	uint64_t t0 = lab_clock_ns();

	pt->fn(pt->x, k, t->iters);
	pt->units += t->iters;
	uint64_t ns = lab_clock_ns() - t0;
	t->metric[PK_M_CORE_GHZ] = pt->ghz;
	t->metric[PK_M_FLOPS_PER_CYCLE] =
	    ns ? pk_flops(p) * (double)t->iters / ((double)ns * pt->ghz) : NAN;
}

static int pk_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	const struct pk_params *p = ctx->params;

	for (unsigned i = 0; i < n; i++) {
		const struct pk_thread *pt = threads[i]->priv;
		if (pt->units == 0 || pt->units != threads[i]->work_total)
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u ran %llu steps, the harness %llu", i,
			                   (unsigned long long)pt->units,
			                   (unsigned long long)threads[i]->work_total);
		for (unsigned j = 0; j < PEAK_XMAX / (p->precision ? 1 : 2); j++) {
			double v = p->precision ? ((const float *)pt->x)[j] : pt->x[j];
			if (v != (double)(p->precision ? (float)pk_x0(j) : pk_x0(j)))
				return lab_err_set(err, LAB_EVERIFY,
				                   "thread %u: chain value %u is %.17g, want %.17g "
				                   "(the +a/-a pairs must cancel exactly)",
				                   i, j, v, pk_x0(j));
		}
	}
	/* What the analyzer's FMA+add sentence needs (analyze/views/roofline_pipes.c): whether
	 * fma is one instruction here, and the mix, which bounds what separate add pipes give. */
	if (p->op == PEAK_FMA || p->op == PEAK_FMA_ADD)
		lab_ctx_fact_bool(ctx, "fma_fused", pk_variants[p->isa]->fused != 0);
	if (p->op == PEAK_FMA_ADD) {
		const struct peak_variant *v = pk_variants[p->isa];

		lab_ctx_fact_int(ctx, "mix_fma", v->mix_fma);
		lab_ctx_fact_int(ctx, "mix_add", (int64_t)v->chains[PEAK_FMA_ADD] - v->mix_fma);
	}
	return 0;
}

static void pk_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++)
		lab_buf_obj_free(threads[i]->priv);
}

static void pk_work(const void *params, struct lab_work *w)
{
	w->bytes_read = 0;
	w->bytes_written = 0;
	w->bytes_write_allocate = 0;
	w->flops = pk_flops(params);
	w->adds_only = ((const struct pk_params *)params)->op == PEAK_ADD;
}

/* The analyzer places its points under the measured ceilings (analyze/views/roofline.c). */
static const char *const pk_views[] = {"roofline", NULL};

static const char pk_verifies[] =
    "each thread ran the steps the harness counted, and every lane of every chain is back "
    "at its start exactly (each step applies +a then -a, or x2 then /2)";
static const char *const pk_needs[] = {
    lab_simd_needs_sse2,
    lab_simd_needs_avx2,
    lab_simd_needs_avx512,
    lab_simd_needs_auto,
    "isa = scalar: a CPU with fma (the scalar file is built with -mfma)",
    NULL,
};

const struct lab_kernel lab_kernel_peak = {
    .abi = LAB_KERNEL_ABI,
    .name = "peak",
    .summary = "peak flops per ISA and precision (fma, add, mul, fma_add) in flops per cycle",
    .description = pk_description,
    .params = pk_params_table,
    .params_size = sizeof(struct pk_params),
    .metrics = pk_metrics,
    .work_unit = "step",
    /* cost_kind WORK: a unit is one step of one thread's chains and the cost is the team's wall
     * time per step of all of them, so more cores divide it (the speedup says how the ceiling
     * grows with the team: about the cores it has, less where threads share a core's pipes) */
    .work_per_unit = pk_work,
    .views = pk_views,
    .verifies = pk_verifies,
    .needs = pk_needs,
    .check = pk_check,
    .thread_setup = pk_thread_setup,
    .run = pk_run,
    .verify = pk_verify,
    .teardown = pk_teardown,
};
