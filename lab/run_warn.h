/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The warnings of `lab run` about how points ran (issue 21 finding 9): a warning is said when
 * the cause changed a result, once per cause at the end of the run, with counts. A thread off
 * its planned CPU (threads.csv, OpenMP threads, ctr_cpu_migrations) ran somewhere else than
 * the conditions say: that changes the result. A pinned thread switched out now and then does
 * not, unless samples were flagged for it (runq_wait over max_runq_wait), and those the run's
 * "load:" summary counts already; a switch nothing measured is said only beside a migration.
 */
#ifndef LAB_LAB_RUN_WARN_H
#define LAB_LAB_RUN_WARN_H

#include <stdio.h>

#include "harness/runner.h"

struct lab_run_warn {
	unsigned moved_points;         /* points with a thread-sample off its planned CPU */
	unsigned moved_thread_samples; /* threads.csv rows and OpenMP threads off their CPU */
	unsigned mig_points;           /* points whose counters saw a CPU migration */
	unsigned mig_samples, mig_of;  /* samples with one, of samples counted there */
	unsigned switched_samples;     /* of those points: samples with a context switch */
	unsigned first_point;          /* the first point with a cause (to look at) */
	int any;
	/* the points counted so far (a point of runs >= 2 has a record per run): bit id */
	unsigned char moved_seen[(LAB_POINTS_MAX + 7) / 8], mig_seen[(LAB_POINTS_MAX + 7) / 8];
};

/* Counts the causes of rec into w (zeroed before the first call). No output. */
void lab_run_warn_add(struct lab_run_warn *w, const struct lab_point_rec *rec);
/* Writes one "lab: warning:" line per cause counted in w to f. Returns the lines written. */
unsigned lab_run_warn_print(FILE *f, const struct lab_run_warn *w);

#endif
