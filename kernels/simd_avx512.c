/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simd, isa = avx512: 512-bit AVX-512 (count_if with mask registers, hardware gathers). */
#include "harness/kernel_api.h"
#include "kernels/simd_impl.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define SIMD_PREFIX simd_avx512_
#define SIMD_TABLE  simd_v_avx512
#define CT          __m512i
#define CZERO()     _mm512_setzero_si512()

/* Lanes summed in order (the reduction order the tolerance in kernels/simd.c assumes). */
static inline double simd_avx512_hsum_f32(__m512 v)
{
	float l[sizeof(v) / sizeof(float)];
	double s = 0;

	_mm512_storeu_ps(l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline double simd_avx512_hsum_f64(__m512d v)
{
	double l[sizeof(v) / sizeof(double)];
	double s = 0;

	_mm512_storeu_pd(l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline uint32_t simd_avx512_hsum_i32(__m512i v)
{
	uint32_t l[sizeof(v) / 4], s = 0;

	_mm512_storeu_si512((void *)l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline int64_t simd_avx512_count32(__m512i c)
{
	int32_t l[sizeof(c) / 4];
	int64_t s = 0;

	_mm512_storeu_si512((void *)l, c);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline int64_t simd_avx512_count64(__m512i c)
{
	int64_t l[sizeof(c) / 8];
	int64_t s = 0;

	_mm512_storeu_si512((void *)l, c);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

#define TYPE          float
#define VT            __m512
#define SIMD_TNAME    f32
#define W             (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)        _mm512_loadu_ps(p)
#define VST(p, v)     _mm512_storeu_ps((p), (v))
#define VADD(x, y)    _mm512_add_ps((x), (y))
#define VSET1(s)      _mm512_set1_ps(s)
#define VZERO()       _mm512_setzero_ps()
#define RES(o, v)     ((o)->f = (v))
#define VHSUM(v)      simd_avx512_hsum_f32(v)
#define VFMA(x, y, z) _mm512_fmadd_ps((x), (y), (z))
#define CACC(c, v, tt)                                                                             \
	(c) = _mm512_mask_add_epi32((c), _mm512_cmp_ps_mask((v), (tt), _CMP_GT_OQ), (c),           \
	                            _mm512_set1_epi32(1))
#define CHSUM(c)       simd_avx512_count32(c)
#define VGATHER(x, ip) _mm512_i32gather_ps(_mm512_loadu_si512((const void *)(ip)), (x), 4)
#include "kernels/simd_acc.h"
#undef TYPE
#undef VT
#undef SIMD_TNAME
#undef W
#undef VLD
#undef VST
#undef VADD
#undef VSET1
#undef VZERO
#undef RES
#undef VHSUM
#undef VFMA
#undef CACC
#undef CHSUM
#undef VGATHER
#undef SIMD_NO_MUL

#define TYPE          double
#define VT            __m512d
#define SIMD_TNAME    f64
#define W             (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)        _mm512_loadu_pd(p)
#define VST(p, v)     _mm512_storeu_pd((p), (v))
#define VADD(x, y)    _mm512_add_pd((x), (y))
#define VSET1(s)      _mm512_set1_pd(s)
#define VZERO()       _mm512_setzero_pd()
#define RES(o, v)     ((o)->f = (v))
#define VHSUM(v)      simd_avx512_hsum_f64(v)
#define VFMA(x, y, z) _mm512_fmadd_pd((x), (y), (z))
#define CACC(c, v, tt)                                                                             \
	(c) = _mm512_mask_add_epi64((c), _mm512_cmp_pd_mask((v), (tt), _CMP_GT_OQ), (c),           \
	                            _mm512_set1_epi64(1))
#define CHSUM(c) simd_avx512_count64(c)
#define VGATHER(x, ip)                                                                             \
	_mm512_i32gather_pd(_mm256_loadu_si256((const __m256i *)(const void *)(ip)), (x), 8)
#include "kernels/simd_acc.h"
#undef TYPE
#undef VT
#undef SIMD_TNAME
#undef W
#undef VLD
#undef VST
#undef VADD
#undef VSET1
#undef VZERO
#undef RES
#undef VHSUM
#undef VFMA
#undef CACC
#undef CHSUM
#undef VGATHER
#undef SIMD_NO_MUL

#define TYPE          int32_t
#define VT            __m512i
#define SIMD_TNAME    i32
#define W             (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)        _mm512_loadu_si512((const void *)(p))
#define VST(p, v)     _mm512_storeu_si512((void *)(p), (v))
#define VADD(x, y)    _mm512_add_epi32((x), (y))
#define VSET1(s)      _mm512_set1_epi32(s)
#define VZERO()       _mm512_setzero_si512()
#define RES(o, v)     ((o)->i = (int64_t)(v))
#define VHSUM(v)      simd_avx512_hsum_i32(v)
#define VFMA(x, y, z) _mm512_add_epi32(_mm512_mullo_epi32((x), (y)), (z))
#define CACC(c, v, tt)                                                                             \
	(c) = _mm512_mask_add_epi32((c), _mm512_cmpgt_epi32_mask((v), (tt)), (c),                  \
	                            _mm512_set1_epi32(1))
#define CHSUM(c)       simd_avx512_count32(c)
#define VGATHER(x, ip) _mm512_i32gather_epi32(_mm512_loadu_si512((const void *)(ip)), (x), 4)
#include "kernels/simd_acc.h"
#undef TYPE
#undef VT
#undef SIMD_TNAME
#undef W
#undef VLD
#undef VST
#undef VADD
#undef VSET1
#undef VZERO
#undef RES
#undef VHSUM
#undef VFMA
#undef CACC
#undef CHSUM
#undef VGATHER
#undef SIMD_NO_MUL

#include "kernels/simd_table.h"
#else
const struct simd_variant simd_v_avx512;
#endif
