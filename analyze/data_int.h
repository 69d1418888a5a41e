/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Shared by the data files (data.c, data_points.c, data_cost.c and the loaders data_run.c,
 * data_samples.c, data_threads.c, data_csv.c); not the analyzer's interface. */
#ifndef LAB_ANALYZE_DATA_INT_H
#define LAB_ANALYZE_DATA_INT_H

#include "analyze/data.h"

/* The range of a cost per unit (elapsed_ns / work, or --csv seconds and 1/throughput) the
 * analyzer accepts: far beyond any measurement, and narrow enough that every derived value
 * (sums of squares, speedups, efficiencies, fits) stays finite. A cost outside is an input
 * error with FILE:LINE, never an inf or nan in the output. */
#define LAB_AN_COST_MIN   1e-100
#define LAB_AN_COST_MAX   1e100
#define LAB_AN_COST_OK(c) ((c) >= LAB_AN_COST_MIN && (c) <= LAB_AN_COST_MAX)

/* The largest thread count the analyzer accepts from any file. */
#define LAB_AN_THREADS_MAX (1L << 20)

/* The largest count of runs or samples a run.json point may claim: what the harness's unsigned
 * counters hold. */
#define LAB_AN_COUNT_MAX 4294967295.0

/* The largest amount (bytes or flops) a run.json point may declare per unit of work, and the
 * smallest but 0: a unit is an element or a pass, never a petabyte nor a millionth of a byte. */
#define LAB_AN_WORK_PER_UNIT_MAX 1e15
#define LAB_AN_WORK_PER_UNIT_MIN 1e-6

/* The most params one point may have (run.json's "params" object): a kernel declares fewer than
 * 40 keys, the harness adds a few; 50,000 took the placement check 54 s. */
#define LAB_AN_PARAMS_MAX 256

/* The highest OS CPU number a run.json "cpus" item may be (harness/topo.h LAB_TOPO_OS_MAX: the
 * planner refuses PUs above it), and a NUMA node number in a point fact. */
#define LAB_AN_CPU_MAX 65535

/* The most entries of a per-node fact (pages_per_node): the harness records 64 nodes. */
#define LAB_AN_FACT_NODES_MAX 64

/* A row of samples.csv as threads.csv's loader checks its threads against it. */
struct lab_an_rowkey {
	long id, rep;
	size_t line;       /* in samples.csv */
	size_t pt;         /* its point: d->pt[pt] */
	double elapsed_ns; /* the sample's */
	size_t tline;      /* the first threads.csv line of its threads; 0: none read yet */
	double work;       /* the sample's (samples.csv); 0: not known (--csv) */
};

/* (point, rep)'s row of d's samples.csv (d->rowkey, sorted), or NULL. */
struct lab_an_rowkey *lab_an_rowkey_find(const struct lab_an_data *d, long id, long rep);
/* Sorts k[0 .. n) by (id, rep, line): O(n log n). Returns the index of the first row that
 * repeats an earlier row's (id, rep) (that row is at the index before it), or 0 when each pair
 * is there once. samples.csv and `--csv` both refuse a repeated pair: it would count one
 * measurement twice. */
size_t lab_an_rowkey_sort_dup(struct lab_an_rowkey *k, size_t n);

/* How far a threads.csv time may pass a bound its sample sets (data_threads.c): the harness
 * writes elapsed_ns, start_ns and end_ns as whole nanoseconds of the same clock readings
 * (harness/runner_sample.c, runner_take.c), so they agree exactly; the slack only absorbs
 * rounding past 2^53 ns and a clock read on another CPU (never near a microsecond). */
#define LAB_AN_SPAN_SLACK_REL 1e-6
#define LAB_AN_SPAN_SLACK_NS  1000.0

/* ---- data_points.c ---- */

/* The k=v items of params sorted, in fresh memory; NULL when memory runs out. */
char *lab_an_params_canon(const char *params);

/* A key that canonical params (lab_an_params_canon: sorted) name twice: its length, *key at its
 * second item; 0 when each key is there once. */
size_t lab_an_params_dupkey(const char *canon, const char **key);
/* The point (experiment, id, threads, params), appended when new (status "ok"); *hint caches
 * the last hit so rows grouped by point cost O(1). NULL when memory runs out. */
struct lab_an_point *lab_an_point_find(struct lab_an_data *d, const char *exp, long id, int threads,
                                       const char *params, size_t *hint);
/* The points ordered by id (the plan's order), equal ids as they were read; the lookups follow.
 * Returns 0, or -1 out of memory. */
int lab_an_points_plan_order(struct lab_an_data *d);
/* Each (experiment, threads, params) once: two points with the same would make one series with
 * two rows at a thread count and match each other in lab compare. Returns 0 or -LAB_EDATA
 * naming the second point's line (-LAB_ENOMEM). */
int lab_an_points_distinct(const struct lab_an_data *d, struct lab_err *err);
/* data_spelling.c: within an experiment each amount of a key spelled one way (tile=4K at one
 * point and tile=4096 at another is refused); amounts: each point's lab_an_params_amounts.
 * Returns 0 or -LAB_EDATA naming the second spelling's line (-LAB_ENOMEM). */
int lab__an_points_spelled_once(const struct lab_an_data *d, char *const *amounts,
                                struct lab_err *err);
/* Where point p was read: its run.json entry, else its first samples.csv row. */
void lab__an_point_where(const struct lab_an_data *d, const struct lab_an_point *p, char *buf,
                         size_t len);
/* The first point loaded with (experiment, id), or NULL. */
struct lab_an_point *lab_an_point_by_id(const struct lab_an_data *d, const char *exp, long id);
/* The index in run.json's experiments of the one named experiment, or (size_t)-1; and the
 * entry that makes e findable (0, or -1 out of memory). */
size_t lab_an_exp_find(const struct lab_an_data *d, const char *experiment);
int lab_an_exp_add(struct lab_an_data *d, const char *experiment, size_t e);
/* Room for cap samples (and their runs when runs) in a point that has none yet: a file's points
 * mostly have as many samples as the one before, whose count the loader passes, and growing each
 * from 8 reallocated every point's arrays. Nothing for cap <= 8 or above 64 (those grow as
 * before). Returns 0 or -LAB_ENOMEM. */
int lab_an_point_reserve(struct lab_an_point *p, size_t cap, int runs);
/* Appends one sample (metric holds nmetric values). Returns 0 or -LAB_ENOMEM. */
int lab_an_point_add(struct lab_an_point *p, size_t nmetric, double cost, int flagged,
                     const double *metric);

/* ---- data_samples.c ---- */

/* A finite decimal number (empty gives NaN when allow_empty), or a whole decimal integer that
 * fits a long; no spaces, signs other than a leading '-', hex or infinities. 0 or -1. */
int lab_an_parse_num(const char *s, double *v, int allow_empty);
int lab_an_parse_int(const char *s, long *v);
/* Whether the number s (one lab_an_parse_num took) is above limit, a whole number in decimal
 * digits, decided on the text, exactly, when s is plain decimal (a sign, digits, an optional
 * fraction): 1 when its whole part is above limit's or equal with a fraction other than 0, else
 * 0 (a negative s is never above). *frac is 1 when the fraction has a digit other than 0. -1
 * when s has an exponent: its double is as exact as it gets (the caller checks that). */
int lab_an_dec_above(const char *s, const char *limit, int *frac);
/* The header's names after its fixed columns (name[0 .. n), column first + 1 on): each a metric
 * name of 1 .. 64 letters, digits and '_', none of fixed's (",a,b,"), each once (a value must
 * not be read under two names, and a name goes into the outputs' headers). 0, or -LAB_EDATA
 * with "PATH:1: column ..." (-LAB_ENOMEM). */
int lab_an_metric_names(const char *path, char *const *name, size_t n, size_t first,
                        const char *fixed, struct lab_err *err);

/* ---- data_point_check.c ---- */

/* Checks a point entry of run.json (path names the file in messages) before any of it is used:
 * id, threads, status, params, cpus, point_facts, run level and precision, team and sample
 * windows, work per unit.
 * Returns 0, or -LAB_EDATA with "FILE:LINE: what: allowed: ..." in err (-LAB_ENOMEM). */
int lab_an_run_point_check(const char *path, const struct lab_an_json *jp, struct lab_err *err);

/* ---- data_threads_row.c ---- */

struct lab_an_csv;

/* One row of threads.csv: point, rep, thread, the CPUs before and after, start_ns, end_ns, work
 * and runq_wait (NaN: empty or no such column). */
struct lab_an_trow {
	long id, rep, thread, cpu[2];
	double start, end, work, runq;
};

/* threads.csv's columns after LAB_THREADS_COLUMNS (runq_wait, the counters'): n of them, each
 * one's name and the domain a thread's value is held to (its metric's where that is a thread's
 * too: a count >= 0, a share in [0, 1]; a team's figure such as Jain's index is held to none). */
struct lab_an_tcols {
	size_t n;
	char **name;
	unsigned char *dom; /* enum lab_domain */
};

/* threads.csv's header r names LAB_THREADS_COLUMNS first, then columns as lab_an_metric_names
 * allows, whose names and domains go into c (free it with lab_an_tcols_free, whatever the
 * return). 0, or -LAB_EDATA with FILE:LINE (-LAB_ENOMEM). */
int lab_an_threads_header(const struct lab_an_csv *r, struct lab_an_tcols *c, struct lab_err *err);
void lab_an_tcols_free(struct lab_an_tcols *c);
/* The fields of row r into w (runq_col: runq_wait's column, or -1; c: the header's columns),
 * each as the writer writes it: whole numbers >= 0, CPUs -1 .. LAB_AN_CPU_MAX, start_ns <=
 * end_ns within 0 .. 2^63, work >= 0, runq_wait a share or empty, every other column a finite
 * number or empty in its domain. 0, or -LAB_EDATA with FILE:LINE and what is allowed. */
int lab_an_trow_parse(const struct lab_an_csv *r, int runq_col, const struct lab_an_tcols *c,
                      struct lab_an_trow *w, struct lab_err *err);

/* ---- data_run_keys.c: the keys of a run.json whose schema is LAB_SCHEMA_RUN ---- */

/* run's "status" is one lab run gives a run. Returns 0 or -LAB_EDATA with FILE:LINE. */
int lab_an_run_status_check(const char *path, const struct lab_an_json *run, struct lab_err *err);
/* Experiment x names its "kernel" and "work_unit". 0 or -LAB_EDATA with FILE:LINE. */
int lab_an_run_exp_keys(const char *path, const struct lab_an_json *x, struct lab_err *err);
/* Point jp has "status", "reps" and "params". 0 or -LAB_EDATA with FILE:LINE. */
int lab_an_run_point_keys(const char *path, const struct lab_an_json *jp, struct lab_err *err);
/* Point jp's params (with its placement) name the keys of p's params in samples.csv, no more and
 * no fewer (threads aside). 0 or -LAB_EDATA naming both files' lines. */
int lab_an_run_params_same(const char *path, const struct lab_an_json *jp,
                           const struct lab_an_point *p, struct lab_err *err);

/* ---- data_host.c ---- */

/* Cache levels run.json's host.topology.caches may name (hwloc's L1 .. L5). */
#define LAB_AN_CACHE_LEVELS 5

/* Checks run's "host" members the views print or name things by: host.topology.caches, when
 * there, an array of objects with a whole level 1 .. LAB_AN_CACHE_LEVELS (each once), a whole
 * size > 0 and whole linesize and pus_sharing >= 0. Returns 0 or -LAB_EDATA with FILE:LINE. */
int lab_an_run_host_check(const char *path, const struct lab_an_json *run, struct lab_err *err);

/* ---- data_lessons.c ---- */

/* Checks run.json's "lessons" (run is run.json; none: nothing to check): an array of objects,
 * each with a name a config may give (each once), a claim and an expr that parse and that a
 * config may state (lab_lesson_check; no speedup at threads=1), the claim alike to the expr but
 * for the form of selector values (machine values checked against run.json's host). Returns 0
 * or -LAB_EDATA with FILE:LINE and what is allowed (-LAB_ENOMEM). */
int lab_an_run_lessons_check(const char *path, const struct lab_an_json *run, struct lab_err *err);

/* ---- the loaders ---- */

/* Reads run.json into d->run (a missing file is a warning); merges its points' status
 * (data_run.c). */
int lab_an_run_load(struct lab_an_data *d, const char *path, struct lab_err *err);
/* 1 when run.json says the run completed: every line of its CSV files was written whole. */
int lab_an_run_complete(const struct lab_an_data *d);
/* The error of path's last line, line, cut (no newline) in a run that completed. */
int lab_an_cut_line(const char *path, size_t line, struct lab_err *err);
int lab_an_run_points(struct lab_an_data *d, struct lab_err *err);
/* Reads samples.csv into d's points, every column checked (data_samples.c). */
int lab_an_samples_load(struct lab_an_data *d, const char *path, struct lab_err *err);
/* Reads threads.csv (optional: absent is no error) and counts each point's asymmetric samples
 * (data_threads.c); after run.json, whose work_scope says which teams share identical work. */
int lab_an_threads_load(struct lab_an_data *d, const char *path, struct lab_err *err);

#endif
