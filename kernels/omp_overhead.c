/* SPDX-License-Identifier: GPL-3.0-or-later */
/* omp_overhead: the cost of one OpenMP construct instance, EPCC syncbench's method, paired. */
#include <stdlib.h>

#include "kernels/omp_common.h"
#include "kernels/omp_overhead_lab.h"

static const char oo_description[] =
    "What one OpenMP construct costs, measured as the EPCC micro-benchmarks do (Bull et al.):\n"
    "each instance of the construct wraps `delay` ns of dependent work, and a reference does\n"
    "the same delays with no construct, so overhead per instance = time(test) - time(reference).\n"
    "Unlike EPCC, every sample times the reference and the test back to back (the order\n"
    "alternating between samples), so host noise hits both halves of one sample, and the\n"
    "overhead_ns column is a paired difference: the analyzer's t-interval over reps is a real\n"
    "confidence interval of the mean overhead. One instance is: parallel = a region; for = a\n"
    "worksharing loop of one iteration per thread in an open region (with its barrier);\n"
    "parallel_for = both; barrier; single (with its barrier); critical and lock = one entry by\n"
    "some thread (they serialise; a thread may keep the lock over many instances, so a figure\n"
    "at 2 threads need hold no hand-off); atomic = one `omp atomic` add to a\n"
    "shared counter (no delay; the reference adds to a private one); reduction = a region with\n"
    "reduction(+); ordered = one ordered iteration of a schedule(static,1) loop; taskloop = a\n"
    "taskloop of one task per thread issued by one thread. Compare constructs at one thread\n"
    "count: fork-join (parallel, parallel_for, reduction) usually costs the most after taskloop\n"
    "and grows with threads; a barrier's cost depends on the runtime (libgomp wakes its waiters\n"
    "with a futex call even at 1 thread); atomic is cheap alone and grows when contended.\n"
    "At 1 thread a fork still costs more than in a program that never\n"
    "started a second thread (EPCC at 1 thread): the lab's process always has its harness\n"
    "threads, as any multithreaded program does. samples.csv: test_ns, ref_ns and overhead_ns\n"
    "are ns per instance; elapsed_ns / work is test + reference per instance. team = lab runs\n"
    "parallel, barrier, critical, lock, atomic and reduction on the lab's own pinned pthreads\n"
    "instead (spin wake-up, spin barrier, mutex, spinlock, fetch_add): what is left is the\n"
    "hardware's part, the rest of team = openmp's figure is the runtime's. Knobs: construct,\n"
    "team, threads, delay: the delay's dependent adds can run while a construct's own atomics\n"
    "complete, so a short construct (critical, lock) can read cheaper with a delay than without\n"
    "one; compare delay = 0 (by how much depends on the core) before reading a small overhead.";

struct oo_params {
	int construct;
	uint64_t delay;
	int team;
};

static const struct lab_enum_val oo_constructs[] = {
    {"parallel", OO_PARALLEL, "a parallel region (fork and join)"},
    {"for", OO_FOR, "a worksharing loop in an open region, with its implicit barrier"},
    {"parallel_for", OO_PARALLEL_FOR, "a combined parallel for"},
    {"barrier", OO_BARRIER, "an explicit barrier"},
    {"single", OO_SINGLE, "a single block, with its implicit barrier"},
    {"critical", OO_CRITICAL, "one entry into a critical section (serialised)"},
    {"lock", OO_LOCK, "one omp_set_lock/omp_unset_lock pair (serialised)"},
    {"atomic", OO_ATOMIC, "one omp atomic add to a shared counter"},
    {"reduction", OO_REDUCTION, "a parallel region with reduction(+)"},
    {"ordered", OO_ORDERED, "one ordered iteration of a schedule(static,1) loop"},
    {"taskloop", OO_TASKLOOP, "a taskloop of one task per thread from one thread"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val oo_teams[] = {
    {"openmp", OO_TEAM_OPENMP, "the OpenMP construct"},
    {"lab", OO_TEAM_LAB,
     "the lab's pinned pthreads: spin fork-join, spin barrier, mutex, spinlock, fetch_add"},
    {NULL, 0, NULL},
};

static const struct lab_param oo_params_table[] = {
    LAB_P_ENUM(struct oo_params, construct, "construct", "parallel", oo_constructs,
               "The OpenMP construct whose overhead is measured."),
    LAB_P_DURATION(
        struct oo_params, delay, "delay", "100ns", 0, 1000000,
        "Dependent work inside each instance, calibrated at its length for each point (EPCC: "
        "0.1 us); atomic has none.",
        LAB_APPLIES("construct=parallel|for|parallel_for|barrier|single|critical|lock|reduction|"
                    "ordered|taskloop")),
    LAB_P_ENUM(struct oo_params, team, "team", "openmp", oo_teams,
               "Which team runs it: the OpenMP runtime or the lab's own pthreads."),
    LAB_PARAM_END,
};

enum oo_metric { OO_M_TEST, OO_M_REF, OO_M_OVERHEAD, OO_M_DELAY };

static const struct lab_metric oo_metrics[] = {
    {"test_ns", "ns", LAB_AGG_MEAN, "time per instance with the construct"},
    {"ref_ns", "ns", LAB_AGG_MEAN,
     "time per instance of the reference (same delays, no construct)"},
    {"overhead_ns", "ns", LAB_AGG_MEAN,
     "test_ns - ref_ns of the same sample: the construct's cost per instance"},
    {"delay_ns", "ns", LAB_AGG_MEAN, "the delay the calibration aimed at"},
    LAB_METRIC_END,
};

static int oo_check(const void *params, unsigned nthreads, const struct lab_env *env,
                    struct lab_err *err)
{
	const struct oo_params *p = params;
	int rc = komp_check(env, err);

	(void)nthreads;
	if (rc == 0 && p->team == OO_TEAM_LAB && !oo_lab_supports(p->construct)) {
		lab_err_set(err, LAB_EUNSUP,
		            "construct = %s has no lab-team version (team = lab runs parallel, "
		            "barrier, critical, lock, atomic and reduction)",
		            oo_constructs[p->construct].name);
		return LAB_SKIP;
	}
	return rc;
}

#ifdef _OPENMP
struct oo_state {
	uint64_t loops;  /* delay loops per instance */
	uint64_t count;  /* instances counted by the test, for verify */
	uint64_t shared; /* the atomic target */
	uint64_t calls;  /* run() calls: the reference goes first on even ones */
	omp_lock_t lock;
	struct oo_lab *lab; /* team = lab */
};

static int oo_setup(struct lab_ctx *ctx, struct lab_err *err)
{
	const struct oo_params *p = ctx->params;
	struct oo_state *st = calloc(1, sizeof(*st));

	if (!st)
		return lab_err_set(err, LAB_ENOMEM, "out of memory");
	st->loops = p->delay ? komp_delay_loops(komp_delay_rate_for(p->delay), p->delay) : 0;
	omp_init_lock(&st->lock);
	ctx->priv = st;
	return 0;
}

static int oo_thread_setup(struct lab_ctx *ctx, struct lab_thread *t, struct lab_err *err)
{
	const struct oo_params *p = ctx->params;
	struct oo_state *st = ctx->priv;

	(void)t;
	if (p->team == OO_TEAM_OPENMP)
		return komp_bind_team(ctx, err);
	st->lab = oo_lab_create(ctx, p->construct, st->loops, err);
	return st->lab ? 0 : -err->code;
}

/*
 * The reference: what the test would take if the construct were free. Every thread does the
 * delays of its own path, in one region, so the other cores are busy as in the test. For the
 * serialising constructs (critical, lock, ordered, single) the ideal is n delays in a row.
 */
static void oo_reference(const struct oo_params *p, struct oo_state *st, int nt, uint64_t n)
{
	uint64_t loops = st->loops, per = n;

	if (st->lab) {
		oo_lab_reference(st->lab, n);
		return;
	}
	if (p->construct == OO_ATOMIC) {
		per = n / (uint64_t)nt;
#pragma omp parallel num_threads(nt)
		{
			uint64_t priv = 0;
			for (uint64_t i = 0; i < per; i++) {
				priv += i;
				lab_do_not_optimize(priv);
			}
		}
		return;
	}
#pragma omp parallel num_threads(nt)
	for (uint64_t i = 0; i < per; i++)
		komp_delay(loops);
}

/* Constructs that open a region per instance. */
static uint64_t oo_test_fork(const struct oo_params *p, struct oo_state *st, int nt, uint64_t n)
{
	uint64_t loops = st->loops, done = 0;

	for (uint64_t i = 0; i < n; i++) {
		uint64_t r = 0;
		switch (p->construct) {
		case OO_PARALLEL:
#pragma omp parallel num_threads(nt)
			komp_delay(loops);
			r = 1;
			break;
		case OO_PARALLEL_FOR:
#pragma omp parallel for num_threads(nt) schedule(static) reduction(+ : r)
			for (int j = 0; j < nt; j++) {
				komp_delay(loops);
				r += j == 0;
			}
			break;
		default: /* OO_REDUCTION */
#pragma omp parallel num_threads(nt) reduction(+ : r)
		{
			komp_delay(loops);
			r += omp_get_thread_num() == 0;
		} break;
		}
		done += r;
	}
	return done;
}

/* Constructs used n times inside one region; returns the instances thread 0 saw. */
static uint64_t oo_test_inside(const struct oo_params *p, struct oo_state *st, int nt, uint64_t n)
{
	uint64_t loops = st->loops, done = 0;
	int c = p->construct;

#pragma omp parallel num_threads(nt) reduction(+ : done)
	{
		int me = omp_get_thread_num();
		for (uint64_t i = 0; i < n; i++) {
			if (c == OO_FOR) {
#pragma omp for schedule(static)
				for (int j = 0; j < nt; j++)
					komp_delay(loops);
			} else if (c == OO_BARRIER) {
				komp_delay(loops);
#pragma omp barrier
			} else if (c == OO_SINGLE) {
#pragma omp single
				komp_delay(loops);
			} else { /* OO_TASKLOOP */
#pragma omp single
				{
					/* Unsigned: clang's taskloop compares the bound as unsigned
					 * long. */
					uint64_t ntasks = (uint64_t)nt;
#pragma omp taskloop num_tasks(nt)
					for (uint64_t j = 0; j < ntasks; j++)
						komp_delay(loops);
				}
			}
			done += me == 0;
		}
	}
	return done;
}

/* Serialising constructs: n entries in all, n / nt by each thread (n is a multiple of nt). */
static uint64_t oo_test_serial(const struct oo_params *p, struct oo_state *st, int nt, uint64_t n)
{
	uint64_t loops = st->loops, per = n / (uint64_t)nt, count = 0;
	uint64_t *shared = &st->shared;
	int c = p->construct;

	if (c == OO_ORDERED) {
#pragma omp parallel for num_threads(nt) schedule(static, 1) ordered reduction(+ : count)
		for (uint64_t i = 0; i < n; i++) {
#pragma omp ordered
			{
				komp_delay(loops);
				count++;
			}
		}
		return count;
	}
#pragma omp parallel num_threads(nt)
	for (uint64_t i = 0; i < per; i++) {
		if (c == OO_CRITICAL) {
#pragma omp critical
			{
				komp_delay(loops);
				(*shared)++;
			}
		} else if (c == OO_LOCK) {
			omp_set_lock(&st->lock);
			komp_delay(loops);
			(*shared)++;
			omp_unset_lock(&st->lock);
		} else {
#pragma omp atomic
			(*shared)++;
		}
	}
	return 0;
}

static uint64_t oo_test(const struct oo_params *p, struct oo_state *st, int nt, uint64_t n)
{
	if (st->lab)
		return oo_lab_test(st->lab, n);
	switch (p->construct) {
	case OO_PARALLEL:
	case OO_PARALLEL_FOR:
	case OO_REDUCTION:
		return oo_test_fork(p, st, nt, n);
	case OO_FOR:
	case OO_BARRIER:
	case OO_SINGLE:
	case OO_TASKLOOP:
		return oo_test_inside(p, st, nt, n);
	default: {
		uint64_t before = st->shared;
		uint64_t c = oo_test_serial(p, st, nt, n);
		return p->construct == OO_ORDERED ? c : st->shared - before;
	}
	}
}

static bool oo_serialises(int c)
{
	return c == OO_CRITICAL || c == OO_LOCK || c == OO_ATOMIC;
}

static void oo_run(struct lab_ctx *ctx, struct lab_thread *t)
{
	const struct oo_params *p = ctx->params;
	struct oo_state *st = ctx->priv;
	int nt = (int)ctx->nthreads;
	uint64_t n = t->iters, t0, t1, t2, ref, test;

	/* Serialising constructs split n entries over the team: round up to a multiple. */
	if (oo_serialises(p->construct))
		n = (n + (uint64_t)nt - 1) / (uint64_t)nt * (uint64_t)nt;
	t0 = lab_clock_ns();
	if (st->calls % 2 == 0) {
		oo_reference(p, st, nt, n);
		t1 = lab_clock_ns();
		st->count += oo_test(p, st, nt, n);
		t2 = lab_clock_ns();
		ref = t1 - t0;
		test = t2 - t1;
	} else {
		st->count += oo_test(p, st, nt, n);
		t1 = lab_clock_ns();
		oo_reference(p, st, nt, n);
		t2 = lab_clock_ns();
		test = t1 - t0;
		ref = t2 - t1;
	}
	st->calls++;
	t->work = n;
	t->metric[OO_M_TEST] = (double)test / (double)n;
	t->metric[OO_M_REF] = (double)ref / (double)n;
	t->metric[OO_M_OVERHEAD] = ((double)test - (double)ref) / (double)n;
	t->metric[OO_M_DELAY] = p->construct == OO_ATOMIC ? 0 : (double)p->delay;
}

static int oo_verify(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n,
                     struct lab_err *err)
{
	struct oo_state *st = ctx->priv;

	(void)n;
	if (st->count != threads[0]->work_total)
		return lab_err_set(
		    err, LAB_EVERIFY, "the test counted %llu instances, reported %llu",
		    (unsigned long long)st->count, (unsigned long long)threads[0]->work_total);
	return 0;
}

static void oo_teardown(struct lab_ctx *ctx, struct lab_thread *const *threads, unsigned n)
{
	struct oo_state *st = ctx->priv;

	(void)threads;
	(void)n;
	if (!st)
		return;
	oo_lab_destroy(st->lab);
	omp_destroy_lock(&st->lock);
	free(st);
}
#endif

/* The analyzer's view: overhead per construct and team vs threads (analyze/views/omp_overhead.c).
 */
static const char *const oo_views[] = {"omp_overhead", NULL};

static const char oo_verifies[] =
    "the test half ran as many construct instances as the harness counted; only critical, "
    "lock and atomic check more (the shared counter they update holds every entry: no "
    "lost update), and with team = lab parallel and reduction (every thread ran each "
    "instance); the times themselves are not checked";
static const char *const oo_needs[] = {
    "team = lab: construct = parallel, barrier, critical, lock, atomic or reduction (for, "
    "parallel_for, single, ordered and taskloop have no lab-team version)",
    NULL,
};

const struct lab_kernel lab_kernel_omp_overhead = {
    .abi = LAB_KERNEL_ABI,
    .name = "omp_overhead",
    .summary = "ns per OpenMP construct instance (EPCC method, reference and test paired)",
    .description = oo_description,
    .flags = LAB_KF_OPENMP,
    .params = oo_params_table,
    .params_size = sizeof(struct oo_params),
    .metrics = oo_metrics,
    .work_unit = "instance",
    .work_scope = LAB_WORK_SHARED,
    .cost_kind = LAB_COST_LATENCY, /* ns per construct instance: an overhead, not work */
    .views = oo_views,
    .verifies = oo_verifies,
    .needs = oo_needs,
    .check = oo_check,
#ifdef _OPENMP
    .setup = oo_setup,
    .thread_setup = oo_thread_setup,
    .run = oo_run,
    .verify = oo_verify,
    .teardown = oo_teardown,
#else
    .run = komp_absent_run,
#endif
};
