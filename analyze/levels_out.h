/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A point's levels (analyze/levels.h) and its precision target (run.json) as output. */
#ifndef LAB_ANALYZE_LEVELS_OUT_H
#define LAB_ANALYZE_LEVELS_OUT_H

#include <stddef.h>

#include "analyze/data.h"
#include "harness/json.h"

/*
 * Writes p's levels into the open JSON object: runs, var_between, var_within, between_share,
 * run_ci95 (from run means; null with one run), within_run_ci95, interval_level,
 * variance_advice, run.json's runs_planned and runs (as runs_recorded) when it has the first,
 * and its precision_target, precision_achieved, samples and budget_exhausted when the point had
 * a target.
 */
void lab_an_levels_json(struct lab_json *w, const struct lab_an_point *p);

/* What p got of its planned runs into buf ("1 of 3 planned runs (the run ended first): ..."), or
 * NULL when it got them all (lab_an_point_runs_short). */
const char *lab_an_runs_short_line(const struct lab_an_point *p, char *buf, size_t len);

/* "precision: ..." of p into buf (what was asked, reached, spent, and whether the budget ran
 * out), or NULL when p had no precision target. */
const char *lab_an_precision_line(const struct lab_an_point *p, char *buf, size_t len);

#endif
