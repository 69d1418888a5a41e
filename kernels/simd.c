/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simd: scalar vs auto-vectorized vs intrinsics, per working-set size: chapter 28's kernel. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "harness/kernel_api.h"
#include "kernels/simd.h"
#include "kernels/simd_isa.h"

static const char sd_description[] =
    "The same loop as plain C with vectorization off (scalar), as plain C at -O3 (auto: what\n"
    "the compiler did, a*b+c left a multiply and an add by every compiler; see the remarks\n"
    "below) and as SSE2, AVX2 and AVX-512 intrinsics. op = sum and dot are reductions: with one\n"
    "accumulator every add waits for the previous one (latency-bound: one vector of lanes per\n"
    "step of the chain, so a wider ISA gains by its lanes, less where its step is slower: dot's\n"
    "AVX2 and AVX-512 chains are FMAs, its SSE2, auto and scalar ones a multiply and an add);\n"
    "`accumulators` independent chains hide that latency until the add pipes or the loads are\n"
    "the limit. saxpy (y = a*x + y) streams. count_if counts the elements above a threshold: it\n"
    "vectorizes as a compare into a mask (the compiler may make the scalar loop branch-free\n"
    "too), and gains like a reduction; gather loads through random indices. Sweep `size` (all\n"
    "arrays of one thread together) from L1 to DRAM: the vector speedup is largest in L1 (the\n"
    "lanes, 4 f64 or 8 f32 with AVX2, are a guide, not a bound: it passes them where the scalar\n"
    "loop issues fewer adds per cycle than the vector one), shrinks in L2/L3 and mostly\n"
    "vanishes in DRAM for saxpy, where memory binds (a wider loop can even lose there). AVX-512\n"
    "need not beat AVX2: a core may run a 512-bit op as two 256-bit halves, and where loads or\n"
    "stores bind the width does not matter; gather gains little at any size and may\n"
    "lose (a hardware gather can be slower than scalar loads). Note that with strict IEEE\n"
    "arithmetic (the build undoes fast-math and unsafe-math flags) `auto` cannot reorder a\n"
    "float reduction: one accumulator stays a serial chain even where GCC reports the loop\n"
    "vectorized, and several may be added in order, lane by lane (vector loads, scalar adds:\n"
    "`lab describe` quotes the compiler, objdump shows the code). misalign shifts every array\n"
    "by that many bytes off 64-byte alignment. A unit of work is one element; each thread runs\n"
    "whole passes.";

static const struct lab_enum_val sd_ops[] = {
    {"sum", SIMD_SUM, "s += x[i]"},
    {"dot", SIMD_DOT, "s += x[i]*y[i]"},
    {"saxpy", SIMD_SAXPY, "y[i] = a*x[i] + y[i]"},
    {"count_if", SIMD_COUNT_IF, "count x[i] > 0 (a branch in C, a mask compare in SIMD)"},
    {"gather", SIMD_GATHER, "s += x[idx[i]], random indices"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val sd_types[] = {
    {"f32", SIMD_F32, "float"},
    {"f64", SIMD_F64, "double"},
    {"i32", SIMD_I32, "32-bit integer (wraps; exact)"},
    {NULL, 0, NULL},
};

static const struct lab_param sd_params_table[] = {
    LAB_P_ENUM(struct simd_params, op, "op", "sum", sd_ops, "Which loop the threads time."),
    LAB_P_ENUM(struct simd_params, type, "type", "f64", sd_types, "Element type."),
    LAB_P_ENUM(struct simd_params, isa, "isa", "auto", lab_simd_isa_choices,
               "Instruction set of the loop."),
    LAB_P_U64(struct simd_params, accumulators, "accumulators", "4", 1, SIMD_ACC_MAX, "",
              "Independent accumulator chains (vectors per trip for saxpy)."),
    LAB_P_SIZE(struct simd_params, misalign, "misalign", "0", 0, 4095,
               "Bytes every array starts past 64-byte alignment (a multiple of the element)."),
    LAB_P_SIZE(struct simd_params, size, "size", "16KiB", 1024, 1ull << 36,
               "All arrays of one thread together."),
    LAB_PARAM_END,
};

static int sd_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct simd_params *p = params;

	(void)nthreads;
	if (p->misalign % lab_simd_elem(p))
		return lab_err_set(err, LAB_ECONFIG,
		                   "misalign = %llu: not a multiple of the %u-byte element "
		                   "(allowed 0, %u, %u, ... %u)",
		                   (unsigned long long)p->misalign, lab_simd_elem(p),
		                   lab_simd_elem(p), 2 * lab_simd_elem(p),
		                   4095 - 4095 % lab_simd_elem(p));
	if (lab_simd_elems(p) < 16)
		return lab_err_set(err, LAB_ECONFIG,
		                   "size = %llu: too small (allowed >= %u bytes for this op)",
		                   (unsigned long long)p->size, 16 * lab_simd_bytes_per_elem(p));
	int rc = lab_simd_isa_check(p->isa, false, env, err);
	if (rc)
		return rc;
	if (env && env->thissystem && !lab_simd_fn(p)) {
		if (p->isa == LAB_ISA_SSE2 && p->type == SIMD_I32)
			lab_err_set(err, LAB_EUNSUP,
			            "isa = sse2, type = i32: SSE2 has no 32-bit lane multiply "
			            "(pmulld is SSE4.1)");
		else
			lab_err_set(err, LAB_EUNSUP, "isa = %s: not built for this machine",
			            lab_simd_isa_choices[p->isa].name);
		return LAB_SKIP;
	}
	return 0;
}

static void sd_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	struct simd_thread *st = t->priv;
	uint64_t passes = (t->iters + st->args.n - 1) / st->args.n;

	(void)ctx;
	/* Whole passes: the reference stays one number, and saxpy's closed form stays simple. */
	st->fn(&st->args, passes, &st->res);
	st->passes += passes;
	t->work = passes * st->args.n;
}

static int sd_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	const struct simd_params *p = ctx->params;

	for (unsigned i = 0; i < n; i++)
		if (lab_simd_verify_thread(ctx->params, threads[i]->priv, i, err))
			return -LAB_EVERIFY;
	/* dot's and saxpy's float a*b+c, which the roofline says under an FMA roof */
	if (p->type != SIMD_I32 && (p->op == SIMD_DOT || p->op == SIMD_SAXPY))
		lab_ctx_fact_bool(ctx, "fma_fused", lab_simd_isa_fused(p->isa));
	return 0;
}

static void sd_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++)
		lab_simd_thread_free(threads[i]->priv);
}

static void sd_work(const void *params, struct lab_work *w)
{
	const struct simd_params *p = params;
	bool fp = p->type != SIMD_I32;

	w->bytes_read = lab_simd_bytes_per_elem(p);
	w->bytes_written = p->op == SIMD_SAXPY ? lab_simd_elem(p) : 0;
	w->bytes_write_allocate = 0; /* saxpy reads y before it writes it */
	/* Integer arithmetic and count_if's compares are not flops. */
	w->flops = !fp || p->op == SIMD_COUNT_IF               ? 0
	           : p->op == SIMD_SUM || p->op == SIMD_GATHER ? 1
	                                                       : 2;
	/* Vector sum/dot/saxpy with enough chains stream their arrays, so the best of them may set
	 * a bandwidth ceiling. A scalar loop or one of fewer than 4 chains is bound by its adds
	 * in the caches (a scalar sum set the L1 ceiling at 22 GB/s where loads reach 200): it is
	 * placed under the ceilings, never one; so are count_if, bound by its compares and
	 * branches, and gather, by random accesses its declared bytes do not count; and auto's
	 * float sum or dot, which the compiler may not reorder: gcc 12 for AVX-512 loaded vectors
	 * and added their lanes in order with scalar adds (the "read-only loads" it set ran at a
	 * quarter of the AVX2 sum's). */
	w->bandwidth_bound = p->op != SIMD_COUNT_IF && p->op != SIMD_GATHER &&
	                     p->isa != LAB_ISA_SCALAR &&
	                     (p->op == SIMD_SAXPY || p->accumulators >= 4) &&
	                     !(p->isa == LAB_ISA_AUTO && fp && p->op != SIMD_SAXPY);
	w->adds_only = w->flops > 0 && (p->op == SIMD_SUM || p->op == SIMD_GATHER);
}

static const struct lab_metric sd_metrics[] = {LAB_METRIC_END};

/* The analyzer places its points under the measured ceilings (analyze/views/roofline.c) and
 * tabulates the speedup over scalar per size (simd_speedup.c). */
static const char *const sd_views[] = {"roofline", "simd_speedup", NULL};

/* The threads, all at once, first-touch their arrays (size bytes, and saxpy's copy of y for
 * verify), fill them from a generator and sum a long double reference, about SD_EST_ELEM_NS
 * per element; a pass streams them. */
#define SD_EST_ELEM_NS 8.0

static void sd_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct simd_params *p = params;
	double size = (double)p->size;

	(void)nthreads;
	est->touch_bytes = p->op == SIMD_SAXPY ? 1.5 * size : size;
	est->setup_ns = (double)lab_simd_elems(p) * SD_EST_ELEM_NS;
	est->iter_ns = size * LAB_EST_STREAM_NS_PER_BYTE;
}

static const char sd_verifies[] =
    "each thread ran a pass; sum, dot and gather of floats: the last pass's result equals "
    "a long-double reference within the rounding bound of its reduction order (chain "
    "length n/(accumulators x lanes) plus the final combine); type = i32 and count_if: "
    "exactly; saxpy: every y equals y0 + passes x a x x within one or two roundings per "
    "element per pass (exactly for i32)";
static const char *const sd_needs[] = {
    lab_simd_needs_sse2,
    lab_simd_needs_avx2,
    lab_simd_needs_avx512,
    lab_simd_needs_auto,
    "type = i32 with op = dot or saxpy: an isa other than sse2 (SSE2 has no 32-bit lane "
    "multiply; pmulld is SSE4.1)",
    NULL,
};

const struct lab_kernel lab_kernel_simd = {
    .abi = LAB_KERNEL_ABI,
    .name = "simd",
    .summary = "sum/dot/saxpy/count_if/gather: scalar vs auto vs SSE2/AVX2/AVX-512, L1 to DRAM",
    .description = sd_description,
    .params = sd_params_table,
    .params_size = sizeof(struct simd_params),
    .metrics = sd_metrics,
    .work_unit = "element",
    .work_per_unit = sd_work,
    .views = sd_views,
    .verifies = sd_verifies,
    .needs = sd_needs,
    .check = sd_check,
    .thread_setup = lab_simd_thread_setup,
    .run = sd_run,
    .verify = sd_verify,
    .teardown = sd_teardown,
    .estimate = sd_estimate,
};
