/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What lessons.c (the claim's point means) hands lessons_judge.c (Q, its interval, the
 * verdict); not an interface. */
#ifndef LAB_ANALYZE_LESSONS_INT_H
#define LAB_ANALYZE_LESSONS_INT_H

#include "analyze/index.h"
#include "analyze/lessons.h"
#include "harness/lessons.h"

#define EV_VARS_MAX 64

/* One point mean the claim uses: a cost (metric < 0) or a metric of one point. */
struct ev_var {
	const struct lab_an_point *pt;
	int metric;
	double mean, v; /* v: variance of the mean */
	size_t n;       /* samples (or runs) behind it: df = n - 1 */
	int runs;       /* 1: n counts runs (run means, or a lent run-to-run variance) */
};

/* The points of a run listed for the selectors (lessons_index.c): under
 * "EXPERIMENT<US>key=value" for every item of their params and "EXPERIMENT<US>threads=N". */
struct ev_pindex {
	struct lab_an_strset set;     /* the lists' names (owned strings) */
	struct lab_an_strset exps;    /* the experiments that have points */
	long *max_team;               /* per experiment of exps: its largest team */
	struct lab_an_strset metrics; /* samples.csv's metric columns (numbered as in the data) */
	size_t *key, *pt;             /* per entry: its list, its point (index in the data) */
	size_t *order, *end;          /* the entries list by list (lab_an_bucket) */
	int ok;                       /* 0: not built (out of memory): scan every point */
	/* run.json's host.topology.pus_detail as (cpu, package, core) triples sorted by cpu
	 * (lab__lesson_core); npus 0 when absent or past LAB_AN_LESSON_PUS_MAX */
	double *pus;
	size_t npus;
	int numa_nodes;      /* run.json's host.topology.numa_nodes (0 when absent) */
	char hypervisor[48]; /* run.json's host.hypervisor ("" on bare metal or when absent) */
	int no_set;          /* 1: run.json's command_line is there and has no --set */
	/* Built on the first selector that names no point (lab__lesson_spelled): each params item
	 * whose amount is written otherwise (tile=4K as 4096), under "EXPERIMENT<US>key=amount",
	 * with a point that writes it; amt_built -1: out of memory */
	struct lab_an_strset amt;
	size_t *amt_pt, amt_cap;
	int amt_built;
};

/* The most PUs a topology may list for the lessons to say which CPUs share a core (the harness
 * plans for at most 4096). */
#define LAB_AN_LESSON_PUS_MAX 4096

/* Lists d's points into x (zeroed first). 0, or -1 out of memory (x->ok stays 0). */
int lab__lesson_index(struct ev_pindex *x, const struct lab_an_data *d);
void lab__lesson_index_free(struct ev_pindex *x);
/* The entries (x->pt[list[k]] is a point; a point may follow itself) among which every point
 * sel names at threads_at (>= 0: that thread count) is: their count and *list; 0: none;
 * (size_t)-1 with *list NULL: any point may be (no index, or no item to narrow by). */
size_t lab__lesson_candidates(const struct ev_pindex *x, const struct lab_lesson_sel *sel,
                              int threads_at, const size_t **list);
/* qsort's order of two doubles (of tuples whose first double is the key). */
int lab__lesson_dbl_cmp(const void *a, const void *b);
/* The (package, core) of cpu, two numbers in x->pus; NULL when the topology does not list it
 * (or lists it without both). */
const double *lab__lesson_core(const struct ev_pindex *x, double cpu);
/* 1 when a point of exp writes key's amount want otherwise (tile=4K where want is 4096, or
 * 4096 where it is 4K), that point's key=value into have; 0 when none does. The loader has
 * refused two spellings of one amount in an experiment, so there is one to find. */
int lab__lesson_spelled(struct ev_pindex *x, const struct lab_an_data *d, const char *exp,
                        const char *key, const char *want, char *have, size_t len);
/* The largest team of exp's points; 0 when it has none (or x was not built). */
long lab__lesson_max_team(const struct ev_pindex *x, const char *exp);
/* 1 when some point of x is of experiment exp. */
int lab__lesson_has_experiment(const struct ev_pindex *x, const char *exp);
/* Counts a point compared with a selector (lab_an_lessons_probes). */
void lab__lesson_probe(void);

struct ev {
	const struct lab_an_data *d;
	struct ev_pindex *px; /* its amounts built on a not-run path (lab__lesson_spelled) */
	const struct lab_lesson_claim *c;
	struct ev_var var[EV_VARS_MAX];
	unsigned nvar;
	/* the df an interval over var may have: a lent variance's lender's runs - 1 (the mixed
	 * level), else inf */
	double df_max;
	int leaf[LAB_LESSON_NODES_MAX], base[LAB_LESSON_NODES_MAX]; /* var of each leaf */
	char why[512];                                              /* why not run */
	/* 1: why says what the planner would have refused (run.json was edited): a data error,
	 * not a lesson "not run" */
	int refused;
	/* 1: why says a point has no used samples or no value of the metric; said once the claim
	 * is known to measure something */
	int nodata;
};

/* Q of e's resolved claim, its 95 % interval and the verdict, with the sentence, into out. */
void lab__lesson_judge(struct ev *e, struct lab_an_lesson *out);

/*
 * lessons_notes.c: whether a verdict of e may stand on the level its means came from. A point
 * measured in two or more runs of which fewer than two kept an unflagged sample gives one
 * setup's interval, which can be narrow and still miss (the chapters say so): then 1 with the
 * reason in why ("point 3 kept 1 of its 5 runs ..."), and the verdict is inconclusive. 0 else.
 */
int lab__lesson_one_setup(const struct ev *e, char *why, size_t len);

/* lessons_notes.c: of the samples e's means are from (each point once), those flagged for
 * foreign load into *flagged (--include-flagged keeps them; 0 without it), all into *used.
 * Returns 1 when they are most of them, or most of one point's (a side all flagged decides a
 * ratio as much as the other), else 0. */
int lab__lesson_flagged(const struct ev *e, size_t *flagged, size_t *used);

/* lessons_notes.c: what the verdict in out says after itself (shared cores, a VM, a far run). */
void lab__lesson_notes(const struct ev *e, struct lab_an_lesson *out);

#endif
