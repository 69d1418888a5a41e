/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The peak loops over vector macros from kernels/peak_<isa>.c: VT (W lanes of TYPE), VLD/VST
 * (unaligned), VADD, VMUL, VFMA(x, y, z) = x*y + z, VSET1; NCH chains per op (for fma_add,
 * NCH_MIX_FMA FMA chains then NCH_MIX_ADD add chains) and PK_FN(op) naming the function.
 * Chains live in registers: NCH is chosen per ISA to fill the register file without spilling.
 */
/* Fully unrolled, so c[] becomes registers (a chain in memory would add store-load latency). */
#define PK_UNROLL _Pragma("GCC unroll 32")
#define PK_LOOP(init, step, fin)                                                                   \
	{                                                                                          \
		VT c[PK_N];                                                                        \
		PK_UNROLL for (int j = 0; j < PK_N; j++) c[j] = VLD(xs + j * W);                   \
		init;                                                                              \
		for (uint64_t it = 0; it < iters; it++) {                                          \
			PK_UNROLL for (int j = 0; j < PK_N; j++)                                   \
			{                                                                          \
				step;                                                              \
			}                                                                          \
		}                                                                                  \
		fin;                                                                               \
		PK_UNROLL for (int j = 0; j < PK_N; j++) VST(xs + j * W, c[j]);                    \
	}

#define PK_N NCH
static void PK_FN(fma)(void *x, const void *k, uint64_t iters)
{
	TYPE *xs = x;
	const TYPE *ks = k;
	VT a = VSET1(ks[0]), na = VSET1(ks[1]), one = VSET1(ks[4]);

	PK_LOOP((void)0, c[j] = VFMA(c[j], one, a); c[j] = VFMA(c[j], one, na), (void)0)
}

static void PK_FN(add)(void *x, const void *k, uint64_t iters)
{
	TYPE *xs = x;
	const TYPE *ks = k;
	VT a = VSET1(ks[0]), na = VSET1(ks[1]);

	PK_LOOP((void)0, c[j] = VADD(c[j], a); c[j] = VADD(c[j], na), (void)0)
}

static void PK_FN(mul)(void *x, const void *k, uint64_t iters)
{
	TYPE *xs = x;
	const TYPE *ks = k;
	VT m = VSET1(ks[2]), im = VSET1(ks[3]);

	PK_LOOP((void)0, c[j] = VMUL(c[j], m); c[j] = VMUL(c[j], im), (void)0)
}
#undef PK_N

/* The first NCH_MIX_FMA chains take FMAs, the next NCH_MIX_ADD adds: FMA and add pipes busy
 * at once. */
#define PK_N (NCH_MIX_FMA + NCH_MIX_ADD)
static void PK_FN(fma_add)(void *x, const void *k, uint64_t iters)
{
	TYPE *xs = x;
	const TYPE *ks = k;
	VT a = VSET1(ks[0]), na = VSET1(ks[1]), one = VSET1(ks[4]);

	PK_LOOP((void)0,
	        if (j < NCH_MIX_FMA) {
		        c[j] = VFMA(c[j], one, a);
		        c[j] = VFMA(c[j], one, na);
	        } else {
		        c[j] = VADD(c[j], a);
		        c[j] = VADD(c[j], na);
	        },
	        (void)0)
}
#undef PK_N
