/* SPDX-License-Identifier: GPL-3.0-or-later */
/* loaded_latency: the pointer chase's latency while other threads stream memory traffic. */
#include <stdlib.h>

#include "harness/buffer.h"
#include "harness/clock.h"
#include "harness/kernel_api.h"
#include "kernels/numa_common.h"

static const char ll_description[] =
    "Thread 0 chases pointers through `size` bytes (as numa_lat does) while threads 1..k each\n"
    "stream through their own `stream_size` bytes, reading or writing (traffic). With threads\n"
    "swept (k = threads - 1) this is the loaded-latency curve Intel's Memory Latency Checker\n"
    "draws, without root or MSRs: latency stays near idle while bandwidth is low, then climbs\n"
    "steeply as the memory controller's queues fill: compare each point with threads = 1.\n"
    "The cost per unit is ns per load of the chasing thread; stream_gb_per_s is the traffic\n"
    "the others made in the same window, so latency can be drawn against bandwidth. Writes\n"
    "load the controller more than reads (write-allocate reads plus write-backs). Knobs:\n"
    "threads, traffic, size, stream_size. Memory is local to each thread (first touch).";

enum ll_traffic { LL_READ, LL_WRITE };

struct ll_params {
	uint64_t size;
	uint64_t stream_size;
	int traffic;
	int hugepages;
};

static const struct lab_enum_val ll_traffics[] = {
    {"read", LL_READ, "the streaming threads sum their arrays"},
    {"write", LL_WRITE, "the streaming threads store into their arrays"},
    {NULL, 0, NULL},
};

static const struct lab_param ll_params_table[] = {
    LAB_P_SIZE(struct ll_params, size, "size", "64M", 4096, (uint64_t)4 << 30,
               "Bytes the chasing thread's chain runs through."),
    LAB_P_SIZE(struct ll_params, stream_size, "stream_size", "32M", 4096, (uint64_t)16 << 30,
               "Bytes each streaming thread reads or writes, over and over."),
    LAB_P_ENUM(struct ll_params, traffic, "traffic", "read", ll_traffics,
               "What the streaming threads do."),
    LAB_P_ENUM(struct ll_params, hugepages, "hugepages", "off", knuma_huge_vals,
               "Page size behind the chain."),
    LAB_PARAM_END,
};

enum ll_metric { LL_M_NS_PER_LOAD, LL_M_STREAM_GBS };

struct ll_thread {
	struct knuma_chase chase; /* thread 0 */
	struct lab_buf buf;       /* threads 1.. */
	double *a;
	size_t n;
	double sum;        /* read: each element is 1 */
	uint64_t streamed; /* elements since setup */
};

static int ll_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct ll_params *p = ctx->params;
	struct ll_thread *s = calloc(1, sizeof(*s));
	struct lab_buf_opts o = {.huge = p->hugepages ? LAB_BUF_HUGE_ON : LAB_BUF_HUGE_OFF};
	int rc;

	if (!s)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	if (t->id == 0) {
		rc = knuma_chase_build(&s->chase, p->size, &o, ctx->seed, err);
	} else {
		s->n = p->stream_size / sizeof(double);
		rc = lab_buf_alloc(&s->buf, s->n * sizeof(double), NULL, err);
		s->a = s->buf.p;
		for (size_t i = 0; rc == 0 && i < s->n; i++)
			s->a[i] = 1.0;
	}
	if (rc) {
		free(s);
		return rc;
	}
	t->priv = s;
	return 0;
}

static void ll_stream(struct ll_thread *s, int traffic, const struct lab_thread *t)
{
	double acc[4] = {0};

	do {
		if (traffic == LL_READ) {
			for (size_t i = 0; i + 4 <= s->n; i += 4)
				for (int k = 0; k < 4; k++)
					acc[k] += s->a[i + k];
		} else {
			for (size_t i = 0; i < s->n; i++)
				s->a[i] = 3.0;
			lab_clobber_memory();
		}
		s->streamed += s->n / 4 * 4;
	} while (!lab_thread_should_stop(t));
	s->sum += (acc[0] + acc[1]) + (acc[2] + acc[3]);
}

/* Timed: every thread runs until the stop flag; only the chaser's loads are the work. */
static void ll_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct ll_params *p = ctx->params;
	struct ll_thread *s = t->priv;
	uint64_t t0 = lab_clock_ns(), before = t->id == 0 ? s->chase.loads : s->streamed;

	if (t->id == 0) {
		do
			knuma_chase_run(&s->chase, 256);
		while (!lab_thread_should_stop(t));
	} else {
		ll_stream(s, p->traffic, t);
	}
	double ns = (double)(lab_clock_ns() - t0);
	uint64_t done = (t->id == 0 ? s->chase.loads : s->streamed) - before;
	t->work = t->id == 0 ? done : 0;
	t->metric[LL_M_NS_PER_LOAD] = t->id == 0 && done ? ns / (double)done : 0;
	t->metric[LL_M_STREAM_GBS] = t->id == 0 || ns <= 0 ? 0 : (double)done * 8.0 / ns;
}

static void ll_summarize(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                         double *out)
{
	double gbs = 0;

	(void)ctx;
	for (unsigned i = 1; i < n; i++)
		gbs += threads[i]->metric[LL_M_STREAM_GBS];
	out[LL_M_NS_PER_LOAD] = threads[0]->metric[LL_M_NS_PER_LOAD];
	out[LL_M_STREAM_GBS] = gbs;
}

static int ll_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	const struct ll_params *p = ctx->params;
	const struct ll_thread *c = threads[0]->priv;

	lab_ctx_fact_int(ctx, "streams", (int64_t)n - 1);
	knuma_fact_huge(ctx, p->hugepages, &c->chase.buf);
	if (c->chase.loads != threads[0]->work_total)
		return lab_err_set(err, LAB_EVERIFY, "%llu loads made, %llu counted",
		                   (unsigned long long)c->chase.loads,
		                   (unsigned long long)threads[0]->work_total);
	if (knuma_chase_verify(&c->chase, err))
		return -LAB_EVERIFY;
	for (unsigned i = 1; i < n; i++) {
		const struct ll_thread *s = threads[i]->priv;
		if (p->traffic == LL_READ && s->sum != (double)s->streamed)
			return lab_err_set(err, LAB_EVERIFY,
			                   "stream thread %u summed %.0f over %llu elements of 1",
			                   i, s->sum, (unsigned long long)s->streamed);
		for (size_t k = 0; p->traffic == LL_WRITE && s->streamed && k < s->n; k++)
			if (s->a[k] != 3.0)
				return lab_err_set(err, LAB_EVERIFY,
				                   "stream thread %u: a[%zu] = %g, expected 3", i,
				                   k, s->a[k]);
	}
	return 0;
}

static void ll_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++) {
		struct ll_thread *s = threads[i]->priv;
		if (!s)
			continue;
		knuma_chase_free(&s->chase);
		lab_buf_free(&s->buf);
		free(s);
		threads[i]->priv = NULL;
	}
}

static const struct lab_metric ll_metrics[] = {
    {"ns_per_load", "ns", LAB_AGG_KERNEL, "latency of one dependent load of thread 0"},
    {"stream_gb_per_s", "GB/s", LAB_AGG_KERNEL,
     "bytes the streaming threads read or wrote per ns, summed"},
    LAB_METRIC_END,
};

/* The analyzer's NUMA view: matrices, policy histograms, ladder, loaded curve
 * (analyze/views/numa.c). */
static const char *const ll_views[] = {"numa", NULL};

/* Thread 0 builds and verifies one chain through size bytes (huge pages: few faults) while
 * the other threads first-touch their stream arrays: the longer of the two. */
static void ll_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct ll_params *p = params;
	double size = (double)p->size, stream = nthreads > 1 ? (double)p->stream_size : 0;

	est->setup_ns = size / 64 * LAB_EST_CHASE_NS_PER_LINE;
	if (p->hugepages)
		est->setup_ns += size * LAB_EST_TOUCH_NS_PER_BYTE;
	else
		stream = stream > size ? stream : size;
	est->touch_bytes = stream;
}

static const char ll_verifies[] =
    "the chasing thread made the loads the harness counted, its chain is still one cycle "
    "through every line and the chase ended where that many loads lead; traffic = read: "
    "each streaming thread's sum equals the elements it read (each is 1); traffic = "
    "write: every element holds the 3 it stored";

const struct lab_kernel lab_kernel_loaded_latency = {
    .abi = LAB_KERNEL_ABI,
    .name = "loaded_latency",
    .summary = "pointer-chase latency of one thread while k others stream reads or writes",
    .description = ll_description,
    .flags = LAB_KF_TIMED,
    .params = ll_params_table,
    .params_size = sizeof(struct ll_params),
    .metrics = ll_metrics,
    .work_unit = "load",
    .work_scope = LAB_WORK_ONE,
    .cost_kind = LAB_COST_LATENCY, /* the chaser's ns per load */
    .thread_setup = ll_thread_setup,
    .run = ll_run,
    .summarize = ll_summarize,
    .verify = ll_verify,
    .teardown = ll_teardown,
    .estimate = ll_estimate,
    .views = ll_views,
    .verifies = ll_verifies,
};
