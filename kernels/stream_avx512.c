/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream, isa = avx512: 512-bit AVX-512 intrinsics, built with that ISA's flags only. */
#include "harness/kernel_api.h"
#include "kernels/stream_impl.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define STREAM_PREFIX stream_avx512_
#define STREAM_TABLE  stream_v_avx512
#define STREAM_SFX
#define W 8
typedef __m512d VT;
typedef __m512i VI;
#define VLD(p)        _mm512_load_pd(p)
#define VST(p, v)     _mm512_store_pd((p), (v))
#define VSTNT(p, v)   _mm512_stream_pd((p), (v))
#define VADD(x, y)    _mm512_add_pd((x), (y))
#define VMUL(x, y)    _mm512_mul_pd((x), (y))
#define VFMA(x, y, z) _mm512_fmadd_pd((x), (y), (z))
#define VSET1(s)      _mm512_set1_pd(s)
#define VILD(p)       _mm512_load_si512((const VI *)(const void *)(p))
#define VIOR(r, v)    _mm512_or_si512((r), (v))
#define VIZERO()      _mm512_setzero_si512()
#define VIFOLD(r)     stream_fold_avx512(r)
#define VFENCE()      ((void)0)
#define STREAM_ST     VST

static uint64_t stream_fold_avx512(__m512i r)
{
	uint64_t v[8], o = 0;

	_mm512_storeu_si512(v, r);
	for (int i = 0; i < 8; i++)
		o |= v[i];
	return o;
}

#include "kernels/stream_x86.h"
#else
const struct stream_variant stream_v_avx512;
#endif
