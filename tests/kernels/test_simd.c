/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * stream, peak and simd through the real runner: every variant verifies (or is skipped with a
 * reason), a CPU feature hidden by LAB_CPU_MASK turns its variants into skips, bad settings are
 * config errors, and verify catches a wrong result. No timings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "harness/cpufeat.h"
#include "harness/cpuid_isa.h"
#include "harness/env.h"
#include "harness/param.h"
#include "kernels/registry.h"
#include "kernels/simd.h"
#include "kernels/simd_isa.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

static const struct lab_kernel *ts_kernel(const char *name)
{
	for (const struct lab_kernel *const *k = lab_kernels; *k; k++)
		if (!strcmp((*k)->name, name))
			return *k;
	return NULL;
}

/* Runs one point; returns its status (LAB_SKIP as -1), and checks verify passed when it ran. */
static int ts_run(const char *kernel, const char *const *kv, unsigned threads)
{
	struct lab_point_rec rec;
	struct kpoint_opts o = {.nthreads = threads, .reps = 2, .min_time_ns = 1000000};
	int rc = kpoint_run(ts_kernel(kernel), kv, &o, &rec);

	if (rc == LAB_SKIP) {
		const char *why = kpoint_skip_reason();
		/* A variant this CPU lacks (auto built for extensions it lacks too) is a part not
		 * tested here (Skipped); a combination that does not exist (nt with plain C) or a
		 * feature the test hides is not. */
		if ((strstr(why, "this CPU has") || strstr(why, "auto was built with -march=")) &&
		    !strstr(why, "LAB_CPU_MASK"))
			SKIP_PART("%s", why);
		return -1;
	}
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
	kpoint_free(&rec);
	return 0;
}

LAB_TEST(stream_every_op_isa_and_nt)
{
	static const char *const ops[] = {"copy", "scale", "add",   "triad",
	                                  "load", "store", "update"};
	static const char *const isas[] = {"scalar", "auto", "sse2", "avx2", "avx512"};
	unsigned ran = 0;

	for (unsigned o = 0; o < 7; o++)
		for (unsigned i = 0; i < 5; i++)
			for (int nt = 0; nt < 2; nt++) {
				char a[32], b[32];
				snprintf(a, sizeof(a), "op=%s", ops[o]);
				snprintf(b, sizeof(b), "isa=%s", isas[i]);
				const char *kv[] = {a, b, nt ? "nt=on" : "nt=off", "size=4KiB",
				                    NULL};
				ran += ts_run("stream", kv, 2) == 0;
			}
	CHECK(ran >= 14); /* scalar and auto run everywhere */
}

LAB_TEST(peak_every_op_isa_precision)
{
	static const char *const ops[] = {"fma", "add", "mul", "fma_add"};
	static const char *const isas[] = {"scalar", "auto", "sse2", "avx2", "avx512"};
	unsigned ran = 0;

	for (unsigned o = 0; o < 4; o++)
		for (unsigned i = 0; i < 5; i++)
			for (int f = 0; f < 2; f++) {
				char a[32], b[32];
				snprintf(a, sizeof(a), "op=%s", ops[o]);
				snprintf(b, sizeof(b), "isa=%s", isas[i]);
				const char *kv[] = {a, b, f ? "type=f32" : "type=f64", NULL};
				ran += ts_run("peak", kv, 1) == 0;
			}
	CHECK(ran >= 8);
}

/* With FMA hidden, sse2's fma and fma_add (a multiply and an add) still run and verify; avx2's
 * are skipped (it asked FMA of sse2 too, so ch19 lost its sse2 ceiling on CPUs without FMA). */
LAB_TEST(peak_sse2_needs_no_fma)
{
#if !defined(__x86_64__)
	SKIP("sse2 and avx2 are x86-64 variants");
#endif
	setenv(LAB_CPU_MASK_ENV, "fma", 1);
	CHECK_EQ_I64(ts_run("peak", (const char *const[]){"op=fma", "isa=sse2", NULL}, 1), 0);
	CHECK_EQ_I64(ts_run("peak", (const char *const[]){"op=fma_add", "isa=sse2", NULL}, 1), 0);
	CHECK_EQ_I64(ts_run("peak", (const char *const[]){"op=fma", "isa=avx2", NULL}, 1), -1);
	CHECK(strstr(kpoint_skip_reason(), "needs fma") != NULL);
	unsetenv(LAB_CPU_MASK_ENV);
}

/* Every op x type x ISA at 1, 3 and 8 accumulators, an odd size and a misaligned start. */
LAB_TEST(simd_every_variant)
{
	static const char *const ops[] = {"sum", "dot", "saxpy", "count_if", "gather"};
	static const char *const types[] = {"f32", "f64", "i32"};
	static const char *const isas[] = {"scalar", "auto", "sse2", "avx2", "avx512"};
	static const char *const accs[] = {"accumulators=1", "accumulators=3", "accumulators=8"};
	unsigned ran = 0;

	for (unsigned o = 0; o < 5; o++)
		for (unsigned t = 0; t < 3; t++)
			for (unsigned i = 0; i < 5; i++)
				for (unsigned a = 0; a < 3; a++) {
					char ko[32], kt[32], ki[32];
					snprintf(ko, sizeof(ko), "op=%s", ops[o]);
					snprintf(kt, sizeof(kt), "type=%s", types[t]);
					snprintf(ki, sizeof(ki), "isa=%s", isas[i]);
					const char *kv[] = {
					    ko,          kt,
					    ki,          accs[a],
					    "size=3000", t == 1 ? "misalign=8" : "misalign=4",
					    NULL};
					ran += ts_run("simd", kv, 1) == 0;
				}
	CHECK(ran >= 90);
}

/* Which simd points may set a bandwidth ceiling (work_per_unit.bandwidth_bound): vector loops
 * of 4+ chains and saxpy; never scalar, nor auto's float sum and dot, which the compiler may
 * add lane by lane in order (gcc 12's AVX-512 code did: its "read-only loads" ran at a quarter
 * of the AVX2 sum's), nor count_if or gather. */
static int ts_bandwidth_bound(const char *op, const char *type, const char *isa, const char *acc)
{
	const struct lab_kernel *k = ts_kernel("simd");
	const char *kv[] = {op, type, isa, acc};
	struct lab_err err = {0};
	struct lab_work w = {0};
	void *kp = calloc(1, k->params_size);

	int ok = kp && lab_param_defaults(k->params, kp, &err) == 0;
	for (unsigned i = 0; ok && i < 4; i++) {
		char key[32];
		const char *eq = strchr(kv[i], '=');
		snprintf(key, sizeof(key), "%.*s", (int)(eq - kv[i]), kv[i]);
		ok = lab_param_parse(lab_param_find(k->params, key), eq + 1, kp, &err) == 0;
	}
	CHECK(ok);
	if (ok)
		k->work_per_unit(kp, &w);
	free(kp);
	return w.bandwidth_bound;
}

LAB_TEST(simd_bandwidth_bound_points)
{
	CHECK(ts_bandwidth_bound("op=sum", "type=f64", "isa=avx2", "accumulators=4"));
	CHECK(ts_bandwidth_bound("op=saxpy", "type=f64", "isa=auto", "accumulators=1"));
	CHECK(ts_bandwidth_bound("op=sum", "type=i32", "isa=auto", "accumulators=4"));
	CHECK(!ts_bandwidth_bound("op=sum", "type=f64", "isa=auto", "accumulators=4"));
	CHECK(!ts_bandwidth_bound("op=dot", "type=f32", "isa=auto", "accumulators=8"));
	CHECK(!ts_bandwidth_bound("op=sum", "type=f64", "isa=scalar", "accumulators=8"));
	CHECK(!ts_bandwidth_bound("op=sum", "type=f64", "isa=avx512", "accumulators=3"));
	CHECK(!ts_bandwidth_bound("op=gather", "type=f32", "isa=avx2", "accumulators=4"));
}

/* LAB_CPU_MASK hides a feature: its variants are skipped, the others still run. */
LAB_TEST(cpu_mask_skips_variants)
{
	const struct lab_kernel *k = ts_kernel("simd");
	struct simd_params p = {
	    .op = SIMD_SUM, .type = SIMD_F64, .isa = LAB_ISA_AVX2, .accumulators = 4, .size = 4096};
	struct lab_env env;
	struct lab_err err = {0};

	REQUIRE(setenv(LAB_CPU_MASK_ENV, "avx2", 1) == 0);
	REQUIRE(lab_env_probe(&env, NULL, &err) == 0);
	CHECK_EQ_I64(k->check(&p, 1, &env, &err), LAB_SKIP);
	CHECK(strstr(err.msg, "avx2") != NULL);
	p.isa = LAB_ISA_AVX512; /* built on avx2: hidden with it */
	CHECK_EQ_I64(k->check(&p, 1, &env, &err), LAB_SKIP);
	p.isa = LAB_ISA_SCALAR;
	CHECK_EQ_I64(k->check(&p, 1, &env, &err), 0);
	/* auto needs what its -march (LAB_AUTO_MARCH) let the compiler use, and says so. */
	p.isa = LAB_ISA_AUTO;
	if (lab_simd_auto_needs & LAB_CPU_AVX2) {
		CHECK_EQ_I64(k->check(&p, 1, &env, &err), LAB_SKIP);
		CHECK(strstr(err.msg, "auto was built with -march=") != NULL);
	} else {
		CHECK_EQ_I64(k->check(&p, 1, &env, &err), 0);
	}
	const char *kv[] = {"isa=avx2", "op=triad", NULL};
	CHECK_EQ_I64(ts_run("stream", kv, 1), -1);
	const char *kv2[] = {"isa=avx512", "op=fma", NULL};
	CHECK_EQ_I64(ts_run("peak", kv2, 1), -1);
	REQUIRE(setenv(LAB_CPU_MASK_ENV, "sse2", 1) == 0);
	REQUIRE(lab_env_probe(&env, NULL, &err) == 0);
	p.isa = LAB_ISA_SSE2;
	CHECK_EQ_I64(k->check(&p, 1, &env, &err), LAB_SKIP);
	unsetenv(LAB_CPU_MASK_ENV);
}

/* auto's extensions by name, each read by cpuid: on the machine that built it for native, the
 * CPU has every one (a wrong bit in harness/cpuid_isa.c would skip auto where it runs). */
LAB_TEST(auto_extensions_read_by_cpuid)
{
	char lacks[512];
	size_t n = 0;

	for (const char *const *e = lab_simd_auto_isa; *e; e++)
		n++;
	fprintf(stderr, "auto (-march=%s): %zu extensions\n", LAB_AUTO_MARCH, n);
	if (getenv(LAB_CPU_MASK_ENV))
		SKIP("%s hides extensions from the check", LAB_CPU_MASK_ENV);
	if (strcmp(LAB_AUTO_MARCH, "native")) /* it passed here without a word */
		SKIP("auto built for -march=%s, not this machine: whether this CPU has its "
		     "extensions is not known to the test",
		     LAB_AUTO_MARCH);
	CHECK_EQ_U64(lab_cpuid_isa_missing(lab_simd_auto_isa, lacks, sizeof(lacks)), 0);
	if (lacks[0])
		fprintf(stderr, "lacks: %s\n", lacks);
}

LAB_TEST(bad_settings_are_config_errors)
{
	struct lab_env env = {.thissystem = true, .ncpus = 1};
	struct lab_err err = {0};
	struct simd_params p = {.op = SIMD_SUM,
	                        .type = SIMD_F64,
	                        .isa = LAB_ISA_SCALAR,
	                        .accumulators = 1,
	                        .misalign = 4,
	                        .size = 4096};

	CHECK_EQ_I64(ts_kernel("simd")->check(&p, 1, &env, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "misalign = 4") != NULL);
	p.misalign = 0;
	p.size = 16;
	CHECK_EQ_I64(ts_kernel("simd")->check(&p, 1, &env, &err), -LAB_ECONFIG);
	/* nt with plain C: a skip, so a sweep over isa x nt still runs the rest. */
	const char *kv[] = {"isa=scalar", "nt=on", NULL};
	CHECK_EQ_I64(ts_run("stream", kv, 1), -1);
}

/* A wrong result is caught: flip one element of x after the run. */
LAB_TEST(simd_verify_catches_a_wrong_sum)
{
	const struct lab_kernel *k = ts_kernel("simd");
	struct simd_params p = {.op = SIMD_SUM,
	                        .type = SIMD_F64,
	                        .isa = LAB_ISA_SCALAR,
	                        .accumulators = 2,
	                        .size = 4096};
	struct lab_env env = {.thissystem = true, .ncpus = 1};
	struct lab_ctx ctx = {.params = &p, .nthreads = 1, .env = &env, .seed = 1};
	struct lab_thread *t = aligned_alloc(LAB_SLOT, sizeof(*t));
	struct lab_err err = {0};
	atomic_int stop = 0;

	REQUIRE(t);
	memset(t, 0, sizeof(*t));
	t->stop = &stop;
	REQUIRE(k->thread_setup(&ctx, t, &err) == 0);
	t->iters = 1;
	k->run(&ctx, t);
	CHECK_EQ_I64(k->verify(&ctx, &t, 1, &err), 0);
	struct simd_thread *st = t->priv;
	((double *)st->args.x)[7] += 1.0;
	k->run(&ctx, t);
	CHECK_EQ_I64(k->verify(&ctx, &t, 1, &err), -LAB_EVERIFY);
	k->teardown(&ctx, &t, 1);
	free(t);
}
