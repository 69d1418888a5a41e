/* SPDX-License-Identifier: GPL-3.0-or-later */
/* fresh_process = on: a run of a point in a new process of the lab (lab/run_fresh.c). */
#ifndef LAB_LAB_RUN_FRESH_H
#define LAB_LAB_RUN_FRESH_H

#include <stdatomic.h>
#include <stdint.h>

#include "harness/runner.h"
#include "lab/cli.h"

/* What the new processes are started with, and what their records are checked against. */
struct lab_run_fresh {
	const struct lab_cli_args
	    *a;                /* the configs, --set, --only, --cache: the child plans again */
	const char *cache_arg; /* the parent's checked cache level ("" none): lab_cli_caches */
	const struct lab_plan *plan;
	uint64_t origin_ns;            /* the runner's: thread times are moved to count from it */
	const atomic_int *interrupted; /* lab run's Ctrl-C */
	/* lab run's runner: what it knows of a persistent load goes to each new process and
	 * comes back with its record (without it every process waited out every retry again:
	 * 39 s against 15.5 s in one process beside a busy CPU) */
	struct lab_runner *runner;
};

/* The runner's elsewhere hook (harness/runner.h): one run of pt in a new process. */
int lab_run_fresh_point(void *ctx, const struct lab_point *pt, struct lab_point_rec *rec,
                        struct lab_err *err);

/* lab __run-point: the new process's side (internal to lab run). */
int lab_cmd_run_point(int argc, char **argv);

#endif
