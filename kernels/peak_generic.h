/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * peak's plain-C chains, one lane each: compiled as `scalar` (vectorizers off, FMA on: scalar
 * vfmadd) and as `auto` (-O3 for the build machine, which may pack chains into vectors).
 */
#include <math.h>

#include "harness/kernel_api.h"
#include "kernels/peak_impl.h"

#define W   1
#define NCH 12
/* fma_add: 10 FMA chains (5-cycle FMAs on 2 pipes need 10) and 2 add chains, as with 16 vector
 * registers (kernels/peak_avx2.c). */
#define NCH_MIX_FMA 10
#define NCH_MIX_ADD 2
#define VLD(p)      (*(p))
#define VST(p, v)   (*(p) = (v))
#define VADD(x, y)  ((x) + (y))
#define VMUL(x, y)  ((x) * (y))
#define VSET1(s)    (s)

#define PK_CAT(a, b, c)  a##b##c
#define PK_NAME(a, b, c) PK_CAT(a, b, c)

/* fma() only where it is one instruction: elsewhere (auto built for x86-64) it is a call of
 * libm's correctly rounded fma, and the loop timed the call. There the op is what the core
 * has, a multiply and an add (not contracted: no FMA instruction to contract to); the chains
 * multiply by 1, exact, so the results are fma()'s. One instruction: math.h says so
 * (FP_FAST_FMA), or the target has FMA (clang never defines FP_FAST_FMA, and contracted the
 * multiply and add into an FMA that .fused then called unfused). */
#if defined(FP_FAST_FMA) || defined(__FMA__)
#define PK_FUSED64        1
#define PK_FMA64(x, y, z) fma((x), (y), (z))
#else
#define PK_FUSED64        0
#define PK_FMA64(x, y, z) ((x) * (y) + (z))
#endif
#if defined(FP_FAST_FMAF) || defined(__FMA__)
#define PK_FMA32(x, y, z) fmaf((x), (y), (z))
#else
#define PK_FMA32(x, y, z) ((x) * (y) + (z))
#endif

#define TYPE          double
#define VT            double
#define VFMA(x, y, z) PK_FMA64(x, y, z)
#define PK_FN(op)     PK_NAME(PEAK_PREFIX, op, _f64)
#include "kernels/peak_loops.h"
#undef TYPE
#undef VT
#undef VFMA
#undef PK_FN

#define TYPE          float
#define VT            float
#define VFMA(x, y, z) PK_FMA32(x, y, z)
#define PK_FN(op)     PK_NAME(PEAK_PREFIX, op, _f32)
#include "kernels/peak_loops.h"

#define PK_F64(op) PK_NAME(PEAK_PREFIX, op, _f64)
#define PK_F32(op) PK_NAME(PEAK_PREFIX, op, _f32)
const struct peak_variant PEAK_TABLE = {
    .f64 = {PK_F64(fma), PK_F64(add), PK_F64(mul), PK_F64(fma_add)},
    .f32 = {PK_F32(fma), PK_F32(add), PK_F32(mul), PK_F32(fma_add)},
    .chains = {NCH, NCH, NCH, NCH_MIX_FMA + NCH_MIX_ADD},
    .mix_fma = NCH_MIX_FMA,
    /* fma is one instruction, else a multiply and an add (above) */
    .fused = PK_FUSED64,
};
