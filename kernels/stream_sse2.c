/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream, isa = sse2: 128-bit SSE2 (no FMA: multiply, then add) intrinsics, built with that ISA's
 * flags only. */
#include "harness/kernel_api.h"
#include "kernels/stream_impl.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define STREAM_PREFIX stream_sse2_
#define STREAM_TABLE  stream_v_sse2
#define STREAM_SFX
#define W 2
typedef __m128d VT;
typedef __m128i VI;
#define VLD(p)        _mm_load_pd(p)
#define VST(p, v)     _mm_store_pd((p), (v))
#define VSTNT(p, v)   _mm_stream_pd((p), (v))
#define VADD(x, y)    _mm_add_pd((x), (y))
#define VMUL(x, y)    _mm_mul_pd((x), (y))
#define VFMA(x, y, z) _mm_add_pd(_mm_mul_pd((x), (y)), (z))
#define VSET1(s)      _mm_set1_pd(s)
#define VILD(p)       _mm_load_si128((const VI *)(const void *)(p))
#define VIOR(r, v)    _mm_or_si128((r), (v))
#define VIZERO()      _mm_setzero_si128()
#define VIFOLD(r)     stream_fold_sse2(r)
#define VFENCE()      ((void)0)
#define STREAM_ST     VST

static uint64_t stream_fold_sse2(__m128i r)
{
	uint64_t v[2];

	_mm_storeu_si128((__m128i *)v, r);
	return v[0] | v[1];
}

#include "kernels/stream_x86.h"
#else
const struct stream_variant stream_v_sse2;
#endif
