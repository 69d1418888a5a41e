/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Per-file ISA flags (cmake lab_kernel_file) and the ISA skip path, with a test-only kernel whose
 * variants live in isa_scalar.c, isa_avx2.c and isa_avx512.c: a variant runs and verifies where
 * the CPU has its ISA and is skipped with the reason where it does not, or where LAB_CPU_MASK
 * hides it (so the skip path is exercised on any CPU). The AVX code is only ever called after
 * check() found the feature.
 */
#include "harness/buffer.h"
#include "harness/cpufeat.h"
#include "harness/cpuid_isa.h"
#include "harness/env.h"
#include "tests/kernels/isa_dot.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

/* This file is baseline code: the per-file flags of the variant files must not leak here. */
static const unsigned id_file_features = ISA_FILE_FEATURES;

enum id_isa { ID_SCALAR, ID_AVX2, ID_AVX512 };

struct id_params {
	int isa;
	uint64_t n;
};

static const struct lab_enum_val id_isas[] = {
    {"scalar", ID_SCALAR, "plain C, auto-vectorization off"},
    {"avx2", ID_AVX2, "AVX2 + FMA intrinsics"},
    {"avx512", ID_AVX512, "AVX-512 intrinsics"},
    {NULL, 0, NULL},
};

static const struct lab_param id_table[] = {
    LAB_P_ENUM(struct id_params, isa, "isa", "scalar", id_isas, "The variant."),
    LAB_P_U64(struct id_params, n, "n", "1024", 8, 1u << 20, "doubles",
              "Vector length, a multiple of 8."),
    LAB_PARAM_END,
};

static const unsigned id_needs[] = {
    [ID_SCALAR] = 0,
    [ID_AVX2] = LAB_CPU_AVX2 | LAB_CPU_FMA,
    [ID_AVX512] = LAB_CPU_AVX512,
};

typedef double (*id_fn)(const double *, const double *, size_t);
static const id_fn id_fns[] = {isa_dot_scalar, isa_dot_avx2, isa_dot_avx512};

struct id_thread {
	struct lab_buf buf; /* a then b, first touched by this thread */
	double got;
};

static int id_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct id_params *p = params;

	(void)nthreads;
	if (p->n % 8)
		return lab_err_set(err, LAB_ECONFIG, "n = %llu: not a multiple of 8",
		                   (unsigned long long)p->n);
	return lab_env_require_cpu(env, id_needs[p->isa], err);
}

static int id_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct id_params *p = ctx->params;
	struct id_thread *it = lab_buf_obj_alloc(sizeof(*it), err);

	if (!it)
		return -err->code;
	t->priv = it;
	if (lab_buf_alloc(&it->buf, 2 * p->n * sizeof(double), NULL, err) != 0)
		return -err->code;
	double *a = it->buf.p, *b = a + p->n;
	for (uint64_t i = 0; i < p->n; i++) {
		a[i] = (double)(i % 7);
		b[i] = (double)(i % 5) - 2;
	}
	return 0;
}

static void id_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct id_params *p = ctx->params;
	struct id_thread *it = t->priv;
	const double *a = it->buf.p;
	id_fn fn = id_fns[p->isa];

	for (uint64_t i = 0; i < t->iters; i++) {
		it->got = fn(a, a + p->n, p->n);
		lab_clobber_memory();
	}
}

/* Small integers: every summation order gives the exact scalar value. */
static int id_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	const struct id_params *p = ctx->params;

	for (unsigned i = 0; i < n; i++) {
		const struct id_thread *it = threads[i]->priv;
		const double *a = it->buf.p;
		double want = isa_dot_scalar(a, a + p->n, p->n);
		if (it->got != want)
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u: %s dot %.17g, scalar %.17g", i,
			                   id_isas[p->isa].name, it->got, want);
	}
	return 0;
}

static void id_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++) {
		struct id_thread *it = threads[i]->priv;
		if (it)
			lab_buf_free(&it->buf);
		lab_buf_obj_free(it);
	}
}

static const struct lab_metric id_metrics[] = {LAB_METRIC_END};

static const struct lab_kernel id_kernel = {
    .abi = LAB_KERNEL_ABI,
    .name = "isa_dot",
    .summary = "test: a dot product per ISA",
    .description = "test",
    .params = id_table,
    .params_size = sizeof(struct id_params),
    .metrics = id_metrics,
    .work_unit = "dot",
    .check = id_check,
    .thread_setup = id_thread_setup,
    .run = id_run,
    .verify = id_verify,
    .teardown = id_teardown,
};

/* Runs isa; it must verify where the CPU (less the mask) has the ISA, else be skipped. */
static void id_expect(const char *isa, int kind)
{
	char kv_isa[32];
	const char *kv[] = {kv_isa, NULL};
	struct kpoint_opts o = {.nthreads = 1, .reps = 2, .min_time_ns = 1000000};
	struct lab_point_rec rec;
	struct lab_env env;
	struct lab_err err = {0};

	lab_env_probe(&env, NULL, &err); /* the features kpoint_run's check will see */
	bool can = (id_needs[kind] & ~env.cpu_features) == 0;
	snprintf(kv_isa, sizeof(kv_isa), "isa=%s", isa);
	int rc = kpoint_run(&id_kernel, kv, &o, &rec);
	fprintf(stderr, "%s: %s\n", isa, can ? "this CPU has it: must run" : "must be skipped");
	if (!can) {
		CHECK_EQ_I64(rc, LAB_SKIP);
		return;
	}
	CHECK_EQ_I64(rc, 0);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
	kpoint_free(&rec);
}

LAB_TEST(variants_run_or_skip)
{
	/* No more than the build's own flags give (none in a default build): */
	CHECK_EQ_U64(id_file_features, isa_base_features);
	/* scalar is baseline code whatever those flags are (CFLAGS=-march=x86-64-v4 made clang's
	 * scalar dot FMA chains), so its cost is the same baseline in every build: */
#if defined(__x86_64__)
	CHECK_EQ_U64(isa_scalar_features, 0);
#else
	CHECK_EQ_U64(isa_scalar_features, isa_base_features);
#endif
	id_expect("scalar", ID_SCALAR);
	id_expect("avx2", ID_AVX2);
	id_expect("avx512", ID_AVX512);
}

/* With AVX2 hidden, both vector variants skip on any CPU, and the reason says why. */
LAB_TEST(mask_hides_isa)
{
	struct lab_env env;
	struct lab_err err = {0};
	struct id_params p = {.isa = ID_AVX512, .n = 64};

	setenv(LAB_CPU_MASK_ENV, "avx2", 1);
	id_expect("scalar", ID_SCALAR);
	id_expect("avx2", ID_AVX2);
	id_expect("avx512", ID_AVX512);
	REQUIRE(lab_env_probe(&env, NULL, &err) == 0);
	CHECK_EQ_I64(lab_kernel_check(&id_kernel, &p, 1, &env, &err), LAB_SKIP);
	fprintf(stderr, "reason: %s\n", err.msg);
	CHECK(strstr(err.msg, "needs ") == err.msg);
	CHECK(strstr(err.msg, "avx2") != NULL);
	CHECK(strstr(err.msg, "; this CPU has ") != NULL);
	if (lab_cpu_detect() & LAB_CPU_AVX512F)
		CHECK(strstr(err.msg, "hidden by LAB_CPU_MASK)") != NULL);
	unsetenv(LAB_CPU_MASK_ENV);
}

/* cpuid_isa.c (every extension by name, for the build's guard and auto's check) says what
 * cpufeat.c says of the twelve both know, knows nothing it has no entry for, and lists what is
 * missing by name. */
LAB_TEST(cpuid_by_name_agrees_with_cpufeat)
{
	unsigned have = lab_cpu_detect();
	char buf[64];

	for (unsigned bit = 1; bit & LAB_CPU_ALL; bit <<= 1)
		CHECK_EQ_I64(lab_cpuid_isa_has(lab_cpu_name(bit)), !!(have & bit));
	CHECK_EQ_I64(lab_cpuid_isa_has("no-such-extension"), 0);
#if defined(__x86_64__)
	CHECK_EQ_I64(lab_cpuid_isa_has("sse2"), 1);
#endif
	CHECK_EQ_U64(
	    lab_cpuid_isa_missing((const char *const[]){"no-such", "x2", NULL}, buf, sizeof(buf)),
	    2);
	CHECK_EQ_STR(buf, "no-such x2");
	CHECK_EQ_U64(lab_cpuid_isa_missing((const char *const[]){NULL}, buf, sizeof(buf)), 0);
	CHECK_EQ_STR(buf, "");
	/* run.json's host.cpu_features.extensions: every one it has, each one it says it has;
	 * cpufeat.h's twelve among them where detected (avx46) */
	const char *ext[96];
	size_t n = lab_cpuid_isa_present(ext, 96);

	REQUIRE(n <= 96);
	for (size_t i = 0; i < n; i++)
		CHECK_EQ_I64(lab_cpuid_isa_has(ext[i]), 1);
	for (unsigned bit = 1; bit & LAB_CPU_ALL; bit <<= 1) {
		size_t k = 0;

		while (k < n && strcmp(ext[k], lab_cpu_name(bit)))
			k++;
		CHECK_EQ_I64(k < n, !!(have & bit));
	}
	CHECK_EQ_U64(lab_cpuid_isa_present(ext, 1), n); /* counted past max */
}
