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

#include "analyze/data.h"
#include "analyze/index.h"

/* Nodes a matrix shows (0 .. 63: the harness binds memory to at most 64 nodes); a point on a
 * node past them (a file may name nodes up to LAB_AN_NUMA_NODE_NUM_MAX, as the loader allows)
 * stays a matrix point, counted in a note, its values in the table. */
#define LAB_AN_NUMA_NODES_MAX    64
#define LAB_AN_NUMA_NODE_NUM_MAX 65535
/* The matrix table's CSV file (users and scripts know the name) and its stem. */
#define LAB_AN_NUMA_CSV  "numa_matrix"
#define LAB_AN_FILE_NUMA LAB_AN_NUMA_CSV ".csv"

enum lab_an_numa_kind {
	LAB_AN_NUMA_MATRIX,
	LAB_AN_NUMA_POLICY,
	LAB_AN_NUMA_LADDER,
	LAB_AN_NUMA_LOADED,
};

/* A median (or, with 2 to 5 samples, too few for its interval, the mean: mean_ci = 1) with its
 * 95 % interval, and the mean of the same samples. */
struct lab_an_numa_val {
	double med, lo, hi, mean;
	int mean_ci; /* 1: the mean and its t-interval (too few samples for the median's); 2: the
	              * mean of two or more run means and their t-interval */
};

/* One point of a group. */
struct lab_an_numa_row {
	const struct lab_an_point *pt;
	int cpu_node, mem_node; /* from point_facts, else the params; -1 unknown */
	char init[64];          /* POLICY: the init policy (point_facts, else the params) */
	double size;            /* LADDER: bytes of the chain */
	int streams; /* LOADED: streaming threads (point_facts "streams", else threads-1) */
	size_t n;    /* samples used; 0 when the point is not ok */
	/* MATRIX: GB/s or ns per unit; POLICY: ns/unit; LADDER: ns/load; LOADED: ns_per_load */
	struct lab_an_numa_val v;
	struct lab_an_numa_val gbs;      /* POLICY: GB/s; LOADED: the stream bandwidth; else NaN */
	const struct lab_an_json *pages; /* pages_per_node (an array of numbers) or NULL */
	double pages_absent;             /* NaN when not recorded */
	int placement_ok;                /* 1, 0, or -1 not recorded */
	const char *note;                /* placement_note, or NULL */
	double huge_pct;                 /* hugepages = on: its percent in huge pages; else NaN */
	double key[2];                   /* the row's place in its group (numa_group.c) */
	/* POLICY: the index of the first row with the same placement (same threads, the same
	 * pages per node, all on one node), itself when it is the first; -1 when no other row
	 * shares it or the pages are unknown. */
	long same;
};

/* The higher of a row's cpu and memory node: where the matrix must reach to show it. */
static inline int lab_an_numa_row_top(const struct lab_an_numa_row *r)
{
	return r->cpu_node > r->mem_node ? r->cpu_node : r->mem_node;
}

struct lab_an_numa_group {
	enum lab_an_numa_kind kind;
	const char *experiment;
	char *params;     /* the point params without the keys this kind sweeps */
	int threads;      /* MATRIX, LADDER: the team size; 0 for the others (a row per count) */
	int bw;           /* MATRIX, POLICY: 1 when the points declare bytes (GB/s) */
	const char *unit; /* of v: "GB/s" or the point's cost unit */
	struct lab_an_numa_row *row;
	size_t nrow, cap;
	int nnode; /* MATRIX: highest node of a cell that ran + 1 (of any cell if none ran) */
};

struct lab_an_numa {
	struct lab_an_numa_group *g;
	size_t ng, cap;
	struct lab_an_index ix; /* the groups by kind, threads, experiment and params */
	/* the experiments with a loaded-latency point, made at the first point without samples
	 * (it belongs with its experiment's others) */
	struct lab_an_strset loaded;
	int loaded_made;
	int ndist;    /* host.topology.numa_distances: ndist x ndist, 0 when absent or malformed */
	double *dist; /* row-major */
	char hypervisor[48]; /* host.hypervisor ("" on bare metal or when absent) */
	int host_nodes;      /* host.topology.numa_nodes, 0 when absent or no whole number >= 1 */
};

/* Adds point p (numa_row.c) to its group of v, statistics over the used samples (inc: the
 * flagged ones too); nothing when the view has nothing to show for p. 0 or -LAB_ENOMEM. */
int lab_an_numa_add(struct lab_an_numa *v, const struct lab_an_data *d,
                    const struct lab_an_point *p, int inc);

/* Sorts the rows, sizes the matrices, groups the policies' shared placements and reads the
 * distance table (numa_group.c). 0 or -LAB_ENOMEM. */
int lab_an_numa_finish(const struct lab_an_data *d, struct lab_an_numa *v);
/* The row of (cpu node i, memory node j) of matrix g, NULL when none. */
const struct lab_an_numa_row *lab_an_numa_cell(const struct lab_an_numa_group *g, int i, int j);
/* cell(i, j) / cell(i, i), NaN when either is missing. */
double lab_an_numa_ratio(const struct lab_an_numa_group *g, int i, int j);
/* The firmware's distance d(i, j), NaN without the table. */
double lab_an_numa_dist(const struct lab_an_numa *v, int i, int j);
/* Whose time a LADDER or LOADED group's ns per load is: the chasing thread's (LOADED, a
 * latency), one thread's (a LADDER at 1 thread), or all threads together (a LADDER at more:
 * overlapping chains, memory parallelism rather than latency). */
const char *lab_an_numa_load_label(enum lab_an_numa_kind kind, int threads);

#endif
