/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chapter-27 kernels on whatever this machine is (usually one NUMA node): they run and
 * verify, they say why they skip, the page facts land in the record, and a placement other than
 * the one asked for is marked. Real cross-node placement is checked in the QEMU guest
 * (tests/vm). No timings are asserted.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "harness/env.h"
#include "harness/param.h"
#include "harness/topo.h"
#include "kernels/numa_common.h"
#include "tests/kernels/kpoint.h"
#include "tests/testlib.h"

extern const struct lab_kernel lab_kernel_numa_bw, lab_kernel_numa_lat, lab_kernel_numa_policy,
    lab_kernel_loaded_latency;

static struct lab_env tn_env(void)
{
	struct lab_topo *t = NULL;
	struct lab_err err = {0};
	struct lab_env env = {0};

	int rc = lab_topo_open(&t, NULL, &err);

	CHECK_EQ_I64(rc, 0);
	if (rc == 0) {
		lab_env_probe(&env, t, &err);
		lab_topo_close(t);
	}
	return env;
}

static const struct lab_fact *tn_fact(const struct lab_point_rec *rec, const char *key)
{
	for (unsigned i = 0; i < rec->facts.n; i++)
		if (!strcmp(rec->facts.f[i].key, key))
			return &rec->facts.f[i];
	fprintf(stderr, "no point fact '%s'\n", key);
	return NULL;
}

/* check() of k with "key=value" overrides kv (parsed over the defaults). */
static int tn_check(const struct lab_kernel *k, const char *kv, unsigned n,
                    const struct lab_env *env, struct lab_err *err)
{
	char params[512] = {0};
	char key[64], val[64];

	bool ok = k->params_size <= sizeof(params) &&
	          lab_param_defaults(k->params, params, err) == 0 &&
	          (!kv || (sscanf(kv, "%63[^=]=%63s", key, val) == 2 &&
	                   lab_param_parse(lab_param_find(k->params, key), val, params, err) == 0));

	CHECK(ok);
	return ok ? lab_kernel_check(k, params, n, env, err) : -1000;
}

/* The page facts of a point that ran: every page present, all where they were asked to be. */
static void tn_pages_ok(const struct lab_point_rec *rec)
{
	const struct lab_fact *pages = tn_fact(rec, "pages_per_node");
	const struct lab_fact *ok = tn_fact(rec, "placement_ok");
	const struct lab_fact *absent = tn_fact(rec, "pages_absent");

	REQUIRE(pages && ok && absent);
	CHECK_EQ_I64(pages->kind, LAB_FACT_UINTS);
	CHECK(pages->n >= 1 && pages->v[0] > 0);
	CHECK_EQ_I64(absent->i, 0);
	CHECK(ok->b);
}

LAB_TEST(numa_bw_skips_on_one_node_with_reason)
{
	struct lab_env env = tn_env();
	struct lab_err err = {0};
	int rc = tn_check(&lab_kernel_numa_bw, NULL, 1, &env, &err);

	if (env.numa_nodes >= 2) {
		CHECK_EQ_I64(rc, 0);
		return;
	}
	CHECK_EQ_I64(rc, LAB_SKIP);
	CHECK_EQ_STR(err.msg, "needs 2 or more NUMA nodes; this machine has 1");
}

LAB_TEST(numa_bw_missing_mem_node_skips)
{
	struct lab_env env = tn_env();
	struct lab_err err = {0};
	char kv[32];

	env.numa_nodes = 2; /* past the flag check: the kernel's own node check */
	snprintf(kv, sizeof(kv), "mem_node=%u", env.numa_nodes);
	CHECK_EQ_I64(tn_check(&lab_kernel_numa_bw, kv, 1, &env, &err), LAB_SKIP);
	CHECK_EQ_STR(err.msg, "mem_node = 2: this machine has 2 NUMA nodes (0 .. 1)");
}

/* The latency ladder on one node: a number per size, verified, pages on node 0 as bound. */
LAB_TEST(numa_lat_ladder_gives_numbers)
{
	const char *sizes[] = {"size=16K", "size=4M"};
	struct kpoint_opts o = {.nthreads = 1, .min_time_ns = 2000000};

	for (int s = 0; s < 2; s++) {
		const char *kv[] = {sizes[s], NULL};
		struct lab_point_rec rec;
		REQUIRE(kpoint_run(&lab_kernel_numa_lat, kv, &o, &rec) == 0);
		CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
		CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
		for (unsigned r = 0; r < rec.nreps; r++) {
			double ns = (double)rec.samples[r].elapsed_ns / (double)rec.samples[r].work;
			CHECK(isfinite(ns) && ns > 0);
			fprintf(stderr, "%s rep %u: %.2f ns per load\n", sizes[s], r, ns);
		}
		tn_pages_ok(&rec);
		const struct lab_fact *mem = tn_fact(&rec, "mem_node");
		REQUIRE(mem);
		CHECK_EQ_I64(mem->i, 0);
		kpoint_free(&rec);
	}
}

LAB_TEST(numa_lat_missing_node_skips)
{
	struct lab_env env = tn_env();
	struct lab_err err = {0};
	char kv[32], want[96];

	snprintf(kv, sizeof(kv), "mem_node=%u", env.numa_nodes);
	snprintf(want, sizeof(want), "mem_node = %u: this machine has %u NUMA node%s (0 .. %u)",
	         env.numa_nodes, env.numa_nodes, env.numa_nodes == 1 ? "" : "s",
	         env.numa_nodes - 1);
	CHECK_EQ_I64(tn_check(&lab_kernel_numa_lat, kv, 1, &env, &err), LAB_SKIP);
	CHECK_EQ_STR(err.msg, want);
}

/* Every policy this machine can honour runs, verifies and finds its pages where it asked. */
LAB_TEST(numa_policy_histogram_matches)
{
	const char *inits[] = {"init=first_touch", "init=serial", "init=interleave", "init=bind:0",
	                       "init=preferred:0"};
	struct kpoint_opts o = {.nthreads = 2, .min_time_ns = 2000000};
	struct lab_env env = tn_env();

	for (size_t i = 0; i < sizeof(inits) / sizeof(inits[0]); i++) {
		const char *kv[] = {inits[i], "size=1M", NULL};
		struct lab_point_rec rec;
		REQUIRE(kpoint_run(&lab_kernel_numa_policy, kv, &o, &rec) == 0);
		CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
		CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
		tn_pages_ok(&rec);
		const struct lab_fact *pages = tn_fact(&rec, "pages_per_node");
		REQUIRE(pages);
		uint64_t sum = 0;
		for (unsigned k = 0; k < pages->n; k++)
			sum += pages->v[k];
		CHECK_EQ_U64(sum, 3 * 256); /* three 1 MiB arrays of 4 KiB pages */
		if (env.numa_nodes == 1)
			CHECK_EQ_U64(pages->v[0], 3 * 256);
		kpoint_free(&rec);
	}
}

/* bind:N of a node this machine lacks is skipped (the same config serves 1 and 2 nodes), not a
 * config error and not a mismatch: nothing can be placed there. A misspelt init is an error. */
LAB_TEST(numa_policy_missing_node_skips_bad_init_errors)
{
	struct lab_env env = tn_env();
	struct lab_err err = {0};
	char kv[32], want[96];

	snprintf(kv, sizeof(kv), "init=bind:%u", env.numa_nodes);
	snprintf(want, sizeof(want), "init = bind:%u: this machine has %u NUMA node%s (0 .. %u)",
	         env.numa_nodes, env.numa_nodes, env.numa_nodes == 1 ? "" : "s",
	         env.numa_nodes - 1);
	CHECK_EQ_I64(tn_check(&lab_kernel_numa_policy, kv, 2, &env, &err), LAB_SKIP);
	CHECK_EQ_STR(err.msg, want);
	CHECK_EQ_I64(tn_check(&lab_kernel_numa_policy, "init=bind:x", 2, &env, &err), -LAB_ECONFIG);
	CHECK_EQ_STR(err.msg, "init = bind:x: unknown placement (allowed first_touch, serial, "
	                      "interleave, bind:N, preferred:N, N = 0 .. 63)");
}

/* The mark a point gets when its pages are not where they were asked to be. */
LAB_TEST(placement_mismatch_marked)
{
	struct lab_buf_pages got = {.pages = 768, .max_node = 0};
	uint64_t want_bind1[2] = {0, 768}, want_half[2] = {384, 384};
	char why[256] = "";

	got.on_node[0] = 768;
	CHECK(!knuma_hist_matches(want_bind1, 2, &got, 0, why, sizeof(why)));
	CHECK_EQ_STR(why, "expected n0=0 n1=768, found n0=768 n1=0 (0 absent, 0 unknown)");
	got.on_node[0] = 385;
	got.on_node[1] = 383;
	got.max_node = 1;
	CHECK(knuma_hist_matches(want_half, 2, &got, 3, why, sizeof(why)));
	got.absent = 1;
	CHECK(!knuma_hist_matches(want_half, 2, &got, 3, why, sizeof(why)));
}

/* Latency of the chasing thread and the others' bandwidth, both as numbers; only the chaser's
 * loads count as work. */
LAB_TEST(loaded_latency_reports_both_metrics)
{
	const struct lab_kernel *k = &lab_kernel_loaded_latency;
	const char *kv[] = {"size=1M", "stream_size=1M", NULL};
	struct kpoint_opts o = {.nthreads = 2, .min_time_ns = 5000000};
	int lat = kpoint_metric(k, "ns_per_load"), gbs = kpoint_metric(k, "stream_gb_per_s");
	struct lab_point_rec rec;

	REQUIRE(lat >= 0 && gbs >= 0);
	REQUIRE(kpoint_run(k, kv, &o, &rec) == 0);
	CHECK_EQ_I64(rec.status, LAB_STATUS_OK);
	CHECK_EQ_I64(rec.verify, LAB_VERIFY_PASS);
	for (unsigned r = 0; r < rec.nreps; r++) {
		CHECK(isfinite(rec.samples[r].metric[lat]) && rec.samples[r].metric[lat] > 0);
		CHECK(isfinite(rec.samples[r].metric[gbs]) && rec.samples[r].metric[gbs] > 0);
	}
	CHECK(kpoint_thread_work(&rec, 0) > 0);
	CHECK_EQ_U64(kpoint_thread_work(&rec, 1), 0);
	kpoint_free(&rec);
}
