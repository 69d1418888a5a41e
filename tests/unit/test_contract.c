/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The kernel contract the harness keeps: LAB_KF_NUMA and LAB_KF_OPENMP skip with their reason
 * before a kernel's check runs, CPU features a kernel declares (or asks for in check) skip when
 * missing, LAB_CPU_MASK hides features, and a skipped point is recorded while the others still
 * run. The machine facts are injected through struct lab_env or a synthetic topology, so the
 * outcome does not depend on this machine.
 */
#include <math.h>

#include "harness/env.h"
#include "harness/plan.h"
#include "harness/runner.h"
#include "tests/testlib.h"

static int ct_check_calls;

static int ct_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	(void)params;
	(void)nthreads;
	(void)env;
	(void)err;
	ct_check_calls++;
	return 0;
}

static void ct_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	(void)ctx;
	for (uint64_t i = 0; i < t->iters; i++)
		lab_do_not_optimize(i);
}

static const struct lab_param ct_no_params[] = {LAB_PARAM_END};

/* Test-only descriptors: one per contract item, never in the production registry. */
#define CT_KERNEL(name_, flags_, feats_)                                                           \
	{                                                                                          \
		.abi = LAB_KERNEL_ABI, .name = name_, .summary = "test", .description = "test",    \
		.flags = flags_, .cpu_features = feats_, .params = ct_no_params,                   \
		.work_unit = "unit", .check = ct_check, .run = ct_run,                             \
	}

static const struct lab_kernel ct_numa = CT_KERNEL("ct_numa", LAB_KF_NUMA, 0);
static const struct lab_kernel ct_omp = CT_KERNEL("ct_omp", LAB_KF_OPENMP, 0);
static const struct lab_kernel ct_avx512 = CT_KERNEL("ct_avx512", 0, LAB_CPU_AVX512F);
static const struct lab_kernel ct_plain = CT_KERNEL("ct_plain", 0, 0);

static struct lab_env ct_env(void)
{
	return (struct lab_env){.ncpus = 2,
	                        .numa_nodes = 1,
	                        .openmp = true,
	                        .thissystem = true,
	                        .cpu_features =
	                            LAB_CPU_SSE2 | LAB_CPU_AVX | LAB_CPU_AVX2 | LAB_CPU_FMA};
}

LAB_TEST(numa_flag_skips_on_one_node)
{
	struct lab_env env = ct_env();
	struct lab_err err = {0};

	ct_check_calls = 0;
	CHECK_EQ_I64(lab_kernel_check(&ct_numa, NULL, 1, &env, &err), LAB_SKIP);
	CHECK_EQ_STR(err.msg, "needs 2 or more NUMA nodes; this machine has 1");
	CHECK_EQ_I64(ct_check_calls, 0);
	env.numa_nodes = 2;
	CHECK_EQ_I64(lab_kernel_check(&ct_numa, NULL, 1, &env, &err), 0);
	CHECK_EQ_I64(ct_check_calls, 1);
}

LAB_TEST(openmp_flag_skips_without_openmp)
{
	struct lab_env env = ct_env();
	struct lab_err err = {0};

	ct_check_calls = 0;
	env.openmp = false;
	CHECK_EQ_I64(lab_kernel_check(&ct_omp, NULL, 2, &env, &err), LAB_SKIP);
	CHECK(strstr(err.msg, "needs OpenMP; this lab was built without it") == err.msg);
	CHECK_EQ_I64(ct_check_calls, 0);
	env.openmp = true;
	CHECK_EQ_I64(lab_kernel_check(&ct_omp, NULL, 2, &env, &err), 0);
	CHECK_EQ_I64(ct_check_calls, 1);
}

LAB_TEST(cpu_feature_skips_with_reason)
{
	struct lab_env env = ct_env();
	struct lab_err err = {0};

	CHECK_EQ_I64(lab_kernel_check(&ct_avx512, NULL, 1, &env, &err), LAB_SKIP);
	CHECK_EQ_STR(err.msg, "needs avx512f; this CPU has sse2 avx avx2 fma");
	/* Hidden, not absent: the reason says so, so nobody hunts for a missing feature. */
	env.cpu_features_masked = LAB_CPU_AVX512F | LAB_CPU_AVX512BW;
	CHECK_EQ_I64(lab_env_require_cpu(&env, LAB_CPU_AVX512F, &err), LAB_SKIP);
	CHECK_EQ_STR(
	    err.msg,
	    "needs avx512f; this CPU has sse2 avx avx2 fma (avx512f hidden by LAB_CPU_MASK)");
	env.cpu_features |= LAB_CPU_AVX512F;
	CHECK_EQ_I64(lab_kernel_check(&ct_avx512, NULL, 1, &env, &err), 0);
	CHECK_EQ_I64(lab_env_require_cpu(&env, 0, &err), 0);
}

LAB_TEST(cpu_mask_parse)
{
	struct lab_err err = {0};
	unsigned m = 1;

	CHECK_EQ_I64(lab_cpu_parse("", &m, &err), 0);
	CHECK_EQ_U64(m, 0);
	CHECK_EQ_I64(lab_cpu_parse(" avx512bw , sse4.2", &m, &err), 0);
	/* sse4.2 takes everything built on it; sse2 stays. */
	CHECK_EQ_U64(m, LAB_CPU_ALL & ~LAB_CPU_SSE2);
	CHECK_EQ_I64(lab_cpu_parse("avx2", &m, &err), 0);
	CHECK(m & LAB_CPU_AVX512F);
	CHECK(!(m & (LAB_CPU_FMA | LAB_CPU_AVX)));
	CHECK_EQ_I64(lab_cpu_parse("avx512vl", &m, &err), 0);
	CHECK_EQ_U64(m, LAB_CPU_AVX512VL);
	CHECK_EQ_I64(lab_cpu_parse("popcnt", &m, &err), 0);
	CHECK_EQ_U64(m, LAB_CPU_POPCNT);
	CHECK_EQ_I64(lab_cpu_parse("avx", &m, &err), 0);
	CHECK(!(m & LAB_CPU_POPCNT)); /* a Nehalem has popcnt and no AVX */
	CHECK_EQ_I64(lab_cpu_parse("all", &m, &err), 0);
	CHECK_EQ_U64(m, LAB_CPU_ALL);
	CHECK_EQ_I64(lab_cpu_parse("avx2,avx1024", &m, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "unknown CPU feature 'avx1024' (allowed sse2 sse4.2 avx") == err.msg);
	CHECK_EQ_U64(m, 0);
}

/* The names of hypervisor signatures (cpuid leaf 0x40000000); the one seen here is named or
 * "" (bare metal) or "unknown", never raw bytes. */
LAB_TEST(hypervisor_names)
{
	char buf[32];

	CHECK_EQ_STR(lab_cpu_hypervisor_name("KVMKVMKVM\0\0\0"), "KVM");
	CHECK_EQ_STR(lab_cpu_hypervisor_name("TCGTCGTCGTCG"), "QEMU TCG");
	CHECK_EQ_STR(lab_cpu_hypervisor_name("Microsoft Hv"), "Hyper-V");
	CHECK(lab_cpu_hypervisor_name("KVMKVMKVMKVM") == NULL);
	CHECK(lab_cpu_hypervisor_name("\x1b[2K\rOK    \0") == NULL);
	lab_cpu_hypervisor(buf, sizeof(buf));
	fprintf(stderr, "hypervisor here: '%s'\n", buf);
	for (const char *c = buf; *c; c++)
		CHECK(*c >= 0x20 && *c < 0x7f);
}

LAB_TEST(cpu_mask_env_hides_features)
{
	struct lab_topo *topo = NULL;
	struct lab_env env;
	struct lab_err err = {0};
	unsigned detected = lab_cpu_detect();

	REQUIRE(lab_topo_open(&topo, "synthetic:pack:1 core:2 pu:1", &err) == 0);
	setenv(LAB_CPU_MASK_ENV, "avx2", 1);
	CHECK_EQ_I64(lab_env_probe(&env, topo, &err), 0);
	CHECK(!(env.cpu_features & (LAB_CPU_AVX2 | LAB_CPU_AVX512F)));
	CHECK_EQ_U64(env.cpu_features | env.cpu_features_masked, detected);
	CHECK_EQ_U64(env.cpu_features_masked & LAB_CPU_AVX2, detected & LAB_CPU_AVX2);
	setenv(LAB_CPU_MASK_ENV, "avx3", 1);
	CHECK_EQ_I64(lab_env_probe(&env, topo, &err), -LAB_ECONFIG);
	CHECK(strstr(err.msg, "LAB_CPU_MASK=avx3: unknown CPU feature 'avx3'") == err.msg);
	CHECK_EQ_U64(env.cpu_features, detected);
	unsetenv(LAB_CPU_MASK_ENV);
	CHECK_EQ_I64(lab_env_probe(&env, topo, &err), 0);
	CHECK_EQ_U64(env.cpu_features_masked, 0);
	/* x86-64 has SSE2 by definition: detection that misses it is broken. */
#if defined(__x86_64__)
	CHECK(detected & LAB_CPU_SSE2);
#endif
	lab_topo_close(topo);
}

static const struct lab_kernel *const ct_registry[] = {&ct_avx512, &ct_numa, &ct_plain, NULL};

struct ct_sink {
	unsigned n;
	enum lab_point_status status[8];
	char reason[8][LAB_ERR_MSG_MAX];
	uint64_t work[8];
	struct lab_prec_rec prec[8];
	unsigned total; /* the progress callback's last total */
};

static void ct_sink_progress(void *ctx, unsigned done, unsigned total, const struct lab_point *pt)
{
	(void)done;
	(void)pt;
	((struct ct_sink *)ctx)->total = total;
}

static int ct_sink_point(void *ctx, const struct lab_point_rec *rec, struct lab_err *err)
{
	struct ct_sink *s = ctx;

	(void)err;
	if (s->n < 8) {
		s->status[s->n] = rec->status;
		snprintf(s->reason[s->n], LAB_ERR_MSG_MAX, "%s", rec->reason);
		s->work[s->n] = rec->nreps ? rec->samples[0].work : 0;
		s->prec[s->n] = rec->prec;
	}
	s->n++;
	return 0;
}

/* Plans config text on topology spec with LAB_CPU_MASK=mask and runs it into s: one record per
 * run of each point (a skipped point's one). */
static void ct_plan_run_text(const char *spec, const char *mask, const char *text,
                             struct ct_sink *s)
{
	struct lab_topo *topo = NULL;
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_plan *plan = NULL;
	struct lab_err err = {0};
	struct lab_runner r;
	struct lab_sink sink = {.ctx = s, .point = ct_sink_point, .progress = ct_sink_progress};

	memset(s, 0, sizeof(*s));
	setenv(LAB_CPU_MASK_ENV, mask, 1);
	REQUIRE(lab_topo_open(&topo, spec, &err) == 0);
	REQUIRE(lab_cfg_load_text(&cfg, "ct.ini", text, strlen(text), &d, &err) == 0);
	int rc = lab_plan_build(&plan, &cfg, ct_registry, topo, NULL, 0, &d, &err);
	for (unsigned i = 0; i < d.n; i++)
		fprintf(stderr, "diag: %s\n", d.msg[i]);
	REQUIRE(rc == 0);
	lab_runner_init(&r, topo, &plan->env, NULL);
	CHECK_EQ_I64(lab_runner_run(&r, plan, &sink, &err), 0);
	unsetenv(LAB_CPU_MASK_ENV);
	lab_plan_free(plan);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
	lab_topo_close(topo);
}

/* Plans [numa], [isa], [plain] with runs = runs: 3 records with runs = 1. */
static void ct_plan_run_n(const char *spec, const char *mask, int runs, struct ct_sink *s)
{
	char text[256];

	snprintf(text, sizeof(text),
	         "[global]\nreps = 1\nwarmup = 0\nmin_time = 1ms\nthreads = 1\nruns = %d\n"
	         "[numa]\nkernel = ct_numa\n"
	         "[isa]\nkernel = ct_avx512\n"
	         "[plain]\nkernel = ct_plain\n",
	         runs);
	ct_plan_run_text(spec, mask, text, s);
}

/* A point with runs and a precision target names its target from its first run: a run cut
 * short in the pilot (Ctrl-C) wrote its record without it, as if no target had been asked. */
LAB_TEST(precision_target_recorded_from_the_first_run)
{
	struct ct_sink s;

	ct_plan_run_text("synthetic:pack:1 core:2 pu:1", "all",
	                 "[global]\nreps = 2\nwarmup = 0\nmin_time = 1ms\nthreads = 1\n"
	                 "runs = 3\nprecision = 50%\nbudget = 1s\n[plain]\nkernel = ct_plain\n",
	                 &s);
	REQUIRE(s.n >= 3);
	for (unsigned i = 0; i < 2; i++) { /* the pilot's first two runs */
		CHECK(s.prec[i].on && s.prec[i].by_runs);
		CHECK_NEAR(s.prec[i].target, 0.5, 1e-12);
		/* the runs with an unflagged sample so far: a busy machine flags some */
		CHECK(s.prec[i].pilot <= i + 1);
		CHECK_EQ_U64(s.prec[i].planned, 3);
		CHECK_EQ_U64(s.prec[i].runs, i + 1);
		/* no spread, and no interval, before two run means */
		CHECK(s.prec[i].pilot >= 2 ||
		      (isnan(s.prec[i].pilot_sd) && isnan(s.prec[i].achieved)));
	}
}

static void ct_plan_run(const char *spec, const char *mask, struct ct_sink *s)
{
	ct_plan_run_n(spec, mask, 1, s);
	CHECK_EQ_U64(s->n, 3);
}

/* A skipped point is visited once whatever its runs, and the progress total counts it once:
 * with runs = 3, two skipped points and one that runs are 5 visits (it said 9). */
LAB_TEST(skipped_point_counts_once_in_progress)
{
	struct ct_sink s;

	ct_plan_run_n("synthetic:pack:1 core:2 pu:1", "avx512f", 3, &s);
	CHECK_EQ_U64(s.n, 5);
	CHECK_EQ_U64(s.total, 5);
}

/* One node, AVX-512 hidden: both flagged points are recorded as skipped, plain still runs. */
LAB_TEST(skipped_points_recorded_others_run)
{
	struct ct_sink s;

	ct_plan_run("synthetic:pack:1 core:2 pu:1", "avx512f", &s);
	CHECK_EQ_I64(s.status[0], LAB_STATUS_SKIPPED);
	CHECK_EQ_STR(s.reason[0], "needs 2 or more NUMA nodes; this machine has 1");
	CHECK_EQ_I64(s.status[1], LAB_STATUS_SKIPPED);
	CHECK(strstr(s.reason[1], "needs avx512f; this CPU has") == s.reason[1]);
	CHECK(strstr(s.reason[1], "(avx512f hidden by LAB_CPU_MASK)") != NULL ||
	      !(lab_cpu_detect() & LAB_CPU_AVX512F));
	CHECK_EQ_I64(s.status[2], LAB_STATUS_OK);
	CHECK(s.work[2] > 0);
}

/* Two NUMA nodes (a recorded AMD topology): the NUMA kernel is planned and runs. */
LAB_TEST(numa_kernel_runs_on_two_nodes)
{
	char spec[600];
	struct ct_sink s;

	snprintf(spec, sizeof(spec), "xml:%s/configs/topologies/2s4n-amd.xml", testlib_srcdir());
	ct_plan_run(spec, "all", &s);
	CHECK_EQ_I64(s.status[0], LAB_STATUS_OK);
	CHECK_EQ_I64(s.status[1], LAB_STATUS_SKIPPED);
	CHECK(strstr(s.reason[1], "needs avx512f; this CPU has none") == s.reason[1]);
	CHECK_EQ_I64(s.status[2], LAB_STATUS_OK);
}

LAB_TEST(bad_cpu_mask_is_a_config_error)
{
	static const char text[] = "[plain]\nkernel = ct_plain\n";
	struct lab_topo *topo = NULL;
	struct lab_cfg cfg = {0};
	struct lab_diag d = {0};
	struct lab_plan *plan = NULL;
	struct lab_err err = {0};

	setenv(LAB_CPU_MASK_ENV, "avx2,neon", 1);
	REQUIRE(lab_topo_open(&topo, "synthetic:pack:1 core:2 pu:1", &err) == 0);
	REQUIRE(lab_cfg_load_text(&cfg, "ct.ini", text, strlen(text), &d, &err) == 0);
	CHECK_EQ_I64(lab_plan_build(&plan, &cfg, ct_registry, topo, NULL, 0, &d, &err),
	             -LAB_ECONFIG);
	CHECK(plan == NULL);
	CHECK_EQ_U64(lab_diag_count(&d), 1);
	CHECK(d.n &&
	      strstr(d.msg[0], "LAB_CPU_MASK=avx2,neon: unknown CPU feature 'neon'") == d.msg[0]);
	unsetenv(LAB_CPU_MASK_ENV);
	lab_cfg_free(&cfg);
	lab_diag_free(&d);
	lab_topo_close(topo);
}
