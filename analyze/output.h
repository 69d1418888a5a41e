/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * The analyzer's files: summary.csv (one row per point) and analysis.json (LAB_SCHEMA_ANALYSIS:
 * per series the points with speedup and its interval, the fits and the chosen model). The
 * same JSON document is what `lab analyze --json` prints.
 */
#ifndef LAB_ANALYZE_OUTPUT_H
#define LAB_ANALYZE_OUTPUT_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/err.h"

/* The rate columns of summary.csv (after mode_centers): GB/s of bytes read + written, the same
 * with write-allocate traffic, GFLOP/s, each with its 95 % interval, then flops per byte. */
#define LAB_AN_RATE_COLUMNS                                                                        \
	"gbytes_per_s,gbytes_per_s_ci95_lo,gbytes_per_s_ci95_hi,gbytes_per_s_wa,"                  \
	"gbytes_per_s_wa_ci95_lo,gbytes_per_s_wa_ci95_hi,gflops_per_s,gflops_per_s_ci95_lo,"       \
	"gflops_per_s_ci95_hi,flops_per_byte"

/* Writes summary.csv to path. Returns 0 or a negative code with the cause in err. */
int lab_an_summary_write(const struct lab_an_analysis *a, const char *path, struct lab_err *err);
/* Writes the analysis document to f (the caller owns f and checks its error state). */
void lab_an_analysis_json(const struct lab_an_analysis *a, FILE *f);
/* Writes the analysis document to path. */
int lab_an_analysis_json_write(const struct lab_an_analysis *a, const char *path,
                               struct lab_err *err);

#endif
