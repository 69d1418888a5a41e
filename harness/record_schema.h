/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The result files: the one interface between `lab run` and `lab analyze`. analyze/ includes this
 * header and nothing else of harness/. Change a name here only with a schema version bump.
 *
 * A results directory holds:
 *
 *   run.json     LAB_SCHEMA_RUN. Rewritten (temp file + rename) after every point, so it is a
 *                valid document even after Ctrl-C. Shape:
 *     { "schema": "lab.run/1",
 *       "status": "running" | "complete" | "interrupted" | "failed",
 *       "lab": { "version", "git_sha", "git_dirty", "compiler", "c_flags", "build_type",
 *                "sanitize", "openmp", "openmp_env": { "<OMP_* / GOMP_* / KMP_* variable>":
 *                "<value>" } (only those set) },
 *       "started_utc", "finished_utc", "command_line": [...],
 *       "host": { "hostname", "kernel", "cpu_model", "hypervisor" (its name, e.g. "KVM" or
 *                 "QEMU TCG"; null on bare metal), "governor", "thp", "smt",
 *                 "topology": { "source", "thissystem", "packages", "numa_nodes", "cores",
 *                               "pus", "cpus_allowed": [...],
 *                               "pus_detail": [ { "cpu", "package", "numa", "core",
 *                                                 "smt_rank" } ],
 *                               "caches": [ { "level", "size" (bytes of one instance, the
 *                                 size cache-relative sizes used), "size_from": "hwloc" |
 *                                 "measured" (a guest's report contradicted: cacheprobe.h) |
 *                                 "given" (--cache), "reported_size" (hwloc's, 0 for none;
 *                                 only where it differs), "linesize", "pus_sharing" } ] },
 *                 "clock": { "source", "resolution_ns", "read_cost_ns" },
 *                 "counters": { "available", "reason", "vendor", "family", "model",
 *                               "hypervisor", "pmus", "core_pmu", "perf_event_paranoid",
 *                               "paranoid_allows", "nmi_watchdog", "privileged", "api",
 *                               "topdown_method", "topdown_reason", "libpfm" },
 *                 "loadavg": [1, 5, 15] },
 *       "self_check": { "overhead_ns_per_iter", "spin_50us_ns", "spin_error", "core_ghz",
 *                       "core_ghz_method" (core_ghz is an estimate: a dependent add chain) },
 *       "load_guard": { "threshold_cpus" },
 *       "run_order": { "shuffled" (runs >= 2: each run visits the points in its own order),
 *                      "seed" },
 *       "progress": { "points_done" (points whose last planned run finished), "points_planned" },
 *       "config": { "files": [...], "sets": [...], "text": "..." },
 *       "experiments": [
 *         { "name", "kernel", "work_unit", "work_scope": "team" | "shared" | "one" (whose work
 *           `work` counts: the sum over threads, a unit the whole team shares and counts once,
 *           or thread 0's alone; enum lab_work_scope), "cost_kind": "work" | "latency" (a
 *           cost that scales, or a per-instance latency or overhead that speedup and fits do
 *           not apply to; enum lab_cost_kind; absent: work), "views": [...] (the kernel's analyzer
 *           views, when it names any), "scaling": "strong" | "weak",
 *           "metrics": [ { "name", "unit", "agg" } ],
 *           "resolved": { "<key>": { "value": "...", "source": "default" | "global" |
 *                                    "section" | "cli", "file", "line" } },
 *           "points": [
 *             { "point": <global id>, "threads": N, "cpus": [...], "placement",
 *               "params": { "<key>": "<value as text>" },
 *               "team": "threads" | "openmp", "omp_cpus": [...] (openmp: where each OpenMP
 *               thread ran; threads.csv then has one row per sample, the harness worker),
 *               "status": "ok" | "skipped" | "failed", "reason": "...",
 *               "verify": "pass" | "fail" | "none", "iters_per_sample",
 *               "sample_windows" (the timed windows each sample's elapsed_ns adds up: 1,
 *               elapsed_ns = max(end_ns) - min(start_ns) of its threads.csv rows; k > 1, a
 *               long sample run in k chunks, whose threads' spans also hold the k - 1 untimed
 *               gaps between them; absent in files written before it), "reps",
 *               "flagged" (samples kept flagged), "flagged_runq" (of those, flagged because
 *               a worker waited for its CPU over max_runq_wait), "attempts" (samples taken,
 *               retries of flagged ones included), "sample_attempts": [...] (per kept
 *               sample, in rep order: 1, or more when it was retried; absent when every
 *               kept sample was taken once), "load_limit_cpus" (ok
 *               points: the foreign load above which a sample was flagged),
 *               "work_per_unit": { "bytes_read", "bytes_written", "flops",
 *                                  "bytes_write_allocate", "bandwidth_bound", "adds_only" }
 *               (when declared; bandwidth_bound: its GB/s may set a bandwidth ceiling;
 *               adds_only: every flop is an add, held under an add peak; absent before it),
 *               "runs" (fresh setups taken), "runs_planned" (the runs the point was to
 *               take: `runs`, or a precision target's total; "runs" below it says the run
 *               ended first, and the reason says so), "wall_s" (its runs' wall time from
 *               being handed to the runner to their records, setup, calibration and
 *               teardown included, summed: what the point cost the run; the plan's estimate
 *               is of the same), with fresh_process = on "processes"
 *               (the pid that measured each run, in run order), and with a precision target:
 *               "precision_target", "precision_achieved" (half-width of Stein's 95 %
 *               interval / |mean|), "samples", "budget_exhausted",
 *               "total_budget_exhausted" (only when true: the config's total ran out),
 *               "precision": { "rule",
 *               "level": "samples" | "runs", "pilot", "pilot_sd", "planned", "mean",
 *               "halfwidth", "spent_s" },
 *               "counters": { "mode", "passes", "hw_exclude_kernel", "sw_exclude_kernel",
 *                             "topdown": { "method", "reason" }, "flops_reason",
 *                             "events": [ { "name", "column", "status", "reason", "errno",
 *                                           "source", "pass" } ],
 *                             "warnings": { "samples_with_context_switches",
 *                                           "samples_with_migrations",
 *                                           "thread_samples_multiplexed" } }
 *                 (absent with counters = off) } ] } ]
 * }
 *
 *   samples.csv  one row per (point, repetition); the columns of LAB_SAMPLES_COLUMNS, then one
 *                column per metric of every experiment in the run (empty where a point's
 *                kernel lacks it). `params` is "k=v;k=v" of every kernel key and the placement,
 *                never threads, so rows that differ only in `threads` form a scaling series.
 *                Cost per unit of work = elapsed_ns / work.
 *                After the metric columns: runq_wait (LAB_COL_RUNQ_WAIT), then one
 *                ctr_<event> column per counter event any point asked for (the sum over
 *                threads; empty where not counted), then ctr_mux_ratio (smallest
 *                running/enabled; < 1: values were scaled), then run (LAB_COL_RUN).
 *   threads.csv  one row per (point, repetition, thread): LAB_THREADS_COLUMNS, the metric
 *                columns, runq_wait, then the same counter columns for that thread.
 *   config.ini   the config exactly as run (several files are concatenated with a comment line
 *                naming each).
 *
 * CSV rules: comma separated, first line is the header, fields holding ',' '"' or ';'-lists are
 * quoted with '"' and inner quotes doubled, numbers in C locale, booleans as 0/1.
 */
#ifndef LAB_HARNESS_RECORD_SCHEMA_H
#define LAB_HARNESS_RECORD_SCHEMA_H

#include <stdio.h>
#include <string.h>

#define LAB_SCHEMA_RUN      "lab.run/1"
#define LAB_SCHEMA_ANALYSIS "lab.analysis/3"

#define LAB_FILE_RUN      "run.json"
#define LAB_FILE_SAMPLES  "samples.csv"
#define LAB_FILE_THREADS  "threads.csv"
#define LAB_FILE_CONFIG   "config.ini"
#define LAB_FILE_SUMMARY  "summary.csv"
#define LAB_FILE_ANALYSIS "analysis.json"
#define LAB_FILE_REPORT   "report.html"
#define LAB_DIR_PLOTS     "plots"

/* The fixed leading columns of samples.csv, in order. */
#define LAB_SAMPLES_COLUMNS                                                                        \
	"experiment,point,kernel,params,threads,rep,elapsed_ns,work,work_unit,foreign_cpu,flagged"
#define LAB_SAMPLES_NCOLUMNS 11

/* The fixed leading columns of threads.csv, in order; per-thread metric columns may follow. */
#define LAB_THREADS_COLUMNS  "point,rep,thread,cpu_start,cpu_end,start_ns,end_ns,work"
#define LAB_THREADS_NCOLUMNS 8

/* Positions of the fixed columns of samples.csv (the order of LAB_SAMPLES_COLUMNS). */
enum lab_samples_col {
	LAB_SCOL_EXPERIMENT,
	LAB_SCOL_POINT,
	LAB_SCOL_KERNEL,
	LAB_SCOL_PARAMS,
	LAB_SCOL_THREADS,
	LAB_SCOL_REP,
	LAB_SCOL_ELAPSED_NS,
	LAB_SCOL_WORK,
	LAB_SCOL_WORK_UNIT,
	LAB_SCOL_FOREIGN_CPU,
	LAB_SCOL_FLAGGED,
};

/*
 * A harness column of samples.csv and threads.csv, after the kernel's metric columns and before
 * the counter columns: the share of the sample a worker spent runnable but waiting for its CPU
 * (samples.csv: the largest over workers; empty when unknown).
 */
#define LAB_COL_RUNQ_WAIT "runq_wait"

/*
 * The last column of samples.csv: the run (0-based fresh setup, `runs = K`) the sample belongs
 * to. Files written before it existed lack it; the analyzer then takes every sample as run 0.
 * rep counts on across the runs of a point, so (point, rep) stays unique.
 */
#define LAB_COL_RUN "run"

/* Keys of run.json that the analyzer reads (the shape above). */
#define LAB_KEY_SCHEMA       "schema"
#define LAB_KEY_STATUS       "status"
#define LAB_KEY_PROGRESS     "progress"
#define LAB_KEY_EXPERIMENTS  "experiments"
#define LAB_KEY_NAME         "name"
#define LAB_KEY_KERNEL       "kernel"
#define LAB_KEY_SCALING      "scaling"
#define LAB_KEY_VIEWS        "views" /* an experiment's analyzer views, each once */
#define LAB_KEY_POINTS       "points"
#define LAB_KEY_POINT        "point"
#define LAB_KEY_THREADS      "threads"
#define LAB_KEY_PARAMS       "params"
#define LAB_KEY_PLACEMENT    "placement"
#define LAB_KEY_REASON       "reason"
#define LAB_KEY_VERIFY       "verify"      /* none, pass or fail: the kernel's check of its work */
#define LAB_KEY_POINT_FACTS  "point_facts" /* what the kernel found (harness/facts.h) */
#define LAB_KEY_WORK_SCOPE   "work_scope"
#define LAB_KEY_COST_KIND    "cost_kind" /* enum lab_cost_kind; absent (older files): work */
#define LAB_KEY_FLAGGED_RUNQ "flagged_runq"
#define LAB_KEY_WORK_UNIT    "work_unit" /* an experiment's: what one unit of work is */
#define LAB_KEY_REPS         "reps"      /* a point's samples kept, over all its runs */

/* What threads.csv's rows are held to: a point's team ("threads", or "openmp": one worker row
 * per sample; the kernel's shape, not the runtime: an OpenMP kernel's team=lab points say
 * "openmp" too) and the timed windows of its samples. */
#define LAB_KEY_TEAM           "team"
#define LAB_KEY_SAMPLE_WINDOWS "sample_windows"

/* Bytes and flops a point's kernel declared per unit of work (harness/kernel_api.h). */
#define LAB_KEY_WORK_PER_UNIT "work_per_unit"
/* The run level and precision targets of a point (harness/precision.h). */
#define LAB_KEY_RUNS               "runs"
#define LAB_KEY_RUNS_PLANNED       "runs_planned" /* runs below it: the run ended first */
#define LAB_KEY_WALL_S             "wall_s"    /* the point's runs, setup to teardown, in seconds */
#define LAB_KEY_PROCESSES          "processes" /* fresh_process = on: the pid of each run */
#define LAB_KEY_SAMPLES            "samples"
#define LAB_KEY_PRECISION_TARGET   "precision_target"
#define LAB_KEY_PRECISION_ACHIEVED "precision_achieved"
#define LAB_KEY_BUDGET_EXHAUSTED   "budget_exhausted"
#define LAB_KEY_TOTAL_EXHAUSTED    "total_budget_exhausted"
#define LAB_KEY_PRECISION          "precision"
/* The precision targets a config may ask for (fractions: 0.01 % .. 50 %, harness/precision.c);
 * the analyzer refuses a run.json target outside them. */
#define LAB_PREC_TARGET_MIN 1e-4
#define LAB_PREC_TARGET_MAX 0.5
/* The most runs a point plans: a config's runs (1000) or a precision target's cap
 * (LAB_PREC_N_MAX, harness/precision.h); the analyzer refuses a larger runs_planned. */
#define LAB_RUNS_PLANNED_MAX 100000u

/* The values of "work_scope", indexed by enum lab_work_scope (harness/kernel_api.h). */
#define LAB_WORK_SCOPE_NAMES                                                                       \
	{                                                                                          \
		"team", "shared", "one"                                                            \
	}

/* The values of "cost_kind", indexed by enum lab_cost_kind (harness/kernel_api.h). */
#define LAB_COST_KIND_NAMES                                                                        \
	{                                                                                          \
		"work", "latency"                                                                  \
	}

/* Every status a point of run.json may carry, "|"-separated for messages. */
#define LAB_POINT_STATUSES "ok|skipped|failed|planned|running|not_run|interrupted"

/* Key/value separators of the params column. */
#define LAB_PARAMS_SEP ';'
#define LAB_PARAMS_KV  '='

/* Writes s as one CSV field by the rules above (run side and analyzer write the same way). */
static inline void lab_csv_field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\";\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

#endif
