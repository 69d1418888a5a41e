/* SPDX-License-Identifier: GPL-3.0-or-later */
/* false_sharing: per-thread counters that share, or do not share, a cache line. */
#include <stdlib.h>
#include <string.h>

#include "harness/buffer.h"
#include "harness/kernel_api.h"

static const char fs_description[] =
    "Each thread increments its own counter; nothing is shared logically, yet when two\n"
    "counters sit in one 64-byte cache line the cores take the line from each other to write\n"
    "(coherence ping-pong: a locked add at every increment, plain stores as often as the store\n"
    "buffer lets them). With layout = stride, counters are `stride` bytes\n"
    "apart: below 64 they share lines, at 64 each has its own line, at 128 even an\n"
    "adjacent-line prefetcher, where the core has one, stops pairing them. With layout =\n"
    "struct, each thread owns a 32-byte struct whose hot counter sits next to cold fields,\n"
    "packed so every line holds two neighbours' hot fields (threads 0 and 1, 2 and 3, ...);\n"
    "struct_aligned gives each struct its own 128-byte\n"
    "block. op = rmw is a locked fetch_add: each one must own the line. op = store is a\n"
    "relaxed load+store (what `counter++` compiles to): the store buffer lets the owning core\n"
    "retire bursts of stores before the line moves, so its penalty differs from rmw's by a\n"
    "factor that depends on the microarchitecture. Compare, at the same thread count and op,\n"
    "the cost per increment at stride 8 with stride 128 (and struct with struct_aligned): that\n"
    "ratio is the price of sharing a line on this machine; the config's lessons check it with\n"
    "an interval. It grows with the distance between the cores (across sockets most) and\n"
    "shrinks toward 1 under foreign load: check foreign_cpu.";

enum fs_op { FS_OP_STORE, FS_OP_RMW };
enum fs_layout { FS_LAYOUT_STRIDE, FS_LAYOUT_STRUCT, FS_LAYOUT_STRUCT_ALIGNED };

struct fs_params {
	uint64_t stride;
	int op;
	int layout;
};

static const struct lab_enum_val fs_ops[] = {
    {"store", FS_OP_STORE, "relaxed atomic load then store (a plain increment)"},
    {"rmw", FS_OP_RMW, "atomic fetch_add (lock xadd)"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val fs_layouts[] = {
    {"stride", FS_LAYOUT_STRIDE, "counters `stride` bytes apart in one array"},
    {"struct", FS_LAYOUT_STRUCT, "per-thread structs, hot field beside cold fields, packed"},
    {"struct_aligned", FS_LAYOUT_STRUCT_ALIGNED, "per-thread structs, each on its own 128 B"},
    {NULL, 0, NULL},
};

static const struct lab_param fs_params_table[] = {
    LAB_P_SIZE(struct fs_params, stride, "stride", "8", 8, 4096,
               "Bytes between neighbouring threads' counters; a multiple of 8.",
               LAB_APPLIES("layout=stride")),
    LAB_P_ENUM(struct fs_params, op, "op", "store", fs_ops, "How a counter is incremented."),
    LAB_P_ENUM(struct fs_params, layout, "layout", "stride", fs_layouts,
               "Where the counters live."),
    LAB_PARAM_END,
};

/* The packed per-thread struct: 32 bytes, so every 64-byte line holds two threads' hot fields
 * (threads 2k and 2k + 1). At 48 bytes the hot fields fell on lines 0, 0, 1, 2, 3, 3, ...: only
 * threads 4k and 4k + 1 shared one, and at 4 threads half the team wrote a line of its own. */
struct fs_packed {
	_Atomic uint64_t hot;
	uint64_t cold[3];
};
_Static_assert(sizeof(struct fs_packed) * 2 == 64, "two packed structs a 64-byte line");

struct fs_aligned {
	alignas(LAB_SLOT) _Atomic uint64_t hot;
	uint64_t cold[5];
};

struct fs_state {
	struct lab_buf mem;
	_Atomic uint64_t **counter; /* per thread */
};

static int fs_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct fs_params *p = params;

	(void)nthreads;
	(void)env;
	if (p->layout == FS_LAYOUT_STRIDE && p->stride % 8 != 0)
		return lab_err_set(err, LAB_ECONFIG,
		                   "stride = %llu: not a multiple of 8 bytes (counters are 64-bit "
		                   "atomics; allowed 8, 16, ... 4096)",
		                   (unsigned long long)p->stride);
	return 0;
}

static size_t fs_offset(const struct fs_params *p, unsigned i)
{
	switch (p->layout) {
	case FS_LAYOUT_STRUCT:
		return i * sizeof(struct fs_packed) + offsetof(struct fs_packed, hot);
	case FS_LAYOUT_STRUCT_ALIGNED:
		return i * sizeof(struct fs_aligned) + offsetof(struct fs_aligned, hot);
	default:
		return i * p->stride;
	}
}

static int fs_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct fs_params *p = ctx->params;
	struct fs_state *st = calloc(1, sizeof(*st));
	size_t bytes = fs_offset(p, ctx->nthreads) + LAB_SLOT;
	/* Page-aligned, so stride 8 really puts the first eight counters in one line. */
	struct lab_buf_opts o = {.align_bytes = 4096};

	if (!st || !(st->counter = calloc(ctx->nthreads, sizeof(*st->counter)))) {
		free(st);
		return lab_err_set(err, LAB_ENOMEM, "out of memory for %u threads", ctx->nthreads);
	}
	int rc = lab_buf_alloc(&st->mem, bytes, &o, err);
	if (rc) {
		free(st->counter);
		free(st);
		return rc;
	}
	for (unsigned i = 0; i < ctx->nthreads; i++) {
		st->counter[i] = (_Atomic uint64_t *)((char *)st->mem.p + fs_offset(p, i));
		atomic_init(st->counter[i], 0);
	}
	ctx->priv = st;
	return 0;
}

/* The timed loops: the operation is inlined; the stop flag is polled every 1024 increments. */
static uint64_t fs_loop_store(_Atomic uint64_t *c, const struct lab_thread *t)
{
	uint64_t done = 0;

	do {
		for (int k = 0; k < 1024; k++) {
			uint64_t v = atomic_load_explicit(c, memory_order_relaxed);
			atomic_store_explicit(c, v + 1, memory_order_relaxed);
		}
		done += 1024;
	} while (!lab_thread_should_stop(t));
	return done;
}

static uint64_t fs_loop_rmw(_Atomic uint64_t *c, const struct lab_thread *t)
{
	uint64_t done = 0;

	do {
		for (int k = 0; k < 1024; k++)
			atomic_fetch_add_explicit(c, 1, memory_order_relaxed);
		done += 1024;
	} while (!lab_thread_should_stop(t));
	return done;
}

static void fs_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct fs_params *p = ctx->params;
	struct fs_state *st = ctx->priv;
	_Atomic uint64_t *c = st->counter[t->id];

	t->work = p->op == FS_OP_RMW ? fs_loop_rmw(c, t) : fs_loop_store(c, t);
}

static int fs_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	struct fs_state *st = ctx->priv;

	for (unsigned i = 0; i < n; i++) {
		uint64_t v = atomic_load(st->counter[i]);
		if (v != threads[i]->work_total)
			return lab_err_set(
			    err, LAB_EVERIFY, "thread %u's counter is %llu after %llu increments",
			    i, (unsigned long long)v, (unsigned long long)threads[i]->work_total);
	}
	return 0;
}

static void fs_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct fs_state *st = ctx->priv;

	(void)threads;
	(void)n;
	if (!st)
		return;
	lab_buf_free(&st->mem);
	free(st->counter);
	free(st);
}

static void fs_work(const void *params, struct lab_work *w)
{
	(void)params;
	w->bytes_read = 8;
	w->bytes_written = 8;
	w->flops = 0;
}

static const struct lab_metric fs_metrics[] = {LAB_METRIC_END};

/* The analyzer draws cost vs stride, one line per thread count (analyze/views/stride.c), and
 * the struct layouts side by side (analyze/views/fs_layout.c). */
static const char *const fs_views[] = {"stride", "fs_layout", NULL};

static const char fs_verifies[] =
    "each thread's counter equals the increments it counted (no update lost, shared line "
    "or not)";

const struct lab_kernel lab_kernel_false_sharing = {
    .abi = LAB_KERNEL_ABI,
    .name = "false_sharing",
    .summary = "per-thread counters `stride` bytes apart: coherence ping-pong below 64 B",
    .description = fs_description,
    .flags = LAB_KF_TIMED,
    .params = fs_params_table,
    .params_size = sizeof(struct fs_params),
    .metrics = fs_metrics,
    .work_unit = "increment",
    .views = fs_views,
    .verifies = fs_verifies,
    .work_per_unit = fs_work,
    .check = fs_check,
    .setup = fs_setup,
    .run = fs_run,
    .verify = fs_verify,
    .teardown = fs_teardown,
};
