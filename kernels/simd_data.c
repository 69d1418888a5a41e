/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simd's data, reference results and verification (the untimed half of kernels/simd.c), and
 * what a point's params come to: its variant's function, element size and count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernels/simd.h"
#include "kernels/simd_isa.h"

static const struct simd_variant *const sd_variants[LAB_ISA_N] = {
    &simd_v_scalar, &simd_v_auto, &simd_v_sse2, &simd_v_avx2, &simd_v_avx512,
};

simd_fn lab_simd_fn(const struct simd_params *p)
{
	return sd_variants[p->isa]->fn[p->op][p->type][p->accumulators - 1];
}

unsigned lab_simd_elem(const struct simd_params *p)
{
	return p->type == SIMD_F64 ? 8 : 4;
}

unsigned lab_simd_bytes_per_elem(const struct simd_params *p)
{
	unsigned e = lab_simd_elem(p);

	return p->op == SIMD_DOT || p->op == SIMD_SAXPY ? 2 * e : p->op == SIMD_GATHER ? e + 4 : e;
}

size_t lab_simd_elems(const struct simd_params *p)
{
	return (size_t)(p->size / lab_simd_bytes_per_elem(p)) / 16 * 16;
}

/* A small LCG: the data only has to be varied and reproducible from the seed. */
static uint32_t sd_rand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (uint32_t)(*s >> 33);
}

/* Floats in [-1, 1) on a 2^-10 grid; integers in [-1000, 1000]. */
static double sd_value(const struct simd_params *p, uint64_t *s)
{
	uint32_t r = sd_rand(s);

	return p->type == SIMD_I32 ? (double)((int)(r % 2001) - 1000)
	                           : (double)(int)(r % 2048) / 1024.0 - 1.0;
}

static void sd_put(const struct simd_params *p, void *a, size_t i, double v)
{
	if (p->type == SIMD_F32)
		((float *)a)[i] = (float)v;
	else if (p->type == SIMD_F64)
		((double *)a)[i] = v;
	else
		((int32_t *)a)[i] = (int32_t)v;
}

static double sd_get(const struct simd_params *p, const void *a, size_t i)
{
	if (p->type == SIMD_F32)
		return ((const float *)a)[i];
	if (p->type == SIMD_F64)
		return ((const double *)a)[i];
	return ((const int32_t *)a)[i];
}

/* Its own mapping, page-aligned then shifted by misalign; first touched by this thread. NULL
 * with the reason in err. */
static void *sd_array(struct simd_thread *st, int slot, size_t bytes, uint64_t misalign,
                      struct lab_err *err)
{
	if (lab_buf_alloc(&st->mem[slot], bytes + misalign,
	                  &(struct lab_buf_opts){.align_bytes = 4096}, err))
		return NULL;
	return (char *)st->mem[slot].p + misalign;
}

/* The reference: long double sums in index order, and the sum of |terms| for the bound. */
static void sd_reference(const struct simd_params *p, struct simd_thread *st)
{
	const struct simd_args *g = &st->args;
	uint32_t wrap = 0;

	st->ref = st->ref_abs = 0;
	for (size_t i = 0; i < g->n; i++) {
		double x = sd_get(p, g->x, p->op == SIMD_GATHER ? (size_t)g->idx[i] : i);
		double term = p->op == SIMD_DOT ? x * sd_get(p, g->y, i) : x;
		if (p->op == SIMD_COUNT_IF)
			term = x > g->t;
		st->ref += term;
		st->ref_abs += fabsl((long double)term);
		wrap += (uint32_t)(int64_t)term;
	}
	if (p->type == SIMD_I32 && p->op != SIMD_COUNT_IF)
		st->ref = wrap;
}

int lab_simd_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct simd_params *p = ctx->params;
	struct simd_thread *st = calloc(1, sizeof(*st));
	size_t n = lab_simd_elems(p), bytes = n * lab_simd_elem(p);
	uint64_t seed = ctx->seed * 7919 + t->id + 1;

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	t->priv = st;
	st->fn = lab_simd_fn(p);
	st->args.n = n;
	st->args.a = p->type == SIMD_I32 ? 3 : 0.5;
	st->args.t = 0;
	bool pair = p->op == SIMD_DOT || p->op == SIMD_SAXPY;
	void *x, *y = NULL;
	int32_t *idx = NULL;
	if (!(x = sd_array(st, 0, bytes, p->misalign, err)) ||
	    (pair && !(y = sd_array(st, 1, bytes, p->misalign, err))) ||
	    (p->op == SIMD_GATHER && !(idx = sd_array(st, 2, n * 4, p->misalign, err))) ||
	    (p->op == SIMD_SAXPY && !(st->y0 = sd_array(st, 3, bytes, 0, err))))
		return lab_err_prefix(err, "arrays of %zu bytes: ", bytes);
	for (size_t i = 0; i < n; i++) {
		sd_put(p, x, i, sd_value(p, &seed));
		if (y)
			sd_put(p, y, i, sd_value(p, &seed));
		if (idx)
			idx[i] = (int32_t)(sd_rand(&seed) % n);
	}
	if (st->y0)
		memcpy(st->y0, y, bytes);
	st->args.x = x;
	st->args.y = y;
	st->args.idx = idx;
	sd_reference(p, st);
	return 0;
}

/* saxpy: after k passes y = y0 + k*a*x, each pass rounding once or twice per element. */
static int sd_verify_saxpy(const struct simd_params *p, const struct simd_thread *st, unsigned id,
                           struct lab_err *err)
{
	const struct simd_args *g = &st->args;
	long double u = p->type == SIMD_F32 ? ldexpl(1, -24) : ldexpl(1, -53);
	uint64_t k = st->passes;

	for (size_t i = 0; i < g->n; i++) {
		double x = sd_get(p, g->x, i), y0 = sd_get(p, st->y0, i), y = sd_get(p, g->y, i);
		if (p->type == SIMD_I32) {
			uint32_t want = (uint32_t)(int32_t)y0 + (uint32_t)k *
			                                            (uint32_t)(int32_t)g->a *
			                                            (uint32_t)(int32_t)x;
			if ((uint32_t)(int32_t)y != want)
				return lab_err_set(
				    err, LAB_EVERIFY,
				    "thread %u: y[%zu] = %d after %llu passes, want %d", id, i,
				    (int32_t)y, (unsigned long long)k, (int32_t)want);
			continue;
		}
		long double want = y0 + (long double)k * g->a * x;
		long double tol = 2 * u * (k + 1) * (fabsl((long double)y0) + k * fabsl(g->a * x));
		if (fabsl(y - want) > tol)
			return lab_err_set(
			    err, LAB_EVERIFY,
			    "thread %u: y[%zu] = %.9g after %llu passes, want %.9Lg +- "
			    "%.3Lg",
			    id, i, y, (unsigned long long)k, want, tol);
	}
	return 0;
}

int lab_simd_verify_thread(const struct simd_params *p, const struct simd_thread *st, unsigned id,
                           struct lab_err *err)
{
	if (st->passes == 0)
		return lab_err_set(err, LAB_EVERIFY, "thread %u ran no pass", id);
	if (p->op == SIMD_SAXPY)
		return sd_verify_saxpy(p, st, id, err);
	if (p->op == SIMD_COUNT_IF || p->type == SIMD_I32) {
		if (st->res.i != (int64_t)st->ref)
			return lab_err_set(err, LAB_EVERIFY, "thread %u: result %lld, want %lld",
			                   id, (long long)st->res.i, (long long)st->ref);
		return 0;
	}
	/*
	 * Each of W lanes of ACC chains adds n/(ACC*W) terms in order, then the chains and the
	 * lanes are combined: no partial sum passes through more than `depth` roundings, so the
	 * error is at most depth * u * sum|terms| (first order; +1 for dot's products).
	 */
	double lanes = lab_simd_isa_lanes(p->isa, lab_simd_elem(p));
	double depth = (double)st->args.n / ((double)p->accumulators * lanes) +
	               2.0 * (double)p->accumulators + lanes + 2;
	long double u = p->type == SIMD_F32 ? ldexpl(1, -24) : ldexpl(1, -53);
	long double tol = (long double)depth * u * st->ref_abs;
	if (fabsl(st->res.f - st->ref) > tol)
		return lab_err_set(err, LAB_EVERIFY,
		                   "thread %u: result %.17g, reference %.17Lg, allowed error %.3Lg "
		                   "(%.0f roundings deep)",
		                   id, st->res.f, st->ref, tol, depth);
	return 0;
}

void lab_simd_thread_free(struct simd_thread *st)
{
	if (!st)
		return;
	for (int i = 0; i < 4; i++)
		lab_buf_free(&st->mem[i]);
	free(st);
}
