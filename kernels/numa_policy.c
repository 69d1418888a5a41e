/* SPDX-License-Identifier: GPL-3.0-or-later */
/* numa_policy: one parallel triad, its arrays placed by first touch, serially, or by policy. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"
#include "kernels/numa_common.h"

static const char np_description[] =
    "A parallel triad a = b + 3c over three shared arrays of `size` bytes, each thread on its\n"
    "own slice. What differs is who places the pages, and so where they are:\n"
    "  first_touch  each thread initializes its own slice: pages on the node of the thread\n"
    "               that will use them (Linux's default policy, used right);\n"
    "  serial       thread 0 initializes everything: every page on thread 0's node, and the\n"
    "               threads of the other socket read across the interconnect (the classic bug);\n"
    "  interleave   pages dealt round-robin over all nodes (MPOL_INTERLEAVE): even, and for\n"
    "               each thread all but 1/nodes remote (half on 2 nodes, 3/4 on 4);\n"
    "  bind:N       every page on node N (MPOL_BIND); preferred:N: node N while it has room.\n"
    "After the samples the kernel asks Linux where every page is (move_pages) and records pages\n"
    "per node in run.json (point_facts); a point whose pages are not where init asked is marked\n"
    "placement_ok = false with a note. The comparison that teaches is on 2+ nodes with threads\n"
    "on each (placement = scatter): first_touch against serial (local against one node's\n"
    "pages read across the interconnect), interleave between them. On one node every policy\n"
    "lands on node 0, so the rows measure the same placement (bind:1 is skipped with the\n"
    "reason): any difference between them there is noise, not policy.";

enum np_kind { NP_FIRST_TOUCH, NP_SERIAL, NP_INTERLEAVE, NP_BIND, NP_PREFERRED };

#define NP_ALLOWED "allowed first_touch, serial, interleave, bind:N, preferred:N"
#define NP_NBUF    3

struct np_params {
	char init[LAB_STR_MAX];
	uint64_t size;
};

static const struct lab_param np_params_table[] = {
    LAB_P_STR(struct np_params, init, "init", "first_touch",
              "Who places the pages: first_touch, serial, interleave, bind:N or preferred:N."),
    LAB_P_SIZE(struct np_params, size, "size", "32M", 4096, (uint64_t)16 << 30,
               "Bytes of each of the three shared arrays."),
    LAB_PARAM_END,
};

struct np_init {
	enum np_kind kind;
	int node; /* bind and preferred */
};

struct np_state {
	struct lab_buf buf[NP_NBUF];
	double *a, *b, *c;
	size_t n;
	struct np_init init;
	int *node;       /* per thread: where it ran at setup */
	size_t *written; /* per thread: the longest prefix of its slice one run() wrote */
};

/* Parses init into *out. Returns 0 or -LAB_ECONFIG with "init = X: ..." in err. */
static int np_parse(const char *text, struct np_init *out, struct lab_err *err)
{
	static const struct {
		const char *name;
		enum np_kind kind;
	} plain[] = {
	    {"first_touch", NP_FIRST_TOUCH}, {"serial", NP_SERIAL}, {"interleave", NP_INTERLEAVE}};
	const char *num = NULL;
	char *end;

	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++)
		if (!strcmp(text, plain[i].name)) {
			*out = (struct np_init){.kind = plain[i].kind};
			return 0;
		}
	if (!strncmp(text, "bind:", 5)) {
		out->kind = NP_BIND;
		num = text + 5;
	} else if (!strncmp(text, "preferred:", 10)) {
		out->kind = NP_PREFERRED;
		num = text + 10;
	}
	if (num && *num >= '0' && *num <= '9') {
		long v = strtol(num, &end, 10);
		if (!*end && v < LAB_BUF_NODES_MAX) {
			out->node = (int)v;
			return 0;
		}
	}
	return lab_err_set(err, LAB_ECONFIG, "init = %s: unknown placement (%s, N = 0 .. %d)", text,
	                   NP_ALLOWED, LAB_BUF_NODES_MAX - 1);
}

/* bind:N and preferred:N on a machine without node N are skipped, not config errors: the
 * same ch27 config runs on one node and on two (the reason says which node is missing). */
static int np_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct np_params *p = params;
	struct np_init in;
	int rc = np_parse(p->init, &in, err);

	if (rc)
		return rc;
	if (p->size / sizeof(double) < nthreads)
		return lab_err_set(err, LAB_ECONFIG,
		                   "size = %llu: fewer elements than threads (allowed >= %u bytes)",
		                   (unsigned long long)p->size, nthreads * 8);
	if (in.kind != NP_BIND && in.kind != NP_PREFERRED)
		return 0;
	char what[LAB_STR_MAX + 8];
	snprintf(what, sizeof(what), "init = %s", p->init);
	return knuma_check_node((uint64_t)in.node, what, env, err);
}

static void np_free(struct np_state *st)
{
	if (!st)
		return;
	for (int i = 0; i < NP_NBUF; i++)
		lab_buf_free(&st->buf[i]);
	free(st->node);
	free(st->written);
	free(st);
}

/* Maps the arrays untouched: the policy is set now, the pages come in thread_setup. */
static int np_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct np_params *p = ctx->params;
	struct np_state *st = calloc(1, sizeof(*st));
	/* Explicit local: init is this kernel's own placement, and it wins over membind. */
	struct lab_buf_opts o = {
	    .place = LAB_BUF_LOCAL, .huge = LAB_BUF_HUGE_OFF, .no_touch = true};
	int rc;

	if (!st || !(st->node = calloc(ctx->nthreads, sizeof(int))) ||
	    !(st->written = calloc(ctx->nthreads, sizeof(size_t)))) {
		np_free(st);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	rc = np_parse(p->init, &st->init, err);
	if (st->init.kind == NP_INTERLEAVE)
		o.place = LAB_BUF_INTERLEAVE;
	else if (st->init.kind == NP_BIND || st->init.kind == NP_PREFERRED)
		o.place = st->init.kind == NP_BIND ? LAB_BUF_BIND : LAB_BUF_PREFERRED;
	o.node = st->init.node;
	st->n = p->size / sizeof(double);
	for (int i = 0; rc == 0 && i < NP_NBUF; i++)
		rc = lab_buf_alloc(&st->buf[i], st->n * sizeof(double), &o, err);
	if (rc) {
		np_free(st);
		return rc;
	}
	st->a = st->buf[0].p;
	st->b = st->buf[1].p;
	st->c = st->buf[2].p;
	ctx->priv = st;
	return 0;
}

static void np_slice(const struct np_state *st, unsigned nthreads, unsigned id, size_t *lo,
                     size_t *hi)
{
	*lo = st->n * id / nthreads;
	*hi = st->n * (id + 1) / nthreads;
}

static void np_fill(struct np_state *st, size_t lo, size_t hi)
{
	for (size_t i = lo; i < hi; i++) {
		st->a[i] = 0.0;
		st->b[i] = 1.0;
		st->c[i] = 2.0;
	}
}

/* The first write to each page places it: every thread its slice, or thread 0 everything. */
static int np_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	struct np_state *st = ctx->priv;
	size_t lo, hi;

	(void)err;
	st->node[t->id] = knuma_node_here();
	if (st->init.kind == NP_SERIAL) {
		if (t->id == 0)
			np_fill(st, 0, st->n);
		return 0;
	}
	np_slice(st, ctx->nthreads, t->id, &lo, &hi);
	np_fill(st, lo, hi);
	return 0;
}

static void np_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	struct np_state *st = ctx->priv;
	double *restrict a = st->a;
	const double *restrict b = st->b, *restrict c = st->c;
	size_t lo, hi;

	np_slice(st, ctx->nthreads, t->id, &lo, &hi);
	for (uint64_t done = 0; done < t->iters;) {
		size_t n = hi - lo, m = t->iters - done < n ? (size_t)(t->iters - done) : n;
		for (size_t i = lo; i < lo + m; i++)
			a[i] = b[i] + 3.0 * c[i];
		done += m;
		if (m > st->written[t->id]) /* once per run(), not per element */
			st->written[t->id] = m;
	}
	lab_clobber_memory();
}

/* Pages of the array range [lo, hi) elements that start inside it. */
static uint64_t np_pages_in(size_t lo, size_t hi, size_t page)
{
	size_t first = (lo * sizeof(double) + page - 1) / page;
	size_t end = (hi * sizeof(double) + page - 1) / page;

	return end - first;
}

/*
 * What init asked for, as pages per node over the three arrays (pages each) and the slack a
 * fair reading allows: a page shared by two threads' slices goes to whichever touched it first,
 * and interleave may start on any node.
 */
static uint64_t np_expect(const struct lab_ctx *ctx, const struct np_state *st, uint64_t pages,
                          uint64_t *expect, unsigned *nexpect)
{
	size_t page = 4096, lo, hi;
	unsigned nodes = ctx->env->numa_nodes ? ctx->env->numa_nodes : 1;
	long ps = sysconf(_SC_PAGESIZE);

	if (ps > 0)
		page = (size_t)ps;
	memset(expect, 0, LAB_BUF_NODES_MAX * sizeof(*expect));
	*nexpect = nodes < LAB_BUF_NODES_MAX ? nodes : LAB_BUF_NODES_MAX;
	switch (st->init.kind) {
	case NP_BIND:
	case NP_PREFERRED:
		expect[st->init.node] = NP_NBUF * pages;
		*nexpect =
		    (unsigned)st->init.node + 1 > *nexpect ? (unsigned)st->init.node + 1 : *nexpect;
		return 0;
	case NP_SERIAL:
		if (st->node[0] >= 0 && st->node[0] < LAB_BUF_NODES_MAX)
			expect[st->node[0]] = NP_NBUF * pages;
		return 0;
	case NP_INTERLEAVE:
		for (unsigned i = 0; i < *nexpect; i++)
			expect[i] = NP_NBUF * (pages / *nexpect);
		return NP_NBUF;
	default:
		for (unsigned i = 0; i < ctx->nthreads; i++) {
			np_slice(st, ctx->nthreads, i, &lo, &hi);
			if (st->node[i] >= 0 && st->node[i] < LAB_BUF_NODES_MAX)
				expect[st->node[i]] += NP_NBUF * np_pages_in(lo, hi, page);
		}
		return (uint64_t)NP_NBUF * ctx->nthreads;
	}
}

/* The pages' real nodes as point facts, and whether they are where init asked. */
static void np_facts(struct lab_ctx *ctx, struct np_state *st)
{
	const struct np_params *p = ctx->params;
	struct lab_buf_pages all = {.max_node = -1}, one;
	uint64_t expect[LAB_BUF_NODES_MAX], per_node[LAB_BUF_NODES_MAX] = {0};
	unsigned nexpect, nodes = ctx->env->numa_nodes ? ctx->env->numa_nodes : 1;
	struct lab_err err;
	char why[256];

	lab_ctx_fact_str(ctx, "init", p->init);
	lab_ctx_fact_int(ctx, "cpu_node", knuma_common_node(st->node, ctx->nthreads));
	for (unsigned i = 0; i < ctx->nthreads; i++)
		if (st->node[i] >= 0 && st->node[i] < LAB_BUF_NODES_MAX)
			per_node[st->node[i]]++;
	lab_ctx_fact_uints(ctx, "threads_per_node", per_node,
	                   nodes < LAB_BUF_NODES_MAX ? nodes : LAB_BUF_NODES_MAX);
	for (int k = 0; k < NP_NBUF; k++) {
		if (lab_buf_pages(&st->buf[k], &one, &err) != 0) {
			lab_ctx_fact_str(ctx, "placement_note", err.msg);
			return;
		}
		knuma_pages_add(&all, &one);
	}
	knuma_fact_pages(ctx, &all);
	uint64_t tol = np_expect(ctx, st, all.pages / NP_NBUF, expect, &nexpect);
	bool ok = knuma_hist_matches(expect, nexpect, &all, tol, why, sizeof(why));
	lab_ctx_fact_bool(ctx, "placement_ok", ok);
	if (!ok)
		lab_ctx_fact_str(ctx, "placement_note", why);
}

static int np_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	struct np_state *st = ctx->priv;
	size_t lo, hi;

	np_facts(ctx, st);
	for (unsigned t = 0; t < n; t++) {
		np_slice(st, n, t, &lo, &hi);
		size_t end = lo + st->written[t];
		if (threads[t]->work_total && !st->written[t])
			return lab_err_set(
			    err, LAB_EVERIFY,
			    "thread %u counted %llu elements but never wrote its slice", t,
			    (unsigned long long)threads[t]->work_total);
		for (size_t i = lo; i < end; i++)
			if (st->a[i] != 7.0)
				return lab_err_set(
				    err, LAB_EVERIFY,
				    "a[%zu] = %g after the triad (thread %u), expected 7", i,
				    st->a[i], t);
	}
	return 0;
}

static void np_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)threads;
	(void)n;
	np_free(ctx->priv);
	ctx->priv = NULL;
}

static void np_work(const void *params, struct lab_work *w)
{
	(void)params;
	*w = (struct lab_work){
	    .bytes_read = 16, .bytes_written = 8, .flops = 2, .bytes_write_allocate = 8};
}

static const struct lab_metric np_metrics[] = {LAB_METRIC_END};

/* The analyzer's NUMA view: matrices, policy histograms, ladder, loaded curve
 * (analyze/views/numa.c). */
static const char *const np_views[] = {"numa", NULL};

/* The three arrays of size bytes each are placed by their first touch: thread 0 writes them
 * all (init = serial) or each thread its slice at once; a pass streams them. */
static void np_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct np_params *p = params;
	struct np_init in = {0};
	double bytes = NP_NBUF * (double)p->size;

	est->touch_bytes = np_parse(p->init, &in, NULL) == 0 && in.kind != NP_SERIAL && nthreads
	                       ? bytes / nthreads
	                       : bytes;
	est->iter_ns = bytes / (nthreads ? nthreads : 1) * LAB_EST_STREAM_NS_PER_BYTE;
}

static const char np_verifies[] =
    "each thread that counted elements wrote its slice, and every element the triad wrote "
    "holds 7 (b + 3c); where the pages landed is recorded (placement_ok, pages per node), "
    "not verified";
static const char *const np_needs[] = {
    "init = bind:N or preferred:N: a machine with NUMA node N",
    NULL,
};

const struct lab_kernel lab_kernel_numa_policy = {
    .abi = LAB_KERNEL_ABI,
    .name = "numa_policy",
    .summary = "parallel triad with pages placed by first touch, serially, interleaved or bound",
    .description = np_description,
    .params = np_params_table,
    .params_size = sizeof(struct np_params),
    .metrics = np_metrics,
    .work_unit = "element",
    .work_per_unit = np_work,
    .check = np_check,
    .setup = np_setup,
    .thread_setup = np_thread_setup,
    .run = np_run,
    .verify = np_verify,
    .teardown = np_teardown,
    .estimate = np_estimate,
    .views = np_views,
    .verifies = np_verifies,
    .needs = np_needs,
};
