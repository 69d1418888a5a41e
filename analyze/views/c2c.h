/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The core-to-core latency matrix of c2c_latency experiments (issue 4). A point of such an
 * experiment is one CPU pair; a matrix is the set of points of one experiment whose params
 * differ only in `pair` (so one matrix per method, layout...). Per cell, on the one-way latency
 * elapsed_ns/work/2 of each used sample (work counts round trips): n, the median with a
 * distribution-free 95 % interval (order statistics: it holds for multimodal samples too), the
 * mean, the modes (analyze/modes.h; the host moving vCPUs gives a pair several stable
 * latencies, and the median of a multimodal cell is then a number nobody measured), the
 * medians of the kernel's own one_way_* metric columns when present, and the pair's topology
 * relation (analyze/cpurel.h). c2c_cells.c builds the matrices from loaded data; the view "c2c"
 * (c2c.c) describes them, its state is a struct lab_an_c2c.
 */
#ifndef LAB_ANALYZE_VIEWS_C2C_H
#define LAB_ANALYZE_VIEWS_C2C_H

#include "analyze/cpurel.h"
#include "analyze/data.h"

struct lab_an_c2c_cell {
	const struct lab_an_point *pt;
	int cpu_a, cpu_b; /* from run.json's "cpus", else the `pair=a-b` param; -1 unknown */
	size_t n;
	double median_ns, ci95_lo, ci95_hi; /* one-way; the interval is NaN when n < 6 */
	double mean_ns;
	int ci_runs; /* 1: the interval is the mean's over the point's two or more run means */
	struct lab_an_modes modes; /* one-way ns; count 0 when n < LAB_AN_MODES_MIN_N */
	/* Medians of the metric columns one_way_ns, one_way_p10_ns, _p50_, _p90_ (NaN: absent). */
	double m_one_way, m_p10, m_p50, m_p90;
	int smt_siblings, same_package, same_numa; /* 1, 0, or -1 unknown */
	int same_llc; /* one last-level cache (a CCX on a Zen): 1, 0, or -1 unknown */
};

struct lab_an_c2c_matrix {
	const char *experiment;
	char *params;                 /* the point params without `pair` */
	char *method;                 /* the `method` param, "" when absent */
	struct lab_an_c2c_cell *cell; /* in point order */
	size_t ncell, ccap;
	int *cpu; /* the distinct CPUs of the cells, ascending */
	size_t ncpu;
	size_t multimodal;     /* cells with two or more modes */
	double min_ns, max_ns; /* over the cells' medians */
	size_t flagged_out;    /* cells with no median because every sample was load-flagged */
	size_t rows_gone;      /* cells whose rows a complete run's samples.csv no longer has */
	/* The cells by ordered pair (cpu_a, cpu_b): the first cell of each pair, and per such
	 * cell the last one of the same pair (last[first]), so lab_an_c2c_find is O(1). */
	struct lab_an_index ix;
	size_t *last;
};

struct lab_an_c2c {
	struct lab_an_c2c_matrix *m;
	size_t nm, cap;
	struct lab_an_index ix; /* the matrices by experiment and params */
	int topo_detailed;      /* run.json carries host.topology.pus_detail */
	char hypervisor[48];    /* run.json's host.hypervisor ("" on bare metal or when absent) */
};

/* Adds point p of d as a cell of its matrix (experiment, params without `pair`; a new one at
 * the end when none) on the samples include_flagged selects; its CPUs from its run.json entry
 * (else its `pair` param) and their relation from rel. 0 or -LAB_ENOMEM. */
int lab_an_c2c_add(struct lab_an_c2c *c, const struct lab_an_data *d,
                   const struct lab_an_cpurel *rel, const struct lab_an_point *p,
                   int include_flagged);
/* Completes m once every point is added: its CPUs, range, counts and pair index. 0 or
 * -LAB_ENOMEM. */
int lab_an_c2c_finish(struct lab_an_c2c_matrix *m);
/* Frees state, a struct lab_an_c2c (NULL: nothing). */
void lab_an_c2c_free(void *state);

/* The position of cpu in m->cpu; cpu must be one of the cells' CPUs. */
size_t lab_an_c2c_pos(const struct lab_an_c2c_matrix *m, int cpu);
/* The cell of CPUs (a, b) in m, either order (a measured (a, b) wins over (b, a): the first
 * (a, b) cell, else the last (b, a) one); NULL if none. O(1) expected time. */
const struct lab_an_c2c_cell *lab_an_c2c_find(const struct lab_an_c2c_matrix *m, int a, int b);
/* The cells lab_an_c2c_find has compared on this thread so far, for the tests that check a
 * heatmap costs O(CPUs + cells), not a scan of the cells per grid point. */
unsigned long long lab_an_c2c_probes(void);

#endif
