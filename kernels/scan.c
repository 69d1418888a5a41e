/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scan: inclusive prefix sum, serial or parallel, from L2-sized arrays to DRAM-sized ones. */
#include <stdlib.h>
#include <string.h>

#include "harness/buffer.h"
#include "kernels/omp_common.h"

static const char sc_description[] =
    "Inclusive prefix sum out[i] = in[0] + ... + in[i] of `size` bytes of 64-bit integers.\n"
    "serial: one thread, one pass (read 8, write 8\n"
    "bytes per element), the baseline a parallel scan must beat, measured at threads = 1 (at\n"
    "more it is skipped, saying so). two_pass: each thread sums its block, the block sums are\n"
    "scanned, then each thread scans its block again from its offset: twice the reads, so once\n"
    "the array is bigger than the caches it must win back a second pass over memory before it\n"
    "gains anything; it has room where compute, not bandwidth, binds (cache-sized arrays) or\n"
    "with many cores. blocked: the same two passes over tiles of `tile` bytes per thread, so\n"
    "the second pass reads from cache: one trip to memory per element, two barriers per tile\n"
    "(a barrier costs about a microsecond in some OpenMP runtimes even at one thread: with\n"
    "small tiles they can cost more than the trip to memory saves; a larger tile pays fewer).\n"
    "Compare speedup against threads per size, from cache sizes to DRAM, and the three methods\n"
    "at the DRAM sizes. Knobs: method, size, tile, threads. Work unit: one element.";

enum sc_method { SC_SERIAL, SC_TWO_PASS, SC_BLOCKED };

struct sc_params {
	int method;
	uint64_t size;
	uint64_t tile;
};

static const struct lab_enum_val sc_methods[] = {
    {"serial", SC_SERIAL, "one thread, one pass"},
    {"two_pass", SC_TWO_PASS, "block sums, scan of sums, block scans (reads twice)"},
    {"blocked", SC_BLOCKED, "two_pass over cache-sized tiles (reads memory once)"},
    {NULL, 0, NULL},
};

static const struct lab_param sc_params_table[] = {
    LAB_P_ENUM(struct sc_params, method, "method", "two_pass", sc_methods, "How the scan runs."),
    LAB_P_SIZE(struct sc_params, size, "size", "1MiB", 64, 1ull << 34,
               "Bytes of input (8 per element); the output is as big again."),
    LAB_P_SIZE(struct sc_params, tile, "tile", "128KiB", 1024, 1ull << 30,
               "blocked: bytes of input per thread per tile (fit it in L2).",
               LAB_APPLIES("method=blocked")),
    LAB_PARAM_END,
};

static const struct lab_metric sc_metrics[] = {LAB_METRIC_END};

static int sc_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct sc_params *p = params;
	int rc = komp_check(env, err);

	if (rc)
		return rc;
	/* One worker scans while the others wait: its time against serial at one thread is the
	 * team's setup (who first touched the arrays), not a speedup of a serial pass. */
	if (p->method == SC_SERIAL && nthreads > 1) {
		lab_err_set(err, LAB_EUNSUP,
		            "method = serial runs on one thread: it is measured at threads = 1, "
		            "the baseline of every thread count");
		return LAB_SKIP;
	}
	return 0;
}

static void sc_work(const void *params, struct lab_work *w)
{
	const struct sc_params *p = params;

	w->bytes_read = p->method == SC_TWO_PASS ? 16 : 8;
	w->bytes_written = 8;
	w->flops = 0;
}

#ifdef _OPENMP
struct sc_state {
	struct lab_buf buf[2]; /* behind in and out */
	uint64_t *in, *out, n;
	uint64_t *sums; /* one per thread, LAB_SLOT / 8 apart */
	uint64_t passes;
};

#define SC_STRIDE (LAB_SLOT / 8)

static void sc_free(struct sc_state *st)
{
	if (!st)
		return;
	lab_buf_free(&st->buf[0]);
	lab_buf_free(&st->buf[1]);
	free(st->sums);
	free(st);
}

/* Maps the arrays untouched: the OpenMP team first-touches its blocks in thread_setup. */
static int sc_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct sc_params *p = ctx->params;
	struct sc_state *st = calloc(1, sizeof(*st));
	size_t bytes = (p->size / 8) * 8;
	struct lab_buf_opts o = {.align_bytes = 4096, .no_touch = true};

	if (!st || !(st->sums = aligned_alloc(LAB_SLOT, (ctx->nthreads + 1) * LAB_SLOT))) {
		sc_free(st);
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	}
	st->n = p->size / 8;
	for (int k = 0; k < 2; k++)
		if (lab_buf_alloc(&st->buf[k], bytes, &o, err)) {
			sc_free(st);
			return lab_err_prefix(err, "scan arrays of %zu bytes: ", bytes);
		}
	st->in = st->buf[0].p;
	st->out = st->buf[1].p;
	ctx->priv = st;
	return 0;
}

static int sc_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	struct sc_state *st = ctx->priv;
	uint64_t seed = ctx->seed;
	int rc = komp_bind_team(ctx, err);

	(void)t;
	if (rc)
		return rc;
		/* First touch by the thread that reads each block (the parallel methods' split). */
#pragma omp parallel for num_threads(ctx->nthreads) schedule(static)
	for (uint64_t i = 0; i < st->n; i++) {
		st->in[i] = ((i + seed) * 0x9e3779b97f4a7c15ull) >> 48;
		st->out[i] = 0;
	}
	return 0;
}

static void sc_serial(const uint64_t *in, uint64_t *out, uint64_t lo, uint64_t hi, uint64_t s)
{
	for (uint64_t i = lo; i < hi; i++) {
		s += in[i];
		out[i] = s;
	}
}

/*
 * Two passes over [lo, hi) by the whole team, from carry: block sums, then block scans. Called
 * by every thread of an open region; returns the scan's last value (the next carry).
 */
static uint64_t sc_two_pass(struct sc_state *st, uint64_t lo, uint64_t hi, uint64_t carry)
{
	unsigned me = (unsigned)omp_get_thread_num(), nt = (unsigned)omp_get_num_threads();
	uint64_t len = hi - lo, b0 = lo + len * me / nt, b1 = lo + len * (me + 1) / nt, s = 0;

	for (uint64_t i = b0; i < b1; i++)
		s += st->in[i];
	st->sums[me * SC_STRIDE] = s;
#pragma omp barrier
	s = carry;
	for (unsigned k = 0; k < me; k++)
		s += st->sums[k * SC_STRIDE];
	sc_serial(st->in, st->out, b0, b1, s);
	s = carry;
	for (unsigned k = 0; k < nt; k++)
		s += st->sums[k * SC_STRIDE];
		/* Nobody overwrites sums for the next tile before everyone has read them. */
#pragma omp barrier
	return s;
}

static void sc_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct sc_params *p = ctx->params;
	struct sc_state *st = ctx->priv;
	uint64_t tile = (p->tile / 8) * ctx->nthreads;

	for (uint64_t it = 0; it < t->iters; it++) {
		if (p->method == SC_SERIAL) {
			sc_serial(st->in, st->out, 0, st->n, 0);
			continue;
		}
#pragma omp parallel num_threads(ctx->nthreads)
		{
			if (p->method == SC_TWO_PASS) {
				sc_two_pass(st, 0, st->n, 0);
			} else {
				uint64_t carry = 0;
				for (uint64_t lo = 0; lo < st->n; lo += tile)
					carry = sc_two_pass(
					    st, lo, lo + tile < st->n ? lo + tile : st->n, carry);
			}
		}
	}
	lab_clobber_memory();
	st->passes += t->iters;
	t->work = t->iters * st->n;
}

static int sc_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	struct sc_state *st = ctx->priv;
	uint64_t s = 0;

	(void)n;
	if (st->passes * st->n != threads[0]->work_total)
		return lab_err_set(err, LAB_EVERIFY, "%llu passes of %llu elements, %llu reported",
		                   (unsigned long long)st->passes, (unsigned long long)st->n,
		                   (unsigned long long)threads[0]->work_total);
	for (uint64_t i = 0; i < st->n; i++) {
		s += st->in[i];
		if (st->out[i] != s)
			return lab_err_set(err, LAB_EVERIFY,
			                   "out[%llu] = %llu, the serial scan gives %llu",
			                   (unsigned long long)i, (unsigned long long)st->out[i],
			                   (unsigned long long)s);
	}
	return 0;
}

static void sc_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct sc_state *st = ctx->priv;

	(void)threads;
	(void)n;
	sc_free(st);
}

/* The team first-touches its blocks of the two arrays at once; a scan passes over them twice
 * at most. */
static void sc_estimate(const void *params, unsigned nthreads, struct lab_kernel_est *est)
{
	const struct sc_params *p = params;
	double block = 2.0 * (double)p->size / (nthreads ? nthreads : 1);

	est->touch_bytes = block;
	est->iter_ns = 2 * block * LAB_EST_STREAM_NS_PER_BYTE;
}
#endif

/* The analyzer's view: speedup vs size per method (analyze/views/scan.c). */
static const char *const sc_views[] = {"scan", NULL};

static const char sc_verifies[] =
    "passes x elements equals the work counted, and every element of out equals the "
    "serial prefix sum of in (exact: 64-bit integers)";
static const char *const sc_needs[] = {
    "method = serial: threads = 1 (at more threads it is skipped: serial is the baseline "
    "of every thread count)",
    NULL,
};

const struct lab_kernel lab_kernel_scan = {
    .abi = LAB_KERNEL_ABI,
    .name = "scan",
    .summary = "inclusive prefix sum: serial, two-pass and cache-blocked parallel scans",
    .description = sc_description,
    .flags = LAB_KF_OPENMP,
    .params = sc_params_table,
    .params_size = sizeof(struct sc_params),
    .metrics = sc_metrics,
    .work_unit = "element",
    .views = sc_views,
    .verifies = sc_verifies,
    .needs = sc_needs,
    .work_per_unit = sc_work,
    .check = sc_check,
#ifdef _OPENMP
    .setup = sc_setup,
    .estimate = sc_estimate,
    .thread_setup = sc_thread_setup,
    .run = sc_run,
    .verify = sc_verify,
    .teardown = sc_teardown,
#else
    .run = komp_absent_run,
#endif
};
