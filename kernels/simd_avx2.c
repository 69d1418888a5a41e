/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simd, isa = avx2: 256-bit AVX2 + FMA (hardware gathers). */
#include "harness/kernel_api.h"
#include "kernels/simd_impl.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define SIMD_PREFIX simd_avx2_
#define SIMD_TABLE  simd_v_avx2
#define CT          __m256i
#define CZERO()     _mm256_setzero_si256()

/* Lanes summed in order (the reduction order the tolerance in kernels/simd.c assumes). */
static inline double simd_avx2_hsum_f32(__m256 v)
{
	float l[sizeof(v) / sizeof(float)];
	double s = 0;

	_mm256_storeu_ps(l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline double simd_avx2_hsum_f64(__m256d v)
{
	double l[sizeof(v) / sizeof(double)];
	double s = 0;

	_mm256_storeu_pd(l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline uint32_t simd_avx2_hsum_i32(__m256i v)
{
	uint32_t l[sizeof(v) / 4], s = 0;

	_mm256_storeu_si256((void *)l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline int64_t simd_avx2_count32(__m256i c)
{
	int32_t l[sizeof(c) / 4];
	int64_t s = 0;

	_mm256_storeu_si256((void *)l, c);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline int64_t simd_avx2_count64(__m256i c)
{
	int64_t l[sizeof(c) / 8];
	int64_t s = 0;

	_mm256_storeu_si256((void *)l, c);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

#define TYPE          float
#define VT            __m256
#define SIMD_TNAME    f32
#define W             (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)        _mm256_loadu_ps(p)
#define VST(p, v)     _mm256_storeu_ps((p), (v))
#define VADD(x, y)    _mm256_add_ps((x), (y))
#define VSET1(s)      _mm256_set1_ps(s)
#define VZERO()       _mm256_setzero_ps()
#define RES(o, v)     ((o)->f = (v))
#define VHSUM(v)      simd_avx2_hsum_f32(v)
#define VFMA(x, y, z) _mm256_fmadd_ps((x), (y), (z))
#define CACC(c, v, tt)                                                                             \
	(c) = _mm256_sub_epi32((c), _mm256_castps_si256(_mm256_cmp_ps((v), (tt), _CMP_GT_OQ)))
#define CHSUM(c) simd_avx2_count32(c)
#define VGATHER(x, ip)                                                                             \
	_mm256_i32gather_ps((x), _mm256_loadu_si256((const __m256i *)(const void *)(ip)), 4)
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
#define VT            __m256d
#define SIMD_TNAME    f64
#define W             (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)        _mm256_loadu_pd(p)
#define VST(p, v)     _mm256_storeu_pd((p), (v))
#define VADD(x, y)    _mm256_add_pd((x), (y))
#define VSET1(s)      _mm256_set1_pd(s)
#define VZERO()       _mm256_setzero_pd()
#define RES(o, v)     ((o)->f = (v))
#define VHSUM(v)      simd_avx2_hsum_f64(v)
#define VFMA(x, y, z) _mm256_fmadd_pd((x), (y), (z))
#define CACC(c, v, tt)                                                                             \
	(c) = _mm256_sub_epi64((c), _mm256_castpd_si256(_mm256_cmp_pd((v), (tt), _CMP_GT_OQ)))
#define CHSUM(c) simd_avx2_count64(c)
#define VGATHER(x, ip)                                                                             \
	_mm256_i32gather_pd((x), _mm_loadu_si128((const __m128i *)(const void *)(ip)), 8)
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

#define TYPE           int32_t
#define VT             __m256i
#define SIMD_TNAME     i32
#define W              (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)         _mm256_loadu_si256((const void *)(p))
#define VST(p, v)      _mm256_storeu_si256((void *)(p), (v))
#define VADD(x, y)     _mm256_add_epi32((x), (y))
#define VSET1(s)       _mm256_set1_epi32(s)
#define VZERO()        _mm256_setzero_si256()
#define RES(o, v)      ((o)->i = (int64_t)(v))
#define VHSUM(v)       simd_avx2_hsum_i32(v)
#define VFMA(x, y, z)  _mm256_add_epi32(_mm256_mullo_epi32((x), (y)), (z))
#define CACC(c, v, tt) (c) = _mm256_sub_epi32((c), _mm256_cmpgt_epi32((v), (tt)))
#define CHSUM(c)       simd_avx2_count32(c)
#define VGATHER(x, ip)                                                                             \
	_mm256_i32gather_epi32((x), _mm256_loadu_si256((const __m256i *)(const void *)(ip)), 4)
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
const struct simd_variant simd_v_avx2;
#endif
