/* SPDX-License-Identifier: GPL-3.0-or-later */
/* lab run's console (run_console.c): what the user sees while and after points run. cmd_run.c
 * owns the run and hands these the sink's calls; nothing here calls back into it. */
#ifndef LAB_LAB_RUN_CONSOLE_H
#define LAB_LAB_RUN_CONSOLE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/results.h"
#include "harness/runner.h"
#include "lab/cli.h"
#include "lab/run_warn.h"

/* Console state: progress line, ETA, and the per-point summary lines. */
struct lab_run_console {
	atomic_int *interrupted; /* set when stdout's reader left, as Ctrl-C sets it */
	const struct lab_cli_setup *s;
	struct lab_results *res;
	bool progress;
	uint64_t t0_ns;
	/* Points, not runs: a point begins with its run 0 and is done with its last run. */
	unsigned begun, done;
	unsigned failed, skipped, flagged_points;
	unsigned samples, flagged, retried; /* kept samples, those kept flagged, those retried */
	unsigned flagged_runq; /* of the kept flagged ones: a worker waited for its CPU */
	int start_rc; /* lab_results_start failed: the next point reports it and the run stops */
	struct lab_err start_err;
	bool legend;              /* the line that says what the numbers are was printed */
	int wname, wparams;       /* the widths of the point lines' name and params columns */
	struct lab_run_warn warn; /* causes that changed results, said once at the end */
	unsigned total_spent;     /* points whose precision target met the config's total_budget */
	/* The ETA: estimated ns of every planned run, of those done, and the run under way. */
	double est_total, est_done;
	const struct lab_point *est_cur;
};

/* The ETA's total (the plan's runs as the estimate counts them) and the point lines' widths. */
void lab_run_console_begin(struct lab_run_console *c);
/* The sink's progress call (ctx: the console): starts the point's results, draws the line. */
void lab_run_console_progress(void *ctx, unsigned done, unsigned total, const struct lab_point *pt);
/* The sink's point call: the point's line, the counts, the record into the results. */
int lab_run_console_point(void *ctx, const struct lab_point_rec *rec, struct lab_err *err);
/* The summary: how the run ended, where its results are, the load, the warnings, and the
 * `lab analyze` line to type next (self: the binary as the user called it). */
void lab_run_console_report(const struct lab_run_console *con, const char *self, const char *dir,
                            int rc, const struct lab_err *err, int crc, const struct lab_err *cerr);

#endif
