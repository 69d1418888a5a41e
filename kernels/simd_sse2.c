/* SPDX-License-Identifier: GPL-3.0-or-later */
/* simd, isa = sse2: 128-bit SSE2 (no FMA: multiply then add; no gather: lanes loaded one by one; no
 * 32-bit lane multiply, so no i32 dot or saxpy). */
#include "harness/kernel_api.h"
#include "kernels/simd_impl.h"

#if defined(__x86_64__)
#include <immintrin.h>

#define SIMD_PREFIX simd_sse2_
#define SIMD_TABLE  simd_v_sse2
#define CT          __m128i
#define CZERO()     _mm_setzero_si128()

/* Lanes summed in order (the reduction order the tolerance in kernels/simd.c assumes). */
static inline double simd_sse2_hsum_f32(__m128 v)
{
	float l[sizeof(v) / sizeof(float)];
	double s = 0;

	_mm_storeu_ps(l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline double simd_sse2_hsum_f64(__m128d v)
{
	double l[sizeof(v) / sizeof(double)];
	double s = 0;

	_mm_storeu_pd(l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline uint32_t simd_sse2_hsum_i32(__m128i v)
{
	uint32_t l[sizeof(v) / 4], s = 0;

	_mm_storeu_si128((void *)l, v);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline int64_t simd_sse2_count32(__m128i c)
{
	int32_t l[sizeof(c) / 4];
	int64_t s = 0;

	_mm_storeu_si128((void *)l, c);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

static inline int64_t simd_sse2_count64(__m128i c)
{
	int64_t l[sizeof(c) / 8];
	int64_t s = 0;

	_mm_storeu_si128((void *)l, c);
	for (size_t i = 0; i < sizeof(l) / sizeof(l[0]); i++)
		s += l[i];
	return s;
}

#define TYPE           float
#define VT             __m128
#define SIMD_TNAME     f32
#define W              (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)         _mm_loadu_ps(p)
#define VST(p, v)      _mm_storeu_ps((p), (v))
#define VADD(x, y)     _mm_add_ps((x), (y))
#define VSET1(s)       _mm_set1_ps(s)
#define VZERO()        _mm_setzero_ps()
#define RES(o, v)      ((o)->f = (v))
#define VHSUM(v)       simd_sse2_hsum_f32(v)
#define VFMA(x, y, z)  _mm_add_ps(_mm_mul_ps((x), (y)), (z))
#define CACC(c, v, tt) (c) = _mm_sub_epi32((c), _mm_castps_si128(_mm_cmpgt_ps((v), (tt))))
#define CHSUM(c)       simd_sse2_count32(c)
#define VGATHER(x, ip) _mm_set_ps((x)[(ip)[3]], (x)[(ip)[2]], (x)[(ip)[1]], (x)[(ip)[0]])
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

#define TYPE           double
#define VT             __m128d
#define SIMD_TNAME     f64
#define W              (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)         _mm_loadu_pd(p)
#define VST(p, v)      _mm_storeu_pd((p), (v))
#define VADD(x, y)     _mm_add_pd((x), (y))
#define VSET1(s)       _mm_set1_pd(s)
#define VZERO()        _mm_setzero_pd()
#define RES(o, v)      ((o)->f = (v))
#define VHSUM(v)       simd_sse2_hsum_f64(v)
#define VFMA(x, y, z)  _mm_add_pd(_mm_mul_pd((x), (y)), (z))
#define CACC(c, v, tt) (c) = _mm_sub_epi64((c), _mm_castpd_si128(_mm_cmpgt_pd((v), (tt))))
#define CHSUM(c)       simd_sse2_count64(c)
#define VGATHER(x, ip) _mm_set_pd((x)[(ip)[1]], (x)[(ip)[0]])
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
#define VT             __m128i
#define SIMD_TNAME     i32
#define W              (int)(sizeof(VT) / sizeof(TYPE))
#define VLD(p)         _mm_loadu_si128((const void *)(p))
#define VST(p, v)      _mm_storeu_si128((void *)(p), (v))
#define VADD(x, y)     _mm_add_epi32((x), (y))
#define VSET1(s)       _mm_set1_epi32(s)
#define VZERO()        _mm_setzero_si128()
#define RES(o, v)      ((o)->i = (int64_t)(v))
#define VHSUM(v)       simd_sse2_hsum_i32(v)
#define SIMD_NO_MUL    1
#define CACC(c, v, tt) (c) = _mm_sub_epi32((c), _mm_cmpgt_epi32((v), (tt)))
#define CHSUM(c)       simd_sse2_count32(c)
#define VGATHER(x, ip) _mm_set_epi32((x)[(ip)[3]], (x)[(ip)[2]], (x)[(ip)[1]], (x)[(ip)[0]])
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

#define SIMD_I32_NO_MUL 1
#include "kernels/simd_table.h"
#else
const struct simd_variant simd_v_sse2;
#endif
