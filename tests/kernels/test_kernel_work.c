/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The declared work of the stream, peak and simd loops, checked without any compiler's say: the
 * very loop bodies (kernels/FAMILY_loops.h) are built here over counting macros, one lane wide, so
 * every load, store and arithmetic operation the source performs adds to a counter. Each loop
 * runs at two sizes; the difference per element (or per iteration, for peak) is what the source
 * does per unit, and it must equal what work_per_unit declares. Setup and the horizontal sums
 * after the loop cancel out in the difference. test_disasm then checks the machine code of the
 * real variants against the same declarations.
 */
#include <stdint.h>
#include <string.h>

#include "harness/cpufeat.h"
#include "harness/kernel_api.h"
#include "kernels/peak_impl.h"
#include "kernels/simd_impl.h"
#include "kernels/simd_isa.h"
#include "kernels/stream_impl.h"
#include "tests/kernels/kwork.h"
#include "tests/testlib.h"

static double wk_flops, wk_rd, wk_wr;

static void wk_reset(void)
{
	wk_flops = wk_rd = wk_wr = 0;
}

/* Counting goes through a function call: two loads in one expression (x*y) are then
 * indeterminately sequenced, not unsequenced modifications of one counter. */
static void wk_add(double *counter, double v)
{
	*counter += v;
}

/* One lane; FP is 1 for floating-point element types (integer arithmetic is no flop). */
#define W              1
#define VLD(p)         (wk_add(&wk_rd, sizeof(*(p))), *(p))
#define VST(p, v)      (wk_add(&wk_wr, sizeof(*(p))), *(p) = (v))
#define VADD(x, y)     (wk_add(&wk_flops, FP), (x) + (y))
#define VMUL(x, y)     (wk_add(&wk_flops, FP), (x) * (y))
#define VFMA(x, y, z)  (wk_add(&wk_flops, 2 * FP), (x) * (y) + (z))
#define VSET1(s)       (s)
#define VZERO()        ((TYPE)0)
#define VHSUM(v)       (v)
#define VGATHER(x, ip) (wk_add(&wk_rd, sizeof(*(ip)) + sizeof(*(x))), (x)[*(ip)])
typedef int64_t CT;
#define CZERO() ((CT)0)
#define CACC(c, v, tt)                                                                             \
	do {                                                                                       \
		if ((v) > (tt))                                                                    \
			(c)++;                                                                     \
	} while (0)
#define CHSUM(c) (c)

/* ---- simd ---- */

#define SIMD_PREFIX wk_simd_
#define SIMD_TABLE  wk_simd_table
#define FP          1
#define TYPE        float
#define VT          float
#define SIMD_TNAME  f32
#define RES(o, v)   ((o)->f = (double)(v))
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
#undef FP
#define FP         0
#define TYPE       uint32_t
#define VT         uint32_t
#define SIMD_TNAME i32
#define RES(o, v)  ((o)->i = (int64_t)(uint32_t)(v))
#include "kernels/simd_acc.h"
extern const struct simd_variant wk_simd_table;
#include "kernels/simd_table.h"
#undef TYPE
#undef VT
#undef RES
#undef FP

struct wk_count {
	double flops, rd, wr;
};

static struct wk_count wk_simd_run(simd_fn fn, size_t n)
{
	static double x[256], y[256];
	static int32_t idx[256];
	struct simd_args g = {.x = x, .y = y, .idx = idx, .n = n, .a = 0.5, .t = 0.25};
	union simd_res out;

	for (size_t i = 0; i < n; i++)
		idx[i] = (int32_t)((i * 7) % n);
	wk_reset();
	fn(&g, 1, &out);
	return (struct wk_count){wk_flops, wk_rd, wk_wr};
}

/* Marginal work per unit between two sizes, against the declaration. */
static void wk_check(const char *what, struct wk_count a, struct wk_count b, double units,
                     const struct lab_work *w)
{
	double f = (b.flops - a.flops) / units, r = (b.rd - a.rd) / units,
	       s = (b.wr - a.wr) / units;

	if (f != w->flops || r != w->bytes_read || s != w->bytes_written)
		fprintf(stderr,
		        "%s: the source does %g flops, reads %g and writes %g bytes per unit; "
		        "declared %g, %g, %g\n",
		        what, f, r, s, w->flops, w->bytes_read, w->bytes_written);
	CHECK_NEAR(f, w->flops, 1e-12);
	CHECK_NEAR(r, w->bytes_read, 1e-12);
	CHECK_NEAR(s, w->bytes_written, 1e-12);
}

LAB_TEST(simd_source_does_declared_work)
{
	static const char *const ops[] = {"sum", "dot", "saxpy", "count_if", "gather"};
	static const char *const types[] = {"f32", "f64", "i32"};
	unsigned checked = 0;

	for (int op = 0; op < SIMD_NOPS; op++)
		for (int t = 0; t < SIMD_NTYPES; t++)
			for (int acc = 1; acc <= SIMD_ACC_MAX; acc++) {
				simd_fn fn = wk_simd_table.fn[op][t][acc - 1];
				char kv_op[32], kv_t[32], kv_a[32], what[64];
				struct lab_work w;
				if (!fn)
					continue;
				snprintf(kv_op, sizeof(kv_op), "op=%s", ops[op]);
				snprintf(kv_t, sizeof(kv_t), "type=%s", types[t]);
				snprintf(kv_a, sizeof(kv_a), "accumulators=%d", acc);
				snprintf(what, sizeof(what), "simd %s %s a%d", ops[op], types[t],
				         acc);
				const char *kv[] = {kv_op, kv_t, kv_a, "isa=scalar", NULL};
				REQUIRE(kwork_declared("simd", kv, &w) == 0);
				/* 64 and 128 elements: multiples of every accumulator count's trip,
				 * and sizes 40 + 1 apart too, so the remainder loop counts as well.
				 */
				wk_check(what, wk_simd_run(fn, 64), wk_simd_run(fn, 128), 64, &w);
				wk_check(what, wk_simd_run(fn, 40), wk_simd_run(fn, 41), 1, &w);
				checked++;
			}
	CHECK_EQ_U64(checked, SIMD_NOPS * SIMD_NTYPES * SIMD_ACC_MAX);
}

/* ---- stream ---- */

#undef TYPE
#define FP 1
typedef double VTD;
typedef uint64_t VI;
#undef VT
#define VT VTD
static inline uint64_t wk_bits(const double *p)
{
	uint64_t v;

	wk_add(&wk_rd, sizeof(*p));
	memcpy(&v, p, sizeof(v));
	return v;
}
#define VILD(p)       wk_bits(p)
#define VIZERO()      ((uint64_t)0)
#define VIOR(r, v)    ((r) | (v))
#define VIFOLD(r)     (r)
#define VFENCE()      ((void)0)
#define STREAM_ST     VST
#define STREAM_PREFIX wk_stream_
#define STREAM_SFX
#include "kernels/stream_loops.h"
#undef FP

LAB_TEST(stream_source_does_declared_work)
{
	static const struct {
		const char *op;
		stream_fn fn;
	} ops[] = {{"copy", wk_stream_copy},    {"scale", wk_stream_scale},
	           {"add", wk_stream_add},      {"triad", wk_stream_triad},
	           {"load", wk_stream_load},    {"store", wk_stream_store},
	           {"update", wk_stream_update}};
	static double a[64], b[64], c[64];

	for (size_t i = 0; i < sizeof(ops) / sizeof(*ops); i++) {
		char kv_op[32];
		struct lab_work w;
		struct wk_count n[2];
		snprintf(kv_op, sizeof(kv_op), "op=%s", ops[i].op);
		const char *kv[] = {kv_op, "isa=scalar", "nt=off", NULL};
		REQUIRE(kwork_declared("stream", kv, &w) == 0);
		for (int k = 0; k < 2; k++) {
			wk_reset();
			ops[i].fn(a, b, c, 3.0, k ? 48 : 16, 1);
			n[k] = (struct wk_count){wk_flops, wk_rd, wk_wr};
		}
		wk_check(ops[i].op, n[0], n[1], 32, &w);
	}
}

/* ---- peak ---- */

#define NCH              12
#define NCH_MIX_FMA      10
#define NCH_MIX_ADD      2
#define PK_CAT(a, b, c)  a##b##c
#define PK_NAME(a, b, c) PK_CAT(a, b, c)
#define FP               1
#define TYPE             double
#undef VT
#define VT        double
#define PK_FN(op) PK_NAME(wk_peak_, op, _f64)
#include "kernels/peak_loops.h"
#undef TYPE
#undef VT
#undef PK_FN
#define TYPE      float
#define VT        float
#define PK_FN(op) PK_NAME(wk_peak_, op, _f32)
#include "kernels/peak_loops.h"

LAB_TEST(peak_source_does_declared_work)
{
	static const struct {
		const char *op;
		peak_fn f64, f32;
		unsigned chains;
	} ops[] = {
	    {"fma", wk_peak_fma_f64, wk_peak_fma_f32, NCH},
	    {"add", wk_peak_add_f64, wk_peak_add_f32, NCH},
	    {"mul", wk_peak_mul_f64, wk_peak_mul_f32, NCH},
	    {"fma_add", wk_peak_fma_add_f64, wk_peak_fma_add_f32, NCH_MIX_FMA + NCH_MIX_ADD}};
	static double x[PEAK_XMAX], k[5] = {1e-3, -1e-3, 1.5, 1 / 1.5, 1};
	static float xf[PEAK_XMAX], kf[5] = {1e-3f, -1e-3f, 1.5f, 1 / 1.5f, 1};

	for (size_t i = 0; i < sizeof(ops) / sizeof(*ops); i++) {
		/* The scalar variant's chain counts are the ones stamped here. */
		CHECK_EQ_U64(peak_v_scalar.chains[i], ops[i].chains);
		for (int prec = 0; prec < 2; prec++) {
			char kv_op[32], what[48];
			struct lab_work w;
			struct wk_count n[2];
			snprintf(kv_op, sizeof(kv_op), "op=%s", ops[i].op);
			snprintf(what, sizeof(what), "peak %s %s", ops[i].op, prec ? "f32" : "f64");
			const char *kv[] = {kv_op, "isa=scalar", prec ? "type=f32" : "type=f64",
			                    NULL};
			REQUIRE(kwork_declared("peak", kv, &w) == 0);
			for (int it = 0; it < 2; it++) {
				wk_reset();
				if (prec)
					ops[i].f32(xf, kf, it ? 5 : 2);
				else
					ops[i].f64(x, k, it ? 5 : 2);
				/* peak's work is registers only: the chains' loads and stores
				 * around the loop cancel in the difference. */
				n[it] = (struct wk_count){wk_flops, 0, 0};
			}
			wk_check(what, n[0], n[1], 3, &w);
		}
	}
}

/* ---- the chains carry across passes ---- */

/*
 * Each pass's chains start from the previous pass's last values times zero plus zero: a true
 * dependency, so passes cannot overlap in the out-of-order window. Seen from outside: with an
 * infinity in the data a chain ends the first pass at inf, inf * 0 is NaN, and the second pass's
 * result is NaN; chains that restarted from a fresh zero would give inf again. Checked on the
 * real variants this CPU can run, for every FP reduction and accumulator count.
 */
LAB_TEST(simd_chains_carry_across_passes)
{
	static const struct {
		const struct simd_variant *v;
		unsigned need;
	} isas[] = {{&simd_v_scalar, 0},
	            {&simd_v_auto, 0},
	            {&simd_v_sse2, LAB_CPU_SSE2},
	            {&simd_v_avx2, LAB_CPU_AVX2 | LAB_CPU_FMA},
	            {&simd_v_avx512, LAB_CPU_AVX512}};
	static const int ops[] = {SIMD_SUM, SIMD_DOT, SIMD_GATHER};
	static double xd[256], yd[256];
	static float xf[256], yf[256];
	static int32_t idx[256];
	unsigned have = lab_cpu_detect(), checked = 0;

	for (size_t i = 0; i < 256; i++) {
		xd[i] = yd[i] = 1;
		xf[i] = yf[i] = 1;
		idx[i] = (int32_t)i;
	}
	xd[0] = yd[0] = INFINITY;
	xf[0] = yf[0] = INFINITY;
	for (size_t v = 0; v < sizeof(isas) / sizeof(*isas); v++) {
		if ((have & isas[v].need) != isas[v].need ||
		    (v == 1 && (have & lab_simd_auto_needs) != lab_simd_auto_needs))
			continue;
		for (size_t o = 0; o < sizeof(ops) / sizeof(*ops); o++)
			for (int t = SIMD_F32; t <= SIMD_F64; t++)
				for (int acc = 1; acc <= SIMD_ACC_MAX; acc++) {
					simd_fn fn = isas[v].v->fn[ops[o]][t][acc - 1];
					struct simd_args g = {
					    .x = t == SIMD_F64 ? (void *)xd : (void *)xf,
					    .y = t == SIMD_F64 ? (void *)yd : (void *)yf,
					    .idx = idx,
					    .n = 256};
					union simd_res one, two;
					if (!fn)
						continue;
					fn(&g, 1, &one);
					fn(&g, 2, &two);
					if (!isinf(one.f) || !isnan(two.f))
						fprintf(stderr,
						        "isa %zu op %d type %d a%d: one pass %g, "
						        "two %g "
						        "(want inf, nan)\n",
						        v, ops[o], t, acc, one.f, two.f);
					CHECK(isinf(one.f) && isnan(two.f));
					checked++;
				}
	}
	CHECK(checked >= 2 * 3 * 2 * SIMD_ACC_MAX);
}
