/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stream's plain-C loops, one lane at a time: compiled twice, as `scalar` (auto-vectorization
 * off) and as `auto` (-O3 for the build machine), so the two differ only in what the compiler
 * did with the same source.
 */
#include <string.h>

#include "harness/kernel_api.h"
#include "kernels/stream_impl.h"

#define W 1
typedef double VT;
typedef uint64_t VI;
#define VLD(p)        (*(p))
#define VST(p, v)     (*(p) = (v))
#define VADD(x, y)    ((x) + (y))
#define VMUL(x, y)    ((x) * (y))
#define VFMA(x, y, z) ((x) * (y) + (z))
#define VSET1(s)      (s)
#define VIZERO()      ((uint64_t)0)
#define VIOR(r, v)    ((r) | (v))
#define VIFOLD(r)     (r)
#define VFENCE()      ((void)0)
#define STREAM_ST     VST
#define STREAM_SFX

/* A double's bits as an integer (__builtin_memcpy: the aliasing-safe way; it compiles to a load
 * even where the kernels' flags turn the memcpy builtin off). */
static inline uint64_t stream_bits(const double *p)
{
	uint64_t v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}
#define VILD(p) stream_bits(p)

#include "kernels/stream_loops.h"

#define ST_T(op) SL_NAME3(STREAM_PREFIX, op, )
const struct stream_variant STREAM_TABLE = {
    .op = {ST_T(copy), ST_T(scale), ST_T(add), ST_T(triad), ST_T(load), ST_T(store), ST_T(update)},
};
