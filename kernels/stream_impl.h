/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stream's variants: one table of loops per ISA, each loop in a file compiled for that ISA
 * (kernels/stream_<isa>.c). A loop runs `passes` whole passes over n elements (n a multiple of
 * 16, arrays 64-byte aligned), so no variant needs a remainder loop.
 */
#ifndef LAB_KERNELS_STREAM_IMPL_H
#define LAB_KERNELS_STREAM_IMPL_H

#include <stddef.h>
#include <stdint.h>

enum stream_op {
	STREAM_COPY,   /* a = b */
	STREAM_SCALE,  /* a = s*b */
	STREAM_ADD,    /* a = b + c */
	STREAM_TRIAD,  /* a = b + s*c */
	STREAM_LOAD,   /* r |= bits of b (loads only; no flops) */
	STREAM_STORE,  /* a = s */
	STREAM_UPDATE, /* a = s*a */
	STREAM_NOPS,
};

/* Returns the OR of b's bit patterns for STREAM_LOAD, 0 otherwise. */
typedef uint64_t (*stream_fn)(double *a, const double *b, const double *c, double s, size_t n,
                              uint64_t passes);

struct stream_variant {
	stream_fn op[STREAM_NOPS];
	stream_fn op_nt[STREAM_NOPS]; /* non-temporal stores; NULL where the ISA has none */
};

/* NULL members: that ISA was not built (not x86). */
extern const struct stream_variant stream_v_scalar, stream_v_auto, stream_v_sse2, stream_v_avx2,
    stream_v_avx512;

#endif
