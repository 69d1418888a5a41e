/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simd's shared pieces: params, per-thread data, and the data/reference/verify half
 * (kernels/simd_data.c), which simd.c's descriptor and check call. */
#ifndef LAB_KERNELS_SIMD_H
#define LAB_KERNELS_SIMD_H

#include "harness/buffer.h"
#include "harness/kernel_api.h"
#include "kernels/simd_impl.h"

struct simd_params {
	int op;
	int type;
	int isa;
	uint64_t accumulators;
	uint64_t misalign;
	uint64_t size;
};

struct simd_thread {
	struct simd_args args;
	simd_fn fn;
	union simd_res res;    /* the last pass's result */
	uint64_t passes;       /* whole passes since setup */
	struct lab_buf mem[4]; /* the buffers behind x, y, idx and y0 */
	void *y0;              /* saxpy: y before the first pass */
	long double ref;       /* sum, dot, gather: the exact-ish result; count_if: the count */
	long double ref_abs;   /* the sum of |terms|, for the error bound */
};

/* The variant's function for these params, or NULL where it was not built. */
simd_fn lab_simd_fn(const struct simd_params *p);

/* Element size in bytes, and elements per array for p's size. */
unsigned lab_simd_elem(const struct simd_params *p);
size_t lab_simd_elems(const struct simd_params *p);

/* Bytes per element over all arrays: x (and y for dot/saxpy, the index for gather). */
unsigned lab_simd_bytes_per_elem(const struct simd_params *p);

/* thread_setup: allocates and first-touches the thread's arrays, computes the reference. */
int lab_simd_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err);

/* Checks the thread's last result (or saxpy's y) against the reference. 0 or -LAB_EVERIFY. */
int lab_simd_verify_thread(const struct simd_params *p, const struct simd_thread *st, unsigned id,
                           struct lab_err *err);

/* Frees what lab_simd_thread_setup made (NULL is fine). */
void lab_simd_thread_free(struct simd_thread *st);

#endif
