/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The simd loops for one ISA, type and accumulator count ACC, over macros from the includer:
 * TYPE (element), STYPE (what results are summed in), VT (W lanes), VLD/VST (unaligned),
 * VADD, VFMA(x, y, z) = x*y + z, VSET1, VZERO, VHSUM (lanes summed in order), CT/CZERO/
 * CACC(c, x, t)/CHSUM (the count_if counter), VGATHER(base, idx), RES(out, v) and SF(op)
 * naming the function. Every loop keeps ACC independent vector chains; the last full vectors
 * that do not fill ACC go to chain 0. Each pass ends with a compiler barrier so passes cannot
 * be merged.
 */
#define SL_UNROLL _Pragma("GCC unroll 8")

/*
 * The reductions carry their chains across passes: a pass's chain k starts from chain k's last
 * value of the previous pass times zero plus zero. That is +0 for finite data (bit for bit what
 * a fresh zero gives), but a true dependency, so the out-of-order core cannot start a pass's
 * chains before the previous pass's have ended: at L1 sizes a window holds much of a pass, and
 * without it one accumulator ran faster than its add latency allows. The pass's result is summed
 * from copies, off the chains, so the carry costs one operation per chain and pass, not the
 * latency of the final reduction. Integer x*0+0 folds to 0 (and without a lane multiply it is a
 * plain zero): integer chains stay as they were.
 */
#ifdef SIMD_NO_MUL
#define SL_CARRY(v) ((void)(v), VZERO())
#else
#define SL_CARRY(v) VFMA((v), VZERO(), VZERO())
#endif

static void SF(sum)(const struct simd_args *g, uint64_t passes, union simd_res *out)
{
	const TYPE *x = g->x;
	size_t n = g->n;

	VT acc[ACC];

	SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] = VZERO();
	for (uint64_t p = 0; p < passes; p++) {
		size_t i = 0;
		SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] = SL_CARRY(acc[k]);
		for (; i + ACC * W <= n; i += ACC * W)
			SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] =
			    VADD(acc[k], VLD(x + i + k * W));
		for (; i < n; i += W)
			acc[0] = VADD(acc[0], VLD(x + i));
		VT tot = acc[0];
		SL_UNROLL for (int k = 1; k < ACC; k++) tot = VADD(tot, acc[k]);
		RES(out, VHSUM(tot));
		lab_clobber_memory();
	}
}

#ifndef SIMD_NO_MUL
static void SF(dot)(const struct simd_args *g, uint64_t passes, union simd_res *out)
{
	const TYPE *x = g->x, *y = g->y;
	size_t n = g->n;

	VT acc[ACC];

	SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] = VZERO();
	for (uint64_t p = 0; p < passes; p++) {
		size_t i = 0;
		SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] = SL_CARRY(acc[k]);
		for (; i + ACC * W <= n; i += ACC * W)
			SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] =
			    VFMA(VLD(x + i + k * W), VLD(y + i + k * W), acc[k]);
		for (; i < n; i += W)
			acc[0] = VFMA(VLD(x + i), VLD(y + i), acc[0]);
		VT tot = acc[0];
		SL_UNROLL for (int k = 1; k < ACC; k++) tot = VADD(tot, acc[k]);
		RES(out, VHSUM(tot));
		lab_clobber_memory();
	}
}

/* One pass of saxpy. x and y are distinct arrays, and restrict on parameters says so to both
 * compilers (clang honors it on parameters alone): without it clang 14's auto variant at
 * x86-64-v3 checked for overlap, kept its main loop scalar and vectorized only a remainder
 * loop that never ran (march35). */
static inline void SF(saxpy_pass)(const TYPE *restrict x, TYPE *restrict y, size_t n, VT a)
{
	size_t i = 0;

	for (; i + ACC * W <= n; i += ACC * W)
		SL_UNROLL for (int k = 0; k < ACC; k++)
		    VST(y + i + k * W, VFMA(a, VLD(x + i + k * W), VLD(y + i + k * W)));
	for (; i < n; i += W)
		VST(y + i, VFMA(a, VLD(x + i), VLD(y + i)));
}

static void SF(saxpy)(const struct simd_args *g, uint64_t passes, union simd_res *out)
{
	VT a = VSET1((TYPE)g->a);

	for (uint64_t p = 0; p < passes; p++) {
		SF(saxpy_pass)(g->x, g->y, g->n, a);
		lab_clobber_memory();
	}
	out->i = 0;
}
#endif

static void SF(count_if)(const struct simd_args *g, uint64_t passes, union simd_res *out)
{
	const TYPE *x = g->x;
	size_t n = g->n;
	VT t = VSET1((TYPE)g->t);

	for (uint64_t p = 0; p < passes; p++) {
		CT c[ACC];
		size_t i = 0;
		int64_t total = 0;
		SL_UNROLL for (int k = 0; k < ACC; k++) c[k] = CZERO();
		for (; i + ACC * W <= n; i += ACC * W)
			SL_UNROLL for (int k = 0; k < ACC; k++) CACC(c[k], VLD(x + i + k * W), t);
		for (; i < n; i += W)
			CACC(c[0], VLD(x + i), t);
		SL_UNROLL for (int k = 0; k < ACC; k++) total += CHSUM(c[k]);
		out->i = total;
		lab_clobber_memory();
	}
}

static void SF(gather)(const struct simd_args *g, uint64_t passes, union simd_res *out)
{
	const TYPE *x = g->x;
	const int32_t *idx = g->idx;
	size_t n = g->n;

	VT acc[ACC];

	SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] = VZERO();
	for (uint64_t p = 0; p < passes; p++) {
		size_t i = 0;
		SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] = SL_CARRY(acc[k]);
		for (; i + ACC * W <= n; i += ACC * W)
			SL_UNROLL for (int k = 0; k < ACC; k++) acc[k] =
			    VADD(acc[k], VGATHER(x, idx + i + k * W));
		for (; i < n; i += W)
			acc[0] = VADD(acc[0], VGATHER(x, idx + i));
		VT tot = acc[0];
		SL_UNROLL for (int k = 1; k < ACC; k++) tot = VADD(tot, acc[k]);
		RES(out, VHSUM(tot));
		lab_clobber_memory();
	}
}

#undef SL_UNROLL
#undef SL_CARRY
