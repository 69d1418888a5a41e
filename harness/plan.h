/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The planner: config text -> typed, validated, expanded points. Every experiment section names a
 * kernel; its keys (harness keys and the kernel's) are resolved default < [global] < section <
 * --set, each value keeping its source; sweeping values expand into a Cartesian product; every
 * point gets its CPU list from the topology. All errors are collected into a struct lab_diag
 * before anything runs. The plan is read-only once built.
 */
#ifndef LAB_HARNESS_PLAN_H
#define LAB_HARNESS_PLAN_H

#include <stdbool.h>
#include <stdint.h>

#include "harness/config.h"
#include "harness/diag.h"
#include "harness/kernel_api.h"
#include "harness/topo.h"

#define LAB_THREADS_MAX 1024
#define LAB_SWEEP_MAX   4096 /* values one key may expand to */
#define LAB_POINTS_MAX  100000
/* Combinations of swept values one experiment may name: the points less those a key that does
 * not apply collapses (plan_values), so more than LAB_POINTS_MAX, within reason. */
#define LAB_COMBOS_MAX (16 * LAB_POINTS_MAX)

enum lab_scaling {
	LAB_SCALING_STRONG, /* fixed total work: cost per unit should fall as threads grow */
	LAB_SCALING_WEAK,   /* fixed work per thread */
};

/* The harness keys every experiment has, bound with the same table machinery as kernel keys. */
struct lab_hparams {
	uint64_t threads;
	char placement[LAB_STR_MAX];
	uint64_t reps;
	uint64_t warmup;   /* ns of untimed runs before calibration */
	uint64_t min_time; /* ns a sample must last at least */
	uint64_t seed;
	double load_threshold;       /* foreign vCPUs beyond the idle ones that flag a sample */
	double max_runq_wait;        /* share of a sample a worker may wait for its CPU */
	uint64_t retry_flagged;      /* times a flagged sample is taken again */
	uint64_t quiet_wait;         /* ns to wait for the load to drop before each retry */
	int scaling;                 /* enum lab_scaling */
	uint64_t max_pairs;          /* placement pairs: sample at most this many pairs; 0 = all */
	int counters;                /* enum lab_ctr_mode (harness/counters.h) */
	char events[LAB_STR_MAX];    /* presets and event names (harness/counters.h) */
	char membind[LAB_STR_MAX];   /* where LAB_BUF_DEFAULT buffers go (harness/membind.h) */
	int perf_c2c;                /* 1: perf c2c record around the point (harness/perf_c2c.h) */
	uint64_t runs;               /* fresh setups of the point (harness/precision.h) */
	int fresh_process;           /* 1: each run of the point in a new process */
	char precision[LAB_STR_MAX]; /* target relative half-width ("2%"; "off") */
	uint64_t budget;             /* ns of wall time per point a precision target may use */
	uint64_t total_budget;       /* ns of the whole lab run after which no precision sample
	                              * or run is added (0: no total) */
	uint64_t min_cpus; /* fewer CPUs for this process: every point skipped, with the reason */
};

/* The harness keys' table (threads, placement, reps, ...). */
extern const struct lab_param lab_hparam_table[];

enum lab_src {
	LAB_SRC_DEFAULT,
	LAB_SRC_GLOBAL,
	LAB_SRC_SECTION,
	LAB_SRC_CLI,
};

/* A key of an experiment as resolved: its text, where it came from, and its sweep values. */
struct lab_resolved {
	const struct lab_param *param; /* in lab_hparam_table or the kernel's table */
	bool harness;                  /* a harness key */
	const char *text;              /* the winning text (owned by the config or the table) */
	enum lab_src src;
	bool set_global;      /* LAB_SRC_CLI: from --set global.KEY, not --set NAME.KEY */
	const char *cfg_text; /* LAB_SRC_CLI: the config's text the --set replaced, else NULL */
	const char *file;     /* NULL for defaults */
	int line;
	unsigned nvals; /* > 1: the key sweeps */
	char **vals;    /* the expanded values as text */
	bool shared;    /* vals are another experiment's: a [global] value is expanded once */
	/* the planner's: vals the topology refused already (one error per placement value, not
	 * one per thread count of the sweep); NULL until one is, this experiment's own */
	unsigned char *refused;
};

struct lab_experiment {
	const char *name; /* section name */
	const char *file;
	int line;
	const struct lab_kernel *kernel;
	struct lab_resolved *keys; /* harness keys first, then the kernel's, in table order */
	unsigned nkeys;
	unsigned first_point, npoints;
	/* min_cpus is more than the CPUs this process may use: each point is planned (threads =
	 * max counts as min_cpus) and skipped with the reason, without CPUs */
	unsigned cpus_short;
};

enum lab_point_state {
	LAB_POINT_READY,
	LAB_POINT_SKIPPED, /* check() said the machine cannot run it; reason says why */
};

struct lab_point {
	unsigned id;  /* global, 0-based, in run order */
	unsigned exp; /* index into plan->exp */
	struct lab_hparams h;
	void *kparams; /* the kernel's params struct */
	unsigned nthreads;
	int *cpus;         /* planned OS CPU of each thread */
	unsigned ncpus;    /* entries of cpus: nthreads, or 0 when skipped before it had CPUs */
	char *params_text; /* "k=v;k=v": every kernel key and the placement, never threads */
	enum lab_point_state state;
	char reason[LAB_ERR_MSG_MAX];
};

/* A [lessons] claim as checked by the planner (harness/plan_lessons.c). */
struct lab_plan_lesson {
	const char *name, *claim; /* the key and the claim as written (owned by the config) */
	const char *file;
	int line;
	char *expr; /* the claim with canonical selector values, what the analyzer reads */
	/* why the plan cannot judge it, or NULL: a selector that names no planned point (a --set
	 * narrowed its sweep, a value the machine decides) or a skipped one ("[locks] threads=2:
	 * no planned point"); the analyzer will say "not run" */
	char *unplanned;
};

struct lab_plan {
	struct lab_experiment *exp;
	unsigned nexp;
	struct lab_point *pts;
	unsigned npts;
	uint64_t asked; /* points the experiments' sweeps expand to, planned or refused */
	struct lab_env env;
	struct lab_plan_lesson *lessons; /* in file order */
	unsigned nlessons;
};

/*
 * Builds the plan of cfg for the kernels of registry (NULL-terminated) on topo. only (nonly
 * names, may be 0) restricts the experiments run; an --only name that matches no section is an
 * error. Every problem goes to d as one line "FILE:LINE: [section] key = value: what is wrong
 * (what is allowed)". Returns 0 with *out when d is empty, else -LAB_ECONFIG and no plan.
 * Other failures (memory) return their code with err filled.
 */
int lab_plan_build(struct lab_plan **out, const struct lab_cfg *cfg,
                   const struct lab_kernel *const *registry, const struct lab_topo *topo,
                   const char *const *only, unsigned nonly, struct lab_diag *d,
                   struct lab_err *err);

/* Frees the plan; NULL is allowed. */
void lab_plan_free(struct lab_plan *plan);

/* Points compared with lesson selectors by every plan built so far (a test's count of work). */
unsigned long long lab_plan_lesson_probes(void);

/* Edit distances worked out for did-you-mean on unknown lesson experiments, by every plan built
 * so far (a test's count of work). */
unsigned long long lab_plan_lesson_suggest_probes(void);

/* Reallocations of plans' lesson arrays, by every plan built so far (a test's count of work:
 * geometric growth, O(log n) for n lessons). */
unsigned long long lab_plan_lesson_grows(void);

/* The kernel named name in registry, or NULL. */
const struct lab_kernel *lab_plan_kernel_find(const struct lab_kernel *const *registry,
                                              const char *name);
/* What an unknown kernel name was likely meant to be, into buf: "did you mean 'NAME'?" when a
 * kernel is close, else "kernels: a, b, ...". Returns buf. */
const char *lab_plan_kernel_hint(const struct lab_kernel *const *registry, const char *name,
                                 char *buf, size_t len);

struct lab_json;
/* Writes the planned facts of pt into the open JSON object: point, threads, cpus, placement and
 * params (as an object). Shared by `lab plan --json` and run.json. */
void lab_plan_point_json(struct lab_json *j, const struct lab_point *pt);

/* "default", "global", "section" or "cli". */
const char *lab_src_name(enum lab_src src);

/*
 * Splits a sweep value into its values: "1,2,4", "1..8", "1..64:x2", "8..64:+8", "max",
 * "compact, list:0,2,4-7". env->ncpus resolves "max" (threads only); env->cache_bytes resolves
 * a size relative to a cache ("L1/2", "L2", "L3*4", also as range bounds) into bytes. Values
 * are checked for their shape, not for their range (lab_param_parse does that). Returns the
 * count (>= 1) with *vals allocated, or -LAB_ECONFIG with the reason in err.
 */
int lab_sweep_expand(const struct lab_param *p, const char *text, const struct lab_env *env,
                     char ***vals, struct lab_err *err);

/*
 * The number of values lab_sweep_expand would make of text, before duplicates drop (at least
 * the count it returns), without making them: a range by its bounds, a list by its items.
 * Returns 0 with *count, or an error as lab_sweep_expand would (more than LAB_SWEEP_MAX too).
 */
int lab_sweep_count(const struct lab_param *p, const char *text, const struct lab_env *env,
                    uint64_t *count, struct lab_err *err);

/* Values lab_sweep_expand has made, by every call so far (a test's count of work). */
unsigned long long lab_sweep_values_made(void);

/* Reallocations of the lists lab_sweep_expand and lab_sweep_count build, by every call so far:
 * geometric, so a list of n items costs O(log n) of them (one per item was quadratic in copies
 * where realloc cannot grow in place: 30,000 items took a minute under AddressSanitizer). */
unsigned long long lab_sweep_list_grows(void);

/* Frees what lab_sweep_expand allocated. */
void lab_sweep_free(char **vals, unsigned n);

#endif
