/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by report.c and report_kernels.c; not part of the analyzer's interface. */
#ifndef LAB_ANALYZE_REPORT_INT_H
#define LAB_ANALYZE_REPORT_INT_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/plots.h"

/* Writes s HTML-escaped. */
void lab_an_html(FILE *f, const char *s);
/* Inlines DIR/plots/NAME.svg as a data-URI figure; nothing when the file is absent. */
void lab_an_report_img(FILE *f, const char *dir, const char *name);
/* The c2c section (matrix table per method, heatmaps) and the locks section (tables, plots). */
void lab_an_report_c2c(FILE *f, const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                       const char *dir);
void lab_an_report_locks(FILE *f, const struct lab_an_analysis *a, const struct lab_an_plots *plots,
                         const char *dir);

#endif
