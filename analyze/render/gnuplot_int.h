/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the gnuplot renderer's files share (gnuplot.c, gnuplot_heat.c); not an interface. */
#ifndef LAB_ANALYZE_RENDER_GNUPLOT_INT_H
#define LAB_ANALYZE_RENDER_GNUPLOT_INT_H

#include <stdio.h>

#include "analyze/render/doc.h"

/* Heat map m's .dat: index 0, x y value per cell with a number; index 1, x y label of the
 * cells labelled. */
void lab__gp_dat_heat(FILE *f, const struct lab_doc_matrix *m);
/* The script lines that draw heat map m from dat.dat (its axes, palette and plot). */
void lab__gp_heat(FILE *f, const struct lab_doc_matrix *m, const char *dat);

#endif
