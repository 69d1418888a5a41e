/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Stamps kernels/simd_loops.h for 1..8 accumulators of one ISA and type. The includer
 * defines SIMD_PREFIX (simd_avx2_) and SIMD_TNAME (f32, f64, i32).
 */
#ifndef SA_NAME
#define SA_CAT(a, b, c, d)  a##b##_##c##_a##d
#define SA_NAME(a, b, c, d) SA_CAT(a, b, c, d)
#endif
#define SF(op) SA_NAME(SIMD_PREFIX, op, SIMD_TNAME, ACC)

#define ACC 1
#include "kernels/simd_loops.h"
#undef ACC
#define ACC 2
#include "kernels/simd_loops.h"
#undef ACC
#define ACC 3
#include "kernels/simd_loops.h"
#undef ACC
#define ACC 4
#include "kernels/simd_loops.h"
#undef ACC
#define ACC 5
#include "kernels/simd_loops.h"
#undef ACC
#define ACC 6
#include "kernels/simd_loops.h"
#undef ACC
#define ACC 7
#include "kernels/simd_loops.h"
#undef ACC
#define ACC 8
#include "kernels/simd_loops.h"
#undef ACC
#undef SF
