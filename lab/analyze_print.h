/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The human-readable tables of `lab analyze` and `lab compare`. */
#ifndef LAB_LAB_ANALYZE_PRINT_H
#define LAB_LAB_ANALYZE_PRINT_H

#include <stdio.h>

#include "analyze/analysis.h"
#include "analyze/compare.h"

/* Per series: the table of points, then the fits and the chosen model. */
void lab_analyze_print(FILE *f, const struct lab_an_analysis *a);
/* Per point: old and new mean cost, relative change with its CI, p and verdict. */
void lab_compare_print(FILE *f, const struct lab_an_compare *c, const struct lab_an_data *old,
                       const struct lab_an_data *new_);

#endif
