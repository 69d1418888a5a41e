/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * report.html: one self-contained page (no network, no JavaScript) with the run's provenance
 * from run.json, the warnings, per series the table of points and the fits, and the plots
 * embedded as SVG data URIs.
 */
#ifndef LAB_ANALYZE_REPORT_H
#define LAB_ANALYZE_REPORT_H

#include "analyze/analysis.h"
#include "analyze/err.h"
#include "analyze/plots.h"

/* Writes dir/report.html; plots as returned by lab_an_plots_write (their SVGs are inlined when
 * rendered). Returns 0 or a negative code with the cause in err. */
int lab_an_report_write(const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                        const char *dir, struct lab_err *err);

#endif
