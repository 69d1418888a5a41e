/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by report.c and the views' report sections (analyze/views/); not part of the
 * analyzer's interface. */
#ifndef LAB_ANALYZE_REPORT_INT_H
#define LAB_ANALYZE_REPORT_INT_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/plots.h"

/* Writes s HTML-escaped. */
void lab_an_html(FILE *f, const char *s);
/* Inlines DIR/plots/BASE.svg of plot p as a data-URI figure; nothing when the file is absent. */
void lab_an_report_img(FILE *f, const char *dir, const struct lab_an_plot *p);
/* Inlines every rendered plot of view (NULL: of the scaling series) and group. */
void lab_an_report_view_imgs(FILE *f, const struct lab_an_plots *plots, const char *dir,
                             const char *view, size_t group);

#endif
