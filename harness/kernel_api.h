/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The contract between the harness and a kernel. A kernel is one const struct lab_kernel: a
 * typed parameter table bound to the kernel's own params struct, declared metrics, an optional
 * declaration of bytes and flops per unit of work, and hooks. The harness owns everything else:
 * parsing, sweeps, placement, threads, timing, calibration, verification bookkeeping and files.
 *
 * Kernels include this header, harness/clock.h and harness/buffer.h (their memory) only. They
 * never write into params or harness settings; derived state lives in ctx->priv and t->priv.
 */
#ifndef LAB_HARNESS_KERNEL_API_H
#define LAB_HARNESS_KERNEL_API_H

#include <stdalign.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "harness/cpufeat.h"
#include "harness/err.h"

#define LAB_KERNEL_ABI 4 /* bump when struct lab_kernel changes */

/* Data cache levels a machine may report (L1..L5). */
#define LAB_CACHE_LEVELS 5

/* A coherence granule: 64-byte lines, fetched in adjacent pairs by many x86 prefetchers. */
#define LAB_CACHELINE 64
#define LAB_SLOT      128

#define LAB_METRICS_MAX 16
#define LAB_STR_MAX     64

/* ---- parameters ---- */

enum lab_ptype {
	LAB_PT_U64,      /* uint64_t; plain integer, K/M/G allowed as x1000 multipliers */
	LAB_PT_SIZE,     /* uint64_t bytes; suffixes K KiB M MiB G GiB (K = KiB = 1024) */
	LAB_PT_DURATION, /* uint64_t nanoseconds; suffixes ns us ms s */
	LAB_PT_DOUBLE,   /* double */
	LAB_PT_BOOL,     /* bool; true/false, yes/no, on/off, 1/0 */
	LAB_PT_ENUM,     /* int; one of choices[] by name */
	LAB_PT_STR,      /* char[LAB_STR_MAX] */
};

struct lab_enum_val {
	const char *name; /* as written in the config */
	int value;        /* stored into the int field */
	const char *help; /* one phrase, shown by `lab describe` */
};

struct lab_param {
	const char *key;                    /* INI key; lower_snake; equals the struct field name */
	enum lab_ptype type;                /* how the value is parsed and stored */
	size_t offset;                      /* offsetof(params struct, field) */
	const char *def;                    /* default, as text, parsed like user input */
	uint64_t min, max;                  /* inclusive bounds for U64, SIZE, DURATION */
	double dmin, dmax;                  /* inclusive bounds for DOUBLE */
	const struct lab_enum_val *choices; /* LAB_PT_ENUM: terminated by a NULL name */
	const char *unit;                   /* "bytes", "ns", "" */
	const char *help;                   /* one sentence */
	/* NULL: the key always has effect. "KEY=A|B": only where the enum KEY of the same table
	 * is A or B; elsewhere it is left out of the point's params (its label and identity),
	 * a selector naming it there names no point, and a sweep of it there is refused (it would
	 * make the same point twice). Set with LAB_P_APPLIES. */
	const char *applies;
};

/* Compile-time proof that field f of struct st has type T (a negative array size otherwise). */
#define LAB__FIELD_IS(st, f, T)                                                                    \
	(0 * sizeof(char[__builtin_types_compatible_p(__typeof__(((st *)0)->f), T) ? 1 : -1]))
#define LAB__P(st, f, T, type_, key_, def_)                                                        \
	.key = key_, .type = type_, .offset = offsetof(st, f) + LAB__FIELD_IS(st, f, T), .def = def_

#define LAB_P_U64(st, f, key_, def_, lo_, hi_, unit_, help_, ...)                                  \
	{                                                                                          \
		LAB__P(st, f, uint64_t, LAB_PT_U64, key_, def_),                                   \
		    .min = lo_, .max = hi_, .unit = unit_, .help = help_, __VA_ARGS__              \
	}
#define LAB_P_SIZE(st, f, key_, def_, lo_, hi_, help_, ...)                                        \
	{                                                                                          \
		LAB__P(st, f, uint64_t, LAB_PT_SIZE, key_, def_),                                  \
		    .min = lo_, .max = hi_, .unit = "bytes", .help = help_, __VA_ARGS__            \
	}
#define LAB_P_DURATION(st, f, key_, def_, lo_, hi_, help_, ...)                                    \
	{                                                                                          \
		LAB__P(st, f, uint64_t, LAB_PT_DURATION, key_, def_),                              \
		    .min = lo_, .max = hi_, .unit = "ns", .help = help_, __VA_ARGS__               \
	}
#define LAB_P_DOUBLE(st, f, key_, def_, lo_, hi_, unit_, help_, ...)                               \
	{                                                                                          \
		LAB__P(st, f, double, LAB_PT_DOUBLE, key_, def_),                                  \
		    .dmin = lo_, .dmax = hi_, .unit = unit_, .help = help_, __VA_ARGS__            \
	}
#define LAB_P_BOOL(st, f, key_, def_, help_, ...)                                                  \
	{                                                                                          \
		LAB__P(st, f, bool, LAB_PT_BOOL, key_, def_), .unit = "", .help = help_,           \
		                                              __VA_ARGS__                          \
	}
#define LAB_P_ENUM(st, f, key_, def_, choices_, help_, ...)                                        \
	{                                                                                          \
		LAB__P(st, f, int, LAB_PT_ENUM, key_, def_), .choices = choices_, .unit = "",      \
		                                             .help = help_, __VA_ARGS__            \
	}
#define LAB_P_STR(st, f, key_, def_, help_, ...)                                                   \
	{                                                                                          \
		LAB__P(st, f, char[LAB_STR_MAX], LAB_PT_STR, key_, def_),                          \
		    .unit = "", .help = help_, __VA_ARGS__                                         \
	}
/* The trailing argument of a LAB_P_* entry whose key has effect only where the enum key of the
 * same table takes one of the values in cond ("layout=stride", "schedule=dynamic|guided"). */
#define LAB_APPLIES(cond) .applies = cond
#define LAB_PARAM_END                                                                              \
	{                                                                                          \
		.key = NULL                                                                        \
	}

/* ---- metrics ---- */

/* How the per-thread values of a metric combine into the sample's value. */
enum lab_agg {
	LAB_AGG_SUM,
	LAB_AGG_MEAN,
	LAB_AGG_MAX,
	LAB_AGG_MIN,
	LAB_AGG_KERNEL, /* set by the kernel's summarize hook from all threads' state */
};

struct lab_metric {
	const char *name; /* column name in samples.csv; lower_snake with unit suffix */
	const char *unit; /* "ns", "ops/s", "" */
	enum lab_agg agg;
	const char *help;
};

#define LAB_METRIC_END                                                                             \
	{                                                                                          \
		.name = NULL                                                                       \
	}

/* Declared traffic per unit of work; the harness derives GB/s, GFLOP/s and intensity. */
struct lab_work {
	double bytes_read;
	double bytes_written;
	double flops;
	/* Extra reads a write-allocate cache makes for the written lines (usually = bytes_written
	 * for plain stores, 0 for non-temporal ones); kept apart so both GB/s figures show. */
	double bytes_write_allocate;
	/* The loop streams its bytes and, vectorized with enough accumulators, is limited by them
	 * (stream, sum/dot/saxpy): its GB/s can set a bandwidth ceiling. false (the default) for
	 * loops bound by something else at any size (compares, random gathers); the roofline
	 * places those under the ceilings but never takes a ceiling from them. */
	bool bandwidth_bound;
	/* Every flop is an add or a subtract (a sum, peak's add chains): the add pipes bound it,
	 * which reach about half an FMA ceiling, so the roofline holds it under a measured add
	 * peak of its ISA and precision where there is one. */
	bool adds_only;
};

/* ---- what a kernel sees ---- */

/* Facts about the machine (or the --topology under study) that check() may rely on. */
struct lab_env {
	unsigned ncpus;      /* CPUs this process may use (the topology's PUs with --topology) */
	unsigned packages;   /* sockets */
	unsigned numa_nodes; /* NUMA nodes with memory */
	unsigned cores;
	unsigned pus;
	bool thissystem; /* false for synthetic/XML topologies: nothing runs, nothing binds */
	bool counters;   /* hardware performance counters can be opened */
	bool openmp;     /* the lab was built with OpenMP */
	double clock_resolution_ns;
	/* enum lab_cpu_feature bits of the CPU the lab runs on (also with --topology: the ISA of
	 * a synthetic machine is unknown): usable ones, and detected ones hidden by LAB_CPU_MASK.
	 */
	unsigned cpu_features;
	unsigned cpu_features_masked;
	/* Bytes of one instance of each data cache level L1..L5 (index 0 = L1) as hwloc reports
	 * the first one; 0 where the topology records none (most synthetic ones). */
	uint64_t cache_bytes[LAB_CACHE_LEVELS];
	/* The NUMA node farthest from node 0 by the firmware's distances (the lowest of ties): the
	 * value of mem_node = far. 1 without distances (one node, or a synthetic topology). On a
	 * machine with several nodes per package node 1 is often in node 0's package. */
	unsigned numa_far0;
};

/*
 * For check() of a variant compiled for an ISA (cmake lab_kernel_file): 0 when this CPU has
 * every feature in need (enum lab_cpu_feature bits), else LAB_SKIP with the reason in err
 * ("needs avx512f; this CPU has sse2 sse4.2 avx avx2 fma").
 */
static inline int lab_env_require_cpu(const struct lab_env *env, unsigned need, struct lab_err *err)
{
	return lab_cpu_require(need, env->cpu_features, env->cpu_features_masked, err);
}

/* Per-run state shared by all threads of one point. */
struct lab_ctx {
	const void *params; /* the kernel's own params struct, read only */
	unsigned nthreads;
	const int *cpus; /* planned OS CPU index of each thread */
	const struct lab_env *env;
	uint64_t seed;
	void *priv; /* the kernel's, set in setup() */
	/* LAB_KF_OPENMP: the CPU OpenMP thread i was found on after lab_ctx_omp_bind (else -1). */
	int *omp_cpus;
	/* The harness's: OpenMP thread i's schedstat, opened by lab_ctx_omp_bind (-1: none), for
	 * the run-queue guard. NULL outside the runner. */
	int *omp_runq_fd;
	struct lab_facts *facts; /* the point's facts; write them with lab_ctx_fact_* only */
};

/*
 * Per-point facts: what the kernel found out about the conditions of this point (the nodes its
 * pages really landed on, the node its threads ran on, a placement other than the one asked
 * for), written into run.json as the point's "point_facts" object for the analyzer. Call them
 * from the main-thread hooks (setup, verify, teardown), never from run(). key is a literal in
 * [a-z0-9_], shorter than 32 characters; setting a key twice keeps the last value. Facts that
 * do not fit (32 per point) or meet an out-of-memory are counted in "facts_dropped".
 */
void lab_ctx_fact_int(struct lab_ctx *ctx, const char *key, int64_t v);
void lab_ctx_fact_bool(struct lab_ctx *ctx, const char *key, bool v);
void lab_ctx_fact_str(struct lab_ctx *ctx, const char *key, const char *v);
/* An array of n counts (pages per node: index = node). */
void lab_ctx_fact_uints(struct lab_ctx *ctx, const char *key, const uint64_t *v, unsigned n);

/*
 * LAB_KF_OPENMP kernels: called by OpenMP thread i (omp_get_thread_num()) inside the kernel's
 * parallel region, once per point (thread_setup is the place): pins the calling thread to
 * ctx->cpus[i] on this machine and records the CPU it runs on, so an OpenMP team follows the
 * same plan as a lab team, and opens its schedstat so the run-queue guard sees every thread
 * of the team wait for its CPU. Returns 0, -LAB_EINVAL (i out of range) or -LAB_ESYS.
 */
int lab_ctx_omp_bind(const struct lab_ctx *ctx, unsigned i);

/*
 * One worker's slot, written by that worker only while a sample runs, so it sits in its own
 * 128-byte-aligned block: a false-sharing lab must not false-share.
 */
struct lab_thread {
	alignas(LAB_SLOT) unsigned id; /* 0 .. nthreads-1 */
	int cpu;                       /* planned OS CPU index */
	uint64_t iters;                /* units of work to do in this run() call */
	uint64_t work;       /* units done; preset to iters, lowered on an early stop. The sample's
	                        work is the sum over threads: threads that share one unit (the two
	                        sides of a round trip) count it on one thread only. */
	uint64_t work_total; /* sum of work over every run() since setup */
	double metric[LAB_METRICS_MAX]; /* per-thread metric values of this sample */
	void *priv;                     /* the kernel's per-thread state */
	const atomic_int *stop;         /* set when the sample must end (timed kernels, Ctrl-C) */
};

/* True when the kernel must leave run() now; poll every K iterations, never every one. */
static inline bool lab_thread_should_stop(const struct lab_thread *t)
{
	return atomic_load_explicit(t->stop, memory_order_relaxed) != 0;
}

/* ---- the descriptor ---- */

enum lab_kernel_flags {
	LAB_KF_OPENMP = 1u << 0, /* one harness worker (cpus[0]) calls thread_setup and run();
	                            they open `omp parallel num_threads(ctx->nthreads)` and bind
	                            with lab_ctx_omp_bind; verify and teardown see that one worker;
	                            skipped in a build without OpenMP */
	LAB_KF_NUMA = 1u << 1,   /* needs >= 2 NUMA nodes (skipped with the reason otherwise) */
	LAB_KF_PAIRS = 1u << 2,  /* exactly two threads; placement pairs sweeps CPU pairs */
	LAB_KF_TIMED = 1u << 3,  /* runs until the stop flag, for min_time; work = what got done */
	LAB_KF_ALL = (1u << 4) - 1,
};

/*
 * Whose work a sample's `work` counts, so the analyzer can say whose time the cost per unit is.
 * TEAM: every thread counts its own units and the sample's work is the sum (cost = wall time
 * per unit of the whole team; one thread's own time per unit is about cost x threads). SHARED:
 * one unit involves the whole team and is counted once (a round trip of the pair, a construct
 * instance every thread joins). ONE: only thread 0's units count (the chaser among streams).
 */
enum lab_work_scope {
	LAB_WORK_TEAM = 0,
	LAB_WORK_SHARED,
	LAB_WORK_ONE,
};

/*
 * What a kernel's cost is. WORK (the default): work that scales with the team, so speedup,
 * efficiency, Karp-Flatt and the Amdahl/USL fits apply. LATENCY: a per-instance latency or
 * overhead (a dependent load's latency, a construct's overhead, a round trip): more threads do not
 * divide it, and the analyzer shows no scaling metric for it.
 */
enum lab_cost_kind {
	LAB_COST_WORK = 0,
	LAB_COST_LATENCY,
};

/*
 * What one point of a kernel costs beyond the harness's own arithmetic, for the plan's
 * estimate (harness/estimate.h), on a quiet machine: setup_ns is one run's setup,
 * thread_setup, verify and teardown together, beyond first touches; iter_ns is one iteration
 * of run() for the whole team (a sample is never shorter than one); touch_bytes is the fresh
 * memory one run first-touches as the wall clock sees it (threads that touch their own parts
 * at once count one part), which the harness prices as it measured on this machine (page
 * faults cost 10x more on some guests than on others). 0 = negligible.
 */
struct lab_kernel_est {
	double setup_ns;
	double iter_ns;
	double touch_bytes;
};

/* Rough quiet-machine costs an estimate hook builds on: the first touch of fresh memory (page
 * faults included) where the harness did not measure it, building plus verifying a random
 * pointer chain, per 64-byte line (a DRAM miss each once the chain outgrows the caches), and
 * one thread streaming a buffer past the caches, per byte (a pass over a DRAM-sized buffer may
 * outlast min_time). */
#define LAB_EST_TOUCH_NS_PER_BYTE  0.3
#define LAB_EST_CHASE_NS_PER_LINE  250.0
#define LAB_EST_STREAM_NS_PER_BYTE 0.04

struct lab_kernel {
	unsigned abi;            /* = LAB_KERNEL_ABI */
	const char *name;        /* "kernel = <name>" in a config; [a-z0-9_]; the file stem */
	const char *summary;     /* one line for `lab list` */
	const char *description; /* the teaching text: effect isolated, expected result, knob */
	unsigned flags;          /* enum lab_kernel_flags */
	unsigned cpu_features;   /* enum lab_cpu_feature bits every point needs (else skipped) */
	const struct lab_param *params;   /* terminated by LAB_PARAM_END */
	size_t params_size;               /* sizeof(the params struct) */
	const struct lab_metric *metrics; /* terminated by LAB_METRIC_END; index = metric id */
	const char *work_unit;            /* what one unit of work is: "increment", "acquire" */
	unsigned work_scope;              /* enum lab_work_scope; 0 (TEAM) by default */
	unsigned cost_kind;               /* enum lab_cost_kind; 0 (WORK) by default */
	/* The analyzer views (names in analyze/views/views.def) this kernel's results want,
	 * NULL-terminated; recorded per experiment in run.json. Every kernel declares it ({NULL}:
	 * none beyond the scaling series; the series, counters and perf_c2c views follow any run
	 * and are declared by none); tests/unit/test_registry.c checks the names. */
	const char *const *views;
	/* What verify() checks, as it checks it and no more: one line without a newline, printed
	 * by `lab describe` as "verify: ..." (a verify that only counts says it counts). Required:
	 * tests/unit/test_registry.c checks it, and that the description leaves it out. */
	const char *verifies;
	/* The points check() skips (LAB_SKIP) beyond what flags and cpu_features already say,
	 * each "which values: what they need" ("lock = ck_*: a lab built with Concurrency Kit"),
	 * NULL-terminated; NULL or {NULL}: none. `lab describe` prints each as "needs: ..." after
	 * the needs the flags imply. */
	const char *const *needs;

	/* Declared traffic per unit of work for these params; optional. */
	void (*work_per_unit)(const void *params, struct lab_work *w);
	/*
	 * Cross-field and environment checks, called by the planner only after the harness found
	 * flags and cpu_features satisfied (LAB_KF_NUMA, LAB_KF_OPENMP and missing features skip
	 * the point before check runs). Returns 0, LAB_SKIP (reason in err: the point is
	 * recorded as skipped and the others still run) or -LAB_ECONFIG (a config error).
	 */
	int (*check)(const void *params, unsigned nthreads, const struct lab_env *env,
	             struct lab_err *err);
	/* Once per point on the main thread: allocate shared state into ctx->priv. */
	int (*setup)(struct lab_ctx *ctx, struct lab_err *err);
	/* Once per thread, on that thread, already pinned: first touch, per-thread buffers. */
	int (*thread_setup)(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err);
	/* The timed body: t->iters units of work (or until the stop flag); required. */
	void (*run)(struct lab_ctx *ctx, struct lab_thread *t);
	/* After each sample, untimed: fill LAB_AGG_KERNEL metrics into out[]. */
	void (*summarize)(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
	                  double *out);
	/* After the point's samples: the work was really done (counts add up). 0 or -LAB_EVERIFY.
	 */
	int (*verify)(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
	              struct lab_err *err);
	/* Frees what setup and thread_setup made; called on the main thread. */
	void (*teardown)(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n);
	/* Optional: the point's declared costs for the plan's estimate (struct lab_kernel_est,
	 * zeroed before the call); none: setup and one iteration are negligible. */
	void (*estimate)(const void *params, unsigned nthreads, struct lab_kernel_est *est);
};

/* Keeps a value alive without a memory access: the compiler must assume it is read. */
#define lab_do_not_optimize(v) __asm__ volatile("" : : "r,m"(v) : "memory")

/* Forces the compiler to assume all memory was read and written here. */
static inline void lab_clobber_memory(void)
{
	__asm__ volatile("" : : : "memory");
}

/* A polite spin-wait hint (PAUSE on x86). */
#if defined(__x86_64__) || defined(__i386__)
static inline void lab_cpu_relax(void)
{
	__builtin_ia32_pause();
}
#else
static inline void lab_cpu_relax(void)
{
	__asm__ volatile("" ::: "memory");
}
#endif

#endif
