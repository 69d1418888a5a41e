/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The cross-host view of a fleet directory: every node's results side by side. The same point
 * (experiment, params, threads) on every host with its mean and 95 % interval, the scaling
 * curves of each series with one line per host, and the hosts' provenance (CPU model, sockets,
 * NUMA nodes, cores, clock, Slurm context) in one table. A failed or missing host is listed
 * with its reason; the others are still compared. Reads files only; never prints.
 */
#ifndef LAB_ANALYZE_FLEET_VIEW_H
#define LAB_ANALYZE_FLEET_VIEW_H

#include <stdio.h>

#include "analyze/data.h"
#include "analyze/fleet.h"

/* The cross-host view's files: DIR/fleet-analysis.json, DIR/plots/fleet-NN-SLUG.* */
#define LAB_AN_FLEET_ANALYSIS    "fleet-analysis.json"
#define LAB_AN_FLEET_PLOT_PREFIX "fleet-"

/* What one host's run.json says about the machine (strings "" when not recorded). */
struct lab_an_fleet_prov {
	char hostname[128], cpu_model[128], governor[64], slurm_job[32], slurm_partition[128];
	double packages, numa_nodes, cores, pus, clock_resolution_ns, slurm_cpus; /* NaN: absent */
};

struct lab_an_fleet_host {
	char node[LAB_FLEET_NAME_MAX];
	char state[32]; /* the task's state in fleet.json */
	int ok;         /* its results loaded */
	int failed;     /* loaded, but its task or its run did not end well: why says how */
	char why[600];  /* why not, when !ok or failed */
	struct lab_an_data d;
	struct lab_an_fleet_prov prov;
};

/* A host's point in a row of the view. */
struct lab_an_fleet_member {
	size_t host; /* in the view's h */
	const struct lab_an_point *p;
};

/* One point (experiment, params, threads, and the quantity measured) and the hosts that have
 * it: mem[first .. first + n - 1], in host order. A host without it is in no row's list, so the
 * view grows with the points the hosts have, not with hosts x points (100 hosts of disjoint
 * points wrote 636 MB of "absent" entries). */
struct lab_an_fleet_row {
	size_t first, n;
	size_t rows;   /* the rows of its (experiment, params, threads): 2 or more where hosts
	                * measured it as other quantities (another kernel, unit, whose time) */
	size_t others; /* the hosts in those other rows */
};

struct lab_an_fleet_view {
	struct lab_an_fleet_host *h;
	size_t n;
	struct lab_an_fleet_row *row; /* in the order first met, host by host */
	size_t nrow;
	struct lab_an_fleet_member *mem;
};

/*
 * Loads DIR/<node>/ of every task of f (every subdirectory with a run.json whose name passes
 * lab_an_fleet_node_ok when f has no tasks). A host that cannot be read is kept with ok = 0 and
 * its reason; one whose task state is a failure (FAILED, CANCELLED, TIMEOUT, ...) or whose
 * run.json status is not "complete" is loaded with failed = 1 and its reason: its finished
 * points are there, but it is not a healthy host. Returns 0, -LAB_EDATA when there is no host at
 * all (no task, no such subdirectory: nothing to analyze), or -LAB_ENOMEM.
 */
int lab_an_fleet_view_load(const char *dir, const struct lab_an_fleet *f, int include_flagged,
                           struct lab_an_fleet_view *v, struct lab_err *err);
void lab_an_fleet_view_free(struct lab_an_fleet_view *v);

/* Points p (of d) and q (of e) measure one quantity: kernel, unit of work and whose time the
 * cost is alike. A host whose point measured another quantity has a row of its own: 8
 * ns/acquire beside 8025 ns/byte under one header compared nothing. */
int lab_an_fleet_same_quantity(const struct lab_an_data *d, const struct lab_an_point *p,
                               const struct lab_an_data *e, const struct lab_an_point *q);

/* Up to max of the hosts without row r's point, in host order, into out; their count is
 * v->n - r->n. O(r->n + max). */
size_t lab_an_fleet_absent(const struct lab_an_fleet_view *v, const struct lab_an_fleet_row *r,
                           size_t *out, size_t max);

/* Writes the view as one JSON document ("lab.fleet-analysis/2") to f. */
void lab_an_fleet_view_json(const struct lab_an_fleet_view *v, FILE *f);

/*
 * Writes DIR/fleet-analysis.json and, when plots, DIR/plots/fleet-NN-SLUG.{dat,gp} (mean cost
 * per unit of work with its 95 % interval against threads, one line per host) rendered by
 * gnuplot when it is on PATH, then DIR's record of them (analyze/manifest.h), removing what the
 * earlier fleet analysis wrote and this one did not. An output name that is a link or a special
 * file is refused before anything is written. *nplots gets the number of plots. Returns 0 or a
 * negative code.
 */
int lab_an_fleet_view_write(const char *dir, const struct lab_an_fleet_view *v, int plots,
                            size_t *nplots, struct lab_an_warnings *warn, struct lab_err *err);

#endif
