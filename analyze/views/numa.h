/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The chapter-27 view "numa" (issue 10): where memory is and what it costs. Built from the
 * points' costs, their recorded metrics and run.json's point_facts (cpu_node, mem_node,
 * pages_per_node, pages_absent, placement_ok, placement_note) plus host.topology.numa_distances.
 * Four kinds of groups, told apart by what the points carry, never by a kernel's name:
 *  - MATRIX: points placed `placement=node:i` (memory on mem_node j): a node x node matrix of
 *    GB/s (the point declares bytes per unit) or of ns per unit (a latency), one per params
 *    set and thread count, with the remote/local ratio beside the firmware's distance ratio;
 *  - POLICY: points with an `init` (page policy): cost, GB/s and pages per node per init and
 *    thread count;
 *  - LADDER: latency points on one node sweeping `size`: ns per load against size;
 *  - LOADED: points recording ns_per_load and stream_gb_per_s: latency vs achieved bandwidth.
 * Medians come with a distribution-free 95 % interval (order statistics), mapped through
 * bytes/cost for GB/s. A point whose pages are not where they were asked (placement_ok false)
 * is kept and marked with its note, never silently.
 */
#ifndef LAB_ANALYZE_VIEWS_NUMA_H
#define LAB_ANALYZE_VIEWS_NUMA_H

#include <stddef.h>
#include <stdio.h>

#include "analyze/data.h"
#include "analyze/err.h"

/* Node numbers the view accepts from a file (the harness records at most 64 nodes). */
#define LAB_AN_NUMA_NODES_MAX 64

enum lab_an_numa_kind {
	LAB_AN_NUMA_MATRIX,
	LAB_AN_NUMA_POLICY,
	LAB_AN_NUMA_LADDER,
	LAB_AN_NUMA_LOADED,
};

/* One point of a group. */
struct lab_an_numa_row {
	const struct lab_an_point *pt;
	int cpu_node, mem_node; /* from point_facts, else the params; -1 unknown */
	char init[64];          /* POLICY: the init policy (point_facts, else the params) */
	double size;            /* LADDER: bytes of the chain */
	int streams; /* LOADED: streaming threads (point_facts "streams", else threads-1) */
	size_t n;    /* samples used; 0 when the point is not ok */
	/* MATRIX: GB/s or ns per unit; POLICY: ns/unit; LADDER: ns/load; LOADED: the metric
	 * ns_per_load. Medians with their order-statistics 95 % interval; with 2 to 5 samples,
	 * too few for that interval, the mean with its t-interval (mean_ci = 1) instead. */
	double med, lo, hi;
	int mean_ci;
	double gbs, gbs_lo, gbs_hi; /* POLICY: GB/s; LOADED: the stream bandwidth (median, CI) */
	const struct lab_an_json *pages; /* pages_per_node (an array of numbers) or NULL */
	double pages_absent;             /* NaN when not recorded */
	int placement_ok;                /* 1, 0, or -1 not recorded */
	const char *note;                /* placement_note, or NULL */
	size_t seq;                      /* POLICY: the first row of its init (for the order) */
	/* POLICY: the index of the first row with the same placement (same threads, the same
	 * pages per node, all on one node), itself when it is the first; -1 when no other row
	 * shares it or the pages are unknown. */
	long same;
};

struct lab_an_numa_group {
	enum lab_an_numa_kind kind;
	const char *experiment;
	char *params;     /* the point params without the keys this kind sweeps */
	int threads;      /* MATRIX, LADDER: the team size; 0 for the others (a row per count) */
	int bw;           /* MATRIX, POLICY: 1 when the points declare bytes (GB/s) */
	const char *unit; /* of med: "GB/s" or the point's cost unit */
	struct lab_an_numa_row *row;
	size_t nrow, cap;
	int nnode; /* MATRIX: highest node of a cell that ran + 1 (of any cell if none ran) */
	size_t mismatched; /* rows with placement_ok false */
	size_t nsame;      /* POLICY: placements shared by two or more rows (lab_an_numa_same) */
};

struct lab_an_numa {
	struct lab_an_numa_group *g;
	size_t ng;
	int ndist;    /* host.topology.numa_distances: ndist x ndist, 0 when absent or malformed */
	double *dist; /* row-major */
};

/* 1 when the view shows point p: declared "numa", or (older files) a point with point_facts
 * recording pages_per_node. */
int lab_an_numa_applies(const struct lab_an_data *d, const struct lab_an_point *p);
int lab_an_numa_run(const struct lab_an_data *d, int include_flagged, struct lab_an_numa *v,
                    struct lab_err *err);
void lab_an_numa_free(struct lab_an_numa *v);
/* Sorts the rows, sizes the matrices and reads the distance table (numa_group.c). */
int lab_an_numa_finish(const struct lab_an_data *d, struct lab_an_numa *v);

/* The row of (cpu node i, memory node j) of matrix g, NULL when none. */
const struct lab_an_numa_row *lab_an_numa_cell(const struct lab_an_numa_group *g, int i, int j);
/* cell(i, j) / cell(i, i), NaN when either is missing. */
double lab_an_numa_ratio(const struct lab_an_numa_group *g, int i, int j);
/* The firmware's distance ratio d(i, j) / d(i, i), NaN without the table. */
double lab_an_numa_slit_ratio(const struct lab_an_numa *v, int i, int j);
/* POLICY: the rows of g whose pages ended up identical, grouped (row->same). Two rows share
 * a placement when they ran at the same thread count and pages_per_node (and pages_absent)
 * are equal with every page on one node: on a one-node machine every policy does. Equal
 * histograms spread over nodes are not grouped: which thread's data is local can differ. */
void lab_an_numa_same(struct lab_an_numa_group *g);
/* How the text, JSON and report say it: the costs of rows in one placement differ by noise or
 * run order, not by where the pages are. */
#define LAB_AN_NUMA_SAME                                                                           \
	"one placement here: the pages ended up on the same node, so cost differences between "    \
	"these rows are not a NUMA effect"

/* The label of a kind in text and JSON: "matrix", "policy", "ladder", "loaded". */
const char *lab_an_numa_kind_name(enum lab_an_numa_kind k);
/* Whose time a LADDER or LOADED group's ns per load is: the chasing thread's (LOADED, a
 * latency), one thread's (a LADDER at 1 thread), or all threads together (a LADDER at more:
 * overlapping chains, memory parallelism rather than latency). */
const char *lab_an_numa_load_label(const struct lab_an_numa_group *g);

/* How a row whose pages are not where they were asked is marked (then ": <note>"). */
#define LAB_AN_NUMA_MISMATCH "placement differs from what was asked"

#define LAB_AN_FILE_NUMA "numa_matrix.csv"
#define LAB_AN_NUMA_COLUMNS                                                                        \
	"experiment,params,threads,quantity,cpu_node,mem_node,n,median,ci95_lo,ci95_hi,"           \
	"ratio_to_local,slit_distance,slit_ratio,placement_ok,placement_note"
int lab_an_numa_csv(const void *state, const char *path, struct lab_err *err);

struct lab_json;
struct lab_an_plots;
struct lab_an_pdir;
void lab_an_numa_json(struct lab_json *w, const void *state, const char *exp);
void lab_an_numa_text(FILE *f, const void *state);
void lab_an_numa_html(FILE *f, const void *state, const struct lab_an_plots *plots,
                      const char *dir);
int lab_an_numa_plots(const void *state, const struct lab_an_data *d,
                      const struct lab_an_pdir *pdir, struct lab_an_plots *out,
                      struct lab_err *err);

#endif
