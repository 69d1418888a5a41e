/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream, isa = avx2: 256-bit AVX2 + FMA intrinsics, built with that ISA's flags only. */
#include "harness/kernel_api.h"
#include "kernels/stream_impl.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define STREAM_PREFIX stream_avx2_
#define STREAM_TABLE  stream_v_avx2
#define STREAM_SFX
#define W 4
typedef __m256d VT;
typedef __m256i VI;
#define VLD(p)        _mm256_load_pd(p)
#define VST(p, v)     _mm256_store_pd((p), (v))
#define VSTNT(p, v)   _mm256_stream_pd((p), (v))
#define VADD(x, y)    _mm256_add_pd((x), (y))
#define VMUL(x, y)    _mm256_mul_pd((x), (y))
#define VFMA(x, y, z) _mm256_fmadd_pd((x), (y), (z))
#define VSET1(s)      _mm256_set1_pd(s)
#define VILD(p)       _mm256_load_si256((const VI *)(const void *)(p))
#define VIOR(r, v)    _mm256_or_si256((r), (v))
#define VIZERO()      _mm256_setzero_si256()
#define VIFOLD(r)     stream_fold_avx2(r)
#define VFENCE()      ((void)0)
#define STREAM_ST     VST

static uint64_t stream_fold_avx2(__m256i r)
{
	uint64_t v[4];

	_mm256_storeu_si256((__m256i *)v, r);
	return v[0] | v[1] | v[2] | v[3];
}

#include "kernels/stream_x86.h"
#else
const struct stream_variant stream_v_avx2;
#endif
