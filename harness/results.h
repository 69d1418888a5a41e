/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The result files of harness/record_schema.h: run.json, samples.csv, threads.csv, config.ini.
 * Rows are appended and flushed as each point finishes, and run.json is rewritten (temp file +
 * rename) as points start and finish (at most every 200 ms, and always at the end), so an
 * interrupted run leaves valid files holding what finished. run.json lists the whole plan from the
 * start: each point is "planned", "running", "ok", "skipped", "failed", or "not_run" once the run
 * ended without it. A point measured in runs keeps every run handed over: when the run ended
 * before its last planned run, its "runs" is below its "runs_planned" and its reason says so.
 */
#ifndef LAB_HARNESS_RESULTS_H
#define LAB_HARNESS_RESULTS_H

#include "harness/config.h"
#include "harness/plan.h"
#include "harness/prov.h"
#include "harness/record_schema.h"
#include "harness/runner.h"
#include "harness/selfcheck.h"

/* What run.json records besides the plan. Pointers must outlive the results handle. */
struct lab_results_info {
	int argc;
	char *const *argv;
	const struct lab_cfg *cfg;
	const struct lab_topo *topo;
	const struct lab_prov *prov;
	const struct lab_selfcheck *selfcheck; /* NULL when not measured */
	char started_utc[32];
};

struct lab_results;

/* The lock file a run holds in its directory (lab_results_open), and the temp file run.json
 * is rewritten through (then renamed). */
#define LAB_RESULTS_LOCK    "run.lock"
#define LAB_RESULTS_RUN_TMP LAB_FILE_RUN ".tmp"

/* Whether lab_results_open could take dir, creating and writing nothing (lab run --dry-run): a
 * new name under parents that are directories (the first missing one in a directory this user
 * can write), or an existing empty directory. 0, or -LAB_EINVAL with the refusal lab run would
 * give (-LAB_ENOMEM). A lock of another run is left to the run to judge. */
int lab_results_dir_check(const char *dir, struct lab_err *err);

/*
 * Creates dir (and missing parents; it must not exist or be empty), claims it for this run with
 * a lock file created with O_EXCL (dir/run.lock, removed by lab_results_close; a second run
 * given the same directory is refused), and writes config.ini, the CSV headers and a first
 * run.json with status "running". Returns 0 and *out; -LAB_EINVAL when dir cannot be used (no
 * name, not a directory, not empty, taken by another run); -LAB_EIO when writing failed (a full
 * disk); the message names the path and cause. On failure nothing is left behind that this call
 * created.
 */
int lab_results_open(struct lab_results **out, const char *dir, const struct lab_plan *plan,
                     const struct lab_results_info *info, struct lab_err *err);

/*
 * Marks point pt as running and rewrites run.json (unless it was rewritten less than 200 ms
 * ago), so a run killed mid-point says which point it was in. Returns 0 or -LAB_EIO.
 */
int lab_results_start(struct lab_results *res, const struct lab_point *pt, struct lab_err *err);

/*
 * Appends a finished run of a point (a sink for lab_runner_run; ctx is the struct lab_results):
 * its rows, and what run.json says of the point. The point counts as done (progress.points_done)
 * with its last run (rec->last_run).
 */
int lab_results_point(void *ctx, const struct lab_point_rec *rec, struct lab_err *err);

/*
 * Writes the final run.json with status ("complete", "interrupted" or "failed"; error, when not
 * NULL, is recorded as why), closes the files and frees res. Points that never finished are
 * listed as "not_run". On failure no run.json.tmp is left. Returns 0 or -LAB_EIO.
 */
int lab_results_close(struct lab_results *res, const char *status, const char *error,
                      struct lab_err *err);

#endif
