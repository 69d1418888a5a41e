/* SPDX-License-Identifier: GPL-3.0-or-later */
/* numa_bw: streaming bandwidth from the threads of one NUMA node to the memory of another. */
#include <stdio.h>
#include <stdlib.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"
#include "kernels/numa_common.h"

static const char nb_description[] =
    "Every thread streams through its own arrays of `size` bytes, bound to NUMA node mem_node,\n"
    "while the threads themselves run on the node the placement names (placement = node:N).\n"
    "Sweeping placement = node:0,node:1 against mem_node = 0,1 gives the node x node matrix:\n"
    "the diagonal is local bandwidth, the rest crosses the socket interconnect (UPI, Infinity\n"
    "Fabric). Compare each row's remote cells with its diagonal at the same thread count: with\n"
    "enough threads to saturate a link the ratio is the interconnect's share of local\n"
    "bandwidth; one thread is latency-bound, so its remote figure drops by about the latency\n"
    "ratio instead. op = read sums, write stores, copy a = b, triad a = b + 3c; written\n"
    "lines are also read first by a write-allocate cache (declared separately). Knobs: op,\n"
    "threads, placement, mem_node, size (far past the last-level cache), hugepages. In an\n"
    "emulated machine (QEMU TCG) only the placement facts mean anything.";

enum nb_op { NB_READ, NB_WRITE, NB_COPY, NB_TRIAD };

struct nb_params {
	int op;
	uint64_t size;
	uint64_t mem_node;
	int hugepages;
};

static const struct lab_enum_val nb_ops[] = {
    {"read", NB_READ, "sum = sum + a[i] (8 accumulators)"},
    {"write", NB_WRITE, "a[i] = 2"},
    {"copy", NB_COPY, "a[i] = b[i]"},
    {"triad", NB_TRIAD, "a[i] = b[i] + 3 * c[i]"},
    {NULL, 0, NULL},
};

static const struct lab_param nb_params_table[] = {
    LAB_P_ENUM(struct nb_params, op, "op", "read", nb_ops, "What each element costs."),
    LAB_P_SIZE(struct nb_params, size, "size", "32M", 4096, (uint64_t)16 << 30,
               "Bytes of each array of each thread."),
    LAB_P_U64(
        struct nb_params, mem_node, "mem_node", "0", 0, LAB_BUF_NODES_MAX - 1, "node",
        "NUMA node the arrays are bound to (MPOL_BIND): its number as numactl -H prints it, or "
        "far, the node farthest from node 0 by the firmware's distances."),
    LAB_P_ENUM(struct nb_params, hugepages, "hugepages", "off", knuma_huge_vals,
               "Page size behind the arrays."),
    LAB_PARAM_END,
};

struct nb_thread {
	struct lab_buf buf[3]; /* a, b, c */
	double *a, *b, *c;
	size_t n;       /* elements per array */
	size_t written; /* the longest prefix of a that one run() wrote */
	double sum;     /* read: the running total, each element is 1 */
	int node;       /* where the thread ran at setup */
};

static unsigned nb_arrays(int op)
{
	return op == NB_TRIAD ? 3 : op == NB_COPY ? 2 : 1;
}

/* mem_node on a machine without that node: skipped, with the node named. */
static int nb_check_node(const struct nb_params *p, const struct lab_env *env, struct lab_err *err)
{
	char what[48];

	snprintf(what, sizeof(what), "mem_node = %llu", (unsigned long long)p->mem_node);
	return knuma_check_node(p->mem_node, what, env, err);
}

static int nb_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct nb_params *p = params;

	(void)nthreads;
	return nb_check_node(p, env, err);
}

static void nb_free(struct nb_thread *s)
{
	if (!s)
		return;
	for (int i = 0; i < 3; i++)
		lab_buf_free(&s->buf[i]);
	free(s);
}

/* The pinned thread maps its own arrays, bound to mem_node whichever node it runs on. */
static int nb_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct nb_params *p = ctx->params;
	struct nb_thread *s = calloc(1, sizeof(*s));
	struct lab_buf_opts o = {.place = LAB_BUF_BIND,
	                         .node = (int)p->mem_node,
	                         .huge = p->hugepages ? LAB_BUF_HUGE_ON : LAB_BUF_HUGE_OFF};
	double init[3] = {p->op == NB_READ ? 1.0 : 0.0, 1.0, 2.0};

	if (!s)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	s->n = p->size / sizeof(double);
	for (unsigned k = 0; k < nb_arrays(p->op); k++) {
		int rc = lab_buf_alloc(&s->buf[k], s->n * sizeof(double), &o, err);
		if (rc) {
			nb_free(s);
			return rc;
		}
		double *v = s->buf[k].p;
		for (size_t i = 0; i < s->n; i++)
			v[i] = init[k];
	}
	s->a = s->buf[0].p;
	s->b = s->buf[1].p;
	s->c = s->buf[2].p;
	s->node = knuma_node_here();
	t->priv = s;
	return 0;
}

static double nb_read(const double *a, size_t n)
{
	double s[8] = {0};
	size_t i = 0;

	for (; i + 8 <= n; i += 8)
		for (int k = 0; k < 8; k++)
			s[k] += a[i + k];
	for (; i < n; i++)
		s[0] += a[i];
	return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

/* t->iters elements, wrapping round the arrays as often as it takes. */
static void nb_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct nb_params *p = ctx->params;
	struct nb_thread *s = t->priv;
	double *restrict a = s->a;
	const double *restrict b = s->b, *restrict c = s->c;

	for (uint64_t done = 0; done < t->iters;) {
		size_t n = t->iters - done < s->n ? (size_t)(t->iters - done) : s->n;
		switch (p->op) {
		case NB_READ:
			s->sum += nb_read(a, n);
			break;
		case NB_WRITE:
			for (size_t i = 0; i < n; i++)
				a[i] = 2.0;
			break;
		case NB_COPY:
			for (size_t i = 0; i < n; i++)
				a[i] = b[i];
			break;
		default:
			for (size_t i = 0; i < n; i++)
				a[i] = b[i] + 3.0 * c[i];
		}
		done += n;
		s->written = n > s->written ? n : s->written;
	}
	lab_clobber_memory();
}

/* Every thread's arrays hold what its op wrote (read: the sum counts every element). */
static int nb_verify_thread(const struct nb_params *p, const struct lab_thread *t,
                            struct lab_err *err)
{
	const struct nb_thread *s = t->priv;
	double want = p->op == NB_WRITE ? 2.0 : p->op == NB_COPY ? 1.0 : 7.0;
	size_t n = s->written;

	if (p->op == NB_READ)
		return s->sum == (double)t->work_total
		           ? 0
		           : lab_err_set(err, LAB_EVERIFY,
		                         "thread %u read %.0f ones in %llu elements", t->id, s->sum,
		                         (unsigned long long)t->work_total);
	if (t->work_total && !n)
		return lab_err_set(err, LAB_EVERIFY, "thread %u counted %llu elements, wrote none",
		                   t->id, (unsigned long long)t->work_total);
	for (size_t i = 0; i < n; i++)
		if (s->a[i] != want)
			return lab_err_set(err, LAB_EVERIFY, "thread %u: a[%zu] = %g, expected %g",
			                   t->id, i, s->a[i], want);
	return 0;
}

static int nb_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	const struct nb_params *p = ctx->params;
	struct lab_buf_pages all = {.max_node = -1}, one;
	uint64_t expect[LAB_BUF_NODES_MAX] = {0};
	int nodes[KNUMA_THREADS_MAX] = {0};
	char why[256];
	bool counted = true;

	for (unsigned i = 0; i < n; i++) {
		const struct nb_thread *s = threads[i]->priv;
		if (i < KNUMA_THREADS_MAX)
			nodes[i] = s->node;
		for (unsigned k = 0; k < nb_arrays(p->op); k++) {
			if (lab_buf_pages(&s->buf[k], &one, err) != 0)
				counted = false;
			else
				knuma_pages_add(&all, &one);
		}
	}
	lab_ctx_fact_int(ctx, "cpu_node",
	                 knuma_common_node(nodes, n < KNUMA_THREADS_MAX ? n : KNUMA_THREADS_MAX));
	lab_ctx_fact_int(ctx, "mem_node", (int64_t)p->mem_node);
	knuma_fact_huge(ctx, p->hugepages, &((const struct nb_thread *)threads[0]->priv)->buf[0]);
	if (counted) {
		knuma_fact_pages(ctx, &all);
		expect[p->mem_node] = all.pages;
		bool ok = knuma_hist_matches(expect, (unsigned)p->mem_node + 1, &all, 0, why,
		                             sizeof(why));
		lab_ctx_fact_bool(ctx, "placement_ok", ok);
		if (!ok)
			lab_ctx_fact_str(ctx, "placement_note", why);
	}
	for (unsigned i = 0; i < n; i++)
		if (nb_verify_thread(p, threads[i], err))
			return -LAB_EVERIFY;
	return 0;
}

static void nb_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++) {
		nb_free(threads[i]->priv);
		threads[i]->priv = NULL;
	}
}

static void nb_work(const void *params, struct lab_work *w)
{
	const struct nb_params *p = params;
	static const struct lab_work per_op[] = {
	    [NB_READ] = {.bytes_read = 8},
	    [NB_WRITE] = {.bytes_written = 8, .bytes_write_allocate = 8},
	    [NB_COPY] = {.bytes_read = 8, .bytes_written = 8, .bytes_write_allocate = 8},
	    [NB_TRIAD] = {.bytes_read = 16,
	                  .bytes_written = 8,
	                  .flops = 2,
	                  .bytes_write_allocate = 8},
	};

	*w = per_op[p->op];
}

static const struct lab_metric nb_metrics[] = {LAB_METRIC_END};

/* The analyzer's NUMA view: matrices, policy histograms, ladder, loaded curve
 * (analyze/views/numa.c). */
static const char *const nb_views[] = {"numa", NULL};

/* The threads, all at once, first-touch their arrays of size bytes each (huge pages take few
 * faults: the rough price); a pass streams them. */
static void nb_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct nb_params *p = params;
	double bytes = nb_arrays(p->op) * (double)p->size;

	(void)nthreads;
	if (p->hugepages)
		est->setup_ns = bytes * LAB_EST_TOUCH_NS_PER_BYTE;
	else
		est->touch_bytes = bytes;
	est->iter_ns = bytes * LAB_EST_STREAM_NS_PER_BYTE;
}

static const char nb_verifies[] =
    "op = read: each thread's sum equals the elements it read (each is 1); write, copy "
    "and triad: every element a pass wrote holds 2, 1 or 7; where the pages landed is "
    "recorded (placement_ok, pages per node), not verified";
static const char *const nb_needs[] = {
    "mem_node = N: a machine with NUMA node N (far: the node farthest from node 0)",
    NULL,
};

const struct lab_kernel lab_kernel_numa_bw = {
    .abi = LAB_KERNEL_ABI,
    .name = "numa_bw",
    .summary = "threads on one node stream memory bound to another: the node x node matrix",
    .description = nb_description,
    .flags = LAB_KF_NUMA,
    .params = nb_params_table,
    .params_size = sizeof(struct nb_params),
    .metrics = nb_metrics,
    .work_unit = "element",
    .work_per_unit = nb_work,
    .check = nb_check,
    .thread_setup = nb_thread_setup,
    .run = nb_run,
    .verify = nb_verify,
    .teardown = nb_teardown,
    .estimate = nb_estimate,
    .views = nb_views,
    .verifies = nb_verifies,
    .needs = nb_needs,
};
