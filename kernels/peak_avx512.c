/* SPDX-License-Identifier: GPL-3.0-or-later */
/* peak, isa = avx512: 512-bit AVX-512, 32 registers intrinsics. */
#include "harness/kernel_api.h"
#include "kernels/peak_impl.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define NCH 24
/* fma_add: 12 FMA chains (5-cycle FMAs on 2 pipes need 10) and 12 add chains: 32 registers. */
#define NCH_MIX_FMA 12
#define NCH_MIX_ADD 12

#define PK_CAT(a, b, c)  a##b##c
#define PK_NAME(a, b, c) PK_CAT(a, b, c)

#define TYPE          double
#define VT            __m512d
#define W             (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)        _mm512_loadu_pd(p)
#define VST(p, v)     _mm512_storeu_pd((p), (v))
#define VADD(x, y)    _mm512_add_pd((x), (y))
#define VMUL(x, y)    _mm512_mul_pd((x), (y))
#define VSET1(s)      _mm512_set1_pd(s)
#define VFMA(x, y, z) _mm512_fmadd_pd((x), (y), (z))
#define PK_FN(op)     PK_NAME(peak_avx512_, op, _f64)
#include "kernels/peak_loops.h"
#undef TYPE
#undef VT
#undef VLD
#undef VST
#undef VADD
#undef VMUL
#undef VSET1
#undef VFMA
#undef PK_FN

#define TYPE          float
#define VT            __m512
#define VLD(p)        _mm512_loadu_ps(p)
#define VST(p, v)     _mm512_storeu_ps((p), (v))
#define VADD(x, y)    _mm512_add_ps((x), (y))
#define VMUL(x, y)    _mm512_mul_ps((x), (y))
#define VSET1(s)      _mm512_set1_ps(s)
#define VFMA(x, y, z) _mm512_fmadd_ps((x), (y), (z))
#define PK_FN(op)     PK_NAME(peak_avx512_, op, _f32)
#include "kernels/peak_loops.h"

#define PK_F64(op) PK_NAME(peak_avx512_, op, _f64)
#define PK_F32(op) PK_NAME(peak_avx512_, op, _f32)
const struct peak_variant peak_v_avx512 = {
    .f64 = {PK_F64(fma), PK_F64(add), PK_F64(mul), PK_F64(fma_add)},
    .f32 = {PK_F32(fma), PK_F32(add), PK_F32(mul), PK_F32(fma_add)},
    .chains = {NCH, NCH, NCH, NCH_MIX_FMA + NCH_MIX_ADD},
    .mix_fma = NCH_MIX_FMA,
    .fused = 1,
};
#else
const struct peak_variant peak_v_avx512;
#endif
