/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analyzer's view of measurements: points (one experiment, one parameter set, one thread
 * count) holding the cost per unit of work of each repetition. Loaded from a results directory
 * (run.json + samples.csv, harness/record_schema.h) or from an external CSV of
 * threads,seconds[,series][,rep]. This is the I/O edge: the loaders read files and return errors;
 * everything after works on these structs.
 */
#ifndef LAB_ANALYZE_DATA_H
#define LAB_ANALYZE_DATA_H

#include <stddef.h>

#include "analyze/err.h"
#include "analyze/index.h"
#include "analyze/jsonr.h"
#include "analyze/levels.h"
#include "analyze/modes.h"
#include "analyze/stats.h"

/* Median and mean with its 95 % interval of one metric column at one point; the interval is
 * clipped to the metric's domain (analyze/domain.h), so the standard error is kept apart (NaN
 * with fewer than 2 samples). */
/* One metric column of a point: n samples with a value; with runs >= 2 of them the mean is the
 * mean of the run means and the interval and se are from the run means (runs - 1 df), as the
 * point's cost; else from the samples. */
struct lab_an_msum {
	size_t n, runs;
	double median, mean, ci95_lo, ci95_hi, se;
};

struct lab_an_point {
	char *experiment, *kernel;
	char *params; /* canonical "k=v;k=v", keys sorted; never threads */
	/* As samples.csv wrote them (its first row of the point), so summary.csv keeps the same
	 * order; NULL for points without rows. */
	char *params_written;
	char *
	    unit; /* "ns/<work unit>" of its kernel (samples.csv, else run.json); NULL: the set's */
	long id;  /* the point id of samples.csv / run.json; -1 for external data */
	size_t line;  /* the line of its first row in samples.csv (its CSV file); 0: no rows */
	long rep_max; /* the largest rep of its rows in samples.csv (0 without rows) */
	int threads;
	char *status; /* "ok", "skipped", "failed" (run.json), or "missing" (planned, no rows) */
	char *reason;
	/* run.json's "point_facts" of this point (what the kernel found: the nodes of its pages,
	 * the node it ran on...), checked by the loader: an object whose values are numbers,
	 * booleans, strings or arrays of numbers. Points into d->run; NULL when absent. */
	const struct lab_an_json *facts;
	size_t n, cap; /* samples */
	double *cost;  /* elapsed_ns/work, or seconds for external data */
	unsigned char *flagged;
	/* The metric columns some sample of the point has a value in, ascending (mcol; NULL with
	 * nmc = nmetric: every column), and metric: n x nmc, row-major, NaN where a sample has
	 * none. Read them through lab_an_metric and lab_an_msum_of (a column the point lacks is
	 * NaN), so memory follows the point's own columns, not every kernel's of the run. */
	size_t *mcol, nmc;
	double *metric;
	/* Filled by lab_an_data_summarize: statistics of the samples used (flagged ones excluded
	 * unless asked), the count of excluded ones, and one summary per metric. */
	struct lab_an_stats st;
	struct lab_an_modes modes; /* of the used costs; count 0 below LAB_AN_MODES_MIN_N samples */
	size_t n_flagged;
	/* run.json's "flagged_runq": of the point's flagged samples, those flagged because a
	 * worker waited for its CPU (0 when absent; never above the flagged rows). */
	double flagged_runq;
	struct lab_an_msum *msum; /* nmc of them, as metric's columns */
	/* samples.csv's run of each sample (n of them, capacity run_cap); NULL when the file has
	 * no run column (every sample is run 0). */
	int *run;
	size_t run_cap;
	/* Filled by lab_an_levels_apply: between-run and within-run variance. */
	struct lab_an_levels levels;
	/* This point's entry in run.json (runs, precision_*); NULL when absent. */
	const struct lab_an_json *runjson;
	/* Samples whose threads did identical work (work_scope team, the same work on every
	 * thread in threads.csv, none waiting for its CPU) and whose slowest took more than
	 * LAB_AN_ASYM_RATIO times the fastest: asymmetric CPUs. asym_ratio is the largest such
	 * ratio (0 when none). */
	size_t n_asym;
	double asym_ratio;
	/* The placement of the first point of its experiment that ran the same params and threads
	 * on the same CPUs under another placement (lab_an_placement_same: on 2 CPUs compact,
	 * cores and scatter are one placement); NULL: none. Points into d->run. */
	const char *same_cpus_as;
};

/* Slowest over fastest thread of one sample beyond which its threads are called asymmetric:
 * well past run-to-run noise, well below the 1.45x issue 21 measured on a vCPU. */
#define LAB_AN_ASYM_RATIO 1.25
/* The share of a sample a thread may wait for its CPU (threads.csv runq_wait) and its sample
 * still count as asymmetric; above it the wait, which the load guard sees, explains the gap. */
#define LAB_AN_ASYM_RUNQ_MAX 0.01

struct lab_an_data {
	char *source;            /* the directory or CSV file */
	int external;            /* 1: from an external CSV */
	int throughput;          /* 1: the CSV gave throughput X(N); cost holds 1/X(N) */
	char *unit;              /* "ns/<work unit>" or "s" */
	struct lab_an_json *run; /* run.json, NULL when absent or external */
	const char *run_status;  /* run.json "status", or NULL */
	/* run.json's schema is LAB_SCHEMA_RUN: the keys lab run always writes are required */
	int run_lab;
	char **metric_name;
	/* per metric column, its domain (analyze/domain.h; int: enum lab_domain); NULL:
	 * every one unknown */
	int *metric_dom;
	size_t nmetric;
	struct lab_an_point *pt;
	size_t npt, cap;
	size_t nsamples;
	struct lab_an_warnings warn;
	/* Point lookup for the loaders: by (experiment, id, threads, params), and by
	 * (experiment, id) for run.json's points (first point of that id). */
	struct lab_an_index ix_point, ix_id;
	struct lab_an_index ix_exp; /* run.json experiments by name */
	/* The loaders' (data_int.h): samples.csv's rows sorted by (point, rep), for threads.csv's
	 * rows to be checked against; freed once threads.csv is read. */
	struct lab_an_rowkey *rowkey;
	size_t nrowkey;
	size_t samples_cut; /* the line of samples.csv's last line, cut (no newline); 0: none */
};

/* The reason of a point that run.json says ran ok, in a complete run, but samples.csv has no
 * rows of (status "missing"): its rows were removed after the run, not an interrupted run. */
#define LAB_AN_REASON_ROWS_GONE                                                                    \
	"no rows in samples.csv, though the complete run says it ran ok (removed after the run?)"

/* 1 when p ran ok in a complete run whose samples.csv has no rows of it (reason
 * LAB_AN_REASON_ROWS_GONE), else 0. */
int lab_an_rows_gone(const struct lab_an_point *p);
/* The cost unit of p: its own ("ns/increment"), else the data set's. */
const char *lab_an_point_unit(const struct lab_an_data *d, const struct lab_an_point *p);
/* Metric column m of p's sample i (NaN: that sample, or every sample of p, has none). */
double lab_an_metric(const struct lab_an_point *p, size_t i, size_t m);
/* The summary of metric column m at p (lab_an_data_summarize); NULL when p has no value there
 * or is not summarized. */
const struct lab_an_msum *lab_an_msum_of(const struct lab_an_point *p, size_t m);

/*
 * Whose time the cost of experiment is, from run.json's "work_scope": 0 team (all threads
 * together), 1 shared (one unit for the whole team), 2 one (thread 0's units only); -1 when
 * unknown (external data, an older run.json, an unknown value).
 */
int lab_an_cost_scope(const struct lab_an_data *d, const char *experiment);
/* 1 when experiment's cost is a per-instance latency or overhead (run.json "cost_kind":
 * "latency"): speedup, efficiency, Karp-Flatt and fits do not apply. 0 otherwise (work that
 * scales; also an older run.json without the key and external data). */
int lab_an_cost_latency(const struct lab_an_data *d, const char *experiment);
/* p's cost unit with whose time it is ("ns/increment, all threads together") into buf; the
 * plain unit when unknown. Returns buf. */
const char *lab_an_cost_label(const struct lab_an_data *d, const struct lab_an_point *p, char *buf,
                              size_t len);
/* The sentence that says whose time p's cost is, or NULL when unknown. */
const char *lab_an_cost_whose(const struct lab_an_data *d, const struct lab_an_point *p);

/*
 * 1 when run.json says point p (status ok) got fewer runs than planned (its "runs" below its
 * "runs_planned": the run ended first), with both counts in *runs and *planned; 0 otherwise
 * (a point that got them all, an older run.json without runs_planned, external data).
 */
int lab_an_point_runs_short(const struct lab_an_point *p, size_t *runs, size_t *planned);
/* The distinct runs p's samples in samples.csv come from (flagged or not; 1 without a run
 * column); SIZE_MAX when out of memory. Fewer than run.json's runs: rows were removed. */
size_t lab_an_point_runs_seen(const struct lab_an_point *p);

/* Loads a results directory. Returns 0 or a negative code; bad values name FILE:LINE in err. A
 * DIR that is no directory, a fleet directory or a directory without samples.csv is -LAB_EDATA
 * ("DIR: not a results directory (...)"): bad input, as a bad value is. */
int lab_an_data_load_dir(struct lab_an_data *d, const char *dir, struct lab_err *err);
/* Loads an external CSV (threads,seconds or threads,throughput [,series][,rep]); a throughput
 * X(N) becomes the cost 1/X(N). Bad values name FILE:LINE in err. */
int lab_an_data_load_csv(struct lab_an_data *d, const char *path, struct lab_err *err);
/* Computes each point's statistics; include_flagged keeps foreign-load-flagged samples. */
int lab_an_data_summarize(struct lab_an_data *d, int include_flagged, struct lab_err *err);
/* The same, with each point's modes only when modes is 1 (else their count stays 0): the mode
 * search is most of the cost of summarizing, and lab compare shows none. */
int lab_an_data_summarize_modes(struct lab_an_data *d, int include_flagged, int modes,
                                struct lab_err *err);
void lab_an_data_free(struct lab_an_data *d);

/* run.json's entry of the experiment named experiment, or NULL (no run.json, no such name);
 * found through the loader's index in O(1) expected time, never by a scan. */
const struct lab_an_json *lab_an_data_experiment(const struct lab_an_data *d,
                                                 const char *experiment);
/* The "scaling" of experiment name in run.json: 1 for "weak", 0 otherwise. */
int lab_an_data_is_weak(const struct lab_an_data *d, const char *experiment);
/* The value of key in a canonical params string into buf, or NULL when absent. */
const char *lab_an_params_get(const char *params, const char *key, char *buf, size_t len);
/* Whether params gives key the value v, compared in place (no copy cut at a buffer's length):
 * 1 it does, 0 it gives another, -1 it does not name key. */
int lab_an_params_is(const char *params, const char *key, const char *v);
/* Whether params holds item, the len bytes of one "key=value" (of another params string). */
int lab_an_params_has(const char *params, const char *item, size_t len);
/* params without the key=value item of key, in fresh memory (NULL when out of memory). */
char *lab_an_params_without(const char *params, const char *key);
/* The canonical params with each size param in bytes and each duration in ns, in fresh memory
 * (NULL when out of memory), so that points that name one amount two ways ("stride=8" and
 * "stride=8B", "cost=1us" and "cost=1000ns") read the same: what tells points apart within a
 * run (lab_an_points_distinct) and matches them across runs (lab compare). */
char *lab_an_params_amounts(const char *params);

#endif
