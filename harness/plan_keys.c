/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * What every part of the planner shares: the harness keys' table, finding a kernel or a resolved
 * key, and reporting a problem at the line its value came from (once). plan.c (resolution),
 * plan_check.c, plan_points.c and plan_claims.c call here; nothing here calls them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/counters.h"
#include "harness/param.h"
#include "harness/plan_internal.h"

static const struct lab_enum_val plan_counters_choices[] = {
    {"off", LAB_CTR_OFF, "no counters"},
    {"auto", LAB_CTR_AUTO, "count what opens; record why the rest did not"},
    {"require", LAB_CTR_REQUIRE, "a point fails when a requested event cannot be counted"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val plan_onoff_choices[] = {
    {"off", 0, "no"},
    {"on", 1, "yes"},
    {NULL, 0, NULL},
};

static const struct lab_enum_val plan_scaling_choices[] = {
    {"strong", LAB_SCALING_STRONG, "fixed total work; speedup = c(1)/c(N)"},
    {"weak", LAB_SCALING_WEAK, "fixed work per thread; Gustafson"},
    {NULL, 0, NULL},
};

const struct lab_param lab_hparam_table[] = {
    LAB_P_U64(struct lab_hparams, threads, "threads", "1", 1, LAB_THREADS_MAX, "threads",
              "Threads in the team; sweeps like 1..max or 1..64:x2; max = the CPUs this "
              "process may use."),
    LAB_P_STR(struct lab_hparams, placement, "placement", "compact",
              "Where threads go: compact, cores (SMT last), scatter (across packages), "
              "node:N (NUMA node N only), list:0,2,4-7, pairs, or expr:S0:0-3@S1:0-3 (likwid "
              "thread domains N, S, D, C, M; `lab topo` lists them)."),
    LAB_P_U64(struct lab_hparams, reps, "reps", "10", 1, 100000, "", "Timed samples per point."),
    LAB_P_DURATION(struct lab_hparams, warmup, "warmup", "20ms", 0, 60000000000ull,
                   "Untimed running before calibration (caches, frequency, page faults)."),
    LAB_P_DURATION(struct lab_hparams, min_time, "min_time", "20ms", 1000, 600000000000ull,
                   "Shortest sample; the iteration count is calibrated to reach it."),
    LAB_P_U64(struct lab_hparams, seed, "seed", "1", 0, UINT64_MAX, "",
              "Seed for anything random (pair sampling, kernel data)."),
    LAB_P_DOUBLE(struct lab_hparams, load_threshold, "load_threshold", "0.25", 0, 4096, "cpus",
                 "Foreign CPU load during a sample, beyond the CPUs the team leaves idle, above "
                 "which the sample is flagged (limit = load_threshold + CPUs - threads)."),
    LAB_P_DOUBLE(struct lab_hparams, max_runq_wait, "max_runq_wait", "0.05", 0, 1, "",
                 "Share of a sample a worker may wait, runnable, for its own CPU (another task "
                 "took it) before the sample is flagged; 1 never flags."),
    LAB_P_U64(struct lab_hparams, retry_flagged, "retry_flagged", "3", 0, 100, "",
              "Times a flagged sample is taken again (after quiet_wait) before it is kept "
              "flagged."),
    LAB_P_DURATION(struct lab_hparams, quiet_wait, "quiet_wait", "2s", 0, 60000000000ull,
                   "Longest wait for the foreign load to drop before retrying a flagged "
                   "sample."),
    LAB_P_ENUM(struct lab_hparams, scaling, "scaling", "strong", plan_scaling_choices,
               "Kind of scaling series for the analyzer: strong or weak."),
    LAB_P_U64(struct lab_hparams, max_pairs, "max_pairs", "0", 0, 1000000, "pairs",
              "With placement = pairs: sample at most this many CPU pairs (0 = all)."),
    LAB_P_ENUM(struct lab_hparams, counters, "counters", "auto", plan_counters_choices,
               "Performance counters per worker: off, auto or require."),
    LAB_P_STR(struct lab_hparams, events, "events", "sw ipc",
              "Counter presets (sw ipc cache branch topdown flops) and event names, separated "
              "by spaces or '+' (`lab counters` lists them)."),
    LAB_P_STR(struct lab_hparams, membind, "membind", "local",
              "Where the pages of kernel buffers go unless the kernel places them itself: local "
              "(the allocating thread's node), node:N (bound there), interleave (page by page "
              "over the nodes), first_touch (wherever each page is first written)."),
    LAB_P_ENUM(struct lab_hparams, perf_c2c, "perf_c2c", "off", plan_onoff_choices,
               "Run `perf c2c record` on the lab during the point and keep the hottest shared "
               "cache lines (HITMs, offsets, symbols); where perf, the PMU or the permission is "
               "missing the point records why and runs anyway."),
    LAB_P_U64(struct lab_hparams, runs, "runs", "1", 1, 1000, "",
              "Fresh setups of each point (new buffers, first touch, team re-pinned), points "
              "visited in an order shuffled per run; with 2 or more the point's interval comes "
              "from the run means."),
    LAB_P_ENUM(struct lab_hparams, fresh_process, "fresh_process", "off", plan_onoff_choices,
               "Each run of each point in a new process of the lab (exec'd afresh: new address "
               "layout, heap and pages), so the run level holds what differs between "
               "processes; costs a plan and a start per run."),
    LAB_P_STR(struct lab_hparams, precision, "precision", "off",
              "Target half-width of the 95 % interval of the mean, relative (2% or 0.02): "
              "samples (one run) or runs (runs >= 2) are added by Stein's two-stage rule "
              "until it is met or the budget is spent; off takes reps samples."),
    LAB_P_DURATION(struct lab_hparams, budget, "budget", "20s", 1000000, 86400000000000ull,
                   "Wall time per point a precision target may use, setups included."),
    LAB_P_DURATION(struct lab_hparams, total_budget, "total_budget", "0", 0, 86400000000000ull * 7,
                   "Wall time of the whole run after which precision targets add no more "
                   "samples or runs (set it in [global]; 0 = no total)."),
    LAB_P_U64(struct lab_hparams, min_cpus, "min_cpus", "1", 1, LAB_THREADS_MAX, "cpus",
              "Where this process may use fewer CPUs, every point of the experiment is skipped "
              "with the reason instead of being a config error (a 2-thread comparison on a "
              "1-CPU machine); threads = max counts as this many there."),
    LAB_PARAM_END,
};

const char *lab_src_name(enum lab_src src)
{
	static const char *const names[] = {"default", "global", "section", "cli"};

	return names[src];
}

const struct lab_kernel *lab_plan_kernel_find(const struct lab_kernel *const *registry,
                                              const char *name)
{
	for (const struct lab_kernel *const *k = registry; *k; k++)
		if (!strcmp((*k)->name, name))
			return *k;
	return NULL;
}

/* Adds msg to d unless the same line is already there (sweeps repeat errors per point). */
void lab__plan_diag_once(struct lab_diag *d, const char *msg)
{
	lab_diag_add_once(d, "%s", msg);
}

/* True when value is text without its surrounding blanks. */
static bool plan_as_written(const char *text, const char *value)
{
	size_t n = strlen(value);

	text += strspn(text, " \t");
	return !strncmp(text, value, n) && !text[n + strspn(text + n, " \t")];
}

void lab__plan_key_error(struct lab_diag *d, const struct lab_experiment *e,
                         const struct lab_resolved *r, const char *value, const char *what)
{
	char *msg = NULL, *detail = NULL;
	int rc;

	/* "threads = 1000..1000" or "max" expand to a value that is not what the line says:
	 * quote the line and name the value. */
	if (!plan_as_written(r->text, value)) {
		if (asprintf(&detail, "value %s: %s", value, what) < 0)
			return;
		value = r->text;
		what = detail;
	}

	if (r->src == LAB_SRC_CLI) /* as typed: one line for every experiment of a global */
		rc = asprintf(&msg, "--set %s.%s=%s: %s", r->set_global ? "global" : e->name,
		              r->param->key, value, what);
	else if (r->src == LAB_SRC_DEFAULT)
		rc = asprintf(&msg, "%s:%d: [%s] %s = %s (default): %s", e->file, e->line, e->name,
		              r->param->key, value, what);
	else if (r->src == LAB_SRC_GLOBAL && !r->harness && strcmp(e->name, "global"))
		/* the kernel of an experiment that refuses it (not the first kernel that has the
		 * key, for a value no experiment takes) */
		rc = asprintf(&msg, "%s:%d: [global] %s = %s: for kernel %s: %s", r->file, r->line,
		              r->param->key, value, e->kernel->name, what);
	else /* the section that holds the line: [global] for inherited values (said once) */
		rc = asprintf(&msg, "%s:%d: [%s] %s = %s: %s", r->file, r->line,
		              r->src == LAB_SRC_GLOBAL ? "global" : e->name, r->param->key, value,
		              what);
	if (rc >= 0)
		lab__plan_diag_once(d, msg);
	free(msg);
	free(detail);
}

struct lab_resolved *lab__plan_key(struct lab_experiment *e, const char *key)
{
	for (unsigned i = 0; i < e->nkeys; i++)
		if (!strcmp(e->keys[i].param->key, key))
			return &e->keys[i];
	return NULL;
}
