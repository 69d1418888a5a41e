/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The stream loops, written once over vector macros that each kernels/stream_<isa>.c defines:
 * VT (vector of doubles, W lanes), VLD/VST (aligned load/store), VADD, VMUL, VFMA(a, b, c)
 * = a*b + c, VSET1, VI/VILD/VIOR/VIZERO/VIFOLD (integer lanes for the load kernel), and
 * STREAM_ST (the store: temporal or non-temporal) with STREAM_SFX naming the set. Included
 * once per store kind. Each pass ends with a compiler barrier so passes cannot be merged.
 */
#define SL_CAT3(a, b, c)  a##b##c
#define SL_NAME3(a, b, c) SL_CAT3(a, b, c)
#define SL_FN(op)         SL_NAME3(STREAM_PREFIX, op, STREAM_SFX)

#if W == 1
/* Plain C: one element per statement; what happens to it is the compiler's business. */
#define SL_LOOP(body)                                                                              \
	for (uint64_t p_ = 0; p_ < passes; p_++) {                                                 \
		for (size_t j = 0; j < n; j++) {                                                   \
			body;                                                                      \
		}                                                                                  \
		lab_clobber_memory();                                                              \
	}
#else
/* 16 doubles per trip (a constant inner count: fully unrolled into 16/W vector statements). */
#define SL_LOOP(body)                                                                              \
	for (uint64_t p_ = 0; p_ < passes; p_++) {                                                 \
		for (size_t i = 0; i < n; i += 16)                                                 \
			for (size_t k = 0; k < 16; k += W) {                                       \
				size_t j = i + k;                                                  \
				body;                                                              \
			}                                                                          \
		lab_clobber_memory();                                                              \
	}
#endif

static uint64_t SL_FN(copy)(double *restrict a, const double *restrict b, const double *restrict c,
                            double s, size_t n, uint64_t passes)
{
	(void)c;
	(void)s;
	SL_LOOP(STREAM_ST(a + j, VLD(b + j)));
	VFENCE();
	return 0;
}

static uint64_t SL_FN(scale)(double *restrict a, const double *restrict b, const double *restrict c,
                             double s, size_t n, uint64_t passes)
{
	VT vs = VSET1(s);

	(void)c;
	SL_LOOP(STREAM_ST(a + j, VMUL(vs, VLD(b + j))));
	VFENCE();
	return 0;
}

static uint64_t SL_FN(add)(double *restrict a, const double *restrict b, const double *restrict c,
                           double s, size_t n, uint64_t passes)
{
	(void)s;
	SL_LOOP(STREAM_ST(a + j, VADD(VLD(b + j), VLD(c + j))));
	VFENCE();
	return 0;
}

static uint64_t SL_FN(triad)(double *restrict a, const double *restrict b, const double *restrict c,
                             double s, size_t n, uint64_t passes)
{
	VT vs = VSET1(s);

	SL_LOOP(STREAM_ST(a + j, VFMA(vs, VLD(c + j), VLD(b + j))));
	VFENCE();
	return 0;
}

static uint64_t SL_FN(store)(double *restrict a, const double *restrict b, const double *restrict c,
                             double s, size_t n, uint64_t passes)
{
	VT vs = VSET1(s);

	(void)b;
	(void)c;
	SL_LOOP(STREAM_ST(a + j, vs));
	VFENCE();
	return 0;
}

static uint64_t SL_FN(update)(double *restrict a, const double *restrict b,
                              const double *restrict c, double s, size_t n, uint64_t passes)
{
	VT vs = VSET1(s);

	(void)b;
	(void)c;
	SL_LOOP(STREAM_ST(a + j, VMUL(vs, VLD(a + j))));
	VFENCE();
	return 0;
}

#ifndef STREAM_NT_PASS
/* Loads only: OR the bit patterns, an integer op that never limits the load rate. */
static uint64_t SL_FN(load)(double *restrict a, const double *restrict b, const double *restrict c,
                            double s, size_t n, uint64_t passes)
{
	(void)a;
	(void)c;
	(void)s;
#if W == 1
	VI r = VIZERO();

	SL_LOOP(r = VIOR(r, VILD(b + j)));
	return VIFOLD(r);
#else
	/* Independent OR chains, at least four: with one chain (clang 14 kept the source's; gcc
	 * split it) an OR waits for the one before, and the loads cannot issue faster than one per
	 * OR latency, which held a clang build's L1 load ceiling at about half. A trip is 16/W
	 * vectors, or four for AVX-512 (n is a multiple of 16: one 16-element tail at most). */
	enum { SL_TRIP = 4 * W > 16 ? 4 * W : 16, SL_NACC = SL_TRIP / W };
	VI r[SL_NACC];

	for (size_t k = 0; k < SL_NACC; k++)
		r[k] = VIZERO();
	for (uint64_t p_ = 0; p_ < passes; p_++) {
		size_t i = 0;
		for (; i + SL_TRIP <= n; i += SL_TRIP)
			for (size_t k = 0; k < SL_NACC; k++)
				r[k] = VIOR(r[k], VILD(b + i + k * W));
		for (; i < n; i += W)
			r[0] = VIOR(r[0], VILD(b + i));
		lab_clobber_memory();
	}
	for (size_t k = 1; k < SL_NACC; k++)
		r[0] = VIOR(r[0], r[k]);
	return VIFOLD(r[0]);
#endif
}
#endif

#undef SL_LOOP
