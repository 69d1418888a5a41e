/* SPDX-License-Identifier: GPL-3.0-or-later */
/* stream: STREAM-style bandwidth per memory level, per ISA, with or without streaming stores. */
#include <stdlib.h>
#include <string.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"
#include "kernels/simd_isa.h"
#include "kernels/stream_impl.h"

static const char st_description[] =
    "Each thread streams through its own arrays (first-touched by itself): copy a=b, scale\n"
    "a=s*b, add a=b+c, triad a=b+s*c (STREAM's four), load (reads only), store (writes only)\n"
    "and update a=s*a. `size` is all arrays of one thread together, as likwid-bench counts a\n"
    "thread's share, so size = 16 KiB sits in L1 and size = 1 GiB in DRAM whatever the op.\n"
    "Sweep size from L1 to DRAM and the rate steps down at each cache level: those plateaus\n"
    "are the bandwidth ceilings of the roofline. Bytes are declared as STREAM counts them\n"
    "(read + written) and, separately, the write-allocate reads that a cacheable store costs\n"
    "(a line is read before it is overwritten): real DRAM traffic of copy is 1.5x the counted,\n"
    "of triad 1.33x. nt = on uses non-temporal stores, which skip that read (and the cache):\n"
    "faster in DRAM, much slower when the arrays would have fit in cache. isa = scalar moves\n"
    "one double per instruction and cannot saturate L1 (about 16 B/cycle); the vector ISAs\n"
    "can, and in DRAM every ISA reaches the same rate: memory binds, not the core. A unit of\n"
    "work is one element of the arrays; each thread runs whole passes.";

static const struct lab_enum_val st_ops[] = {
    {"copy", STREAM_COPY, "a = b (16 B per element counted)"},
    {"scale", STREAM_SCALE, "a = s*b (16 B, 1 flop)"},
    {"add", STREAM_ADD, "a = b + c (24 B, 1 flop)"},
    {"triad", STREAM_TRIAD, "a = b + s*c (24 B, 2 flops)"},
    {"load", STREAM_LOAD, "read b only (8 B)"},
    {"store", STREAM_STORE, "write a only (8 B)"},
    {"update", STREAM_UPDATE, "a = s*a (16 B, 1 flop; no write-allocate: a is read anyway)"},
    {NULL, 0, NULL},
};

struct st_params {
	int op;
	uint64_t size;
	int isa;
	bool nt;
};

static const struct lab_param st_params_table[] = {
    LAB_P_ENUM(struct st_params, op, "op", "triad", st_ops, "The streaming operation."),
    LAB_P_SIZE(struct st_params, size, "size", "32KiB", 1024, 1ull << 36,
               "All arrays of one thread together (likwid-bench's per-thread share)."),
    LAB_P_ENUM(struct st_params, isa, "isa", "auto", lab_simd_isa_choices,
               "Instruction set of the loop."),
    LAB_P_BOOL(struct st_params, nt, "nt", "false",
               "Non-temporal (streaming) stores; sse2, avx2 and avx512 only.",
               LAB_APPLIES("op=copy|scale|add|triad|store|update")),
    LAB_PARAM_END,
};

/* The arrays an op uses (a thread maps only those: a load of 2 GiB first-touches 2 GiB, not
 * 6), bit 0 for a, 1 for b, 2 for c. */
enum { ST_A = 1, ST_B = 2, ST_C = 4 };

/* Arrays per op, bytes read and written per element, flops per element, which arrays. */
static const struct {
	unsigned streams, rd, wr, flops, uses;
} st_shape[STREAM_NOPS] = {
    [STREAM_COPY] = {2, 8, 8, 0, ST_A | ST_B},
    [STREAM_SCALE] = {2, 8, 8, 1, ST_A | ST_B},
    [STREAM_ADD] = {3, 16, 8, 1, ST_A | ST_B | ST_C},
    [STREAM_TRIAD] = {3, 16, 8, 2, ST_A | ST_B | ST_C},
    [STREAM_LOAD] = {1, 8, 0, 0, ST_B},
    [STREAM_STORE] = {1, 0, 8, 0, ST_A},
    [STREAM_UPDATE] = {1, 8, 8, 1, ST_A},
};

static const struct stream_variant *const st_variants[LAB_ISA_N] = {
    &stream_v_scalar, &stream_v_auto, &stream_v_sse2, &stream_v_avx2, &stream_v_avx512,
};

/* Non-temporal stores: nt applies where the op stores (a load has none to make). */
static bool st_nt(const struct st_params *p)
{
	return p->nt && p->op != STREAM_LOAD;
}

/* Elements per array: the size shared by the op's arrays, rounded down to 16 elements. */
static size_t st_elems(const struct st_params *p)
{
	return (size_t)(p->size / (8u * st_shape[p->op].streams)) / 16 * 16;
}

static stream_fn st_fn(const struct st_params *p)
{
	const struct stream_variant *v = st_variants[p->isa];

	return st_nt(p) ? v->op_nt[p->op] : v->op[p->op];
}

struct st_thread {
	struct lab_buf buf[3];
	double *a, *b, *c;
	size_t n;
	uint64_t passes;  /* whole passes since setup */
	uint64_t load_or; /* what the load loop returned */
	uint64_t want_or; /* the OR of b's bit patterns */
	stream_fn fn;
};

static int st_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct st_params *p = params;

	(void)nthreads;
	if (st_elems(p) < 16)
		return lab_err_set(err, LAB_ECONFIG,
		                   "size = %llu: too small for op = %s (allowed >= %u bytes)",
		                   (unsigned long long)p->size, st_ops[p->op].name,
		                   128u * st_shape[p->op].streams);
	if (st_nt(p) && (p->isa == LAB_ISA_SCALAR || p->isa == LAB_ISA_AUTO)) {
		lab_err_set(
		    err, LAB_EUNSUP,
		    "nt = on: plain C has no non-temporal stores (isa = sse2, avx2 or avx512)");
		return LAB_SKIP;
	}
	int rc = lab_simd_isa_check(p->isa, false, env, err);
	if (rc)
		return rc;
	if (env && env->thissystem && !st_fn(p)) {
		lab_err_set(err, LAB_EUNSUP, "isa = %s: not built for this machine",
		            lab_simd_isa_choices[p->isa].name);
		return LAB_SKIP;
	}
	return 0;
}

static double st_b0(size_t i)
{
	return (double)(1 + i % 7);
}

static double st_c0(size_t i)
{
	return (double)(2 + i % 5);
}

static int st_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct st_params *p = ctx->params;
	struct st_thread *st = calloc(1, sizeof(*st));
	size_t n = st_elems(p), bytes = n * sizeof(double);

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	t->priv = st;
	st->n = n;
	st->fn = st_fn(p);
	/* Each array the op uses its own mapping, first touched here by this (pinned) thread:
	 * local to it. The others stay NULL (the op's loop does not touch them). */
	for (int k = 0; k < 3; k++)
		if ((st_shape[p->op].uses & (1u << k)) &&
		    lab_buf_alloc(&st->buf[k], bytes, &(struct lab_buf_opts){.align_bytes = 4096},
		                  err))
			return lab_err_prefix(err, "stream arrays of %zu bytes: ", bytes);
	st->a = st->buf[0].p;
	st->b = st->buf[1].p;
	st->c = st->buf[2].p;
	for (size_t i = 0; i < n; i++) {
		uint64_t bits;
		if (st->b) {
			st->b[i] = st_b0(i);
			memcpy(&bits, &st->b[i], sizeof(bits));
			st->want_or |= bits;
		}
		if (st->c)
			st->c[i] = st_c0(i);
		if (st->a)
			st->a[i] = p->op == STREAM_UPDATE ? st_b0(i) : 0.0;
	}
	return 0;
}

/* s: 3 for scale, triad and store; -1 for update, so any number of passes stays exact. */
static double st_scalar(const struct st_params *p)
{
	return p->op == STREAM_UPDATE ? -1.0 : 3.0;
}

static void st_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct st_params *p = ctx->params;
	struct st_thread *st = t->priv;
	uint64_t passes = (t->iters + st->n - 1) / st->n;

	/* Whole passes: the loops need no remainder, and the closed form stays simple. */
	st->load_or = st->fn(st->a, st->b, st->c, st_scalar(p), st->n, passes);
	st->passes += passes;
	t->work = passes * st->n;
}

/* The value a[i] must hold after the thread's passes. */
static double st_want(const struct st_params *p, const struct st_thread *st, size_t i)
{
	switch (p->op) {
	case STREAM_COPY:
		return st_b0(i);
	case STREAM_SCALE:
		return 3.0 * st_b0(i);
	case STREAM_ADD:
		return st_b0(i) + st_c0(i);
	case STREAM_TRIAD:
		return st_b0(i) + 3.0 * st_c0(i);
	case STREAM_STORE:
		return 3.0;
	case STREAM_UPDATE:
		return st->passes % 2 ? -st_b0(i) : st_b0(i);
	default:
		return 0.0;
	}
}

static int st_verify_thread(const struct st_params *p, const struct st_thread *st, unsigned id,
                            struct lab_err *err)
{
	if (st->passes == 0)
		return lab_err_set(err, LAB_EVERIFY, "thread %u ran no pass", id);
	if (p->op == STREAM_LOAD) {
		if (st->load_or != st->want_or)
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u: load read OR 0x%llx, the array holds 0x%llx",
			                   id, (unsigned long long)st->load_or,
			                   (unsigned long long)st->want_or);
		return 0;
	}
	for (size_t i = 0; i < st->n; i++) {
		double want = st_want(p, st, i);
		if (st->a[i] != want || (st->b && st->b[i] != st_b0(i)))
			return lab_err_set(err, LAB_EVERIFY,
			                   "thread %u: a[%zu] = %g after %llu passes, want %g", id,
			                   i, st->a[i], (unsigned long long)st->passes, want);
	}
	return 0;
}

static int st_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	const struct st_params *p = ctx->params;

	for (unsigned i = 0; i < n; i++)
		if (st_verify_thread(ctx->params, threads[i]->priv, i, err))
			return -LAB_EVERIFY;
	/* triad's b + s*c, which the roofline says under an FMA roof */
	if (p->op == STREAM_TRIAD)
		lab_ctx_fact_bool(ctx, "fma_fused", lab_simd_isa_fused(p->isa));
	return 0;
}

static void st_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++) {
		struct st_thread *st = threads[i]->priv;
		if (!st)
			continue;
		for (int k = 0; k < 3; k++)
			lab_buf_free(&st->buf[k]);
		free(st);
	}
}

static void st_work(const void *params, struct lab_work *w)
{
	const struct st_params *p = params;

	w->bytes_read = st_shape[p->op].rd;
	w->bytes_written = st_shape[p->op].wr;
	w->flops = st_shape[p->op].flops;
	/* A cacheable store reads its line first, unless the loop read that line already. */
	w->bytes_write_allocate = st_nt(p) || p->op == STREAM_UPDATE ? 0 : st_shape[p->op].wr;
	w->bandwidth_bound = true; /* every op streams: triad's flops are free beside its bytes */
	w->adds_only = p->op == STREAM_ADD;
}

static const struct lab_metric st_metrics[] = {LAB_METRIC_END};

/* The analyzer places its points under the measured ceilings (analyze/views/roofline.c). */
static const char *const st_views[] = {"roofline", NULL};

/* The threads first-touch their arrays (size bytes each, all at once); a pass streams them. */
static void st_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct st_params *p = params;

	(void)nthreads;
	est->touch_bytes = (double)p->size;
	est->iter_ns = (double)p->size * LAB_EST_STREAM_NS_PER_BYTE;
}

static const char st_verifies[] =
    "each thread ran a pass, and every element of a equals the closed form of its op "
    "after that thread's passes (update: s = -1, so a pass flips every sign exactly), "
    "with b unchanged; op = load: the OR of what it read equals the array's";
static const char *const st_needs[] = {
    lab_simd_needs_sse2,
    lab_simd_needs_avx2,
    lab_simd_needs_avx512,
    lab_simd_needs_auto,
    "nt = on: isa = sse2, avx2 or avx512 (plain C, isa = scalar or auto, has no "
    "non-temporal stores) and an op that stores (not load)",
    NULL,
};

const struct lab_kernel lab_kernel_stream = {
    .abi = LAB_KERNEL_ABI,
    .name = "stream",
    .summary = "STREAM copy/scale/add/triad + load/store/update per ISA: bandwidth per level",
    .description = st_description,
    .params = st_params_table,
    .params_size = sizeof(struct st_params),
    .metrics = st_metrics,
    .work_unit = "element",
    .work_per_unit = st_work,
    .views = st_views,
    .verifies = st_verifies,
    .needs = st_needs,
    .check = st_check,
    .thread_setup = st_thread_setup,
    .run = st_run,
    .verify = st_verify,
    .teardown = st_teardown,
    .estimate = st_estimate,
};
