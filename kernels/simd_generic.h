/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * simd's plain-C loops, one element per statement with ACC interleaved scalar accumulators:
 * compiled as `scalar` (vectorizers off) and as `auto` (-O3 for the build machine, strict IEEE
 * arithmetic: a float reduction may not be reordered, so one accumulator stays a serial chain
 * even where GCC reports the loop "vectorized"). count_if is written as the branch it is (gcc
 * may still compile it branch-free: a compare, seta, add).
 */
#include "harness/kernel_api.h"
#include "kernels/simd_impl.h"

#define W              1
#define VLD(p)         (*(p))
#define VST(p, v)      (*(p) = (v))
#define VADD(x, y)     ((x) + (y))
#define VFMA(x, y, z)  ((x) * (y) + (z))
#define VSET1(s)       (s)
#define VZERO()        ((TYPE)0)
#define VHSUM(v)       (v)
#define VGATHER(x, ip) ((x)[*(ip)])
typedef int64_t CT;
#define CZERO() ((CT)0)
#define CACC(c, v, tt)                                                                             \
	do {                                                                                       \
		if ((v) > (tt))                                                                    \
			(c)++;                                                                     \
	} while (0)
#define CHSUM(c) (c)

#define TYPE       float
#define VT         float
#define SIMD_TNAME f32
#define RES(o, v)  ((o)->f = (double)(v))
#include "kernels/simd_acc.h"
#undef TYPE
#undef VT
#undef SIMD_TNAME

#define TYPE       double
#define VT         double
#define SIMD_TNAME f64
#include "kernels/simd_acc.h"
#undef TYPE
#undef VT
#undef SIMD_TNAME
#undef RES

/* i32 arithmetic in uint32_t: wraps mod 2^32 as the vector instructions do (no UB). */
#define TYPE       uint32_t
#define VT         uint32_t
#define SIMD_TNAME i32
#define RES(o, v)  ((o)->i = (int64_t)(uint32_t)(v))
#undef CACC
#define CACC(c, v, tt)                                                                             \
	do {                                                                                       \
		if ((int32_t)(v) > (int32_t)(tt))                                                  \
			(c)++;                                                                     \
	} while (0)
#include "kernels/simd_acc.h"

#include "kernels/simd_table.h"
