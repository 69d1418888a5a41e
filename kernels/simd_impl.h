/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * simd's variants: per ISA (kernels/simd_<isa>.c), op, element type and number of independent
 * accumulators, one function each, all stamped from kernels/simd_loops.h. A function runs
 * `passes` whole passes over n elements (n a multiple of 16) and leaves the last pass's result
 * in *out. kernels/simd.c picks the function before the timed loop.
 */
#ifndef LAB_KERNELS_SIMD_IMPL_H
#define LAB_KERNELS_SIMD_IMPL_H

#include <stddef.h>
#include <stdint.h>

enum simd_op { SIMD_SUM, SIMD_DOT, SIMD_SAXPY, SIMD_COUNT_IF, SIMD_GATHER, SIMD_NOPS };
enum simd_type { SIMD_F32, SIMD_F64, SIMD_I32, SIMD_NTYPES };

#define SIMD_ACC_MAX 8

struct simd_args {
	const void *x;      /* n elements */
	void *y;            /* n elements: dot reads it, saxpy updates it */
	const int32_t *idx; /* gather: n indices into x */
	size_t n;
	double a; /* saxpy: y = a*x + y */
	double t; /* count_if: count x > t */
};

/* sum, dot and gather of floats in f; integer results (i32 sums wrap mod 2^32, counts) in i. */
union simd_res {
	double f;
	int64_t i;
};

typedef void (*simd_fn)(const struct simd_args *g, uint64_t passes, union simd_res *out);

struct simd_variant {
	simd_fn fn[SIMD_NOPS][SIMD_NTYPES][SIMD_ACC_MAX]; /* [op][type][accumulators - 1] */
};

extern const struct simd_variant simd_v_scalar, simd_v_auto, simd_v_sse2, simd_v_avx2,
    simd_v_avx512;

#endif
