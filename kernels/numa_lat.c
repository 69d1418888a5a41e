/* SPDX-License-Identifier: GPL-3.0-or-later */
/* numa_lat: memory latency by a dependent pointer chase, local or on another NUMA node. */
#include <stdio.h>
#include <stdlib.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"
#include "kernels/numa_common.h"

static const char nl_description[] =
    "One thread follows a chain of pointers through a buffer of `size` bytes, one pointer per\n"
    "64-byte line, the lines linked in a random order into a single cycle: every load needs\n"
    "the address the previous one returned, so nothing overlaps and the prefetchers see no\n"
    "pattern. The cost per load IS the latency of wherever the buffer lives. Swept over size\n"
    "on one node it draws the latency ladder: a step at each cache size (L1, L2, L3), then DRAM\n"
    "with 4 KiB pages (TLB misses included); hugepages = on removes most of the page walks.\n"
    "Compare memory on another socket (placement = node:0, mem_node = far: the node farthest\n"
    "from node 0, on the other package even where node 1 shares node 0's) with the local one:\n"
    "the ratio is this machine's remote penalty, to set beside the firmware's distance table\n"
    "(numactl -H). Knobs: size (well past the last-level cache for memory latency), mem_node,\n"
    "placement = node:N, hugepages. Use threads = 1: with more, each thread chases its own\n"
    "chain and the loads of different threads overlap (cost per load falls, that is memory\n"
    "parallelism, not latency). In an emulated machine (QEMU TCG) the numbers mean nothing.";

struct nl_params {
	uint64_t size;
	uint64_t mem_node;
	int hugepages;
};

static const struct lab_param nl_params_table[] = {
    LAB_P_SIZE(struct nl_params, size, "size", "64M", 4096, (uint64_t)4 << 30,
               "Bytes the chain runs through (one pointer per 64-byte line)."),
    LAB_P_U64(
        struct nl_params, mem_node, "mem_node", "0", 0, LAB_BUF_NODES_MAX - 1, "node",
        "NUMA node the buffer is bound to (MPOL_BIND): its number as numactl -H prints it, or "
        "far, the node farthest from node 0 by the firmware's distances."),
    LAB_P_ENUM(struct nl_params, hugepages, "hugepages", "off", knuma_huge_vals,
               "Page size behind the buffer."),
    LAB_PARAM_END,
};

struct nl_state {
	struct knuma_chase chase;
	int cpu_node;
};

/* mem_node on a machine without that node: skipped, with the node named. */
static int nl_check_node(const struct nl_params *p, const struct lab_env *env, struct lab_err *err)
{
	char what[48];

	snprintf(what, sizeof(what), "mem_node = %llu", (unsigned long long)p->mem_node);
	return knuma_check_node(p->mem_node, what, env, err);
}

static int nl_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	(void)nthreads;
	return nl_check_node(params, env, err);
}

/* The chain is built by the pinned thread, so the pages are touched from its node. */
static int nl_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct nl_params *p = ctx->params;
	struct nl_state *st = calloc(1, sizeof(*st));
	struct lab_buf_opts o = {.place = LAB_BUF_BIND,
	                         .node = (int)p->mem_node,
	                         .huge = p->hugepages ? LAB_BUF_HUGE_ON : LAB_BUF_HUGE_OFF};
	int rc;

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	rc = knuma_chase_build(&st->chase, p->size, &o, ctx->seed + t->id, err);
	if (rc) {
		free(st);
		return rc;
	}
	st->cpu_node = knuma_node_here();
	t->priv = st;
	return 0;
}

static void nl_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	struct nl_state *st = t->priv;

	(void)ctx;
	knuma_chase_run(&st->chase, t->iters);
}

/* Where thread 0's chain is, as point facts: the node it ran on and the pages' nodes. */
static void nl_facts(struct lab_ctx *ctx, const struct nl_state *st)
{
	const struct nl_params *p = ctx->params;
	struct lab_buf_pages pg;
	uint64_t expect[LAB_BUF_NODES_MAX] = {0};
	struct lab_err err;
	char why[256];

	lab_ctx_fact_int(ctx, "cpu_node", st->cpu_node);
	lab_ctx_fact_int(ctx, "mem_node", (int64_t)p->mem_node);
	knuma_fact_huge(ctx, p->hugepages, &st->chase.buf);
	if (lab_buf_pages(&st->chase.buf, &pg, &err) != 0) {
		lab_ctx_fact_str(ctx, "placement_note", err.msg);
		return;
	}
	knuma_fact_pages(ctx, &pg);
	expect[p->mem_node] = pg.pages;
	bool ok = knuma_hist_matches(expect, (unsigned)p->mem_node + 1, &pg, 0, why, sizeof(why));
	lab_ctx_fact_bool(ctx, "placement_ok", ok);
	if (!ok)
		lab_ctx_fact_str(ctx, "placement_note", why);
}

static int nl_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	nl_facts(ctx, threads[0]->priv);
	for (unsigned i = 0; i < n; i++) {
		const struct nl_state *st = threads[i]->priv;
		if (st->chase.loads != threads[i]->work_total)
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u: %llu loads made, %llu counted", i,
			                   (unsigned long long)st->chase.loads,
			                   (unsigned long long)threads[i]->work_total);
		if (knuma_chase_verify(&st->chase, err))
			return lab_err_prefix(err, "thread %u: ", i);
	}
	return 0;
}

static void nl_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++) {
		struct nl_state *st = threads[i]->priv;
		if (!st)
			continue;
		knuma_chase_free(&st->chase);
		free(st);
		threads[i]->priv = NULL;
	}
}

static const struct lab_metric nl_metrics[] = {LAB_METRIC_END};

/* The analyzer's NUMA view: matrices, policy histograms, ladder, loaded curve
 * (analyze/views/numa.c). */
static const char *const nl_views[] = {"numa", NULL};

/* The threads, all at once, build and verify their own chains through size bytes each (huge
 * pages take few faults: the rough price). */
static void nl_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct nl_params *p = params;
	double size = (double)p->size;

	(void)nthreads;
	est->setup_ns = size / 64 * LAB_EST_CHASE_NS_PER_LINE;
	if (p->hugepages)
		est->setup_ns += size * LAB_EST_TOUCH_NS_PER_BYTE;
	else
		est->touch_bytes = size;
}

static const char nl_verifies[] =
    "each thread made the loads the harness counted, its chain is still one cycle through "
    "every line and the chase ended where that many loads lead; where the pages landed is "
    "recorded (placement_ok, pages per node), not verified";
static const char *const nl_needs[] = {
    "mem_node = N: a machine with NUMA node N (far: the node farthest from node 0, node 1 "
    "on a machine without distances)",
    NULL,
};

const struct lab_kernel lab_kernel_numa_lat = {
    .abi = LAB_KERNEL_ABI,
    .name = "numa_lat",
    .summary = "dependent pointer chase: ns per load by size (the latency ladder) and by node",
    .description = nl_description,
    .params = nl_params_table,
    .params_size = sizeof(struct nl_params),
    .metrics = nl_metrics,
    .work_unit = "load",
    .cost_kind = LAB_COST_LATENCY, /* ns per dependent load */
    .check = nl_check,
    .thread_setup = nl_thread_setup,
    .run = nl_run,
    .verify = nl_verify,
    .teardown = nl_teardown,
    .estimate = nl_estimate,
    .views = nl_views,
    .verifies = nl_verifies,
    .needs = nl_needs,
};
