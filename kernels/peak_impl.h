/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * peak's variants: per ISA (kernels/peak_<isa>.c) and precision, one loop per op. A loop runs
 * `iters` units; a unit is one step on every chain: each chain applies its op twice, once with
 * +a and once with -a (x*m then x/m for mul), so every chain returns to its start value exactly
 * and any number of units has a closed form. Chains start in x[] and end there.
 */
#ifndef LAB_KERNELS_PEAK_IMPL_H
#define LAB_KERNELS_PEAK_IMPL_H

#include <stdint.h>

enum peak_op {
	PEAK_FMA,     /* x = x*1 + a (2 flops per lane) */
	PEAK_ADD,     /* x = x + a */
	PEAK_MUL,     /* x = x * m */
	PEAK_FMA_ADD, /* FMA chains to fill the FMA pipes and add chains beside them */
	PEAK_NOPS,
};

/* x: PEAK_XMAX values, chain j's lane l at x[j*lanes + l]; k: {a, -a, m, 1/m, 1}. */
typedef void (*peak_fn)(void *x, const void *k, uint64_t iters);

#define PEAK_XMAX 512

struct peak_variant {
	peak_fn f64[PEAK_NOPS];
	peak_fn f32[PEAK_NOPS];
	unsigned chains[PEAK_NOPS]; /* independent chains of each op (fma_add: both kinds) */
	unsigned mix_fma;           /* fma_add: its FMA chains (the first ones); the rest add */
	/* 1 when op fma is one fused instruction; 0 when it is a multiply and an add (SSE2, or
	 * plain C built without FMA): fma_add against it then tests no add pipes */
	unsigned fused;
};

extern const struct peak_variant peak_v_scalar, peak_v_auto, peak_v_sse2, peak_v_avx2,
    peak_v_avx512;

#endif
